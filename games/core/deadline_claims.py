"""Who writes each deadline: a claim on the game's row. Each deadline process
claims its own due games, ahead of time, in small batches (``SKIP LOCKED``: two
processes never wait for each other nor take the same row), so no single
dispatcher caps how many deadlines a second the service writes. A claim is a
lease: it holds until the deadline plus LEASE_AFTER_DEADLINE, and for as long
after as its process says it is alive (``beat``, every second or so: a burst may
take it longer than the lease to write). A game still not written once both ran
out (its process died or froze) may be taken over by any other process, or by the
beat's safety sweep.

A new deadline clears the claim (games.core.game_writes.phase_timing, the
controls): the next phase is claimed afresh.
"""

import os
import secrets
import socket
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q

from games.models import DeadlineProcess, Game

# A process writes its deadlines within seconds of their time; one that has neither
# written a deadline this long after it fell nor said it is alive for this long is
# taken to be dead or frozen.
LEASE_AFTER_DEADLINE = timedelta(seconds=3)
ALIVE_FOR = timedelta(seconds=3)
# A process that stopped without a word is forgotten after this.
FORGET_AFTER = timedelta(hours=1)
# The beat's safety sweep hands an overdue game to a Celery task, which may be lost
# with the broker: its claim is given up after this.
SWEEP_LEASE = timedelta(seconds=10)
SWEEP_HOLDER = "safety sweep"


def new_holder() -> str:
    """A name for one process's claims: its host and pid, and a random part, so that
    a restarted process never mistakes its predecessor's claims for its own."""
    host = socket.gethostname()[:40]
    return f"{host}:{os.getpid()}:{secrets.token_hex(4)}"


def _in_play():
    return Game.objects.filter(status=Game.Status.ACTIVE, paused_at=None)


def beat(holder: str, now) -> None:
    """``holder`` is alive: its claims hold for ALIVE_FOR more, past their leases."""
    DeadlineProcess.objects.update_or_create(
        holder=holder, defaults={"alive_until": now + ALIVE_FOR}
    )


def forget(holder: str | None = None, now=None) -> None:
    """A process stopped (``holder``), or the ones silent for long."""
    if holder is not None:
        DeadlineProcess.objects.filter(holder=holder).delete()
    else:
        DeadlineProcess.objects.filter(alive_until__lt=now - FORGET_AFTER).delete()


def held_by_nobody(now) -> Q:
    """A game whose claim is no more: none, or a lease run out whose process has
    stopped saying it is alive."""
    alive = DeadlineProcess.objects.filter(
        holder=OuterRef("deadline_claimed_by"), alive_until__gte=now
    )
    return Q(deadline_claimed_until=None) | (Q(deadline_claimed_until__lt=now) & ~Exists(alive))


def _lapsed(now):
    """Overdue deadlines whose claim ran out (a lease ends after its deadline)."""
    lapsed = _in_play().filter(phase_deadline__lte=now, deadline_claimed_until__lt=now)
    return lapsed.filter(held_by_nobody(now))


def claim(holder: str, now, ahead: timedelta, limit: int, lapsed: bool = True) -> list:
    """Claim for ``holder`` at most ``limit`` deadlines falling by ``now + ahead``
    that nobody holds (and, with ``lapsed``, overdue ones whose lease ran out),
    earliest first: [(game id, deadline)]. Each claim holds until its deadline plus
    LEASE_AFTER_DEADLINE."""
    with transaction.atomic():
        free = _in_play().filter(
            phase_deadline__lte=now + ahead, deadline_claimed_until=None
        )  # the partial index game_deadline_unclaimed
        rows = _locked_first(free, limit)
        if lapsed and len(rows) < limit:
            rows += _locked_first(_lapsed(now), limit - len(rows))
        _hold(rows, holder, F("phase_deadline") + LEASE_AFTER_DEADLINE)
    return rows


def claim_overdue(holder: str, now, limit: int, grace: timedelta = timedelta(0)) -> list:
    """The safety sweep's claim: deadlines past by ``grace`` or more that no live
    claim holds, held for SWEEP_LEASE from ``now``. [(game id, deadline)], earliest
    first."""
    with transaction.atomic():
        unheld = _in_play().filter(held_by_nobody(now), phase_deadline__lte=now - grace)
        rows = _locked_first(unheld, limit)
        _hold(rows, holder, now + SWEEP_LEASE)
    return rows


def release(holder: str, game_ids: list) -> int:
    """Give up ``holder``'s claims on these games (a process stopping cleanly), for
    another process to claim at once."""
    return Game.objects.filter(pk__any=game_ids, deadline_claimed_by=holder).update(
        deadline_claimed_until=None
    )


def _locked_first(games, limit: int) -> list:
    if limit <= 0:
        return []
    due = games.select_for_update(skip_locked=True).order_by("phase_deadline", "pk")
    return list(due.values_list("pk", "phase_deadline")[:limit])


def _hold(rows: list, holder: str, until) -> None:
    if rows:
        Game.objects.filter(pk__any=[pk for pk, _ in rows]).update(
            deadline_claimed_by=holder, deadline_claimed_until=until
        )
