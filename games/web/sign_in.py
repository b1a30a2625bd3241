"""The sign-in pages: ask for an email (the same answer for any address), then
either the email's link (its page's button signs in: a mail scanner's GET uses
nothing up) or its code typed on this device. Signing out is a POST."""

from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import auth, messages
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.core import sign_in
from games.present.page_language import browser_language, in_browser_language, in_language
from sheriff_pbem.security import client_ip

ASKED = "sign_in_email"  # the session remembers the address asked for, for the code
NEXT = "sign_in_next"  # and the page to go back to once signed in (?next=), if any
MAX_NEXT = 500


NOT_AN_ADDRESS = gettext_lazy("Enter an email address, like ann@example.org.")
WRONG_CODE = gettext_lazy("That code does not work. Check the newest email, or ask again.")


def _one_message(message) -> dict:
    """Every way a field can be wrong (empty, too long, a NUL byte) says one thing."""
    return dict.fromkeys(("required", "max_length", "null_characters_not_allowed"), message)


class AddressForm(forms.Form):
    email = forms.CharField(
        label=gettext_lazy("Your email address"),
        max_length=254,
        error_messages=_one_message(NOT_AN_ADDRESS),
    )

    def clean_email(self) -> str:
        address = self.cleaned_data["email"].strip()
        try:
            validate_email(address)
        except ValidationError:
            raise ValidationError(NOT_AN_ADDRESS) from None
        return address.lower()


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("The 6-digit code"),
        max_length=20,
        error_messages=_one_message(WRONG_CODE),
    )


def _sign_in(request, person):
    """Sign ``person`` in; the page to go to: the one that asked for it, else home."""
    back = request.session.pop(NEXT, None)  # before the login, which may empty the session
    _log_in(request, person)
    messages.success(request, _("You are signed in."))
    return redirect(back or "games:home")


def _log_in(request, person) -> None:
    auth.login(request, person, backend="django.contrib.auth.backends.ModelBackend")
    request.session.set_expiry(timedelta(days=settings.SIGN_IN_DAYS))


def sign_in_as(request, email: str) -> None:
    """Sign in the person whose address another email's link just proved (an
    invitation's)."""
    _log_in(request, sign_in.person_for(email))


def _safe_next(request) -> str:
    """The ?next= page, if it is a plain path on this site (never another site's
    address, nor a scheme such as javascript:); else ""."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    same_site = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    plain = back.isascii() and back.isprintable() and " " not in back  # a header's value
    return back if same_site and plain and back.startswith("/") and len(back) <= MAX_NEXT else ""


@never_cache
@require_http_methods(["GET", "POST"])
@in_browser_language
def ask(request):
    """GET: the form. POST: a sign-in email owed (unless paced), then the code's form.
    The answer is the same for any address, known or not, paced or not."""
    form = AddressForm(request.POST or None)
    if request.method == "GET":  # remembered for a form sent without it, too
        request.session[NEXT] = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        address = form.cleaned_data["email"]
        client = sign_in.client_key(client_ip(request))
        sign_in.ask(address, client, browser_language(request))
        request.session[ASKED] = address
        request.session[NEXT] = _safe_next(request) or request.session.get(NEXT, "")
        return redirect("games:sign-in-code")
    context = {"form": form, "next": _safe_next(request)}
    return in_language(request, "sign_in.html", context, status=400 if form.errors else 200)


@never_cache
@require_http_methods(["GET", "POST"])
@in_browser_language
def code(request):
    """The code from the email, typed on the device that asked for it."""
    address = request.session.get(ASKED)
    if not address:
        return redirect("games:sign-in")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        person = sign_in.use_code(address, form.cleaned_data["code"])
        if person is not None:
            request.session.pop(ASKED, None)
            return _sign_in(request, person)
        form.add_error("code", WRONG_CODE)
    context = {"form": form, "address": address, "ask_url": reverse("games:sign-in")}
    return in_language(request, "sign_in_code.html", context, status=400 if form.errors else 200)


@never_cache
@require_http_methods(["GET", "POST"])
@in_browser_language
def link(request, token: str):
    """GET: a page with one button, so that a mail scanner following the link uses
    nothing up. POST: signs in, once."""
    if request.method == "POST":
        person = sign_in.use_link(token)
        if person is not None:
            return _sign_in(request, person)
    usable = sign_in.pending_by_token(token) is not None
    context = {"usable": usable, "ask_url": reverse("games:sign-in")}
    return in_language(request, "sign_in_link.html", context, status=200 if usable else 410)


@require_POST
@in_browser_language
def sign_out(request):
    auth.logout(request)
    messages.success(request, _("You are signed out."))
    return redirect("games:home")
