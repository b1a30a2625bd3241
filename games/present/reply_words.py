"""The words moves by reply are made of, shared by the readers of the moves
(games.present.reply_readers), of the offers (games.present.reply_offers) and
their dispatcher (games.present.reply_commands): a reply's first line as the
phrasings read it, players named, cards numbered by their place in the hand,
goods named in English or Spanish, singular or plural, whatever the reader's
language."""

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import CARD_TYPES, LEGAL_TYPES
from games.present.move_fields import FormError
from games.words import goods_names, user_text

# What the deputies are called as one recipient (six players).
DEPUTIES_WORDS = ("deputies", "the deputies", "both deputies", "alguaciles", "los alguaciles")
# "... promise: the rest of the line", read from the line as written (case kept).
PROMISE = re.compile(r"\s*(?:promise|promesa|prometo)\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Said:
    """A reply's first line as the phrasings read it: made plain (``line``); and,
    for bargaining, made plain without a trailing "promise: …" (``bargain``), with
    that promise as written."""

    original: str
    line: str
    bargain: str
    promise: str

    @classmethod
    def of(cls, text: str) -> "Said":
        original = first_line(text)
        promise, rest = "", original
        found = PROMISE.search(original)
        if found:
            promise, rest = found.group(1).strip(), original[: found.start()]
        return cls(original, plain(original), plain(rest), promise)


@dataclass(frozen=True)
class Phrasing:
    """One way a reply's first line says a move (an entry of the moves registry's
    ``replies``): its words, matched against the whole plain line, and the reader
    that turns the match into the command, (view, names, match) -> command.

    ``promise``: bargaining words, matched against the line without its promise,
    which the reader gets too: (view, names, match, promise). A reader raises
    FormError for words that cannot be the move, and returns None when the same
    words mean another entry's move in this game (a 1st-edition market turn says
    "set aside" too)."""

    pattern: re.Pattern
    read: Callable
    promise: bool = False

    def command(self, said: Said, view: dict, names: list) -> dict | None:
        """The command ``said`` reads as in these words, or None if it is not them."""
        if self.promise:
            match = self.pattern.match(said.bargain)
            return self.read(view, names, match, said.promise) if match else None
        match = self.pattern.match(said.line)
        return self.read(view, names, match) if match else None


def plain(text: str) -> str:
    """Lower case, no accents, one space between words, no closing punctuation:
    "Registra a Álvaro." -> "registra a alvaro"."""
    return " ".join(user_text.folded(text).split()).strip(" .!¡?¿,;:")


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line
    return ""


def seat_named(said: str, names: list) -> int:
    """The seat whose name is ``said`` (any case, accents ignored; "a Bob" as
    Spanish says it); FormError if none, or several, are."""
    found = seat_if_named(said, names)
    if found is None:
        raise FormError(
            _("“%(said)s” is not the name of one player at this table.")
            % {"said": user_text.isolate(said.strip()[:60])}
        )
    return found


def seat_if_named(said: str, names: list) -> int | None:
    wanted = plain(said).removeprefix("a ")
    found = [seat for seat, name in enumerate(names) if plain(name) == wanted]
    if not found:  # a first name alone, if only one seat starts so
        found = [s for s, name in enumerate(names) if plain(name).split()[:1] == wanted.split()]
    return found[0] if len(found) == 1 else None


def hand_cards(view: dict, numbers: str) -> list:
    """The card ids of ``numbers`` ("1 3"), by their place in the hand (from 1), in
    the order named."""
    hand = view["me"]["hand"]
    chosen = [int(n) for n in numbers.split()]
    wrong = [n for n in chosen if not 1 <= n <= len(hand)]
    if wrong:
        raise FormError(
            _("Your hand has cards 1 to %(last)s; there is no card %(number)s.")
            % {"last": len(hand), "number": wrong[0]}
        )
    if len(set(chosen)) != len(chosen):
        raise FormError(_("The same card is chosen twice."))
    return [hand[n - 1]["id"] for n in chosen]


@functools.cache
def goods_words() -> dict:
    """Every word for each kind of goods, folded: as players write it
    (goods_names.WRITTEN: singular and plural, English and Spanish) and as pages
    name it, in both languages ("Gallinas", "2 de Queso")."""
    words = {}
    for kind in CARD_TYPES:
        names = set(goods_names.WRITTEN[kind])
        for language in ("en", "es"):
            with translation.override(language):
                names.add(str(goods_names.label(kind)))
                for count in (1, 2):
                    names.add(str(goods_names.counted(count, kind)).split(" ", 1)[1])
        for name in names:
            words[_without_de(plain(name))] = kind
    return words


def _without_de(words: str) -> str:
    """ "de queso" -> "queso": Spanish counts goods either way ("4 de queso")."""
    return words.removeprefix("de ")


def goods_kind(said: str) -> str | None:
    return goods_words().get(_without_de(plain(said)))


def declared_goods(said: str) -> str:
    """The legal goods a declaration names; FormError for anything else."""
    kind = goods_kind(said)
    if kind not in LEGAL_TYPES:
        raise FormError(
            _("Declare Apples, Cheese, Bread or Chickens: “%(said)s” is none of them.")
            % {"said": user_text.isolate(said[:30])}
        )
    return kind


def pile_index(view: dict, number: str) -> int:
    """A discard pile as players number it (1 or 2), as the engine does (0 or 1)."""
    piles = len(view.get("discard_piles", [])) or 1
    if not 1 <= int(number) <= piles:
        raise FormError(
            _("There is no discard pile %(number)s: this game has %(count)s.")
            % {"number": number, "count": piles}
        )
    return int(number) - 1
