"""A player's history across their finished games: how many played and won, the
average score, the awards earned, and each game's result. A player is their
email address, in any letter case, as on My games."""

from dataclasses import dataclass, field

from games import engine
from games.core import after_game, links
from games.models import Game, Seat
from games.present.reveal import AWARD_TITLES

MAX_GAMES = 100  # the newest; older ones are counted in the totals all the same


@dataclass
class History:
    played: int = 0
    won: int = 0
    total_score: int = 0
    awards: dict = field(default_factory=dict)  # award key -> times earned
    games: list = field(default_factory=list)  # the newest first

    @property
    def average(self) -> float | None:
        return round(self.total_score / self.played, 1) if self.played else None

    def award_rows(self) -> list:
        return [
            {"title": str(AWARD_TITLES[key]), "count": count}
            for key, count in sorted(self.awards.items(), key=lambda kv: (-kv[1], kv[0]))
        ]


def history(email: str) -> History:
    seats = (
        Seat.objects.filter(email__iexact=email.strip(), game__status=Game.Status.FINISHED)
        .select_related("game")
        .order_by("-game__finished_at", "-game_id")
    )
    result = History()
    for seat in seats:
        game = seat.game
        state = game.engine_state()
        sheet = next(s for s in engine.view_for(state, None)["scores"] if s["seat"] == seat.index)
        earned = [
            given["award"]
            for given in after_game.told(game, state)["awards"]
            if seat.index in given["seats"]
        ]
        result.played += 1
        result.won += bool(sheet["winner"])
        result.total_score += sheet["total"]
        for key in earned:
            result.awards[key] = result.awards.get(key, 0) + 1
        if len(result.games) < MAX_GAMES:
            result.games.append(
                {
                    "name": game.name,
                    "finished": game.finished_at,
                    "players": state.config.players,
                    "rank": sheet["rank"],
                    "total": sheet["total"],
                    "winner": sheet["winner"],
                    "awards": [str(AWARD_TITLES[key]) for key in earned],
                    "link": links.seat_path(seat),
                    "bots": len(game.bots),  # the bots the player played with
                    "practice": game.practice,
                }
            )
    return result
