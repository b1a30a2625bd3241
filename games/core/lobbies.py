"""A game gathered by its organizer before it starts: the table's settings, the
invitations (by email, or taken through the join link and confirmed by email),
and the start, which creates the Game with every seat taken.

Every write locks the lobby's row first, so two people accepting the last seat at
once cannot both have it. Invitation emails are outbox rows owed in the same
transaction; none is owed twice for one cause (its key), none to an address that
asked never to be invited, and each organizer's are paced, the join link's included.

The join link takes a seat only once the asker confirms from their own mailbox
(so nobody holds seats with others' addresses); until then their request keeps a
seat for them for JOIN_CONFIRM_MINUTES, and the requests kept never outnumber the
free seats. Its asking is paced per client and address (with the sign-ins) and per
lobby, and answers alike whatever the address.

An invitation's link answers once: after accept or decline, the start or a
withdrawal it only says so (games.web.lobbies shows it).
"""

import secrets
from datetime import time, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import LEVELS
from games.bots.names import bot_names
from games.core import game_setup, notifications, sign_in
from games.core.game_setup import PlayerSpec
from games.models import Invitation, Lobby, OutboxEmail, Person, SignIn

MIN_PLAYERS, MAX_PLAYERS = 3, 6
# The same game set up again this soon is the same form sent twice.
DOUBLE_TAP = timedelta(minutes=2)
# The seats an invitation holds or may come to hold.
LIVE = (Invitation.Status.INVITED, Invitation.Status.ACCEPTED)


class LobbyError(ValueError):
    """Why a lobby's write was refused, in words for the person who asked."""


def _now(now):
    return now or timezone.now()


def locked(lobby_id: int) -> Lobby:
    return Lobby.objects.select_for_update().get(pk=lobby_id)


def taken(lobby: Lobby) -> int:
    return lobby.invitations.filter(status=Invitation.Status.ACCEPTED).count()


def is_full(lobby: Lobby) -> bool:
    return taken(lobby) >= lobby.players


def _live(lobby: Lobby):
    return lobby.invitations.filter(status__in=LIVE)


def promised(lobby: Lobby, now=None, besides: Invitation | None = None) -> int:
    """The seats taken or promised: accepted, invited by the organizer, or asked for
    through the join link and waiting (for JOIN_CONFIRM_MINUTES) to be confirmed;
    ``besides``'s own not counted."""
    lapsed = _now(now) - timedelta(minutes=settings.JOIN_CONFIRM_MINUTES)
    waiting_long = Q(via=Invitation.Via.LINK, status=Invitation.Status.INVITED) & (
        Q(last_sent_at__lt=lapsed) | Q(last_sent_at__isnull=True)
    )
    live = _live(lobby).exclude(waiting_long)
    return (live.exclude(pk=besides.pk) if besides else live).count()


def _open(lobby: Lobby) -> None:
    if lobby.status == Lobby.Status.STARTED:
        raise LobbyError(_("This game has started already."))
    if lobby.status != Lobby.Status.OPEN:
        raise LobbyError(_("This game was cancelled by its organizer."))


def opted_out(email: str) -> bool:
    return Person.objects.filter(email=email, no_invitations_at__isnull=False).exists()


def _emails_since(invitations, since) -> int:
    """The invitation emails owed to ``invitations`` since ``since``: one outbox row
    each, a "send again" and a join link's confirmation included."""
    ids = list(invitations.filter(last_sent_at__gte=since).values_list("pk", flat=True))
    return OutboxEmail.objects.filter(
        kind=notifications.INVITATION, params__invitation__in=ids, created_at__gte=since
    ).count()


def _paced(lobby: Lobby, now) -> bool:
    """The organizer's invitation emails of the last day, over all their lobbies."""
    theirs = Invitation.objects.filter(lobby__organizer_email=lobby.organizer_email)
    return (
        _emails_since(theirs, now - timedelta(days=1)) >= settings.INVITATIONS_PER_ORGANIZER_DAILY
    )


def _join_paced(lobby: Lobby, now) -> bool:
    """The join link's emails of the last hour, for this lobby."""
    asked = lobby.invitations.filter(via=Invitation.Via.LINK)
    return _emails_since(asked, now - timedelta(hours=1)) >= settings.JOIN_EMAILS_PER_LOBBY_HOURLY


