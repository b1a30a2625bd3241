"""Which emails a move makes owed, recorded in the outbox in the move's own
transaction. One email per seat per move at most, keyed by seat and cause so
that no cause ever yields two emails.

Causes, most important first: the game ended (everyone gets the reveal and the
score sheet); a new phase began (every seat with a move to make); a deal was
struck on your offer; an offer or demand was made to you or about your bag.
"""

import logging

from django.db import transaction

from games import emails
from games.engine import actions
from games.models import Game, OutboxEmail, Seat

GAME_OVER, YOUR_MOVE, DEAL, OFFER = "game_over", "your_move", "deal", "offer"
PRIORITY = (GAME_OVER, YOUR_MOVE, DEAL, OFFER)

log = logging.getLogger(__name__)


def owed(state, events: list) -> dict:
    """seat index -> (kind, cause) for the emails this batch of events makes owed."""
    wanted: dict[int, list] = {}

    def add(seat: int, kind: str, cause: str) -> None:
        wanted.setdefault(seat, []).append((kind, cause))

    types = [e["type"] for e in events]
    if "game_ended" in types:
        for seat in range(state.players):
            add(seat, GAME_OVER, "end")
    elif "phase_started" in types:
        started = max(e["seq"] for e in events if e["type"] == "phase_started")
        for seat, options in actions(state).items():
            if options["moves"]:
                add(seat, YOUR_MOVE, f"phase{started}")
    offers = getattr(state.phase, "offers", {})
    for event in events:
        if event["type"] in ("offer_made", "offer_revised"):
            offer_id = event["offer"]["id"] if event["type"] == "offer_made" else event["offer"]
            offer = offers.get(str(offer_id))
            if offer is None or offer["status"] != "open":
                continue
            concerned = {offer["recipient"]} | {a["bag"] for a in offer["terms"]["sheriff"]}
            for seat in concerned - {offer["proposer"]}:
                add(seat, OFFER, f"offer{offer_id}r{offer['revision']}")
        elif event["type"] == "deal_made" and str(event["offer"]) in offers:
            add(offers[str(event["offer"])]["proposer"], DEAL, f"deal{event['offer']}")
    return {
        seat: min(causes, key=lambda kc: PRIORITY.index(kc[0])) for seat, causes in wanted.items()
    }


def record(game: Game, state, events: list) -> list:
    """Write the owed emails to the outbox (call inside the move's transaction);
    they are sent after commit."""
    due = owed(state, events)
    if not due:
        return []
    seats = {seat.index: seat for seat in game.seats.all()}
    created = []
    for index, (kind, cause) in sorted(due.items()):
        seat = seats[index]
        key = f"g{game.pk}:s{index}:{cause}"
        if OutboxEmail.objects.filter(key=key).exists():
            continue
        message = emails.render(game, seat, state, kind, key)
        created.append(OutboxEmail.objects.create(game=game, seat=seat, key=key, **message))
        Seat.objects.filter(pk=seat.pk).update(notified_seq=state.seq)
    if created:
        ids = [email.pk for email in created]
        transaction.on_commit(lambda: _send_after_commit(ids))
    return created


def _send_after_commit(ids: list) -> None:
    from games.tasks import send_email

    for pk in ids:
        try:
            send_email.delay(pk)
        except Exception:  # broker down: the outbox sweep sends it later
            log.warning("could not enqueue email %s; the sweep will send it", pk, exc_info=True)
