"""Each move is declared once, above the engine: one entry in the moves registry
(games.present.moves) per engine command, whose form fields read back as the
command, and no other module listing the moves again. Each refusal the engine
raises is worded once: a key of games.words.refusal_messages, found by reading
the engine's sources, so a new refusal without a message fails here."""

import ast
import random
import re
from pathlib import Path

from django.conf import settings

from games.engine import inspection
from games.engine.flow import COMMANDS
from games.present import moves
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
