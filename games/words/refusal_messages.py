"""The engine's refusals in the reader's language.

The engine (``games.engine``) stays English: an ``EngineError`` carries a stable
``code``, a ``detail`` where a code has several messages, the plain values its
message puts in (``params``) and its English ``message``. Here each message a
player may read is written out once, keyed by the error's ``key`` ("code" or
"code.detail"), with a ``%(name)s`` placeholder for each value, and marked for
translation: a refusal is worded from its key and values, never read back from
English. A key not listed here (one the engine gained later) reads as the code's
general meaning, or as the engine wrote it where that has no translation.
tests/present/test_moves_declared_once.py checks the table against the engine's sources.
"""

from django.utils.translation import gettext, gettext_noop

# key -> the message, as the engine words it in English (docs/engine.md, section 7).
MESSAGES = {
    "game_over": gettext_noop("The game is over."),
    "wrong_phase": gettext_noop("That move is not possible in this phase."),
    "unknown_command": gettext_noop("Unknown command %(command)s."),
    "bad_command.standing": gettext_noop("A standing answer is on (true) or off (false)."),
    "bad_command.seat": gettext_noop("The command must name a seat of this game."),
    "bad_command.card_ids": gettext_noop("'%(field)s' must be a list of card ids."),
    "bad_command.shape": gettext_noop("A command must be an object with a 'type'."),
    "bad_command.draws": gettext_noop("Each draw must be 'deck', 'discard:0' or 'discard:1'."),
    "bad_command.term_keys": gettext_noop("Offer terms may contain only: %(keys)s."),
    "bad_command.gold": gettext_noop("Gold must be a whole number of 0 or more."),
    "bad_command.bag_goods": gettext_noop("Bag goods must map a kind of goods to a count."),
    "bad_command.stand_counts": gettext_noop("Stand goods must map a kind of goods to a count."),
    "bad_command.promise": gettext_noop("A promise must be text."),
    "bad_command.action": gettext_noop("Each Sheriff action is 'pass' or 'inspect' a bag."),
    "bad_command.pile_choice": gettext_noop(
        "Only the Sheriff chooses the pile and the order of confiscated goods."
    ),
    "bad_command.bags": gettext_noop("Each action must name a different merchant's bag."),
    "bad_command.to": gettext_noop("An offer must be made to another seat."),
    "bad_command.joint": gettext_noop("'joint' must be true or false."),
    "bad_command.bag": gettext_noop("Name a merchant's bag."),
    "bad_command.claim_kind": gettext_noop("Claim pepper, mead or silk."),
    "not_a_merchant.sheriff": gettext_noop("The Sheriff does not take part in this."),
    "not_a_merchant.deputies": gettext_noop("The Deputies do not take part in this."),
    "not_sheriff.sheriff": gettext_noop("Only the Sheriff can do that."),
    "not_sheriff.deputy": gettext_noop("Only a Deputy can do that."),
    "not_your_turn": gettext_noop("It is not your market turn."),
    "already_submitted.market": gettext_noop("You have already made your market choice."),
    "already_submitted.bag": gettext_noop("Your bag is already closed."),
    "already_submitted.choice": gettext_noop("You have already made your choice."),
    "already_submitted.standing": gettext_noop("Your standing answer is already so."),
    "duplicate_cards": gettext_noop("The same card is named twice."),
    "card_not_in_hand": gettext_noop("You can only use cards from your own hand."),
    "too_many_set_aside": gettext_noop("You can set aside at most 5 cards."),
    "draw_count_mismatch": gettext_noop(
        "You must take back exactly as many cards as you set aside (%(count)s)."
    ),
    "discard_after_deck": gettext_noop(
        "Draw from the discard piles first: no discard-pile draw after a deck draw."
    ),
    "empty_pile": gettext_noop("That discard pile does not have that many cards."),
    "bad_order.discard": gettext_noop("The discard order must list exactly the cards set aside."),
    "bad_order.confiscated": gettext_noop(
        "Order confiscated goods lowest value on top, highest value on top, "
        "or as a list of kinds of goods (the last listed on top)."
    ),
    "bad_discard_pile.one_pile.set_aside": gettext_noop(
        "There is one discard pile: your set-aside cards go there."
    ),
    "bad_discard_pile.one_pile.confiscated": gettext_noop(
        "There is one discard pile: confiscated goods go there."
    ),
    "bad_discard_pile.two_piles.set_aside": gettext_noop(
        "Choose discard pile 1 or 2 for your set-aside cards."
    ),
    "bad_discard_pile.two_piles.confiscated": gettext_noop(
        "Choose discard pile 1 or 2 for confiscated goods."
    ),
    "bag_size": gettext_noop("Your bag must hold 1 to 5 cards."),
    "declared_not_legal": gettext_noop(
        "Declare exactly one kind of legal goods: apples, cheese, bread or chicken."
    ),
    "count_mismatch": gettext_noop(
        "Your declaration must state the exact number of cards in your bag (%(count)s)."
    ),
    "bad_counterparty.sheriff": gettext_noop("Offers are made between a merchant and the Sheriff."),
    "bad_counterparty.deputy": gettext_noop("Offers are made between a merchant and a Deputy."),
    "too_many_offers": gettext_noop("Withdraw an offer before making another."),
    "offer_limit": gettext_noop(
        "You have made or changed %(count)s offers this inspection, the most one "
        "may. You can still accept an offer or withdraw one of yours."
    ),
    "insufficient_gold.offered": gettext_noop(
        "No one can offer more gold than they hold (%(gold)s gold)."
    ),
    "insufficient_gold.payer": gettext_noop("The payer no longer holds the gold offered."),
    "hand_cards_not_offerable": gettext_noop("Cards in hand can never be offered."),
    "card_not_on_stand": gettext_noop(
        "Only goods on the payer's stand can be offered (face-up goods, when asking for another's)."
    ),
    "bag_goods_unavailable.no_bag": gettext_noop("There is no closed bag to promise goods from."),
    "bag_goods_unavailable.too_many": gettext_noop("More goods promised than the bag holds."),
    "promise_too_long": gettext_noop("Keep promises under %(count)s characters."),
    "no_sheriff_action": gettext_noop(
        "An offer must ask the Sheriff to let a bag pass or inspect it."
    ),
    "bag_already_decided.sheriff": gettext_noop("The Sheriff has already decided that bag."),
    "bag_already_decided.deputy": gettext_noop("That Deputy has already decided that bag."),
    "bag_already_decided.a_deputy": gettext_noop("A Deputy has already decided that bag."),
    "bag_already_decided.decided": gettext_noop("That merchant's bag is already decided."),
    "bag_already_decided.no_bag": gettext_noop("That merchant's bag has no bag."),
    "bag_already_decided.my_call": gettext_noop("You have already decided about that bag."),
    "bag_already_decided.own_bag": gettext_noop("Your bag is already decided (or you have none)."),
    "bargaining_open": gettext_noop(
        "That merchant has not yet made an offer or said “no offer”, and the "
        "bargaining time is not over: their bag cannot be decided yet."
    ),
    "already_spoken": gettext_noop("You have already had your say about your bag."),
    "bargaining_over": gettext_noop("The bargaining time is already over."),
    "unknown_offer": gettext_noop("There is no such offer."),
    "offer_closed.accepted": gettext_noop("That offer is no longer open (accepted)."),
    "offer_closed.withdrawn": gettext_noop("That offer is no longer open (withdrawn)."),
    "offer_closed.lapsed": gettext_noop("That offer is no longer open (lapsed)."),
    "offer_closed.refused": gettext_noop("That offer is no longer open (refused)."),
    "not_offer_proposer.change": gettext_noop("Only whoever made an offer can change it."),
    "not_offer_proposer.withdraw": gettext_noop("Only whoever made an offer can withdraw it."),
    "not_offer_recipient.accept": gettext_noop("Only the seat an offer was made to can accept it."),
    "not_offer_recipient.refuse": gettext_noop("Only the seat an offer was made to can refuse it."),
    "stale_revision": gettext_noop(
        "That offer has changed (it is now revision %(revision)s); read it again before accepting."
    ),
    "already_accepted": gettext_noop("You have already accepted this offer."),
    "no_black_market": gettext_noop("This game is played without the Black Market."),
    "bag_not_resolved": gettext_noop("You may claim once your own bag is resolved this round."),
    "already_claimed": gettext_noop("You have already claimed a Black Market card."),
    "already_declined": gettext_noop("You said you make no claim this round."),
    "not_eligible": gettext_noop("The Black Market step waits only for its merchants."),
    "black_market_empty": gettext_noop("That Black Market pile is empty."),
    "not_enough_contraband": gettext_noop(
        "A claim needs %(count)s cards of that kind on your stand."
    ),
}

