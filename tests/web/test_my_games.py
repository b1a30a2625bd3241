"""My games: every game the signed-in person plays or organizes on one page, the
games that need them first; nothing another seat hides, nobody else's games; a
fixed number of statements; signed out, to the sign-in and back; and the seat
page's "next game waiting for you" after a move."""

import random
import re
from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.urls import NoReverseMatch
from django.utils import timezone

from games.core import links
from games.engine.invariants import hidden_perturbation
from games.models import Game, Invitation, Person
from games.present import my_games
from tests.support.fixtures_pages import forms_of, link_stem
from tests.support.mailplay import deliver_pending, inbox
from tests.support.person_games import (
    PAT,
    cancelled,
    fresh,
    market_move,
    new_game,
    pats_seat,
    paused,
    played_out,
    random_games,
    signed_in,
)

pytestmark = pytest.mark.django_db

ORIGIN = {"HTTP_ORIGIN": "http://testserver"}
MERCHANT = 1  # seat 0 is the first Sheriff, who has no market move


def page(client) -> str:
    response = client.get("/my/")
    assert response.status_code == 200
    return response.content.decode()


def rows_of(html: str) -> list:
    """(name, badge) of each row, in the page's order."""
    found = re.findall(
        r'<h3><bdi>([^<]*)</bdi></h3> <span class="badge badge-[\w-]+">([^<]*)</span>', html
    )
    return [(name, badge) for name, badge in found]


def test_signed_out_the_page_sends_to_the_sign_in_and_back_here():
    client = Client()
    response = client.get("/my/")
    assert response.status_code == 302 and response["Location"] == "/sign-in/?next=/my/"
    assert client.get(response["Location"]).status_code == 200
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    deliver_pending()
    code = re.search(r"\b(\d{6})\b", inbox(PAT)[-1].body)[1]
    signed = client.post("/sign-in/code/", {"code": code}, **ORIGIN)
    assert signed.status_code == 302 and signed["Location"] == "/my/"
    assert "You are signed in." in page(client)


@pytest.mark.parametrize(
    "elsewhere",
    ["https://evil.example/", "//evil.example/my/", "/my/\x00", "javascript:x", "/" + "a" * 3000],
)
def test_a_next_to_another_site_is_ignored(elsewhere):
    client = Client()
    assert client.get("/sign-in/", {"next": elsewhere}).status_code == 200
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    deliver_pending()
    code = re.search(r"\b(\d{6})\b", inbox(PAT)[-1].body)[1]
    signed = client.post("/sign-in/code/", {"code": code}, **ORIGIN)
    assert signed.status_code == 302 and signed["Location"] == "/"


def test_the_link_in_the_sign_in_email_comes_back_here_on_the_same_device():
    client = Client()
    client.get("/sign-in/", {"next": "/my/"})
    client.post("/sign-in/", {"email": PAT}, **ORIGIN)
    deliver_pending()
    link = re.search(r"http://testserver(/sign-in/[^/\s]+/)", inbox(PAT)[-1].body)[1]
    assert client.post(link, **ORIGIN)["Location"] == "/my/"


def test_each_situation_has_its_badge_and_line(client):
    mine = new_game("Alpha", seat=MERCHANT)
    moved = new_game("Bravo", seat=MERCHANT)
    market_move(pats_seat(moved))
    stopped = paused(new_game("Charlie", seat=MERCHANT))
    over = played_out(new_game("Delta", seat=MERCHANT))
    gone = cancelled(new_game("Echo", seat=MERCHANT))
    new_game("Foxtrot", seat=None, organizer=PAT)
    html = page(signed_in(client))
    assert rows_of(html) == [
        ("Alpha", "Your move"),
        ("Bravo", "Waiting"),
        ("Charlie", "Paused"),
        ("Foxtrot", "You organize"),
        ("Echo", "Cancelled"),  # the newest over first
        ("Delta", "Finished"),
    ]
    assert "Choose the cards to set aside" in html  # what the move is, as emails say it
    assert "Round 1 of " in html and "Market" in html
    assert "Waiting for: Ben<" in html  # Bravo: the others, by name (Ann is the Sheriff)
    assert "Waiting for: you, Ben" in html  # Alpha: Pat among them
    assert "Paused by the organizer since" in html
    assert "The organizer cancelled this game on" in html
    winners = [s["seat"] for s in fresh(over).engine_state().phase.scores if s["winner"]]
    assert ("You won" in html) == (MERCHANT in winners)
    for game in (mine, moved, stopped, over, gone):
        # Each seat's own signed link (its payload: the signing second may differ).
        assert link_stem(pats_seat(game)) in html
    assert html.count(">Open your table<") == 5  # none for the game Pat only organizes
    assert [f.action for f in forms_of(html)] == ["/my/daily/"]


