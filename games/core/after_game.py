"""What a finished game tells: its reveal (every bag as it really was, every
deal) and its awards, from the whole event log. Nothing before the end: the
reveal holds every hidden thing of the game."""

from games.engine import awards, reveal
from games.models import Game, GameEvent


def told(game: Game, state) -> dict | None:
    """{"story", "awards"} of a finished game; None while it is played."""
    if not state.is_over():
        return None
    events = GameEvent.objects.filter(game_id=game.pk).order_by("seq")
    story = reveal.story(list(events.values_list("data", flat=True)))
    return {"story": story, "awards": awards.awards(story, state.config.players)}
