"""The organizer's controls: pause, resume, extend, advance now, cancel, resend
an email, replace a player, hand a seat to a bot. Each takes the version the
organizer's page showed: a double-submitted form finds the version moved on (every
control writes a note to the game log) and does nothing the second time."""

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.bots import LEVELS
from games.bots.names import bot_names
from games.core import deadlines, links, notifications, standing
from games.core.game_setup import distinct_names, parse_player
from games.core.game_writes import ServiceError, assign_fields, commit_state, locked_game, policy
from games.core.timers import advance
from games.models import Game, Seat
from games.words.narrate import (
    DEADLINE_EXTENDED,
    GAME_CANCELLED,
    GAME_PAUSED,
    GAME_RESUMED,
    LINK_RESENT,
    REPLACED,
    SEAT_REPLACED,
)

# Said in the language active when refused (the organizer's page's, or the admin's).
STALE = gettext_lazy("The game changed meanwhile; nothing was done.")
NOT_ACTIVE = gettext_lazy("This game is no longer in play.")


def _control(
    game_id: int, expected_version: int, note: dict, change, now, announce="", then=None
) -> Game:
    """One organizer control: the change, a note in the log and, with ``announce``
    (an email kind), an email to every player in the same commit. ``note``: the
    note command's fields (``text``, in English for the records, and the ``code``
    and ``params`` each reader's log says it from, games.words.narrate). ``then``:
    the state after the note -> engine commands the control makes next, in the same
    commit."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.version != expected_version:
            raise ServiceError("stale", str(STALE))
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("not_active", str(NOT_ACTIVE))
        fields = change(game) or {}
        assign_fields(game, fields)  # the new state's timing reads them (the bots, say)
        command = {"type": "note", **note}
        state, events = engine.apply(game.engine_state(), command)
        for follow_up in then(state) if then else ():
            state, more = engine.apply(state, follow_up)
            events = [*events, *more]
        commit_state(game, state, events, now)
        if fields:
            Game.objects.filter(pk=game.pk).update(**fields)
        if announce:
            notifications.record_notice(game, announce, f"note{state.seq}")
        standing.follow(game, now)  # a game resumed: instructions due meanwhile apply now
    return game


def pause(game_id: int, *, expected_version: int, now=None) -> Game:
    now = now or timezone.now()

    def change(game):
        if game.paused_at is not None:
            raise ServiceError("already_paused", _("The game is already paused."))
        return {"paused_at": now}

    note = {"text": "The game is paused.", "code": GAME_PAUSED}
    return _control(game_id, expected_version, note, change, now, "paused")


def resume(game_id: int, *, expected_version: int, now=None) -> Game:
    """The deadline (and the reminder) shift by the time spent paused."""
    now = now or timezone.now()

    def change(game):
        if game.paused_at is None:
            raise ServiceError("not_paused", _("The game is not paused."))
        return {
            "paused_at": None,
            "idle_phases": 0,  # the organizer stepped in: the players get a fresh run
            "phase_deadline": deadlines.resume(game.phase_deadline, game.paused_at, now),
            "deadline_claimed_until": None,
            "reminder_at": deadlines.resume(game.reminder_at, game.paused_at, now),
            "bargaining_until": deadlines.resume(game.bargaining_until, game.paused_at, now),
        }

    note = {"text": "The game resumes.", "code": GAME_RESUMED}
    return _control(game_id, expected_version, note, change, now, "resumed")


def extend(game_id: int, *, expected_version: int, by: timedelta, now=None) -> Game:
    now = now or timezone.now()
    try:
        game = Game.objects.get(pk=game_id)
        new_deadline = deadlines.extend(game.phase_deadline, by, now)
    except deadlines.ExtensionError as error:
        raise ServiceError("bad_extension", str(error)) from None
    shown = deadlines.format_for(new_deadline, "UTC")["utc"]

    def change(game):
        reminder = deadlines.reminder_time(policy(game), new_deadline, now)
        return {
            "phase_deadline": new_deadline,
            "reminder_at": reminder,
            "deadline_claimed_until": None,
        }

    note = {
        "text": f"The deadline is extended to {shown}.",
        "code": DEADLINE_EXTENDED,
        "params": {"until": new_deadline.isoformat()},
    }
    return _control(game_id, expected_version, note, change, now, "extended")


def advance_now(game_id: int, *, expected_version: int, now=None) -> Game:
    """The organizer moves the game on before its deadline: the missing moves get
    their defaults, logged as the organizer's doing (``timed_out`` says ``by``, so
    no note is needed) and counted as nobody's miss. One compare-and-set
    transition: a form posted twice finds the version moved on."""
    if not advance(game_id, expected_version=expected_version, now=now, force=True):
        if Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).exists():
            raise ServiceError("stale", str(STALE))
        raise ServiceError("not_active", str(NOT_ACTIVE))
    return Game.objects.get(pk=game_id)


def cancel(game_id: int, *, expected_version: int, now=None) -> Game:
    now = now or timezone.now()

    def change(game):
        return {
            "status": Game.Status.CANCELLED,
            "phase_deadline": None,
            "reminder_at": None,
            "finished_at": now,
        }

    note = {"text": "The organizer cancelled the game.", "code": GAME_CANCELLED}
    return _control(game_id, expected_version, note, change, now, "cancelled")


def resend_email(seat_id: int, *, expected_version: int, now=None) -> Game:
    """A player lost their link (the commonest request): their current email again.
    A form posted twice finds the version moved on and sends nothing more."""
    now = now or timezone.now()
    seat = Seat.objects.get(pk=seat_id)

    def change(game):
        notifications.record_resend(game, seat)

    note = {
        "text": f"The organizer sent {seat.name} their link again.",
        "code": LINK_RESENT,
        "params": {"name": seat.name},
    }
    return _control(seat.game_id, expected_version, note, change, now)


def replace_player(
    seat_id: int,
    *,
    expected_version: int,
    name: str,
    email: str,
    timezone_name: str = "",
    now=None,
) -> Seat:
    """A new person takes the seat: every earlier link is revoked, the player who
    leaves is told so at their address (in the same commit), the others read it in
    the log (and their next email), and the new player gets the current email.
    Without ``timezone_name``, the seat keeps its zone (the new player's settings
    change it)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    new = parse_player(f"{name} <{email}> {timezone_name or seat.timezone}")
    others = seat.game.seats.exclude(pk=seat.pk).values_list("name", flat=True)
    distinct_names([*others, new.name])
    params = {"new": new.name, "seat": seat.index + 1, "old": seat.name}
    note = {"text": REPLACED.format(**params), "code": SEAT_REPLACED, "params": params}

    def change(game):
        if seat.email and seat.email.lower() != new.email.lower():  # the same person: the
            notifications.record_replaced(game, seat)  # welcome says it; a bot: no address
        Seat.objects.filter(pk=seat.pk).update(
            name=new.name, email=new.email, timezone=new.timezone, **_new_occupant()
        )
        # The player who leaves takes their hidden standing instructions with them; a
        # bot that leaves, its seat's level.
        return {"standing": standing.without(game, seat.index), "bots": _without_bot(game, seat)}

    game = _control(
        seat.game_id, expected_version, note, change, now, then=_black_market_answer_off(seat)
    )
    seat.refresh_from_db()
    with transaction.atomic():
        notifications.record_welcome(game, seat, game.engine_state())
    return seat


