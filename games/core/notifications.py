"""Which emails a move makes owed, recorded in the outbox in the move's own
transaction. One email per seat per move at most, keyed by seat and cause so
that no cause ever yields two emails.

Causes, most important first: the game ended (everyone gets the reveal and the
score sheet); the game began (everyone: the table, the pace, what comes next); a
round ended (everyone: how each bag went, who paid whom, the new Sheriff); a new
phase began (every seat with a move to make); the bargaining is over (the
Sheriff); a deal was struck on your offer; an offer or demand was made to you
or about your bag. Offer emails are gathered: each waits for a quiet time after
the latest offer concerning its reader and tells every offer since, so a seat
has at most one waiting (see ``_gather``). So are the emails a line of table
talk owes its readers, by their setting (``record_talk``).

Besides: the organizer's notices (pause, resume, extension, cancellation) to
every player; a game that paused itself because nobody moved, to every player
and the organizer; and, rendered at once since they are not a seat's view, the
organizer's alerts and the farewell to a player who was replaced.
"""

import hashlib
import logging
from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower
from django.utils import timezone

from games.core import bulk, pushes, talk_concerns, talk_reads
from games.core.outbox_handoff import SEND_PUSHES, send_after_commit, send_once_committed
from games.engine import actions
from games.engine.black_market import may_still_claim
from games.engine.inspection import (
    acceptors,
    is_demand,
    to_decide,
    undecided,
    waiting_to_speak,
)
from games.models import Game, OutboxEmail, Person, Seat

GAME_OVER, YOUR_MOVE, DEAL, OFFER = "game_over", "your_move", "deal", "offer"
DEMAND_DEAL = "demand_deal"  # the Sheriff's (a Deputy's) demand was accepted
DECIDE = "decide"  # the Sheriff: bargaining is over, every bag can be decided
START, ROUND_OVER = "start", "round_over"
REMINDER, WELCOME, RESEND = "reminder", "welcome", "resend"
DIGEST = "digest"  # a player's daily summary, at the hour they chose
REPLACED = "replaced"  # to the player who leaves a seat (not rendered from a view)
PAUSED_ITSELF, IDLE_ALERT = "paused_itself", "idle_alert"  # nobody moved any more
UNDELIVERABLE_ALERT = "undeliverable_alert"  # a seat's address bounced for good
MISS_ALERT = "miss_alert"  # a seat keeps missing its deadlines
SIGN_IN = "sign_in"  # a person asked to sign in (about no game)
INVITATION = "invitation"  # to a lobby's invitee: accept or decline
TABLE_FULL = "table_full"  # to a lobby's organizer: every seat is taken, press Start
LINKS = "links"  # a person asked for a link to each of their seats in play
DAILY = "daily"  # a person's one email a day across all their games
TALK = "talk"  # table talk since the reader's last email (gathered, as offers are)
# Answers to a seat's reply by email (games.core.replies): its text is on the table,
# or why it was not used; REPLY_HELD to a stranger who replied for a seat.
REPLY_DONE, REPLY_REFUSED, REPLY_HELD = "reply_done", "reply_refused", "reply_held"
REPLY_MOVED = "reply_moved"  # a move by reply was made
# A seat's email's params: the phase it was written in (its ``phase_since``, written by
# the outbox when it renders the email): a move by reply to it is judged by it.
PHASE_SINCE = "phase_since"
# Emails about no game in play: their params hold what they tell.
PERSON_EMAILS = (SIGN_IN, INVITATION, TABLE_FULL, LINKS, DAILY)
# Emails to an address that is not a seat's current one (the organizer, a replaced
# player): what they tell is kept in the row's params, as it is when they are owed.
ALERTS = (MISS_ALERT, IDLE_ALERT, UNDELIVERABLE_ALERT, REPLACED, REPLY_HELD)
NOTICES = ("paused", "resumed", "extended", "cancelled")  # the organizer's controls
DEMAND_CAUSE = "demand"  # an offer email's cause when it brings its reader a demand
PRIORITY = (GAME_OVER, START, ROUND_OVER, YOUR_MOVE, DECIDE, DEAL, DEMAND_DEAL, OFFER)
# The Web Push notification each cause owes (games.core.pushes), whatever the reader's
# email settings: the game's start and a round's end only to a seat that must act then.
PUSHED = {
    **dict.fromkeys((YOUR_MOVE, DECIDE, REMINDER), pushes.YOUR_MOVE),
    **dict.fromkeys((START, ROUND_OVER), pushes.IF_MUST_ACT),
    **dict.fromkeys((OFFER, DEAL, DEMAND_DEAL), pushes.DEAL),
    GAME_OVER: pushes.GAME_OVER,
}
# Gathered emails (``_gather``): the settings of their quiet time and longest wait.
GATHERED = {
    OFFER: ("OFFER_EMAIL_QUIET_SECONDS", "OFFER_EMAIL_MAX_WAIT_SECONDS"),
    TALK: ("TALK_EMAIL_QUIET_SECONDS", "TALK_EMAIL_MAX_WAIT_SECONDS"),
}

