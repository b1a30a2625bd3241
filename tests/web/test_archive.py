"""A finished game's archive (games/web/archive.py): the score sheet, awards, reveal,
facts and seed check; the replay a round a step, each with that round's bags, its
log and the table it left; private to the players and the organizer until a player
makes it public by link, and private again; nothing of a game before its end."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.core import after_game, archive, links
from games.models import Game, GameEvent, Seat
from tests.support.fixtures_pages import fresh, path_of, start_game
from tests.support.person_games import PAT, cancelled, new_game, played_out, signed_in
from tests.support.played_games import play_to_the_end

pytestmark = pytest.mark.django_db

STEP_BAG = re.compile(r'class="reveal-bag')
PUBLIC_PATH = re.compile(r"/archive/public/[A-Za-z0-9_-]{32}/")


@pytest.fixture
def finished():
    return play_to_the_end(start_game())


def seat(game, index: int = 1) -> Seat:
    return Seat.objects.get(game=game, index=index)


def archive_of(game, index: int = 1) -> str:
    return path_of(seat(game, index)) + "archive/"


def html_of(response) -> str:
    return unescape(response.content.decode())


def events_of(game) -> list:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("data", flat=True))


# --- what the archive shows --------------------------------------------------------------


def test_the_final_page_leads_to_the_archive_and_it_shows_the_whole_game(client, finished):
    table = path_of(seat(finished))
    final = html_of(client.get(table))
    assert f'href="{table}archive/"' in final
    assert "The game’s archive: replay, reveal and awards" in final
    html = html_of(client.get(archive_of(finished)))
    rounds = finished.engine_state().config.rounds
    for shown in (
        "Final scores",
        "Awards",
        "The reveal",
        "Replay, round by round",
        "Fair shuffles",
    ):
        assert shown in html, shown
    assert (
        "<bdi>Ann</bdi>, <bdi>Ben</bdi>, <bdi>Cid</bdi>, <bdi>Dee</bdi>" in html
        and "2nd edition" in html
        and f"{rounds} rounds" in html
    )
    assert "<strong>matches</strong> the commitment" in html
    assert html.count('class="reveal-round"') == rounds
    for number in range(1, rounds + 1):
        assert f"archive/?round={number}#step" in html
    assert re.search(r'class="score[^"]* me"', html)  # the reader's own score marked


def test_each_round_is_a_step_with_its_bags_its_log_and_the_table_it_left(client, finished):
    story = after_game.told(finished, finished.engine_state())["story"]
    events = events_of(finished)
    page = archive_of(finished)
    for number in (1, 3, 8):
        response = client.get(page, {"round": number})
        assert response.status_code == 200
        html = html_of(response)
        assert f"Round {number} of 8" in html
        bags = [b for b in story["bags"] if b["round"] == number]
        assert len(STEP_BAG.findall(html)) == len(bags) > 0
        assert f"Round {number} begins." in html  # its log, as the table read it
        if number == 1:
            assert "Before the first round" in html and "← Round" not in html
        if number == 8:
            assert "Round 8 →" not in html and "Round 9" not in html
    # The table as round 3 left it: every seat's gold as the replay of its events says.
    starts = [e["seq"] for e in events if e["type"] == "round_started"]
    state = engine.replay(events[: starts[3]])
    html = html_of(client.get(page, {"round": 3}))
    table = html[html.index('id="step-table"') : html.index('id="step-log"')]
    for index, gold in enumerate(state.gold):
        name = ("Ann", "Ben", "Cid", "Dee")[index]
        assert re.search(rf"<bdi>{name}</bdi>.*?{gold} gold", table, re.S), (name, gold)
    assert "Contraband" in table and "In hand" in table
    assert 'rel="prev" href' not in html  # attributes in the order written
    assert f'href="{page}?round=2#step" rel="prev"' in html
    assert f'href="{page}?round=4#step" rel="next"' in html


def test_the_last_step_shows_the_face_down_goods_every_seat_scored(client, finished):
    state = finished.engine_state()
    html = html_of(client.get(archive_of(finished), {"round": 8}))
    table = html[html.index('id="step-table"') : html.index('id="step-log"')]
    smuggled = {
        state.type_of(c)
        for s in range(4)
        for c in state.stand(s)
        if not engine.CARD_TYPES[state.type_of(c)].is_legal
    }
    assert smuggled
    for kind in smuggled:
        assert f"k-{engine.CARD_TYPES[kind].kind}" in table


@pytest.mark.parametrize(
    "asked", ["0", "9", "99", "-1", "x", "\x00", "1\x00", "\uff11", "\u00b2", "9" * 5000, ""]
)
def test_a_round_not_in_the_game_says_so_and_shows_the_archive(client, finished, asked):
    response = client.get(archive_of(finished), {"round": asked})
    assert response.status_code == 404
    html = html_of(response)
    assert "That round is not in this game" in html and "Final scores" in html


def test_a_six_player_game_names_its_deputies_each_round(client):
    game = play_to_the_end(start_game(players=("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")))
    html = html_of(client.get(archive_of(game), {"round": 2}))
    assert "Deputies: " in html and "Deputy" in html and "Sheriff:" not in html
    assert "Deputies (6 players)" in html_of(client.get(archive_of(game)))


def test_a_spanish_player_reads_it_in_spanish(client, finished):
    Seat.objects.filter(game=finished, index=2).update(language="es")
    html = html_of(client.get(archive_of(finished, 2), {"round": 2}))
    assert "Ronda 2 de 8" in html and "La mesa al final de la ronda 2" in html
    overview = html_of(client.get(archive_of(finished, 2)))
    assert "El archivo de la partida" in overview and "Premios" in overview


def test_an_old_link_still_opens_the_archive_and_the_table_leads_there(client, finished, settings):
    ended = timezone.now() - timedelta(days=settings.LINK_VALID_DAYS_AFTER_END + 1)
    Game.objects.filter(pk=finished.pk).update(finished_at=ended)
    table = path_of(seat(finished))
    refused = client.get(table)
    assert refused.status_code == 410
    assert f'href="{table}archive/"' in html_of(refused)
    assert client.get(archive_of(finished)).status_code == 200


def test_a_replaced_players_link_opens_no_archive(client, finished):
    old = archive_of(finished)
    Seat.objects.filter(game=finished, index=1).update(link_version=5)
    assert client.get(old).status_code == 410


# --- who may read it ---------------------------------------------------------------------


def test_signed_in_a_player_or_the_organizer_reads_it_anyone_else_gets_not_found(finished):
    Game.objects.filter(pk=finished.pk).update(organizer_email="Org@Example.org")
    url = reverse("games:archive", args=[finished.pk])
    signed_out = Client().get(url)
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/sign-in/")
    player = signed_in(Client(), "BEN@example.org")
    assert "Make it public by link" in html_of(player.get(url))
    organizer = html_of(signed_in(Client(), "org@example.org").get(url))
    assert "Final scores" in organizer and "Make it public" not in organizer
    stranger = signed_in(Client(), "eve@example.org")
    refused = stranger.get(url)
    missing = stranger.get(reverse("games:archive", args=[finished.pk + 1000]))
    assert refused.status_code == missing.status_code == 404
    assert html_of(refused) == html_of(missing)
    assert stranger.get(f"/archive/{'9' * 30}/").status_code == 404


def test_a_player_makes_it_public_by_link_and_private_again(client, finished):
    page = archive_of(finished)
    assert "Private:" in html_of(client.get(page)) and fresh(finished).archive_token is None
    made = client.post(page + "sharing/", {"sharing": "public"}, follow=True)
    assert "The archive is public" in html_of(made)
    token = fresh(finished).archive_token
    public = reverse("games:public-archive", args=[token])
    assert public in html_of(made)
    client.post(page + "sharing/", {"sharing": "public"})  # sent twice: the same address
    assert fresh(finished).archive_token == token
    stranger = Client()
    shown = html_of(stranger.get(public))
    assert "Final scores" in shown and "The reveal" in shown
    assert "/play/" not in shown and "sharing/" not in shown and "Who can read it" not in shown
    assert stranger.get(public, {"round": 4}).status_code == 200
    other = Client().post(archive_of(finished, 3) + "sharing/", {"sharing": "private"})
    assert other.status_code == 302 and fresh(finished).archive_token is None
    assert stranger.get(public).status_code == 404
    client.post(page + "sharing/", {"sharing": "public"})
    assert fresh(finished).archive_token not in (None, token)


def test_signed_in_players_switch_it_the_organizer_alone_may_not(finished):
    Game.objects.filter(pk=finished.pk).update(organizer_email="org@example.org")
    switch = reverse("games:archive-sharing", args=[finished.pk])
    organizer = signed_in(Client(), "org@example.org").post(switch, {"sharing": "public"})
    assert organizer.status_code == 403 and fresh(finished).archive_token is None
    assert "Only the game's players" in html_of(organizer)
    player = signed_in(Client(), "dee@example.org")
    assert player.post(switch, {"sharing": "public"}).status_code == 302
    assert fresh(finished).archive_token is not None


@pytest.mark.parametrize("sent", [{}, {"sharing": "yes"}, {"sharing": "public\x00"}])
def test_a_switch_sent_wrong_changes_nothing_and_says_why(client, finished, sent):
    response = client.post(archive_of(finished) + "sharing/", sent)
    assert response.status_code == 400 and fresh(finished).archive_token is None
    assert "Nothing was changed" in html_of(response)


def test_looking_changes_nothing(client, finished):
    page = archive_of(finished)
    assert client.get(page + "sharing/").status_code == 405
    client.get(page, {"sharing": "public"})
    assert fresh(finished).archive_token is None


def test_the_switch_without_the_sites_cookie_changes_nothing_and_leads_back(finished):
    browser = Client(enforce_csrf_checks=True)
    page = archive_of(finished)
    response = browser.post(page + "sharing/", {"sharing": "public"})
    assert response.status_code == 403 and fresh(finished).archive_token is None
    said = html_of(response)
    assert "Nothing was changed" in said and f'href="{page}"' in said


@pytest.mark.parametrize(
    "token",
    ["x", "a" * 32, "a" * 31 + "\x00", "%00" * 11, "a" * 33, "é" * 32, "a" * 5000],
)
def test_any_public_address_not_given_out_is_not_found(client, finished, token):
    response = client.get(f"/archive/public/{token}/")
    assert response.status_code == 404
    assert "No archive here" in html_of(response)


@pytest.mark.parametrize("token", ["x", "\x00", "a" * 5000, "eyJnIjoxfQ:\x00:\x00"])
def test_a_seat_link_not_given_out_opens_no_archive_and_switches_nothing(client, finished, token):
    assert client.get(f"/play/{token}/archive/").status_code == 403
    assert client.post(f"/play/{token}/archive/sharing/", {"sharing": "public"}).status_code == 403
    assert fresh(finished).archive_token is None


# --- nothing before the end --------------------------------------------------------------


def test_a_game_in_play_shows_nothing_by_any_way_in(client):
    game = start_game()
    Game.objects.filter(pk=game.pk).update(organizer_email="org@example.org")
    ann = html_of(client.get(archive_of(game, 0)))
    assert "No archive here" in ann and "Ann" not in ann and "Pages test" not in ann
    # Signed in, a player and the organizer get what a game that is not there gives.
    for email in ("ann@example.org", "org@example.org"):
        person = signed_in(Client(), email)
        shown = person.get(reverse("games:archive", args=[game.pk]))
        missing = person.get(reverse("games:archive", args=[game.pk + 1000]))
        assert shown.status_code == missing.status_code == 404
        assert html_of(shown) == html_of(missing)
    # A public token on a game in play (none is ever given) answers as any other.
    Game.objects.filter(pk=game.pk).update(archive_token="b" * 32)
    stranger = Client()
    assert html_of(stranger.get(f"/archive/public/{'b' * 32}/")) == html_of(
        stranger.get(f"/archive/public/{'c' * 32}/")
    )


def test_the_switch_refuses_a_game_in_play_and_a_cancelled_one(client):
    game = start_game()
    response = client.post(archive_of(game, 0) + "sharing/", {"sharing": "public"})
    assert response.status_code == 404 and fresh(game).archive_token is None
    assert archive.share(game.pk, True) is None
    player = signed_in(Client(), "ann@example.org")
    switch = reverse("games:archive-sharing", args=[game.pk])
    assert player.post(switch, {"sharing": "public"}).status_code == 404
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED, finished_at=timezone.now())
    assert client.get(archive_of(game, 0)).status_code == 404
    assert client.post(archive_of(game, 0) + "sharing/", {"sharing": "public"}).status_code == 404
    assert fresh(game).archive_token is None


def test_public_tokens_are_checked_before_any_query(django_assert_num_queries):
    for token in ("a" * 31 + "\x00", "\x00" * 32, "a b" * 11):
        with django_assert_num_queries(0):
            assert archive.public_game(token) is None


def test_the_final_email_leads_to_the_archive(finished):
    from games.mail import emails
    from games.words import i18n

    reader = seat(finished, 0)
    with i18n.as_seat(reader):
        email = emails.render(finished, reader, finished.engine_state(), "game_over")
    path = links.archive_path(reader)
    assert path.split("/play/")[0] == "" and "/archive/" in path
    assert "The game’s archive (replay, reveal and awards): http" in email["text"]
    assert "The game’s archive: replay, reveal and awards" in email["html"]


# --- from My games -----------------------------------------------------------------------


ROW_LINKS = re.compile(r'<a class="button [a-z]+" href="([^"]+)">([^<]+)</a>')


def row_links(client, name: str) -> dict:
    """The links of My games' row of the game ``name``: label -> address."""
    page = html_of(client.get("/my/"))
    row = page[page.index(f"<bdi>{name}</bdi>") :]
    row = row[: row.index("</li>")]
    return {label: url for url, label in ROW_LINKS.findall(row)}