def _new_occupant() -> dict:
    """The Seat fields a new occupant starts afresh: new links (the old ones revoked),
    no news told yet, no missed deadline, no delivery record of the old address."""
    return {
        **links.rotated_secrets(),
        "notified_seq": 0,
        "missed_in_a_row": 0,
        "last_delivered_at": None,
        "last_failure": "",
        "last_failure_at": None,
        "autoreply_at": None,
        "undeliverable_at": None,
    }


def _without_bot(game: Game, seat: Seat) -> dict:
    return {index: level for index, level in game.bots.items() if index != str(seat.index)}


def _black_market_answer_off(seat: Seat):
    def answer_off(state):
        """...and their Black Market standing answer (public: the table reads it is off),
        which would otherwise seal the new player's claims and tell what their stand
        cannot pay."""
        if seat.index not in state.black_market_standing:
            return []
        return [{"type": "set_black_market_standing", "seat": seat.index, "standing": False}]

    return answer_off


def hand_to_bot(seat_id: int, *, expected_version: int, level: str, now=None) -> Seat:
    """A bot of ``level`` takes the seat (a player who left, or one away for long): as
    for any replacement, every earlier link is revoked, the player who leaves is told so
    at their address, and the table reads it in the log. The bot sits under a name
    marked as a bot's; a person may take the seat back (``replace_player``)."""
    now = now or timezone.now()
    if level not in LEVELS:
        raise ServiceError("no_such_bot", _("There is no such bot: choose one of the list."))
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    if seat.bot:
        raise ServiceError("already_a_bot", _("A bot plays this seat already."))
    others = seat.game.seats.exclude(pk=seat.pk).values_list("name", flat=True)
    name = bot_names([*others, seat.name], 1, random.SystemRandom())[0]
    params = {"new": name, "seat": seat.index + 1, "old": seat.name}
    note = {"text": REPLACED.format(**params), "code": SEAT_REPLACED, "params": params}

    def change(game):
        if seat.email:
            notifications.record_replaced(game, seat)
        Seat.objects.filter(pk=seat.pk).update(
            name=name,
            email="",
            **_new_occupant(),
            digest_hour=None,
            away_from=None,
            away_until=None,
            reply_from_anyone=False,
        )
        bots = {**game.bots, str(seat.index): level}
        return {"standing": standing.without(game, seat.index), "bots": bots}

    _control(seat.game_id, expected_version, note, change, now, then=_black_market_answer_off(seat))
    seat.refresh_from_db()
    return seat
