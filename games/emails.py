"""Render one email for one seat, from that seat's view only.

Every email is personal (never a shared body), in HTML and plain text, with a
constant subject per game and threading headers so a game is one
conversation in the player's mail app.
"""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games import deadlines, engine, links, presenters, usertext
from games.models import Game, GameEvent, Seat
from games.narrate import cards, idle_for, outcome_lines

MAX_NEWS_LINES = 40
HEADLINES = {
    "game_over": "The game is over — here are the scores",
    "start": "The game begins",
    "round_over": "Round {round} is over",
    "your_move": "Your move",
    "deal": "Your offer was accepted",
    "decide": "Every bag can be decided now",
    "offer": "Offers that concern you",
    "reminder": "Reminder: your move is due soon",
    "welcome": "You have joined the game",
    "resend": "Your link to the game, sent again by the organizer",
    "paused": "The organizer paused the game",
    "resumed": "The game resumes",
    "extended": "The deadline is extended",
    "cancelled": "The organizer cancelled the game",
    "paused_itself": "The game paused itself",
}


def _domain() -> str:
    sender = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ")
    return sender or "localhost"


def thread_headers(game: Game, seat: Seat, key: str) -> dict:
    """Message-ID per email; every email of a seat's game refers to the same
    thread root, so mail apps show one conversation per game."""
    root = f"<{game.thread_token}.s{seat.index}@{_domain()}>"
    message_id = f"<{game.thread_token}.{key.replace(':', '.')}@{_domain()}>"
    return {"Message-ID": message_id, "In-Reply-To": root, "References": root}


def render(game: Game, seat: Seat, state, kind: str, key: str = "") -> dict:
    """The email ``kind`` for ``seat``: built from its view and its projection of
    the events since its last email, never from the raw state."""
    view = engine.view_for(state, seat.index)
    names = usertext.names(game.seats.order_by("index").values_list("name", flat=True))
    recent = GameEvent.objects.filter(game=game, seq__gte=seat.notified_seq).order_by("-seq")
    lines, _ = presenters.log_lines(
        state, recent.values_list("data", flat=True), names, seat.index, None
    )
    halted = presenters.halted(game, seat.timezone)
    bargaining = None if halted else presenters.deadline(game.bargaining_until, seat.timezone)
    phase = presenters.phase(view, names, bargaining)
    deadline = None if halted else presenters.deadline(game.phase_deadline, seat.timezone)
    gold = view["players"][seat.index]["gold"]
    outcome = round_outcome(game, seat, state, names, gold) if kind == "round_over" else None
    told = set(outcome["lines"]) if outcome else set()
    # Newest first; the round's story is told once.
    news = [line for line in lines if line["text"] not in told]
    headline = HEADLINES[kind].format(round=outcome["round"] if outcome else view["round"])
    if kind in ("start", "round_over") and phase["my_turn"]:
        headline += " — your move"
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        "headline": headline,
        "preheader": halted or preheader(kind, headline, phase, deadline, outcome),
        "halted": halted,
        "openings": presenters.record_openings(game.openings.all(), seat.timezone),
        "outcome": outcome,
        "pace": pace(game, seat.timezone) if kind in ("start", "welcome") else "",
        "kind": kind,
        "phase": phase,
        "me": presenters.my_goods(view),
        "kinds_legend": presenters.KINDS_LEGEND,
        "players": presenters.table(view, names),
        "booty": presenters.booty(view),
        "black_market": presenters.black_market(view, names),
        "scores": presenters.scores(view, names) if state.is_over() else [],
        "happened": presenters.by_round(news[:MAX_NEWS_LINES]),
        "news_shown": min(len(news), MAX_NEWS_LINES),
        "news_cut": max(0, len(news) - MAX_NEWS_LINES),
        "link": links.seat_url(seat),
        "deadline": deadline,
    }
    return {
        "to": seat.email,
        "subject": game.subject,
        "text": render_to_string("emails/message.txt", context),
        "html": render_to_string("emails/message.html", context),
        "headers": thread_headers(game, seat, key) if key else {},
        "attachments": [] if kind == "game_over" or halted else _deadline_ics(game, seat, key),
    }


def preheader(kind: str, headline: str, phase: dict, deadline, outcome) -> str:
    """The first line a mail app shows in its list: what this email is, or asks."""
    if kind == "game_over":
        return phase["hint"]
    if phase["my_turn"] and phase["ask"]:
        ask = f"Your move: {phase['ask']}"
        by = phase["ask_by"] or deadline
        return f"{ask} — by {by['short']} your time" if by else ask
    if outcome and outcome["lines"]:
        return f"{headline}: {outcome['lines'][0]}"
    return f"{headline}. {phase['next'] or phase['hint']}"


def round_outcome(game: Game, seat: Seat, state, names: list, gold: int) -> dict | None:
    """How the last round went, as this seat may know it: every bag's fate, who
    paid whom, and this seat's purse before and after."""
    ended = GameEvent.objects.filter(game=game, type="round_ended").order_by("-seq").first()
    if ended is None:
        return None
    number = ended.data["round"]
    started = GameEvent.objects.filter(game=game, type="round_started", data__round=number).first()
    events = GameEvent.objects.filter(
        game=game, seq__gte=started.seq if started else 0, seq__lte=ended.seq
    ).order_by("seq")
    projected = engine.project_log(state, [e.data for e in events], seat.index)
    change = sum(
        e["amount"] * ((e["to"] == seat.index) - (e["from"] == seat.index))
        for e in projected
        if e["type"] == "gold_transferred"
    )
    return {
        "round": number,
        "lines": outcome_lines(projected, names, seat.index, state.config),
        "gold_before": gold - change,
        "gold_after": gold,
    }


