"""Final scores: gold + value of every stand good + King/Queen bonuses, with
royal goods counted as 2 or 3 of their legal type, and the tie-breaks."""

from .cards import CARD_TYPES, KING_QUEEN_BONUS, LEGAL_TYPES, card


def legal_counts(types_on_stand: list) -> dict:
    """Per legal type, the count for King/Queen: legal cards plus royal multiples."""
    counts = dict.fromkeys(LEGAL_TYPES, 0)
    for name in types_on_stand:
        kind = card(name)
        if kind.is_legal:
            counts[name] += 1
        elif kind.royal_of:
            counts[kind.royal_of] += kind.counts_as
    return counts


def king_queen(counts_by_seat: list, good: str) -> dict:
    """Bonuses for one legal type: seat -> list of (title, points, shared_by).

    Nobody with zero is King or Queen. A King tie splits King + Queen bonus
    equally (rounded down) and no Queen is paid. A Queen tie splits the Queen
    bonus (rounded down)."""
    king_bonus, queen_bonus = KING_QUEEN_BONUS[good]
    counts = {seat: c[good] for seat, c in enumerate(counts_by_seat) if c[good] > 0}
    awards: dict[int, list] = {}
    if not counts:
        return awards
    top = max(counts.values())
    kings = [s for s, c in counts.items() if c == top]
    if len(kings) > 1:
        share = (king_bonus + queen_bonus) // len(kings)
        for seat in kings:
            awards[seat] = [("king", share, len(kings))]
        return awards
    awards[kings[0]] = [("king", king_bonus, 1)]
    rest = {s: c for s, c in counts.items() if c < top}
    if rest:
        second = max(rest.values())
        queens = [s for s, c in rest.items() if c == second]
        for seat in queens:
            awards[seat] = [("queen", queen_bonus // len(queens), len(queens))]
    return awards


def score_sheets(gold: list, stands: list, black_market: list | None = None) -> list:
    """One breakdown per seat. ``stands[seat]`` lists the card type names on the
    seat's stand (legal and contraband); hands score nothing. ``black_market``: with
    that option, per seat the Black Market cards claimed, ``[{"type", "value"}]``; they
    score their value and count as contraband cards for the tie-break."""
    counts_by_seat = [legal_counts(stand) for stand in stands]
    sheets = []
    for seat, stand in enumerate(stands):
        goods: dict[str, int] = {}
        for name in stand:
            goods[name] = goods.get(name, 0) + 1
        sheets.append(
            {
                "seat": seat,
                "gold": gold[seat],
                "goods": [
                    {"type": name, "count": n, "value": n * card(name).value}
                    for name, n in sorted(goods.items(), key=lambda kv: _table_order(kv[0]))
                ],
                "goods_value": sum(card(name).value for name in stand),
                "counts": counts_by_seat[seat],
                "bonuses": [],
                "legal_cards": sum(1 for name in stand if card(name).is_legal),
                "contraband_cards": sum(1 for name in stand if not card(name).is_legal),
            }
        )
    for good in LEGAL_TYPES:
        for seat, awards in king_queen(counts_by_seat, good).items():
            for title, points, shared_by in awards:
                sheets[seat]["bonuses"].append(
                    {"type": good, "title": title, "points": points, "shared_by": shared_by}
                )
    if black_market is not None:
        for sheet, claimed in zip(sheets, black_market, strict=True):
            sheet["black_market"] = [{"type": c["type"], "value": c["value"]} for c in claimed]
            sheet["black_market_value"] = sum(c["value"] for c in claimed)
            sheet["contraband_cards"] += len(claimed)
    for sheet in sheets:
        sheet["total"] = (
            sheet["gold"]
            + sheet["goods_value"]
            + sheet.get("black_market_value", 0)
            + sum(b["points"] for b in sheet["bonuses"])
        )
    _rank(sheets)
    return sheets


def _table_order(name: str) -> int:
    return list(CARD_TYPES).index(name)


def _rank(sheets: list) -> None:
    """Highest total; then most legal cards; then most contraband cards (royals
    included); a tie on all three shares the place (and victory)."""

    def key(sheet):
        return (sheet["total"], sheet["legal_cards"], sheet["contraband_cards"])

    for sheet in sheets:
        sheet["rank"] = 1 + sum(1 for other in sheets if key(other) > key(sheet))
        sheet["winner"] = sheet["rank"] == 1
