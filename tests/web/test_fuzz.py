"""Any input gets a clear answer, never a 500.

Every seat form a page offers is posted with fields renamed, added or filled
with odd values: digits that are not ASCII, thousands of digits, NUL and other
control characters, very long text, made-up field names. The page must answer
below 500, and a refused move must change nothing. The admin's new-game form
gets the same treatment with names, player lines and addresses.

The checks run before the database (which, on PostgreSQL, refuses NUL): SQLite
taking a value proves nothing here.
"""

import json
from urllib.parse import urlencode

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import moves, timers
from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_TYPES
from games.models import Game, GameEvent, Submission
from games.words.typed_text import unfit_for_a_name
from tests.support.builders import rig
from tests.support.fixtures_pages import (
    decide_buttons,
    form_for,
    forms_of,
    fresh,
    path_of,
    start_game,
)

pytestmark = pytest.mark.django_db

FAST = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Every field games/web/forms.py and games/present/move_fields.py read.
READ = [
    "move",
    "version",
    "key",
    "cards",
    "declared",
    "promise",
    "gold",
    "pile",
    "order",
    "offer",
    "revision",
    "to",
    "top",
    "bag",
    "confirm",
    "stand_goods",
    "from_pile_0",
    "from_pile_1",
    "kind",
    "joint",
    *(f"bag_{name}" for name in CARD_TYPES),
    *(f"{prefix}_{n}" for prefix in ("action", "pile") for n in range(6)),
]
PREFIXES = ("action_", "pile_", "bag_", "from_pile_")
ODD_DIGITS = ["\u00b2", "\u0661", "\u06f3", "\uff11", "\u0967", "\U0001d7d9", "1\u00b2", "\u2460"]

numbers = st.integers(-3, 10**7).map(str)
huge_numbers = st.integers(4000, 6000).map(lambda n: "9" * n)
controls = st.text(st.characters(categories=["Cc"]), min_size=1, max_size=3)
long_text = st.integers(1000, 20000).map(lambda n: "x" * n)
odd_values = st.one_of(
    numbers,
    huge_numbers,
    st.sampled_from(ODD_DIGITS),
    st.builds(lambda a, b: a + b, numbers, controls),
    controls,
    long_text,
    st.text(max_size=30),
    st.sampled_from(["", " ", "pass", "inspect", "yes", "apples", "make_offer", "-0", "1_0"]),
)
field_names = st.one_of(
    st.sampled_from(READ),
    st.builds(lambda p, s: p + s, st.sampled_from(PREFIXES), st.text(max_size=12)),
    st.builds(lambda p, s: p + s, st.sampled_from(PREFIXES), st.sampled_from(ODD_DIGITS)),
    st.builds(lambda p, s: p + s, st.sampled_from(PREFIXES), huge_numbers),
    st.text(max_size=12),
)


def as_browser_sends(form, data) -> list:
    """The form's fields as a browser could send them: hidden and typed fields as
    shown, a choice of the boxes ticked and of each select's options."""
    pairs = []
    for name, value, kind, _ in form.fields:
        if name is None:
            continue
        if kind in ("checkbox", "radio"):
            if data.draw(st.booleans()):
                pairs.append((name, value))
        elif kind == "select":
            pairs.append((name, data.draw(st.sampled_from(form.options[name] or [""]))))
        elif name != "csrfmiddlewaretoken":
            pairs.append((name, value))
    return pairs


def tampered(pairs: list, data) -> list:
    """Up to three fields replaced or added, with odd names or values."""
    pairs = list(pairs)
    for _ in range(data.draw(st.integers(1, 3))):
        name = data.draw(st.one_of(st.sampled_from([n for n, _ in pairs] or READ), field_names))
        value = data.draw(odd_values)
        if data.draw(st.booleans()):
            pairs = [(n, v) for n, v in pairs if n != name]
        pairs.append((name, value))
    return pairs


MOVES_CONFIRMED = ("pass_bag", "inspect_bag")


def seat_forms(client, game) -> list:
    """(path, form) for every move any seat's page offers now, the Sheriff's
    confirmation forms (pass or inspect a bag) included."""
    found = []
    for seat in fresh(game).seats.all():
        path = path_of(seat)
        html = client.get(path).content.decode()
        found += [(path, form) for form in forms_of(html) if form.move]
        for button in decide_buttons(html):
            page = client.get(path, button.hidden()).content.decode()
            found += [(path, form) for form in forms_of(page) if form.move in MOVES_CONFIRMED]
    return found


def record(game) -> tuple:
    game = fresh(game)
    accepted = Submission.objects.filter(game=game).count()
    return game.version, game.state, GameEvent.objects.filter(game=game).count(), accepted


def postgres_takes(*texts: str) -> bool:
    """No NUL, which PostgreSQL refuses in text and in jsonb (where JSON writes it
    \\u0000): SQLite stores it, so the tests look for it themselves."""
    return not any("\x00" in text or "\\u0000" in text for text in texts)


def stored_submissions_fit(game) -> bool:
    rows = Submission.objects.filter(game=game).values_list("key", "command")
    return all(postgres_takes(key, json.dumps(command)) for key, command in rows)


