"""Each move's JSON body as an API client sends it: one pydantic model per engine
command, named by the moves registry (games.present.moves, ``Move.api``).

A body is the engine command without ``seat`` (the API sets it from its token):
``type`` and the command's own fields, as the engine reads them (docs/engine.md).
The models reject what is no command at all (an unknown field, a string for a
card id, a kind of goods that does not exist); whether the move is allowed now
(the card is in your hand, the gold is yours) is the engine's to say, with its
own refusal. ``as_command`` gives the engine command back. These models are our
own layer: no web framework here, the API builds on them.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from games.engine import CARD_TYPES, LEGAL_TYPES
from games.engine.cards import BLACK_MARKET_TYPES
from games.engine.inspection import DEPUTIES, HIGHEST_ON_TOP, LOWEST_ON_TOP, MAX_PROMISE

# Built from the engine's tables, so that a new kind of goods is known here too.
Goods = Literal[tuple(CARD_TYPES)]
LegalGoods = Literal[tuple(LEGAL_TYPES)]
BlackMarketGoods = Literal[tuple(BLACK_MARKET_TYPES)]


def _integral(value):
    """JSON has numbers, not integers: 3.0 is the integer 3 (as JSON Schema reads it);
    strict mode still refuses "3", true and 3.5."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# A whole number as JSON Schema's "integer" means it. It goes after a Field's bounds, so
# that the schema still shows them ("minimum", not an unknown "ge").
INTEGRAL = BeforeValidator(_integral)
MAX_CARDS = 20  # far more than any move names: a bound, the engine counts
CardId = Annotated[
    int, Field(ge=0, description="A card's id, as the game's view shows it."), INTEGRAL
]
CardIds = Annotated[list[CardId], Field(max_length=MAX_CARDS)]
Seat = Annotated[int, Field(ge=0, description="A seat: 0 is the first player."), INTEGRAL]
OfferId = Annotated[int, Field(ge=1, description="An offer's number."), INTEGRAL]
Pile = Annotated[
    int,
    Field(ge=0, description="A discard pile: 0, or 1 for the 1st edition's second pile."),
    INTEGRAL,
]
Order = Annotated[
    Literal[LOWEST_ON_TOP, HIGHEST_ON_TOP] | Annotated[list[Goods], Field(max_length=12)],
    Field(
        description="How confiscated goods are stacked on the pile: lowest_on_top (the "
        "default), highest_on_top, or a ranking of kinds of goods, the last listed on top."
    ),
]


def _config(example: dict) -> ConfigDict:
    """Strict (no "3" for 3, no 1 for true), nothing unknown, and an example body."""
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [example]})


class Body(BaseModel):
    """A body or a part of one. An optional field defaults to None but is not
    Optional: a client leaves it out (the engine's default applies, and
    ``as_command`` leaves it out too); a null is refused, and the schema shows no
    null default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        schema = handler(core_schema)
        for field in handler.resolve_ref_schema(schema).get("properties", {}).values():
            if "default" in field and field["default"] is None:
                del field["default"]
        return schema


class Command(Body):
    """A move's JSON body; each engine command's model subclasses it."""

    def as_command(self) -> dict:
        """The engine command (without ``seat``): the fields as sent, nested models as
        plain dicts, and nothing the client left out."""
        return {"type": self.type, **self.model_dump(exclude_unset=True)}


# --- the market, loading -----------------------------------------------------------------


class SetAside(Command):
    """2nd edition market: set aside up to 5 cards of your hand (none keeps it);
    you draw as many once every merchant has chosen."""

    model_config = _config({"type": "set_aside", "cards": [12, 40]})
    type: Literal["set_aside"]
    cards: CardIds


class MarketTurn(Command):
    """1st edition market turn: set aside up to 5 cards onto a discard pile and take
    as many back, from the discard piles' tops first, then from the deck."""

    model_config = _config(
        {
            "type": "market_turn",
            "cards": [12, 40],
            "draws": ["discard:0", "deck"],
            "pile": 1,
            "order": [40, 12],
        }
    )
    type: Literal["market_turn"]
    cards: CardIds
    draws: list[Literal["deck", "discard:0", "discard:1"]] = Field(
        None,
        max_length=MAX_CARDS,
        description="Where each card taken back comes from, one per card set aside "
        "(default: all from the deck).",
    )
    pile: Pile = Field(None, description="The pile that takes the cards set aside.")
    order: CardIds = Field(
        None, description="The cards set aside, the last listed ending on top (default: cards)."
    )


class LoadBag(Command):
    """Load 1 to 5 cards of your hand into your bag and declare them: one kind of
    legal goods, and the exact number of cards."""

    model_config = _config(
        {"type": "load_bag", "cards": [3, 17, 25], "declared": "apples", "count": 3}
    )
    type: Literal["load_bag"]
    cards: CardIds
    declared: LegalGoods
    count: Annotated[int, Field(ge=0), INTEGRAL]


