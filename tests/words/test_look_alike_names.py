"""Names that would read as another player's: compared by Unicode's confusable
skeleton (UTS #39), as written and case-folded, wherever a seat's name is set —
a game's creation (the admin's form, the service), the organizer's replacement of
a player, and a player's own settings. Each refusal names the clash; none is an
error page."""

from urllib.parse import urlparse

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.core import controls, game_setup
from games.core.links import settings_url
from games.models import Game, Seat
from games.words.typed_text import look_alike, skeleton

pytestmark = pytest.mark.django_db

CYRILLIC_ANN = "\u0410nn"  # Cyrillic capital A, then Latin "nn"
# Ánn: Cyrillic capital A with a combining acute accent; there is no precomposed
# Cyrillic letter for it, so NFKC leaves it apart from the Latin "Á".
CYRILLIC_ACCENTED_ANN = "\u0410\u0301nn"
PLAYERS = ("Ann", "Ben", "Cid")


def create(names) -> Game:
    players = [game_setup.PlayerSpec(n, f"p{i}@example.org") for i, n in enumerate(names)]
    return game_setup.create_game(name="Look-alikes", players=players, config={"edition": 2})


# --- the comparison ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", CYRILLIC_ANN),
        ("\u00c1nn", CYRILLIC_ACCENTED_ANN),  # Latin "Ánn" and the Cyrillic one
        ("\u00c1nn", "A\u0301nn"),  # precomposed and combining accent
        ("ANN", "\u0391\u039d\u039d"),  # Greek capitals Alpha, Nu, Nu
        ("Ian", "lan"),  # capital I and small L
        ("Kim", "Kirn"),  # "rn" and "m"
        ("Ann", "ann"),  # case, as before
        ("Ian", "ian"),
        ("Ann", "\u0391\u039d\u039d"),  # Greek capitals read as "ANN": "Ann" in capitals
        ("Ann", "\uff21\uff4e\uff4e"),  # full-width, as before
    ],
)
def test_look_alikes_are_found(first, second):
    assert look_alike(second, [first]) == first
    assert look_alike(first, [second]) == second


@pytest.mark.parametrize(
    ("first", "second"), [("Ann", "Anne"), ("Ann", "\u00c1nn"), ("Bob", "Rob"), ("Li", "Lu")]
)
def test_names_that_read_differently_are_not_look_alikes(first, second):
    assert look_alike(second, [first]) is None


def test_the_skeleton_is_unicodes():
    """UTS #39: Cyrillic and Greek capitals that look Latin map to Latin; 'm' to 'rn'."""
    assert skeleton(CYRILLIC_ANN) == "Ann"
    assert skeleton("\u0391\u039d\u039d") == "ANN"
    assert skeleton("m") == "rn"


# --- game creation: the service, the admin's add form -------------------------------------


def test_a_game_with_look_alike_players_is_not_created():
    with pytest.raises(ValueError, match="would read as the same name") as refused:
        create(["Ann", "Ben", CYRILLIC_ANN])
    assert "'Ann'" in str(refused.value)
    assert not Game.objects.exists()


def test_the_admin_add_form_names_the_look_alikes(organizer):
    players = f"Ann <ann@example.org>\nBen <ben@example.org>\n{CYRILLIC_ANN} <x@example.org>"
    data = {
        "name": "Friday",
        "organizer_email": "org@example.org",
        "players": players,
        "edition": "2",
        "first_sheriff": "1",
        "seed": "",
    }
    response = organizer.post(reverse("admin:games_game_add"), data)
    assert response.status_code == 200
    assert "would read as the same name" in response.content.decode()
    assert not Game.objects.exists()


# --- the organizer replaces a player -------------------------------------------------------


