"""The reply corpus (tests/words/reply_corpus/), read all the way: each client's
reply, in English or Spanish, cut to its new text and its first line read as the
move it asks for, or as talk; a line that starts like a move but is not one is
refused with why, never posted to the table as talk."""

import collections

import pytest
from django.utils import translation

from games import engine
from games.present import reply_commands
from games.present.move_fields import FormError
from games.words.reply_text import new_text
from tests.support.builders import offer, start, to_inspection, to_load_phase
from tests.words.reply_corpus_report import cases, run

NAMES = ["Alice", "Bob", "Carol", "Dave"]  # the corpus's table
CORPUS = [case for case in cases() if case.expected]


def views() -> list:
    """Alice's email in each phase the corpus answers (she is a merchant, then the
    Sheriff with two offers to answer)."""
    market = start(4)
    merchant = to_inspection(start(4), {}, bargaining=True)
    sheriff = to_inspection(start(4), {})
    state, _ = offer(to_inspection(start(4), {}, bargaining=True), 1, 0, gold=3, passes=[1])
    state, _ = offer(state, 2, 0, gold=2, passes=[2])
    return [
        engine.view_for(market, 1),
        engine.view_for(to_load_phase(start(4)), 1),
        engine.view_for(merchant, 2),
        engine.view_for(sheriff, 0),
        engine.view_for(state, 0),
    ]


def outcome(line: str, seen: list) -> str:
    """The move type the line makes in the first phase it fits, "talk", or "refused"."""
    refused = False
    for view in seen:
        try:
            command = reply_commands.read(line, view, NAMES)
        except FormError:
            refused = True
            continue
        if command is None:
            return "talk"
        return command["type"]
    assert refused
    return "refused"


# What each first line is, by its words (each case's first line is one of these).
EXPECTED = {
    "pass bob": "pass_bag",
    "dejar pasar a bob": "pass_bag",
    "inspect carol": "inspect_bag",
    "inspeccionar a carol": "inspect_bag",
    "no offer": "say_no_offer",
    "sin oferta": "say_no_offer",
    "offer 4 gold": "make_offer",
    "ofrecer 4 oro": "make_offer",
    "load 2 4 5 declare 3 apples": "load_bag",
    "cargar 2 4 5 declarar 3 manzanas": "load_bag",
    "accept 2": "accept_offer",
    "aceptar 2": "accept_offer",
    "load 2 4 5": "refused",  # no declaration: a move half written, not talk
    "cargar 2 4 5": "refused",
}


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_each_reply_is_the_move_or_the_talk_it_was_meant_as(case):
    line = run(case, lambda text, html: new_text(text, html)).splitlines()[0]
    expected = EXPECTED.get(line.lower().rstrip("."), "talk")  # "Carol, I pay > 3 gold" is talk
    with translation.override(case.language if case.language in ("en", "es") else "en"):
        assert outcome(line, views()) == expected, line


def test_every_client_and_language_is_read_in_full():
    seen = views()
    passed = collections.Counter()
    for case in CORPUS:
        line = run(case, lambda text, html: new_text(text, html)).splitlines()[0]
        expected = EXPECTED.get(line.lower().rstrip("."), "talk")
        passed[case.language, outcome(line, seen) == expected] += 1
    assert not passed["en", False] and not passed["es", False], passed
    assert passed["en", True] >= 30 and passed["es", True] >= 25
