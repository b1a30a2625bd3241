"""What the organizer reads in the admin: plain labels instead of codes, the
game's settings in one line, times with their zone, and the game log as a
spectator knows it.

The log and the phase come from the spectator's view and projection
(``viewer=None``) only: an organizer who also plays must learn nothing there
that the other players could not see (no hand, no closed bag or its size, no
seed before the end).
"""

from games import deadlines, engine, presenters
from games.narrate import Narrator

NONE = "—"  # what the admin shows for "no value" (ModelAdmin.empty_value_display)
PHASES = {
    "market": "Market",
    "market_turn": "Market (1st edition turn)",
    "load": "Load and declare",
    "inspection": "Inspection",
    "black_market": "Black Market step",
    "game_over": "Game over",
}
EVENTS = {
    "game_started": "Game started",
    "deck_shuffled": "Deck shuffled",
    "deputy_deck_shuffled": "Deputy deck shuffled",
    "cards_moved": "Cards moved",
    "gold_transferred": "Gold paid",
    "round_started": "Round started",
    "phase_started": "Phase started",
    "set_aside_submitted": "Market choice made",
    "market_turn_taken": "Market turn taken",
    "bag_loaded": "Bag loaded",
    "offer_made": "Offer made",
    "offer_revised": "Offer revised",
    "offer_agreed": "Offer accepted by one Deputy",
    "offer_withdrawn": "Offer withdrawn",
    "offers_lapsed": "Offers lapsed",
    "no_offer_said": "No offer from a merchant",
    "bargaining_ended": "Bargaining time over",
    "deal_made": "Deal made",
    "deputy_decided": "A Deputy's call on a bag",
    "bag_passed": "Bag passed",
    "bag_inspected": "Bag inspected",
    "bag_goods_settled": "Bag goods handed over",
    "debt_settled": "Debt settled",
    "booty_shared": "Booty shared",
    "black_market_claimed": "Black Market card claimed",
    "black_market_declined": "No Black Market claim",
    "black_market_submitted": "Black Market choice made",
    "black_market_missed": "Black Market claim too late",
    "timed_out": "Deadline missed",
    "noted": "Note",
    "round_ended": "Round ended",
    "game_ended": "Game ended",
}
# What each outbox email tells its reader (OutboxEmail.kind; "" is the organizer's alert).
EMAILS = {
    "start": "The game begins",
    "your_move": "Your move",
    "round_over": "Round over",
    "game_over": "Game over",
    "deal": "Offer accepted",
    "offer": "An offer concerns them",
    "decide": "Every bag can be decided",
    "paused_itself": "Game paused itself",
    "replaced": "Told they were replaced",
    "idle_alert": "Alert: the game paused itself",
    "undeliverable_alert": "Alert: a player's email does not arrive",
    "reminder": "Reminder",
    "welcome": "Welcome to a new player",
    "resend": "Current email sent again",
    "paused": "Game paused",
    "resumed": "Game resumed",
    "extended": "Deadline extended",
    "cancelled": "Game cancelled",
    "": "Alert to the organizer",
}
MOVES = {
    "set_aside": "Market choice",
    "market_turn": "Market turn",
    "load_bag": "Load and declare",
    "make_offer": "Offer or demand",
    "revise_offer": "Revised offer",
    "withdraw_offer": "Withdrawn offer",
    "accept_offer": "Accepted offer",
    "pass_bag": "Let a bag pass",
    "inspect_bag": "Inspect a bag",
    "say_no_offer": "No offer",
    "claim_black_market": "Black Market claim",
    "decline_black_market": "No Black Market claim",
}


def label(table: dict, code: str) -> str:
    """The plain label of ``code``; a code the table does not know yet still reads as words."""
    return table.get(code) or code.replace("_", " ").capitalize()


def yes_no(value) -> str:
    return "yes" if value else "no"


