"""Which pushes a change owes (games.core.pushes, from notifications): the four kinds
each in its situation and only to a device that chose it, beside the emails (which
are written exactly as without any device), to the person of the seat only, none to
bots nor in a practice game, a Topic per seat, and what a move costs in statements."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from games.core import game_setup, links, moves, practice, push_devices, pushes, talk, timers
from games.devtools.bench.inprocess import statements
from games.engine import actions
from games.models import PUSH_KINDS, Game, OutboxEmail, OutboxPush, PushSubscription, Seat
from tests.support.fixtures_pages import NAMES, fresh, start_game
from tests.support.played_games import play_to_the_end
from tests.support.push_service import KEYS

pytestmark = pytest.mark.django_db

EVERYONE = [f"{name.lower()}@example.org" for name in NAMES]


def subscribe(service, email: str, kinds=PUSH_KINDS, language="en"):
    """A device of ``email``'s at the test push service, taking ``kinds``."""
    device = push_devices.read_device(service.new_device().subscription())
    return push_devices.subscribe(email, device, list(kinds), language, "Test")


def rows(game, **filters) -> list:
    return list(OutboxPush.objects.filter(game=game, **filters).order_by("pk"))


def submit(game, index: int, command: dict, key: str):
    seat = game.seats.get(index=index)
    outcome = moves.submit(seat, command, version=fresh(game).engine_state().phase.since, key=key)
    assert outcome.accepted, outcome.message
    return outcome


def to_inspection(game) -> Game:
    """Past the market and the loading, by their deadlines: Ann is the Sheriff."""
    timers.advance(game.pk, force=True)
    timers.advance(game.pk, force=True)
    game = fresh(game)
    assert game.engine_state().phase.kind == "inspection"
    return game


def test_the_start_tells_each_seat_that_must_act_its_move(push_service):
    for email in EVERYONE:
        subscribe(push_service, email)
    game = start_game()  # the 2nd edition's market: every merchant at once, not Ann (Sheriff)
    owed = rows(game)
    assert sorted(push.seat.index for push in owed) == [1, 2, 3]
    assert {push.kind for push in owed} == {pushes.YOUR_MOVE}
    first = start_game(edition=1)  # the 1st edition's market: one merchant at a time
    state = first.engine_state()
    acting = [i for i in range(4) if actions(state)[i]["must_act"]]
    assert len(acting) == 1
    assert [push.seat.index for push in rows(first)] == acting


def test_a_new_phase_and_a_reminder_are_your_move(push_service):
    for email in EVERYONE:
        subscribe(push_service, email)
    game = start_game()
    OutboxPush.objects.all().delete()
    for index in (1, 2, 3):
        submit(game, index, {"type": "set_aside", "cards": []}, f"k{index}")
    loading = rows(game)
    assert loading and {p.kind for p in loading} == {pushes.YOUR_MOVE}
    assert all(":phase" in p.key for p in loading)
    OutboxPush.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(reminder_at=timezone.now())
    assert timers.send_reminders(game.pk) > 0
    reminded = rows(game)
    assert reminded and {p.kind for p in reminded} == {pushes.YOUR_MOVE}
    assert all(":remind" in p.key for p in reminded)


def test_an_offer_and_a_deal_are_a_deal_to_the_seats_they_concern(push_service):
    for email in EVERYONE:
        subscribe(push_service, email)
    game = to_inspection(start_game())
    OutboxPush.objects.all().delete()
    terms = {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]}
    submit(game, 1, {"type": "make_offer", "to": 0, "terms": terms}, "offer")
    (offered,) = rows(game)  # to Ann, the Sheriff, who must answer it
    assert (offered.seat.index, offered.kind) == (0, pushes.DEAL)
    submit(game, 0, {"type": "accept_offer", "offer": 1, "revision": 1}, "deal")
    (struck,) = rows(game, key__contains=":deal")  # to Ben: a deal struck on his offer
    assert (struck.seat.index, struck.kind) == (1, pushes.DEAL)


