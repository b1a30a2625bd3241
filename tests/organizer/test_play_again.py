"""Play again (games.core.rematch, games.organizer.play_again): on the organizer's
page of a finished game, "New game with the same players" starts a game with the
same players, rules and deadlines and a new seed, the first Sheriff moved on one
seat unless unticked; every player is emailed; a form sent twice starts one game;
only the game's organizer may, only once the game is over; bad input changes
nothing; and each player's old page links to their own seat in the new game."""

import re
import threading
from datetime import time
from html import unescape

import pytest
from django.db import connection
from django.utils import timezone

from games.core import game_setup, links, rematch
from games.core.notifications import START
from games.models import Game, OutboxEmail, Person, Seat
from games.present.game_fields import TIMING_FIELDS
from games.web.new_game import TALK_FIELDS
from tests.organizer.organizer_games import finish, fresh
from tests.organizer.organizer_page import html, page_url, post, signed_in

pytestmark = pytest.mark.django_db

ORGANIZER = "org@example.org"
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
ZONES = ("Europe/Madrid", "America/Bogota", "UTC", "Asia/Tokyo", "Europe/Paris", "UTC")
TIMING = {
    "deadline_mode": "daily",
    "daily_time": time(19, 30),
    "deadline_timezone": "Europe/Madrid",
    "skip_weekends": True,
    "reminder_minutes": 90,
    "bargaining_minutes": 45,
    "black_market_minutes": 20,
    "miss_alert_after": 4,
    "abandon_after": 0,
    "away_pauses": False,
    "away_cap_days": 3,
    "advance_early": False,
    "talk": Game.Talk.INSPECTION,
    "talk_private": True,
    "reveal_private": False,
}


def players(count: int) -> list:
    return [
        game_setup.PlayerSpec(
            name, f"{name.lower()}@example.org", ZONES[i], "es" if i % 2 else "en"
        )
        for i, name in enumerate(NAMES[:count])
    ]


def finished_game(count=4, first_sheriff=1, name="Thursday", **config) -> Game:
    config = {"edition": 2, "royal_goods": True, "black_market": True, **config}
    if count != 6:
        config["first_sheriff"] = first_sheriff
    game = game_setup.create_game(
        name=name,
        players=players(count),
        config=config,
        organizer_email=ORGANIZER,
        timing=TIMING,
    )
    return finish(game)


@pytest.fixture
def org():
    return signed_in(ORGANIZER)


def seat_ids(game, *names) -> list:
    seats = Seat.objects.filter(game=game).order_by("index")
    return [seat.pk for seat in seats if not names or seat.name in names]


def play_again(client, game, name="Thursday again", keep=None, rotate=True, **fields):
    data = {"name": name, "keep": seat_ids(game) if keep is None else keep, **fields}
    if rotate:
        data["rotate"] = "1"
    return post(client, game, "play_again", **data)


def seats_of(game) -> list:
    return list(Seat.objects.filter(game=game).order_by("index"))


def section(page: str) -> str:
    """The "Play again" section's text, as a person reads it."""
    found = re.search(r'(?s)<section [^>]*id="play-again">(.*?)</section>', page)
    assert found, "no Play again section"
    text = re.sub(r"(?s)<[^>]+>", " ", re.sub(r"</?bdi>", "", found[1]))
    return unescape(re.sub(r"\s+", " ", text))


# --- the new game --------------------------------------------------------------------------


def test_the_new_game_has_the_same_players_rules_and_deadlines_and_a_new_seed(org):
    old = finished_game(black_market_values={"pepper": [40, 33], "mead": [30, 27], "silk": [9, 8]})
    status, said, response = play_again(org, old, name="  Thursday again ")
    assert status == 302, said
    new = fresh(old).rematch
    assert said == ["“Thursday again” has started: every player was emailed their new link."]
    assert response.request["PATH_INFO"] == page_url(new)  # the new game's own page
    assert new.name == "Thursday again" and new.status == Game.Status.ACTIVE
    assert new.organizer_email == ORGANIZER
    before = [(s.name, s.email, s.timezone, s.language) for s in seats_of(old)]
    assert [(s.name, s.email, s.timezone, s.language) for s in seats_of(new)] == before
    same = {k: v for k, v in old.config.items() if k != "first_sheriff"}
    assert {k: v for k, v in new.config.items() if k != "first_sheriff"} == same
    assert new.config["black_market_values"]["pepper"] == [40, 33]
    for field in (*TIMING_FIELDS, *TALK_FIELDS):
        assert getattr(new, field) == getattr(old, field), field
    assert set(rematch.CARRIED_SETTINGS) == {*TIMING_FIELDS, *TALK_FIELDS, "bot_seconds"}
    assert new.engine_state().seed != fresh(old).engine_state().seed
    assert new.seed_sha256 != old.seed_sha256
    assert new.phase_deadline > timezone.now()  # its own first deadline, from now


