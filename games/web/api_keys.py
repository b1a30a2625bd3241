"""A seat's API tokens, on its settings page: make one (shown once, on the page the
POST answers with, never kept in a cookie or a redirect) or revoke one. POSTs with
CSRF behind the seat's signed link, like every other change there."""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.core import api_tokens
from games.core.game_writes import ServiceError
from games.web.seat_settings import page, seat_or_error
from games.web.views import _private
from games.words import i18n
from games.words.typed_text import whole_number
from games.words.user_text import one_line

MAX_LABEL = 40


@never_cache
@require_POST
def tokens(request, token: str):
    seat, refused = seat_or_error(request, token)
    if refused:
        return _private(refused)
    back = reverse("games:settings", args=[token])  # the message shows at the top
    with i18n.as_seat(seat):
        if request.POST.get("action") == "revoke":
            token_id = whole_number(request.POST.get("token", ""), 12)
            if token_id is not None and api_tokens.revoke(seat, token_id):
                messages.success(request, _("The token is revoked: it no longer works."))
            else:
                messages.error(
                    request, _("That token is not one of this seat's, or is revoked already.")
                )
            return _private(redirect(back))
        label = " ".join(request.POST.get("label", "").split())[:MAX_LABEL]
        try:
            raw = api_tokens.mint(seat, one_line(label))
        except ServiceError:
            messages.error(
                request,
                _("This seat has %(count)s tokens already: revoke one before making another.")
                % {"count": api_tokens.MAX_LIVE},
            )
            return _private(redirect(back))
        response = page(request, seat, token, minted=raw)
        response["Cache-Control"] = "no-store"
        return _private(response)