def open_lobby(
    *,
    organizer_email: str,
    organizer_name: str,
    organizer_language: str,
    name: str,
    players: int,
    config: dict,
    timing: dict,
    random_order: bool = True,
    start_at=None,
    organizer_plays: bool = True,
    organizer_timezone: str = "UTC",
    invitees: list[PlayerSpec] = (),
    now=None,
) -> Lobby:
    """A new lobby, the organizer's own seat taken if they play, and an invitation
    owed to each invitee. ``timing`` holds the Game's deadline settings."""
    now = _now(now)
    organizer_email = organizer_email.lower()
    seats = int(players)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise LobbyError(_("A game has 3 to 6 players."))
    with transaction.atomic():
        # One organizer's set-ups one at a time: a double tap finds the first one.
        Person.objects.get_or_create(email=organizer_email)
        person = Person.objects.select_for_update().get(email=organizer_email)
        recent = Lobby.objects.filter(
            organizer_email=organizer_email, created_at__gte=now - timedelta(days=1)
        )
        twin = recent.filter(
            name=name.strip(), status=Lobby.Status.OPEN, created_at__gte=now - DOUBLE_TAP
        ).first()
        if twin is not None:
            return twin
        if recent.count() >= settings.LOBBIES_PER_ORGANIZER_DAILY:
            raise LobbyError(_("You have set up many games today: try again tomorrow."))
        lobby = Lobby.objects.create(
            name=game_setup.game_name(name),
            organizer_email=organizer_email,
            organizer_name=game_setup.player_name(organizer_name),
            organizer_language=organizer_language,
            config=config,
            timing=_storable(timing),
            players=seats,
            random_order=random_order,
            start_at=start_at,
            join_token=secrets.token_urlsafe(18),
            created_at=now,
        )
        if organizer_plays:
            Invitation.objects.create(
                lobby=lobby,
                email=organizer_email,
                name=lobby.organizer_name,
                via=Invitation.Via.ORGANIZER,
                status=Invitation.Status.ACCEPTED,
                language=organizer_language,
                timezone=person.timezone or organizer_timezone,  # their own zone, if chosen
                answered_at=now,
                created_at=now,
            )
        lobby = locked(lobby.pk)
        for invitee in invitees:
            _invite(lobby, invitee.name, invitee.email, now)
    return lobby


def _storable(timing: dict) -> dict:
    """The deadline settings as JSON holds them: a time of day as "HH:MM"."""
    return {k: v.strftime("%H:%M") if isinstance(v, time) else v for k, v in timing.items()}


def game_timing(lobby: Lobby) -> dict:
    """The deadline settings as the Game takes them."""
    timing = dict(lobby.timing)
    if timing.get("daily_time"):
        timing["daily_time"] = time.fromisoformat(timing["daily_time"])
    return timing


def invite(lobby_id: int, name: str, email: str, now=None) -> Invitation:
    """The organizer invites someone by email (a seat must be free for them)."""
    now = _now(now)
    with transaction.atomic():
        lobby = locked(lobby_id)
        return _invite(lobby, name, email, now)


def _invite(lobby: Lobby, name: str, email: str, now) -> Invitation:
    _open(lobby)
    name = game_setup.player_name(name)
    email = game_setup.email_address(email).lower()
    if _live(lobby).filter(email=email).exists():
        raise LobbyError(_("%(address)s is invited already.") % {"address": email})
    if promised(lobby, now) >= lobby.players:
        raise LobbyError(
            _("Every seat is taken or promised: remove someone before inviting another.")
        )
    if opted_out(email):
        raise LobbyError(
            _("%(address)s asked not to receive invitations from this site.") % {"address": email}
        )
    if _paced(lobby, now):
        raise LobbyError(_("You have sent many invitations today: try again tomorrow."))
    invitation = Invitation.objects.create(
        lobby=lobby,
        email=email,
        name=name,
        via=Invitation.Via.EMAIL,
        language=lobby.organizer_language,
        position=_next_position(lobby),
        created_at=now,
    )
    _owe_invitation(invitation, now)
    return invitation


