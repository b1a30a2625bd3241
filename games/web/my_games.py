"""My games: the signed-in person's games on one page (games/present/my_games.py),
and their choice of one email a day across all of them.

A person is their email address: signing in (games/web/sign_in.py) is all it
takes. Signed out, the page sends them to sign in and back here.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.core import people
from games.present import history, live_poll, my_games
from games.present.page_language import browser_language, in_browser_language, in_language
from games.web.seat_settings import ZONES, known_zone

HOURS = [("", gettext_lazy("No daily email"))] + [(str(h), f"{h:02d}:00") for h in range(24)]
NOT_A_ZONE = gettext_lazy("Choose a time zone from the list, such as Europe/Madrid.")


class DailyForm(forms.Form):
    daily_hour = forms.TypedChoiceField(
        label=gettext_lazy("When"),
        choices=HOURS,
        coerce=int,
        empty_value=None,
        required=False,
    )
    timezone = forms.CharField(
        label=gettext_lazy("My time zone"),
        max_length=64,
        error_messages=dict.fromkeys(
            ("required", "max_length", "null_characters_not_allowed"), NOT_A_ZONE
        ),
    )

    def clean_timezone(self) -> str:
        return known_zone(self.cleaned_data["timezone"])


def _page(request, form: DailyForm | None = None, status: int = 200):
    """The page (its rows worded in the language active: the view's, the browser's)."""
    email = request.user.email
    found = my_games.my_games(email)
    sections = found.sections()
    if form is None:
        hour = found.person.daily_hour if found.person is not None else None
        initial = {"daily_hour": "" if hour is None else str(hour), "timezone": found.zone}
        form = DailyForm(initial=initial)
    context = {
        "email": email,
        "sections": sections,
        "form": form,
        "zones": ZONES,
        "daily_url": reverse("games:my-daily"),
        "history_url": reverse("games:my-history"),
        "home_url": reverse("games:home"),
        "live": live_poll.person_poll(email),
    }
    return in_language(request, "my_games.html", context, status)


@never_cache
@require_http_methods(["GET", "HEAD"])
@in_browser_language
def page(request):
    if not _address(request):
        return redirect_to_login(request.get_full_path(), reverse("games:sign-in"))
    return _page(request)


@never_cache
@require_http_methods(["GET", "HEAD"])
@in_browser_language
def history_page(request):
    """The signed-in person's finished games: played, won, average score, awards."""
    email = _address(request)
    if not email:
        return redirect_to_login(request.get_full_path(), reverse("games:sign-in"))
    context = {
        "email": email,
        "history": history.history(email),
        "my_games_url": reverse("games:my-games"),
    }
    return in_language(request, "history.html", context)


def _address(request) -> str:
    """The signed-in person's address; "" for nobody (or an account without one, an
    admin's, which signing in by email gives one)."""
    return request.user.email.strip() if request.user.is_authenticated else ""


@never_cache
@require_POST
@in_browser_language
def daily(request):
    """Turn the daily email across all games on (at an hour of the person's zone) or off."""
    if not _address(request):
        return redirect_to_login(reverse("games:my-games"), reverse("games:sign-in"))
    form = DailyForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    email = request.user.email
    language = browser_language(request)  # the daily email's: the page's, as it was read
    hour = form.cleaned_data["daily_hour"]
    people.choose_daily(email, hour, form.cleaned_data["timezone"], language)
    if hour is None:
        said = _("No daily email: each game emails you as before.")
    else:
        said = _("Saved: one email a day across all your games, at %(hour)s your time.") % {
            "hour": f"{hour:02d}:00"
        }
    messages.success(request, said)
    return redirect("games:my-games")
