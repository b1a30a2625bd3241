"""Standing instructions: moves a player asks the game to make for them, for slow play.

- ``no_offer``: as a merchant, say "no offer" as soon as the inspection begins (or at
  once, if set during it, while the bag still waits for its merchant's word).
- ``pass_gold`` N: as the Sheriff, accept any offer whose merchant asks only that their
  own bag pass, for at least N gold (whatever else they add — goods, a promise — is
  theirs to give). Never a demand, never an offer naming another bag or an inspection.
  Six players: a Deputy's instruction accepts an offer made to them alone for N gold or
  more, and agrees to one made to both Deputies when their half of its gold (paid to
  the Booty, which they share) is N or more.
- "Claim from the Black Market whenever I can" is the engine's own standing answer
  (``set_black_market_standing``, games.engine.black_market), set by that move: public,
  as the engine has it; the engine claims the moment the holder's bag is resolved. A
  replaced seat loses it with the rest (games.core.controls.replace_player).

They are applied here alone: ``follow`` runs under the game's lock after every write
that can make one due — a player's move (games.core.moves), a deadline's transition
(games.core.timers), the organizer's controls (a resume), a change of the instructions
— and makes the due moves one at a time through ``game_writes.apply_move``, the path of
a player's move, each logged as that seat's own move (unmarked: the log tells nobody an
instruction made it) with the emails it owes, in the same transaction. Each move is
first found among the seat's moves in ``engine.actions`` (never an illegal one); one the
engine refuses all the same is not tried again in the same ``follow``, and one made is
no longer due, so ``follow`` ends.

The instructions are kept on the game's row (``Game.standing``), which every move locks:
read with the lock, they are as they stand, and a change takes that lock too, so a move
by an instruction a player has just changed or turned off cannot follow the change. No
view of the game holds them; only the seat's own page shows them.
"""

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.core.game_writes import (
    Outcome,
    ServiceError,
    apply_move,
    assign_fields,
    locked_game,
    retried_on_deadlock,
)
from games.models import Game, Seat

log = logging.getLogger(__name__)

MIN_GOLD, MAX_GOLD = 1, 99  # the Sheriff's threshold, a whole number
# A guard only: every move made or refused is never due again in the same follow, and a
# table has at most a few dozen open offers.
MAX_MOVES = 200


@dataclass(frozen=True)
class Instructions:
    """One seat's standing instructions (the Black Market's is in the engine state)."""

    no_offer: bool = False
    pass_gold: int | None = None  # None: off

    @property
    def any(self) -> bool:
        return self.no_offer or self.pass_gold is not None


# --- what is due (pure: the engine state and the instructions) ---------------------------


def due(state, instructions: dict) -> list:
    """The commands the instructions (seat -> Instructions) call for now, each one
    among the moves ``engine.actions`` offers its seat."""
    if state.is_over() or state.phase.kind != "inspection" or not instructions:
        return []
    options = engine.actions(state)
    commands = []
    for seat, given in sorted(instructions.items()):
        moves = options[seat]["moves"]
        if given.no_offer and any(m["type"] == "say_no_offer" for m in moves):
            commands.append({"type": "say_no_offer", "seat": seat})
        if given.pass_gold is not None:
            commands += _accepts(state, seat, moves, given.pass_gold)
    return commands


def _accepts(state, seat: int, moves: list, at_least: int) -> list:
    """The offers this Sheriff (Deputy) may accept now that let the offering merchant's
    own bag pass for ``at_least`` gold to them: the richest first (accepting one lets
    the bag pass, which closes the merchant's other offers on it)."""
    offered = []
    for move in moves:
        if move["type"] != "accept_offer":
            continue
        for answer in move["offers"]:
            offer = state.phase.offers[str(answer["offer"])]
            gold = gold_for_passing(state, offer)
            if gold is not None and gold >= at_least:
                offered.append((-gold, answer["offer"], answer["revision"]))
    return [
        {"type": "accept_offer", "seat": seat, "offer": offer, "revision": revision}
        for _gold, offer, revision in sorted(offered)
    ]


def gold_for_passing(state, offer: dict) -> int | None:
    """The gold that comes to each accepting party of an offer whose merchant asks only
    that their own bag pass (half of it, rounded down, for an offer to both Deputies);
    None for any other offer, or one its payer can no longer pay."""
    payer, terms = offer["payer"], offer["terms"]
    if offer["proposer"] != payer:  # a demand
        return None
    if terms["sheriff"] != [{"bag": payer, "action": "pass"}]:
        return None
    if terms["gold"] > state.gold[payer]:  # the engine would refuse it
        return None
    parties = len(offer.get("deputies", ())) or 1  # an offer to both Deputies: shared
    return terms["gold"] // parties


