"""Render one email for one seat, from that seat's view only.

Every email is personal (never a shared body), in HTML and plain text, with a
subject and threading headers that put it in a conversation of the emails that
ask this seat's moves in a round, or of that round's news (games.mail.threads).
"""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games import engine
from games.core import (
    after_game,
    deadlines,
    links,
    notifications,
    rematch,
    selectors,
    sign_in,
)
from games.mail import threads
from games.models import Game, Seat
from games.present import cards, clock, game_log, presenters, reply_commands, reveal, seat_table
from games.present import talk as talk_lines
from games.present.seat_page import seat_view
from games.words import i18n, user_text
from games.words.narrate import outcome_lines

# Emails are Jinja templates (templates/emails/), as the pages are: the worker
# renders two for every email a move owes.
ENGINE = "jinja"
MAX_NEWS_LINES = 40
HEADLINES = {
    "game_over": gettext_lazy("The game is over — here are the scores"),
    "start": gettext_lazy("The game begins"),
    "round_over": gettext_lazy("Round %(round)s is over"),
    "your_move": pgettext_lazy("email headline", "Your move"),
    "deal": gettext_lazy("Your offer was accepted"),
    "demand_deal": gettext_lazy("Your demand was accepted"),
    "decide": gettext_lazy("Every bag can be decided now"),
    "offer": gettext_lazy("Offers that concern you"),
    threads.DEMAND: gettext_lazy("A demand awaits your answer"),
    "reminder": gettext_lazy("Reminder: your move is due soon"),
    "welcome": gettext_lazy("You have joined the game"),
    "resend": gettext_lazy("Your link to the game, sent again by the organizer"),
    "paused": gettext_lazy("The organizer paused the game"),
    "resumed": gettext_lazy("The game resumes"),
    "extended": gettext_lazy("The deadline is extended"),
    "cancelled": gettext_lazy("The organizer cancelled the game"),
    "paused_itself": gettext_lazy("The game paused itself"),
    "digest": gettext_lazy("Your daily summary"),
    "talk": gettext_lazy("New table talk"),
    "reply_done": gettext_lazy("Your message is on the table"),
    "reply_moved": gettext_lazy("Your move by reply is made"),
    "reply_refused": gettext_lazy("Your reply was not used"),
}
# A talk email to a reader who gets one only for the lines that concern them.
TALK_CONCERNS_HEADLINE = gettext_lazy("Talk that concerns you")
PREHEADER_TALK = 90  # characters of the first unread line in a talk email's preheader
# The headline of a new game or a new round when it is also the reader's move.
YOUR_MOVE_HEADLINES = {
    "start": gettext_lazy("The game begins — your move"),
    "round_over": gettext_lazy("Round %(round)s is over — your move"),
}
# The pace of a game with a daily deadline, by (the reader lives in another zone,
# no deadline falls on a weekend).
DAILY_PACE = {
    (False, False): gettext_lazy("Every deadline falls at %(time)s (%(zone)s)."),
    (True, False): gettext_lazy(
        "Every deadline falls at %(time)s (%(zone)s); each email gives it in your own zone."
    ),
    (False, True): gettext_lazy(
        "Every deadline falls at %(time)s (%(zone)s); no deadline falls on a weekend."
    ),
    (True, True): gettext_lazy(
        "Every deadline falls at %(time)s (%(zone)s); each email gives it in your own zone;"
        " no deadline falls on a weekend."
    ),
}
# The pace of a game with a time per phase, by (no deadline falls on a weekend).
PHASES_PACE = {
    False: gettext_lazy("Each phase has a deadline: %(deadlines)s."),
    True: gettext_lazy("Each phase has a deadline: %(deadlines)s; no deadline falls on a weekend."),
}
PHASE_TIMES = {
    "market": gettext_lazy("%(duration)s for the market"),
    "market_turn": gettext_lazy("%(duration)s for the market turn"),
    "load": gettext_lazy("%(duration)s for the loading"),
    "inspection": gettext_lazy("%(duration)s for the inspection"),
    "black_market": gettext_lazy("%(duration)s for a Black Market claim after the last bag"),
}


