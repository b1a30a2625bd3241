"""Plain-English lines for the game log, from events as one seat may know them.

Input is always a *projected* event (``engine.project_event``), so a line can
only ever say what that seat is allowed to know.
"""

from games import usertext
from games.engine import CARD_TYPES
from games.engine.cards import BLACK_MARKET_CLAIM
from games.engine.config import DEPUTIES_PLAYERS, DEPUTIES_ROUNDS
from games.usertext import isolate, one_line

BOOTY = "booty"  # six players: the Booty, a zone of cards and a purse
OUT = "out"  # what left the game: a Black Market claim's cards, the Booty's odd coin

REASONS = {
    "bribe": "as agreed in a deal",
    "fine": "for the fine",
    "honest_penalty": "for inspecting an honest bag",
}


def goods(types: list) -> str:
    """['cheese', 'cheese', 'chicken'] -> '2 Cheese, 1 Chicken'."""
    counts: dict[str, int] = {}
    for name in types:
        counts[name] = counts.get(name, 0) + 1
    order = list(CARD_TYPES)
    return ", ".join(
        counted(n, name) for name, n in sorted(counts.items(), key=lambda kv: order.index(kv[0]))
    )


# What the missed-move defaults did (docs/engine.md section 10), by phase: the
# organizer's "advance now" says it, where a passed deadline just says "timed out".
# "deputies": the inspection of a six-player game.
DEFAULT_MOVES = {
    "market": "{who} set nothing aside (the default move)",
    "market_turn": "{who} set nothing aside and drew nothing (the default move)",
    "load": "{whose} {bags} loaded with the default move",
    "inspection": "the bags {who} had not decided pass unopened (the default move)",
    "deputies": "the calls {who} had not made count as “let pass” (the default move)",
    "black_market": "{who} made no Black Market claim (the default move)",
}
# The same, when a deadline passed, for the phases the 3-5 player games never had
# (theirs keep the plain "the default move was made").
DEADLINE_MOVES = {
    "deputies": "the calls not made count as “let pass”",
    "black_market": "no Black Market claim",
}


