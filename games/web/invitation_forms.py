"""The forms of a game being gathered: an invitation by the organizer, the
invitee's answer, and asking for a seat through the join link."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy

from games.core import game_setup
from games.present.game_fields import checked
from games.web.new_game import parse_invitee
from games.web.seat_settings import known_zone


class FirstErrorMixin:
    def first_error(self) -> str:
        for errors in self.errors.values():
            return " ".join(errors)
        return ""


class ZoneField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(label=gettext_lazy("Your time zone"), max_length=64, **kwargs)

    def clean(self, value):
        return known_zone(super().clean(value))


class InviteForm(FirstErrorMixin, forms.Form):
    invitee = forms.CharField(
        label=gettext_lazy("Name and address"),
        max_length=320,
        help_text=gettext_lazy('"Bob <bob@example.org>" or just the address.'),
    )

    def clean_invitee(self):
        return checked(parse_invitee, self.cleaned_data["invitee"])


class AcceptForm(FirstErrorMixin, forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name at the table"), max_length=60)
    timezone = ZoneField()
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=settings.LANGUAGES)

    def clean_name(self):
        return checked(game_setup.player_name, self.cleaned_data["name"])


class JoinForm(FirstErrorMixin, forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name at the table"), max_length=60)
    email = forms.CharField(label=gettext_lazy("Your email address"), max_length=254)
    timezone = ZoneField()

    def __init__(self, *args, signed_in_as: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.signed_in_as = signed_in_as

    def clean_name(self):
        return checked(game_setup.player_name, self.cleaned_data["name"])

    def clean_email(self):
        return checked(game_setup.email_address, self.cleaned_data["email"]).lower()
