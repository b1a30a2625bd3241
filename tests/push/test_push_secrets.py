"""Hidden information is sacred: over whole random games (offers, deals, lies,
inspections, table talk full of goods and gold, both editions, three to six players,
the Black Market), every push's payload is made of what anyone may know: the game's
name, one of four fixed words, the seat's own link, its topic and a language. No
card, gold amount, offer term or line of talk can be in it."""

import contextlib
import itertools
import random

import pytest
from django.utils import timezone, translation

from games.core import game_setup, links, push_devices, pushes, talk
from games.core.game_writes import ServiceError
from games.models import PUSH_KINDS, Game, OutboxPush
from games.push import delivery
from games.words import goods_names
from tests.support.played_games import play_to_the_end

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
GAME_NAME = "Quiet table"
KEYS = itertools.count(1)
# Lines that would give everything away, were a push to carry them.
CONFESSIONS = (
    "Ann, my bag holds 3 Cheese and a Crossbow: 9 gold and it is yours.",
    "Ben, let mine pass for 7 gold and 2 Silk from my stand.",
    "Cid, I declared 4 Apples but there is Mead inside.",
)


def play(config: dict, rnd: random.Random) -> Game:
    players = config["players"]
    game = game_setup.create_game(
        name=GAME_NAME,
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES[:players]],
        config=config,
        seed=f"{rnd.randrange(16**8):08x}" * 8,
    )
    Game.objects.filter(pk=game.pk).update(talk_private=True)
    return play_to_the_end(game, rnd, before_each=confess)


def confess(seats: dict, rnd: random.Random) -> None:
    """Now and then a line of talk full of goods and gold, to the table or to one seat."""
    if rnd.random() < 0.15:
        speaker = rnd.choice(list(seats.values()))
        to = rnd.choice([None, *[i for i in seats if i != speaker.index]])
        # Talk closed in this phase, or too fast: the game goes on.
        with contextlib.suppress(ServiceError):
            talk.post(speaker, rnd.choice(CONFESSIONS), timezone.now(), to_index=to)


def words_of_kinds() -> set:
    found = set()
    for language, _name in (("en", ""), ("es", "")):
        with translation.override(language):
            found |= {str(pushes.BODIES[kind]) for kind in PUSH_KINDS}
    return found


def goods_words() -> set:
    found = set()
    for language in ("en", "es"):
        with translation.override(language):
            found |= {str(label) for label in goods_names.LABELS.values()}
    return found


CONFIGS = [
    {"players": 3, "edition": 2},
    {"players": 4, "edition": 1},
    {"players": 5, "edition": 2, "black_market": True},
    {"players": 6, "edition": 2},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-e{c['edition']}")
def test_no_push_ever_carries_a_hand_a_bag_an_offer_or_talk(push_service, settings, config):
    settings.TALK_EMAIL_QUIET_SECONDS = 0
    settings.TALK_BURST, settings.TALK_REFILL_SECONDS = 10_000, 1
    rnd = random.Random(config["players"] * 7 + config["edition"])
    for name in NAMES:
        device = push_devices.read_device(push_service.new_device().subscription())
        push_devices.subscribe(
            f"{name.lower()}@example.org", device, list(PUSH_KINDS), rnd.choice(["en", "es"]), ""
        )
    game = play(config, rnd)
    owed = list(OutboxPush.objects.filter(game=game).select_related("seat", "subscription"))
    assert {push.kind for push in owed} == set(PUSH_KINDS)  # every kind met
    allowed_words = words_of_kinds()
    secrets = goods_words() | set(CONFESSIONS) | {"gold", "oro"}
    for push in owed:
        payload, seat = push.payload, push.seat
        assert set(payload) == {"title", "body", "url", "tag", "lang"}
        assert payload["title"] == GAME_NAME
        assert payload["body"] in allowed_words
        with translation.override(payload["lang"]):
            assert payload["body"] == str(pushes.BODIES[push.kind])
        assert payload["lang"] == push.subscription.language
        token = payload["url"].removeprefix(settings.SITE_URL + "/play/").rstrip("/")
        assert links.read(token) == links.Token(game.pk, seat.pk, seat.link_version)
        assert payload["tag"] == push.topic == pushes.topic(seat)
        for value in payload.values():
            assert not any(secret.lower() in value.lower() for secret in secrets), (value, push)
    # And what a device receives is the row's payload, nothing added: sent, decrypted.
    sample = random.Random(1).sample(owed, min(5, len(owed)))
    for push in sample:
        assert delivery.deliver(push.pk) == "sent"
    received = [r.payload for r in push_service.wait_for(len(sample))]
    assert sorted(map(str, received)) == sorted(str(p.payload) for p in sample)