def pace(game: Game, tz_name: str) -> str:
    """The organizer's deadline settings in one sentence, in the seat's zone."""
    mode = game.deadline_mode
    if mode == Game.DeadlineMode.NONE:
        return "No deadlines: each phase moves on as soon as every move is in. " + bargaining(game)
    if mode == Game.DeadlineMode.DAILY and game.daily_time is not None:
        text = f"Every deadline falls at {game.daily_time:%H:%M} ({game.deadline_timezone})"
        if game.deadline_timezone != tz_name:
            text += "; each email gives it in your own zone"
    else:
        parts = [
            (game.market_minutes, "market"),
            (game.market_turn_minutes, "market turn"),
            (game.load_minutes, "loading"),
            (game.inspection_minutes, "inspection"),
        ]
        first = game.config.get("edition") == engine.FIRST_EDITION
        shown = [
            f"{_duration(minutes)} for the {what}"
            for minutes, what in parts
            if minutes and (what != ("market" if first else "market turn"))
        ]
        if game.config.get("black_market"):
            step = deadlines.black_market_minutes(
                game.black_market_minutes, game.inspection_minutes
            )
            if step:
                shown.append(f"{_duration(step)} for a Black Market claim after the last bag")
        text = "Each phase has a deadline: " + ", ".join(shown)
    if game.skip_weekends:
        text += "; no deadline falls on a weekend"
    text += ". A missed deadline makes the default move for you."
    return f"{text} {bargaining(game)}"


def bargaining(game: Game) -> str:
    """The game's bargaining time, in one sentence."""
    minutes = game.bargaining_minutes
    if minutes == 0:
        return "The Sheriff may decide a bag as soon as the declarations are revealed."
    wait = "The Sheriff decides a bag only once its merchant has made an offer or said “no offer”"
    if minutes is None and game.deadline_mode == Game.DeadlineMode.NONE:
        return wait + "."
    if minutes is None:
        return wait + ", or once half the inspection time has passed."
    return f"{wait}, or once {_duration(minutes)} of bargaining have passed."


def _duration(minutes: float) -> str:
    if minutes % 1440 == 0:
        days = int(minutes // 1440)
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes % 60 == 0:
        return f"{int(minutes // 60)} h"
    return f"{minutes:g} min"


def _deadline_ics(game: Game, seat: Seat, key: str) -> list:
    """The deadline as a calendar event, so it can land in the player's calendar.

    Without the seat's link: a calendar entry is shared, synced to other services and
    kept for years, and the link alone is enough to play the seat."""
    if game.phase_deadline is None:
        return []
    content = deadlines.ics(
        summary=f"Sheriff of Nottingham: your move in {game.name}",
        when=game.phase_deadline,
        uid=f"{game.thread_token}.s{seat.index}.p{game.phase_since}@{_domain()}",
        url="",
        now=timezone.now(),
        description=f"Your move in {game.name}: open the game with the button in your "
        "latest email about it.",
    )
    return [{"filename": "deadline.ics", "content": content, "mimetype": "text/calendar"}]


def _short(to: str, subject: str, template: str, context: dict, headers: dict) -> dict:
    """A short email that is not a seat's view of the table (emails/short.html)."""
    return {
        "to": to,
        "subject": subject,
        "text": render_to_string(f"emails/{template}.txt", context),
        "html": render_to_string(f"emails/{template}.html", context),
        "headers": headers,
    }


def _own_id(game: Game, key: str) -> dict:
    return {"Message-ID": f"<{game.thread_token}.{key.replace(':', '.')}@{_domain()}>"}


def render_miss_alert(game: Game, seat: Seat, key: str) -> dict:
    """To the organizer: a seat keeps missing its deadlines."""
    context = {
        "game": game,
        "seat": seat,
        "seat_number": seat.index + 1,
        "missed": cards(game.miss_alert_after, "deadline"),
        "admin_url": links.admin_url(game),
    }
    subject = f"{game.subject} — {usertext.isolate(seat.name)} is missing deadlines"
    return _short(game.organizer_email, subject, "miss_alert", context, _own_id(game, key))


def render_replaced(game: Game, seat: Seat, key: str) -> dict:
    """To the player the organizer replaced, at their own address (``seat`` as it
    was): told plainly, with no link to the seat and nothing of the game's state.
    Threaded with the emails that player had about the game."""
    context = {"game": game, "seat": seat}
    return _short(seat.email, game.subject, "replaced", context, thread_headers(game, seat, key))


def render_undeliverable_alert(game: Game, seat: Seat, problem: str, key: str) -> dict:
    """To the organizer: the ESP says a seat's address takes no more mail."""
    context = {
        "game": game,
        "seat": seat,
        "seat_number": seat.index + 1,
        "problem": problem,
        "admin_url": links.admin_url(game),
    }
    subject = f"{game.subject} — email to {usertext.isolate(seat.name)} does not arrive"
    return _short(game.organizer_email, subject, "undeliverable_alert", context, _own_id(game, key))


def render_idle_alert(game: Game, key: str) -> dict:
    """To the organizer: nobody moved for ``abandon_after`` phases, so the game
    paused itself; how to resume it."""
    context = {
        "game": game,
        "idle": idle_for(game.idle_phases),
        "admin_url": links.admin_url(game),
    }
    subject = f"{game.subject} — the game paused itself"
    return _short(game.organizer_email, subject, "idle_alert", context, _own_id(game, key))