def listed(parts: list) -> str:
    """['Ann', 'Ben', 'you'] -> 'Ann, Ben and you'."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def counted(n: int, card_type: str) -> str:
    """2, 'chicken' -> '2 Chickens'; 1, 'chicken' -> '1 Chicken'."""
    return CARD_TYPES[card_type].counted(n)


def pile_name(index: int, piles: int) -> str:
    """The 2nd edition has one discard pile, the 1st two: 'discard pile 2'."""
    return "the discard pile" if piles == 1 else f"discard pile {index + 1}"


def deal_parties(names: list, me: int | None, deputies=None) -> tuple:
    """(who carries out a deal's passes and inspections, who is paid): the Sheriff;
    with six players the one Deputy it binds, or both Deputies and the Booty."""
    if deputies is None:
        return "the Sheriff", "the Sheriff"
    if len(deputies) == 1:
        one = "you" if deputies[0] == me else names[deputies[0]]
        return one, one
    return "both Deputies", "the Booty"


def terms_parts(terms: dict, names: list, me: int | None, *, deputies=None) -> dict:
    """What the payer gives and what the Sheriff does, as short phrases.

    ``deputies``: with six players, the Deputies the offer binds (``offer["deputies"]``);
    None (the default) for a game with a Sheriff. Besides ``gives``, ``does`` (verb
    phrases without a subject: "let Ben's bag pass") and ``promise``, it returns who
    does them and who is paid, each as a phrase to start or end a sentence with:
    ``who`` ("the Sheriff", "you", "Ann", "both Deputies") and ``paid_to`` ("the
    Sheriff", "you", "Ann", "the Booty")."""
    who, paid_to = deal_parties(names, me, deputies)
    gives = []
    if terms["gold"]:
        gives.append(f"{terms['gold']} gold")
    if terms["stand_goods"]:
        gives.append(goods([c["type"] for c in terms["stand_goods"]]) + " from the stand")
    if terms["bag_goods"]:
        bag = [t for t, n in terms["bag_goods"].items() for _ in range(n)]
        gives.append(goods(bag) + " from the bag")
    does = []
    for action in terms["sheriff"]:
        whose = "your" if action["bag"] == me else f"{names[action['bag']]}'s"
        text = f"let {whose} bag pass" if action["action"] == "pass" else f"inspect {whose} bag"
        if action["action"] == "inspect" and "pile" in action:
            text += f" (confiscated goods to pile {action['pile'] + 1})"
        does.append(text)
    return {
        "gives": gives,
        "does": does,
        "promise": isolate(terms["promise"]),
        "who": who,
        "paid_to": paid_to,
    }


def cards(n: int, what: str = "card") -> str:
    """3 -> '3 cards', 1 -> '1 card'."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def idle_for(phases: int) -> str:
    """How long nobody has moved: 3 -> '3 phases in a row', 1 -> 'a whole phase'."""
    return "a whole phase" if phases == 1 else f"{phases} phases in a row"


class Narrator:
    """``provisional``: the game uses the provisional Black Market values
    (``state.config.black_market_provisional``), said wherever a value is shown."""

    def __init__(self, names: list, viewer: int | None, *, piles: int, provisional=False):
        self.names = usertext.names(names)  # callers may pass names as stored
        self.viewer = viewer
        self.piles = piles  # discard piles in this edition, for naming them
        self.provisional = provisional
        # Six players: two Deputies a round instead of a Sheriff, and the Booty.
        self.deputies = len(self.names) == DEPUTIES_PLAYERS

    @classmethod
    def of_game(cls, names: list, viewer: int | None, config) -> "Narrator":
        """A narrator for a game of this configuration (``GameConfig``)."""
        return cls(
            names,
            viewer,
            piles=config.discard_pile_count,
            provisional=config.black_market and config.black_market_provisional,
        )

    def pile(self, zone: str) -> str:
        """'discard:1' -> 'discard pile 2' (or 'the discard pile' when there is one)."""
        return pile_name(int(zone.partition(":")[2]), self.piles)

    def who(self, seat) -> str:
        if seat == BOOTY:
            return "The Booty"
        return "You" if seat == self.viewer else self.names[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def zone_owner(self, zone: str) -> int | None:
        """The seat a zone belongs to ('hand:2' -> 2); None for deck and discard piles."""
        kind, _, owner = zone.partition(":")
        return int(owner) if owner.isdigit() and kind != "discard" else None

    def party(self, zone: str):
        """Who holds a zone that pays or is paid: a seat, or the Booty; else None."""
        return BOOTY if zone == BOOTY else self.zone_owner(zone)

    def to_whom(self, seat) -> str:
        if seat == BOOTY:
            return "the Booty"
        return "you" if seat == self.viewer else self.names[seat]

    def verb(self, seats: list, singular: str, plural: str) -> str:
        """'inspects' for Ann, 'inspect' for you or for Ann and Ben."""
        return singular if len(seats) == 1 and seats[0] != self.viewer else plural

    def listed(self, seats: list, *, subject: bool = False) -> str:
        """'Ann and you': the reader comes last ('You' alone, as a ``subject``)."""
        seats = sorted(seats, key=lambda s: s == self.viewer)
        parts = [self.to_whom(s) for s in seats]
        if subject:
            parts[0] = self.who(seats[0])
        return listed(parts)

    def line(self, event: dict) -> str | None:
        handler = getattr(self, "_" + event["type"], None)
        return handler(event) if handler else None

    def lines(self, events: list) -> list:
        return [text for text in (self.line(e) for e in events) if text]

    # --- one method per event type ------------------------------------------------
    def _game_started(self, e):
        config = e["config"]
        edition = "1st" if config["edition"] == 1 else "2nd"
        players = f"{config['players']} players"
        if config["players"] == DEPUTIES_PLAYERS:
            players += " (two Deputies a round instead of a Sheriff)"
        if config.get("black_market"):
            players += ", with the Black Market"
        return (
            f"The game begins: {edition} edition, {players}, "
            f"{e['starting_gold']} gold each. The deck is shuffled from a secret seed "
            "whose fingerprint is published now and which is revealed at the end."
        )

    def _deputy_deck_shuffled(self, e):
        rounds = e["size"] // 2
        left = f"{rounds} rounds until it runs out"
        if e["number"] == 0:
            return f"The Deputy deck is shuffled: two Deputies a round, {left}."
        if e["number"] + 1 == DEPUTIES_ROUNDS // rounds:
            return f"The Deputy deck is shuffled again: {left}, and then the game ends."
        return f"The Deputy deck is shuffled again: {left}."

    def _round_started(self, e):
        if e.get("deputies"):  # first drawn first
            deputies = listed([self.to_whom(d) for d in e["deputies"]])
            return f"Round {e['round']} begins. The Deputies are {deputies}."
        return f"Round {e['round']} begins. {self.names[e['sheriff']]} is the Sheriff."

    def _phase_started(self, e):
        if e["phase"] == "inspection":
            said = [
                f"{self.who(seat)}: {counted(d['count'], d['declared'])}"
                for seat, d in enumerate(e["declarations"])
                if d
            ]
            return "Bags are on the table. Declarations — " + "; ".join(said) + "."
        if e["phase"] == "market_turn":
            return f"Market: {self.whose(e['seat'])} turn."
        if e["phase"] == "black_market":
            return f"Black Market: {self.listed(e['seats'])} may still claim a card."
        return {
            "market": "Market: merchants choose cards to set aside.",
            "load": "Merchants load their bags and declare.",
        }.get(e["phase"])

    def _set_aside_submitted(self, e):
        if e.get("cards") is not None:
            n = len(e["cards"])
            return f"You chose to set aside {cards(n)}." if n else "You chose to keep your hand."
        return f"{self.names[e['seat']]} has made their market choice."

    def _market_turn_taken(self, e):
        parts = [f"{self.who(e['seat'])} set aside {cards(e['set_aside'])}"]
        if e["discard_draws"]:
            parts.append(f"took {len(e['discard_draws'])} from the discard piles")
        if e["deck_draws"]:
            parts.append(f"drew {e['deck_draws']} from the deck")
        if e["pile"] is not None:
            parts.append(f"discarded onto {pile_name(e['pile'], self.piles)}")
        return ", ".join(parts) + "."

    def _bag_loaded(self, e):
        if "declared" in e:
            return f"You closed your bag: {counted(e['count'], e['declared'])} declared."
        return f"{self.names[e['seat']]} closed their bag."

    def _cards_moved(self, e):
        seen, hidden = [c["type"] for c in e["cards"]], e["hidden"]
        src = self.zone_owner(e["from"])
        dst = self.zone_owner(e["to"])
        what = goods(seen) if seen else ""
        if hidden:
            extra = cards(hidden) if not seen else cards(hidden, "more card")
            what = f"{what} and {extra}" if what else extra
        reason = e["reason"]
        if reason in ("market_draw", "refill", "deal") and dst is not None:
            verb = (
                "drew" if reason != "deal" else ("were" if dst == self.viewer else "was") + " dealt"
            )
            return f"{self.who(dst)} {verb} {what}" + (
                " from the deck." if reason != "deal" else "."
            )
        if reason == "discard_draw":
            return f"{self.who(dst)} took {what} from {self.pile(e['from'])}."
        if reason == "set_aside" and seen:
            return f"{self.who(src)} set aside {what}."
        if reason == "discard":
            return f"Put on {self.pile(e['to'])}: {what}."
        if reason == "passed":
            legal, secret = goods(seen) or "no legal goods", hidden
            tail = f" and {cards(secret, 'contraband card')} face down" if secret else ""
            if dst == self.viewer and not hidden:
                return f"Your goods go to your stand: {legal}."
            return f"{self.whose(dst).capitalize()} stand receives {legal}{tail}."
        if reason == "inspected":
            return f"{self.whose(dst).capitalize()} stand receives {what}."
        if reason == "confiscated":
            return f"Confiscated onto {self.pile(e['to'])}: {what}."
        if reason == "booty":  # six players: the Deputies' shares, an odd card discarded
            if dst is None:
                return f"The Booty's odd card goes onto {self.pile(e['to'])}: {what}."
            return f"{self.whose(dst).capitalize()} share of the Booty: {what}."
        if reason == "black_market" and src is not None:
            return f"{self.whose(src).capitalize()} {what} leave the game."
        giver, taker = self.party(e["from"]), self.party(e["to"])
        if reason in REASONS and giver is not None and taker is not None:
            return f"{self.who(giver)} handed {what} to {self.to_whom(taker)} {REASONS[reason]}."
        if reason == "reshuffle":
            count = len(e["cards"]) + hidden
            return f"The deck ran out: {cards(count, 'discarded card')} shuffled into a new deck."
        if reason == "removed":
            return f"{cards(hidden + len(seen))} removed from the game unseen."
        return None

    def _gold_transferred(self, e):
        if e["to"] == OUT:  # six players: the Booty's odd coin
            if e["amount"] == 1:
                return "The Booty's odd coin leaves the game."
            return f"{e['amount']} gold from the Booty leaves the game."
        if e["from"] == BOOTY and e["reason"] == "booty":
            return f"{self.who(e['to'])} received {e['amount']} gold from the Booty."
        why = f" {REASONS[e['reason']]}" if e["reason"] in REASONS else ""
        return f"{self.who(e['from'])} paid {self.to_whom(e['to'])} {e['amount']} gold{why}."

    def _offer_text(self, terms: dict) -> str:
        parts = terms_parts(terms, self.names, self.viewer)
        if self.deputies:  # who is bound is said in the offer, not in its terms
            return self._deal_terms(parts, f"to {' and '.join(parts['does'])}")
        gives = parts["gives"] + ([f"a promise: “{parts['promise']}”"] if parts["promise"] else [])
        return f"{' + '.join(gives) or 'nothing'} if the Sheriff will {' and '.join(parts['does'])}"

    def _deal_terms(self, parts: dict, what_for: str, *, payer: str = "") -> str:
        """Six players: '[from Ann ]5 gold[, paid to the Booty,] to let Ann's bag pass[,
        with a promise: “…”]', ``what_for`` saying who does what."""
        text = f"{payer}{' + '.join(parts['gives']) or 'nothing'}"
        if parts["gives"] and parts["paid_to"] == "the Booty":
            text += ", paid to the Booty,"
        text += f" {what_for}"
        return text + (f", with a promise: “{parts['promise']}”" if parts["promise"] else "")

    def _offer_made(self, e):
        o = e["offer"]
        kind = "demand" if o["proposer"] != o["payer"] else "offer"
        kind = kind if o["proposer"] == self.viewer else kind + "s"
        if "deputies" in o:
            return f"Offer #{o['id']}: {self.who(o['proposer'])} {kind} {self._deputies_offer(o)}."
        return (
            f"Offer #{o['id']}: {self.who(o['proposer'])} {kind} — {self._offer_text(o['terms'])}."
        )

    def _deputies_offer(self, offer: dict) -> str:
        """Six players, after 'Ann offers' or 'Ben demands': 'Ben 5 gold to let your bag
        pass', 'from Ann 5 gold, paid to the Booty, for both Deputies to let Ann's bag pass'."""
        parts = terms_parts(offer["terms"], self.names, self.viewer, deputies=offer["deputies"])
        does = " and ".join(parts["does"])
        what_for = f"to {does}" if len(offer["deputies"]) == 1 else f"for {parts['who']} to {does}"
        if offer["proposer"] != offer["payer"]:  # a Deputy's demand
            return self._deal_terms(parts, what_for, payer=f"from {self.to_whom(offer['payer'])} ")
        if len(offer["deputies"]) == 1:  # a merchant's offer to one Deputy
            return self._deal_terms(parts, what_for, payer=f"{parts['who']} ")
        return self._deal_terms(parts, what_for)

    def _offer_agreed(self, e):
        verb = "agree" if e["seat"] == self.viewer else "agrees"
        return (
            f"{self.who(e['seat'])} {verb} to offer #{e['offer']} (revision {e['revision']}): "
            "one more acceptance makes it a deal."
        )

    def _offer_revised(self, e):
        terms = self._offer_text(e["terms"])
        return f"Offer #{e['offer']} revised (revision {e['revision']}): {terms}."

    def _offer_withdrawn(self, e):
        return f"Offer #{', #'.join(map(str, e['offers']))} withdrawn."

    def _offers_lapsed(self, e):
        return f"Offer #{', #'.join(map(str, e['offers']))} lapsed."

    def _no_offer_said(self, e):
        verb = "have" if e["seat"] == self.viewer else "has"
        return f"{self.who(e['seat'])} {verb} no offer to make."

    def _bargaining_ended(self, e):
        if self.deputies:
            return "Bargaining time is over: the Deputies may now call every bag."
        return "Bargaining time is over: the Sheriff may now decide every bag."

    def _deal_made(self, e):
        text = f"Deal! Offer #{e['offer']} (revision {e['revision']}) was accepted"
        if "payee" not in e:
            return text + "."
        pays = "pay" if e["payer"] == self.viewer else "pays"
        text += f": {self.to_whom(e['payer'])} {pays} {self.to_whom(e['payee'])}"
        return text + (", binding both Deputies." if e["payee"] == BOOTY else ".")

    def _deputy_decided(self, e):
        decision = "inspect" if e["decision"] == "inspect" else "let pass"
        deal = f" (deal #{e['deal']})" if e["deal"] else ""
        verb = self.verb([e["deputy"]], "calls", "call")
        return f"{self.who(e['deputy'])} {verb} {self.whose(e['bag'])} bag: {decision}{deal}."

    def _bag_passed(self, e):
        deal = f" (deal #{e['deal']})" if e["deal"] else ""
        if self.deputies:
            return f"The Deputies let {self.whose(e['seat'])} bag pass{deal}."
        return f"The Sheriff lets {self.whose(e['seat'])} bag pass{deal}."

    def _bag_inspected(self, e):
        found = goods(e["contents"]) or "nothing"
        merchant = self.to_whom(e["seat"])
        verb = "were" if e["seat"] == self.viewer else "was"
        if e["honest"]:
            verdict = f"{merchant} {verb} honest ({found})"
        else:
            declared = counted(len(e["contents"]), e["declared"])
            verdict = f"{merchant} {verb} lying (declared {declared}, carried {found})"
        return f"{self._inspectors(e)} {self.whose(e['seat'])} bag{self._how(e)}: {verdict}."

    def _inspectors(self, e) -> str:
        """'The Sheriff inspects'; six players: 'Ann inspects', 'Ann and you inspect'."""
        if "by" not in e:
            return "The Sheriff inspects"
        return f"{self.listed(e['by'], subject=True)} {self.verb(e['by'], 'inspects', 'inspect')}"

    def _how(self, e) -> str:
        if "by" not in e:
            return ""
        return " together" if len(e["by"]) > 1 else " alone"

    def _booty_shared(self, e):
        gold = f"{e['gold']} gold each" if e["gold"] else ""
        if e["gold_out"]:
            gold += (" and " if gold else "") + "the odd coin leaves the game"
        stuff = f"{cards(len(e['goods'][0]))} each" if e["goods"][0] else ""
        if e["discarded"]:
            odd = f"the odd card goes onto {pile_name(0, self.piles)}"
            stuff += f" and {odd}" if stuff else odd
        parts = [part for part in (gold, stuff) if part]
        return f"{self.listed(e['deputies'], subject=True)} share the Booty: {'; '.join(parts)}."

    def _worth(self, value: int) -> str:
        return f"worth {value}" + (" (a provisional value)" if self.provisional else "")

    def _black_market_claimed(self, e):
        kind = CARD_TYPES[e["kind"]].label
        verb = self.verb([e["seat"]], "trades", "trade")
        return (
            f"{self.who(e['seat'])} {verb} {counted(BLACK_MARKET_CLAIM, e['kind'])} for the "
            f"Black Market's {kind} card {self._worth(e['value'])}."
        )

    def _black_market_declined(self, e):
        verb = self.verb([e["seat"]], "makes", "make")
        return f"{self.who(e['seat'])} {verb} no Black Market claim this round."

    def _black_market_submitted(self, e):
        if "choice" not in e:  # another seat's choice stays sealed
            return f"{self.names[e['seat']]} has made their Black Market choice."
        if e["choice"] in CARD_TYPES:
            return f"You chose to claim the Black Market's {CARD_TYPES[e['choice']].label} card."
        return "You chose to make no Black Market claim."

    def _black_market_missed(self, e):
        # Its kind is never said: only that an earlier claim emptied the pile.
        whose = self.whose(e["seat"]).capitalize()
        return f"{whose} Black Market claim comes to nothing: an earlier claim emptied that pile."

    def _debt_settled(self, e):
        if not e["goods_value"] and not e["forgiven"]:
            return None
        text = f"{self.who(e['debtor'])} owed {e['amount']} gold: paid {e['gold']} gold"
        if e["goods_value"]:
            text += f" and goods worth {e['goods_value']}"
        if e["forgiven"]:
            text += f"; the remaining {e['forgiven']} is forgiven"
        return text + "."

    def _default_kind(self, e) -> str:
        """The DEFAULT_MOVES row of a timed-out phase."""
        return "deputies" if e["phase"] == "inspection" and self.deputies else e["phase"]

    def _timed_out(self, e):
        if e.get("by") == "organizer":
            return self._moved_on_by_the_organizer(e)
        who = ", ".join(self.names[s] if s != self.viewer else "you" for s in e["seats"])
        done = DEADLINE_MOVES.get(self._default_kind(e), "the default move was made")
        return f"Time ran out for {who}: {done} (timed out)."

    def _moved_on_by_the_organizer(self, e):
        # "Ben's, Cid's and your bags": the reader comes last.
        seats = sorted(e["seats"], key=lambda seat: seat == self.viewer)
        if not seats:  # every move was in: nobody got a default
            return "The organizer moved the game on."
        done = DEFAULT_MOVES[self._default_kind(e)].format(
            who=listed([self.to_whom(s) for s in seats]),
            whose=listed([self.whose(s) for s in seats]),
            bags="bag was" if len(seats) == 1 else "bags were",
        )
        return f"The organizer moved the game on: {done}."

    def _noted(self, e):
        # A game note names players as they were stored: kept on one line.
        return one_line(e["text"]) if e.get("by") == "game" else f"Organizer: {isolate(e['text'])}"

    def _round_ended(self, e):
        return f"Round {e['round']} is over."

    def _game_ended(self, e):
        winners = [self.names[s["seat"]] for s in e["scores"] if s["winner"]]
        return (
            f"The game is over. Winner: {' and '.join(winners)}. Secret seed revealed: {e['seed']}"
        )


# What a decision or a deal did: shown on the page after the move and, for a whole
# round, in the end-of-round email.
OUTCOME_EVENTS = {
    "bag_passed",
    "bag_inspected",
    "gold_transferred",
    "debt_settled",
    "cards_moved",
    "booty_shared",
    "black_market_claimed",
    "black_market_missed",
}
OUTCOME_MOVES = {"passed", "inspected", "confiscated", "booty", "black_market", *REASONS}


def outcome_lines(projected: list, names: list, viewer: int | None, config) -> list:
    """The lines of a decision's (or a round's) consequences, up to the round's end:
    bags passed or inspected, who paid whom (the Booty included), goods handed over,
    the Booty shared, Black Market claims. ``config``: the game's ``GameConfig``."""
    narrator = Narrator.of_game(names, viewer, config)
    lines = []
    for event in projected:
        if event["type"] == "round_ended":
            break
        if event["type"] not in OUTCOME_EVENTS:
            continue
        if event["type"] == "cards_moved" and event["reason"] not in OUTCOME_MOVES:
            continue
        line = narrator.line(event)
        if line:
            lines.append(line)
    return lines
