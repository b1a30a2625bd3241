"""The game log in the 2nd edition's new rules: six players (two Deputies a round,
the Booty) and the Black Market.

Random legal games are narrated for every seat and for a spectator, from projected
events only: every event a player should read gets a line, no line shows a Python
value, and no line names a card type the projected event does not show (another
seat's sealed Black Market choice, a missed claim's kind, face-down cards). Then the
main lines word for word, from games played through the engine.
"""

import re

import pytest

from games.engine import CARD_TYPES, GameConfig, new_game, project_event
from games.words.narrate import Narrator, outcome_lines, terms_parts
from tests.support.builders import rig, start, to_inspection
from tests.words.narrated_tables import (
    ANN,
    BEN,
    CID,
    DEE,
    EVE,
    FAY,
    NAMES,
    Table,
    black_market_step,
    deal,
    play,
    six_player_inspection,
)

KINDS = ("pepper", "mead", "silk")

# Events whose line may be empty: shuffles, and bookkeeping the other lines tell.
SILENT = {"deck_shuffled", "bag_goods_settled", "debt_settled"}
# Card moves a player reads about (a bag loaded is told by bag_loaded).
TOLD_MOVES = {
    "deal",
    "market_draw",
    "refill",
    "discard",
    "reshuffle",
    "passed",
    "inspected",
    "confiscated",
    "bribe",
    "fine",
    "honest_penalty",
    "booty",
    "black_market",
}


# --- random games -------------------------------------------------------------------


# Every way a card type can be written, longest first ("Green Apples" before "Apples").
SPELLINGS = [
    (re.compile(rf"\b{re.escape(spelling)}\b"), kind)
    for spelling, kind in sorted(
        {
            (re.sub(r"^\d+ ", "", spelling), kind)
            for kind, card in CARD_TYPES.items()
            for spelling in (card.label, card.counted(1), card.counted(2))
        },
        key=lambda pair: -len(pair[0]),
    )
]


def named_types(line: str) -> set:
    """The card types a line names; a word a longer spelling matched is not read again."""
    found = set()
    for pattern, kind in SPELLINGS:
        line, hits = pattern.subn("·", line)
        if hits:
            found.add(kind)
    return found


def shown_types(projected) -> set:
    """Every card type a projected event holds, as a value or as a key."""
    if isinstance(projected, dict):
        return {k for k in projected if k in CARD_TYPES}.union(
            *(shown_types(v) for v in projected.values())
        )
    if isinstance(projected, list):
        return set().union(*(shown_types(v) for v in projected))
    return {projected} if isinstance(projected, str) and projected in CARD_TYPES else set()


def kind_of(event: dict) -> tuple:
    """What a line is about, for the coverage check: the type and what varies."""
    kind = event["type"]
    if kind == "cards_moved":
        return kind, event["reason"], event["from"].split(":")[0], event["to"].split(":")[0]
    if (
        kind == "gold_transferred"
        and event["reason"] in ("bribe", "fine")
        and event["to"] == "booty"
    ):
        return kind, event["reason"], "a merchant", "booty"  # rare in random games: any payer
    if kind == "gold_transferred":
        return kind, event["reason"], str(event["from"]), str(event["to"])
    if kind in ("phase_started", "timed_out"):
        return kind, event["phase"], event.get("by")
    if kind == "offer_made":
        o = event["offer"]
        return (
            kind,
            "demand" if o["proposer"] != o["payer"] else "offer",
            len(o.get("deputies", ())),
        )
    if kind == "deal_made":
        return kind, {"booty": "booty", None: "sheriff"}.get(event.get("payee"), "deputy")
    if kind == "bag_inspected":
        return kind, len(event.get("by", ()))
    if kind == "black_market_submitted":
        return kind, event["choice"] == "none"
    return (kind,)


GAMES = [
    *(
        GameConfig(players=6, edition=2, black_market=True, royal_goods=n % 2 == 0)
        for n in range(8)
    ),
    *(GameConfig(players=6, edition=2, seven_card_hand=n == 1) for n in range(2)),
    *(GameConfig(players=players, edition=2, black_market=True) for players in (3, 4, 5)),
]


@pytest.fixture(scope="module")
def narrated() -> list:
    """[(viewer, event, projected, line)] for every event of every game, every viewer."""
    rows = []
    for number, config in enumerate(GAMES):
        state, events = play(config, number)
        for viewer in [*range(config.players), None]:
            narrator = Narrator(NAMES[: config.players], viewer, piles=1, provisional=True)
            for event in events:
                projected = project_event(state, event, viewer)
                rows.append((viewer, event, projected, narrator.line(projected)))
    return rows