def add_bot(lobby_id: int, level: str, now=None) -> Invitation:
    """The organizer puts a bot of ``level`` in a free seat: it is in at once, under a
    name marked as a bot's (games.bots.names). Removed, the seat is free again."""
    now = _now(now)
    if level not in LEVELS:
        raise LobbyError(_("There is no such bot: choose one of the list."))
    with transaction.atomic():
        lobby = locked(lobby_id)
        _open(lobby)
        if promised(lobby, now) >= lobby.players:
            raise LobbyError(
                _("Every seat is taken or promised: remove someone before adding a bot.")
            )
        names = _live(lobby).values_list("name", flat=True)
        invitation = Invitation.objects.create(
            lobby=lobby,
            email="",
            name=bot_names(names, 1, secrets.SystemRandom())[0],
            via=Invitation.Via.BOT,
            bot=level,
            status=Invitation.Status.ACCEPTED,
            answered_at=now,
            language=lobby.organizer_language,
            position=_next_position(lobby),
            created_at=now,
        )
        if is_full(lobby) and lobby.start_at is not None and lobby.start_at <= now:
            _start(lobby, now)
    return invitation


def _next_position(lobby: Lobby) -> int:
    last = lobby.invitations.order_by("-position").values_list("position", flat=True).first()
    return 0 if last is None else last + 1


def _owe_invitation(invitation: Invitation, now) -> None:
    invitation.sends += 1
    invitation.last_sent_at = now
    invitation.save(update_fields=["sends", "last_sent_at"])
    notifications.record_invitation(invitation)


def resend(invitation_id: int, now=None) -> Invitation:
    """The invitation's email once more (at most once per INVITATION_RESEND_MINUTES)."""
    now = _now(now)
    with transaction.atomic():
        invitation = Invitation.objects.select_related("lobby").get(pk=invitation_id)
        lobby = locked(invitation.lobby_id)
        invitation.refresh_from_db()
        _open(lobby)
        if invitation.status != Invitation.Status.INVITED:
            raise LobbyError(_("Only an invitation not yet answered can be sent again."))
        wait = timedelta(minutes=settings.INVITATION_RESEND_MINUTES)
        if invitation.last_sent_at and invitation.last_sent_at > now - wait:
            raise LobbyError(
                _("The invitation was sent less than %(minutes)d minutes ago.")
                % {"minutes": settings.INVITATION_RESEND_MINUTES}
            )
        if opted_out(invitation.email) or _paced(lobby, now):
            raise LobbyError(_("This invitation cannot be sent again now."))
        _owe_invitation(invitation, now)
    return invitation


def remove(invitation_id: int, now=None) -> Invitation:
    """The organizer takes an invitation back (a seat taken is freed)."""
    with transaction.atomic():
        invitation = Invitation.objects.get(pk=invitation_id)
        lobby = locked(invitation.lobby_id)
        _open(lobby)
        if invitation.via == Invitation.Via.ORGANIZER:
            raise LobbyError(_("That is your own seat: to watch instead, cancel and set up again."))
        Invitation.objects.filter(pk=invitation.pk).update(
            status=Invitation.Status.REMOVED, answered_at=_now(now)
        )
    invitation.refresh_from_db()
    return invitation


def fill(invitation_id: int, name: str, email: str, now=None) -> Invitation:
    """Someone else invited in an invitation's place, in one step."""
    now = _now(now)
    with transaction.atomic():
        old = Invitation.objects.get(pk=invitation_id)
        lobby = locked(old.lobby_id)
        _open(lobby)
        if old.via == Invitation.Via.ORGANIZER:
            raise LobbyError(_("That is your own seat."))
        Invitation.objects.filter(pk=old.pk).update(
            status=Invitation.Status.REMOVED, answered_at=now
        )
        new = _invite(lobby, name, email, now)
        Invitation.objects.filter(pk=new.pk).update(position=old.position)
    return new