log = logging.getLogger(__name__)


def owed(state, events: list) -> dict:
    """seat index -> (kind, cause) for the emails this batch of events makes owed."""
    wanted: dict[int, list] = {}

    def add(seat: int, kind: str, cause: str) -> None:
        wanted.setdefault(seat, []).append((kind, cause))

    types = [e["type"] for e in events]
    ended = [e["round"] for e in events if e["type"] == "round_ended"]
    if "game_ended" in types:
        for seat in range(state.players):
            add(seat, GAME_OVER, "end")
    elif "game_started" in types:  # everyone, the Sheriff included, hears at once
        for seat in range(state.players):
            add(seat, START, "start")
    elif ended:  # everyone learns how the round went (and, if so, that it is their move)
        for seat in range(state.players):
            add(seat, ROUND_OVER, f"round{ended[-1]}")
    elif "phase_started" in types:
        started = max(e["seq"] for e in events if e["type"] == "phase_started")
        for seat, options in actions(state).items():
            if options["moves"]:
                add(seat, YOUR_MOVE, f"phase{started}")
    if state.config.black_market and not state.is_over() and state.phase.kind == "inspection":
        # A bag is through while the inspection goes on: its merchant, if the Black
        # Market step would wait for them, is asked now (claim, or "no claim"), so
        # that their answer is in, or on its way, by the last bag.
        for event in events:
            through = event["type"] in ("bag_passed", "bag_inspected")
            if through and may_still_claim(state, event["seat"]):
                add(event["seat"], YOUR_MOVE, f"claim{event['seq']}")
    if _bargaining_just_over(state, types):
        for inspector in state.inspectors():  # the Sheriff, or each Deputy with calls left
            if to_decide(state, inspector):
                add(inspector, DECIDE, f"decide{state.phase.since}")
    offers = getattr(state.phase, "offers", {})
    for event in events:
        if event["type"] in ("offer_made", "offer_revised"):
            offer_id = event["offer"]["id"] if event["type"] == "offer_made" else event["offer"]
            offer = offers.get(str(offer_id))
            if offer is None or offer["status"] != "open":
                continue
            # Those who must accept it (both Deputies of a joint offer), and the bags' owners.
            concerned = {*acceptors(state, offer)} | {a["bag"] for a in offer["terms"]["sheriff"]}
            answer_now = set(acceptors(state, offer)) if is_demand(offer) else set()
            for seat in concerned - {offer["proposer"]}:
                # Gathered with the offers after it (_gather): one per move at
                # most; a demand, which its merchant may accept only while the bag is
                # undecided, is not put off (its cause says so).
                cause = DEMAND_CAUSE if seat in answer_now else "offers"
                add(seat, OFFER, f"{cause}{event['seq']}")
        elif event["type"] == "deal_made" and str(event["offer"]) in offers:
            offer = offers[str(event["offer"])]
            kind = DEMAND_DEAL if offer["proposer"] != offer["payer"] else DEAL
            add(offer["proposer"], kind, f"deal{event['offer']}")
    return {
        seat: min(causes, key=lambda kc: PRIORITY.index(kc[0])) for seat, causes in wanted.items()
    }


def _bargaining_just_over(state, types: list) -> bool:
    """The last merchant waited for said "no offer", or the bargaining time ran out.
    (Offers are emailed to the Sheriff anyway.) At most once a phase: the seats
    waited for only ever become fewer, and these events need one still waiting."""
    if state.is_over() or state.phase.kind != "inspection":
        return False
    if not {"no_offer_said", "bargaining_ended"} & set(types) or "phase_started" in types:
        return False
    return bool(undecided(state)) and not waiting_to_speak(state)


