"""The table talk's forms on a seat page: say something, report a message, mark
what was read, show or hide the game's own lines among the talk. All are POSTs
(CSRF-checked) to the seat's own link; a message said is followed by
Post/Redirect/Get, a refused one shows the page again with what was typed (400,
or 429 when the seat posts too fast) and saves nothing."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.core import links, talk
from games.core.game_writes import ServiceError
from games.present import talk as talk_panel
from games.present.page_language import in_language
from games.web import views
from games.words import i18n

MAX_SENT = 4 * talk.MAX_TEXT  # what a refused form shows again, at most
REFUSED_STATUS = {"too_fast": 429}
# A talk form's result is said in the talk panel (this tag), where the player lands.
RESULT = "talk"


def _seat(request, token: str):
    """The seat of a talk form's link, or (None, the refused link's page)."""
    try:
        seat, _seats = links.resolve_at_table(token)
    except links.LinkError as error:
        context = {"title": error.title, "message": error.message}
        return None, in_language(request, "link_error.html", context, error.status)
    return seat, None


def _talk_panel(token: str) -> str:
    """Back to the table at its talk panel, which the browser focuses (the fragment
    names it) and which says what the form did."""
    return redirect("games:seat", token=token).url + "#talk"


@never_cache
@require_POST
def say(request, token: str):
    seat, refused = _seat(request, token)
    if seat is None:
        return refused
    with i18n.as_seat(seat):
        raw = request.POST.get("text", "")
        chosen = {name: request.POST.get(name, "") for name in ("to", "about")}
        try:
            to_index = talk.read_target(chosen["to"])
            seen = request.POST.get("seen", "")  # who answers has read what they answer
            message = talk.post(seat, raw, timezone.now(), to_index, chosen["about"], seen)
        except ServiceError as error:
            messages.error(request, error.message)
            status = REFUSED_STATUS.get(error.code, 400)
            sent = raw[:MAX_SENT] if not any("\ud800" <= c <= "\udfff" for c in raw) else ""
            response = views.show_again(
                request, seat, sent.replace("\x00", ""), status, talk_panel.kept(chosen)
            )
            if isinstance(error, talk.TooFast):
                response["Retry-After"] = str(error.retry_after)
            return response
        messages.success(request, talk_panel.posted(message), extra_tags=RESULT)
    return redirect(_talk_panel(token))


@never_cache
@require_POST
def report(request, token: str, ref: str):
    seat, refused = _seat(request, token)
    if seat is None:
        return refused
    with i18n.as_seat(seat):
        message = talk.message_by_ref(seat, ref)
        try:
            if message is None:
                raise ServiceError("no_message", _("There is no such message at this table."))
            new = talk.report(message, seat, timezone.now())
        except ServiceError as error:
            messages.error(request, error.message, extra_tags=RESULT)
            return redirect(_talk_panel(token))
        if new:
            thanks = _("Thank you: the organizer will look at this message.")
            messages.success(request, thanks, extra_tags=RESULT)
        else:
            messages.info(request, _("You already reported this message."), extra_tags=RESULT)
    return redirect(_talk_panel(token))


@never_cache
@require_POST
def read(request, token: str):
    """The page was read up to the message ``upto`` (its ref): its script posts this when the
    panel is seen (answered 204), or the player presses "Mark as read"."""
    seat, refused = _seat(request, token)
    if seat is None:
        return refused
    talk.mark_read(seat, request.POST.get("upto", ""))
    if request.POST.get("quiet"):
        return HttpResponse(status=204)
    return redirect(_talk_panel(token))


@never_cache
@require_POST
def system_lines(request, token: str):
    """Show or hide the game's own lines among the talk, for this seat."""
    seat, refused = _seat(request, token)
    if seat is None:
        return refused
    talk.show_system_lines(seat, request.POST.get("shown") == "1")
    return redirect(_talk_panel(token))
