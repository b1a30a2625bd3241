"""The organizer who also plays: while a game runs, no admin page a staff user
or a superuser can reach shows anything hidden (the seed, a hand, a closed bag,
the deck's order) or a seat's link, nor lets them find it out by filtering.

Every page of every registered model is fetched (list, change, history, delete,
add), then searched for the game's secrets as the stored state and records
spell them."""

import json
from html import unescape

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from games.core import controls, links
from games.models import Game, GameEvent, OutboxEmail, Seat, Submission
from tests.organizer.organizer_games import advance, fresh, load, new_game, settings_form
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    """A staff user who is not a superuser, with every view permission (and the
    game's change permission, as an organizer needs for the controls)."""
    user = User.objects.create_user("helper", "helper@example.org", "pw", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(codename__startswith="view_"),
        Permission.objects.get(codename="change_game"),
    )
    client.force_login(user)
    return client


@pytest.fixture
def superuser(client):
    client.force_login(User.objects.create_superuser("org", "org@example.org", "pw"))
    return client


def running_game(client) -> Game:
    """A game in its first load phase: Ben's bag is closed (so its contents and
    size are secret), every email so far was sent, a move was recorded, and the
    settings were changed through the admin (a history entry)."""
    game = advance(new_game(edition=2), 1)
    load(game, 1, 2)
    deliver_pending()
    assert client.post(admin_url(game, "change"), settings_form(fresh(game))).status_code == 302
    return fresh(game)


def admin_url(obj, view: str) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{view}", args=[obj.pk])


def secrets_of(game: Game) -> dict:
    """What nobody may read while the game runs, as the stored records spell it."""
    state = fresh(game).state
    zones = state["zones"]
    found = {"the seed": state["seed"], "a seat link": "/play/"}
    for seat in Seat.objects.filter(game=game):
        found[f"seat {seat.index + 1}'s token"] = links.make_token(seat)
    for zone, cards in zones.items():
        if zone.startswith(("hand:", "bag:", "deck")) and cards:
            for spelling in (json.dumps(cards), json.dumps(cards, separators=(",", ":"))):
                found[f"{zone} ({spelling[:12]}…)"] = spelling
    # The stored events, by words only they hold; the emails, by each player's hand.
    found["an event's raw data"] = '"to": "hand:'
    for email in OutboxEmail.objects.filter(game=game).exclude(text=""):
        hands = [line for line in email.text.splitlines() if line.startswith("Hand: ")]
        found.update({f"the hand in {email.to}'s email": hand for hand in hands})
    return found


def admin_pages(game: Game) -> list:
    """Every admin page of every registered model and object, the index pages, and
    the autocomplete answers for every foreign key."""
    urls = [reverse("admin:index"), reverse("admin:password_change")]
    for model in admin.site._registry:
        opts = model._meta
        urls.append(reverse("admin:app_list", args=[opts.app_label]))
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
        for field in opts.get_fields():
            if field.many_to_one and field.concrete:
                query = f"app_label={opts.app_label}&model_name={opts.model_name}"
                urls.append(f"{reverse('admin:autocomplete')}?{query}&field_name={field.name}")
        for obj in model._default_manager.all()[:50]:
            urls += [admin_url(obj, view) for view in ("change", "history", "delete")]
    urls.append(reverse("admin:games_game_open_record", args=[game.pk]))
    return urls


def leaks(client, game: Game, urls, secrets=None) -> list:
    secrets = secrets or secrets_of(game)
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        text = unescape(response.content.decode()) if response.status_code == 200 else ""
        found += [f"{what} on {url}" for what, secret in secrets.items() if secret in text]
    return found


@pytest.mark.parametrize("who", ["staff", "superuser"])
def test_no_admin_page_shows_a_secret_of_a_running_game(request, who):
    client = request.getfixturevalue(who)
    game = running_game(client)
    assert Submission.objects.filter(game=game).exists() and GameEvent.objects.exists()
    assert OutboxEmail.objects.filter(game=game, status="sent").exists()
    urls = admin_pages(game)
    assert len(urls) > 30
    assert any(what.startswith("the hand in") for what in secrets_of(game))
    assert leaks(client, game, urls) == []


# Lookups in a list's address filter the list by what they name: filtering games on
# their stored state would tell, one question at a time, every hand and the seed.
HIDDEN_LOOKUPS = [
    ("game", "state__icontains", "seed"),
    ("game", "thread_token__isnull", "0"),
    ("gameevent", "data__icontains", "hand:1"),
    ("gameevent", "game__state__icontains", "seed"),
    ("outboxemail", "text__icontains", "/play/"),
    ("outboxemail", "html__icontains", "Hand"),
    ("outboxemail", "attachments__icontains", "play"),
    ("submission", "command__icontains", "cards"),
    ("submission", "key__startswith", "load"),
]


@pytest.mark.parametrize("who", ["staff", "superuser"])
@pytest.mark.parametrize(("model", "lookup", "value"), HIDDEN_LOOKUPS)
def test_a_list_cannot_be_filtered_by_hidden_data(request, who, model, lookup, value):
    client = request.getfixturevalue(who)
    running_game(client)
    response = client.get(reverse(f"admin:games_{model}_changelist"), {lookup: value})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("model", "query"),
    [
        ("game", {"status__exact": "active"}),
        ("gameevent", {"what": "bag_loaded"}),
        ("outboxemail", {"status__exact": "sent"}),
        ("submission", {"game__id__exact": "1"}),
        ("gameevent", {"game__id__exact": "1"}),
    ],
)
def test_the_lists_own_filters_still_work(superuser, model, query):
    game = running_game(superuser)
    query = {k: (str(game.pk) if k == "game__id__exact" else v) for k, v in query.items()}
    assert superuser.get(reverse(f"admin:games_{model}_changelist"), query).status_code == 200


@pytest.mark.parametrize("who", ["staff", "superuser"])
def test_once_the_game_is_over_its_record_is_open_but_no_seat_link(request, who):
    """The check above is not empty by accident: once the game is over, the same
    pages give the seed, the events as stored and the emails' text, and still no
    seat's token."""
    client = request.getfixturevalue(who)
    game = running_game(client)
    secrets = secrets_of(game)
    controls.cancel(game.pk, expected_version=game.version)
    found = leaks(client, game, admin_pages(game), secrets)
    for what in ("the seed on", "an event's raw data on", "the hand in"):
        assert any(line.startswith(what) for line in found), what
    assert not [line for line in found if "token" in line]
