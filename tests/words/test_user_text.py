"""Text players typed (names, promises) as the other players read it: on one
line, so it cannot add lines to an email (a fake link, say), and isolated, so a
right-to-left override cannot turn the rest of a line around; whatever was stored."""

import re

import pytest
from django.test import Client

from games.core import controls, game_setup, moves
from games.mail import emails
from games.models import Game
from games.words.narrate import Narrator
from games.words.user_text import FSI, PDI, isolate, one_line
from tests.support.fixtures_pages import path_of

RLO = "\u202e"  # right-to-left override
FORGED = "Trust me.\n\nOpen your table: http://evil.example/"
ANN, MALLORY, CID = 0, 1, 2  # Ann is the first Sheriff


# --- the helper -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("Trust me.\r\n\r\nOpen", "Trust me. Open"),
        ("a\tb\u2028c\x85d  e", "a b c d e"),
        (f"Mal{RLO}lory\u200f\u2066", "Mallory"),
        ("bell\x07 and\x00 nul", "bell and nul"),
        ("  Ann  ", "Ann"),
    ],
)
def test_user_text_is_one_line_without_controls(stored, shown):
    assert one_line(stored) == shown


def test_text_that_could_turn_a_line_around_is_isolated_once():
    assert isolate(f"{RLO}Mallory") == f"{FSI}Mallory{PDI}"
    assert isolate("שרה") == f"{FSI}שרה{PDI}"
    assert isolate(isolate("שרה")) == isolate("שרה")
    assert isolate("Ann") == "Ann"  # left-to-right text cannot move


def test_the_log_isolates_a_stored_name_and_promise():
    narrator = Narrator(["Ann", f"{RLO}Mallory", "Cid"], CID, piles=1)
    line = narrator.line({"type": "no_offer_said", "seat": MALLORY})
    assert line == f"{FSI}Mallory{PDI} has no offer to make."
    terms = {"gold": 1, "stand_goods": [], "bag_goods": {}, "promise": FORGED, "sheriff": []}
    offer = {"id": 1, "proposer": MALLORY, "recipient": ANN, "payer": MALLORY, "terms": terms}
    text = narrator.line({"type": "offer_made", "offer": offer})
    assert "\n" not in text and "Trust me. Open your table: http://evil.example/" in text


# --- pages and emails -----------------------------------------------------------------------


def game_in_inspection() -> Game:
    """Ann, Mallory (whose stored name carries a right-to-left override) and Cid,
    with every bag closed; Mallory has offered the Sheriff a forged promise."""
    names = ["Ann", f"{RLO}Mallory", "Cid"]
    game = game_setup.create_game(
        name="Forgeries",
        players=[game_setup.PlayerSpec(n, f"p{i}@example.org") for i, n in enumerate(names)],
        config={"edition": 2},
        seed="e1" * 32,
    )
    while game.engine_state().phase.kind != "inspection":
        controls.advance_now(game.pk, expected_version=game.version)
        game = Game.objects.get(pk=game.pk)
    terms = {"gold": 1, "promise": FORGED, "sheriff": [{"bag": MALLORY, "action": "pass"}]}
    command = {"type": "make_offer", "to": ANN, "terms": terms}
    since = game.engine_state().phase.since
    outcome = moves.submit(game.seats.get(index=MALLORY), command, version=since, key="o")
    assert outcome.accepted, outcome.message
    return Game.objects.get(pk=game.pk)


def cid_email(game: Game) -> dict:
    cid = game.seats.get(index=CID)
    cid.notified_seq = 0  # the whole log
    return emails.render(game, cid, game.engine_state(), "your_move")


@pytest.mark.django_db
def test_a_promise_cannot_add_a_line_to_the_other_players_text_email():
    text = cid_email(game_in_inspection())["text"]
    assert not any(line.startswith("Open your table: http://evil") for line in text.splitlines())
    offer = next(line for line in text.splitlines() if "Offer #1" in line)
    assert "“Trust me. Open your table: http://evil.example/”" in offer


