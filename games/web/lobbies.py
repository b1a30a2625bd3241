"""A game gathered before it starts, on the site: the organizer's new-game form and
the table's page (invite, remove, send again, put someone else in a seat, the join
link, Start, cancel), an invitation's page (accept or decline), the join link's
page and "never invite me again". GET only shows; every change is a POST."""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from games.core import lobbies, people, sign_in
from games.models import Invitation, Lobby
from games.present import bot_levels, pace
from games.present.clock import ZONES
from games.present.page_language import browser_language, in_browser_language, in_language
from games.web import sign_in as sign_in_pages
from games.web.invitation_forms import AcceptForm, InviteForm, JoinForm
from games.web.new_game import NewTableForm
from games.web.views import _private
from sheriff_pbem.security import client_ip

LOBBY_ACTIONS = (
    *("invite", "remove", "resend", "fill", "add_bot", "start", "cancel"),
    *("close_link", "open_link"),
)


def signed_in_address(request) -> str | None:
    """The signed-in person's address, in lower case (None: nobody is signed in)."""
    user = request.user
    return user.email.lower() if user.is_authenticated and user.email else None


def to_sign_in(request):
    """To the sign-in page, and back here after it."""
    back = urlencode({"next": request.get_full_path()}, safe="/")
    return redirect(f"{reverse('games:sign-in')}?{back}")


def render_private(request, template: str, context: dict, status: int = 200, language=None):
    """A page in the reader's language, kept out of indexes (views._private)."""
    return _private(in_language(request, template, context, status=status, language=language))


def facts(lobby: Lobby) -> dict:
    """What every page of a lobby tells of the table (nothing chosen later)."""
    seated = lobby.invitations.filter(status=Invitation.Status.ACCEPTED)
    return {
        "lobby": lobby,
        "pace": pace.summary(lobby.timing, lobby.config.get("edition", 2)),
        "seated": list(seated.values_list("name", flat=True)),
        "taken": seated.count(),
    }


@never_cache
@require_http_methods(["GET", "POST"])
@in_browser_language
def new_game(request):
    email = signed_in_address(request)
    if email is None:
        return to_sign_in(request)
    person = people.person(email)  # their own zone, if they chose one: the deadlines' first
    zone = {"deadline_timezone": person.timezone} if person and person.timezone else {}
    initial = {"my_name": email.split("@", 1)[0], **zone}
    form = NewTableForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            lobby = lobbies.open_lobby(
                organizer_email=email,
                organizer_name=data["my_name"],
                organizer_language=browser_language(request),
                name=data["name"],
                players=data["players"],
                config=data["config"],
                timing=form.timing(),
                random_order=data["random_order"],
                start_at=data["start_at"],
                organizer_plays=data["i_play"],
                organizer_timezone=form.organizer_timezone(),
                invitees=data["invitees"],
            )
        except ValueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your game is set up. Invite the players, then start it."))
            return redirect("games:lobby", lobby.pk)
    context = {
        "form": form,
        "zones": ZONES,
        "pace": _pace_words(form),
        "pace_url": reverse("games:pace-preview"),
    }
    return render_private(request, "new_game.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET"])
@in_browser_language
def pace_preview(request):
    """The pace in words for the form's settings as they are now (the form's script
    asks as they change). Reads only; unreadable settings say nothing."""
    return HttpResponse(
        _pace_words(NewTableForm(request.GET)), content_type="text/plain; charset=utf-8"
    )


def _pace_words(form: NewTableForm) -> str:
    """The pace in words of the settings the form shows ("" if unreadable)."""
    timing = form.pace_timing()
    if not timing:
        return ""
    edition = form.cleaned_data.get("edition") if form.is_bound else None
    return pace.summary(timing, edition or 2)


def _own_lobby(request, pk: int) -> Lobby | None:
    email = signed_in_address(request)
    return Lobby.objects.filter(pk=pk, organizer_email=email).first() if email else None