def unsubscribe_headers(seat: Seat) -> dict:
    """RFC 8058: the mail app's unsubscribe button POSTs "List-Unsubscribe=One-Click"
    to this address, which mutes the game's optional emails (never a GET action)."""
    return {
        "List-Unsubscribe": f"<{links.unsubscribe_url(seat)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def reply_to_headers(seat: Seat) -> dict:
    """The seat's reply address, when replies by email are read (games.core.replies)."""
    if not settings.INBOUND_DOMAIN:
        return {}
    return {"Reply-To": f"play+{seat.reply_key}@{settings.INBOUND_DOMAIN}"}


@dataclass(frozen=True)
class Table:
    """What an email reads besides its seat and game, if read with them
    (selectors.seat_news): the game's seats in seat order, the events the seat
    has not been told yet, newest first, and the oldest table talk it has not read
    (selectors.unread_talk's)."""

    seats: list
    news: list
    talk: list | None = None


def render(
    game: Game,
    seat: Seat,
    state,
    kind: str,
    key: str = "",
    params: dict | None = None,
    table: Table | None = None,
) -> dict:
    """The email ``kind`` for ``seat``: built from its view and its projection of
    the events since its last email, never from the raw state. ``params``: what the
    outbox row recorded when it was owed (an answer to a reply: why it was refused)."""
    seen = seat_view(seat, game=game, seats=table.seats if table else None, state=state)
    view, seats, names = seen.view, seen.seats, seen.names
    recent = table.news if table else selectors.events_since(game.pk, seat.notified_seq)
    lines, _more = game_log.log_lines(state, recent, names, seat.index, None)
    halted = clock.halted(game, seat.timezone)
    bargaining = None if halted else clock.deadline(game.bargaining_until, seat.timezone)
    phase = presenters.phase(view, names, bargaining, clock.halted_title(game))
    deadline = None if halted else clock.deadline(game.phase_deadline, seat.timezone)
    gold = view["players"][seat.index]["gold"]
    outcome = round_outcome(game, seat, state, names, gold) if kind == "round_over" else None
    in_outcome = set(outcome["lines"]) if outcome else set()
    # Newest first; the round's story is told once.
    news = [line for line in lines if line["text"] not in in_outcome]
    headlines = YOUR_MOVE_HEADLINES if phase["my_turn"] else {}
    # An offer email that brings a demand to answer is a demand's, not an offer's.
    told = threads.DEMAND if kind == notifications.OFFER and demanded(state, seat) else kind
    headline = str(headlines.get(told, HEADLINES[told])) % {
        "round": outcome["round"] if outcome else view["round"]
    }
    talk = talk_lines.unread_for_email(seat, seats, table.talk if table else None)
    if kind == notifications.TALK and seat.notify == Seat.Notify.TURN_AND_RESULTS:
        headline = str(TALK_CONCERNS_HEADLINE)
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        "headline": headline,
        "preheader": halted
        or (kind == notifications.TALK and talk_preheader(talk))
        or preheader(kind, headline, phase, deadline, outcome),
        "halted": halted,
        "openings": clock.record_openings(
            game.openings.all() if getattr(seat, "record_opened", True) else [], seat.timezone
        ),
        "outcome": outcome,
        "pace": pace(game, seat.timezone) if kind in ("start", "welcome") else "",
        "kind": kind,
        "demand": told == threads.DEMAND,  # its terms come first, before the hand
        "phase": phase,
        "me": seat_table.my_goods(view),
        "kinds_legend": cards.KINDS_LEGEND,
        "players": seat_table.table(view, names, clock.away_notes(seats, timezone.localdate())),
        "booty": seat_table.booty(view),
        "black_market": seat_table.black_market(view, names),
        "scores": seat_table.scores(view, names) if state.is_over() else [],
        "reveal": reveal.presented(after_game.told(game, state), names)
        if kind == "game_over"
        else None,
        "revealed_talk": talk_lines.revealed_for_email(game, seat, seats)
        if kind == "game_over"
        else None,
        "happened": game_log.by_round(news[:MAX_NEWS_LINES]),
        "news_shown": min(len(news), MAX_NEWS_LINES),
        "news_cut": max(0, len(news) - MAX_NEWS_LINES),
        "link": links.seat_url(seat),
        # The finished game's archive, kept for good: replay, reveal and awards.
        "archive_link": settings.SITE_URL + links.archive_path(seat) if kind == "game_over" else "",
        # The organizer's own seat: where to start a new game with the same players.
        "play_again_link": play_again_link(seat) if kind == "game_over" else "",
        "settings_link": links.settings_url(seat),
        "deadline": deadline,
        "talk": talk,
        # An answer to the seat's reply by email: why it was not used ("" otherwise).
        "reply_note": (params or {}).get("reason", "") if kind in REPLY_KINDS else "",
        # Replies are read (an inbound domain is set): the marker they are cut at, and
        # what a reply may do now, for an email that asks for a move.
        "replies_read": bool(settings.INBOUND_DOMAIN),
        "replies": _replies(view, seats) if settings.INBOUND_DOMAIN and not halted else None,
    }
    stream = threads.stream(kind, phase["my_turn"] and not halted)
    # The round's end closes the news of that round; anything else is of the round in play.
    told_round = outcome["round"] if outcome and stream == threads.NEWS else view["round"]
    thread = threads.headers(game.thread_token, seat.index, key, stream, told_round)
    return {
        "to": seat.email,
        "subject": threads.subject(
            game.name,
            stream,
            told_round,
            kind,
            threads.subject_words(told, view["phase"]["kind"], key.rpartition(":")[2]),
        ),
        "text": render_to_string("message.txt", context, using=ENGINE),
        "html": render_to_string("message.html", context, using=ENGINE),
        "headers": {**thread, **unsubscribe_headers(seat), **reply_to_headers(seat)} if key else {},
        "attachments": [] if kind in NO_CALENDAR or halted else _deadline_ics(game, seat, key),
        "talk_told": talk["told"],  # once sent, the seat's talk emails start after it
    }