def record(game: Game, state, events: list, seats: list | None = None) -> list:
    """Write the owed emails to the outbox (call inside the move's transaction);
    they are sent after commit. Most moves owe none: then no query at all.
    ``seats``: the game's seats, if read already (a move reads them with its
    seat, before the lock: an email's address and body are written from the
    seat as it is when the email is sent, so only the reader's choice of emails
    is as read then, as if a change of it had come a moment later)."""
    if not owed(state, events):
        return []
    return record_many([(game, list(game.seats.all()) if seats is None else seats, state, events)])


def record_many(moves: list) -> list:
    """``record`` for several games at once: ``moves`` holds (game, seats, state,
    events); three queries whatever their number (plus two per offer email)."""
    wanted = emails_owed(moves)
    offers = [email for email in wanted if email.kind == OFFER]
    written = save_owed([email for email in wanted if email.kind != OFFER])
    written += _gather(offers, OFFER)
    record_pushes(pushes_owed(moves))  # beside the emails: two queries more if any is owed
    return written


def _gather(wanted: list, kind: str) -> list:
    """Emails of a gathered ``kind`` (offers, talk) wait for a quiet time, and a
    reader has one of each waiting at most.

    A seat already owed an offer email that is still waiting gets none more: that
    one is put off to a quiet time after this offer (never past the longest wait
    from its creation), and when it goes it tells every offer since the reader's
    last email (it is rendered when sent). So a seat making and withdrawing offers
    in a loop sends its counterpart one email, not one each; and a seat talking in
    a loop sends each reader one talk email, not one a line. (Each kind has its own
    times: GATHERED.) The put-off is a
    compare-and-set on a row nobody has started sending; the outbox sweep sends
    it when due; one due but not yet taken by a sender still tells this offer.
    (A sender that took it first holds its row: the put-off then finds it sending,
    and this offer gets an email of its own.)

    A demand is not put off: its merchant may accept it only until the bag is
    decided, which may be at once. Its email, or the one waiting, goes now (the
    seat's own pace of moves bounds a loop of demands)."""
    quiet_setting, longest_setting = GATHERED[kind]
    quiet = timedelta(seconds=getattr(settings, quiet_setting))
    if not wanted or not quiet:
        return save_owed(wanted)
    now = timezone.now()
    longest = timedelta(seconds=getattr(settings, longest_setting))
    new, urgent, hurried = [], [], []
    for email in wanted:
        demand = kind == OFFER and email.key.rpartition(":")[2].startswith(DEMAND_CAUSE)
        waiting = OutboxEmail.objects.filter(
            game=email.game,
            seat=email.seat,
            kind=kind,
            status=OutboxEmail.Status.PENDING,
            attempts=0,  # (a retry is rendered afresh anyway)
        )
        found = waiting.values_list("pk", "created_at").first()
        if found is not None:
            pk, created = found
            later = now if demand else min(now + quiet, created + longest)
            unstarted = OutboxEmail.objects.filter(
                pk=pk, status=OutboxEmail.Status.PENDING, attempts=0
            )
            if unstarted.update(next_attempt_at=later):
                hurried += [pk] if demand else []
                continue
        if demand:
            email.next_attempt_at = now  # due now: its task sends it, else the sweep
            urgent.append(email)
            continue
        email.next_attempt_at = now + quiet
        new.append(email)
    if hurried:
        transaction.on_commit(lambda: send_after_commit(hurried))
    # No task for the others: the outbox sweep sends each when its quiet time is over.
    return save_owed(urgent) + bulk.insert_new(new, "key")


def record_talk(game: Game, message, state) -> list:
    """The talk emails a new line owes (call inside its transaction): one to each
    other seat that may read it and wants it (``talk_wanted``), gathered as offer
    emails are, so a reader has one waiting at most, whatever the pace of the talk.
    None to an address that takes no more mail (as the daily summary)."""
    if game.status != Game.Status.ACTIVE:
        return []
    # A push goes to a seat the line concerns, whatever its emails (its address may
    # take no more mail: a device still takes pushes).
    wanted, pushed = [], []
    for seat in game.seats.exclude(pk=message.seat_id):
        if not mailed(game, seat.index):
            continue
        email = seat.undeliverable_at is None and talk_wanted(seat, message, state)
        push = pushes.enabled() and _concerns(seat, message, state)
        if (email or push) and talk_reads.visible_to(seat).filter(pk=message.pk).exists():
            if email:
                wanted.append(_owed_email(game, seat, TALK, f"talk{message.pk}"))
            if push:
                pushed.append((game, seat, pushes.TALK, f"talk{message.pk}"))
    written = _gather(wanted, TALK)
    record_pushes(pushed)
    return written


