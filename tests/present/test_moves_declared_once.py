"""Each move is declared once, above the engine: one entry in the moves registry
(games.present.moves) per engine command, with a way to it on the page, its reply
phrasings and its API model; its form fields and its API body read back as the
command, and no other module lists the moves again. Each refusal the engine
raises is worded once: a key of games.words.refusal_messages, found by reading
the engine's sources, so a new refusal without a message fails here."""

import ast
import json
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from pydantic import ValidationError

from games.engine import inspection
from games.engine.flow import COMMANDS
from games.present import move_schemas, moves
from games.web import forms
from games.words import refusal_messages
from tests.support.random_commands import as_post, random_commands

GAMES = Path(settings.BASE_DIR) / "games"
ENGINE = GAMES / "engine"
# The organizer's settings (shown in the admin, in English) and commands only the
# site itself sends (a deadline's timeout, an organizer's note): a general meaning
# is enough.
ORGANIZER_ONLY = {"invalid_config"}
SITE_ONLY = {
    "bad_command.timeout",
    "bad_command.note",
    "bad_command.note_by",
    "bad_command.note_code",
    "bad_command.note_params",
}


def test_every_engine_command_has_exactly_one_registry_entry():
    source = (GAMES / "present" / "moves.py").read_text()
    declared = [
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Move"
    ]
    assert sorted(declared) == sorted(COMMANDS)
    assert set(moves.MOVES) == set(COMMANDS)


def test_no_other_module_lists_the_moves():
    """A literal naming three or more commands outside the engine and the registry
    is a second list of the moves."""
    listing = set()
    for path in GAMES.rglob("*.py"):
        if ENGINE in path.parents or path == GAMES / "present" / "moves.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            items = getattr(node, "elts", None) or getattr(node, "keys", None) or []
            named = {i.value for i in items if isinstance(i, ast.Constant)} & set(COMMANDS)
            if len(named) >= 3:
                listing.add(str(path.relative_to(GAMES)))
    assert not listing


def commands_of_every_kind() -> dict:
    """A command of each kind random players make, over games of every size and
    edition, the Black Market included."""
    games = [
        {"players": players, "edition": edition, "black_market": edition == 2}
        for players, edition in [(4, 1), (4, 2), (6, 2), (3, 2)] * 10
    ]
    found: dict = {}
    for _state, command in random_commands(random.Random(11), games, steps=300):
        found.setdefault(command["type"], []).append(command)
    return found


def test_every_entry_s_fields_read_back_as_its_command():
    found = commands_of_every_kind()
    found.setdefault("set_black_market_standing", []).extend(
        [{"type": "set_black_market_standing", "seat": 1, "standing": on} for on in (True, False)]
    )
    assert set(found) == set(moves.MOVES)
    for kind, commands in found.items():
        for command in commands[:40]:
            sent = moves.form_fields(command, 3)
            back = forms.parse_move(as_post(sent)).command
            assert back["type"] == kind
            # Written again from what was read, the fields are the same: the form
            # says what the command says (a page form lists cards in its own order).
            assert moves.MOVES[kind].write(back) == moves.MOVES[kind].write(
                {**command, **{k: v for k, v in back.items() if k in ("order", "draws")}}
            )


def test_every_entry_has_a_page_path_reply_phrasings_and_an_api_model():
    source = (GAMES / "present" / "moves.py").read_text()
    # An entry without a page form of its own says where the page sends it.
    documented = re.findall(r"page_form=None,\s*#\s*\S", source)
    assert len(documented) == sum(move.page_form is None for move in moves.MOVES.values())
    for kind, move in moves.MOVES.items():
        assert move.replies, kind
        assert issubclass(move.api, move_schemas.Command), kind
        assert move.api.model_fields["type"].annotation.__args__ == (kind,)
        assert "seat" not in move.api.model_fields  # the API sets it from its token
        assert move.api.__doc__, kind  # the API's description of the operation
    assert moves.command_models() == tuple(move.api for move in moves.MOVES.values())


# What the drill's random players leave to the engine's defaults (the order of
# confiscated goods, a Sheriff's pile in a demand, goods of a stand by kind).
CHOICES_NO_PAGE_OFFERS = [
    {"type": "inspect_bag", "seat": 0, "bag": 2, "pile": 1, "order": ["mead", "apples"]},
    {"type": "accept_offer", "seat": 0, "offer": 3, "revision": 2, "order": "highest_on_top"},
    {
        "type": "make_offer",
        "seat": 0,
        "to": 2,
        "terms": {
            "gold": 2,
            "stand_counts": {"cheese": 1},
            "sheriff": [{"bag": 2, "action": "inspect", "pile": 0, "order": "lowest_on_top"}],
        },
    },
]