def _not_found(request):
    context = {
        "title": _("No such game"),
        "message": _(
            "There is no game of yours at this address. Are you signed in with "
            "the address you set it up with?"
        ),
    }
    return render_private(request, "link_error.html", context, status=404)


def _game_page(lobby: Lobby) -> str:
    try:
        return reverse("games:organize", args=[lobby.game_id])
    except NoReverseMatch:
        return reverse("games:home")


@never_cache
@require_http_methods(["GET", "HEAD"])
@in_browser_language
def lobby_page(request, pk: int):
    if signed_in_address(request) is None:
        return to_sign_in(request)
    lobby = _own_lobby(request, pk)
    if lobby is None:
        return _not_found(request)
    if lobby.status == Lobby.Status.STARTED and lobby.game_id:
        return redirect(_game_page(lobby))
    shown = lobby.invitations.exclude(status=Invitation.Status.REMOVED)
    context = {
        **facts(lobby),
        "invitations": list(shown),
        "invite_form": InviteForm(),
        "bot_levels": bot_levels.CHOICES,
        "bot_level_words": bot_levels.short,
        "action_url": reverse("games:lobby-action", args=[lobby.pk]),
        "join_url": settings.SITE_URL + reverse("games:join", args=[lobby.join_token]),
        "open": lobby.status == Lobby.Status.OPEN,
        "full": lobbies.is_full(lobby),
        "live": lobbies.promised(lobby),
        "start_at": _moment(lobby.start_at, lobby.timing.get("deadline_timezone")),
    }
    return render_private(request, "lobby.html", context)


def _moment(when, zone: str | None) -> str:
    if when is None:
        return ""
    from zoneinfo import ZoneInfo

    local = when.astimezone(ZoneInfo(zone or "UTC"))
    return f"{local:%Y-%m-%d %H:%M} {pace.zone_name(zone)}"


@require_POST
@in_browser_language
def lobby_action(request, pk: int):
    if signed_in_address(request) is None:
        return to_sign_in(request)
    lobby = _own_lobby(request, pk)
    if lobby is None:
        return _not_found(request)
    action = request.POST.get("action", "")
    back = redirect("games:lobby", lobby.pk)
    if action not in LOBBY_ACTIONS:
        messages.error(request, _("Unknown action; nothing was done."))
        return back
    try:
        done = _act(request, lobby, action)
    except (ValueError, Invitation.DoesNotExist) as error:
        message = str(error) if isinstance(error, ValueError) else _("No such invitation.")
        messages.error(request, _("%(why)s Nothing was done.") % {"why": message})
        return back
    if done:
        messages.success(request, done)
    if action == "start":
        return redirect(_game_page(Lobby.objects.get(pk=lobby.pk)))
    return back


def _invitation_of(lobby: Lobby, request) -> Invitation:
    raw = request.POST.get("invitation", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 12):
        raise Invitation.DoesNotExist
    return lobby.invitations.get(pk=int(raw))


def _act(request, lobby: Lobby, action: str) -> str:
    if action in ("invite", "fill"):
        form = InviteForm(request.POST)
        if not form.is_valid():
            raise ValueError(form.first_error())
        invitee = form.cleaned_data["invitee"]
        if action == "fill":
            old = _invitation_of(lobby, request)
            lobbies.fill(old.pk, invitee.name, invitee.email)
        else:
            lobbies.invite(lobby.pk, invitee.name, invitee.email)
        return _("%(name)s is invited: an email is on its way.") % {"name": invitee.name}
    if action == "add_bot":
        invitation = lobbies.add_bot(lobby.pk, request.POST.get("level", ""))
        return _("%(name)s takes a seat.") % {"name": invitation.name}
    if action == "remove":
        invitation = lobbies.remove(_invitation_of(lobby, request).pk)
        return _("%(name)s's invitation is withdrawn.") % {"name": invitation.name}
    if action == "resend":
        invitation = lobbies.resend(_invitation_of(lobby, request).pk)
        return _("%(name)s's invitation was sent again.") % {"name": invitation.name}
    if action == "start":
        lobbies.start(lobby.pk)
        return _("The game has started: every player gets their first email.")
    if action == "cancel":
        if not request.POST.get("confirm"):
            raise ValueError(_("Tick the box to confirm cancelling."))
        lobbies.cancel(lobby.pk)
        return _("The game is cancelled.")
    lobbies.set_join_link(lobby.pk, action == "open_link")
    if action == "open_link":
        return _("The join link works again.")
    return _("The join link is closed: it now says so to anyone who opens it.")