def talk_wanted(seat: Seat, message, state) -> bool:
    """Does a line of talk earn the seat an email of its own, by its setting? Every
    line, for "every event"; a line that concerns it, for "my turn and results";
    none for "my turn only" (its next email that asks a move tells the talk)."""
    if seat.notify == Seat.Notify.EVERY_EVENT:
        return True
    if seat.notify != Seat.Notify.TURN_AND_RESULTS:
        return False
    return _concerns(seat, message, state)


def _concerns(seat: Seat, message, state) -> bool:
    """Does the line concern the seat (names it, answers its declaration or an offer
    it is party to, or is written to it alone)?"""
    return talk_concerns.concerns(
        state,
        seat.index,
        seat.name,
        text=message.text,
        private_to_reader=message.to_seat_id == seat.pk,
        quote_kind=message.quote_kind,
        quote_ref=message.quote_ref,
    )


def emails_owed(moves: list) -> list:
    """The emails ``record_many(moves)`` owes, as unsaved rows (no query), less
    those their readers chose not to get (``wanted``)."""
    rows = []
    for game, seats, state, events in moves:
        by_index = {seat.index: seat for seat in seats}
        for index, (kind, cause) in sorted(owed(state, events).items()):
            if mailed(game, index) and wanted(by_index[index], kind, state):
                rows.append(_owed_email(game, by_index[index], kind, cause))
    return rows


def pushes_owed(moves: list) -> list:
    """The Web Push notifications ``moves`` (game, seats, state, events) owe, as
    (game, seat, push kind, cause), whatever the readers' email settings: no query
    (``record_pushes`` writes them). None while push is off for the site."""
    if not pushes.enabled():
        return []
    owed_now = []
    for game, seats, state, events in moves:
        by_index = {seat.index: seat for seat in seats}
        for index, (kind, cause) in sorted(owed(state, events).items()):
            pushed = pushes.told_as(PUSHED.get(kind), state, index)
            if pushed and mailed(game, index):
                owed_now.append((game, by_index[index], pushed, cause))
    return owed_now


def record_pushes(owed_now: list) -> list:
    """Write the pushes owed (``pushes_owed``'s) to the push outbox for the devices
    that asked for them; they go to the push workers once committed (or are held,
    ``outbox_handoff.sends_held``, with the emails). No query when none is owed."""
    written = pushes.record(owed_now)
    if written:
        send_once_committed([push.pk for push in written], SEND_PUSHES)
    return written


# The emails each notification setting sends besides those that ask for a move
# (a new phase with a move to make, every bag decidable, a reminder, an offer or a
# demand the reader must answer), which are always sent. The news of an email not
# sent is told in the reader's next one, which tells everything since the last.
SENT_FOR = {
    Seat.Notify.EVERY_EVENT: {GAME_OVER, START, ROUND_OVER, DEAL, DEMAND_DEAL, OFFER},
    Seat.Notify.TURN_AND_RESULTS: {GAME_OVER, START, ROUND_OVER, DEAL, DEMAND_DEAL},
    Seat.Notify.TURN_ONLY: {GAME_OVER, START},
}


def wanted(seat: Seat, kind: str, state) -> bool:
    """Does the seat get this email, by its notification setting?"""
    if kind in (YOUR_MOVE, DECIDE, REMINDER) or kind in SENT_FOR.get(seat.notify, {kind}):
        return True
    if kind == OFFER:  # always, when an open offer awaits the reader's answer
        return seat.index in _to_answer(state)
    if kind == ROUND_OVER:  # the round's end doubles as the email of a new move
        return actions(state)[seat.index]["must_act"] if not state.is_over() else True
    return False


def _to_answer(state, demands_only: bool = False) -> set:
    """Seats an open offer (or only a demand) waits for: they must accept it (or let
    it lapse)."""
    offers = getattr(state.phase, "offers", {}) if state.phase is not None else {}
    return {
        seat
        for offer in offers.values()
        if offer["status"] == "open" and (is_demand(offer) or not demands_only)
        for seat in acceptors(state, offer)
        if seat not in offer.get("accepted", [])
    }


