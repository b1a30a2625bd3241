"""Per-seat tokens: made and revoked on the seat's settings page, shown once, kept
hashed; a revoked or replaced seat's token is dead; a token names one seat, and any
other answers exactly as a seat that does not exist; the rate per token."""

import hashlib
import json
import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.core import api_tokens, controls, links
from games.models import ApiToken, Game
from tests.api.api_seats import BASE, ApiSeat, api_game, error_of
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'<code class="token" id="new-token">(shf_[A-Za-z0-9_-]+)</code>')


def seat_operations(path: str) -> list:
    """(method, address) of every seat operation, from the API's own schema."""
    from games.api.app import api

    found = []
    for template, item in api.get_openapi_schema()["paths"].items():
        if "{seat}" not in template:
            continue
        for method in item:
            found.append((method, template.replace("/games/{game}/seats/{seat}", path)))
    return found


def call(client: Client, method: str, address: str):
    if method == "get":
        return client.get(address)
    command = {"version": 0, "command": {"type": "say_no_offer"}}
    body = json.dumps({"text": "hi"} if address.endswith("/talk") else command)
    return client.post(
        address, body, content_type="application/json", headers={"Idempotency-Key": "k1"}
    )


def test_a_token_is_made_on_the_settings_page_shown_once_and_kept_hashed():
    game = start_game()
    seat = game.seats.get(index=1)
    client = Client()
    settings_path = reverse("games:settings", args=[links.make_token(seat)])
    action = reverse("games:api-tokens", args=[links.make_token(seat)])
    assert client.get(action).status_code == 405  # GET changes nothing
    response = client.post(action, {"action": "mint", "label": "my bot"})
    assert response.status_code == 200
    assert (
        response["Cache-Control"].startswith("no-store") or "no-cache" in response["Cache-Control"]
    )
    raw = TOKEN.search(response.content.decode()).group(1)
    stored = ApiToken.objects.get(seat=seat)
    assert stored.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in json.dumps(list(ApiToken.objects.values()), default=str)
    assert stored.prefix == raw[:10] and stored.label == "my bot"
    page = client.get(settings_path).content.decode()
    assert raw not in page and stored.prefix in page  # shown once, then only its prefix
    me = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get(f"{BASE}/token")
    assert me.json() == {"game": game.pk, "seat": 1, "name": seat.name}


def test_a_revoked_token_gets_401_on_its_next_request():
    _game, seats = api_game()
    ann = seats[0]
    assert ann.get().status_code == 200
    token = ApiToken.objects.get(seat=ann.seat)
    action = reverse("games:api-tokens", args=[links.make_token(ann.seat)])
    Client().post(action, {"action": "revoke", "token": token.pk})
    response = ann.get()
    assert response.status_code == 401
    assert error_of(response)["code"] == "bad_token"
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("bad", ["", "junk", "shf_" + "x" * 43, "Basic abc", "shf_\x00\udcff"])
def test_a_missing_or_unknown_token_gets_401_json(bad):
    _game, seats = api_game()
    client = Client(HTTP_AUTHORIZATION=f"Bearer {bad}".encode("utf-8", "replace").decode())
    response = client.get(seats[0].path)
    assert response.status_code == 401
    assert error_of(response)["code"] in ("bad_token", "no_token")


def test_another_seat_answers_as_a_missing_seat_on_every_operation():
    game, seats = api_game()
    ann = seats[0]
    missing = f"/games/{game.pk + 1000}/seats/0"
    for (method, theirs), (_, none) in zip(
        seat_operations(f"/games/{game.pk}/seats/1"), seat_operations(missing), strict=True
    ):
        other, nowhere = call(ann.client, method, theirs), call(ann.client, method, none)
        assert (other.status_code, other.content) == (404, nowhere.content), (method, theirs)
        assert error_of(other)["code"] == "not_found"
    assert len(seat_operations("/x")) >= 6


def test_a_replaced_player_s_token_is_dead():
    game, seats = api_game()
    ben = seats[1]
    controls.replace_player(
        ben.seat.pk,
        expected_version=Game.objects.get(pk=game.pk).version,
        name="Bea",
        email="bea@example.org",
    )
    response = ben.get()
    assert response.status_code == 401 and error_of(response)["code"] == "bad_token"
    assert seats[0].get().status_code == 200  # the others' work on