@pytest.mark.django_db
def test_a_name_with_a_right_to_left_override_is_isolated_in_the_email():
    mail = cid_email(game_in_inspection())
    for body in (mail["text"], mail["html"]):
        assert RLO not in body
    assert f"- {FSI}Mallory{PDI}: " in mail["text"]  # the table
    assert f"{FSI}Mallory{PDI} offers" in mail["text"]  # the log
    assert "<strong><bdi>Mallory</bdi></strong>" in mail["html"]
    assert "<bdi>Mallory</bdi> offers" in mail["html"]
    assert FSI not in mail["html"]  # each isolate became a <bdi>


@pytest.mark.django_db
def test_a_name_and_a_promise_are_isolated_on_the_other_players_page():
    game = game_in_inspection()
    html = Client().get(path_of(game.seats.get(index=CID))).content.decode()
    assert RLO not in html and FSI not in html
    assert "<strong><bdi>Mallory</bdi></strong>" in html  # the table
    assert "<bdi>Mallory</bdi> offers" in html  # the log
    promise = re.search(r"<blockquote>(.*?)</blockquote>", html, re.S).group(1)
    assert promise == "“<bdi>Trust me. Open your table: http://evil.example/</bdi>”"


# --- names that would read as another's --------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        *("An\u200bn", "Ann\u2060", "\ufeffAnn", "An\u00adn", "A\U000e0041nn", "\u200b"),
        # Default_Ignorable_Code_Point that is not a format character, and the
        # braille blank: each displays as nothing after "Ann".
        *("Ann\u3164", "Ann\uffa0", "Ann\u115f", "Ann\u1160", "Ann\u034f", "Ann\u2800"),
        *("Ann\ufe0f", "\u3164", "Ann\u180b", "Ann\U000e0100"),
    ],
)
def test_a_name_with_an_invisible_character_is_refused(name):
    with pytest.raises(ValueError, match="one line of plain text"):
        game_setup.player_name(name)


@pytest.mark.parametrize(
    "name", ["👩\u200d👩\u200d👧", "می\u200cخواهم", "José", "李小龙", "Ann ❤\ufe0f", "이수민"]
)
def test_the_joiners_that_scripts_and_emoji_need_are_kept(name):
    assert game_setup.player_name(name) == name


@pytest.mark.parametrize("twin", ["ann", "ANN", "Ａｎｎ", "Ann\u200d", "A\u00a0nn", "A  nn"])
@pytest.mark.django_db
def test_two_players_who_would_read_as_one_are_refused(twin):
    first = "A nn" if " " in twin.replace("\u00a0", " ") else "Ann"
    players = [
        game_setup.PlayerSpec(n, f"p{i}@example.org") for i, n in enumerate([first, "Bob", twin])
    ]
    with pytest.raises(ValueError, match="the same name"):
        game_setup.create_game(name="Twins", players=players, config={"edition": 2})
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_replacement_cannot_take_the_name_of_another_seat():
    players = [game_setup.PlayerSpec(n, f"{n}@example.org") for n in ("Ann", "Bob", "Cid")]
    game = game_setup.create_game(name="Seats", players=players, config={"edition": 2})
    seat = game.seats.get(index=2)
    with pytest.raises(ValueError, match="the same name"):
        controls.replace_player(
            seat.pk, expected_version=game.version, name="BOB", email="eve@example.org"
        )
    kept = controls.replace_player(
        seat.pk, expected_version=game.version, name="Cid", email="cid2@example.org"
    )
    assert kept.name == "Cid"  # a seat's own name may stay


def test_a_right_to_left_game_name_is_isolated_in_the_subject():
    assert Game(name="שלום עליכם").subject == f"Sheriff of Nottingham: {FSI}שלום עליכם{PDI}"
    assert Game(name="Friday table").subject == "Sheriff of Nottingham: Friday table"