def post_raw(client, path: str, pairs: list):
    """Any names and values, sent as they are (urlencoded: no multipart quoting)."""
    body = urlencode(pairs)
    return client.post(path, body, content_type="application/x-www-form-urlencoded")


def check_post(client, game, path: str, pairs: list) -> None:
    before = record(game)
    response = post_raw(client, path, pairs)
    assert response.status_code < 500
    assert stored_submissions_fit(game)
    after = record(game)
    if after[3] == before[3]:  # no move accepted: nothing changed
        assert after == before
    else:
        assert after[3] == before[3] + 1 and after[0] > before[0]
    if response.status_code == 200:  # refused, and the page says why
        said = [m for m in response.context["messages"] if m.level_tag == "error"]
        assert said and after == before


def fuzz_seat_forms(client, table, data) -> None:
    """One tampered post; rolled back after, so every example starts from the same
    table (and may send the same one-time key again)."""
    game, forms = table
    with transaction.atomic():
        path, form = data.draw(st.sampled_from(forms), label="form")
        check_post(client, game, path, tampered(as_browser_sends(form, data), data))
        transaction.set_rollback(True)


def play_to_inspection(client, game) -> None:
    """Market and loading through the forms; then Ben offers and Cid says no offer,
    so the pages hold offers, demands, revisions, acceptances and decisions."""
    for move in ("set_aside", "load_bag"):
        for index in (1, 2, 3):
            path = path_of(game.seats.get(index=index))
            form = form_for(client.get(path).content.decode(), move)
            extra = {"cards": form.values("cards")[:2], "declared": "apples"}
            client.post(path, {**form.hidden(), **(extra if move == "load_bag" else {})})
    ben = path_of(game.seats.get(index=1))
    offer = form_for(client.get(ben).content.decode(), "make_offer")
    client.post(ben, {**offer.hidden(), "gold": "1", "action_1": "pass"})
    cid = path_of(game.seats.get(index=2))
    client.post(cid, form_for(client.get(cid).content.decode(), "say_no_offer").hidden())
    assert fresh(game).engine_state().phase.offers


def table(client, game) -> tuple:
    """The game and the forms its pages offer, read once: each example is rolled back."""
    return game, seat_forms(client, game)


@pytest.fixture
def market(db, client):
    return table(client, start_game())


@pytest.fixture
def market_turn(db, client):
    return table(client, start_game(edition=1))


@pytest.fixture
def inspection(db, client):
    game = start_game()
    play_to_inspection(client, game)
    return table(client, game)


@pytest.fixture
def deputies_and_black_market(db, client):
    """Six players with the Black Market, in the inspection: a merchant's offer to
    both Deputies, another merchant's bag passed, with three Silk on their stand,
    so the pages hold joint offers and demands, calls and the claim form."""
    game = start_game(players=("Ann", "Ben", "Cid", "Dee", "Eve", "Fay"), black_market=True)
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    state = fresh(game).engine_state()
    first, second = state.deputies
    payer, other = state.merchants()[:2]
    Game.objects.filter(pk=game.pk).update(
        state=rig(state, f"stand:{payer}", ["silk"] * 3).to_dict()
    )
    for seat, command in (
        (payer, {"type": "make_offer", "to": "deputies", "terms": deal(payer)}),
        (first, {"type": "make_offer", "to": other, "joint": True, "terms": deal(other)}),
        (payer, {"type": "make_offer", "to": first, "terms": deal(payer, gold=2)}),
        (first, {"type": "accept_offer", "offer": 3, "revision": 1}),
        (second, {"type": "pass_bag", "bag": payer}),
        *((merchant, {"type": "say_no_offer"}) for merchant in state.merchants()[1:]),
    ):
        game = fresh(game)
        since = game.engine_state().phase.since  # the phase a page would show
        outcome = moves.submit(
            game.seats.get(index=seat), command, version=since, key=f"k{game.version}"
        )
        assert outcome.accepted, outcome.message
    return table(client, game)


def deal(bag: int, gold: int = 1) -> dict:
    return {"gold": gold, "sheriff": [{"bag": bag, "action": "pass"}]}


@FAST
@given(data=st.data())
def test_any_post_to_a_deputy_or_black_market_form_gets_an_answer(
    client, deputies_and_black_market, data
):
    moves = {form.move for _, form in deputies_and_black_market[1]}
    assert {"make_offer", "accept_offer", "pass_bag", "claim_black_market"} <= moves
    fuzz_seat_forms(client, deputies_and_black_market, data)


@FAST
@given(data=st.data())
def test_any_post_to_a_market_form_gets_an_answer_and_a_refusal_changes_nothing(
    client, market, data
):
    fuzz_seat_forms(client, market, data)


@FAST
@given(data=st.data())
def test_any_post_to_a_first_edition_market_turn_gets_an_answer(client, market_turn, data):
    fuzz_seat_forms(client, market_turn, data)