def test_every_command_random_players_make_is_a_body_of_its_api_model():
    """The command without ``seat`` validates as its API body (as JSON too), which
    gives back exactly that command."""
    found = commands_of_every_kind()
    assert set(found) >= set(moves.MOVES) - {"set_black_market_standing"}
    found.setdefault("set_black_market_standing", []).extend(
        [{"type": "set_black_market_standing", "seat": 1, "standing": on} for on in (True, False)]
    )
    for command in CHOICES_NO_PAGE_OFFERS:
        found[command["type"]].append(command)
    for kind, commands in found.items():
        model = moves.MOVES[kind].api
        for command in commands[:200]:
            body = {k: v for k, v in command.items() if k != "seat"}
            assert model.model_validate(body).as_command() == body, body
            assert model.model_validate_json(json.dumps(body)).as_command() == body, body


@pytest.mark.parametrize("model", moves.command_models(), ids=lambda model: model.__name__)
def test_an_api_model_takes_its_example_and_refuses_what_is_no_command(model):
    example = model.model_config["json_schema_extra"]["examples"][0]
    assert model.model_validate(example).as_command() == example
    for wrong in (
        {**example, "bribe": 1},  # an unknown field
        {**example, "seat": 0},  # the API's to set
        {**example, "type": "timeout"},  # not a seat's move
        {k: v for k, v in example.items() if k != "type"},
    ):
        with pytest.raises(ValidationError):
            model.model_validate(wrong)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "set_aside", "cards": ["12"]},  # a card id is a number
        {"type": "set_aside", "cards": 12},
        {"type": "load_bag", "cards": [1], "declared": "pepper", "count": 1},  # not legal goods
        {"type": "market_turn", "cards": [1], "draws": ["pile"]},
        {"type": "inspect_bag", "bag": 2, "pile": None},  # left out, not null
        {"type": "inspect_bag", "bag": 2, "order": ["rubies"]},
        {"type": "make_offer", "to": "everyone", "terms": {"sheriff": []}},
        {"type": "make_offer", "to": 0, "terms": {"gold": -1, "sheriff": []}},
        {"type": "make_offer", "to": 0, "terms": {"sheriff": [], "tip": 1}},  # terms: only its own
        {"type": "make_offer", "to": 0, "terms": {"sheriff": [{"bag": 1, "action": "bribe"}]}},
        {"type": "revise_offer", "offer": 1, "terms": {"bag_goods": {"apples": 0}, "sheriff": []}},
        {"type": "claim_black_market", "kind": "apples"},
        {"type": "set_black_market_standing", "standing": "yes"},
        {"type": "set_black_market_standing", "standing": 1},
    ],
)
def test_an_api_body_that_is_no_command_is_refused(body):
    with pytest.raises(ValidationError):
        moves.MOVES[body["type"]].api.model_validate(body)


# --- refusals ------------------------------------------------------------------------------


def engine_refusals() -> list:
    """(key, detail is a constant, English template or pattern, param names) for
    every EngineError the engine raises."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "EngineError"):
                continue
            code, text = node.args[0].value, node.args[1]
            keywords = {k.arg: k.value for k in node.keywords}
            detail = keywords.pop("detail", None)
            fixed = detail is None or isinstance(detail, ast.Constant)
            key = code if detail is None else f"{code}.{getattr(detail, 'value', '*')}"
            if isinstance(text, ast.Name):  # a module constant
                text = getattr(inspection, text.id)
            elif isinstance(text, ast.Constant):
                text = text.value
            else:  # an f-string: its values match anything
                parts = [
                    re.escape(p.value) if isinstance(p, ast.Constant) else ".+" for p in text.values
                ]
                text = re.compile("".join(parts))
            found.append((key, fixed, text, set(keywords)))
    return found


def test_every_refusal_the_engine_raises_has_its_message():
    refusals = engine_refusals()
    assert len(refusals) > 80
    for key, fixed, text, params in refusals:
        code = key.split(".")[0]
        if code in ORGANIZER_ONLY or key in SITE_ONLY:
            assert refusal_messages.meaning(code) != refusal_messages.REFUSED, key
        elif not fixed:  # a detail the engine works out: one of the code's messages
            if isinstance(text, str):  # its values match anything
                text = re.compile(re.sub(r"%\\\(\w+\\\)s", ".+", re.escape(text)))
            listed = [t for k, t in refusal_messages.MESSAGES.items() if k.startswith(code + ".")]
            assert any(text.fullmatch(t) for t in listed), key
        else:  # in English, the table says what the engine says, with the same values
            assert refusal_messages.MESSAGES.get(key) == text, key
            assert set(re.findall(r"%\((\w+)\)s", text)) == params, key


def test_every_message_in_the_table_is_one_the_engine_raises():
    raised = {key for key, fixed, _, _ in engine_refusals() if fixed}
    worked_out = {key.split(".")[0] for key, fixed, _, _ in engine_refusals() if not fixed}
    for key in refusal_messages.MESSAGES:
        assert key in raised or key.split(".")[0] in worked_out, key
