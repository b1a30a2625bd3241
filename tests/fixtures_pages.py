"""Helpers for the seat page tests: start a game, open a seat's
page, read its forms as a browser would, and post one."""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlparse

from games import links, services
from games.models import Game, Seat

NAMES = ("Ann", "Ben", "Cid", "Dee")
SEED = "ab" * 32


def start_game(edition: int = 2, players=NAMES, **config) -> Game:
    return services.create_game(
        name="Pages test",
        players=[services.PlayerSpec(n, f"{n.lower()}@example.org") for n in players],
        config={"edition": edition, **config},
        seed=SEED,
    )


def path_of(seat: Seat) -> str:
    return urlparse(links.seat_url(seat)).path


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


@dataclass
class Form:
    fields: list = field(default_factory=list)  # (name, value, type, checked)
    options: dict = field(default_factory=dict)  # select name -> [option values]

    def value(self, name: str):
        return next((v for n, v, _, _ in self.fields if n == name), None)

    def ticked(self, name: str) -> list:
        """Values of the checked boxes or radios called ``name``."""
        return [v for n, v, _, checked in self.fields if n == name and checked]

    @property
    def move(self) -> str:
        return self.value("move")

    def values(self, name: str) -> list:
        return [v for n, v, _, _ in self.fields if n == name]

    def hidden(self) -> dict:
        return {n: v for n, v, t, _ in self.fields if t == "hidden"}


class FormReader(HTMLParser):
    """Every <form> of a page with its inputs, textareas' text, and selects' options
    (a select's value is its selected option, "" when none is)."""

    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.textarea: int | None = None  # index of the textarea being read

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = Form()
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag in ("input", "textarea"):
            kind = a.get("type", "text") if tag == "input" else "textarea"
            self.current.fields.append((a.get("name"), a.get("value", ""), kind, "checked" in a))
            if tag == "textarea":
                self.textarea = len(self.current.fields) - 1
        elif tag == "select":
            self.select = a.get("name")
            self.current.fields.append((self.select, "", "select", False))
            self.current.options[self.select] = []
        elif tag == "option" and self.select:
            self.current.options[self.select].append(a.get("value", ""))
            if "selected" in a:
                self.current.fields[-1] = (self.select, a.get("value", ""), "select", True)

    def handle_data(self, data):
        if self.current is not None and self.textarea is not None:
            name, text, kind, checked = self.current.fields[self.textarea]
            self.current.fields[self.textarea] = (name, text + data, kind, checked)

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def forms_of(html: str) -> list[Form]:
    reader = FormReader()
    reader.feed(html)
    return reader.forms


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