# Answers to a seat's reply by email (games.core.replies).
REPLY_KINDS = (notifications.REPLY_DONE, notifications.REPLY_MOVED, notifications.REPLY_REFUSED)
# Emails that carry no deadline.ics: the last one, talk (it asks nothing), and the
# answers to a reply.
NO_CALENDAR = ("game_over", notifications.TALK, *REPLY_KINDS)


def play_again_link(seat: Seat) -> str:
    """The organizer's page's "Play again" form, for the organizer's own seat."""
    path = rematch.play_again_path(seat)
    return settings.SITE_URL + path if path else ""


def demanded(state, seat: Seat) -> bool:
    """Does a demand wait for the seat's answer (the game still in play)?"""
    return not state.is_over() and notifications.demand_awaits(state, seat.index)


def talk_preheader(talk: dict) -> str:
    """A talk email's first line in the mail app's list: who said what, first."""
    if not talk["messages"]:
        return ""
    first = talk["messages"][0]
    said = talk_lines.excerpt(" ".join(first["lines"]), PREHEADER_TALK)
    return _("%(name)s: %(text)s") % {"name": user_text.isolate(first["author"]), "text": said}


def _replies(view: dict, seats: list) -> dict | None:
    if not presenters.is_my_turn(view):
        return None
    return reply_commands.for_email(view, [s.name for s in seats])


def preheader(kind: str, headline: str, phase: dict, deadline, outcome) -> str:
    """The first line a mail app shows in its list: what this email is, or asks."""
    if kind == "game_over":
        return phase["hint"]
    if phase["my_turn"] and phase["ask"]:
        by = phase["ask_by"] or deadline
        if by:
            return _("Your move: %(ask)s — by %(when)s your time") % {
                "ask": phase["ask"],
                "when": by["short"],
            }
        return _("Your move: %(ask)s") % {"ask": phase["ask"]}
    if outcome and outcome["lines"]:
        return _("%(headline)s: %(outcome)s") % {
            "headline": headline,
            "outcome": outcome["lines"][0],
        }
    return _("%(headline)s. %(next)s") % {
        "headline": headline,
        "next": phase["next"] or phase["hint"],
    }


def round_outcome(game: Game, seat: Seat, state, names: list, gold: int) -> dict | None:
    """How the last round went, as this seat may know it: every bag's fate, who
    paid whom, and this seat's purse before and after."""
    events = selectors.last_round_events(game.pk)
    if not events:
        return None
    number = events[-1]["round"]
    projected = engine.project_log(state, [dict(e) for e in events], seat.index)
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
        text = _("No deadlines: each phase moves on as soon as every move is in.")
        return f"{text} {bargaining(game)}"
    if mode == Game.DeadlineMode.DAILY and game.daily_time is not None:
        elsewhere = game.deadline_timezone != tz_name
        text = DAILY_PACE[elsewhere, game.skip_weekends] % {
            "time": f"{game.daily_time:%H:%M}",
            "zone": game.deadline_timezone,
        }
    else:
        first = game.config.get("edition") == engine.FIRST_EDITION
        times = {
            # The first edition's market is played a turn at a time; the second's, at once.
            "market": 0 if first else game.market_minutes,
            "market_turn": game.market_turn_minutes if first else 0,
            "load": game.load_minutes,
            "inspection": game.inspection_minutes,
        }
        if game.config.get("black_market"):
            times["black_market"] = deadlines.black_market_minutes(
                game.black_market_minutes, game.inspection_minutes
            )
        shown = [
            PHASE_TIMES[phase] % {"duration": _duration(minutes)}
            for phase, minutes in times.items()
            if minutes
        ]
        text = PHASES_PACE[bool(game.skip_weekends)] % {"deadlines": ", ".join(shown)}
    missed = _("A missed deadline makes the default move for you.")
    return f"{text} {missed} {bargaining(game)}"