@FAST
@given(data=st.data())
def test_any_post_to_an_offer_or_decision_form_gets_an_answer(client, inspection, data):
    moves = {form.move for _, form in inspection[1]}
    assert {"make_offer", "revise_offer", "accept_offer", "inspect_bag", "pass_bag"} <= moves
    fuzz_seat_forms(client, inspection, data)


# --- the organizer's new-game form ---------------------------------------------------------

ZONES = ["", " Europe/Paris", " Mars/Base", " ../etc", " UTC\x00"]
names = st.one_of(
    st.sampled_from(["Ann", "you", "YOU", "Ann Lee", "A" * 60, "A" * 61, "Ann\u202e", "\u2066B"]),
    st.text(max_size=70),
    st.builds(lambda a, b: a + b, st.text(max_size=10), controls),
)
addresses = st.one_of(
    st.sampled_from(["ann@example.org", "ann@example", "a b@example.org", "@example.org", ""]),
    st.builds(lambda a: a + "@example.org", st.text(max_size=20)),
    st.builds(lambda a: "a" * a + "@example.org", st.integers(240, 320)),
)


@st.composite
def player_lines(draw) -> str:
    lines = []
    for number in range(draw(st.integers(2, 7))):
        name = draw(names) if draw(st.booleans()) else f"P{number}"
        address = draw(addresses) if draw(st.booleans()) else f"p{number}@example.org"
        lines.append(f"{name} <{address}>{draw(st.sampled_from(ZONES))}")
    return draw(st.sampled_from(["\n", "\r\n", "\u2028"])).join(lines)


separators = st.sampled_from([",", ", ", " ", "/"])
pile_values = st.one_of(
    st.just(""),
    st.builds(
        lambda a, b, sep: f"{a}{sep}{b}", st.integers(1, 999), st.integers(1, 999), separators
    ),
    st.builds(lambda a, b, sep: f"{a}{sep}{b}", numbers, numbers, separators),
    odd_values,
)
# The Black Market: the box ticked or not, each pile blank, plausible or odd.
black_market_fields = st.fixed_dictionaries(
    {},
    optional={
        "black_market": st.sampled_from(["on", "", "off", "\x00"]),
        **{f"black_market_{kind}": pile_values for kind in BLACK_MARKET_TYPES},
        "black_market_minutes": st.one_of(st.integers(0, 999).map(str), odd_values),
    },
)


@FAST
@given(
    name=st.one_of(names, st.just("Friday")),
    organizer_email=st.one_of(addresses, st.just("org@example.org")),
    players=player_lines(),
    edition=st.one_of(st.sampled_from(["2", "1"]), odd_values),
    black_market=black_market_fields,
)
def test_any_new_game_form_gets_an_answer_and_a_refused_one_creates_nothing(
    organizer, name, organizer_email, players, edition, black_market
):
    form = {"edition": edition, "first_sheriff": "1", "seed": "", "deadline_mode": "none"}
    form.update(name=name, organizer_email=organizer_email, players=players, **black_market)
    games = Game.objects.count()
    response = post_raw(organizer, reverse("admin:games_game_add"), list(form.items()))
    assert response.status_code < 500
    if response.status_code == 302:
        assert Game.objects.count() == games + 1
        game = Game.objects.latest("pk")
        assert fits_postgres_and_mail(game)
        assert game.engine_config.edition == 2 or not game.engine_config.black_market
    else:
        assert Game.objects.count() == games


@FAST
@given(
    count=st.integers(3, 7),
    edition=st.sampled_from(["2", "2", "1"]),  # odd editions: the test above
    black_market=black_market_fields,
)
def test_any_table_size_or_black_market_gets_an_answer_and_a_refused_one_creates_nothing(
    organizer, count, edition, black_market
):
    """Good player lines, so that the options themselves are what is judged."""
    players = "\n".join(f"P{number} <p{number}@example.org>" for number in range(count))
    form = {"name": "Friday", "players": players, "edition": edition, "first_sheriff": "1"}
    form.update(seed="", deadline_mode="none", **black_market)
    games = Game.objects.count()
    response = post_raw(organizer, reverse("admin:games_game_add"), list(form.items()))
    assert response.status_code < 500
    if response.status_code != 302:
        assert Game.objects.count() == games
        return
    config = Game.objects.latest("pk").engine_config
    assert (config.players, config.edition) == (count, int(edition))
    # A checkbox is ticked by any value but "" and "false", as browsers send "on".
    assert config.black_market == (black_market.get("black_market", "") not in ("", "false"))
    piles = [black_market.get(f"black_market_{kind}", "").strip() for kind in BLACK_MARKET_TYPES]
    assert config.black_market_provisional == (not any(piles))


def fits_postgres_and_mail(game) -> bool:
    """What was stored fits its column and an email header (checked here: SQLite
    neither refuses a long varchar nor a NUL)."""
    seats = list(game.seats.all())
    return (
        len(game.name) <= 100
        and not unfit_for_a_name(game.name)
        and all(len(seat.name) <= 60 and not unfit_for_a_name(seat.name) for seat in seats)
        and all(seat.name.casefold() != "you" for seat in seats)
        and all(len(seat.email) <= 254 and "\x00" not in seat.email for seat in seats)
    )