def test_an_organizer_gets_a_link_to_organize_where_the_site_has_one(client):
    played = new_game("Golf", seat=MERCHANT, organizer=PAT)
    only = new_game("Hotel", seat=None, organizer=PAT.upper())
    html = page(signed_in(client))
    try:
        from django.urls import reverse

        organize = [reverse("games:organize", args=[g.pk]) for g in (played, only)]
    except NoReverseMatch:
        organize = []
        assert "Organize" not in html
    for url in organize:
        assert f'href="{url}"' in html


def test_their_move_by_deadline_first_then_waiting_then_the_newest_over(client):
    soon = new_game("Soon", seat=MERCHANT, deadline_mode="duration", market_minutes=60)
    late = new_game("Late", seat=MERCHANT, deadline_mode="duration", market_minutes=600)
    never = new_game("Never", seat=MERCHANT)
    waiting_late = new_game("W late", seat=0, deadline_mode="duration", market_minutes=900)
    waiting_soon = new_game("W soon", seat=0, deadline_mode="duration", market_minutes=90)
    older = cancelled(new_game("Older", seat=MERCHANT))
    newer = cancelled(new_game("Newer", seat=MERCHANT))
    Game.objects.filter(pk=older.pk).update(finished_at=timezone.now() - timedelta(days=2))
    html = page(signed_in(client))
    order = [name for name, _badge in rows_of(html)]
    assert order == ["Soon", "Late", "Never", "W soon", "W late", "Newer", "Older"]
    assert {soon.pk, late.pk, never.pk, waiting_late.pk, waiting_soon.pk, newer.pk}
    assert "Deadline: " in html and "(Europe/Madrid)" in html  # in Pat's own zone


def test_a_game_over_for_longer_than_its_links_last_is_not_shown(client, settings):
    gone = cancelled(new_game("Long ago", seat=MERCHANT))
    too_old = timezone.now() - timedelta(days=settings.LINK_VALID_DAYS_AFTER_END + 1)
    Game.objects.filter(pk=gone.pk).update(finished_at=too_old)
    assert "Long ago" not in page(signed_in(client))


def test_other_peoples_games_are_never_shown(client):
    new_game("Theirs", seat=None)  # Ann, Ben, Cid: no Pat
    new_game("Organized by Ann", seat=None, organizer="ann@example.org")
    new_game("Mine", seat=MERCHANT)
    html = page(signed_in(client))
    assert [name for name, _ in rows_of(html)] == ["Mine"]
    ann = page(signed_in(Client(), "ann@example.org"))
    assert "Mine" in ann and "Theirs" in ann and "Organized by Ann" in ann
    assert link_stem(pats_seat(fresh(Game.objects.get(name="Mine")))) not in ann


def test_nobody_in_any_game_gets_a_page_that_says_so(client):
    html = page(signed_in(client, "nobody@example.org"))
    assert "No game at this address yet" in html


def test_the_page_reads_in_a_few_statements_for_ten_games(client, django_assert_max_num_queries):
    for n in range(8):
        new_game(f"Game {n}", seat=MERCHANT if n % 2 else 0, deadline_mode="duration")
    new_game("Organized", seat=None, organizer=PAT)
    cancelled(new_game("Cancelled", seat=MERCHANT, organizer=PAT))
    signed_in(client)
    # The session, its user, the person's choices, their seats with their games,
    # the games they organize, the names at those tables; the games they gather
    # (and those games' invitations), their invitations.
    with django_assert_max_num_queries(9) as counted:
        html = page(client)
    assert len(rows_of(html)) == 10, rows_of(html)
    print(f"My games of a person in 10 games: {len(counted)} statements")