def join_by_link(
    lobby: Lobby,
    name: str,
    email: str,
    language: str,
    timezone_name: str,
    client: str,
    now=None,
) -> Invitation | None:
    """Someone with the join link asks for a seat: a request of their own, which
    they confirm from their email (so nobody joins in another's name). Asking again
    sends the email again, within the resend pacing. Refused (LobbyError) only for
    what is the same for every address: the link closed, no seat free, the lobby's
    or the organizer's pace. None when no email is owed (the asker or the address
    paced, an address that wants no invitations): the page says the same then."""
    now = _now(now)
    with transaction.atomic():
        lobby = _joinable(lobby, now)
        name = game_setup.player_name(name)
        email = game_setup.email_address(email).lower()
        if _join_paced(lobby, now) or _paced(lobby, now):
            raise LobbyError(_("Many seats were asked for here lately: try again later."))
        if sign_in.take_ask(email, client, now, SignIn.Purpose.JOIN, used_at=now) is None:
            return None
        existing = _live(lobby).filter(email=email).first()
        if existing is not None:
            wait = timedelta(minutes=settings.INVITATION_RESEND_MINUTES)
            if existing.status == Invitation.Status.INVITED and (
                existing.last_sent_at is None or existing.last_sent_at <= now - wait
            ):
                _owe_invitation(existing, now)
            return existing
        if opted_out(email):  # they asked for no invitations: the same answer, no email
            return None
        invitation = _new_request(lobby, name, email, language, timezone_name, now)
        _owe_invitation(invitation, now)
    return invitation


def join_signed_in(
    lobby: Lobby, name: str, email: str, language: str, timezone_name: str, now=None
) -> Invitation:
    """Someone signed in takes a seat through the join link at once: their sign-in
    proved the address, so no email is needed. Their invitation, if they had one,
    is the seat they take."""
    now = _now(now)
    with transaction.atomic():
        lobby = locked(lobby.pk)
        mine = _live(lobby).filter(email=email).first()
        if mine is not None and mine.status == Invitation.Status.ACCEPTED:
            raise LobbyError(_("You have a seat at this table already."))
        if mine is None:
            _check_joinable(lobby, now)
            mine = _new_request(
                lobby, game_setup.player_name(name), email, language, timezone_name, now
            )
        return accept(mine.pk, name=name, timezone_name=timezone_name, language=language, now=now)


def _joinable(lobby: Lobby, now) -> Lobby:
    """The lobby, locked, if its join link may take one more request."""
    lobby = locked(lobby.pk)
    _check_joinable(lobby, now)
    return lobby


def _check_joinable(lobby: Lobby, now) -> None:
    _open(lobby)
    if not lobby.join_open:
        raise LobbyError(_("The organizer has closed this join link."))
    if promised(lobby, now) >= lobby.players:
        raise LobbyError(_("Every seat is taken or promised: try again later."))


def _new_request(lobby, name, email, language, timezone_name, now) -> Invitation:
    return Invitation.objects.create(
        lobby=lobby,
        email=email,
        name=name,
        via=Invitation.Via.LINK,
        language=language,
        timezone=timezone_name,
        position=_next_position(lobby),
        created_at=now,
    )


def by_token(token: str) -> Invitation | None:
    if not isinstance(token, str) or len(token) > 64:
        return None
    return Invitation.objects.select_related("lobby").filter(token=token).first()


def accept(
    invitation_id: int, *, name: str, timezone_name: str, language: str, now=None
) -> Invitation:
    """The invitee takes a seat, under the name they chose (distinct from the
    others' at the table). The organizer is told once the table is full; a table
    with a start time already passed starts at once."""
    now = _now(now)
    with transaction.atomic():
        invitation = Invitation.objects.get(pk=invitation_id)
        lobby = locked(invitation.lobby_id)
        invitation.refresh_from_db()
        if invitation.status == Invitation.Status.ACCEPTED:  # a link answers once
            raise LobbyError(_("This invitation was answered already."))
        _open(lobby)
        if invitation.status != Invitation.Status.INVITED:
            raise LobbyError(_("This invitation was withdrawn or declined."))
        if is_full(lobby) or (
            # A join request takes a free seat, never one promised to someone else.
            invitation.via == Invitation.Via.LINK
            and promised(lobby, now, besides=invitation) >= lobby.players
        ):
            raise LobbyError(_("Every seat is taken."))
        name = game_setup.player_name(name)
        others = lobby.invitations.filter(status=Invitation.Status.ACCEPTED)
        game_setup.distinct_names([*others.values_list("name", flat=True), name])
        Invitation.objects.filter(pk=invitation.pk).update(
            status=Invitation.Status.ACCEPTED,
            name=name,
            timezone=timezone_name,
            language=language,
            answered_at=now,
        )
        if is_full(lobby):
            if lobby.start_at is not None and lobby.start_at <= now:
                _start(lobby, now)
            else:
                notifications.record_table_full(lobby)
    invitation.refresh_from_db()
    return invitation


