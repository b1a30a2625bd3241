"""Schemathesis over every operation of the schema the site serves: every check,
200 examples an operation, then its stateful phase (from the token's links to the
seat's operations). Half the generated seats are the token's own, so that the
operations' answers past the seat check are reached too."""

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from games.core import api_tokens
from games.management.commands.api_schema import SCHEMA_FILE
from games.models import ApiToken
from tests.support.fixtures_pages import start_game

# Schema-valid data may still be refused: made-up credentials (a session cookie the
# schema allows is not a session: 401), another seat (404), a move the rules refuse
# (422), a phase moved on (409), talk past its pacing (429). Each is a documented
# answer, never a 5xx.
CONFIG = SchemathesisConfig.from_str(
    """
[checks.positive_data_acceptance]
expected-statuses = [200, 201, 401, 404, 409, 422, 429]
"""
)
# The schema as committed (CI checks it is the code's: manage.py api_schema --check),
# called in-process.
schema = schemathesis.openapi.from_path(SCHEMA_FILE, config=CONFIG)
schema.app = WSGIHandler()
TABLE: dict = {}  # the test's game and session, set by the fixture
CALLS: dict = {}  # cases run by operation, printed at the end with -s


# A token known before any case is made (schemathesis makes some while collecting);
# the fixture stores it for the test's seat.
TOKEN = "shf_schemathesis-test-token-" + "0" * 20


@schema.auth(refresh_interval=None)
class SeatTokenAuth:
    """The test's token, where the schema asks for it; schemathesis leaves it out
    itself for its cases without credentials."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
        if TABLE:  # a signed-in person's session, for their own games
            case.cookies = {**(case.cookies or {}), "sessionid": TABLE["session"]}


@schemathesis.hook  # a global hook (this one cannot be a schema's), idle without TABLE
def before_call(context, case, kwargs):
    """Every other valid case is sent to the token's own seat (a case whose path is
    meant to be wrong is left so)."""
    if not TABLE or case.meta is None or case.meta.is_negative_at(ParameterLocation.PATH):
        return
    game, seat = case.path_parameters.get("game"), case.path_parameters.get("seat")
    if type(game) is int and type(seat) is int and seat % 2 == 0:
        case.path_parameters = {**case.path_parameters, "game": TABLE["game"], "seat": 1}


@pytest.fixture
def table(db, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]  # the in-process client's
    game = start_game(black_market=True)
    seat = game.seats.get(index=1)
    ApiToken.objects.create(
        seat=seat, game=game, digest=api_tokens.digest(TOKEN), prefix=TOKEN[:10], link_version=1
    )
    person = Client()
    person.force_login(User.objects.create_user("ann", "ann@example.org"))
    TABLE.update(game=game.pk, session=person.cookies["sessionid"].value)
    # The requests go straight to the WSGI handler, whose end of request would close the
    # test's connection, open in its transaction (Django's own test client keeps it).
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield TABLE
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)
    TABLE.clear()


@schema.parametrize()
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_every_operation_keeps_to_its_schema(case, table):
    case.call_and_validate()
    CALLS[case.operation.label] = CALLS.get(case.operation.label, 0) + 1


@pytest.mark.django_db
def test_the_stateful_phase_finds_nothing(table):
    schema.as_state_machine().run(settings=settings(max_examples=60, deadline=None, database=None))


def teardown_module(module):
    if CALLS:
        print("\nschemathesis cases by operation:", CALLS)