# The game's bargaining time, by (six players: two Deputies, no Sheriff) and case.
BARGAINING_PACE = {
    (False, "none"): gettext_lazy(
        "The Sheriff may decide a bag as soon as the declarations are revealed."
    ),
    (True, "none"): gettext_lazy(
        "The Deputies may call a bag as soon as the declarations are revealed."
    ),
    (False, "until_spoken"): gettext_lazy(
        "The Sheriff decides a bag only once its merchant has made an offer or said “no offer”."
    ),
    (True, "until_spoken"): gettext_lazy(
        "The Deputies call a bag only once its merchant has made an offer or said “no offer”."
    ),
    (False, "half"): gettext_lazy(
        "The Sheriff decides a bag only once its merchant has made an offer or said "
        "“no offer”, or once half the inspection time has passed."
    ),
    (True, "half"): gettext_lazy(
        "The Deputies call a bag only once its merchant has made an offer or said "
        "“no offer”, or once half the inspection time has passed."
    ),
    (False, "minutes"): gettext_lazy(
        "The Sheriff decides a bag only once its merchant has made an offer or said "
        "“no offer”, or once %(duration)s of bargaining have passed."
    ),
    (True, "minutes"): gettext_lazy(
        "The Deputies call a bag only once its merchant has made an offer or said "
        "“no offer”, or once %(duration)s of bargaining have passed."
    ),
}


def bargaining(game: Game) -> str:
    """The game's bargaining time, in one sentence."""
    six = engine.GameConfig.from_dict(game.config).deputies
    minutes = game.bargaining_minutes
    if minutes == 0:
        return str(BARGAINING_PACE[six, "none"])
    if minutes is None and game.deadline_mode == Game.DeadlineMode.NONE:
        return str(BARGAINING_PACE[six, "until_spoken"])
    if minutes is None:
        return str(BARGAINING_PACE[six, "half"])
    return BARGAINING_PACE[six, "minutes"] % {"duration": _duration(minutes)}


