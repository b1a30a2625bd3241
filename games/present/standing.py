"""The seat's own standing instructions, as its page shows them ("Your standing
instructions: …"). Read from the seat's row, which only its own page reads; the Black
Market's standing answer from the seat's view (public, as the engine has it)."""

from django.utils.translation import gettext as _

from games.core import standing


def panel(seat, view: dict) -> list:
    """What the seat has asked the game to do for it, a line each ([] for nothing)."""
    if view["phase"]["kind"] == "game_over":
        return []
    given = standing.of_seat(seat)
    lines = []
    if given.pass_gold is not None:
        values = {"gold": given.pass_gold}
        if "deputies" in view:  # six players
            lines.append(
                _("As a Deputy: let pass any bag whose merchant offers you at least %(gold)s gold.")
                % values
            )
        else:
            lines.append(
                _("As Sheriff: let pass any bag whose merchant offers you at least %(gold)s gold.")
                % values
            )
    if given.no_offer:
        lines.append(_("As a merchant: say “no offer” as soon as the inspection starts."))
    if seat.index in view.get("black_market_standing", []):
        lines.append(_("Claim from the Black Market whenever you can, else no claim."))
    return lines
