"""Each move a seat can make, declared once.

One ``Move`` per engine command says everything the layers above the engine need
to know about it: the page form that sends it and the form's context, how the
posted fields are read into the command (and written back from one), what the
player is told once it is done, what the organizer's records call it, the words
a reply to an email may say for it (its phrasings, which
games.present.reply_commands tries) and its JSON body in the API
(games.present.move_schemas). The page (games.web.forms, games.web.views), the
drill (manage.py chaos), the organizer's records (games.organizer.labels), the
seat page's presenters, the replies and the API read this table instead of
listing the moves again; tests/present/test_moves_declared_once.py checks it
against the engine's commands. It sits in games/present, the lowest layer all of
its readers may import.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from pydantic import BaseModel

from games.present import move_fields as fields
from games.present import move_forms as forms
from games.present import move_schemas as schemas
from games.present import reply_offers as offers
from games.present import reply_readers as readers
from games.present.reply_words import Phrasing


@dataclass(frozen=True)
class Move:
    """One command as the layers above the engine know it."""

    command: str  # the engine command's "type"
    # The seat page's form that sends it: the key of its context in the page's
    # ``moves`` ("decide": the bags' form; None: the Black Market panel's own).
    page_form: str | None
    # (view, names, move, sent) -> the form's context; None: no form of its own.
    form: Callable | None
    parse: Callable  # the posted fields -> the command's own fields (FormError)
    write: Callable  # the command -> the fields its form posts (the inverse of ``parse``)
    done: Promise  # the success message
    # What a reply's first line may say to make it, English and Spanish, in the order
    # tried (reply_words.Phrasing): at least one each.
    replies: tuple[Phrasing, ...]
    api: type[BaseModel]  # its JSON body in the API (move_schemas); as_command() gives it
    # The Sheriff or a Deputy making it (offers become demands), and six players'
    # Deputies (calls rather than decisions): a different success message.
    done_as_inspector: Promise | None = None
    done_with_deputies: Promise | None = None
    # Its consequences are told right away, after the success message.
    tells_outcome: bool = False
    # Its events may say it did something else than the usual (move_done.DONE_BY_EVENT).
    said_by_events: bool = False
    label: Promise | None = None  # what the organizer's records (and an API) call it


MOVES = {
    move.command: move
    for move in (
        Move(
            "set_aside",
            page_form="set_aside",
            form=forms.set_aside_form,
            parse=fields.parse_set_aside,
            write=fields.write_set_aside,
            done=gettext_lazy("Your market choice is recorded."),
            # "set aside 1 3", "keep": the 2nd edition's. The 1st edition's market turn
            # says the same; each reader leaves the line to the other's edition.
            replies=(
                Phrasing(readers.SET_ASIDE, readers.set_aside),
                Phrasing(readers.KEEP, readers.keep_hand),
            ),
            api=schemas.SetAside,
            label=gettext_lazy("Market choice"),
        ),
        Move(
            "market_turn",
            page_form="market_turn",
            form=forms.market_turn_form,
            parse=fields.parse_market_turn,
            write=fields.write_market_turn,
            done=gettext_lazy("Your market turn is done."),
            replies=(  # "set aside 1 3 to pile 2 take 1 from pile 1", "keep"
                Phrasing(readers.SET_ASIDE, readers.market_turn),
                Phrasing(readers.KEEP, readers.keep_turn),
            ),
            api=schemas.MarketTurn,
            label=gettext_lazy("Market turn"),
        ),
        Move(
            "load_bag",
            page_form="load_bag",
            form=forms.load_bag_form,
            parse=fields.parse_load_bag,
            write=fields.write_load_bag,
            done=gettext_lazy("Your bag is closed and your declaration recorded."),
            replies=(Phrasing(readers.LOAD, readers.load),),
            api=schemas.LoadBag,
            label=gettext_lazy("Load and declare"),
        ),
        Move(
            "make_offer",
            page_form="make_offer",
            form=forms.make_offer_form,
            parse=fields.parse_make_offer,
            write=fields.write_make_offer,
            done=gettext_lazy("Your offer is on the table."),
            done_as_inspector=gettext_lazy("Your demand is on the table."),
            # Bargaining: matched without a trailing "promise: ...", which joins the terms.
            replies=(
                Phrasing(offers.OFFER, offers.offer, promise=True),
                Phrasing(offers.DEMAND, offers.demand, promise=True),
            ),
            api=schemas.MakeOffer,
            label=gettext_lazy("Offer or demand"),
        ),
        Move(
            "revise_offer",
            page_form="revise_offer",
            form=forms.offer_ids_form,
            parse=fields.parse_revise_offer,
            write=fields.write_revise_offer,
            done=gettext_lazy("Your offer is revised."),
            done_as_inspector=gettext_lazy("Your demand is revised."),
            replies=(Phrasing(offers.REVISE, offers.revise, promise=True),),
            api=schemas.ReviseOffer,
            label=gettext_lazy("Revised offer"),
        ),
        Move(
            "withdraw_offer",
            page_form="withdraw_offer",
            form=forms.offer_ids_form,
            parse=fields.parse_withdraw_offer,
            write=fields.write_offer_id,
            done=gettext_lazy("Your offer is withdrawn."),
            done_as_inspector=gettext_lazy("Your demand is withdrawn."),
            replies=(Phrasing(offers.WITHDRAW, offers.withdraw, promise=True),),
            api=schemas.WithdrawOffer,
            label=gettext_lazy("Withdrawn offer"),
        ),
        Move(
            "accept_offer",
            page_form="accept_offer",
            form=forms.accept_offer_form,
            parse=fields.parse_accept_offer,
            write=fields.write_accept_offer,
            done=gettext_lazy("Deal! The offer is accepted."),
            tells_outcome=True,
            said_by_events=True,
            replies=(Phrasing(readers.ACCEPT, readers.accept),),
            api=schemas.AcceptOffer,
            label=gettext_lazy("Accepted offer"),
        ),
        Move(
            "refuse_offer",
            page_form="refuse_offer",
            form=forms.offer_ids_form,
            parse=fields.parse_refuse_offer,
            write=fields.write_offer_id,
            done=gettext_lazy("You refused it; the table sees that you did."),
            replies=(Phrasing(offers.REFUSE, offers.refuse, promise=True),),
            api=schemas.RefuseOffer,
        ),
        Move(
            "pass_bag",
            page_form="decide",
            form=None,  # every bag's buttons are one form (move_forms.decide_forms)
            parse=fields.parse_pass_bag,
            write=fields.write_pass_bag,
            done=gettext_lazy("The bag passes."),
            done_with_deputies=gettext_lazy("Your call is recorded: let the bag pass."),
            tells_outcome=True,
            said_by_events=True,
            replies=(Phrasing(readers.PASS, readers.pass_bag),),
            api=schemas.PassBag,
            label=gettext_lazy("Let a bag pass"),
        ),
        Move(
            "inspect_bag",
            page_form="decide",
            form=None,
            parse=fields.parse_inspect_bag,
            write=fields.write_inspect_bag,
            done=gettext_lazy("The bag is inspected."),
            done_with_deputies=gettext_lazy("Your call is recorded: inspect the bag."),
            tells_outcome=True,
            said_by_events=True,
            replies=(Phrasing(readers.INSPECT, readers.inspect_bag),),
            api=schemas.InspectBag,
            label=gettext_lazy("Inspect a bag"),
        ),
        Move(
            "say_no_offer",
            page_form="say_no_offer",
            form=forms.say_no_offer_form,
            parse=fields.parse_say_no_offer,
            write=fields.write_nothing,
            done=gettext_lazy("The Sheriff now knows you have no offer: your bag can be decided."),
            done_with_deputies=gettext_lazy(
                "The Deputies now know you have no offer: your bag can be called."
            ),
            replies=(Phrasing(readers.NO_OFFER, readers.no_offer),),
            api=schemas.SayNoOffer,
            label=gettext_lazy("No offer"),
        ),
        Move(
            "claim_black_market",
            page_form="claim_black_market",
            form=forms.claim_black_market_form,
            parse=fields.parse_claim_black_market,
            write=fields.write_claim_black_market,
            done=gettext_lazy("Your Black Market claim is carried out."),
            said_by_events=True,
            replies=(Phrasing(readers.CLAIM, readers.claim),),
            api=schemas.ClaimBlackMarket,
            label=gettext_lazy("Black Market claim"),
        ),
        Move(
            "decline_black_market",
            page_form="decline_black_market",
            form=forms.decline_black_market_form,
            parse=fields.parse_decline_black_market,
            write=fields.write_nothing,
            done=gettext_lazy("No Black Market claim from you this round."),
            replies=(Phrasing(readers.NO_CLAIM, readers.no_claim),),
            api=schemas.DeclineBlackMarket,
            label=gettext_lazy("No Black Market claim"),
        ),
        Move(
            "set_black_market_standing",
            page_form=None,  # the Black Market panel's standing answer (seat_table.black_market)
            form=None,
            parse=fields.parse_set_black_market_standing,
            write=fields.write_set_black_market_standing,
            done=gettext_lazy("Your standing answer is recorded."),
            replies=(
                Phrasing(readers.ALWAYS_CLAIM, readers.always_claim),
                Phrasing(readers.ASK_EACH_ROUND, readers.ask_each_round),
            ),
            api=schemas.SetBlackMarketStanding,
        ),
    )
}


def reply_phrasings() -> tuple:
    """Every entry's reply phrasings in the order a reply's first line is tried:
    bargaining first (read without its promise), as it always was, then the others;
    each in registry order. No line reads as two (tests/present/test_reply_registry.py)."""
    every = [phrasing for move in MOVES.values() for phrasing in move.replies]
    return tuple(sorted(every, key=lambda phrasing: not phrasing.promise))


def command_models() -> tuple:
    """Every move's API model (move_schemas), in registry order."""
    return tuple(move.api for move in MOVES.values())


def seat_forms(view: dict, names: list, sent: dict | None = None) -> dict:
    """Form contexts for exactly the moves in view["my_moves"], by move type, and
    the bags' form ("decide"); the form of a refused move (``sent``) filled in
    again as it was sent."""
    built: dict = {}
    for move in view["my_moves"]["moves"]:
        form = MOVES[move["type"]].form
        if form is not None:
            built[move["type"]] = form(view, names, move, sent)
    return {**built, **forms.decide_forms(view, names)}


def form_fields(command: dict, version: int) -> dict:
    """Everything a seat page's form posts to make ``command``: the move, the page
    version, a fresh one-time key and the move's own fields."""
    kind = command["type"]
    head = {"move": kind, "version": str(version), "key": uuid.uuid4().hex}
    return {**head, **MOVES[kind].write(command)}