def test_a_line_of_talk_is_pushed_to_the_seats_it_concerns_and_may_read(push_service, settings):
    settings.TALK_EMAIL_QUIET_SECONDS = 0
    for email in EVERYONE:
        subscribe(push_service, email)
    game = start_game()
    Game.objects.filter(pk=game.pk).update(talk_private=True)
    game = to_inspection(game)  # a line names a seat only in the inspection
    OutboxPush.objects.all().delete()
    seats = {seat.index: seat for seat in game.seats.all()}
    talk.post(seats[1], "A fine morning at the market.", timezone.now())
    assert rows(game) == []  # concerns nobody
    talk.post(seats[1], "Cid, what will you load?", timezone.now())
    (named,) = rows(game)
    assert (named.seat.index, named.kind) == (2, pushes.TALK)
    OutboxPush.objects.all().delete()
    talk.post(seats[2], "Between us, Dee.", timezone.now(), to_index=3)
    (private,) = rows(game)  # Dee's alone: the others may not read it
    assert (private.seat.index, private.kind) == (3, pushes.TALK)


def test_the_end_is_game_over_to_everyone(push_service):
    for email in EVERYONE:
        subscribe(push_service, email)
    game = play_to_the_end(start_game())
    over = rows(game, kind=pushes.GAME_OVER)
    assert sorted(p.seat.index for p in over) == [0, 1, 2, 3]


def test_a_device_gets_only_the_kinds_it_chose(push_service):
    subscribe(push_service, "ann@example.org", kinds=[pushes.GAME_OVER])
    subscribe(push_service, "ben@example.org", kinds=[pushes.YOUR_MOVE, pushes.DEAL])
    game = play_to_the_end(start_game())
    assert {p.kind for p in rows(game, seat__index=0)} == {pushes.GAME_OVER}
    assert {p.kind for p in rows(game, seat__index=1)} == {pushes.YOUR_MOVE, pushes.DEAL}
    assert rows(game, seat__index=2) == []


def test_another_persons_device_never_gets_a_push(push_service):
    subscribe(push_service, "stranger@example.org")
    subscribe(push_service, "ANN@Example.org")  # a person is their address, in any case
    game = play_to_the_end(start_game())
    owed = rows(game)
    assert owed and {p.seat.email for p in owed} == {"ann@example.org"}
    mine = PushSubscription.objects.get(email="ann@example.org")
    assert {p.subscription_id for p in owed} == {mine.pk}


def test_each_device_of_a_person_gets_its_own_push_once(push_service):
    first, second = (subscribe(push_service, "ben@example.org") for _ in range(2))
    game = start_game()
    owed = rows(game)
    assert sorted(p.subscription_id for p in owed) == sorted([first.pk, second.pk])
    assert len({p.key for p in owed}) == 2


def outbox_as_written(game) -> list:
    fields = ("key", "kind", "to", "subject", "seat__index", "status", "next_attempt_at")
    return list(OutboxEmail.objects.filter(game=game).order_by("key").values_list(*fields))


def played(seed: int) -> Game:
    game = game_setup.create_game(
        name="Twins",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES],
        config={"edition": 2},
        seed="cd" * 32,
    )
    Seat.objects.filter(game=game, index=2).update(notify=Seat.Notify.TURN_ONLY)
    Seat.objects.filter(game=game, index=3).update(notify=Seat.Notify.EVERY_EVENT)
    return play_to_the_end(game, random.Random(seed))


def test_the_emails_are_owed_as_they_would_be_without_any_device(push_service, settings, clock):
    without = outbox_as_written(played(3))
    assert not OutboxPush.objects.exists()
    for email in EVERYONE:
        subscribe(push_service, email)
    with_devices = played(3)
    assert OutboxPush.objects.filter(game=with_devices).count() > 20
    # The twin game's keys name its own id: compare them without it.
    strip = lambda row: (row[0].split(":", 1)[1], *row[1:])  # noqa: E731
    assert [strip(r) for r in outbox_as_written(with_devices)] == [strip(r) for r in without]


