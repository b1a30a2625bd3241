"""Helpers for the API tests: a started game, a token for each seat, and requests
made as a program would make them."""

import json
import uuid

from django.test import Client

from games.core import api_tokens
from tests.support.fixtures_pages import start_game

BASE = "/api/v1"


class ApiSeat:
    """One seat played through the API with its own token."""

    def __init__(self, seat, token: str):
        self.seat = seat
        self.token = token
        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
        self.path = f"{BASE}/games/{seat.game_id}/seats/{seat.index}"

    def get(self, tail: str = "", **params):
        return self.client.get(self.path + tail, params)

    def command(self, command: dict, version: int, key: str | None = None):
        return self.client.post(
            self.path + "/commands",
            json.dumps({"version": version, "command": command}),
            content_type="application/json",
            headers={"Idempotency-Key": key or uuid.uuid4().hex},
        )

    def say(self, text: str, **fields):
        body = json.dumps({"text": text, **fields})
        return self.client.post(self.path + "/talk", body, content_type="application/json")


def seats_with_tokens(game) -> list[ApiSeat]:
    return [ApiSeat(seat, api_tokens.mint(seat)) for seat in game.seats.order_by("index")]


def api_game(**config) -> tuple:
    game = start_game(**config)
    return game, seats_with_tokens(game)


def error_of(response) -> dict:
    """The JSON error every refusal answers with."""
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]