def test_every_player_is_owed_the_new_games_first_email_with_their_own_link(org):
    old = finished_game()
    play_again(org, old)
    new = fresh(old).rematch
    owed = OutboxEmail.objects.filter(game=new)
    assert sorted(owed.values_list("to", flat=True)) == sorted(s.email for s in seats_of(old))
    assert set(owed.values_list("kind", flat=True)) == {START}
    assert {email.seat.game_id for email in owed} == {new.pk}


@pytest.mark.parametrize(
    ("count", "old_first", "rotate", "keep", "new_first"),
    [
        (4, 1, True, NAMES[:4], "Cid"),
        (4, 1, False, NAMES[:4], "Ben"),
        (4, 3, True, NAMES[:4], "Ann"),  # clockwise from the last seat: the first
        (3, 2, True, NAMES[:3], "Ann"),
        (5, 1, True, ("Ann", "Ben", "Dee", "Eve"), "Dee"),  # Cid left: the next one
        (5, 1, False, ("Ann", "Cid", "Dee", "Eve"), "Cid"),  # Ben left: the next one
        (5, 4, True, ("Ben", "Cid", "Dee"), "Ben"),
    ],
)
def test_the_first_sheriff_moves_on_one_seat_unless_unticked(
    org, count, old_first, rotate, keep, new_first
):
    old = finished_game(count, first_sheriff=old_first)
    status, said, _ = play_again(org, old, keep=seat_ids(old, *keep), rotate=rotate)
    assert status == 302, said
    new = fresh(old).rematch
    assert [s.name for s in seats_of(new)] == [n for n in NAMES[:count] if n in keep]
    assert seats_of(new)[new.config["first_sheriff"]].name == new_first
    assert new.engine_state().sheriff == new.config["first_sheriff"]


def test_a_six_player_deputies_game_plays_again_without_a_first_sheriff(org):
    old = finished_game(6)
    page = html(org, old)
    assert 'name="rotate"' not in page
    assert "With six players there is no first Sheriff" in section(page)
    status, said, _ = play_again(org, old, rotate=False)
    assert status == 302, said
    new = fresh(old).rematch
    assert new.config["players"] == 6 and new.config["first_sheriff"] == 0
    assert new.engine_config.deputies and len(seats_of(new)) == 6


def test_a_six_player_game_played_again_by_five_has_a_first_sheriff(org):
    old = finished_game(6)
    status, said, _ = play_again(org, old, keep=seat_ids(old, *NAMES[:5]), rotate="1")
    assert status == 302, said
    new = fresh(old).rematch
    assert new.config["players"] == 5 and not new.engine_config.deputies
    assert new.config["first_sheriff"] == 0


# --- once only, and only the organizer's ------------------------------------------------


