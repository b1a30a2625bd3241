"""Play again: once a game is over, its organizer starts a new one with the same
players (or those of them who play again), the same rules and deadlines, and a
new secret seed, through game_setup.create_game as any game starts, so everyone
gets the usual first email with their own new link. The old game then points to
the new one (Game.rematch), and its pages link there: each player's to their own
seat in it, never another's.

The old game's row is locked while the new one is made and linked, in one
transaction: a form sent twice, or replayed, finds the link set and starts nothing
more.
"""

import re
from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games.core import game_setup, links
from games.core.game_setup import PlayerSpec
from games.models import Game, Person, Seat

MIN_PLAYERS, MAX_PLAYERS = 3, 6
DEPUTIES_PLAYERS = 6  # no first Sheriff: two Deputies are drawn each round
# The Game's settings a new game takes from the old one: its deadlines (as
# create_game's ``timing``), its table talk and its bots' pace.
CARRIED_SETTINGS = (*game_setup.TIMING_FIELDS, *game_setup.TALK_FIELDS, "bot_seconds")


class RematchError(ValueError):
    """Why no new game was started, in words for the organizer. ``conflict``: the
    old game's state refuses it (rather than what the form said)."""

    def __init__(self, message: str, conflict: bool = False):
        super().__init__(message)
        self.message = message
        self.conflict = conflict


@dataclass(frozen=True)
class Rematch:
    game: Game
    started: bool  # False: it had been started already (a form sent twice)


@dataclass(frozen=True)
class RematchNote:
    """What an old game's page says of the new one: its name, and where to go; or,
    to the organizer's own seat before there is one, where to start it."""

    game_name: str
    url: str
    play_again_url: str = ""  # the organizer's page's "Play again" form


def first_sheriff(old_first: int, old_players: int, kept: list[int], rotate: bool) -> int:
    """The new game's first Sheriff, as its seat index, given the old game's first
    Sheriff and the old seats that play again (``kept``, in seat order): the next of
    them clockwise after the old first Sheriff when rotating, else the old one
    again (or, if they left, the next of them clockwise)."""
    start = (old_first + 1 if rotate else old_first) % old_players
    return min(range(len(kept)), key=lambda new: (kept[new] - start) % old_players)


def default_name(game: Game) -> str:
    """The new game's name as offered: "Friday" -> "Friday 2", and for a rematch,
    "Friday 2" -> "Friday 3" (numbers read the same in every player's language)."""
    base, number = game.name.strip(), 2
    numbered = re.fullmatch(r"(.*\S) (\d{1,3})", base)
    if numbered and Game.objects.filter(rematch=game).exists():
        base, number = numbered[1], int(numbered[2]) + 1
    suffix = f" {number}"
    return base[: game_setup.MAX_GAME_NAME - len(suffix)].rstrip() + suffix


def opted_out(seats) -> set:
    """The seats' addresses (lower case) that asked never to be invited: a new game
    is not started for them."""
    addresses = {seat.email.strip().lower() for seat in seats}
    people = Person.objects.filter(email__in=addresses, no_invitations_at__isnull=False)
    return set(people.values_list("email", flat=True))


def play_again(
    game_id: int, *, name: str, seat_ids: list[int], rotate_sheriff: bool = True, now=None
) -> Rematch:
    """The new game with the seats ``seat_ids`` of the finished game ``game_id``
    (in their old order), started and linked from the old one; or the one started
    already. RematchError (nothing created) for an unfinished game or a bad choice."""
    name = game_setup.game_name(name)  # ValueError: the form checks it first
    with transaction.atomic():
        old = Game.objects.select_for_update().get(pk=game_id)
        if old.rematch_id is not None:
            return Rematch(Game.objects.get(pk=old.rematch_id), started=False)
        check_finished(old)
        seats = list(old.seats.order_by("index"))
        kept = [seat for seat in seats if seat.pk in set(seat_ids)]
        if len(set(seat_ids)) != len(kept):
            raise RematchError(_("No such seat in this game; nothing was done."))
        if not MIN_PLAYERS <= len(kept) <= MAX_PLAYERS:
            raise RematchError(_("A game has 3 to 6 players: keep at least 3 of them."))
        asked_not = opted_out(kept)
        unwilling = [seat for seat in kept if seat.email.strip().lower() in asked_not]
        if unwilling:
            text = _("%(name)s asked not to receive invitations from this site: untick them.")
            raise RematchError(text % {"name": unwilling[0].name})
        new = game_setup.create_game(
            name=name,
            players=[_player(seat) for seat in kept],
            config=_config(old, len(seats), kept, rotate_sheriff),
            organizer_email=old.organizer_email,
            timing={field: getattr(old, field) for field in CARRIED_SETTINGS},
            practice=old.practice,
            now=now,
        )  # seed None: a new secret one, never the old
        Game.objects.filter(pk=old.pk).update(rematch=new)
    return Rematch(new, started=True)


