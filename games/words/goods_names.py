"""The goods' names in the reader's language.

The engine's card table (``games.engine.cards``) holds the English labels; pages,
emails and log lines name goods through ``label`` and ``counted`` instead, so that
a card reads "Gallinas" on a Spanish page. The names are written out here, each
marked for translation, because the catalogue tools read literal strings only;
tests/words/test_i18n.py checks that they match the card table. Spanish names are the
Spanish rulebook's.
"""

from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.engine import CARD_TYPES
from games.words.i18n import cached_per_language

LABELS = {
    "apples": pgettext_lazy("goods", "Apples"),
    "cheese": pgettext_lazy("goods", "Cheese"),
    "bread": pgettext_lazy("goods", "Bread"),
    "chicken": pgettext_lazy("goods", "Chickens"),
    "pepper": pgettext_lazy("goods", "Pepper"),
    "mead": pgettext_lazy("goods", "Mead"),
    "silk": pgettext_lazy("goods", "Silk"),
    "crossbow": pgettext_lazy("goods", "Crossbow"),
    "green_apples": pgettext_lazy("goods", "Green Apples"),
    "golden_apples": pgettext_lazy("goods", "Golden Apples"),
    "gouda_cheese": pgettext_lazy("goods", "Gouda Cheese"),
    "bleu_cheese": pgettext_lazy("goods", "Bleu Cheese"),
    "rye_bread": pgettext_lazy("goods", "Rye Bread"),
    "pumpernickel_bread": pgettext_lazy("goods", "Pumpernickel Bread"),
    "royal_rooster": pgettext_lazy("goods", "Royal Rooster"),
}

COUNTED = {
    "apples": npgettext_lazy("goods", "%(count)d Apple", "%(count)d Apples", "count"),
    "cheese": npgettext_lazy("goods", "%(count)d Cheese", "%(count)d Cheese", "count"),
    "bread": npgettext_lazy("goods", "%(count)d Bread", "%(count)d Bread", "count"),
    "chicken": npgettext_lazy("goods", "%(count)d Chicken", "%(count)d Chickens", "count"),
    "pepper": npgettext_lazy("goods", "%(count)d Pepper", "%(count)d Pepper", "count"),
    "mead": npgettext_lazy("goods", "%(count)d Mead", "%(count)d Mead", "count"),
    "silk": npgettext_lazy("goods", "%(count)d Silk", "%(count)d Silk", "count"),
    "crossbow": npgettext_lazy("goods", "%(count)d Crossbow", "%(count)d Crossbows", "count"),
    "green_apples": npgettext_lazy(
        "goods", "%(count)d Green Apple", "%(count)d Green Apples", "count"
    ),
    "golden_apples": npgettext_lazy(
        "goods", "%(count)d Golden Apple", "%(count)d Golden Apples", "count"
    ),
    "gouda_cheese": npgettext_lazy(
        "goods", "%(count)d Gouda Cheese", "%(count)d Gouda Cheese", "count"
    ),
    "bleu_cheese": npgettext_lazy(
        "goods", "%(count)d Bleu Cheese", "%(count)d Bleu Cheese", "count"
    ),
    "rye_bread": npgettext_lazy("goods", "%(count)d Rye Bread", "%(count)d Rye Bread", "count"),
    "pumpernickel_bread": npgettext_lazy(
        "goods", "%(count)d Pumpernickel Bread", "%(count)d Pumpernickel Bread", "count"
    ),
    "royal_rooster": npgettext_lazy(
        "goods", "%(count)d Royal Rooster", "%(count)d Royal Roosters", "count"
    ),
}

# How players write each kind of goods, in a reply or a typed field: (English singular,
# plural, Spanish singular, plural) and other words for it. What a reader accepts is built
# from this and the names above (games.present.reply_words.goods_words), case and accents
# aside, so a kind named here reads in every form.
WRITTEN = {
    "apples": ("apple", "apples", "manzana", "manzanas"),
    "cheese": ("cheese", "cheeses", "queso", "quesos"),
    "bread": ("bread", "breads", "pan", "panes", "loaf", "loaves"),
    "chicken": ("chicken", "chickens", "gallina", "gallinas", "pollo", "pollos"),
    "pepper": ("pepper", "peppers", "pimienta", "pimientas"),
    "mead": ("mead", "meads", "aguamiel", "aguamieles", "hidromiel", "hidromieles"),
    "silk": ("silk", "silks", "seda", "sedas"),
    "crossbow": ("crossbow", "crossbows", "ballesta", "ballestas"),
    "green_apples": ("green apple", "green apples", "manzana verde", "manzanas verdes"),
    "golden_apples": ("golden apple", "golden apples", "manzana dorada", "manzanas doradas"),
    "gouda_cheese": ("gouda cheese", "gouda cheeses", "queso gouda", "quesos gouda"),
    "bleu_cheese": ("bleu cheese", "bleu cheeses", "queso azul", "quesos azules"),
    "rye_bread": ("rye bread", "rye breads", "pan de centeno", "panes de centeno"),
    "pumpernickel_bread": (
        "pumpernickel bread",
        "pumpernickel breads",
        "pan negro",
        "panes negros",
    ),
    "royal_rooster": ("royal rooster", "royal roosters", "gallo real", "gallos reales"),
}


@cached_per_language(maxsize=256)
def label(name: str) -> str:
    """A kind of goods, as a heading or a choice: "Chickens", "Gallinas"."""
    return str(LABELS[name])


@cached_per_language(maxsize=4096)
def counted(n: int, name: str) -> str:
    """A counted noun: "1 Chicken", "2 Chickens" ("2 Gallinas")."""
    return COUNTED[name] % {"count": n}


def english_matches_the_card_table() -> bool:
    """The names written out here are the engine's (checked by the tests)."""
    from django.utils import translation

    with translation.override("en"):
        return set(LABELS) == set(COUNTED) == set(WRITTEN) == set(CARD_TYPES) and all(
            label(name) == kind.label and all(counted(n, name) == kind.counted(n) for n in (1, 2))
            for name, kind in CARD_TYPES.items()
        )