# What a code means, for a key not listed above (a code listed with one message
# of its own, without values, means that message).
GENERAL = {
    "invalid_config": gettext_noop("The game's settings are not valid."),
    "bad_command": gettext_noop("This move is not one the game can read. Please reload the page."),
    "unknown_command": gettext_noop("This move is not one the game knows. Please reload the page."),
    "not_a_merchant": gettext_noop("Only the merchants take part in this."),
    "not_sheriff": gettext_noop("Only the one who decides the bags can do that."),
    "already_submitted": gettext_noop("You have already made this move."),
    "draw_count_mismatch": gettext_noop(
        "You must take back exactly as many cards as you set aside."
    ),
    "bad_order": gettext_noop("The order of the cards is not valid."),
    "bad_discard_pile": gettext_noop("That discard pile is not valid."),
    "count_mismatch": gettext_noop(
        "Your declaration must state the exact number of cards in your bag."
    ),
    "bad_counterparty": gettext_noop(
        "Offers are made between a merchant and whoever decides the bags."
    ),
    "offer_limit": gettext_noop(
        "You have made or changed the most offers one may this inspection. You can "
        "still accept an offer or withdraw one of yours."
    ),
    "insufficient_gold": gettext_noop("No one can offer more gold than they hold."),
    "bag_goods_unavailable": gettext_noop("Those goods cannot be promised from that bag."),
    "promise_too_long": gettext_noop("That promise is too long."),
    "bag_already_decided": gettext_noop("That bag is already decided."),
    "offer_closed": gettext_noop("That offer is no longer open."),
    "not_offer_recipient": gettext_noop("Only the seat an offer was made to can answer it."),
    "not_offer_proposer": gettext_noop("Only whoever made an offer can change or withdraw it."),
    "stale_revision": gettext_noop("That offer has changed; read it again before accepting."),
    "not_enough_contraband": gettext_noop("A claim needs more cards of that kind on your stand."),
}
REFUSED = gettext_noop("That move was refused: nothing was done.")  # a code the table does not know


def meaning(code: str) -> str:
    """What an error code means, in English (translated where it is shown)."""
    if code in GENERAL:
        return GENERAL[code]
    only = MESSAGES.get(code)
    return only if only is not None and "%(" not in only else REFUSED


def text(key: str, params: dict, english: str = "") -> str:
    """The refusal ``key`` ("code" or "code.detail") with its values, in the
    active language; ``english``: the engine's own words, for a key not listed
    whose code's general meaning has no translation either."""
    template = MESSAGES.get(key)
    if template is not None:
        return gettext(template) % params if params else gettext(template)
    general = meaning(key.split(".", 1)[0])
    translated = gettext(general)
    # No translation of the general meaning either: the engine's own words say more.
    return english if english and translated == general else translated


def message(error) -> str:
    """An ``EngineError``'s message in the active language."""
    return text(error.key, error.params, error.message)