def test_no_bot_and_nobody_in_a_practice_game_gets_a_push(push_service):
    subscribe(push_service, "pia@example.org")
    seat = practice.start(
        email="pia@example.org", name="Pia", level="random", config={"edition": 2, "players": 3}
    )
    assert not OutboxPush.objects.filter(game=seat.game).exists()
    subscribe(push_service, "ben@example.org")
    subscribe(push_service, "cid@example.org")
    game = game_setup.create_game(
        name="With a bot",
        players=[
            game_setup.PlayerSpec("Ann", "ann@example.org"),
            game_setup.PlayerSpec("Bot", "ben@example.org", bot="random"),  # its address aside
            game_setup.PlayerSpec("Cid", "cid@example.org"),
        ],
        config={"edition": 2},
        seed="ef" * 32,
    )
    assert [p.seat.index for p in rows(game)] == [2]  # Ann is the Sheriff: none yet


def test_a_topic_per_seat_the_same_for_every_push_to_it(push_service):
    for email in EVERYONE:
        subscribe(push_service, email)
    game = play_to_the_end(start_game())
    topics = {}
    for push in rows(game):
        topics.setdefault(push.seat_id, set()).add(push.topic)
        assert push.payload["tag"] == push.topic
    assert all(len(found) == 1 for found in topics.values())
    every = [found.pop() for found in topics.values()]
    assert len(set(every)) == len(every) == 4
    for topic in every:
        assert len(topic) <= 32 and set(topic) <= push_devices.B64URL
    other = start_game()
    assert not {pushes.topic(seat) for seat in other.seats.all()} & set(every)


def test_the_payload_names_the_game_and_the_kind_in_the_devices_language(push_service):
    subscribe(push_service, "ben@example.org", language="es")
    subscribe(push_service, "cid@example.org")
    game = start_game()
    ben, cid = (rows(game, seat__index=i)[0] for i in (1, 2))
    seat = game.seats.get(index=1)
    with translation.override("es"):
        spanish = str(pushes.BODIES[pushes.YOUR_MOVE])
    assert ben.payload == {
        "title": "Pages test",
        "body": spanish,
        "url": links.seat_url(seat),
        "tag": pushes.topic(seat),
        "lang": "es",
    }
    assert cid.payload["body"] == "Your move" and cid.payload["lang"] == "en"


def test_push_off_owes_nothing_and_costs_no_statement(push_service, settings):
    subscribe(push_service, "ann@example.org")
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    game = start_game()
    assert not OutboxPush.objects.filter(game=game).exists()


def move_statements(game, index: int, key: str) -> list:
    seat = game.seats.get(index=index)
    since = fresh(game).engine_state().phase.since
    with CaptureQueriesContext(connection) as captured:
        outcome = moves.submit(seat, {"type": "set_aside", "cards": []}, version=since, key=key)
    assert outcome.accepted
    return statements(captured)


def test_a_move_owing_no_email_costs_nothing_more_and_one_owing_them_one_lookup(
    push_service, settings
):
    game = start_game()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    off = move_statements(game, 1, "b")
    settings.WEBPUSH_VAPID_PRIVATE_KEY = KEYS[0]
    on = move_statements(game, 2, "c")  # owes nothing: the market goes on
    assert len(on) == len(off)
    last = move_statements(game, 3, "d")  # the market is over: everyone's move
    lookups = [s for s in last if "games_pushsubscription" in s]
    assert len(lookups) == 1 and not any("games_outboxpush" in s for s in last)
    subscribe(push_service, "ben@example.org")
    game = start_game()
    for index in (1, 2):
        move_statements(game, index, f"e{index}")
    final = move_statements(game, 3, "f")
    # The rows in one statement on PostgreSQL; a lookup and an insert elsewhere (bulk).
    writes = 1 if connection.vendor == "postgresql" else 2
    assert len([s for s in final if "games_outboxpush" in s]) == writes
    assert len(final) == len(last) + writes