def test_every_event_a_player_reads_has_a_line_for_every_viewer(narrated):
    missing = [
        (viewer, projected)
        for viewer, event, projected, line in narrated
        if not line
        and event["type"] not in SILENT
        and (event["type"] != "cards_moved" or event["reason"] in TOLD_MOVES)
    ]
    assert missing[:5] == []


def test_no_line_shows_a_python_value(narrated):
    bad = [line for _, _, _, line in narrated if line and ("None" in line or "{" in line)]
    assert bad[:5] == []


def test_no_line_names_a_card_type_its_reader_may_not_see(narrated):
    leaks = [
        (viewer, projected, line)
        for viewer, _, projected, line in narrated
        if line and not named_types(line) <= shown_types(projected)
    ]
    assert leaks[:5] == []


def test_sealed_choices_and_missed_claims_never_say_their_kind(narrated):
    for viewer, event, _, line in narrated:
        sealed = event["type"] == "black_market_submitted" and event["seat"] != viewer
        if sealed or event["type"] == "black_market_missed":
            assert not named_types(line) & set(KINDS), line


def test_the_random_games_cover_the_new_lines(narrated):
    seen = {kind_of(event) for _, event, _, line in narrated if line}
    expected = {
        ("round_started",),
        ("deputy_deck_shuffled",),
        ("phase_started", "black_market", None),
        ("offer_made", "offer", 1),
        ("offer_made", "offer", 2),
        ("offer_made", "demand", 1),
        ("offer_made", "demand", 2),
        ("offer_agreed",),
        ("offer_refused",),
        ("deal_made", "booty"),
        ("deal_made", "deputy"),
        ("deputy_decided",),
        ("bag_inspected", 1),
        ("bag_inspected", 2),
        ("gold_transferred", "bribe", "a merchant", "booty"),
        ("gold_transferred", "fine", "a merchant", "booty"),
        ("gold_transferred", "booty", "booty", str(CID)),
        ("cards_moved", "booty", "booty", "stand"),
        ("cards_moved", "booty", "booty", "discard"),
        ("cards_moved", "fine", "stand", "booty"),
        ("cards_moved", "black_market", "stand", "out"),
        ("booty_shared",),
        ("black_market_claimed",),
        ("black_market_declined",),
        ("black_market_standing_set",),
        ("black_market_submitted", True),
        ("black_market_submitted", False),
        ("timed_out", "black_market", None),
        ("timed_out", "inspection", None),
        ("timed_out", "inspection", "organizer"),
    }
    assert expected - seen == set()  # the odd coin: in the word-for-word tests below


# --- the main lines, word for word --------------------------------------------------------


