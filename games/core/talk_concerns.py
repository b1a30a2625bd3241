"""Does a line of table talk concern a reader? The one rule, pure: the readers who
chose "my turn and results" get a talk email only for lines that concern them.

A private message to the reader concerns them. During the inspection, so does a
line that names them (their seat's name as a whole word, whatever its case or
accents), or that quotes their declaration, or an offer they are a party to (its
proposer, payer, a seat that must accept it, or a merchant whose bag it decides).
"""

import re

from games.engine.inspection import acceptors
from games.words import user_text


def concerns(
    state,
    reader: int,
    name: str,
    *,
    text: str,
    private_to_reader: bool,
    quote_kind: str = "",
    quote_ref: int | None = None,
) -> bool:
    """Does this line (as written now, the game at ``state``) concern seat ``reader``?"""
    if private_to_reader:
        return True
    if state.phase is None or state.phase.kind != "inspection":
        return False
    if quote_kind == "declaration" and quote_ref == reader:
        return True
    if quote_kind == "offer" and quote_ref is not None:
        offer = state.phase.offers.get(str(quote_ref))
        if offer is not None and reader in parties(state, offer):
            return True
    return names(text, name)


def parties(state, offer: dict) -> set:
    """The seats an offer binds or is about."""
    bags = {term["bag"] for term in offer["terms"]["sheriff"]}
    return {offer["proposer"], offer["payer"], *acceptors(state, offer), *bags}


def names(text: str, name: str) -> bool:
    """Does ``text`` hold ``name`` as a whole word (case and accents aside)?"""
    wanted = user_text.folded(name).strip()
    if not wanted:
        return False
    return re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", user_text.folded(text)) is not None
