"""Services: one transaction per move, idempotent submissions, the outbox."""

import hashlib

import pytest
from django.core import mail

from games.core import game_setup, moves, timers
from games.engine import EngineError, view_for
from games.mail import outbox
from games.models import Game, GameEvent, OutboxEmail, Submission

pytestmark = pytest.mark.django_db

PLAYERS = [
    game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid", "Dee")
]
SEED = "ab" * 32


def new_game(**config):
    return game_setup.create_game(
        name="Test", players=PLAYERS, config={"edition": 2, **config}, seed=SEED
    )


def seat(game, index):
    return game.seats.get(index=index)


def phase(game) -> int:
    """The phase version a freshly rendered page carries."""
    return Game.objects.get(pk=game.pk).engine_state().phase.since


def test_creating_a_game_stores_events_snapshot_and_owes_everyone_an_email():
    game = new_game()
    state = game.engine_state()
    assert game.version == state.seq == GameEvent.objects.filter(game=game).count()
    keys = sorted(OutboxEmail.objects.values_list("to", flat=True))
    # Ann, the Sheriff, has no move yet but hears that the game began, as everyone does.
    assert keys == ["ann@example.org", "ben@example.org", "cid@example.org", "dee@example.org"]
    assert set(OutboxEmail.objects.values_list("kind", flat=True)) == {"start"}


def test_an_accepted_move_advances_the_version_and_appends_events():
    game = new_game()
    outcome = moves.submit(
        seat(game, 1), {"type": "set_aside", "cards": []}, version=phase(game), key="k1"
    )
    game.refresh_from_db()
    assert outcome.accepted and outcome.version == game.version
    assert GameEvent.objects.filter(game=game).count() == game.version


def test_the_same_submission_twice_has_one_effect():
    game = new_game()
    first = moves.submit(
        seat(game, 1), {"type": "set_aside", "cards": []}, version=phase(game), key="same"
    )
    version = Game.objects.get(pk=game.pk).version
    again = moves.submit(
        seat(game, 1), {"type": "set_aside", "cards": []}, version=phase(game), key="same"
    )
    assert first.accepted and again.accepted and again.repeated
    assert Game.objects.get(pk=game.pk).version == version
    assert Submission.objects.filter(game=game).count() == 1


def test_a_move_by_another_seat_in_the_same_phase_does_not_make_a_page_stale():
    game = new_game()
    rendered = phase(game)
    for index in (1, 2):
        outcome = moves.submit(
            seat(game, index), {"type": "set_aside", "cards": []}, version=rendered, key=f"k{index}"
        )
        assert outcome.accepted


def test_a_stale_page_is_refused_and_changes_nothing():
    game = new_game()
    before = Game.objects.get(pk=game.pk).state
    outcome = moves.submit(
        seat(game, 1), {"type": "set_aside", "cards": []}, version=phase(game) - 1, key="old"
    )
    assert not outcome.accepted and outcome.code == "stale_page"
    assert Game.objects.get(pk=game.pk).state == before


def test_an_engine_error_is_reported_and_changes_nothing():
    game = new_game()
    before = Game.objects.get(pk=game.pk).version
    outcome = moves.submit(
        seat(game, 0), {"type": "set_aside", "cards": []}, version=phase(game), key="sheriff"
    )
    assert (outcome.accepted, outcome.code) == (False, "not_a_merchant")
    assert Game.objects.get(pk=game.pk).version == before


def test_the_seat_comes_from_the_link_not_the_command():
    game = new_game()
    hand_of_ben = [c["id"] for c in view_for(game.engine_state(), 1)["me"]["hand"]][:1]
    outcome = moves.submit(
        seat(game, 2),
        {"type": "set_aside", "seat": 1, "cards": hand_of_ben},
        version=phase(game),
        key="spoof",
    )
    assert outcome.code == "card_not_in_hand"


def test_advance_is_compare_and_set_on_the_version():
    game = new_game()
    assert timers.advance(game.pk, expected_version=game.version, force=True)
    assert not timers.advance(
        game.pk, expected_version=game.version, force=True
    )  # a duplicate task
    state = Game.objects.get(pk=game.pk).engine_state()
    assert state.phase.kind == "load"


def test_outbox_sends_once_and_never_twice():
    game = new_game()
    pks = list(OutboxEmail.objects.filter(game=game).values_list("pk", flat=True))
    assert [outbox.deliver(pk) for pk in pks] == ["sent"] * 4
    assert [outbox.deliver(pk) for pk in pks] == ["not pending"] * 4
    assert len(mail.outbox) == 4
    assert {m.to[0] for m in mail.outbox} == {
        "ann@example.org",
        "ben@example.org",
        "cid@example.org",
        "dee@example.org",
    }