def _duration(minutes: float) -> str:
    """A phase's time: "1 day", "12 h", "90 min" (a fraction in the reader's notation)."""
    if minutes % 1440 == 0:
        days = int(minutes // 1440)
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    # Unit symbols: the same for any count.
    if minutes % 60 == 0:
        return _("%(count)s h") % {"count": int(minutes // 60)}
    count = int(minutes) if float(minutes).is_integer() else minutes
    return _("%(count)s min") % {"count": formats.number_format(count)}


def _deadline_ics(game: Game, seat: Seat, key: str) -> list:
    """The deadline as a calendar event, so it can land in the player's calendar
    (in the reader's language, as the email that carries it).

    Without the seat's link: a calendar entry is shared, synced to other services and
    kept for years, and the link alone is enough to play the seat."""
    if game.phase_deadline is None:
        return []
    content = deadlines.ics(
        summary=_("Sheriff of Nottingham: your move in %(game)s") % {"game": game.name},
        when=game.phase_deadline,
        uid=f"{game.thread_token}.s{seat.index}.p{game.phase_since}@{threads.domain()}",
        url="",
        now=timezone.now(),
        description=_(
            "Your move in %(game)s: open the game with the button in your latest email about it."
        )
        % {"game": game.name},
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    return [{"filename": "deadline.ics", "content": content, "mimetype": "text/calendar"}]


def short_email(to: str, subject: str, template: str, context: dict, headers: dict) -> dict:
    """A short email that is not a seat's view of the table (short.html)."""
    return {
        "to": to,
        "subject": subject,
        "text": render_to_string(f"{template}.txt", context, using=ENGINE),
        "html": render_to_string(f"{template}.html", context, using=ENGINE),
        "headers": headers,
    }


def _own_id(game: Game, key: str) -> dict:
    message_id = f"<{game.thread_token}.{key.replace(':', '.')}@{threads.domain()}>"
    return {"Message-ID": message_id, **threads.AUTOMATIC}


def _to_the_organizer(render):
    """An alert to the organizer, whoever's move or page set it off: in the
    language of their own seat when they play in the game, else the site's."""

    @functools.wraps(render)
    def rendered(game: Game, *args, **kwargs):
        with translation.override(_organizer_language(game)):
            return render(game, *args, **kwargs)

    return rendered


def _organizer_language(game: Game) -> str:
    address = (game.organizer_email or "").strip()
    playing = address and game.seats.filter(email__iexact=address).order_by("index").first()
    return i18n.language_of(playing) if playing else settings.LANGUAGE_CODE


@_to_the_organizer
def render_miss_alert(game: Game, seat: Seat, key: str) -> dict:
    """To the organizer: a seat keeps missing its deadlines."""
    context = {
        "game": game,
        "seat": seat,
        "seat_number": seat.index + 1,
        "missed": game.miss_alert_after,
        "organize_url": links.organize_url(game),
    }
    subject = _("%(subject)s — %(name)s is missing deadlines") % {
        "subject": game.subject,
        "name": user_text.isolate(seat.name),
    }
    return short_email(game.organizer_email, subject, "miss_alert", context, _own_id(game, key))


def render_replaced(game: Game, seat: Seat, key: str) -> dict:
    """To the player the organizer replaced, at their own address (``seat`` as it
    was), in their language: told plainly, with no link to the seat and nothing of
    the game's state. Threaded with the news that player had of the round in play."""
    context = {"game": game, "seat": seat}
    round_ = game.state.get("round", 1)
    headers = threads.headers(game.thread_token, seat.index, key, threads.NEWS, round_)
    with i18n.as_seat(seat):
        subject = threads.subject(
            game.name,
            threads.NEWS,
            round_,
            notifications.REPLACED,
            threads.subject_words(notifications.REPLACED),
        )
        return short_email(seat.email, subject, "replaced", context, headers)


@_to_the_organizer
def render_undeliverable_alert(game: Game, seat: Seat, problem: str, key: str) -> dict:
    """To the organizer: the ESP says a seat's address takes no more mail."""
    context = {
        "game": game,
        "seat": seat,
        "seat_number": seat.index + 1,
        "problem": problem,
        "organize_url": links.organize_url(game),
    }
    subject = _("%(subject)s — email to %(name)s does not arrive") % {
        "subject": game.subject,
        "name": user_text.isolate(seat.name),
    }
    return short_email(
        game.organizer_email, subject, "undeliverable_alert", context, _own_id(game, key)
    )


@_to_the_organizer
def render_idle_alert(game: Game, key: str) -> dict:
    """To the organizer: nobody moved for ``abandon_after`` phases, so the game
    paused itself; how to resume it."""
    context = {
        "game": game,
        "idle": game.idle_phases,
        "organize_url": links.organize_url(game),
        "admin_url": links.admin_url(game),  # where the game's settings are changed
    }
    subject = _("%(subject)s — the game paused itself") % {"subject": game.subject}
    return short_email(game.organizer_email, subject, "idle_alert", context, _own_id(game, key))


def render_reply_held(game: Game, seat: Seat, to: str, key: str) -> dict:
    """To whoever replied for a seat from another address: nothing was done, and
    only the seat's own address may reply. It names neither the seat nor its
    address, and says nothing of the game's state."""
    headers = {**_own_id(game, key), "Auto-Submitted": "auto-replied"}
    with i18n.as_seat(seat):
        return short_email(to, _("Your reply was not used"), "reply_held", {}, headers)


def render_alert(game: Game, kind: str, params: dict, key: str) -> dict:
    """An email owed to an address that is not a seat's current one, from what the
    row recorded when it was owed (notifications.ALERTS): the seat it is about as
    it was then, since it may hold someone else by now."""
    seat = Seat(game=game, **params["seat"]) if "seat" in params else None
    if kind == notifications.MISS_ALERT:
        return render_miss_alert(game, seat, key)
    if kind == notifications.REPLACED:
        return render_replaced(game, seat, key)
    if kind == notifications.UNDELIVERABLE_ALERT:
        return render_undeliverable_alert(game, seat, params["problem"], key)
    if kind == notifications.IDLE_ALERT:
        return render_idle_alert(game, key)
    if kind == notifications.REPLY_HELD:
        return render_reply_held(game, seat, params["sender"], key)
    raise ValueError(f"no alert of kind {kind!r}")


def render_sign_in(to: str, params: dict, key: str) -> dict:
    """A sign-in's link and code, in the language the asker read the page in. No
    game and no seat: it says nothing of whether the address plays anywhere."""
    token = sign_in.link_token(params["sign_in"])
    url = settings.SITE_URL + reverse("games:sign-in-link", args=[token])
    context = {"url": url, "code": params["code"], "minutes": settings.SIGN_IN_MINUTES}
    with translation.override(params.get("language") or settings.LANGUAGE_CODE):
        subject = _("Your sign-in code: %(code)s") % {"code": params["code"]}
        message_id = f"<{key.replace(':', '.')}@{threads.domain()}>"
        headers = {"Message-ID": message_id, **threads.AUTOMATIC}
        return short_email(to, subject, "sign_in_email", context, headers)