def test_my_games_leads_to_a_finished_games_archive_for_good(settings):
    played = new_game("Played", seat=1)
    organized = new_game("Organized", seat=None, organizer=PAT)
    for game in (played, organized):
        played_out(game)
    pat = signed_in(Client())
    found = row_links(pat, "Played")
    assert set(found) == {"Open your table", "The game's archive"}
    assert pat.get(found["The game's archive"]).status_code == 200
    assert found["The game's archive"].startswith("/play/")  # opens signed out too
    organizer_row = row_links(pat, "Organized")
    assert organizer_row["The game's archive"] == reverse("games:archive", args=[organized.pk])
    assert "Final scores" in html_of(pat.get(organizer_row["The game's archive"]))
    # Long after the end the table's link no longer works, and the row keeps the archive.
    long_ago = timezone.now() - timedelta(days=settings.LINK_VALID_DAYS_AFTER_END + 30)
    Game.objects.filter(pk__in=[played.pk, organized.pk]).update(finished_at=long_ago)
    found = row_links(pat, "Played")
    assert set(found) == {"The game's archive"}
    assert Client().get(found["The game's archive"]).status_code == 200
    assert "The game's archive" in row_links(pat, "Organized")


def test_my_games_gives_a_game_in_play_or_cancelled_no_archive_link():
    new_game("Going on", seat=1)
    stopped = cancelled(new_game("Stopped", seat=1))
    assert stopped.status == Game.Status.CANCELLED
    pat = signed_in(Client())
    assert "The game's archive" not in row_links(pat, "Going on")
    assert "The game's archive" not in row_links(pat, "Stopped")
