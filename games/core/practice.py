"""A practice game (the home page's "Play now"): one signed-in person against bots,
started in one step. No deadlines (the bots answer within seconds, the person at
their own pace), table talk on, the person at a random seat and the organizer of
their own game (they may pause, cancel, or hand their own seat to a bot).

A person keeps at most MAX_IN_PLAY practice games in play: a form sent again and
again makes no pile of games.
"""

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import LEVELS
from games.bots.names import bot_names
from games.core import game_setup
from games.core.game_setup import PlayerSpec
from games.models import Game, Seat

MAX_IN_PLAY = 3


class PracticeError(ValueError):
    """Why a practice game was not started, in words for the person who asked."""


def in_play(email: str) -> int:
    return Game.objects.filter(
        practice=True, status=Game.Status.ACTIVE, organizer_email=email.lower()
    ).count()


def start(
    *,
    email: str,
    name: str,
    level: str,
    config: dict,
    language: str = "en",
    timezone_name: str = "UTC",
    now=None,
) -> Seat:
    """Start a practice game for ``email`` against ``config["players"] - 1`` bots of
    ``level``; the person's seat (its game attached)."""
    if level not in LEVELS:
        raise PracticeError(_("There is no such bot: choose one of the list."))
    email = game_setup.email_address(email).lower()
    name = game_setup.player_name(name)
    rnd = random.SystemRandom()
    with transaction.atomic():
        if in_play(email) >= MAX_IN_PLAY:
            raise PracticeError(
                _("You have %(count)d practice games in play: finish or cancel one first.")
                % {"count": MAX_IN_PLAY}
            )
        bots = [
            PlayerSpec(name=bot_name, email="", language=language, bot=level)
            for bot_name in bot_names([name], config["players"] - 1, rnd)
        ]
        me = PlayerSpec(name=name, email=email, timezone=timezone_name, language=language)
        players = list(bots)
        players.insert(rnd.randrange(len(players) + 1), me)
        game = game_setup.create_game(
            name=_("Practice with bots"),
            players=players,
            config=config,
            organizer_email=email,
            timing={"deadline_mode": Game.DeadlineMode.NONE, "abandon_after": 0},
            practice=True,
            now=now or timezone.now(),
        )
        return game.seats.get(email=email)
