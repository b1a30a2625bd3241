"""Which lines of table talk concern a reader (games/core/talk_concerns.py): the rule
by which a "my turn and results" reader gets a talk email."""

from types import SimpleNamespace

from games.core.talk_concerns import concerns, names

# Seat 0 is the Sheriff; offer 1: Ben (1) offers the Sheriff gold to pass his bag.
OFFER = {
    "id": 1,
    "proposer": 1,
    "recipient": 0,
    "payer": 1,
    "status": "open",
    "terms": {"gold": 2, "sheriff": [{"bag": 1, "action": "pass"}]},
}
# Offer 2: the Sheriff demands gold of Cid (2) to pass Dee's (3) bag too.
DEMAND = {
    "id": 2,
    "proposer": 0,
    "recipient": 2,
    "payer": 2,
    "status": "open",
    "terms": {"gold": 3, "sheriff": [{"bag": 2, "action": "pass"}, {"bag": 3, "action": "pass"}]},
}


def state(kind: str = "inspection"):
    return SimpleNamespace(phase=SimpleNamespace(kind=kind, offers={"1": OFFER, "2": DEMAND}))


def about(reader: int, name: str, text: str = "", during: str = "inspection", **quote) -> bool:
    return concerns(state(during), reader, name, text=text, private_to_reader=False, **quote)


def test_a_line_that_names_the_reader_concerns_them():
    assert about(2, "Cid", "Cid, open your bag or else")
    assert about(2, "Cid", "I'd inspect cid.")  # any case
    assert about(2, "Álvaro", "alvaro is lying")  # accents aside
    assert about(2, "Alvaro", "Álvaro is lying")


def test_a_name_counts_as_a_whole_word_only():
    assert not about(2, "Cid", "Placid merchants pay")
    assert not about(2, "Ann", "Annabel's bag")
    assert not about(2, "", "anything")
    assert names("Dee-Dee, you too", "Dee-Dee")


def test_a_quote_of_the_readers_declaration_concerns_them():
    assert about(2, "Cid", "liar", quote_kind="declaration", quote_ref=2)
    assert not about(3, "Dee", "liar", quote_kind="declaration", quote_ref=2)


def test_a_quote_of_an_offer_concerns_its_parties_and_the_bags_it_decides():
    quote = {"quote_kind": "offer", "quote_ref": 2}
    assert about(0, "Ann", "no way", **quote)  # its proposer
    assert about(2, "Cid", "no way", **quote)  # its payer, who must accept it
    assert about(3, "Dee", "no way", **quote)  # her bag is in its terms
    assert not about(1, "Ben", "no way", **quote)
    assert about(1, "Ben", "no way", quote_kind="offer", quote_ref=1)
    assert not about(1, "Ben", "no way", quote_kind="offer", quote_ref=9)  # no such offer


def test_outside_the_inspection_only_a_private_message_concerns_the_reader():
    assert not about(2, "Cid", "Cid, beware", during="market")
    assert not about(2, "Cid", "liar", during="load", quote_kind="declaration", quote_ref=2)
    assert concerns(state("market"), 2, "Cid", text="psst", private_to_reader=True)