# --- bargaining ----------------------------------------------------------------------------


class SheriffAction(Body):
    """What the Sheriff (a Deputy) does in the deal: let a merchant's bag pass, or
    inspect it. Only the Sheriff's own demand may choose the pile and the order."""

    bag: Seat
    action: Literal["pass", "inspect"]
    pile: Pile = None
    order: Order = None


class Terms(Body):
    """An offer's terms: what the payer gives (gold, goods from their stand or their
    closed bag, a promise) for what the Sheriff does (at least one action)."""

    gold: Annotated[int, Field(ge=0), INTEGRAL] = None
    stand_goods: CardIds = Field(None, description="Cards of the payer's stand, by id.")
    stand_counts: dict[Goods, Annotated[int, Field(ge=0), INTEGRAL]] = Field(
        None, description="Goods of the payer's stand by kind: {kind: how many}."
    )
    bag_goods: dict[Goods, Annotated[int, Field(ge=1), INTEGRAL]] = Field(
        None, description="Goods promised from the payer's closed bag: {kind: how many}."
    )
    promise: Annotated[str, Field(max_length=MAX_PROMISE)] = None
    sheriff: Annotated[list[SheriffAction], Field(max_length=12)]


class MakeOffer(Command):
    """An offer, or the Sheriff's (a Deputy's) demand: a merchant offers to the
    Sheriff (six players: to one Deputy or to "deputies", both); the Sheriff demands
    from a merchant, who pays. ``joint``: a Deputy's demand for both Deputies."""

    model_config = _config(
        {
            "type": "make_offer",
            "to": 0,
            "terms": {
                "gold": 3,
                "bag_goods": {"apples": 1},
                "promise": "I will owe you one.",
                "sheriff": [{"bag": 2, "action": "pass"}],
            },
        }
    )
    type: Literal["make_offer"]
    to: Seat | Literal[DEPUTIES]
    terms: Terms
    joint: bool = None


class ReviseOffer(Command):
    """New terms for one of your open offers (or demands): they replace the old ones."""

    model_config = _config(
        {
            "type": "revise_offer",
            "offer": 2,
            "terms": {"gold": 5, "sheriff": [{"bag": 2, "action": "pass"}]},
        }
    )
    type: Literal["revise_offer"]
    offer: OfferId
    terms: Terms


class WithdrawOffer(Command):
    """Take back one of your open offers (or demands)."""

    model_config = _config({"type": "withdraw_offer", "offer": 2})
    type: Literal["withdraw_offer"]
    offer: OfferId


class AcceptOffer(Command):
    """Accept an offer made to you, as it is in the revision you read: a deal. The
    Sheriff accepting may say where and how confiscated goods go."""

    model_config = _config({"type": "accept_offer", "offer": 2, "revision": 1})
    type: Literal["accept_offer"]
    offer: OfferId
    revision: Annotated[int, Field(ge=1), INTEGRAL]
    pile: Pile = None
    order: Order = None


class RefuseOffer(Command):
    """Refuse an offer made to you; the table sees that you did."""

    model_config = _config({"type": "refuse_offer", "offer": 2})
    type: Literal["refuse_offer"]
    offer: OfferId


class SayNoOffer(Command):
    """Tell the Sheriff (the Deputies) you make no offer: your bag can be decided."""

    model_config = _config({"type": "say_no_offer"})
    type: Literal["say_no_offer"]


# --- the Sheriff's decisions ---------------------------------------------------------------


class PassBag(Command):
    """Let a merchant's bag pass unopened (six players: a Deputy's call). Final."""

    model_config = _config({"type": "pass_bag", "bag": 2})
    type: Literal["pass_bag"]
    bag: Seat


class InspectBag(Command):
    """Open a merchant's bag (six players: a Deputy's call). Final. The 1st edition's
    Sheriff says which pile takes confiscated goods, and in what order."""

    model_config = _config({"type": "inspect_bag", "bag": 3, "pile": 0})
    type: Literal["inspect_bag"]
    bag: Seat
    pile: Pile = None
    order: Order = None


# --- the Black Market ----------------------------------------------------------------------


class ClaimBlackMarket(Command):
    """Claim a card of a Black Market pile, with enough of its contraband on your stand."""

    model_config = _config({"type": "claim_black_market", "kind": "pepper"})
    type: Literal["claim_black_market"]
    kind: BlackMarketGoods


class DeclineBlackMarket(Command):
    """No Black Market claim from you this round."""

    model_config = _config({"type": "decline_black_market"})
    type: Literal["decline_black_market"]


class SetBlackMarketStanding(Command):
    """Your standing answer: claim whenever you can (true), or be asked each round
    (false). Any time in a Black Market game."""

    model_config = _config({"type": "set_black_market_standing", "standing": True})
    type: Literal["set_black_market_standing"]
    standing: bool
