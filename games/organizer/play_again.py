"""Play again, on the organizer's page of a finished game: "New game with the same
players", its name (checked as the new-game form checks it), who plays again and
whether the first Sheriff moves one seat on. games.core.rematch starts the game
and links it from the old one; once it has, the section links to the new game's
page instead of showing the form, and a form sent again goes there too."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core import game_setup, rematch
from games.engine import EngineError
from games.models import Game
from games.organizer.control_actions import Outcome, first_error, whole_number
from games.words import refusal_messages
from games.words.typed_text import unfit_for_a_name

ACTION = "play_again"
ACTIONS = (ACTION,)


class PlayAgainForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("The new game’s name"), max_length=game_setup.MAX_GAME_NAME
    )

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if unfit_for_a_name(name):
            raise forms.ValidationError(
                _("A game’s name is one line of plain text, with no line breaks.")
            )
        return name


def _chosen_seats(data) -> list[int] | None:
    """The seats ticked to play again, by id; None if one is not a seat's number."""
    chosen = [whole_number(value) for value in data.getlist("keep")[: rematch.MAX_PLAYERS * 2]]
    return None if None in chosen else chosen


def perform(game: Game, data) -> Outcome:
    """The new game ``data`` (a POST) asks for, started from ``game``; a refusal
    says why, and nothing is created."""
    if game.rematch_id is not None:  # the form again: where it went the first time
        text = _("This game was played again already: here is the new game.")
        return Outcome(True, text, game_id=game.rematch_id)
    try:
        rematch.check_finished(game)
    except rematch.RematchError as error:
        return Outcome(False, error.message, 409)
    form = PlayAgainForm(data)
    if not form.is_valid():
        return Outcome(False, _("%(error)s Nothing was done.") % {"error": first_error(form)}, 400)
    seat_ids = _chosen_seats(data)
    if seat_ids is None:
        return Outcome(False, _("No such seat in this game; nothing was done."), 400)
    try:
        outcome = rematch.play_again(
            game.pk,
            name=form.cleaned_data["name"],
            seat_ids=seat_ids,
            rotate_sheriff=bool(data.get("rotate")),
        )
    except rematch.RematchError as error:
        return Outcome(False, error.message, 409 if error.conflict else 400)
    except ValueError as error:  # game_setup's own checks, which the form made already
        return Outcome(False, _("%(error)s Nothing was done.") % {"error": error}, 400)
    except EngineError as error:
        return Outcome(False, refusal_messages.message(error), 409)
    if not outcome.started:
        text = _("This game was played again already: here is the new game.")
        return Outcome(True, text, game_id=outcome.game.pk)
    text = _("“%(name)s” has started: every player was emailed their new link.")
    return Outcome(True, text % {"name": outcome.game.name}, game_id=outcome.game.pk)


def sent_back(data) -> dict:
    """What a refused form had ticked, for the page shown again."""
    return {"keep": [value[:12] for value in data.getlist("keep")[:12]], "rotate": "rotate" in data}


def section(game: Game, sent: dict) -> dict | None:
    """The page's "Play again" section: for a finished game, the form (or, as the
    form was sent back, what it had), or the new game once there is one."""
    if game.status != Game.Status.FINISHED:
        return None
    started = rematch.organizer_note(game)
    if started is not None:
        return {"started": started}
    seats = list(game.seats.order_by("index"))
    asked_not = rematch.opted_out(seats)
    refused = sent.get("action") == ACTION
    ticked = set(sent.get("keep", [])) if refused else None
    players = [
        {
            "seat": seat,
            "opted_out": seat.email.strip().lower() in asked_not,
            "kept": ticked is None or str(seat.pk) in ticked,
        }
        for seat in seats
    ]
    config = game.engine_config
    section = {
        "name": sent["name"] if refused else rematch.default_name(game),
        "players": players,
        "rotate": (sent.get("rotate") if refused else True),
        "deputies": config.deputies,
    }
    if not config.deputies:
        willing = [seat.index for seat in seats if seat.email.strip().lower() not in asked_not]
        if len(willing) >= rematch.MIN_PLAYERS:
            old = seats[config.first_sheriff]
            following = rematch.first_sheriff(config.first_sheriff, len(seats), willing, True)
            section["sheriff"] = {"old": old.name, "next": seats[willing[following]].name}
    return section