def test_links_sent_anew_end_the_seat_s_tokens():
    _game, seats = api_game()
    seat = seats[2].seat
    type(seat).objects.filter(pk=seat.pk).update(**links.rotated_secrets())
    assert seats[2].get().status_code == 401


def test_a_seat_holds_at_most_five_live_tokens():
    game = start_game()
    seat = game.seats.get(index=0)
    for _ in range(api_tokens.MAX_LIVE):
        api_tokens.mint(seat)
    action = reverse("games:api-tokens", args=[links.make_token(seat)])
    response = Client().post(action, {"action": "mint"}, follow=True)
    assert ApiToken.objects.filter(seat=seat).count() == api_tokens.MAX_LIVE
    assert "revoke one" in response.content.decode()


@override_settings(API_RATE_REQUESTS=3, API_RATE_SECONDS=60)
def test_a_token_past_its_rate_gets_429_with_retry_after():
    _game, seats = api_game()
    ann = seats[0]
    assert [ann.get().status_code for _ in range(3)] == [200, 200, 200]
    response = ann.get()
    assert response.status_code == 429
    assert error_of(response)["code"] == "too_many_requests"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert seats[1].get().status_code == 200  # per token


def test_errors_are_in_the_seat_s_language():
    _game, seats = api_game()
    type(seats[0].seat).objects.filter(pk=seats[0].seat.pk).update(language="es")
    response = seats[0].command({"type": "say_no_offer"}, version=0)
    assert response.status_code == 409
    error = error_of(response)
    assert error["code"] == "stale_version"
    assert "juego" in error["message"] or "partida" in error["message"], error


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"\xff\xfe\x00",
        b"[]",
        b'{"version": "x", "command": {}}',
        b'{"version": 1, "command": {"type": "load_bag", "cards": "all"}}',
        b'{"version": 1, "command": {"type": "no_such_move"}}',
        b'{"version": 1e99, "command": {"type": "say_no_offer"}}',
        b'{"version": 1, "command": {"type": "say_no_offer", "seat": 2}}',
    ],
)
def test_any_bytes_get_a_clear_400_and_change_nothing(raw):
    game, seats = api_game()
    before = Game.objects.get(pk=game.pk).version
    response = seats[0].client.post(
        seats[0].path + "/commands", raw, content_type="application/json",
        headers={"Idempotency-Key": "abc"},
    )  # fmt: skip
    assert response.status_code == 400, response.content
    assert error_of(response)["code"] == "invalid_request"
    assert Game.objects.get(pk=game.pk).version == before


def test_a_command_without_an_idempotency_key_is_refused():
    _game, seats = api_game()
    ann: ApiSeat = seats[0]
    version = ann.get().json()["version"]
    response = ann.client.post(
        ann.path + "/commands",
        json.dumps({"version": version, "command": {"type": "set_aside", "cards": []}}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert error_of(response)["code"] == "idempotency_key_missing"


def test_a_key_sent_again_with_another_move_is_refused():
    _game, seats = api_game()
    ben = seats[1]  # a merchant (seat 0 is the Sheriff, who has no market turn)
    version = ben.get().json()["version"]
    first = ben.command({"type": "set_aside", "cards": []}, version, key="same")
    assert first.status_code == 200 and not first.json()["repeated"]
    again = ben.command({"type": "set_aside", "cards": []}, version, key="same")
    assert again.status_code == 200 and again.json()["repeated"]
    hand = ben.get().json()["view"]["me"]["hand"]
    other = ben.command({"type": "set_aside", "cards": [hand[0]["id"]]}, version, key="same")
    assert other.status_code == 409
    assert error_of(other)["code"] == "idempotency_key_reused"


def test_the_view_holds_what_the_page_shows_beside_the_table():
    _game, seats = api_game()
    type(seats[2].seat).objects.filter(pk=seats[2].seat.pk).update(
        away_from="2026-12-01", away_until="2026-12-03"
    )
    view = seats[0].get().json()
    assert view["away"] == [{"seat": 2, "first_day": "2026-12-01", "last_day": "2026-12-03"}]
    assert view["record_opened"] == []
    assert view["after_game"] is None  # nothing of the reveal while the game is played
    assert view["names"] == ["Ann", "Ben", "Cid", "Dee"]