# --- reading and changing them --------------------------------------------------------------


def of_game(game: Game) -> dict:
    """seat index -> Instructions, for the seats with any (from the game's row)."""
    return {
        int(seat): Instructions(
            no_offer=given.get("no_offer", False), pass_gold=given.get("pass_gold")
        )
        for seat, given in (game.standing or {}).items()
    }


def of_seat(seat: Seat) -> Instructions:
    return of_game(seat.game).get(seat.index, Instructions())


def without(game: Game, seat: int) -> dict:
    """The game's instructions with none for ``seat`` (a new player takes it)."""
    return {key: given for key, given in (game.standing or {}).items() if key != str(seat)}


@retried_on_deadlock
def change(seat: Seat, *, no_offer: bool, pass_gold: int | None, now=None) -> list:
    """A player sets, changes or turns off their instructions; they take effect at
    once: the moves now due are made in the same transaction (their outcomes)."""
    if pass_gold is not None and not MIN_GOLD <= pass_gold <= MAX_GOLD:
        raise ValueError(f"pass_gold out of range: {pass_gold!r}")
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(seat.game_id)
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("game_not_active", _("This game is no longer in play."))
        given = Instructions(no_offer=no_offer, pass_gold=pass_gold)
        mine = {"no_offer": no_offer, "pass_gold": pass_gold} if given.any else None
        standing = {**without(game, seat.index), **({str(seat.index): mine} if mine else {})}
        # updated_at: a deadline's transition worked out before this is not used as it was
        # (games.core.timers: its stamp).
        fields = {"standing": standing, "updated_at": now}
        Game.objects.filter(pk=game.pk).update(**fields)
        assign_fields(game, fields)
        seat.game = game
        return follow(game, now)


# --- applying them --------------------------------------------------------------------------

# The events after which an instruction may be newly due: an inspection begins, an offer
# is made or changed. (Nothing else makes a merchant able to speak again, or an offer
# acceptable that was not; the property tests check that nothing due is left undone.)
CALLING_EVENTS = ("offer_made", "offer_revised")


def calls_for(events) -> bool:
    """Whether these events may have made an instruction due."""
    return any(
        e["type"] in CALLING_EVENTS
        or (e["type"] == "phase_started" and e.get("phase") == "inspection")
        for e in events
    )


def _may_act(game: Game, phase: str | None) -> bool:
    """Whether any instruction could be due at all (before reading the whole state): in
    an inspection (``phase``) of a game in play, with instructions."""
    return (
        bool(game.standing)
        and game.status == Game.Status.ACTIVE
        and game.paused_at is None
        and phase == "inspection"
    )


def follow(game: Game, now, seats: list | None = None, after=None) -> list:
    """Make the moves the game's standing instructions call for now (the game is
    locked by the caller's transaction); their outcomes. ``seats``: the game's seats,
    if read already; ``after``: the events of the write just made, if only they can have
    made a move due (else anything may have: instructions changed, a game resumed)."""
    if after is not None and not calls_for(after):
        return []
    phase = (game.state.get("phase") or {}).get("kind")  # the snapshot, unparsed
    if not _may_act(game, phase):
        return []
    return _follow(game, of_game(game), now, seats)


def follows_on(game: Game, state, events) -> bool:
    """Whether a deadline's transition (its ``state`` and ``events``) may make standing
    instructions due, for follow_many to follow."""
    return calls_for(events) and _may_act(game, state.phase.kind)


def follow_many(games: list, now) -> list:
    """``follow`` for (game, state, events, seats) just moved on by a deadline (locked by
    the caller's transaction; ``state`` and ``events``: the transition's)."""
    made = []
    for game, state, events, seats in games:
        if follows_on(game, state, events):
            made += _follow(game, of_game(game), now, seats)
    return made


def _follow(game: Game, instructions: dict, now, seats) -> list:
    made: list[Outcome] = []
    tried: set = set()
    for _step in range(MAX_MOVES):
        state = game.engine_state()
        command = next((c for c in due(state, instructions) if _key(c) not in tried), None)
        if command is None:
            return made
        tried.add(_key(command))
        outcome = apply_move(game, command, state.phase.since, now, seats)
        if outcome.accepted:
            made.append(outcome)
        else:  # found among the seat's moves, yet refused: a bug to look into
            log.warning("A standing instruction's %s was refused: %s", command, outcome.code)
    log.error("Standing instructions of game %s made %s moves; stopped", game.pk, MAX_MOVES)
    return made


def _key(command: dict) -> tuple:
    return (command["seat"], command["type"], command.get("offer"), command.get("revision"))
