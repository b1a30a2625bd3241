"""The in-process benchmark's programs at the table: each seat played through the
JSON API (games/api) with its own token, making the moves the page's player makes
(games.devtools.bench.player), so that a command POST is timed beside the page's
move POST in the same run."""

import json
import uuid

from django.test import Client

from games.core import api_tokens
from games.engine import LEGAL_TYPES
from games.models import Game


def seats(game: Game) -> list:
    """(client, seat address) for each seat, each with its own token."""
    found = []
    for seat in game.seats.order_by("index"):
        client = Client(HTTP_AUTHORIZATION=f"Bearer {api_tokens.mint(seat)}")
        found.append((client, f"/api/v1/games/{game.pk}/seats/{seat.index}"))
    return found


def choice(listed: dict, hand: list) -> dict | None:
    """The command the page's player would send (player.next_step, in its order),
    from the seat's listed moves."""
    moves = {move["type"]: move for move in listed["moves"]}
    if "set_aside" in moves:
        return {"type": "set_aside", "cards": []}
    if "market_turn" in moves:  # 1st edition: draw from the deck, discard nothing
        return {"type": "market_turn", "cards": [], "draws": [], "pile": 0}
    if "load_bag" in moves:
        card = hand[0]
        declared = card["type"] if card["type"] in LEGAL_TYPES else "apples"
        return {"type": "load_bag", "cards": [card["id"]], "declared": declared, "count": 1}
    for bare in ("decline_black_market", "say_no_offer"):
        if bare in moves:
            return {"type": bare}
    if listed["must_act"] and "pass_bag" in moves:
        return {"type": "pass_bag", "bag": moves["pass_bag"]["options"]["bags"][0]}
    return None


def command_body(command: dict, version: int) -> tuple[str, dict]:
    body = json.dumps({"version": version, "command": command})
    return body, {"Idempotency-Key": uuid.uuid4().hex}
