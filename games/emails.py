"""Render one email for one seat, from that seat's view only.

Every email is personal (never a shared body), in HTML and plain text, with a
constant subject per game and threading headers so a game is one
conversation in the player's mail app.
"""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games import deadlines, engine, links, presenters
from games.models import Game, GameEvent, Seat
from games.narrate import Narrator

MAX_NEWS_LINES = 40
HEADLINES = {
    "game_over": "The game is over — here are the scores",
    "your_move": "Your move",
    "deal": "Your offer was accepted",
    "offer": "A new offer concerns you",
    "reminder": "Reminder: your move is due soon",
    "welcome": "You have joined the game",
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
    names = list(game.seats.order_by("index").values_list("name", flat=True))
    recent = [e.data for e in GameEvent.objects.filter(game=game, seq__gte=seat.notified_seq)]
    lines = Narrator(names, seat.index).lines(engine.project_log(state, recent, seat.index))
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        "headline": HEADLINES[kind],
        "kind": kind,
        "phase": presenters.phase(view, names),
        "me": presenters.my_goods(view),
        "players": presenters.table(view, names),
        "scores": presenters.scores(view, names) if state.is_over() else [],
        "happened": lines[-MAX_NEWS_LINES:],
        "news_cut": max(0, len(lines) - MAX_NEWS_LINES),
        "link": links.seat_url(seat),
        "deadline": presenters.deadline(game.phase_deadline, seat.timezone),
    }
    return {
        "to": seat.email,
        "subject": game.subject,
        "text": render_to_string("emails/message.txt", context),
        "html": render_to_string("emails/message.html", context),
        "headers": thread_headers(game, seat, key) if key else {},
        "attachments": _deadline_ics(game, seat, key) if kind != "game_over" else [],
    }


def _deadline_ics(game: Game, seat: Seat, key: str) -> list:
    """The deadline as a calendar event, so it can land in the player's calendar."""
    if game.phase_deadline is None:
        return []
    content = deadlines.ics(
        summary=f"Sheriff of Nottingham: your move in {game.name}",
        when=game.phase_deadline,
        uid=f"{game.thread_token}.s{seat.index}.p{game.phase_since}@{_domain()}",
        url=links.seat_url(seat),
        now=timezone.now(),
    )
    return [{"filename": "deadline.ics", "content": content, "mimetype": "text/calendar"}]


def render_miss_alert(game: Game, seat: Seat, key: str) -> dict:
    """To the organizer: a seat keeps missing its deadlines."""
    context = {"game": game, "seat": seat, "missed": game.miss_alert_after}
    return {
        "to": game.organizer_email,
        "subject": f"{game.subject} — {seat.name} is missing deadlines",
        "text": render_to_string("emails/miss_alert.txt", context),
        "html": render_to_string("emails/miss_alert.html", context),
        "headers": {"Message-ID": f"<{game.thread_token}.{key.replace(':', '.')}@{_domain()}>"},
    }