def decline(invitation_id: int, now=None) -> Invitation:
    with transaction.atomic():
        invitation = Invitation.objects.get(pk=invitation_id)
        locked(invitation.lobby_id)
        invitation.refresh_from_db()
        if invitation.status == Invitation.Status.INVITED:
            Invitation.objects.filter(pk=invitation.pk).update(
                status=Invitation.Status.DECLINED, answered_at=_now(now)
            )
    invitation.refresh_from_db()
    return invitation


def never_invite(email: str, now=None) -> None:
    """ "Never invite me again": no invitation email to this address from now on;
    those waiting for an answer are declined."""
    now = _now(now)
    email = email.lower()
    with transaction.atomic():
        person, _created = Person.objects.get_or_create(email=email)
        if person.no_invitations_at is None:
            Person.objects.filter(pk=person.pk).update(no_invitations_at=now)
        Invitation.objects.filter(email=email, status=Invitation.Status.INVITED).update(
            status=Invitation.Status.DECLINED, answered_at=now
        )


def set_join_link(lobby_id: int, is_open: bool) -> Lobby:
    with transaction.atomic():
        lobby = locked(lobby_id)
        _open(lobby)
        Lobby.objects.filter(pk=lobby.pk).update(join_open=is_open)
    lobby.refresh_from_db()
    return lobby


def start(lobby_id: int, now=None):
    """The organizer presses Start: the game begins with the seats taken."""
    now = _now(now)
    with transaction.atomic():
        lobby = locked(lobby_id)
        _open(lobby)
        if not is_full(lobby):
            raise LobbyError(
                _("%(taken)d of %(seats)d seats are taken: the game starts when all are.")
                % {"taken": taken(lobby), "seats": lobby.players}
            )
        return _start(lobby, now)


def _start(lobby: Lobby, now):
    seated = list(lobby.invitations.filter(status=Invitation.Status.ACCEPTED))
    if lobby.random_order:
        secrets.SystemRandom().shuffle(seated)
    players = [
        PlayerSpec(name=i.name, email=i.email, timezone=i.timezone, language=i.language, bot=i.bot)
        for i in seated
    ]
    game = game_setup.create_game(
        name=lobby.name,
        players=players,
        config=lobby.config,
        organizer_email=lobby.organizer_email,
        timing=game_timing(lobby),
        now=now,
    )
    Lobby.objects.filter(pk=lobby.pk).update(status=Lobby.Status.STARTED, game=game, started_at=now)
    # Invitations never answered are answered by the start.
    lobby.invitations.filter(status=Invitation.Status.INVITED).update(
        status=Invitation.Status.DECLINED, answered_at=now
    )
    return game


def cancel(lobby_id: int, now=None) -> Lobby:
    with transaction.atomic():
        lobby = locked(lobby_id)
        _open(lobby)
        Lobby.objects.filter(pk=lobby.pk).update(status=Lobby.Status.CANCELLED)
    lobby.refresh_from_db()
    return lobby


def start_due(now=None) -> list:
    """The full tables whose start time has come (the beat's sweep): the games started."""
    now = _now(now)
    started = []
    due = Lobby.objects.filter(status=Lobby.Status.OPEN, start_at__lte=now).values_list(
        "pk", flat=True
    )
    for pk in due:
        try:
            started.append(start(pk, now))
        except LobbyError:
            continue  # not full yet: it starts when the last seat is taken
    return started


def of_organizer(email: str):
    return Lobby.objects.filter(organizer_email=email.lower())


def waiting_for(email: str):
    """The invitations awaiting this person's answer."""
    return Invitation.objects.filter(
        Q(email=email.lower()), status=Invitation.Status.INVITED, lobby__status=Lobby.Status.OPEN
    ).select_related("lobby")