def test_a_replacement_cannot_take_a_look_alike_of_another_seats_name():
    game = create(PLAYERS)
    seat = game.seats.get(index=2)
    with pytest.raises(ValueError, match="would read as the same name"):
        controls.replace_player(
            seat.pk, expected_version=game.version, name=CYRILLIC_ANN, email="eve@example.org"
        )
    assert Seat.objects.get(pk=seat.pk).name == "Cid"


def replace_in_the_admin(organizer, seat: Seat, name: str):
    """The admin's "replace" control for ``seat``, with ``name`` at eve@example.org."""
    game = seat.game
    data = {
        "action": "replace",
        "version": game.version,
        "seat": seat.pk,
        "name": name,
        "email": "eve@example.org",
        "timezone": "UTC",
    }
    return organizer.post(reverse("admin:games_game_control", args=[game.pk]), data, follow=True)


def test_the_admins_replace_control_says_which_name_it_looks_like(organizer):
    game = create(PLAYERS)
    seat = game.seats.get(index=2)
    response = replace_in_the_admin(organizer, seat, CYRILLIC_ANN)
    assert response.status_code == 200
    [note] = [str(m) for m in get_messages(response.wsgi_request)]
    assert "would read as the same name" in note and "'Ann'" in note
    assert Seat.objects.get(pk=seat.pk).name == "Cid"


# --- a player renames themself ---------------------------------------------------------------


def rename(game, index: int, name: str, language: str = "en"):
    seat = game.seats.get(index=index)
    data = {
        "name": name,
        "timezone": "UTC",
        "language": language,
        "notify": "results",
        "digest_hour": "",
    }
    return Client().post(urlparse(settings_url(seat)).path, data)


@pytest.mark.parametrize("name", [CYRILLIC_ANN, "ANN", "\u0391\u039d\u039d"])
def test_a_player_cannot_rename_themself_to_a_look_alike_of_another(name):
    game = create(PLAYERS)
    before = list(Seat.objects.values())
    response = rename(game, 1, name)
    assert response.status_code == 200
    html = response.content.decode()
    assert "That name reads like “Ann”, another player’s name at this table" in html
    assert list(Seat.objects.values()) == before


def test_the_refusal_is_in_the_players_language():
    game = create(PLAYERS)
    Seat.objects.filter(game=game, index=1).update(language="es")
    html = rename(game, 1, CYRILLIC_ANN, language="es").content.decode()
    assert "Ese nombre se lee como «Ann», el nombre de otro jugador de esta mesa" in html


def test_a_player_may_keep_their_own_name_or_change_its_look():
    game = create(["\u00c1nn", "Ben", "Cid"])
    response = rename(game, 0, "A\u0301nn")  # the same name, with a combining accent
    assert response.status_code in (200, 302)
    assert Seat.objects.get(game=game, index=0).name == "A\u0301nn"


# --- invisible letters, in the seat's and the organizer's name fields -----------------------

INVISIBLE_ANNS = ["Ann\u3164", "Ann\uffa0", "Ann\u115f", "Ann\u034f", "Ann\u2800"]


@pytest.mark.parametrize("name", INVISIBLE_ANNS)
def test_a_name_with_an_invisible_letter_is_refused_in_a_seats_settings(name):
    game = create(["Bob", "Ben", "Cid"])
    before = list(Seat.objects.values())
    html = rename(game, 1, name).content.decode()
    assert "A name is one line of plain text" in html
    assert list(Seat.objects.values()) == before


@pytest.mark.parametrize("name", INVISIBLE_ANNS)
def test_a_name_with_an_invisible_letter_is_refused_as_a_replacement(organizer, name):
    name = name.replace("Ann", "Eve")  # refused for itself, with no twin at the table
    game = create(PLAYERS)
    seat = game.seats.get(index=2)
    replace_in_the_admin(organizer, seat, name)
    assert Seat.objects.get(pk=seat.pk).name == "Cid"
    with pytest.raises(ValueError):
        controls.replace_player(
            seat.pk, expected_version=game.version, name=name, email="eve@example.org"
        )
