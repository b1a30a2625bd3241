"""What a finished game tells: its reveal (every bag as it really was, every
deal) and its awards, from the whole event log. Nothing before the end: the
reveal holds every hidden thing of the game.

A finished game's log never changes, so what is worked out from it is kept in
the cache (``from_the_log``; keyed by the game's random thread token, never
reused, and its last event), for the final page, its emails, the archive and
the players' histories."""

from django.core.cache import cache

from games.engine import awards, reveal
from games.models import Game, GameEvent

CACHE_SECONDS = 7 * 24 * 3600


def from_the_log(game: Game, state, name: str, work_out):
    """``work_out(events)`` of a finished game's whole log, cached under ``name``;
    None while the game is played."""
    if not state.is_over():
        return None
    key = f"{name}:{game.thread_token}:{state.seq}"
    found = cache.get(key)
    if found is None:
        events = GameEvent.objects.filter(game_id=game.pk).order_by("seq")
        found = work_out(list(events.values_list("data", flat=True)))
        cache.set(key, found, CACHE_SECONDS)
    return found


def told(game: Game, state) -> dict | None:
    """{"story", "awards"} of a finished game; None while it is played."""
    players = state.config.players

    def work_out(events: list) -> dict:
        story = reveal.story(events)
        return {"story": story, "awards": awards.awards(story, players)}

    return from_the_log(game, state, "after-game", work_out)