def test_a_six_player_round_read_by_a_merchant_a_deputy_and_a_spectator():
    table = six_player_inspection()
    table.do("make_offer", seat=CID, to="deputies", terms=deal(5, **{"pass": CID}))
    table.do("accept_offer", seat=ANN, offer=1, revision=1)
    table.do("accept_offer", seat=BEN, offer=1, revision=1)
    table.do("make_offer", seat=ANN, to=DEE, joint=True, terms=deal(1, **{"pass": DEE}))
    table.do("pass_bag", seat=ANN, bag=DEE)
    table.do("inspect_bag", seat=BEN, bag=DEE)
    table.do("inspect_bag", seat=ANN, bag=EVE)
    table.do("inspect_bag", seat=BEN, bag=EVE)
    table.do("make_offer", seat=BEN, to=FAY, terms=deal(2, **{"pass": FAY}))
    table.do("accept_offer", seat=FAY, offer=3, revision=1)
    table.do("timeout")  # Ann has not called Fay's bag: it counts as "let pass"
    assert table.state.round == 2

    for line in [
        "Offer #1: You offer 5 gold, paid to the Booty, for both Deputies to let your bag pass.",
        "Ann agrees to offer #1 (revision 1): one more acceptance makes it a deal.",
        "Deal! Offer #1 (revision 1) was accepted: you pay the Booty, binding both Deputies.",
        "You paid the Booty 5 gold as agreed in a deal.",
        "Ann calls your bag: let pass (deal #1).",
        "Ben calls your bag: let pass (deal #1).",
        "The Deputies let your bag pass (deal #1).",
        "Demand #2: Ann demands from Dee 1 gold, paid to the Booty, for both Deputies "
        "to let Dee's bag pass.",
        "Ann calls Dee's bag: let pass.",
        "Demand #2 lapsed.",
        "Ben calls Dee's bag: inspect.",
        "Ben inspects Dee's bag alone: Dee was honest (2 Apples).",
        "Ben paid Dee 4 gold for inspecting an honest bag.",
        "Ann and Ben inspect Eve's bag together: "
        "Eve was lying (declared 2 Apples, carried 1 Apple, 1 Pepper).",
        "Confiscated onto the discard pile: 1 Pepper.",
        "Eve paid the Booty 4 gold for the fine.",
        "Demand #3: Ben demands from Fay 2 gold to let Fay's bag pass.",
        "Deal! Demand #3 (revision 1) was accepted: Fay pays Ben.",
        "Time ran out for Ann: the calls not made count as “let pass” (timed out).",
        "Ann calls Fay's bag: let pass.",
        "Ann and Ben share the Booty: 4 gold each and the odd coin leaves the game.",
        "Ann received 4 gold from the Booty.",
        "The Booty's odd coin leaves the game.",
    ]:
        assert line in table.lines(CID)

    ben = table.lines(BEN)
    assert "Ann and you inspect Eve's bag together: " in "".join(ben)
    assert "Demand #3: You demand from Fay 2 gold to let Fay's bag pass." in ben
    assert "You inspect Dee's bag alone: Dee was honest (2 Apples)." in ben
    assert "Ann and you share the Booty: 4 gold each and the odd coin leaves the game." in ben
    assert "You received 4 gold from the Booty." in ben
    ann = table.lines(ANN)
    assert "Round 2 begins. The Deputies are " in "".join(ann)
    assert "You agree to offer #1 (revision 1): one more acceptance makes it a deal." in ann
    assert "You call Dee's bag: let pass." in ann
    assert "Time ran out for you: the calls not made count as “let pass” (timed out)." in ann
    spectator = table.lines(None)
    assert (
        "Offer #1: Cid offers 5 gold, paid to the Booty, for both Deputies to let Cid's bag pass."
        in spectator
    )

    # The end-of-round email: what the bags, the deals and the Booty did.
    outcome = outcome_lines(table.projected(EVE), NAMES, EVE, table.state.config)
    assert "The Deputies let Cid's bag pass (deal #1)." in outcome
    assert "You paid the Booty 4 gold for the fine." in outcome
    assert "Ann and Ben share the Booty: 4 gold each and the odd coin leaves the game." in outcome
    assert not [line for line in outcome if " calls " in line]


def test_the_round_and_the_deputy_deck():
    state, events = new_game(GameConfig(players=6, edition=2), "ab" * 32)
    narrator = Narrator(NAMES, None, piles=1)
    lines = narrator.lines([project_event(state, e, None) for e in events])
    first, second = state.deputies
    assert "The Deputy deck is shuffled: two Deputies a round, 3 rounds until it runs out." in lines
    assert f"Round 1 begins. The Deputies are {NAMES[first]} and {NAMES[second]}." in lines
    [started] = [e for e in events if e["type"] == "round_started"]
    mine = Narrator(NAMES, second, piles=1).line(project_event(state, started, second))
    assert mine == f"Round 1 begins. The Deputies are {NAMES[first]} and you."
    last = {"seq": 1, "type": "deputy_deck_shuffled", "number": 2, "size": 6}
    assert narrator.line(last) == (
        "The Deputy deck is shuffled again: 3 rounds until it runs out, and then the game ends."
    )


def test_goods_paid_to_the_booty_and_shared_with_an_odd_card():
    table = six_player_inspection()
    table.state = rig(table.state, f"stand:{CID}", ["chicken", "cheese", "apples"])
    stand = list(table.state.stand(CID))
    terms = {"gold": 0, "stand_goods": stand, "sheriff": [{"bag": CID, "action": "pass"}]}
    table.do("make_offer", seat=CID, to="deputies", terms=terms)
    table.do("accept_offer", seat=ANN, offer=1, revision=1)
    table.do("accept_offer", seat=BEN, offer=1, revision=1)
    table.do("timeout")
    lines = table.lines(DEE)
    for line in [
        "Offer #1: Cid offers 1 Apple, 1 Cheese, 1 Chicken from the stand, paid to the Booty, "
        "for both Deputies to let Cid's bag pass.",
        "Cid handed 1 Apple, 1 Cheese, 1 Chicken to the Booty as agreed in a deal.",
        "Ann and Ben share the Booty: 1 card each and the odd card goes onto the discard pile.",
        "Ann's share of the Booty: 1 Chicken.",
        "Ben's share of the Booty: 1 Cheese.",
        "The Booty's odd card goes onto the discard pile: 1 Apple.",
    ]:
        assert line in lines


