"""My games: every game a person plays or organizes, one row each, the games that
need them soonest first. The page (games/web/my_games.py), the seat page's "next
game waiting for you" and the daily email across all games read these rows.

A row is small on purpose: a name, a badge, a line, a few details and links. A
game is a row; a game being gathered or an invitation can be one too, with a
section and an order of its own, and ``ordered`` sorts them all together.

Nothing hidden reaches a row: a seat's row is read from that seat's view only
(``engine.view_for``, through the seat page's own presenters), and a game the
person only organizes from the spectator's view (``viewer=None``), which holds
only what the whole table may see.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games import engine
from games.core import links, people
from games.models import Game, Seat
from games.present import clock, pace, presenters
from games.present.roles import waiting_to_speak
from games.words import user_text

# Sections, in the order the page lists them.
YOUR_MOVE, WAITING, OVER = 0, 1, 2
SECTIONS = {
    YOUR_MOVE: pgettext_lazy("My games", "Your move"),
    WAITING: pgettext_lazy("My games", "Waiting for others"),
    OVER: pgettext_lazy("My games", "Over"),
}
TABLE = gettext_lazy("Open your table")
ORGANIZE = pgettext_lazy("a link", "Organize")
ARCHIVE = gettext_lazy("The game's archive")
NEVER = datetime.max.timestamp()  # no deadline: after every deadline


@dataclass(frozen=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True)
class Row:
    """One row: ``name`` as typed (templates isolate it), a ``badge`` whose look is
    ``tone`` (a CSS class: badge-<tone>), the ``line`` that matters most and
    ``details`` (sentences; players' names in them are isolated already)."""

    name: str
    badge: str
    tone: str
    line: str = ""
    details: tuple = ()
    links: tuple = ()
    section: int = WAITING
    order: tuple = field(default=(), compare=False)  # within the section
    talk_unread: int = 0  # table talk the player has not read (a seat's row only)
    talk_url: str = ""

    @property
    def key(self) -> tuple:
        return (self.section, *self.order)


def ordered(rows) -> list:
    """Their move first (soonest deadline first, none last), then the games waiting
    on others (the same), then the games over (the newest first)."""
    return sorted(rows, key=lambda row: row.key)


@dataclass(frozen=True)
class MyGames:
    person: object  # games.models.Person, or None before their first choice
    zone: str  # the zone their times are told in where no seat says
    rows: list

    def sections(self) -> list:
        """The sections that have rows, in order: {"title", "rows", "over"}."""
        found = [
            {
                "title": str(title),
                "rows": [r for r in self.rows if r.section == s],
                "over": s == OVER,
            }
            for s, title in SECTIONS.items()
        ]
        return [section for section in found if section["rows"]]

    def your_move(self) -> int:
        return sum(row.section == YOUR_MOVE for row in self.rows)


def my_games(email: str, now=None, base: str = "") -> MyGames:
    """Every game ``email`` plays or organizes, as rows, read in a few statements
    whatever their number. ``base``: put before each link (an email's site address)."""
    now = now or timezone.now()
    found = people.person(email)
    seats = people.seats_of(email, now)
    organized = people.organized_by(email, now)
    played = {seat.game_id for seat in seats}
    organizes = {game.pk for game in organized}
    only_organized = [game for game in organized if game.pk not in played]
    names = people.names_at(played | {game.pk for game in only_organized})
    zone = people.zone_of(found, seats)
    # A person who chose a zone reads every time in it; else each seat in its own.
    chosen = found.timezone if found is not None and found.timezone else ""
    rows = [
        seat_row(
            seat, names[seat.game_id], chosen or seat.timezone, seat.game_id in organizes, base
        )
        for seat in seats
    ]
    rows += [organized_row(game, names.get(game.pk, []), zone, base) for game in only_organized]
    rows += [lobby_row(lobby, base) for lobby in people.lobbies_of(email)]
    rows += [invitation_row(invitation, base) for invitation in people.invitations_of(email)]
    return MyGames(person=found, zone=zone, rows=ordered(rows))


def _seats_line(taken: int, seats: int) -> str:
    return _("%(taken)d of %(seats)d seats taken") % {"taken": taken, "seats": seats}


def lobby_row(lobby, base: str = "") -> Row:
    """A game the person is gathering: theirs to start once every seat is taken."""
    taken = sum(1 for i in lobby.invitations.all() if i.status == "accepted")
    full = taken >= lobby.players
    url = base + reverse("games:lobby", args=[lobby.pk])
    return Row(
        name=lobby.name,
        badge=pgettext("a badge", "Ready to start") if full else pgettext("a badge", "Gathering"),
        tone="to-play" if full else "waiting",
        line=_("Every seat is taken: press Start.") if full else _seats_line(taken, lobby.players),
        details=(pace.summary(lobby.timing, lobby.config.get("edition", 2)),),
        links=(Link(_("Open the game's page"), url),),
        section=YOUR_MOVE if full else WAITING,
        order=(not full, NEVER, lobby.name.casefold()),
    )


def invitation_row(invitation, base: str = "") -> Row:
    """An invitation: to answer (the person's move), or accepted (waiting for the start)."""
    lobby = invitation.lobby
    url = base + reverse("games:invitation", args=[invitation.token])
    details = (pace.summary(lobby.timing, lobby.config.get("edition", 2)),)
    organizer = user_text.isolate(lobby.organizer_name)
    if invitation.status == "invited":
        return Row(
            name=lobby.name,
            badge=pgettext("a badge", "Invited"),
            tone="to-play",
            line=_("%(organizer)s invites you: accept or decline.") % {"organizer": organizer},
            details=details,
            links=(Link(_("Accept or decline"), url),),
            section=YOUR_MOVE,
            order=(True, NEVER, lobby.name.casefold()),
        )
    return Row(
        name=lobby.name,
        badge=pgettext("a badge", "You are in"),
        tone="waiting",
        line=_("The game starts once every seat is taken and %(organizer)s presses Start.")
        % {"organizer": organizer},
        details=details,
        links=(Link(_("Open the invitation"), url),),
        section=WAITING,
        order=(True, NEVER, lobby.name.casefold()),
    )


@dataclass(frozen=True)
class Turn:
    """Whether a seat's game waits for its move now, and by when."""

    view: dict
    mine: bool
    due: datetime | None


def turn_of(seat: Seat) -> Turn:
    """The seat's turn, from its view: a stopped game waits for nobody; a merchant's
    word in the bargaining is due when the bargaining time ends."""
    game = seat.game
    view = engine.view_for(game.engine_state(), seat.index)
    if clock.halted_title(game) or game.status != Game.Status.ACTIVE:
        return Turn(view, False, None)
    speaking = seat.index in waiting_to_speak(view) and game.bargaining_until is not None
    due = game.bargaining_until if speaking else game.phase_deadline
    return Turn(view, presenters.is_my_turn(view), due)


def seat_row(seat: Seat, raw_names: list, zone: str, organizes: bool, base: str = "") -> Row:
    """The row of a game the person plays, from their seat's view only."""
    game = seat.game
    turn = turn_of(seat)
    names = user_text.names(raw_names)
    found = [Link(str(TABLE), base + links.seat_path(seat))] if links.links_work(game) else []
    if game.status == Game.Status.FINISHED:  # its archive, for good
        found.append(Link(str(ARCHIVE), base + links.archive_path(seat)))
    found += _organize(game, base) if organizes else []
    shared = {"name": game.name, "links": tuple(found)}
    if game.status != Game.Status.ACTIVE:
        return _over(game, turn.view, names, zone, shared)
    shared["talk_unread"] = getattr(seat, "talk_unread", 0)
    shared["talk_url"] = base + links.seat_path(seat) + "#talk"
    halted = clock.halted(game, zone)
    if halted:
        return Row(
            badge=pgettext("a badge", "Paused"),
            tone="halted",
            line=halted,
            order=_by_deadline(None, game.name),
            **shared,
        )
    phase = presenters.phase(turn.view, names)
    when = _lines(_deadline(turn.due, zone), _awaited(phase["awaiting"]))
    if turn.mine:
        return Row(
            badge=pgettext("a badge", "Your move"),
            tone="to-play",
            line=capfirst(phase["ask"]),
            details=(_round(turn.view, names), *when),
            section=YOUR_MOVE,
            order=_by_deadline(turn.due, game.name),
            **shared,
        )
    return Row(
        badge=pgettext("a badge", "Waiting"),
        tone="waiting",
        line=_round(turn.view, names),
        details=when,
        order=_by_deadline(turn.due, game.name),
        **shared,
    )


def organized_row(game: Game, raw_names: list, zone: str, base: str = "") -> Row:
    """The row of a game the person organizes but does not play: public facts only."""
    view = engine.view_for(game.engine_state(), None)
    names = user_text.names(raw_names)
    found = _organize(game, base)
    if game.status == Game.Status.FINISHED:
        found.append(Link(str(ARCHIVE), base + reverse("games:archive", args=[game.pk])))
    shared = {"name": game.name, "links": tuple(found)}
    if game.status != Game.Status.ACTIVE:
        return _over(game, view, names, zone, shared)
    halted = clock.halted(game, zone)
    awaiting = presenters.awaited(view, names)
    details = () if halted else _lines(_deadline(game.phase_deadline, zone), _awaited(awaiting))
    return Row(
        badge=pgettext("a badge", "You organize"),
        tone="waiting",
        line=halted or _round(view, names),
        details=details,
        order=_by_deadline(None if halted else game.phase_deadline, game.name),
        **shared,
    )


def _over(game: Game, view: dict, names: list, zone: str, shared: dict) -> Row:
    """A finished game says who won; a cancelled one, when it was cancelled."""
    newest_first = (-(game.finished_at or game.updated_at).timestamp(), game.name)
    if game.status == Game.Status.CANCELLED:
        badge, tone, line = pgettext("a badge", "Cancelled"), "halted", clock.halted(game, zone)
    else:
        badge, tone = pgettext("a badge", "Finished"), "done"
        line = presenters.game_over_hint(view, names)
    return Row(badge=badge, tone=tone, line=line, section=OVER, order=newest_first, **shared)


def _round(view: dict, names: list) -> str:
    return _("Round %(round)s of %(rounds)s · %(phase)s") % {
        "round": view["round"],
        "rounds": view["rounds"],
        "phase": presenters.phase_name(view, names),
    }


def _deadline(due, zone: str) -> str:
    """The deadline in the reader's zone, and how long until it ("": none)."""
    told = clock.deadline(due, zone)
    if told is None:
        return ""
    return _("Deadline: %(when)s, %(countdown)s") % {
        "when": told["local"],
        "countdown": told["countdown"],
    }


def _awaited(awaiting: list) -> str:
    """Whom the phase waits for, by name ("": nobody)."""
    return _("Waiting for: %(names)s") % {"names": ", ".join(awaiting)} if awaiting else ""


def _lines(*lines) -> tuple:
    return tuple(line for line in lines if line)


def _by_deadline(due, name: str) -> tuple:
    return (due is None, due.timestamp() if due else NEVER, name.casefold())


def _organize(game: Game, base: str) -> list:
    """The organizer's page of the game, where the site has one."""
    try:
        return [Link(str(ORGANIZE), base + reverse("games:organize", args=[game.pk]))]
    except NoReverseMatch:
        return []


def next_waiting(email: str, after: Seat, now=None) -> Link | None:
    """After a move at ``after``: the person's next game waiting for their move (the
    soonest deadline first), as a link to that seat's page; None if there is none.
    One statement: their seats in games in play."""
    waiting = []
    for seat in people.seats_of(email, now, in_play_only=True):
        if seat.pk == after.pk:
            continue
        turn = turn_of(seat)
        if turn.mine:
            waiting.append((_by_deadline(turn.due, seat.game.name), seat))
    if not waiting:
        return None
    _order, seat = min(waiting, key=lambda found: found[0])
    return Link(seat.game.name, links.seat_path(seat))
