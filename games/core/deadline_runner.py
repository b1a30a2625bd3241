"""One deadline process (``manage.py run_deadlines``; run as many as the load
needs, on as many hosts): it claims its own deadlines ahead of time
(games.core.deadline_claims), works out what each will do while it waits
(timers.plan_advances), and when a deadline falls only writes it
(one statement for a chunk of games, from the plans it staged in the database:
games.core.staged_advances; and timers.advance_many with the plans for the rest, a
compare-and-set on each game's stamp either way, so that a move made meanwhile wins
and the transition is worked out again).

Claims come in small batches, each planned before the next is claimed, so that
processes running side by side share a burst of deadlines falling together. A
write has priority over planning and claiming, and nothing slow starts just
before a deadline falls.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.core import deadline_claims, outbox_handoff, staged_advances, timers

log = logging.getLogger(__name__)

# Deadlines claimed at once: small enough that two processes share a burst.
CLAIM_BATCH = 500
# Games planned at once (about a millisecond each): short, so that a deadline falling
# meanwhile is written on time.
PLAN_CHUNK = 50
# Games written in one transaction, in id order: one commit for many, while the first
# of a burst are not held back by the last.
WRITE_CHUNK = 250
# Nothing but writing this close to a deadline (a plan chunk or a claim takes less).
GUARD = timedelta(seconds=0.15)
# Claimed games not worked out yet, at most (then planning comes first), so that a
# process claims about as fast as it plans and processes side by side share a burst...
UNPLANNED_AT_MOST = 2 * CLAIM_BATCH
# ...except in the last seconds before a deadline it holds: then it claims whatever is
# due, as a game claimed unplanned is still written at its deadline (worked out then),
# and one left unclaimed waits for the safety sweep.
CLAIM_ALL_WITHIN = timedelta(seconds=5)
# With nothing to claim, look again this often; overdue claims that lapsed less often.
IDLE_SECONDS = 0.25
LAPSED_EVERY_SECONDS = 1.0
# How often a process says it is alive (deadline_claims.beat), between two steps.
ALIVE_EVERY = timedelta(seconds=1)


class DeadlineRunner:
    """The deadlines one process holds: deadline -> {game id: its plan, or None while
    not worked out}. ``step()`` does the most urgent piece of work."""

    def __init__(
        self,
        holder: str | None = None,
        *,
        ahead: timedelta | None = None,
        batch: int | None = None,
        clock=None,
    ):
        self.holder = holder or deadline_claims.new_holder()
        self.batch = batch or CLAIM_BATCH
        seconds = settings.DEADLINE_CLAIM_AHEAD_SECONDS
        self.ahead = ahead if ahead is not None else timedelta(seconds=seconds)
        self.clock = clock or timezone.now
        self.held: dict = {}
        self.unplanned: dict = {}  # deadline -> [game id], not planned yet
        self.staged: set = set()  # game ids whose plan is staged (staged_advances)
        self.claim_after = None  # no claim before this (nothing was left to claim)
        self.lapsed_after = None
        self.alive_until = None  # when to say again that this process is alive
        self.written = 0
        self.written_staged = 0  # of them, by the staged statement
        self.unsent: list = []  # emails of written deadlines, sent once no deadline is due

    # --- the loop's one step ----------------------------------------------------------------

    def step(self) -> float:
        """Write, plan or claim, whichever is due first; returns the seconds the
        caller may wait before the next step (0: more work is ready)."""
        now = self.clock()
        if self.alive_until is None or now >= self.alive_until:
            deadline_claims.beat(self.holder, now)
            self.alive_until = now + ALIVE_EVERY
        due = min(self.held, default=None)
        if due is not None and due <= now:
            self.write_chunk(due, now)
            return 0.0
        # The burst is written: its emails go to the email workers now.
        outbox_handoff.send_held(self.unsent)
        quiet = due is None or due - now > GUARD
        may_claim = quiet and (self.claim_after is None or now >= self.claim_after)
        backlog = sum(len(pks) for pks in self.unplanned.values())
        closing = due is not None and due - now < CLAIM_ALL_WITHIN
        if may_claim and (backlog < UNPLANNED_AT_MOST or closing):
            if self.claim(now):
                return 0.0
            self.claim_after = now + timedelta(seconds=IDLE_SECONDS)
        if quiet and self.plan_chunk():
            return 0.0
        wait = IDLE_SECONDS
        if due is not None:
            wait = min(wait, (due - now).total_seconds())
        return max(wait, 0.0)

    def claim(self, now) -> int:
        lapsed = self.lapsed_after is None or now >= self.lapsed_after
        if lapsed:
            self.lapsed_after = now + timedelta(seconds=LAPSED_EVERY_SECONDS)
            deadline_claims.forget(now=now)
            staged_advances.forget()  # the plans of the processes just forgotten
        rows = deadline_claims.claim(self.holder, now, self.ahead, self.batch, lapsed=lapsed)
        for pk, deadline in rows:
            self.held.setdefault(deadline, {})[pk] = None
            self.unplanned.setdefault(deadline, []).append(pk)
        return len(rows)

    def plan_chunk(self) -> bool:
        """Work out the next few claimed games' transitions, earliest deadline first."""
        if not self.unplanned:
            return False
        deadline = min(self.unplanned)
        pending = self.unplanned[deadline]
        chunk, self.unplanned[deadline] = pending[:PLAN_CHUNK], pending[PLAN_CHUNK:]
        if not self.unplanned[deadline]:
            del self.unplanned[deadline]
        games = self.held.get(deadline)
        if games is None:  # written meanwhile
            return True
        plans = timers.plan_advances([(pk, None) for pk in chunk if pk in games], at=deadline)
        planned = {pk: plan for pk, plan in plans.items() if pk in games}
        games.update(planned)
        self.staged |= self._staged(planned.values())
        return True

    def write_chunk(self, deadline, now) -> int:
        """Write the next games of a deadline that fell, in id order."""
        games = self.held[deadline]
        chunk = sorted(games)[:WRITE_CHUNK]
        plans = {pk: games.pop(pk) for pk in chunk}
        if not games:
            del self.held[deadline]
            self.unplanned.pop(deadline, None)
        staged = [pk for pk in chunk if pk in self.staged]
        self.staged.difference_update(chunk)
        with outbox_handoff.sends_held(self.unsent):
            moved = self._write_staged(staged, plans)
            rest = [pk for pk in chunk if pk not in moved]
            known = {pk: plans[pk] for pk in rest if plans[pk] is not None}
            advanced = len(moved)
            self.written_staged += len(moved)
            if rest:  # not staged, or changed since they were planned
                targets = [(pk, None) for pk in rest]
                advanced += timers.advance_chunk(targets, plans=known, holder=self.holder)
        self.written += advanced
        if deadline not in self.held:
            late = (self.clock() - deadline).total_seconds()
            log.info(
                "deadline %s written, the last %.3f s after it (%d of %d games so far staged)",
                deadline.isoformat(), late, self.written_staged, self.written,
            )  # fmt: skip
        return advanced

    def _staged(self, plans) -> set:
        """staged_advances.stage, or nothing if it fails: those games are written the
        ordinary way, from the plans kept here."""
        try:
            return staged_advances.stage(plans, self.holder)
        except Exception:
            log.exception("could not stage %d plans; the ordinary way", len(plans))
            return set()

    def _write_staged(self, game_ids: list, plans: dict) -> set:
        """staged_advances.write, or nothing if it fails: the ordinary path then
        writes those games."""
        try:
            return staged_advances.write(game_ids, self.holder, timezone.now(), plans)
        except Exception:
            log.exception("staged write of %d games failed; the ordinary way", len(game_ids))
            return set()

    def release(self) -> int:
        """Give up every claim not written yet (stopping cleanly): another process
        claims them at once instead of waiting for the leases to run out."""
        outbox_handoff.send_held(self.unsent)
        pks = [pk for games in self.held.values() for pk in games]
        self.held.clear()
        self.unplanned.clear()
        self.staged.clear()
        released = deadline_claims.release(self.holder, pks) if pks else 0
        deadline_claims.forget(self.holder)
        staged_advances.forget(self.holder)
        return released


def run(runner: DeadlineRunner, stopping, on_error_wait: float = 1.0) -> None:
    """Step ``runner`` until ``stopping`` (a threading.Event) is set, then release its
    claims. A failing step (the database restarting) is logged and tried again."""
    from django.db import close_old_connections, connection

    while not stopping.is_set():
        try:
            wait = runner.step()
        except Exception:
            log.exception("deadline step failed; trying again in %.0f s", on_error_wait)
            connection.close()
            wait = on_error_wait
        if wait > 0:
            # While idle, as between two requests: a connection past its age or broken
            # (PostgreSQL restarted) is replaced before the next step uses it.
            close_old_connections()
            stopping.wait(wait)
    try:
        released = runner.release()
        log.info("stopped: %d claims released, %d games written", released, runner.written)
    except Exception:
        log.exception("could not release the claims; they lapse after their deadlines")