# -- the invitee's pages -------------------------------------------------------------


def _invitation_language(request, invitation: Invitation) -> str:
    """The organizer's language (the invitation's) until the invitee chooses theirs."""
    return invitation.language or browser_language(request)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@in_browser_language
def invitation_page(request, token: str):
    """An invitation's link answers once: accept (which signs the invitee in: the
    email proved the address) or decline. Answered, withdrawn or past the start,
    it only says so, with a way to sign in; never a seat's link, so that whoever
    holds a forwarded email gets nothing of the invitee's."""
    invitation = lobbies.by_token(token)
    if invitation is None:
        return _gone(request, _("This invitation link is not one of ours."), None, 404)
    language = _invitation_language(request, invitation)
    with translation.override(language):
        posted = request.POST if request.method == "POST" else None
        form = AcceptForm(
            posted,
            initial={
                "name": invitation.name,
                "timezone": invitation.timezone,
                "language": language,
            },
        )
        if posted is not None and _state(invitation) == "open":
            return _answer(request, invitation, form)
        return _show_invitation(request, invitation, form, language)


def _state(invitation: Invitation) -> str:
    """Where the invitation stands, as its page tells it: "open" (it may be
    answered), "accepted", "declined", "withdrawn", "started", "cancelled", "full"."""
    lobby = invitation.lobby
    if lobby.status == Lobby.Status.STARTED:
        return "started"
    if lobby.status != Lobby.Status.OPEN:
        return "cancelled"
    if invitation.status != Invitation.Status.INVITED:
        return {"accepted": "accepted", "declined": "declined"}.get(invitation.status, "withdrawn")
    return "full" if lobbies.is_full(lobby) else "open"


def _show_invitation(request, invitation, form, language, status=200):
    state = _state(invitation)
    context = {
        **facts(invitation.lobby),
        "invitation": invitation,
        "state": state,
        "form": form,
        "zones": ZONES,
        "signed_in": signed_in_address(request) is not None,
        "sign_in_url": reverse("games:sign-in")
        + "?"
        + urlencode({"next": reverse("games:my-games")}, safe="/"),
        "my_games_url": reverse("games:my-games"),
    }
    if state not in ("open", "accepted", "declined"):
        status = 410
    return render_private(request, "invitation.html", context, status=status, language=language)


def _answer(request, invitation: Invitation, form: AcceptForm):
    answer = request.POST.get("answer")
    if answer == "decline":
        lobbies.decline(invitation.pk)
        messages.success(request, _("You declined. Thank you for saying so."))
        return redirect("games:invitation", invitation.token)
    language = _invitation_language(request, invitation)
    if answer != "accept":
        form.add_error(None, _("Press Accept or Decline."))
        return _show_invitation(request, invitation, form, language, status=400)
    if invitation.via == Invitation.Via.LINK:  # chosen on the join page already
        data = {f: getattr(invitation, f) for f in ("name", "timezone", "language")}
    elif form.is_valid():
        data = form.cleaned_data
    else:
        return _show_invitation(request, invitation, form, language, status=400)
    try:
        lobbies.accept(
            invitation.pk,
            name=data["name"],
            timezone_name=data["timezone"],
            language=data["language"],
        )
    except ValueError as error:
        messages.error(request, str(error))
        return redirect("games:invitation", invitation.token)
    # The email proved the address: the invitee is signed in, unless someone is.
    # Only here, by the one answer that accepted: the link never signs in again.
    if not request.user.is_authenticated:
        sign_in_pages.sign_in_as(request, invitation.email)
    messages.success(request, _("You are in. Your first email comes when the game starts."))
    return redirect("games:invitation", invitation.token)