def demand_awaits(state, seat: int) -> bool:
    """Does an open demand wait for this seat's answer? Its offer email is then a
    demand's (its subject and headline say so)."""
    return seat in _to_answer(state, demands_only=True)


def record_reminders(game: Game, state, awaited: list) -> list:
    """One reminder per seat and phase, to the seats that still owe a move."""
    seats = game.seats.filter(index__in=awaited)
    owed_now = [(game, s, REMINDER, f"remind{state.phase.since}") for s in seats]
    written = _record_all(owed_now)
    told = [(game, s, pushes.YOUR_MOVE, cause) for _, s, _, cause in owed_now]
    record_pushes([push for push in told if mailed(game, push[1].index)])
    return written


def record_digests(now) -> list:
    """The daily summaries due now: each seat that asked for one at this hour of
    its own zone (or later that day, should the beat have been down at the hour),
    has not had today's and has news since its last email (table talk unread too)."""
    wanted_now = []
    # A person who chose one email a day across all their games gets that one instead.
    daily = Person.objects.filter(email=Lower(OuterRef("email")), daily_hour__isnull=False)
    seats = (
        Seat.objects.filter(
            digest_hour__isnull=False,
            game__status=Game.Status.ACTIVE,
            undeliverable_at__isnull=True,
        )
        .exclude(Exists(daily))
        .select_related("game")
    )
    for seat in seats:
        local = now.astimezone(local_zone(seat.timezone))
        if local.hour < seat.digest_hour or seat.last_digest_on == local.date():
            continue
        Seat.objects.filter(pk=seat.pk).update(last_digest_on=local.date())
        news = seat.game.events.filter(seq__gte=seat.notified_seq).exists()
        if news or talk_reads.unread(seat).exists():
            wanted_now.append((seat.game, seat, DIGEST, f"digest{local.date():%Y%m%d}"))
    return _record_all(wanted_now)


def local_zone(name: str):
    """The zone of that name; UTC for a name no longer known."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def record_welcome(game: Game, seat: Seat, state) -> list:
    """The current email, for a player who has just taken over a seat."""
    return _record_all([(game, seat, WELCOME, f"welcome{seat.link_version}")])


def record_resend(game: Game, seat: Seat) -> list:
    """The seat's current email again, at the organizer's request."""
    return _record_all([(game, seat, RESEND, f"resend{game.version}")])


def record_notice(game: Game, kind: str, cause: str) -> list:
    """The organizer paused, resumed, extended or cancelled: every player is told."""
    return _record_all([(game, seat, kind, cause) for seat in game.seats.all()])


def record_miss_alert(game: Game, seat: Seat) -> list:
    """Tell the organizer a seat keeps missing its deadlines (once per streak)."""
    key = f"g{game.pk}:alert:s{seat.index}:v{game.version}"
    return _record_alert(game, key, MISS_ALERT, game.organizer_email, seat=_as_owed(seat))


def record_replaced(game: Game, seat: Seat) -> list:
    """Tell the player leaving a seat (``seat`` still holds their name and address)
    that the organizer gave it to someone else."""
    key = f"g{game.pk}:replaced:s{seat.index}:v{seat.link_version}"
    return _record_alert(game, key, REPLACED, seat.email, seat=_as_owed(seat))


def record_reply_answer(seat: Seat, kind: str, inbound_id: int, reason: str = "") -> list:
    """Answer a seat's reply by email (REPLY_DONE, REPLY_MOVED with what was done, or
    REPLY_REFUSED with why): the
    seat's own email, with its private view, once per reply received."""
    email = _owed_email(seat.game, seat, kind, f"reply{inbound_id}")
    email.params = {"reason": reason} if reason else {}
    return save_owed([email])


def record_reply_held(seat: Seat, to: str, inbound_id: int) -> list:
    """Tell whoever replied for ``seat`` from another address that nothing was done."""
    key = f"g{seat.game_id}:held:s{seat.index}:{inbound_id}"
    return _record_alert(seat.game, key, REPLY_HELD, to, seat=_as_owed(seat), sender=to)


