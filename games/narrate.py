"""Plain-English lines for the game log, from events as one seat may know them.

Input is always a *projected* event (``engine.project_event``), so a line can
only ever say what that seat is allowed to know.
"""

from games import usertext
from games.engine import CARD_TYPES
from games.usertext import isolate, one_line

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
DEFAULT_MOVES = {
    "market": "{who} set nothing aside (the default move)",
    "market_turn": "{who} set nothing aside and drew nothing (the default move)",
    "load": "{whose} {bags} loaded with the default move",
    "inspection": "the bags {who} had not decided pass unopened (the default move)",
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


def terms_parts(terms: dict, names: list, me: int | None) -> dict:
    """What the payer gives and what the Sheriff does, as short phrases."""
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
    return {"gives": gives, "does": does, "promise": isolate(terms["promise"])}


def cards(n: int, what: str = "card") -> str:
    """3 -> '3 cards', 1 -> '1 card'."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def idle_for(phases: int) -> str:
    """How long nobody has moved: 3 -> '3 phases in a row', 1 -> 'a whole phase'."""
    return "a whole phase" if phases == 1 else f"{phases} phases in a row"


class Narrator:
    def __init__(self, names: list, viewer: int | None, *, piles: int):
        self.names = usertext.names(names)  # callers may pass names as stored
        self.viewer = viewer
        self.piles = piles  # discard piles in this edition, for naming them

    def pile(self, zone: str) -> str:
        """'discard:1' -> 'discard pile 2' (or 'the discard pile' when there is one)."""
        return pile_name(int(zone.partition(":")[2]), self.piles)

    def who(self, seat: int) -> str:
        return "You" if seat == self.viewer else self.names[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def zone_owner(self, zone: str) -> int | None:
        """The seat a zone belongs to ('hand:2' -> 2); None for deck and discard piles."""
        kind, _, owner = zone.partition(":")
        return int(owner) if owner.isdigit() and kind != "discard" else None

    def to_whom(self, seat: int) -> str:
        return "you" if seat == self.viewer else self.names[seat]

    def line(self, event: dict) -> str | None:
        handler = getattr(self, "_" + event["type"], None)
        return handler(event) if handler else None

    def lines(self, events: list) -> list:
        return [text for text in (self.line(e) for e in events) if text]

    # --- one method per event type ------------------------------------------------
    def _game_started(self, e):
        edition = "1st" if e["config"]["edition"] == 1 else "2nd"
        return (
            f"The game begins: {edition} edition, {e['config']['players']} players, "
            f"{e['starting_gold']} gold each. The deck is shuffled from a secret seed "
            "whose fingerprint is published now and which is revealed at the end."
        )

    def _round_started(self, e):
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
        if reason in REASONS and src is not None and dst is not None:
            return f"{self.who(src)} handed {what} to {self.to_whom(dst)} {REASONS[reason]}."
        if reason == "reshuffle":
            count = len(e["cards"]) + hidden
            return f"The deck ran out: {cards(count, 'discarded card')} shuffled into a new deck."
        if reason == "removed":
            return f"{cards(hidden + len(seen))} removed from the game unseen."
        return None

    def _gold_transferred(self, e):
        why = f" {REASONS[e['reason']]}" if e["reason"] in REASONS else ""
        return f"{self.who(e['from'])} paid {self.to_whom(e['to'])} {e['amount']} gold{why}."

    def _offer_text(self, terms: dict) -> str:
        parts = terms_parts(terms, self.names, self.viewer)
        gives = parts["gives"] + ([f"a promise: “{parts['promise']}”"] if parts["promise"] else [])
        return f"{' + '.join(gives) or 'nothing'} if the Sheriff will {' and '.join(parts['does'])}"

    def _offer_made(self, e):
        o = e["offer"]
        kind = "demand" if o["proposer"] != o["payer"] else "offer"
        kind = kind if o["proposer"] == self.viewer else kind + "s"
        return (
            f"Offer #{o['id']}: {self.who(o['proposer'])} {kind} — {self._offer_text(o['terms'])}."
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
        return "Bargaining time is over: the Sheriff may now decide every bag."

    def _deal_made(self, e):
        return f"Deal! Offer #{e['offer']} (revision {e['revision']}) was accepted."

    def _bag_passed(self, e):
        deal = f" (deal #{e['deal']})" if e["deal"] else ""
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
        return f"The Sheriff inspects {self.whose(e['seat'])} bag: {verdict}."

    def _debt_settled(self, e):
        if not e["goods_value"] and not e["forgiven"]:
            return None
        text = f"{self.who(e['debtor'])} owed {e['amount']} gold: paid {e['gold']} gold"
        if e["goods_value"]:
            text += f" and goods worth {e['goods_value']}"
        if e["forgiven"]:
            text += f"; the remaining {e['forgiven']} is forgiven"
        return text + "."

    def _timed_out(self, e):
        if e.get("by") == "organizer":
            return self._moved_on_by_the_organizer(e)
        who = ", ".join(self.names[s] if s != self.viewer else "you" for s in e["seats"])
        return f"Time ran out for {who}: the default move was made (timed out)."

    def _moved_on_by_the_organizer(self, e):
        # "Ben's, Cid's and your bags": the reader comes last.
        seats = sorted(e["seats"], key=lambda seat: seat == self.viewer)
        if not seats:  # every move was in: nobody got a default
            return "The organizer moved the game on."
        done = DEFAULT_MOVES[e["phase"]].format(
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
}
OUTCOME_MOVES = {"passed", "inspected", "confiscated", *REASONS}


def outcome_lines(projected: list, names: list, viewer: int | None, *, piles: int) -> list:
    """The lines of a decision's (or a round's) consequences, up to the round's end:
    bags passed or inspected, who paid whom, goods handed over, deals."""
    narrator = Narrator(names, viewer, piles=piles)
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
