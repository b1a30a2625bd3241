"""Goods named by reply, from one table: every kind of goods (legal, contraband, royal),
singular and plural, English and Spanish, with accents or without, in any case, read
through the reply reader as the goods it names ("declara 4 quesos", "DECLARA 1 PAN",
"ofrezco 2 pimientas de mi bolsa", "reclamo sedas")."""

import pytest

from games import engine
from games.engine import CARD_TYPES, LEGAL_TYPES
from games.present import reply_commands
from tests.support.builders import start, to_inspection, to_load_phase

NAMES = ["Ann", "Ben", "Cid", "Dee"]
BLACK_MARKET_KINDS = ("pepper", "mead", "silk")

# kind: (English one, English several, Spanish one, Spanish several), as players write them.
GOODS = [
    ("apples", "apple", "apples", "manzana", "manzanas"),
    ("cheese", "cheese", "cheeses", "queso", "quesos"),
    ("bread", "bread", "breads", "pan", "panes"),
    ("chicken", "chicken", "chickens", "gallina", "gallinas"),
    ("pepper", "pepper", "peppers", "pimienta", "pimientas"),
    ("mead", "mead", "meads", "aguamiel", "aguamieles"),
    ("silk", "silk", "silks", "seda", "sedas"),
    ("crossbow", "crossbow", "crossbows", "ballesta", "ballestas"),
    ("green_apples", "green apple", "green apples", "manzana verde", "manzanas verdes"),
    ("golden_apples", "golden apple", "golden apples", "manzana dorada", "manzanas doradas"),
    ("gouda_cheese", "gouda cheese", "gouda cheeses", "queso gouda", "quesos gouda"),
    ("bleu_cheese", "bleu cheese", "bleu cheeses", "queso azul", "quesos azules"),
    ("rye_bread", "rye bread", "rye breads", "pan de centeno", "panes de centeno"),
    (
        "pumpernickel_bread",
        "pumpernickel bread",
        "pumpernickel breads",
        "pan negro",
        "panes negros",
    ),
    ("royal_rooster", "royal rooster", "royal roosters", "gallo real", "gallos reales"),
]
ACUTE = str.maketrans("aeiou", "áéíóú")
CASES = {"lower": str.lower, "UPPER": str.upper, "Title": str.title}


def accented(word: str) -> str:
    """The word with an accent on its first vowel, as a hurried writer may put one."""
    at = next(i for i, letter in enumerate(word) if letter in "aeiou")
    return word[:at] + word[at].translate(ACUTE) + word[at + 1 :]


def written(word: str, accents: bool, case: str) -> str:
    return CASES[case](accented(word) if accents else word)


# What the lines say, by language: a count of goods from the bag, a declaration, a claim.
LINES = {
    "en": ("offer {n} {goods} from my bag", "load {cards} declare {n} {goods}", "claim {goods}"),
    "es": (
        "ofrezco {n} {goods} de mi bolsa",
        "carga {cards} declara {n} {goods}",
        "reclamo {goods}",
    ),
}


@pytest.fixture(scope="module")
def views():
    market = start(4)
    loading, inspection = to_load_phase(market), to_inspection(market, {}, bargaining=True)
    return engine.view_for(loading, 1), engine.view_for(inspection, 1)


def test_the_table_names_every_kind_of_goods():
    assert sorted(row[0] for row in GOODS) == sorted(CARD_TYPES)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("accents", [False, True], ids=["plain", "accents"])
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("several", [False, True], ids=["singular", "plural"])
@pytest.mark.parametrize("row", GOODS, ids=[row[0] for row in GOODS])
def test_every_goods_name_reads_by_reply(views, row, several, language, accents, case):
    kind, *words = row
    word = words[(2 if language == "es" else 0) + several]
    goods, n = written(word, accents, case), 2 if several else 1
    offering, declaring, claiming = LINES[language]
    loading, inspection = views

    offer = reply_commands.read(offering.format(n=n, goods=goods), inspection, NAMES)
    assert offer["terms"]["bag_goods"] == {kind: n}
    if kind in LEGAL_TYPES:
        cards = " ".join(str(c) for c in range(1, n + 1))
        line = declaring.format(cards=cards, n=n, goods=goods)
        load = reply_commands.read(line, loading, NAMES)
        assert (load["declared"], load["count"]) == (kind, n)
    if kind in BLACK_MARKET_KINDS:
        claim = reply_commands.read(claiming.format(goods=goods), inspection, NAMES)
        assert claim == {"type": "claim_black_market", "kind": kind}