def settings_line(config: dict, names: list) -> str:
    """'2nd edition · 4 players · first Sheriff: seat 1 (Ann) · Royal Goods: no · …';
    with six players '6 players (Deputies)' and no first Sheriff; in the 2nd edition
    the Black Market and its values."""
    rules = engine.GameConfig.from_dict(config)
    second = rules.edition == engine.SECOND_EDITION
    parts = [
        "2nd edition" if second else "1st edition",
        *_table_parts(rules, names),
        f"Royal Goods: {yes_no(rules.royal_goods)}",
        f"Seven Card Hand: {yes_no(rules.seven_card_hand)}",
        f"Remove 10 Cards: {yes_no(rules.remove_ten)}",
    ]
    if second:  # the Black Market is not an option of the 1st edition
        parts.append(black_market_line(rules))
    return " · ".join(parts)


def _table_parts(rules, names: list) -> list:
    if rules.deputies:  # no Sheriff: two Deputies drawn each round
        return [f"{rules.players} players (Deputies)"]
    first = rules.first_sheriff
    sheriff = f"seat {first + 1}" + (f" ({names[first]})" if first < len(names) else "")
    return [f"{rules.players} players", f"first Sheriff: {sheriff}"]


def black_market_line(rules) -> str:
    """'Black Market: on (provisional values Pepper 30/27, …)', or the organizer's values."""
    if not rules.black_market:
        return "Black Market: off"
    values = pile_values(rules.black_market_piles)
    if rules.black_market_provisional:
        values = f"provisional values {values}"
    return f"Black Market: on ({values})"


def pile_values(piles: dict) -> str:
    """'Pepper 30/27, Mead 32/29, Silk 34/31': each pile's cards, the top one first."""
    return ", ".join(
        f"{engine.CARD_TYPES[kind].label} {'/'.join(map(str, values))}"
        for kind, values in piles.items()
    )


def moment(when, zone: str) -> str:
    """A time in the game's deadline zone, zone named: 'Tue 24 Nov 2026, 19:00 (Europe/Paris)'."""
    return NONE if when is None else deadlines.format_for(when, zone)["local"]


def delivery(seat, zone: str) -> str:
    """A seat's email delivery, as the ESP's tracking reports it ("" when nothing is known)."""
    parts = []
    if seat.undeliverable_at:
        parts.append(f"Undeliverable since {moment(seat.undeliverable_at, zone)}: nothing is sent")
    if seat.last_failure:
        parts.append(f"Last failure {moment(seat.last_failure_at, zone)} — {seat.last_failure}")
    if seat.last_delivered_at:
        parts.append(f"Last delivered {moment(seat.last_delivered_at, zone)}")
    if seat.autoreply_at:
        parts.append(f"Auto-reply seen {moment(seat.autoreply_at, zone)}")
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
    return f"Round {state.get('round', NONE)} · {text}"


def waiting_for(state, names: list) -> str:
    """Who the current phase waits for, from the spectator's view."""
    if state.is_over():
        return "nobody: the game is over"
    awaiting = engine.view_for(state, None)["phase"]["awaiting"]
    return ", ".join(names[seat] for seat in awaiting) or "nobody (the phase is moving on)"


def game_log(state, events, names: list) -> list:
    """The narrated log as a spectator knows it, grouped by round, newest first
    (rounds and the lines within them), like the seat page's log.

    ``events`` are the stored events in order. Returns
    [{"title": "Round 2 of 9", "lines": [...]}, ...]."""
    events = list(events)
    lines, _ = presenters.log_lines(state, events[::-1], names, None, None)
    ended = next((e["seq"] for e in events if e["type"] == "game_ended"), None)
    groups = []
    for group in presenters.by_round(lines):
        number = group["round"]
        title = f"Round {number} of {state.config.rounds}" if number else "Setting up"
        story = [line for line in group["lines"] if ended is None or line["seq"] < ended]
        groups.append({"title": title, "lines": [line["text"] for line in reversed(story)]})
    if ended is not None:
        end = [line["text"] for line in reversed(lines) if line["seq"] >= ended]
        groups.append({"title": "The end", "lines": end[::-1]})
    return [group for group in reversed(groups) if group["lines"]]


def event_line(state, event: dict, names: list) -> str | None:
    """One stored event as a spectator's log line (None when the log does not tell it)."""
    narrator = Narrator.of_game(names, None, state.config)
    return narrator.line(engine.project_event(state, event, None))