def test_a_form_sent_twice_starts_one_game(org):
    old = finished_game()
    games = Game.objects.count()
    first = play_again(org, old)
    second = play_again(org, old, name="Another name")
    assert Game.objects.count() == games + 1
    new = fresh(old).rematch
    assert second[0] == 302 and second[1] == [
        "This game was played again already: here is the new game."
    ]
    assert first[2].request["PATH_INFO"] == second[2].request["PATH_INFO"] == page_url(new)
    assert new.name == "Thursday again"
    assert OutboxEmail.objects.filter(game=new).count() == 4  # emailed once


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_presses_at_the_same_instant_start_one_game():
    old = finished_game()
    barrier, results = threading.Barrier(2), []

    def press(name):
        try:
            barrier.wait()
            results.append(rematch.play_again(old.pk, name=name, seat_ids=seat_ids(old)))
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(name,)) for name in ("One", "Two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(result.started for result in results) == [False, True]
    assert len({result.game.pk for result in results}) == 1
    assert Game.objects.count() == 2 and fresh(old).rematch_id == results[0].game.pk
    assert OutboxEmail.objects.filter(game=results[0].game).count() == 4


def test_the_core_starts_one_game_however_often_it_is_asked():
    old = finished_game()
    first = rematch.play_again(old.pk, name="Again", seat_ids=seat_ids(old))
    again = rematch.play_again(old.pk, name="Again", seat_ids=seat_ids(old))
    assert first.started and not again.started and first.game.pk == again.game.pk
    assert Game.objects.filter(rematch__isnull=False).get().pk == old.pk  # one link, old -> new
    assert Game.objects.filter(rematch_of__isnull=False).get().pk == first.game.pk


def test_only_the_games_organizer_may_play_it_again(client):
    old = finished_game()
    games = Game.objects.count()
    data = {"action": "play_again", "version": old.version, "name": "X", "keep": seat_ids(old)}
    response = client.post(f"/organize/{old.pk}/control/", data)
    assert response.status_code == 302 and response["Location"].startswith("/sign-in/")
    for someone in ("ann@example.org", "mallory@example.org"):  # a player is not the organizer
        response = signed_in(someone).post(f"/organize/{old.pk}/control/", data)
        assert response.status_code == 404
    assert Game.objects.count() == games and fresh(old).rematch is None


def test_a_game_in_play_or_cancelled_is_not_played_again(org):
    game = game_setup.create_game(
        name="Thursday", players=players(3), config={"edition": 2}, organizer_email=ORGANIZER
    )
    games = Game.objects.count()
    assert 'id="play-again"' not in html(org, game)
    status, said, _ = play_again(org, game)
    assert status == 409
    assert said == ["This game is still in play: a new one can be started once it is over."]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
    assert 'id="play-again"' not in html(org, game)
    status, said, _ = play_again(org, game)
    assert status == 409 and "was cancelled" in said[0]
    assert Game.objects.count() == games and fresh(game).rematch is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": ""}, "The new game’s name: This field is required. Nothing was done."),
        ({"name": "   "}, "The new game’s name: This field is required. Nothing was done."),
        ({"name": "x" * 101}, "The new game’s name: Ensure this value has at most 100"),
        ({"name": "Two\nlines"}, "A game’s name is one line of plain text"),
        ({"name": "Nul\x00"}, "Null characters are not allowed."),
        ({"keep": ["1\x00"]}, "No such seat in this game; nothing was done."),
        ({"keep": ["Ann"]}, "No such seat in this game; nothing was done."),
        ({"keep": ["99999999999999"]}, "No such seat in this game; nothing was done."),
        ({"keep": []}, "A game has 3 to 6 players: keep at least 3 of them."),
        ({"keep": "two"}, "A game has 3 to 6 players: keep at least 3 of them."),
    ],
)
def test_bad_input_is_said_and_starts_nothing(org, fields, message):
    old = finished_game()
    if fields.get("keep") == "two":
        fields = {"keep": seat_ids(old, "Ann", "Ben")}
    games, emails = Game.objects.count(), OutboxEmail.objects.count()
    status, said, response = play_again(org, old, **fields)
    assert status == 400
    assert len(said) == 1 and message in said[0], said
    assert Game.objects.count() == games and OutboxEmail.objects.count() == emails
    assert fresh(old).rematch is None
    assert 'id="play-again"' in response.content.decode()  # the form again


def test_a_seat_of_another_game_is_no_seat_of_this_one(org):
    old, other = finished_game(), finished_game(name="Other")
    keep = [*seat_ids(old, "Ann", "Ben", "Cid"), seat_ids(other)[3]]
    status, said, _ = play_again(org, old, keep=keep)
    assert status == 400 and said == ["No such seat in this game; nothing was done."]
    assert fresh(old).rematch is None


def test_a_refused_form_comes_back_as_it_was_filled_in(org):
    old = finished_game()
    _, _, response = play_again(org, old, name="Tue\nsday", keep=seat_ids(old, "Ann"), rotate=False)
    page = response.content.decode()
    assert 'value="Tue\nsday"' in page
    ticked = re.findall(r'name="keep" value="(\d+)" checked', page)
    assert ticked == [str(pk) for pk in seat_ids(old, "Ann")]
    assert re.search(r'name="rotate" value="1">', page)  # unticked, as sent


def test_a_player_who_asked_for_no_invitations_is_left_out(org):
    old = finished_game()
    Person.objects.create(email="ben@example.org", no_invitations_at=timezone.now())
    page = html(org, old)
    ben = seat_ids(old, "Ben")[0]
    assert f'name="keep" value="{ben}" disabled' in page
    assert "asked not to receive invitations from this site" in section(page)
    status, said, _ = play_again(org, old)  # a form that ticks them all the same
    assert status == 400 and said == [
        "Ben asked not to receive invitations from this site: untick them."
    ]
    status, said, _ = play_again(org, old, keep=seat_ids(old, "Ann", "Cid", "Dee"))
    assert status == 302, said
    assert [s.name for s in seats_of(fresh(old).rematch)] == ["Ann", "Cid", "Dee"]


# --- the pages after ----------------------------------------------------------------------


