"""A move's page form fields, both ways: each move's parser turns the fields a
seat page posts into the command's own fields (``FormError`` for malformed
input: the player reads it, nothing changes), and its writer turns a command
back into those fields (the drill posts them; tests round-trip them). A refused
form is read back as it was sent (``sent_back``), to be shown again. The moves
registry (games.present.moves) names each move's parser and writer.
"""

from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import CARD_TYPES, LEGAL_TYPES
from games.engine.cards import BLACK_MARKET_TYPES
from games.engine.inspection import HIGHEST_ON_TOP, LOWEST_ON_TOP
from games.present.roles import DEPUTIES
from games.words import goods_names
from games.words.typed_text import whole_number

MAX_NUMBER = 10**6
MAX_DIGITS = len(str(MAX_NUMBER))
MAX_CARDS = 20
MAX_PROMISE = 500
LINE_BREAKS = "\r\n"  # the promise is a textarea


class FormError(Exception):
    """Malformed input; ``message`` is shown to the player, nothing changes."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _number(raw: str) -> int | None:
    return whole_number(raw, MAX_DIGITS)


def int_field(post, name: str, *, what: str, default: int | None = None) -> int:
    """A whole number field (``default`` when empty; FormError when missing or not one)."""
    raw = post.get(name, "")
    raw = raw.strip() if isinstance(raw, str) else ""
    if raw == "":
        if default is None:
            raise FormError(
                _("%(what)s is missing. Please reload the page and try again.") % {"what": what}
            )
        return default
    value = _number(raw)
    if value is None:
        raise FormError(_("%(what)s must be a whole number.") % {"what": what})
    if value > MAX_NUMBER:
        largest = number_format(MAX_NUMBER, force_grouping=True)
        raise FormError(
            _("%(what)s must be a whole number up to %(largest)s.")
            % {"what": what, "largest": largest}
        )
    return value


def _cards(post, name: str = "cards") -> list:
    values = post.getlist(name)
    if len(values) > MAX_CARDS:
        raise FormError(_("Too many cards chosen."))
    cards = [_number(v.strip()) for v in values]
    if None in cards:
        raise FormError(_("A chosen card is not valid. Please reload the page."))
    if len(set(cards)) != len(cards):
        raise FormError(_("The same card is chosen twice."))
    return cards


def _pile(post, name: str = "pile") -> dict:
    """``{"pile": n}`` (0-based, as the engine counts) when the form has a pile
    choice, else ``{}`` (the engine's default)."""
    if post.get(name, "").strip() == "":
        return {}
    return {"pile": int_field(post, name, what=pgettext("a form field", "The discard pile"))}


# The orders of confiscated goods a page offers (1st edition); the engine takes rankings too.
ORDERS = (LOWEST_ON_TOP, HIGHEST_ON_TOP)


def _order(post) -> dict:
    """``{"order": ...}`` when the form chose how confiscated goods are stacked,
    else ``{}`` (the engine's default: lowest value on top)."""
    order = post.get("order", "").strip()
    if order == "":
        return {}
    if order not in ORDERS:
        raise FormError(
            _("Choose which confiscated goods go on top: the lowest or the highest value.")
        )
    return {"order": order}


# --- one parser per move -------------------------------------------------------------


def parse_set_aside(post) -> dict:
    return {"cards": _cards(post)}


def parse_market_turn(post) -> dict:
    """Draws: all from pile 1, then all from pile 2, then the deck (the order
    between piles does not change what you get). ``top``: the set-aside card
    that ends on top of the pile; the others keep hand order below it."""
    cards = _cards(post)
    from_0 = int_field(
        post, "from_pile_0", what=pgettext("a form field", "Cards from discard pile 1"), default=0
    )
    from_1 = int_field(
        post, "from_pile_1", what=pgettext("a form field", "Cards from discard pile 2"), default=0
    )
    if from_0 + from_1 > len(cards):
        raise FormError(
            ngettext(
                "You set aside %(count)s card, so you can take at most that many "
                "from the discard piles.",
                "You set aside %(count)s cards, so you can take at most that many "
                "from the discard piles.",
                len(cards),
            )
            % {"count": len(cards)}
        )
    draws = ["discard:0"] * from_0 + ["discard:1"] * from_1
    draws += ["deck"] * (len(cards) - len(draws))
    command = {"cards": cards, "draws": draws}
    if not cards:
        return command
    pile = _pile(post)
    if not pile:
        raise FormError(_("Choose the discard pile that receives the cards you set aside."))
    top = post.get("top", "").strip()
    order = list(cards)
    if top:
        top_card = _number(top)
        if top_card is None:
            raise FormError(_("The card to put on top is not valid."))
        if top_card not in cards:
            raise FormError(_("The card you put on top must be one of the cards you set aside."))
        order = [c for c in cards if c != top_card] + [top_card]
    return {**command, "order": order, **pile}


def parse_load_bag(post) -> dict:
    cards = _cards(post)
    declared = post.get("declared", "")
    if declared not in LEGAL_TYPES:
        raise FormError(_("Choose the goods you declare: Apples, Cheese, Bread or Chickens."))
    return {"cards": cards, "declared": declared, "count": len(cards)}


def _counts(post, where: str, what: str) -> dict:
    """{kind: count} of the ``<where>_<kind>`` number fields (goods from a bag or a
    stand), those above 0; ``what`` names a field in a refusal."""
    counts = {}
    for name in CARD_TYPES:
        count = int_field(
            post, f"{where}_{name}", what=what % {"goods": goods_names.label(name)}, default=0
        )
        if count:
            counts[name] = count
    return counts


def _terms(post) -> dict:
    promise = post.get("promise", "").strip()
    if len(promise) > MAX_PROMISE:
        raise FormError(
            _("A promise can be at most %(count)s characters.") % {"count": MAX_PROMISE}
        )
    bag_goods = _counts(post, "bag", pgettext("a form field", "%(goods)s from the bag"))
    stand_counts = _counts(post, "stand", pgettext("a form field", "%(goods)s from the stand"))
    actions = []
    for field in post:  # document order: the bags in the order the page lists them
        if not field.startswith("action_"):
            continue
        suffix = field.removeprefix("action_")
        bag = _number(suffix)
        if bag is None:
            raise FormError(_("A bag in this offer is not valid. Please reload the page."))
        action = post.get(field, "")
        if action == "":
            continue
        if action not in ("pass", "inspect"):
            raise FormError(_("The Sheriff either lets a bag pass or inspects it."))
        entry = {"bag": bag, "action": action}
        if action == "inspect":
            entry.update(_pile(post, f"pile_{suffix}"))
        actions.append(entry)
    if not actions:
        raise FormError(
            _("Say what the Sheriff does in this deal: let at least one bag pass, or inspect it.")
        )
    return {
        "gold": int_field(post, "gold", what=pgettext("a form field", "Gold"), default=0),
        "stand_goods": _cards(post, "stand_goods"),  # by card: a reply, a program
        **({"stand_counts": stand_counts} if stand_counts else {}),  # by kind: the page
        "bag_goods": bag_goods,
        "promise": promise,
        "sheriff": actions,
    }


def parse_make_offer(post) -> dict:
    """``to``: a seat, or "deputies" (six players: both Deputies). ``joint``: a
    Deputy's demand made for both Deputies (a ticked box)."""
    to = post.get("to", "").strip()
    recipient = (
        DEPUTIES
        if to == DEPUTIES
        else int_field(post, "to", what=pgettext("a form field", "The recipient"))
    )
    command = {"to": recipient, "terms": _terms(post)}
    if post.get("joint", "") not in ("", "yes"):
        raise FormError(_("This form is not one the game knows. Please reload the page."))
    if post.get("joint") == "yes":
        command["joint"] = True
    return command


def parse_revise_offer(post) -> dict:
    return {
        "offer": int_field(post, "offer", what=pgettext("a form field", "The offer number")),
        "terms": _terms(post),
    }


def parse_withdraw_offer(post) -> dict:
    return {"offer": int_field(post, "offer", what=pgettext("a form field", "The offer number"))}


def parse_refuse_offer(post) -> dict:
    return {"offer": int_field(post, "offer", what=pgettext("a form field", "The offer number"))}


def parse_accept_offer(post) -> dict:
    return {
        "offer": int_field(post, "offer", what=pgettext("a form field", "The offer number")),
        "revision": int_field(
            post, "revision", what=pgettext("a form field", "The offer revision")
        ),
        **_pile(post),
        **_order(post),
    }


def _confirmed(post) -> None:
    """A pass or inspect is final: it is sent only from its confirmation form."""
    if post.get("confirm") != "yes":
        raise FormError(_("Confirm the decision first: it is final. Nothing was decided."))


def parse_pass_bag(post) -> dict:
    _confirmed(post)
    return {"bag": int_field(post, "bag", what=pgettext("a form field", "The bag"))}


def parse_inspect_bag(post) -> dict:
    _confirmed(post)
    return {
        "bag": int_field(post, "bag", what=pgettext("a form field", "The bag")),
        **_pile(post),
        **_order(post),
    }


def parse_say_no_offer(post) -> dict:
    return {}


def parse_claim_black_market(post) -> dict:
    kind = post.get("kind", "")
    if kind not in BLACK_MARKET_TYPES:
        raise FormError(_("Choose the Black Market pile you claim from: Pepper, Mead or Silk."))
    return {"kind": kind}


def parse_decline_black_market(post) -> dict:
    return {}


def parse_set_black_market_standing(post) -> dict:
    standing = post.get("standing", "")
    if standing not in ("on", "off"):
        raise FormError(_("This form is not one the game knows. Please reload the page."))
    return {"standing": standing == "on"}


# --- one writer per move: a command -> the fields its form posts -------------------------


def _terms_fields(terms: dict) -> dict:
    fields = {
        "gold": str(terms.get("gold", 0)),
        "stand_goods": [str(c) for c in terms.get("stand_goods", [])],
        "promise": terms.get("promise", ""),
    }
    for name, count in terms.get("bag_goods", {}).items():
        fields[f"bag_{name}"] = str(count)
    for entry in terms["sheriff"]:
        fields[f"action_{entry['bag']}"] = entry["action"]
    return fields


def _card_ids(command: dict) -> dict:
    return {"cards": [str(c) for c in command["cards"]]}


def _offer_id(command: dict) -> dict:
    return {"offer": str(command["offer"])}


def _pile_and_order(command: dict) -> dict:
    """The Sheriff's pile and stacking order, where the command chose them (a
    page offers only the orders in ORDERS)."""
    fields = {"pile": str(command["pile"])} if "pile" in command else {}
    if command.get("order") in ORDERS:
        fields["order"] = command["order"]
    return fields


def write_set_aside(command: dict) -> dict:
    return _card_ids(command)


def write_market_turn(command: dict) -> dict:
    draws = command["draws"]
    fields = {
        **_card_ids(command),
        "from_pile_0": str(draws.count("discard:0")),
        "from_pile_1": str(draws.count("discard:1")),
    }
    if command["cards"]:
        fields["pile"] = str(command["pile"])
        fields["top"] = str(command["order"][-1])
    return fields


def write_load_bag(command: dict) -> dict:
    return {**_card_ids(command), "declared": command["declared"]}


def write_make_offer(command: dict) -> dict:
    joint = {"joint": "yes"} if command.get("joint") else {}
    return {"to": str(command["to"]), **_terms_fields(command["terms"]), **joint}


def write_revise_offer(command: dict) -> dict:
    return {**_offer_id(command), **_terms_fields(command["terms"])}


def write_offer_id(command: dict) -> dict:
    """withdraw_offer and refuse_offer: the offer alone."""
    return _offer_id(command)


def write_accept_offer(command: dict) -> dict:
    return {
        **_offer_id(command),
        "revision": str(command["revision"]),
        **_pile_and_order(command),
    }


def write_pass_bag(command: dict) -> dict:
    return {"bag": str(command["bag"]), "confirm": "yes"}


def write_inspect_bag(command: dict) -> dict:
    return {**write_pass_bag(command), **_pile_and_order(command)}


def write_nothing(command: dict) -> dict:
    """say_no_offer and decline_black_market: the move alone says it."""
    return {}


def write_claim_black_market(command: dict) -> dict:
    return {"kind": command["kind"]}


def write_set_black_market_standing(command: dict) -> dict:
    return {"standing": "on" if command["standing"] else "off"}


# --- a refused form, shown again as it was sent ---------------------------------------


def sent_back(post: QueryDict) -> dict:
    """What a refused form said, so the page can show it again as the player
    filled it in: the move, the ticked card ids, the other fields as typed, and
    offer terms in the shape the page's offer form reads. Only ever used to
    prefill the seat's own forms (a card id is ticked only if the page lists it)."""
    lists = ("cards", "stand_goods", "csrfmiddlewaretoken")
    return {
        "move": post.get("move", ""),
        "cards": _ids(post.getlist("cards")),
        "fields": {name: post.get(name, "") for name in post if name not in lists},
        "terms": _terms_as_sent(post),
    }


def _ids(values: list) -> set:
    return {n for n in (_number(v.strip()) for v in values) if n is not None}


def _terms_as_sent(post) -> dict:
    bag_goods, stand_counts = {}, {}
    for name in CARD_TYPES:
        for where, counts in (("bag", bag_goods), ("stand", stand_counts)):
            count = post.get(f"{where}_{name}", "").strip()
            if count not in ("", "0"):
                counts[name] = count
    actions = []
    for field in post:
        suffix = field.removeprefix("action_")
        bag = _number(suffix)
        if field.startswith("action_") and bag is not None and post.get(field):
            action = {"bag": bag, "action": post.get(field)}
            pile = _number(post.get(f"pile_{suffix}", "").strip())
            if pile is not None:
                action["pile"] = pile
            actions.append(action)
    return {
        "gold": post.get("gold", "").strip(),
        "stand_goods": [{"id": i} for i in _ids(post.getlist("stand_goods"))],
        "stand_counts": stand_counts,
        "bag_goods": bag_goods,
        "promise": post.get("promise", ""),
        "sheriff": actions,
    }
