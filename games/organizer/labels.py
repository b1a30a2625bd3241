"""What the organizer reads in the admin: plain labels instead of codes, the
game's settings in one line, times with their zone, and the game log as a
spectator knows it.

The log and the phase come from the spectator's view and projection
(``viewer=None``) only: an organizer who also plays must learn nothing there
that the other players could not see (no hand, no closed bag or its size, no
seed before the end).
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.core import deadlines
from games.present import game_log as seat_log
from games.present import moves
from games.present.presenters import PHASE_NAMES
from games.words import goods_names, user_text
from games.words.narrate import Narrator

NONE = "—"  # what the admin shows for "no value" (ModelAdmin.empty_value_display)
# The players' names of the phases (My games says them too); a turn named as such.
PHASES = {**PHASE_NAMES, "market_turn": gettext_lazy("Market (1st edition turn)")}
EVENTS = {
    "game_started": gettext_lazy("Game started"),
    "deck_shuffled": gettext_lazy("Deck shuffled"),
    "deputy_deck_shuffled": gettext_lazy("Deputy deck shuffled"),
    "cards_moved": gettext_lazy("Cards moved"),
    "gold_transferred": gettext_lazy("Gold paid"),
    "round_started": gettext_lazy("Round started"),
    "phase_started": gettext_lazy("Phase started"),
    "set_aside_submitted": gettext_lazy("Market choice made"),
    "market_turn_taken": gettext_lazy("Market turn taken"),
    "bag_loaded": gettext_lazy("Bag loaded"),
    "offer_made": gettext_lazy("Offer made"),
    "offer_revised": gettext_lazy("Offer revised"),
    "offer_agreed": gettext_lazy("Offer accepted by one Deputy"),
    "offer_withdrawn": gettext_lazy("Offer withdrawn"),
    "offers_lapsed": gettext_lazy("Offers lapsed"),
    "offer_refused": gettext_lazy("Offer refused"),
    "no_offer_said": gettext_lazy("No offer from a merchant"),
    "bargaining_ended": gettext_lazy("Bargaining time over"),
    "deal_made": gettext_lazy("Deal made"),
    "deputy_decided": gettext_lazy("A Deputy's call on a bag"),
    "bag_passed": gettext_lazy("Bag passed"),
    "bag_inspected": gettext_lazy("Bag inspected"),
    "bag_goods_shown": gettext_lazy("Bag shown to prove promised goods missing"),
    "bag_goods_settled": gettext_lazy("Bag goods handed over"),
    "debt_settled": gettext_lazy("Debt settled"),
    "booty_shared": gettext_lazy("Booty shared"),
    "black_market_claimed": gettext_lazy("Black Market card claimed"),
    "black_market_declined": gettext_lazy("No Black Market claim"),
    "black_market_submitted": gettext_lazy("Black Market choice made"),
    "black_market_missed": gettext_lazy("Black Market claim too late"),
    "black_market_standing_set": gettext_lazy("Black Market standing answer"),
    "timed_out": gettext_lazy("Deadline missed"),
    "noted": gettext_lazy("Note"),
    "round_ended": gettext_lazy("Round ended"),
    "game_ended": gettext_lazy("Game ended"),
}
# A game's status, in the reader's language (Game.Status's labels are the admin's English).
STATUSES = {
    "active": gettext_lazy("In play"),
    "finished": gettext_lazy("Finished"),
    "cancelled": gettext_lazy("Cancelled"),
}
# What each outbox email tells its reader (OutboxEmail.kind; "" is the organizer's alert).
EMAILS = {
    "start": gettext_lazy("The game begins"),
    "your_move": gettext_lazy("Your move"),
    "round_over": gettext_lazy("Round over"),
    "game_over": gettext_lazy("Game over"),
    "deal": gettext_lazy("Offer accepted"),
    "demand_deal": gettext_lazy("Demand accepted"),
    "offer": gettext_lazy("An offer concerns them"),
    "decide": gettext_lazy("Every bag can be decided"),
    "paused_itself": gettext_lazy("Game paused itself"),
    "replaced": gettext_lazy("Told they were replaced"),
    "idle_alert": gettext_lazy("Alert: the game paused itself"),
    "undeliverable_alert": gettext_lazy("Alert: a player's email does not arrive"),
    "reminder": gettext_lazy("Reminder"),
    "welcome": gettext_lazy("Welcome to a new player"),
    "resend": gettext_lazy("Current email sent again"),
    "paused": gettext_lazy("Game paused"),
    "resumed": gettext_lazy("Game resumed"),
    "extended": gettext_lazy("Deadline extended"),
    "cancelled": gettext_lazy("Game cancelled"),
    "": gettext_lazy("Alert to the organizer"),
}
# What the records call a move (the moves registry names it).
MOVES = {name: move.label for name, move in moves.MOVES.items() if move.label}


def label(table: dict, code: str) -> str:
    """The plain label of ``code``; a code the table does not know yet still reads as words."""
    return str(table.get(code) or code.replace("_", " ").capitalize())


def yes_no(value) -> str:
    return _("yes") if value else _("no")


def seat_names(game) -> list:
    """The players' names in seat order, as the labels below take them."""
    return user_text.names(seat.name for seat in game.seats.all())