def test_the_section_offers_a_numbered_name_and_says_who_starts_as_sheriff(org):
    old = finished_game(first_sheriff=3)
    text = section(html(org, old))
    assert "Dee was this game’s first Sheriff. Ticked, the next player clockwise starts" in text
    assert "as Sheriff: Ann; unticked, Dee again." in text
    assert re.search(r'id="field-rematch-name" [^>]*value="Thursday 2"', html(org, old))
    play_again(org, old, name="Thursday 2")
    new = finish(fresh(old).rematch)
    assert re.search(r'id="field-rematch-name" [^>]*value="Thursday 3"', html(org, new))
    long = finished_game(name="y" * 100)
    assert rematch.default_name(long) == "y" * 98 + " 2"
    assert rematch.default_name(finished_game(name="Class of 1999")) == "Class of 1999 2"


def test_the_old_organizers_page_links_to_the_new_games_page(org):
    old = finished_game()
    play_again(org, old, name="Thursday again")
    new = fresh(old).rematch
    text = section(html(org, old))
    assert "A new game with the same players has started: Thursday again." in text
    assert f'href="{page_url(new)}"' in html(org, old)
    assert 'name="keep"' not in html(org, old)


def seats_linked(page: str, own: Seat) -> set:
    """The seats other than ``own`` whose links the page holds, by id (a link's
    token is signed anew each time, so the seats they stand for are compared)."""
    tokens = re.findall(r"/play/([^\"'/?#\s]+)/", page)
    return {links.read(token).seat for token in tokens} - {own.pk}


def test_each_players_old_page_links_to_their_own_new_seat_only(client, org):
    old = finished_game(5)
    play_again(org, old, keep=seat_ids(old, "Ann", "Ben", "Dee", "Eve"))
    new = {seat.email: seat for seat in seats_of(fresh(old).rematch)}
    for seat in seats_of(old):
        page = client.get(links.seat_path(seat)).content.decode()
        linked = seats_linked(page, seat)
        if seat.email in new:
            assert linked == {new[seat.email].pk}, seat.name  # theirs, and no one else's
            assert 'id="rematch"' in page
            said = {
                "en": "A new game with the same players has started:",
                "es": "Ha empezado una nueva partida con los mismos jugadores:",
            }
            assert said[seat.language] in unescape(page)  # in the reader's language
            landed = client.get(links.seat_path(new[seat.email]))
            assert landed.status_code == 200
            assert landed.context["my_name"] == seat.name
        else:  # Cid does not play again: no note, no link
            assert 'id="rematch"' not in page and linked == set(), seat.name


def test_the_note_finds_the_seat_by_its_address_and_name():
    old = game_setup.create_game(
        name="Shared address",
        players=[
            game_setup.PlayerSpec("Ann", "home@example.org"),
            game_setup.PlayerSpec("Ben", "home@example.org"),
            game_setup.PlayerSpec("Cid", "CID@example.org"),
        ],
        config={"edition": 2},
        organizer_email=ORGANIZER,
    )
    old = finish(old)
    assert rematch.next_seat_for(seats_of(old)[0]) is None  # no new game yet
    new = rematch.play_again(old.pk, name="Again", seat_ids=seat_ids(old)).game
    for before, after in zip(seats_of(fresh(old)), seats_of(new), strict=True):
        assert rematch.next_seat_for(before) == after
    Seat.objects.filter(game=new, name="Cid").update(email="someone.else@example.org")
    assert rematch.next_seat_for(seats_of(fresh(old))[2]) is None  # the seat went to another


def test_a_seat_page_without_a_new_game_reads_nothing_more(client, django_assert_num_queries):
    old = finished_game()
    seat = Seat.objects.select_related("game").get(game=old, index=0)
    with django_assert_num_queries(0):
        assert rematch.note_for(seat) is None
    assert 'id="rematch"' not in client.get(links.seat_path(seat)).content.decode()


def test_the_core_refuses_what_the_form_would_and_creates_nothing():
    old = finished_game()
    games = Game.objects.count()
    with pytest.raises(ValueError, match="The game needs a name"):
        rematch.play_again(old.pk, name=" ", seat_ids=seat_ids(old))
    with pytest.raises(rematch.RematchError, match="keep at least 3") as refused:
        rematch.play_again(old.pk, name="Again", seat_ids=seat_ids(old)[:2])
    assert not refused.value.conflict
    with pytest.raises(rematch.RematchError, match="No such seat"):
        rematch.play_again(old.pk, name="Again", seat_ids=[*seat_ids(old), 0])
    Game.objects.filter(pk=old.pk).update(status=Game.Status.ACTIVE)
    with pytest.raises(rematch.RematchError, match="still in play") as refused:
        rematch.play_again(old.pk, name="Again", seat_ids=seat_ids(old))
    assert refused.value.conflict
    assert Game.objects.count() == games and fresh(old).rematch is None
