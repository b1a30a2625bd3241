"""The home page's "Play now": a signed-in person starts a practice game against bots
in one step (games.core.practice), then lands on their seat's page. GET shows the
form; the POST (CSRF-checked) starts the game."""

from django import forms
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games import engine
from games.core import game_setup, links, people, practice
from games.present import bot_levels
from games.present.clock import ZONES
from games.present.game_fields import black_market_field, checked, edition_field
from games.present.page_language import browser_language, in_browser_language
from games.web.lobbies import render_private, signed_in_address, to_sign_in


class PracticeForm(forms.Form):
    my_name = forms.CharField(label=gettext_lazy("Your name at the table"), max_length=60)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players, you included"),
        choices=[(n, str(n)) for n in range(3, 7)],
        coerce=int,
        initial=4,
        help_text=gettext_lazy("Six players play with two Deputies beside the Sheriff."),
    )
    level = forms.ChoiceField(
        label=gettext_lazy("The bots"), choices=bot_levels.CHOICES, initial=bot_levels.DEFAULT
    )
    edition = edition_field()
    black_market = black_market_field()
    # The person's zone, as their device says (the page's script fills it in).
    my_timezone = forms.Field(required=False, widget=forms.HiddenInput)

    def clean_my_name(self):
        return checked(game_setup.player_name, self.cleaned_data["my_name"])

    def clean_my_timezone(self) -> str:
        zone = self.cleaned_data.get("my_timezone") or ""
        return zone if zone in ZONES else "UTC"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("black_market") and cleaned.get("edition") == 1:
            self.add_error("black_market", _("The Black Market is a 2nd edition rule."))
        return cleaned

    def config(self) -> dict:
        data = self.cleaned_data
        config = {
            "players": data["players"],
            "edition": data["edition"],
            "black_market": data["black_market"],
        }
        engine.GameConfig.from_dict(config)  # the engine's own checks
        return config


@never_cache
@require_http_methods(["GET", "POST"])
@in_browser_language
def play_now(request):
    email = signed_in_address(request)
    if email is None:
        return to_sign_in(request)
    person = people.person(email)
    form = PracticeForm(request.POST or None, initial={"my_name": email.split("@", 1)[0]})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            seat = practice.start(
                email=email,
                name=data["my_name"],
                level=data["level"],
                config=form.config(),
                language=(person.language if person and person.language else None)
                or browser_language(request),
                timezone_name=data["my_timezone"],
            )
        except (ValueError, engine.EngineError) as error:
            form.add_error(None, getattr(error, "message", None) or str(error))
        else:
            return redirect(links.seat_path(seat))
    context = {
        "form": form,
        "in_play": practice.in_play(email),
        "my_games_url": reverse("games:my-games"),
    }
    return render_private(request, "practice.html", context, status=400 if form.errors else 200)