def settings_line(config: dict, names: list) -> str:
    """'2nd edition · 4 players · first Sheriff: seat 1 (Ann) · Royal Goods: no · …';
    with six players '6 players (Deputies)' and no first Sheriff; in the 2nd edition
    the Black Market and its values."""
    rules = engine.GameConfig.from_dict(config)
    second_edition = rules.edition == engine.SECOND_EDITION
    parts = [
        _("2nd edition") if second_edition else _("1st edition"),
        *_table_parts(rules, names),
        _("Royal Goods: %(yes_no)s") % {"yes_no": yes_no(rules.royal_goods)},
        _("Seven Card Hand: %(yes_no)s") % {"yes_no": yes_no(rules.seven_card_hand)},
        _("Remove 10 Cards: %(yes_no)s") % {"yes_no": yes_no(rules.remove_ten)},
    ]
    if second_edition:  # the Black Market is not an option of the 1st edition
        parts.append(black_market_line(rules))
    return " · ".join(parts)


def _table_parts(rules, names: list) -> list:
    n = rules.players
    if rules.deputies:  # no Sheriff: two Deputies drawn each round
        return [
            ngettext("%(count)d player (Deputies)", "%(count)d players (Deputies)", n)
            % {"count": n}
        ]
    first_sheriff = rules.first_sheriff
    if first_sheriff < len(names):
        sheriff = _("first Sheriff: seat %(number)d (%(name)s)") % {
            "number": first_sheriff + 1,
            "name": names[first_sheriff],
        }
    else:
        sheriff = _("first Sheriff: seat %(number)d") % {"number": first_sheriff + 1}
    return [ngettext("%(count)d player", "%(count)d players", n) % {"count": n}, sheriff]


def black_market_line(rules) -> str:
    """'Black Market: on (provisional values Pepper 30/27, …)', or the organizer's values."""
    if not rules.black_market:
        return _("Black Market: off")
    values = {"values": pile_values(rules.black_market_piles)}
    if rules.black_market_provisional:
        return _("Black Market: on (provisional values %(values)s)") % values
    return _("Black Market: on (%(values)s)") % values


def pile_values(piles: dict) -> str:
    """'Pepper 30/27, Mead 32/29, Silk 34/31': each pile's cards, the top one first."""
    return ", ".join(
        f"{goods_names.label(kind)} {'/'.join(map(str, values))}" for kind, values in piles.items()
    )


def moment(when, zone: str) -> str:
    """A time in the game's deadline zone, zone named: 'Tue 24 Nov 2026, 19:00 (Europe/Paris)'."""
    return NONE if when is None else deadlines.format_for(when, zone)["local"]


def delivery(seat, zone: str, moment=moment) -> str:
    """A seat's email delivery, as the ESP's tracking reports it ("" when nothing is
    known). ``moment(when, zone)`` words each time (default: the admin's way)."""
    parts = []
    if seat.undeliverable_at:
        text = _("Undeliverable since %(when)s: nothing is sent")
        parts.append(text % {"when": moment(seat.undeliverable_at, zone)})
    if seat.last_failure:
        text = _("Last failure %(when)s — %(failure)s")
        parts.append(
            text % {"when": moment(seat.last_failure_at, zone), "failure": seat.last_failure}
        )
    if seat.last_delivered_at:
        parts.append(_("Last delivered %(when)s") % {"when": moment(seat.last_delivered_at, zone)})
    if seat.autoreply_at:
        parts.append(_("Auto-reply seen %(when)s") % {"when": moment(seat.autoreply_at, zone)})
    return " · ".join(parts)


def phase_line(state: dict, names: list) -> str:
    """'Round 2 · Market (1st edition turn): Ben' from a stored state (public fields only)."""
    phase = state.get("phase") or {}
    kind = phase.get("kind")
    if kind is None:
        return NONE
    text = label(PHASES, kind)
    seat = phase.get("seat")
    if kind == "market_turn" and seat is not None and seat < len(names):
        text += f": {names[seat]}"
    if kind == "game_over":
        return text
    return _("Round %(round)s · %(phase)s") % {"round": state.get("round", NONE), "phase": text}


def waiting_for(state, names: list) -> str:
    """Who the current phase waits for, from the spectator's view."""
    if state.is_over():
        return _("nobody: the game is over")
    awaiting = engine.view_for(state, None)["phase"]["awaiting"]
    return ", ".join(names[seat] for seat in awaiting) or _("nobody (the phase is moving on)")


def game_log(state, events, names: list) -> list:
    """The narrated log as a spectator knows it, grouped by round, newest first
    (rounds and the lines within them), like the seat page's log.

    ``events`` are the stored events in order. Returns
    [{"title": "Round 2 of 9", "lines": [...]}, ...]."""
    events = list(events)
    lines, _more = seat_log.log_lines(state, events[::-1], names, None, None)
    end_seq = next((e["seq"] for e in events if e["type"] == "game_ended"), None)
    groups = []
    for group in seat_log.by_round(lines):
        number = group["round"]
        title = (
            _("Round %(round)d of %(rounds)d") % {"round": number, "rounds": state.config.rounds}
            if number
            else _("Setting up")
        )
        before_end = [line for line in group["lines"] if end_seq is None or line["seq"] < end_seq]
        groups.append({"title": title, "lines": [line["text"] for line in reversed(before_end)]})
    if end_seq is not None:
        end = [line["text"] for line in reversed(lines) if line["seq"] >= end_seq]
        groups.append({"title": _("The end"), "lines": end[::-1]})
    return [group for group in reversed(groups) if group["lines"]]


def event_line(state, event: dict, names: list) -> str | None:
    """One stored event as a spectator's log line (None when the log does not tell it)."""
    narrator = Narrator.of_game(names, None, state.config)
    return narrator.line(engine.project_event(state, event, None))