def _gone(request, why: str, lobby: Lobby | None, status: int = 410):
    context = {"why": why, "lobby": lobby, "home_url": reverse("games:home")}
    return render_private(request, "join_gone.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@in_browser_language
def join_page(request, token: str):
    lobby = Lobby.objects.filter(join_token=token).first() if len(token) <= 64 else None
    if lobby is None:
        return _gone(request, _("This join link is not one of ours."), None, 404)
    refusal = _join_refusal(lobby)
    if refusal:
        return _gone(request, refusal, lobby)
    email = signed_in_address(request)
    form = JoinForm(
        request.POST if request.method == "POST" else None,
        signed_in_as=email,
        initial={"email": email or "", "timezone": "UTC"},
    )
    if request.method == "POST" and form.is_valid():
        return _join(request, lobby, form, email)
    context = {**facts(lobby), "form": form, "zones": ZONES, "signed_in_as": email}
    return render_private(request, "join.html", context, status=400 if form.errors else 200)


def _join_refusal(lobby: Lobby) -> str:
    if lobby.status == Lobby.Status.CANCELLED:
        return _("This game was cancelled by its organizer.")
    if lobby.status == Lobby.Status.STARTED:
        return _("This game has started: every seat was taken.")
    if not lobby.join_open:
        return _("The organizer has closed this join link.")
    if lobbies.is_full(lobby):
        return _("Every seat is taken.")
    return ""


def _join(request, lobby: Lobby, form: JoinForm, signed_in_as: str | None):
    """A seat asked for: at once for someone signed in as the address given, else
    by an email to confirm it. The answer is the same whether or not an email went."""
    data = form.cleaned_data
    language = browser_language(request)
    try:
        if signed_in_as and data["email"] == signed_in_as:
            invitation = lobbies.join_signed_in(
                lobby, data["name"], signed_in_as, language, data["timezone"]
            )
            messages.success(request, _("You are in. Your first email comes when the game starts."))
            return redirect("games:invitation", invitation.token)
        client = sign_in.client_key(client_ip(request))
        lobbies.join_by_link(lobby, data["name"], data["email"], language, data["timezone"], client)
    except ValueError as error:
        form.add_error(None, str(error))
        context = {**facts(lobby), "form": form, "zones": ZONES, "signed_in_as": signed_in_as}
        return render_private(request, "join.html", context, status=400)
    context = {**facts(lobby), "address": data["email"]}
    return render_private(request, "join_sent.html", context)


@csrf_exempt  # RFC 8058's one-click POST comes from the mail app, with no token
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@in_browser_language
def never_invite(request, token: str):
    """GET: a page with one button (a scanner's GET changes nothing). POST: no
    invitation email to this address from now on."""
    invitation = lobbies.by_token(token)
    if invitation is None:
        return _gone(request, _("This link is not one of ours."), None, 404)
    language = _invitation_language(request, invitation)
    with translation.override(language):
        return _never_invite(request, invitation, language)


def _never_invite(request, invitation: Invitation, language: str):
    if request.method == "POST":
        lobbies.never_invite(invitation.email)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return _private(HttpResponse(_("Unsubscribed."), content_type="text/plain"))
        context = {"done": True, "address": invitation.email}
        return render_private(request, "never_invite.html", context, language=language)
    context = {"done": False, "address": invitation.email}
    return render_private(request, "never_invite.html", context, language=language)