def test_a_failed_send_is_retried_with_backoff_then_marked_failed(settings, monkeypatch):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    game = new_game()
    email = OutboxEmail.objects.filter(game=game).first()

    def broken(self, *args, **kwargs):
        raise ConnectionError("smtp down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    assert outbox.deliver(email.pk) == "failed"
    email.refresh_from_db()
    assert email.status == "pending" and email.next_attempt_at and "smtp down" in email.last_error
    assert outbox.deliver(email.pk) == "not due"
    assert outbox.deliver(email.pk, now=email.next_attempt_at) == "failed"
    email.refresh_from_db()
    assert email.status == "failed" and email.attempts == 2


# -- typed seeds ------------------------------------------------------------------------


def sha256_hex(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


@pytest.mark.parametrize("typed", ["00" * 16, "AB" * 32])
def test_a_typed_seed_is_mixed_with_server_randomness(settings, typed):
    """A guessable typed seed must not be recoverable from the public SHA-256."""
    settings.FIXED_SEEDS = False
    games = [
        game_setup.create_game(name="Typed", players=PLAYERS, config={"edition": 2}, seed=typed)
        for _ in range(2)
    ]
    for game in games:
        seed = game.engine_state().seed
        assert game.seed_sha256 != sha256_hex(typed)
        assert game.seed_sha256 == sha256_hex(seed)  # the commitment is to the mixed seed
        assert seed.startswith(typed.lower()) and len(seed) == len(typed) + 32
    assert games[0].seed_sha256 != games[1].seed_sha256


def test_fixed_seeds_deal_from_the_typed_seed_alone(settings):
    settings.FIXED_SEEDS = True
    game = new_game()
    assert game.engine_state().seed == SEED and game.seed_sha256 == sha256_hex(SEED)


@pytest.mark.parametrize("typed", ["ab" * 8, "abc", "zz" * 16])
def test_a_malformed_typed_seed_is_still_refused(settings, typed):
    settings.FIXED_SEEDS = False
    with pytest.raises(EngineError):
        game_setup.create_game(name="Bad", players=PLAYERS, config={"edition": 2}, seed=typed)


# -- six players and the Black Market -------------------------------------------------------

SIX = [*PLAYERS, *(game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Eve", "Fay"))]


def test_a_six_player_game_with_deputies_is_created_and_everyone_hears_it_begin():
    game = game_setup.create_game(name="Six", players=SIX, config={"edition": 2}, seed=SEED)
    state = game.engine_state()
    assert state.config.deputies and state.sheriff is None and len(state.deputies) == 2
    assert OutboxEmail.objects.filter(game=game).count() == 6


def test_a_black_market_game_is_created_with_the_provisional_or_the_organizers_values():
    provisional = new_game(black_market=True).engine_config
    assert provisional.black_market and provisional.black_market_provisional
    values = {"pepper": [40, 35], "mead": [32, 29], "silk": [28, 50]}
    chosen = new_game(black_market=True, black_market_values=values).engine_state()
    assert not chosen.config.black_market_provisional
    assert chosen.black_market["silk"] == [28, 50]  # the higher card on top (last)


@pytest.mark.parametrize(
    ("players", "config", "message"),
    [
        (SIX, {"edition": 1}, "Six players need the 2nd edition"),
        (PLAYERS, {"edition": 1, "black_market": True}, "The Black Market is a 2nd edition"),
    ],
)
def test_first_edition_deputies_or_black_market_are_refused_with_the_rules_message(
    players, config, message
):
    with pytest.raises(EngineError, match=message) as error:
        game_setup.create_game(name="Bad", players=players, config=config, seed=SEED)
    assert error.value.code == "invalid_config" and not Game.objects.exists()


@pytest.mark.parametrize(
    ("piles", "expected"),
    [
        ({}, None),
        ({"pepper": " ", "mead": ""}, None),
        ({"pepper": "40, 35"}, {"pepper": [40, 35], "mead": [32, 29], "silk": [34, 31]}),
        (
            {"mead": "1 999", "silk": "31/34"},
            {"pepper": [30, 27], "mead": [1, 999], "silk": [31, 34]},
        ),
    ],
)
def test_black_market_values_keep_the_provisional_value_of_a_blank_pile(piles, expected):
    assert game_setup.black_market_values(piles) == expected


@pytest.mark.parametrize(
    "text", ["30", "30, 27, 25", "0, 27", "1000, 27", "30, -27", "3\u0660, 27", "9" * 50, "a, b"]
)
def test_a_pile_is_two_whole_numbers_from_1_to_999(text):
    with pytest.raises(ValueError, match=r'The Pepper pile holds two cards: .* e.g. "30, 27"'):
        game_setup.black_market_values({"pepper": text})


def test_there_is_no_pile_of_another_kind():
    with pytest.raises(ValueError, match="No Black Market pile is called 'crossbow'"):
        game_setup.black_market_values({"crossbow": "30, 27"})