def test_a_black_market_claim():
    table = Table(rig(start(black_market=True), "stand:1", ["pepper"] * 3))
    table.state = to_inspection(table.state, {1: (["apples"], "apples")})
    table.do("pass_bag", seat=0, bag=1)
    table.do("claim_black_market", seat=1, kind="pepper")
    table.do("decline_black_market", seat=2)
    assert table.lines(3)[-3:] == [
        "Ben trades 3 Pepper for the Black Market's Pepper card worth 30.",
        "Ben's 3 Pepper leave the game.",
        "Cid makes no Black Market claim this round.",
    ]
    assert table.lines(1, provisional=True)[-3] == (
        "You trade 3 Pepper for the Black Market's Pepper card worth 30 (a provisional value)."
    )
    outcome = outcome_lines(table.projected(2), NAMES[:4], 2, table.state.config)
    assert outcome[-2:] == [
        "Ben trades 3 Pepper for the Black Market's Pepper card worth 30 (a provisional value).",
        "Ben's 3 Pepper leave the game.",
    ]


def test_a_missed_claim_never_says_its_kind():
    table = black_market_step()
    for seat in (3, 2, 1):
        table.do("claim_black_market", seat=seat, kind="mead")
    assert "Black Market: Ben, Cid and Dee may still claim a card." in table.lines(0)
    dee = table.lines(3)
    assert "You chose to claim the Black Market's Mead card." in dee
    assert "Your Black Market claim comes to nothing: an earlier claim emptied that pile." in dee
    ann = table.lines(0)
    assert "Dee has made their Black Market choice." in ann
    assert "Dee's Black Market claim comes to nothing: an earlier claim emptied that pile." in ann
    assert "Black Market: Ben, Cid and you may still claim a card." in table.lines(3)
    outcome = outcome_lines(table.projected(None), NAMES[:4], None, table.state.config)
    assert "Dee's Black Market claim comes to nothing: an earlier claim emptied that pile." in (
        outcome
    )


def test_the_black_market_step_moved_on():
    table = black_market_step()
    table.do("decline_black_market", seat=1)
    assert table.lines(1)[-1] == "You chose to make no Black Market claim."
    table.do("timeout", by="organizer")
    assert (
        "The organizer moved the game on: Cid and you made no Black Market claim "
        "(the default move)." in table.lines(3)
    )
    table = black_market_step()
    table.do("timeout")
    assert "Time ran out for Ben, Cid, Dee: no Black Market claim (timed out)." in table.lines(0)


def test_the_organizer_moves_an_undecided_deputy_on():
    table = six_player_inspection()
    table.do("pass_bag", seat=ANN, bag=CID)
    table.do("timeout", by="organizer")
    assert (
        "The organizer moved the game on: the calls Ben and you had not made count as "
        "“let pass” (the default move)." in table.lines(ANN)
    )
    ended = {"seq": 1, "type": "bargaining_ended"}
    assert Narrator(NAMES, ANN, piles=1).line(ended) == (
        "Bargaining time is over: the Deputies may now call every bag."
    )


def test_terms_parts_names_who_acts_and_who_is_paid():
    terms = {"gold": 3, "stand_goods": [], "bag_goods": {}, "promise": "", "sheriff": []}
    terms["sheriff"] = [{"bag": CID, "action": "pass"}]
    sheriff = terms_parts(terms, NAMES, CID)
    assert sheriff == {
        "gives": ["3 gold"],
        "does": ["let your bag pass"],
        "promise": "",
        "who": "the Sheriff",
        "paid_to": "the Sheriff",
    }
    one = terms_parts(terms, NAMES, ANN, deputies=[ANN])
    assert (one["who"], one["paid_to"], one["does"]) == ("you", "you", ["let Cid's bag pass"])
    assert terms_parts(terms, NAMES, CID, deputies=[BEN])["who"] == "Ben"
    both = terms_parts(terms, NAMES, CID, deputies=[ANN, BEN])
    assert (both["who"], both["paid_to"]) == ("both Deputies", "the Booty")
