"""Replies read through the moves registry (games.present.moves): a reply line for
every kind of command is read by a phrasing of that command's own entry, in
English and in Spanish; and no line reads as two moves, so the order the
dispatcher (games.present.reply_commands.read) tries the phrasings in changes
nothing."""

import pytest
from django.utils import translation

from games import engine
from games.engine.flow import COMMANDS
from games.present import moves, reply_commands
from games.present.move_fields import FormError
from games.present.reply_words import Said
from games.words.reply_text import new_text
from tests.present.test_reply_bargaining import cases
from tests.present.test_reply_corpus_commands import CORPUS
from tests.support.builders import offer, start, to_inspection, to_load_phase
from tests.words.reply_corpus_report import run

NAMES = ["Ann", "Álvaro", "Cid", "Dee"]
# Lines besides those emails list: what no email lists (a revision, a promise), and
# words two phrasings could share ("claim always" is the standing answer, no claim).
MORE = [
    "revise {offer} to 5 gold",
    "cambio {offer} por 5 de oro",
    "offer 2 gold promise: I will owe you one",
    "claim always",
    "reclamo siempre",
    "preguntame cada ronda",
    "tomo siempre",
    "keep promise: nothing",
]


def reading_phrasing(line: str, view: dict, names: list):
    """The phrasing the dispatcher reads ``line`` with: the first that yields."""
    said = Said.of(line)
    return next(p for p in moves.reply_phrasings() if p.command(said, view, names) is not None)


def seats_and_lines(language: str) -> list:
    """(state, seat, names, line) for every line each case's email lists, and MORE."""
    offered, number = offer(to_inspection(start(4), {}, bargaining=True), 2, 0, gold=3, passes=[2])
    found = []
    with translation.override(language):
        for state, seat, names in [*cases(), (offered, 2, NAMES)]:
            lines = reply_commands.listed(engine.view_for(state, seat), names)
            lines += [more.format(offer=number) for more in MORE]
            found += [(state, seat, names, line) for line in lines]
    return found


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_kind_of_command_is_read_by_a_phrasing_of_its_own_entry(language):
    read = set()
    with translation.override(language):
        for state, seat, names, line in seats_and_lines(language):
            view = engine.view_for(state, seat)
            try:
                command = reply_commands.read(line, view, names)
            except FormError:
                continue  # words of a move this seat cannot make now
            if command is None:
                continue
            assert reading_phrasing(line, view, names) in moves.MOVES[command["type"]].replies
            read.add(command["type"])
    assert read == set(COMMANDS)


def matching(line: str) -> list:
    """Every phrasing whose words match ``line``, with its entry."""
    said = Said.of(line)
    return [
        (kind, phrasing)
        for kind, move in moves.MOVES.items()
        for phrasing in move.replies
        if phrasing.pattern.match(said.bargain if phrasing.promise else said.line)
    ]


def yields(phrasing, line: str, view: dict) -> bool:
    try:
        return phrasing.command(Said.of(line), view, NAMES) is not None
    except FormError:
        return True  # read as this move, and refused


def test_no_line_reads_as_two_moves():
    """Only the market's words match two entries' phrasings ("set aside", "keep":
    the 2nd edition's set_aside, the 1st edition's market_turn); in any one game
    only one of them reads them."""
    lines = {line for language in ("en", "es") for *_, line in seats_and_lines(language)}
    lines |= {run(case, new_text).splitlines()[0] for case in CORPUS}
    markets = [
        engine.view_for(start(4), 1),
        engine.view_for(start(4, edition=1), start(4, edition=1).phase.seat),
        engine.view_for(to_load_phase(start(4)), 1),
    ]
    shared = set()
    for line in lines:
        found = matching(line)
        if len(found) < 2:
            continue
        shared.add(line)
        assert {kind for kind, _ in found} == {"set_aside", "market_turn"}, (line, found)
        for view in markets:
            assert sum(yields(phrasing, line, view) for _, phrasing in found) == 1, line
    assert {"keep", "set aside 1 2 to pile 1"} <= shared
