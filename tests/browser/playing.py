"""A player's choices in the browser suite, read off the seat page as a person
reads it: set aside, load and declare, decide, say no offer, a 1st-edition
market turn; and "whatever the page asks"."""

import re
from collections import Counter

from tests.browser.chromium import Phone

LEGAL = ("Apples", "Cheese", "Bread", "Chicken")


def set_aside(phone: Phone, how_many: int, screen: str | None = None) -> None:
    form = phone.move_form("set_aside")
    phone.check(screen)
    phone.tick(form, range(min(how_many, len(phone.tiles(form)))))
    form.get_by_role("button", name="Set aside the ticked cards").click()
    phone.submitted(expect="market choice is recorded")


def load(phone: Phone, honest: bool, screen: str | None = None) -> str:
    """Load and declare; returns what was declared. Honest: every card of the
    commonest legal kind (up to 5). Lying: a contraband card if there is one,
    else a legal card declared as another kind."""
    form = phone.move_form("load_bag")
    phone.check(screen)
    tiles = phone.tiles(form)
    legal = Counter(label for kind, label in tiles if kind == "legal")
    contraband = [i for i, (kind, _) in enumerate(tiles) if kind != "legal"]
    if honest and legal:
        declared = legal.most_common(1)[0][0]
        picks = [i for i, (_, label) in enumerate(tiles) if label == declared][:5]
    elif contraband:
        declared, picks = LEGAL[0], contraband[:1]
    else:
        carried = next(label for _, label in tiles)
        declared = next(t for t in LEGAL if t != carried)
        picks = [0]
    phone.tick(form, picks)
    form.locator("select[name=declared]").select_option(label=declared)
    form.get_by_role("button", name="Close my bag").click()
    phone.submitted(expect="bag is closed")
    return declared


CONFIRM = {"Let pass": "Yes, let it pass", "Inspect": "Yes, inspect it"}


def decide(phone: Phone, merchant: str, verb: str, expect: str, screen: str = "") -> None:
    """The Sheriff's button opens a confirmation; only its "Yes" makes the decision."""
    decision = phone.page.locator(".decision", has=phone.page.locator(f"text={merchant}"))
    # Each button's name says whose bag it decides (screen readers hear no layout).
    decision.get_by_role("button", name=f"{verb} {merchant}'s bag…", exact=True).click()
    confirm(phone, verb, screen, expect)


def confirm(phone: Phone, verb: str, screen: str = "", expect: str | None = None) -> None:
    page = phone.page
    page.wait_for_load_state()
    panel = page.locator("#confirm")
    assert "This is final" in panel.inner_text()
    phone.check(screen and f"{screen}-confirm")
    panel.get_by_role("button", name=CONFIRM[verb]).click()
    phone.submitted(screen or None, expect=expect)


def say_no_offer(phone: Phone, screen: str | None = None) -> None:
    phone.check(screen)
    phone.move_form("say_no_offer").get_by_role("button", name="No offer from me").click()
    phone.submitted(expect="The Sheriff now knows you have no offer")


def gold(phone: Phone) -> int:
    return int(phone.page.locator(".gold-pill").inner_text().split()[0])


def play_whatever_is_asked(phone: Phone, link: str, turn: int, screen_prefix: str) -> bool:
    """Open the table and make the move it asks for, if any; True if one was made."""
    phone.open(link)
    page = phone.page
    if phone.move_form("set_aside").count():
        set_aside(phone, turn % 3, f"{screen_prefix}market")
    elif phone.move_form("market_turn").count():
        market_turn(phone, turn)
    elif phone.move_form("load_bag").count():
        load(phone, honest=turn % 3 != 0, screen=f"{screen_prefix}load")
    elif phone.move_form("say_no_offer").count():
        say_no_offer(phone)
    elif page.locator(".decision .decision-buttons").count():
        phone.check(f"{screen_prefix}decide")
        verb = "Inspect" if turn % 4 == 0 else "Let pass"
        decision = page.locator(".decision", has=page.locator(".decision-buttons")).first
        decision.get_by_role("button", name=re.compile(f"^{verb} .+'s bag…$")).click()
        confirm(phone, verb)
    else:
        return False
    return True


def market_turn(phone: Phone, turn: int, screen: str | None = None) -> None:
    """1st edition: set aside one card, take one back from the fuller discard pile."""
    form = phone.move_form("market_turn")
    phone.check(screen)
    phone.tick(form, [0])
    piles = form.locator("input[name^=from_pile_]")
    maxima = [int(piles.nth(i).get_attribute("max")) for i in range(piles.count())]
    fuller = max(range(len(maxima)), key=lambda i: maxima[i])
    if maxima[fuller]:
        piles.nth(fuller).fill("1")
    form.locator("input[name=pile]").nth(turn % len(maxima)).check()
    form.get_by_role("button", name="Take my market turn").click()
    phone.submitted(expect="market turn is done")
