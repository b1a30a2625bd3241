"""What a finished game tells: its reveal (every bag as it really was, every
deal) and its awards, from the whole event log. Nothing before the end: the
reveal holds every hidden thing of the game.

A finished game's log never changes, so what it tells is kept in the cache once
worked out (keyed by the game's random thread token, never reused, and its last
event), for the final page, its emails and the players' histories."""

from django.core.cache import cache

from games.engine import awards, reveal
from games.models import Game, GameEvent

CACHE_SECONDS = 7 * 24 * 3600


def told(game: Game, state) -> dict | None:
    """{"story", "awards"} of a finished game; None while it is played."""
    if not state.is_over():
        return None
    key = f"after-game:{game.thread_token}:{state.seq}"
    found = cache.get(key)
    if found is None:
        events = GameEvent.objects.filter(game_id=game.pk).order_by("seq")
        story = reveal.story(list(events.values_list("data", flat=True)))
        found = {"story": story, "awards": awards.awards(story, state.config.players)}
        cache.set(key, found, CACHE_SECONDS)
    return found
