"""Two requests for one game at the same moment, on PostgreSQL (row locks):
one effect for a double submit, a serialized and consistent event log for
two seats. Runs whenever the database is PostgreSQL (always under CI)."""

import pytest
from django.db import connection

from games.core import game_setup, moves
from games.engine import replay
from games.models import Game, GameEvent, Submission
from tests.support.together import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

PLAYERS = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in ("Ann", "Ben", "Cid")]


def assert_log_consistent(game: Game) -> None:
    game.refresh_from_db()
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.version))
    events = [e.data for e in GameEvent.objects.filter(game=game).order_by("seq")]
    assert replay(events).hash() == game.engine_state().hash()


def test_the_same_post_twice_at_once_has_one_effect():
    game = game_setup.create_game(name="Race", players=PLAYERS, config={"edition": 2})
    seat = game.seats.get(index=1)
    phase = game.engine_state().phase.since
    command = {"type": "set_aside", "cards": []}
    outcomes = run_together(
        *[lambda: moves.submit(seat, command, version=phase, key="same-form")] * 2
    )
    assert sorted(o.repeated for o in outcomes) == [False, True]
    assert all(o.accepted for o in outcomes)
    assert Submission.objects.filter(game=game).count() == 1
    assert_log_consistent(game)


def test_two_seats_moving_at_once_are_serialized():
    game = game_setup.create_game(name="Race", players=PLAYERS, config={"edition": 2})
    phase = game.engine_state().phase.since
    seats = [game.seats.get(index=i) for i in (1, 2)]
    outcomes = run_together(
        *[
            (
                lambda s=s: moves.submit(
                    s, {"type": "set_aside", "cards": []}, version=phase, key=f"seat{s.index}"
                )
            )
            for s in seats
        ]
    )
    assert all(o.accepted for o in outcomes)
    game.refresh_from_db()
    assert game.engine_state().phase.kind == "load"  # both merchants' choices counted once
    assert_log_consistent(game)


def ann_gathers(name: str, players: int, invitees: tuple[str, ...]):
    """Ann's lobby of ``players`` seats, her own taken, ``invitees`` invited by email."""
    from games.core import lobbies

    specs = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in invitees]
    return lobbies.open_lobby(
        organizer_email="ann@example.org",
        organizer_name="Ann",
        organizer_language="en",
        name=name,
        players=players,
        config={"edition": 2},
        timing={},
        invitees=specs,
    )


def ask_to_join(lobby, name: str, client: str):
    """A seat asked for through the join link; the refusal, if refused."""
    from games.core import lobbies

    try:
        return lobbies.join_by_link(lobby, name, f"{name}@example.net", "en", "UTC", client)
    except lobbies.LobbyError as error:
        return error


def test_two_people_taking_the_last_seat_at_once_get_one_seat_between_them():
    from games.core import lobbies

    lobby = ann_gathers("Last seat", 3, ("Ben",))
    ben = lobby.invitations.get(email="ben@example.org")
    lobbies.accept(ben.pk, name="Ben", timezone_name="UTC", language="en")
    outcomes = run_together(*[lambda n=n: ask_to_join(lobby, n, n) for n in ("cid", "dee")])
    assert sorted(type(o).__name__ for o in outcomes) == ["Invitation", "LobbyError"]
    [asked] = [o for o in outcomes if not isinstance(o, lobbies.LobbyError)]
    lobbies.accept(asked.pk, name=asked.name, timezone_name="UTC", language="en")
    assert lobbies.taken(lobby) == 3


def test_thirty_join_requests_at_once_keep_at_most_the_free_seats():
    from games.models import Invitation, OutboxEmail

    lobby = ann_gathers("Thirty at once", 6, ("Ben", "Cid"))
    outcomes = run_together(*[lambda i=i: ask_to_join(lobby, f"p{i}", f"c{i}") for i in range(30)])
    asked = Invitation.objects.filter(lobby=lobby, via=Invitation.Via.LINK)
    assert sum(isinstance(o, Invitation) for o in outcomes) == asked.count() == 3
    emails = OutboxEmail.objects.filter(kind="invitation", to__endswith="@example.net")
    assert emails.count() == 3
