"""A player's move: one transaction, refused whole or committed whole with its
events and the emails it makes owed. A repeated submission (the same form key)
is answered as before and changes nothing."""

from dataclasses import replace

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core import compiled, pacing, standing
from games.core.game_writes import Outcome, apply_move, locked_game, retried_on_deadlock
from games.models import Game, Seat, Submission


@retried_on_deadlock
def submit(
    seat: Seat, command: dict, *, version: int, key: str, now=None, seats: list | None = None
) -> Outcome:
    """Apply a seat's command. ``version`` is the phase version the page was
    rendered for (``view["phase"]["since"]``): moves of other seats within the
    same phase do not make a page stale, a new phase does. ``key`` is the form's
    one-time key: a repeat of an accepted move returns its outcome. A refused
    move changes nothing and leaves no row (a flood of them stores nothing); the
    same form sent again is judged again. A seat moving too fast (games.core.pacing)
    is refused with ``retry_after``. ``seats``: the game's seats in seat order,
    if read already (the emails the move owes are addressed from them)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            return _submit_locked(seat, command, version, key, now, seats)
    except _Repeated as repeat:  # everything it wrote is rolled back
        return Outcome(True, version=repeat.version, repeated=True)


class _Repeated(Exception):
    """The form's key was taken by an earlier accepted move: undo this one."""

    def __init__(self, version: int):
        self.version = version


def _submit_locked(seat: Seat, command: dict, version: int, key: str, now, seats) -> Outcome:
    game = locked_game(seat.game_id)
    version_seen = game.version
    allowances, wait = _take_a_move(game, seat.index, now)
    if wait:
        if _submitted(game, key):
            raise _Repeated(version_seen)
        return Outcome(
            False, "too_fast", pacing.too_fast_message(wait), game.version, retry_after=wait
        )
    command = {**command, "seat": seat.index}  # the seat comes from the link, never the form
    # A player moved: the game is not abandoned (see timers._idle).
    moved = {"last_move_seq": game.version, "idle_phases": 0, "move_allowances": allowances}
    outcome = apply_move(game, command, version, now, seats=seats, **moved)
    if not outcome.accepted:
        # Refused as made again (the same form sent twice, or a stale page): its
        # first outcome. Else a refused move counts against the allowance all the same.
        if _submitted(game, key):
            raise _Repeated(version_seen)
        Game.objects.filter(pk=game.pk).update(move_allowances=allowances)
        return outcome
    if seat.missed_in_a_row:
        Seat.objects.filter(pk=seat.pk).update(missed_in_a_row=0)
    # Recorded last, and checked by the same statement: a move whose key is taken
    # is a repeat of one accepted earlier (the same form sent twice), which the
    # lock has made us wait for; it is undone whole, its allowance included.
    submission = Submission(
        game=game, seat=seat, key=key, command=command, version_after=game.version
    )
    try:
        compiled.insert([submission])
    except IntegrityError:  # the key is taken; the transaction is rolled back whole
        raise _Repeated(version_seen) from None
    # The move may call for the moves of standing instructions (its own seat's too).
    made = standing.follow(game, now, seats, after=outcome.events)
    return replace(outcome, then=tuple(e for later in made for e in later.events))


def _submitted(game: Game, key: str) -> bool:
    return Submission.objects.filter(game=game, key=key).exists()


def _take_a_move(game: Game, seat: int, now) -> tuple[dict, int]:
    """Count one move against the seat's allowance: (the game's allowances after
    it, 0), or (unchanged, the seconds to wait) if none is left. Read under the
    game's lock: two tabs of one seat cannot both spend it."""
    after, wait = pacing.take(pacing.of_seat(game.move_allowances, seat), now)
    if after is None:
        return game.move_allowances, wait
    return pacing.with_seat(game.move_allowances, seat, after), 0
