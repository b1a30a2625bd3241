"""Helpers for the seat page tests: start a game, open a seat's
page, read its forms as a browser would, and post one."""

from games.core import game_setup, links
from games.devtools.form_reader import Form, FormReader, forms_of  # noqa: F401 (for the tests)
from games.models import Game, Seat

NAMES = ("Ann", "Ben", "Cid", "Dee")
SEED = "ab" * 32


def start_game(edition: int = 2, players=NAMES, **config) -> Game:
    return game_setup.create_game(
        name="Pages test",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in players],
        config={"edition": edition, **config},
        seed=SEED,
    )


def path_of(seat: Seat) -> str:
    return links.seat_path(seat)


def link_stem(seat: Seat) -> str:
    """The seat's page path up to the signing time: what names the seat and its link
    version. A whole signed path carries the second it was made, so a page made a
    second before the test's own ``seat_path`` holds a different one."""
    payload = links.make_token(seat).split(":", 1)[0]
    return links.seat_path(seat).split(payload, 1)[0] + payload + ":"


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def move_forms(html: str) -> list[Form]:
    """The page's move forms, which post back to the page itself (the table talk's
    forms post to their own addresses)."""
    return [f for f in forms_of(html) if not f.action]


def form_for(html: str, move: str) -> Form:
    found = [f for f in forms_of(html) if f.move == move]
    assert found, f"no {move} form on the page"
    return found[0]


def decide_buttons(html: str) -> list[Form]:
    """The Sheriff's "Let pass…" / "Inspect…" forms: GET forms that open the confirmation."""
    return [f for f in forms_of(html) if f.value("decide")]


def card_ids_in_forms(html: str) -> set:
    """Every card id any form on the page names (hand cards, stand goods, top card)."""
    ids = set()
    for form in forms_of(html):
        for name, value, _, _ in form.fields:
            if name in ("cards", "stand_goods"):
                ids.add(int(value))
        for value in form.options.get("top", []):
            if value:
                ids.add(int(value))
    return ids


def post_form(client, path: str, form: Form, **data):
    """Post a form's hidden fields plus ``data``; returns the response after the redirect."""
    payload = {**form.hidden(), **data}
    payload.pop("csrfmiddlewaretoken", None)  # the test client is exempt unless enforced
    return client.post(path, payload, follow=True)


def messages_of(response) -> list:
    return [str(m) for m in response.context["messages"]] if response.context else []