def test_the_page_never_shows_what_a_seat_may_not_see():
    """Random games, each rendered from a state differing only in what Pat's seat
    (or, in a game Pat only organizes, the spectator) cannot see: the same page."""
    rnd = random.Random(27)
    made = random_games(rnd, 12)
    client = signed_in(Client())
    real = page(client)
    perturbed = {}
    for game in Game.objects.filter(pk__in=made):
        seat, events = made[game.pk]
        perturbed[game.pk] = hidden_perturbation(game.engine_state(), events, seat, rnd)
    with mock.patch.object(Game, "engine_state", lambda self: perturbed[self.pk].clone()):
        fake = page(client)
    assert len(rows_of(real)) == 12
    assert volatile_out(real) == volatile_out(fake)


def volatile_out(html: str) -> str:
    """Without what differs from one rendering to the next: the CSRF token, a countdown,
    the time a seat's link was signed at (its payload stays)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'(/play/[^:/"]+):[^/"]+/', r"\1/", html)
    return re.sub(r"(Deadline: [^<]*?), [^<]*</p>", r"\1</p>", html)


def test_the_home_page_leads_a_signed_in_person_to_my_games(client):
    assert 'href="/my/"' not in client.get("/").content.decode()
    assert 'href="/my/"' in signed_in(client).get("/").content.decode()


# --- the daily email's settings ----------------------------------------------------------


def test_the_daily_email_is_chosen_and_turned_off_with_a_post(client):
    signed_in(client)
    assert client.get("/my/daily/").status_code == 405
    saved = client.post("/my/daily/", {"daily_hour": "8", "timezone": "Europe/Madrid"}, **ORIGIN)
    assert saved.status_code == 302 and saved["Location"] == "/my/"
    person = Person.objects.get(email=PAT)
    assert (person.daily_hour, person.timezone, person.language) == (8, "Europe/Madrid", "en")
    html = page(client)
    assert "one email a day across all your games, at 08:00 your time" in html
    assert '<option value="8" selected>' in html
    client.post("/my/daily/", {"daily_hour": "", "timezone": "Europe/Madrid"}, **ORIGIN)
    assert Person.objects.get(email=PAT).daily_hour is None
    assert Person.objects.count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {"daily_hour": "24", "timezone": "UTC"},
        {"daily_hour": "8", "timezone": "Mars/Olympus"},
        {"daily_hour": "8", "timezone": "Europe/Madrid\x00"},
        {"daily_hour": "\x00", "timezone": "UTC"},
        {"daily_hour": "8", "timezone": "x" * 10_000},
        {},
    ],
)
def test_a_bad_daily_choice_is_a_clear_400_that_changes_nothing(client, data):
    signed_in(client)
    refused = client.post("/my/daily/", data, **ORIGIN)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'class="msg msg-error"' in html and "Not saved." in html
    assert not Person.objects.exists()


def test_signed_out_the_daily_choice_changes_nothing():
    refused = Client().post("/my/daily/", {"daily_hour": "8", "timezone": "UTC"}, **ORIGIN)
    assert refused.status_code == 302 and refused["Location"].startswith("/sign-in/")
    assert not Person.objects.exists()


# --- the seat page, after a move: the next game waiting -----------------------------------


def test_after_a_move_the_seat_page_links_the_next_game_waiting(client):
    first = new_game("First", seat=MERCHANT, deadline_mode="duration", market_minutes=60)
    later = new_game("Later", seat=MERCHANT, deadline_mode="duration", market_minutes=600)
    sooner = new_game("Sooner", seat=MERCHANT, deadline_mode="duration", market_minutes=120)
    path = links.seat_path(pats_seat(first))
    html = client.get(path).content.decode()
    assert "Next game waiting" not in html
    [form] = [f for f in forms_of(html) if f.move == "set_aside"]
    signed_in(client)
    after = client.post(path, form.hidden(), follow=True).content.decode()
    assert "Your market choice is recorded" in after or "market choice" in after
    assert "Next game waiting for you: <bdi>Sooner</bdi>" in after
    assert link_stem(pats_seat(sooner)) in after
    assert link_stem(pats_seat(later)) not in after
    # Shown once, after the move: the page opened again says nothing of it.
    assert "Next game waiting" not in client.get(path).content.decode()


def test_the_next_game_is_for_the_seats_own_person_only(client):
    game = new_game("First", seat=MERCHANT)
    new_game("Second", seat=MERCHANT)
    path = links.seat_path(pats_seat(game))
    [form] = [f for f in forms_of(client.get(path).content.decode()) if f.move == "set_aside"]
    signed_in(client, "ann@example.org")  # someone else's browser holds Pat's link
    after = client.post(path, form.hidden(), follow=True).content.decode()
    assert "Next game waiting" not in after


def test_no_next_game_when_none_waits(client, django_assert_max_num_queries):
    game = new_game("First", seat=MERCHANT)
    market_move(pats_seat(new_game("Done", seat=MERCHANT)))
    cancelled(new_game("Gone", seat=MERCHANT))
    path = links.seat_path(pats_seat(game))
    [form] = [f for f in forms_of(client.get(path).content.decode()) if f.move == "set_aside"]
    signed_in(client)
    client.post(path, form.hidden())
    # The page's five (the table talk's one, its poll's fingerprint), the session and
    # its user, the person's seats in play.
    with django_assert_max_num_queries(8):
        after = client.get(path).content.decode()
    assert "market choice" in after and "Next game waiting" not in after


def test_the_next_waiting_game_is_the_soonest_due(client):
    here = new_game("Here", seat=MERCHANT)
    new_game("None", seat=MERCHANT)
    due = new_game("Due", seat=MERCHANT, deadline_mode="duration", market_minutes=600)
    found = my_games.next_waiting(PAT, pats_seat(here))
    assert found.label == "Due"
    assert found.url.startswith(link_stem(pats_seat(due)))


def test_the_page_reads_in_the_browsers_language(client):
    new_game("Alpha", seat=MERCHANT, deadline_mode="duration")
    new_game("Bravo", seat=0)
    html = signed_in(client).get("/my/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<h1>Mis partidas</h1>" in html
    assert rows_of(html) == [("Alpha", "Te toca"), ("Bravo", "Esperando")]
    assert "Elige las cartas que apartas" in html and "Ronda 1 de " in html
    assert "Plazo: " in html and "Falta por jugar: tú, Ben" in html
    assert "Your move" not in html and "Waiting" not in html


def test_an_account_with_no_address_is_sent_to_sign_in_by_email(client):
    """An admin's account may have no address: the games with no organizer are not
    its, and it chooses no daily email."""
    new_game("No organizer", seat=MERCHANT)
    signed_in(client, "")
    assert client.get("/my/")["Location"] == "/sign-in/?next=/my/"
    client.post("/my/daily/", {"daily_hour": "8", "timezone": "UTC"}, **ORIGIN)
    assert not Person.objects.exists()
    assert my_games.my_games("").rows == [] and my_games.my_games("  ").rows == []


def test_games_being_gathered_and_invitations_have_their_rows(client):
    from games.core import game_setup, lobbies

    def gathering(organizer: str, name: str, players: int, invitees=()):
        return lobbies.open_lobby(
            organizer_email=organizer,
            organizer_name=organizer.split("@")[0].title(),
            organizer_language="en",
            name=name,
            players=players,
            config={"edition": 2},
            timing={"deadline_mode": "daily", "daily_time": "18:00"},
            invitees=[game_setup.PlayerSpec(n.title(), f"{n}@example.org") for n in invitees],
        )

    mine = gathering(PAT, "Mine to start", 3, ["ann", "bo"])
    for invitation in mine.invitations.exclude(email=PAT):
        lobbies.accept(invitation.pk, name=invitation.name, timezone_name="UTC", language="en")
    gathering(PAT, "Mine, gathering", 4, ["cy"])
    asked = gathering("zed@example.org", "Zed asks", 4, ["pat"])
    gathering("yan@example.org", "Yan, accepted", 4, ["pat"])
    accepted = Invitation.objects.get(lobby__name="Yan, accepted", email="pat@example.org")
    lobbies.accept(accepted.pk, name="Pat", timezone_name="UTC", language="en")
    gathering("xo@example.org", "Not Pat's", 4, ["ann"])
    signed_in(client)
    html = page(client)
    assert rows_of(html) == [
        ("Mine to start", "Ready to start"),
        ("Zed asks", "Invited"),
        ("Mine, gathering", "Gathering"),
        ("Yan, accepted", "You are in"),
    ]
    assert f"/new/{mine.pk}/" in html and "1 of 4 seats taken" in html
    invitation = asked.invitations.get(email="pat@example.org")
    assert f"/invitation/{invitation.token}/" in html
    assert "One phase a day at 18:00 UTC time, every day" in html