def check_finished(game: Game) -> None:
    """RematchError unless ``game`` was played to its end."""
    if game.status == Game.Status.ACTIVE:
        raise RematchError(
            _("This game is still in play: a new one can be started once it is over."),
            conflict=True,
        )
    if game.status != Game.Status.FINISHED:
        raise RematchError(
            _("This game was cancelled: only a game played to its end can be played again."),
            conflict=True,
        )


def _player(seat: Seat) -> PlayerSpec:
    return PlayerSpec(
        name=seat.name,
        email=seat.email,
        timezone=seat.timezone,
        language=seat.language,
        bot=seat.bot,  # a bot plays again too, at the same level
    )


def _config(old: Game, old_players: int, kept: list[Seat], rotate: bool) -> dict:
    """The old game's rules for the players kept; create_game sets their number."""
    config = {key: value for key, value in old.config.items() if key != "players"}
    if len(kept) == DEPUTIES_PLAYERS or old_players == DEPUTIES_PLAYERS:
        config["first_sheriff"] = 0  # Deputies had no first Sheriff to rotate from
    else:
        indexes = [seat.index for seat in kept]
        config["first_sheriff"] = first_sheriff(
            old.config.get("first_sheriff", 0), old_players, indexes, rotate
        )
    return config


def next_seat_for(seat: Seat) -> Seat | None:
    """The seat's player's own seat in the game started after theirs, if they play
    in it: the seat of the same address (and, should one address hold two seats,
    the same name). None without a new game: no query then."""
    new_game = seat.game.rematch_id
    if new_game is None:
        return None
    same = Seat.objects.filter(game_id=new_game, email__iexact=seat.email.strip())
    same = list(same.select_related("game"))
    if len(same) > 1:
        same = [other for other in same if other.name == seat.name]
    return same[0] if len(same) == 1 else None


def note_for(seat: Seat) -> RematchNote | None:
    """What the seat's old page says of the new game: its name and the reader's own
    link to it (templates/pages/_rematch.html); to the organizer's own seat before
    there is one, the way to start it; None otherwise."""
    new_seat = next_seat_for(seat)
    if new_seat is None:
        path = play_again_path(seat)
        return RematchNote(game_name="", url="", play_again_url=path) if path else None
    return RematchNote(game_name=new_seat.game.name, url=links.seat_path(new_seat))


def play_again_path(seat: Seat) -> str:
    """Where the organizer, who played in the finished game at ``seat``, starts a
    new one with the same players: their page's form (it asks them to sign in with
    the organizer's address, as any visit there does; a seat's link signs nobody
    in). "" for any other seat, a game not played to its end, or once started."""
    game = seat.game
    organizer = (game.organizer_email or "").strip().lower()
    if game.status != Game.Status.FINISHED or game.rematch_id is not None or not organizer:
        return ""
    if seat.email.strip().lower() != organizer:
        return ""
    return reverse("games:organize", args=[game.pk]) + "#play-again"


def organizer_note(game: Game) -> RematchNote | None:
    """The new game on the old game's organizer's page: its own organizer's page."""
    if game.rematch_id is None:
        return None
    new = Game.objects.only("name").get(pk=game.rematch_id)
    return RematchNote(game_name=new.name, url=reverse("games:organize", args=[new.pk]))