def record_paused_itself(stopped: list) -> list:
    """Games that paused themselves because nobody moved: every player is told
    (this email stands for the new phase's), the organizer too, with how to
    resume. ``stopped`` holds (game, seats). Rare, so the organizer's emails
    may cost a query or two each."""
    told = _record_all(
        [
            (game, seat, PAUSED_ITSELF, f"paused{game.version}")
            for game, seats in stopped
            for seat in seats
        ]
    )
    for game, _ in stopped:
        if game.organizer_email:
            key = f"g{game.pk}:idle:v{game.version}"
            told += _record_alert(game, key, IDLE_ALERT, game.organizer_email)
    return told


def record_undeliverable_alert(game: Game, seat: Seat, problem: str) -> list:
    """Tell the organizer a seat's address takes no more mail (once per address)."""
    if not game.organizer_email:
        return []
    digest = hashlib.sha256(seat.email.lower().encode()).hexdigest()[:16]
    key = f"g{game.pk}:undeliverable:s{seat.index}:{digest}"
    params = {"seat": _as_owed(seat), "problem": problem}
    return _record_alert(game, key, UNDELIVERABLE_ALERT, game.organizer_email, **params)


def record_sign_in(sign_in, code: str, language: str) -> list:
    """The email with a sign-in's link and code, in the language the page was read
    in. Its row holds the code until it is sent, as a seat's email holds its link."""
    params = {"sign_in": sign_in.pk, "code": code, "language": language}
    return save_owed([to_a_person(sign_in.email, SIGN_IN, f"signin:{sign_in.pk}", **params)])


def record_links(asked, language: str) -> list:
    """The email with a link to each seat in play at an address that asked for
    them ("resend my links"), in the language the page was read in. Its links
    are written when it is sent."""
    return save_owed([to_a_person(asked.email, LINKS, f"links:{asked.pk}", language=language)])


def to_a_person(to: str, kind: str, key: str, **params) -> OutboxEmail:
    """An email to a person about no one game: the admin lists none of them."""
    return OutboxEmail(game=None, seat=None, key=key, kind=kind, to=to, params=params)


def record_invitation(invitation) -> list:
    """An invitation's email; each sending has a cause of its own (the organizer's
    "send again"), and no sending is owed twice."""
    key = f"invitation:{invitation.pk}:{invitation.sends}"
    return save_owed([to_a_person(invitation.email, INVITATION, key, invitation=invitation.pk)])


def record_table_full(lobby) -> list:
    """Tell the organizer every seat is taken (once per lobby)."""
    key = f"lobby:{lobby.pk}:full"
    return save_owed([to_a_person(lobby.organizer_email, TABLE_FULL, key, lobby=lobby.pk)])


def _as_owed(seat: Seat) -> dict:
    """The seat as the email is owed about it: by the time it is sent, the seat
    may hold someone else."""
    return {f: getattr(seat, f) for f in ("index", "name", "email", "language", "timezone")}


def _record_alert(game: Game, key: str, kind: str, to: str, **params) -> list:
    """Owe an email to an address that is not a seat's current one: a row only, with
    what it tells in ``params`` (the outbox renders it when sending). The key makes
    a cause yield one email at most."""
    email = OutboxEmail(game=game, seat=None, key=key, kind=kind, to=to, params=params)
    return save_owed([email])


def _owed_email(game: Game, seat: Seat, kind: str, cause: str) -> OutboxEmail:
    key = f"g{game.pk}:s{seat.index}:{cause}"
    return OutboxEmail(
        game=game, seat=seat, key=key, kind=kind, to=seat.email, subject=game.subject
    )


def mailed(game: Game, index: int) -> bool:
    """Does the seat get the game's emails? Not a bot's seat, and nobody in a practice
    game (the bots answer within seconds: its player is at the table, and finds it on
    My games)."""
    return not game.practice and str(index) not in game.bots


def _record_all(wanted: list) -> list:
    """Owe the emails (game, seat, kind, cause) to the seats that get them (``mailed``)."""
    return save_owed([_owed_email(*owed) for owed in wanted if mailed(owed[0], owed[1].index)])


def save_owed(emails: list) -> list:
    """Write owed emails (unsaved rows) to the outbox: rows only, rendered when
    sent (outbox.deliver), so that a move or a deadline commits quickly. A cause
    that has its email already gets no second one. Returns the rows written."""
    created = bulk.insert_new(list({email.key: email for email in emails}.values()), "key")
    if created:
        send_once_committed([email.pk for email in created])
    return created
