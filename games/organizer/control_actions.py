"""One organizer's control, as a form posts it: pause, resume, extend, advance,
cancel, replace a player, hand a seat to a bot or resend a seat's email, at the version the page was
rendered for. The admin's Controls panel and the organizer's own page both post
here; the writes, their log notes and the players' emails are games.core.controls'.

Whatever the fields hold (any bytes, too long, missing), the answer is a message
saying what was wrong, and nothing changes. The messages are said in the active
language: the admin's English, or the organizer's page's language."""

from dataclasses import dataclass
from datetime import timedelta

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core import controls, deadlines, game_setup, game_writes
from games.engine import EngineError
from games.models import Game, Seat
from games.present.game_fields import check_zone
from games.words import refusal_messages
from games.words.typed_text import unfit_for_a_name

MAX_EXTENSION_HOURS = int(deadlines.MAX_EXTENSION / timedelta(hours=1))
NO_SUCH_SEAT = gettext_lazy("No such seat in this game; nothing was done.")


@dataclass(frozen=True)
class Outcome:
    done: bool  # False: refused, and nothing changed
    message: str
    status: int = 200  # refused: 400 for what the form said, 409 for the game's state
    game_id: int | None = None  # done: the game whose page comes next, if not this one


def _refused(message) -> Outcome:
    return Outcome(False, str(message), 400)


class ReplacePlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=game_setup.MAX_PLAYER_NAME)
    email = forms.EmailField(label=gettext_lazy("Email"), max_length=game_setup.MAX_EMAIL)
    # Left empty, the seat keeps its zone (the forms fill in the seat's own).
    timezone = forms.CharField(label=gettext_lazy("Time zone"), max_length=64, required=False)

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if any(c in name for c in "<>\r\n"):
            raise forms.ValidationError(_("A name may not contain < > or line breaks."))
        if unfit_for_a_name(name) or name.casefold() == "you":
            raise forms.ValidationError(
                _("A name is one line of plain text, at most 60 characters.")
            )
        return name

    def clean_timezone(self):
        zone = self.cleaned_data["timezone"].strip()
        return check_zone(zone) if zone else ""


def whole_number(raw) -> int | None:
    """A control's number in ASCII digits, short enough for any column and for a
    timedelta; else None. (int() also takes '١' and overflows both.)"""
    raw = (raw or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def first_error(form: forms.Form) -> str:
    for field, errors in form.errors.items():
        if field in form.fields:
            label = form.fields[field].label or field.replace("_", " ")
            return f"{label.capitalize()}: {errors[0]}"
        return errors[0]
    return _("Please check the form.")


def perform(game: Game, data, zone: str, when=deadlines.format_for) -> Outcome:
    """The control ``data`` (a POST) asks for, done on ``game``. ``when(moment, zone)``
    words a time as {"local", "utc"} for the messages, in ``zone``."""
    version = whole_number(data.get("version"))
    if version is None:
        return _refused(_("The form was incomplete; nothing was done."))
    action = data.get("action", "")
    if action not in CONTROL:
        return _refused(_("Unknown control; nothing was done."))
    try:
        return CONTROL[action](game, data, version, zone, when)
    except game_writes.ServiceError as error:  # e.g. the game changed meanwhile
        said_wrong = error.code in ("bad_extension", "no_such_bot")  # the form, not the game
        return Outcome(False, error.message, 400 if said_wrong else 409)
    except EngineError as error:
        return Outcome(False, refusal_messages.message(error), 409)


def _pause(game, data, version, zone, when):
    controls.pause(game.pk, expected_version=version)
    return Outcome(
        True,
        _("The game is paused: no deadline passes and no reminder goes out until you resume."),
    )


def _resume(game, data, version, zone, when):
    controls.resume(game.pk, expected_version=version)
    return Outcome(True, _("The game resumes; the deadline moved by the time spent paused."))


def _extend(game, data, version, zone, when):
    hours = whole_number(data.get("hours"))
    if hours is None:
        return _refused(_("Give the extension as a whole number of hours."))
    game = controls.extend(game.pk, expected_version=version, by=timedelta(hours=hours))
    deadline = when(game.phase_deadline, zone)
    if deadline["is_utc"]:  # once is enough
        return Outcome(True, _("The deadline is now %(when)s.") % {"when": deadline["local"]})
    text = _("The deadline is now %(local)s (%(utc)s).")
    return Outcome(True, text % {"local": deadline["local"], "utc": deadline["utc"]})


def _advance(game, data, version, zone, when):
    controls.advance_now(game.pk, expected_version=version)
    return Outcome(True, _("The game moved on: the missing moves got their defaults."))


def _cancel(game, data, version, zone, when):
    if not data.get("confirm"):
        return _refused(_("Tick the box to confirm cancelling; nothing was done."))
    controls.cancel(game.pk, expected_version=version)
    return Outcome(True, _("The game is cancelled."))


def _replace(game, data, version, zone, when):
    seat = _seat(game, data)
    if seat is None:
        return _refused(NO_SUCH_SEAT)
    form = ReplacePlayerForm(data)
    if not form.is_valid():
        return _refused(_("%(error)s Nothing was done.") % {"error": first_error(form)})
    fields = form.cleaned_data
    old_name, old_email = seat.name, seat.email
    try:
        seat = controls.replace_player(
            seat.pk,
            expected_version=version,
            name=fields["name"],
            email=fields["email"],
            timezone_name=fields["timezone"],
        )
    except ValueError as error:
        return _refused(_("%(error)s Nothing was done.") % {"error": error})
    said = {"new": seat.name, "seat": seat.index + 1, "old": old_name}
    if old_email.lower() != seat.email.lower():
        text = _(
            "%(new)s now plays seat %(seat)d instead of %(old)s; the old links no longer "
            "work; %(old)s was told so and the new player was emailed."
        )
    else:
        text = _(
            "%(new)s now plays seat %(seat)d instead of %(old)s; the old links no longer "
            "work and the new player was emailed."
        )
    return Outcome(True, text % said)


def _to_bot(game, data, version, zone, when):
    seat = _seat(game, data)
    if seat is None:
        return _refused(NO_SUCH_SEAT)
    old_name, old_email = seat.name, seat.email
    seat = controls.hand_to_bot(seat.pk, expected_version=version, level=data.get("level", ""))
    said = {"new": seat.name, "seat": seat.index + 1, "old": old_name}
    if old_email:
        text = _(
            "%(new)s now plays seat %(seat)d instead of %(old)s; the old links no longer "
            "work and %(old)s was told so. A person can take the seat back with Replace player."
        )
    else:
        text = _("%(new)s now plays seat %(seat)d instead of %(old)s.")
    return Outcome(True, text % said)


def _resend(game, data, version, zone, when):
    seat = _seat(game, data)
    if seat is None:
        return _refused(NO_SUCH_SEAT)
    if not seat.email:
        return _refused(_("A bot gets no email; nothing was done."))
    controls.resend_email(seat.pk, expected_version=version)
    text = _("%(name)s was sent their current email (with their link) again.")
    return Outcome(True, text % {"name": seat.name})


def _seat(game, data) -> Seat | None:
    """The game's seat the form names (by its id), if it is one."""
    seat_id = whole_number(data.get("seat"))
    return Seat.objects.filter(game=game, pk=seat_id).first() if seat_id is not None else None


CONTROL = {
    "pause": _pause,
    "resume": _resume,
    "extend": _extend,
    "advance": _advance,
    "cancel": _cancel,
    "replace": _replace,
    "to_bot": _to_bot,
    "resend": _resend,
}
