"""Games played in a real browser (Debian's Chromium, at a phone's size) the way
people play them: open the dev mailbox, open your newest email, press its
button, tick cards, fill in the forms, press the buttons. See tests/browser/chromium.py
for what every screen is checked for; screenshots land in var/screenshots/.
"""

import re

import pytest
from django.contrib.auth import get_user_model

from games.core import game_setup, moves, timers
from games.models import Game, Seat
from tests.browser.chromium import DESKTOP, Phone
from tests.browser.playing import (
    confirm,
    decide,
    gold,
    load,
    market_turn,
    play_whatever_is_asked,
    say_no_offer,
    set_aside,
)
from tests.support.builders import rig

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = "5eed" * 16


def new_game(names, edition: int) -> Game:
    return game_setup.create_game(
        name=f"Browser {edition}e",
        players=[game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in names],
        config={"edition": edition},
        seed=SEED,
    )


def email(name: str) -> str:
    return f"{name.lower()}@example.org"


# --- the games --------------------------------------------------------------------------
def test_a_whole_second_edition_game_by_clicking(phone):
    names = ["Alice", "Bob", "Carol", "Dave"]
    game = new_game(names, edition=2)
    links = {}
    # Everyone hears that the game begins, the Sheriff too, with what comes next.
    phone.newest_email(email("Alice"), screen="game-begins-sheriff")
    assert "We will email you when the bags are on the table" in phone.page.inner_text("pre")

    # Round 1 (Alice is the Sheriff). Market: each merchant from their newest email.
    for name, cards in (("Bob", 2), ("Carol", 1), ("Dave", 0)):
        phone.follow_newest_email(email(name), screen="your-move-market")
        links[name] = phone.page.url
        set_aside(phone, cards, screen="market")
    phone.check("market-waiting")

    # Load: Bob and Dave honest, Carol lying.
    declared = {}
    for name, honest in (("Bob", True), ("Carol", False), ("Dave", True)):
        phone.follow_newest_email(email(name), screen="your-move-load")
        declared[name] = load(phone, honest, screen="load")
    phone.check("load-done")

    # Inspection. Bob offers the Sheriff gold to let his bag pass.
    phone.follow_newest_email(email("Bob"), screen="your-move-inspection")
    phone.check("inspection-merchant")
    offer = phone.page.locator("section.negotiate form").first
    offer.locator("input[name=gold]").fill("4")
    assert offer.locator("select[name=action_1]").input_value() == "pass"
    offer.locator("textarea[name=promise]").fill("Fresh bread for the castle, I swear.")
    offer.get_by_role("button", name="Send the offer").click()
    phone.submitted("offer-made", expect="offer is on the table")

    # Alice, the Sheriff: a demand for goods from Carol's bag, then the deal, then decisions.
    phone.follow_newest_email(email("Alice"), screen="offer-to-sheriff")
    links["Alice"] = phone.page.url
    phone.check("inspection-sheriff")
    assert gold(phone) == 50
    demand = phone.page.locator("details", has=phone.page.get_by_text("Demand from Carol"))
    demand.locator("summary").first.click()
    demand.locator("details.inner summary").click()
    declared_kind = declared["Carol"].lower()
    demand.locator(f"input[name=bag_{declared_kind}]").fill("1")
    demand.locator("select[name=action_2]").select_option("pass")
    demand.get_by_role("button", name="Send the demand").click()
    phone.submitted("demand-made", expect="Your demand is on the table")

    # Named for screen readers with whose offer it is, as each offer has such a button.
    phone.page.get_by_role("button", name="Accept this offer (Bob's offer #1)").click()
    phone.submitted("deal-accepted", expect="Deal!")
    assert gold(phone) == 54
    # Bargaining: Carol's and Dave's bags wait until they have had their say.
    waiting = phone.page.locator(".decision .waiting")
    assert waiting.count() == 2 and "Waiting for Carol" in waiting.first.inner_text()
    assert not phone.page.locator(".decision .decision-buttons").count()
    for name in ("Carol", "Dave"):
        phone.follow_newest_email(email(name))
        say_no_offer(phone, screen="bargaining-merchant")
    phone.open(links["Alice"])

    # The page says at once what each inspection found and who paid whom.
    decide(phone, "Carol", "Inspect", "Carol was lying (declared 1 Apple, carried", "inspect")
    assert re.search(r"Carol paid you \d+ gold for the fine", phone.page.inner_text(".messages"))
    decide(phone, "Dave", "Inspect", "Dave was honest")
    assert re.search(r"You paid Dave \d+ gold", phone.page.inner_text(".messages"))
    phone.check("round-2-sheriff-view")
    assert "Round 2 of 8" in phone.page.locator("header.top").inner_text()
    log = phone.page.locator("section.log, .log").first.inner_text()
    assert "Carol" in log and "Dave" in log
    # Every player hears how the round went; Carol learns what her lie cost her.
    phone.newest_email(email("Carol"), screen="round-over")
    told = phone.page.inner_text("pre")
    assert "HOW ROUND 1 WENT" in told and "The Sheriff inspects your bag: you were lying" in told

    # Round 2 (Bob is the Sheriff): the merchants trade and load, Bob lets every bag pass.
    for name in ("Carol", "Dave", "Alice"):
        phone.follow_newest_email(email(name))
        set_aside(phone, 1)
    for name in ("Carol", "Dave", "Alice"):
        phone.follow_newest_email(email(name))
        load(phone, honest=True)
    for name in ("Carol", "Dave", "Alice"):
        phone.follow_newest_email(email(name))
        say_no_offer(phone)
    phone.follow_newest_email(email("Bob"), screen="every-bag-can-be-decided")
    for name in ("Carol", "Dave", "Alice"):
        decide(phone, name, "Let pass", "passes")
    assert "Round 3 of 8" in phone.page.locator("header.top").inner_text()

    # Rounds 3 to 8, faster: each player's own link, still through the page's forms.
    moves = 0
    for turn in range(400):
        if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
            break
        name = names[turn % 4]
        moves += play_whatever_is_asked(phone, links[name], turn, "")
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, "the game did not end"
    assert moves >= 6 * 7

    # The end: the last email and the score sheet on every table.
    for name in names:
        phone.follow_newest_email(email(name), screen="game-over")
        scores = phone.page.locator("section.scores")
        assert scores.is_visible()
        assert scores.locator("li.score").count() == 4
        assert "matches" in phone.page.locator("footer.fair").inner_text()
        phone.check("score-sheet")


def test_a_first_edition_round_by_clicking(phone):
    names = ["Ann", "Ben", "Cid"]
    new_game(names, edition=1)
    links = {}
    # Market turns, one merchant after the other, each taking from a discard pile.
    for turn, name in enumerate(("Ben", "Cid")):
        phone.follow_newest_email(email(name), screen="your-move-market-turn")
        links[name] = phone.page.url
        piles_before = phone.page.locator("form ol.pile-cards li").count()
        assert piles_before >= 5
        market_turn(phone, turn, screen="market-turn")
    for name in ("Ben", "Cid"):
        phone.follow_newest_email(email(name))
        load(phone, honest=name == "Ben", screen="load")
    for name in ("Ben", "Cid"):
        phone.follow_newest_email(email(name))
        say_no_offer(phone)
    phone.follow_newest_email(email("Ann"), screen="inspection")
    phone.check("inspection-sheriff")
    inspected = phone.page.locator(".decision", has_text="Cid")
    inspected.locator("select[name=pile]").select_option("1")
    inspected.get_by_role("button", name="Inspect Cid's bag…", exact=True).click()
    assert "Confiscated goods go to discard pile 2" in phone.page.locator("#confirm").inner_text()
    confirm(phone, "Inspect", "inspected", expect="inspected")
    decide(phone, "Ben", "Let pass", "passes")
    assert "Round 2 of 9" in phone.page.locator("header.top").inner_text()
    # Round 2: Ben is the Sheriff; Cid's market turn comes first.
    phone.follow_newest_email(email("Cid"), screen="round-2")
    assert phone.move_form("market_turn").count() == 1
    market_turn(phone, 2)


def test_a_six_player_round_with_deputies_and_the_black_market_by_clicking(phone):
    names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]
    game = game_setup.create_game(
        name="Browser Deputies",
        players=[game_setup.PlayerSpec(n, email(n)) for n in names],
        config={"edition": 2, "black_market": True},
        seed=SEED,
    )
    state = game.engine_state()
    first, second = (names[s] for s in state.deputies)
    merchants = [names[s] for s in state.merchants()]
    phone.newest_email(email(first), screen="deputy-game-begins")
    assert "You are a Deputy this round" in phone.page.inner_text("pre")
    for name in merchants:
        phone.follow_newest_email(email(name), screen="six-market")
        set_aside(phone, 1)
    for name in merchants:
        phone.follow_newest_email(email(name), screen="six-load")
        load(phone, honest=name != merchants[1])
    # The first merchant's bag holds three Pepper once it passes: a Black Market claim.
    smuggler = state.merchants()[0]
    fresh = Game.objects.get(pk=game.pk)
    rigged = rig(fresh.engine_state(), f"stand:{smuggler}", ["pepper"] * 3)
    Game.objects.filter(pk=game.pk).update(state=rigged.to_dict())

    # A merchant offers both Deputies gold, paid to the Booty.
    phone.follow_newest_email(email(merchants[0]), screen="six-inspection-merchant")
    assert "The Black Market" in phone.page.inner_text("#black-market")
    assert "provisional" in phone.page.inner_text("#black-market")
    both = phone.page.locator("details", has=phone.page.get_by_text("Offer to both Deputies"))
    both.locator("summary").first.click()
    both.locator("input[name=gold]").fill("3")
    # His own stand's goods, by count of each kind (contraband included: they are his).
    peppers = both.get_by_label(re.compile(r"Pepper \(3 on the stand\)"))
    assert peppers.get_attribute("max") == "3" and peppers.input_value() == "0"
    phone.check("six-offer-form")
    both.get_by_role("button", name="Send the offer").click()
    phone.submitted("six-offer-to-both", expect="offer is on the table")
    for name in merchants[1:]:
        phone.follow_newest_email(email(name))
        phone.move_form("say_no_offer").get_by_role("button", name="No offer from me").click()
        phone.submitted(expect="The Deputies now know you have no offer")
    # The last merchant answers the Black Market ahead: a standing answer (public).
    assert "the table will not wait for your answer" in phone.page.inner_text("#black-market-claim")
    standing = phone.page.locator("#standing-answer")
    standing.get_by_role("button", name="Claim whenever I can, else no claim").click()
    phone.submitted("six-standing-answer", expect="Your standing answer is recorded")
    assert f"With a standing answer: {merchants[-1]}" in phone.page.inner_text("#standing-answer")

    # Each Deputy accepts; the second acceptance makes the deal, paid to the Booty.
    deputy_links = {}
    for name, expect in ((first, "deal is made once every party has"), (second, "Deal!")):
        phone.follow_newest_email(email(name))
        deputy_links[name] = phone.page.url
        phone.check("six-deputy")
        offer = phone.page.locator("article.offer", has_text=merchants[0])
        offer.get_by_role("button", name=re.compile("Accept this")).click()
        phone.submitted("six-deputy-accepted", expect=expect)
    assert "3 gold" in phone.page.inner_text("#booty")

    # The Deputies call the other bags: the first lets them pass, the second sees that
    # call beside each bag and inspects the liar's.
    phone.open(deputy_links[first])
    for name in merchants[1:]:
        decide(phone, name, "Let pass", "Your call is recorded", "six-call")
    phone.open(deputy_links[second], "six-partner-calls")
    for name in merchants[1:]:
        call = phone.page.locator(".decision", has=phone.page.locator(f"text={name}"))
        assert "let pass" in call.inner_text()
    decide(phone, merchants[1], "Inspect", "Your call is recorded", "six-call-alone")
    assert "bag alone" in phone.page.inner_text(".messages")

    # The smuggler's bag passed with the deal: the claim form, then the claimed card.
    phone.follow_newest_email(email(merchants[0]))
    claim = phone.page.locator("#black-market-claim")
    phone.check("six-black-market-claim")
    claim.locator("input[value=pepper]").check()
    claim.get_by_role("button", name=re.compile("Claim")).click()
    phone.submitted("six-claimed", expect="Black Market claim is carried out")
    phone.open(deputy_links[second])
    for name in merchants[2:]:
        decide(phone, name, "Let pass", "Your call is recorded")
    assert Game.objects.get(pk=game.pk).engine_state().round == 2
    phone.newest_email(email(merchants[0]), screen="six-round-over")
    told = phone.page.inner_text("pre")
    assert "HOW ROUND 1 WENT" in told and "Pepper (30)" in told


def test_a_player_changes_their_settings_and_reads_the_game_in_spanish(chromium, site):
    phone = Phone(chromium, site, prefix="settings-", zone="Europe/Madrid")
    game = new_game(["Ann", "Ben", "Cid"], edition=2)
    phone.follow_newest_email(email("Ben"))
    table = phone.page.url
    phone.page.get_by_role("link", name="Your settings").click()
    phone.page.wait_for_url(re.compile(r"/settings/$"))
    phone.check("settings")
    # A mistake: the errors come first, with the focus, each a link to its field.
    phone.page.locator("form#settings input[name=name]").fill("")
    phone.page.locator("form#settings input[name=name]").evaluate("e => e.required = false")
    phone.page.locator("form#settings input[name=away_from]").fill("2030-01-02")
    phone.page.get_by_role("button", name="Save my settings").click()
    phone.page.wait_for_load_state()
    phone.check("settings-errors")
    summary = phone.page.locator("#error-summary")
    assert phone.page.evaluate("document.activeElement.id") == "error-summary"
    assert phone.page.title().startswith("Your settings are not saved.")
    name = phone.page.locator("#field-name")
    assert name.get_attribute("aria-invalid") == "true"
    described = phone.page.locator(f"#{name.get_attribute('aria-describedby')}").inner_text()
    assert described and described in summary.inner_text()
    summary.get_by_role("link", name=re.compile("Time away")).click()
    assert phone.page.evaluate("document.activeElement.id") == "field-away_from"
    phone.page.locator("#field-name").fill("Ben")
    phone.page.locator("#field-away_from").fill("")
    form = phone.page.locator("form#settings")
    # The device's zone is offered; one tap takes it.
    assert form.locator("input[name=timezone]").input_value() == "UTC"
    form.get_by_role("button", name="Europe/Madrid").click()
    assert form.locator("input[name=timezone]").input_value() == "Europe/Madrid"
    form.locator("select[name=language]").select_option("es")
    form.locator("input[name=notify][value=turn]").check()
    form.locator("input[name=away_from]").fill("2030-01-02")
    form.locator("input[name=away_until]").fill("2030-01-05")
    form.get_by_role("button", name="Save my settings").click()
    phone.submitted("settings-saved", expect="Tus ajustes se han guardado")
    assert phone.page.url.split("#")[0] == table  # (the error link's #field-... stays)
    assert "Tu elección de Mercado" in phone.page.inner_text("main")  # the market form
    assert phone.page.locator("html").get_attribute("lang") == "es"
    assert game.seats.get(index=1).timezone == "Europe/Madrid"
    # The unsubscribe address, opened in a browser, asks first; its button mutes.
    phone.page.goto(table + "unsubscribe/")
    phone.check("unsubscribe")
    assert game.seats.get(index=1).notify == "turn"  # (chosen above; the GET kept it)
    Seat.objects.filter(pk=game.seats.get(index=1).pk).update(notify="all", digest_hour=7)
    phone.page.get_by_role("button", name="Solo los correos que piden una jugada").click()
    phone.page.wait_for_url(re.compile(r"/settings/$"))
    phone.check("muted")
    assert "Silenciado" in phone.page.inner_text("main")
    assert (game.seats.get(index=1).notify, game.seats.get(index=1).digest_hour) == ("turn", None)
    # Another player's table tells of the absence.
    phone.follow_newest_email(email("Cid"))
    assert re.search(r"away \w{3} 2 Jan to \w{3} 5 Jan", phone.page.inner_text("section.table"))
    phone.close()


def test_an_old_referrer_policy_is_caught_and_the_error_page_leads_back(phone):
    """With "Referrer-Policy: no-referrer" Chromium posts "Origin: null", which the
    CSRF check refuses: the page must say so and lead back to the table."""
    new_game(["Ann", "Ben", "Cid"], edition=2)
    phone.follow_newest_email(email("Ben"))
    table = phone.page.url

    def old_policy(route):
        if route.request.method != "GET":
            return route.continue_()
        response = route.fetch()
        body = response.text().replace('content="same-origin"', 'content="no-referrer"')
        headers = {**response.headers, "referrer-policy": "no-referrer"}
        return route.fulfill(response=response, body=body, headers=headers)

    phone.page.route("**/play/**", old_policy)
    phone.open(table)
    phone.move_form("set_aside").get_by_role("button", name="Set aside the ticked cards").click()
    phone.page.wait_for_load_state()
    assert "This form came from another address" in phone.page.inner_text("main")
    phone.console_errors = [e for e in phone.console_errors if "403" not in e]
    phone.check("csrf-refused")
    phone.page.unroute("**/play/**")
    phone.page.get_by_role("link", name="Open my table").click()
    phone.page.wait_for_url(table)
    set_aside(phone, 1)


def test_refused_links_say_why(phone):
    game = new_game(["Ann", "Ben", "Cid"], edition=2)
    text = phone.expect_refusal("/play/not-a-link/", "bad-link", 403)
    assert "This link is not valid" in text
    seat = game.seats.get(index=1)
    phone.follow_newest_email(email("Ben"))
    seat.link_version += 1
    seat.save()
    text = phone.expect_refusal(phone.page.url, "replaced-link", 410)
    assert "replaced" in text


def organizer_desk(chromium, site, prefix: str) -> Phone:
    """A superuser, logged in to the admin at a desktop's size."""
    get_user_model().objects.create_superuser("organizer", "org@example.org", "a long passphrase")
    # Django's admin is the organizer's tool, its markup Django's: not audited (axe-core
    # finds its tabular inlines' unlabelled fields and its breadcrumbs' links).
    desk = Phone(chromium, site, viewport=DESKTOP, prefix=prefix, audit=False)
    page = desk.page
    page.goto("/admin/")
    page.fill("input[name=username]", "organizer")
    page.fill("input[name=password]", "a long passphrase")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/$"))
    return desk


def test_the_organizer_creates_a_game_and_pauses_it(chromium, site):
    desk = organizer_desk(chromium, site, "admin-")
    page = desk.page
    desk.check("index")
    page.goto("/admin/games/game/add/")
    desk.check("add-game")
    page.fill("input[name=name]", "Friday table")
    page.fill(
        "textarea[name=players]",
        "Ann <ann@example.org> Europe/Madrid\nBen <ben@example.org>\nCid <cid@example.org>",
    )
    page.fill("input[name=organizer_email]", "org@example.org")
    page.get_by_role("button", name="Save and continue editing").click()
    page.wait_for_load_state()
    assert not page.locator(".errornote, .errorlist").count(), page.inner_text("#content")
    desk.check("game-created")
    game = Game.objects.get(name="Friday table")
    assert game.seats.count() == 3
    page.get_by_role("button", name="Pause the game").click()
    page.wait_for_load_state()
    assert "The game is paused" in page.inner_text(".messagelist")
    desk.check("game-paused")
    assert Game.objects.get(pk=game.pk).paused_at is not None
    desk.close()
    # Each player hears of it, and their table says so, with no countdown and no form.
    player = Phone(chromium, site, prefix="admin-player-")
    player.follow_newest_email("ann@example.org", screen="paused-email")
    player.check("paused-table")
    assert "Paused by the organizer since" in player.page.inner_text("section.now")
    assert player.page.locator("form input[name=move]").count() == 0
    player.close()


def test_the_home_page_and_the_dev_mailbox_fit_a_phone(phone):
    phone.open("/", "home")
    assert "Open the newest email from your game" in phone.page.inner_text("main")
    game = game_setup.create_game(
        name="A table with a rather long name indeed",
        players=[game_setup.PlayerSpec(n, email(n)) for n in ("Ann", "Ben", "Cid")],
        config={"edition": 2},
        timing={"deadline_mode": "duration", "market_minutes": 1440},  # a deadline.ics each
    )
    phone.page.goto(f"/dev/mail/?game={game.pk}&to=ben")
    phone.check("mailbox-filtered")
    assert phone.page.locator("ul.mails li").count() == 1
    phone.page.locator("ul.mails li a").first.click()
    phone.page.wait_for_load_state()
    phone.check("mailbox-attachments")
    with phone.page.expect_download() as download:
        phone.page.get_by_role("link", name="deadline.ics").click()
    assert download.value.suggested_filename == "deadline.ics"


def test_a_seat_that_floods_is_capped_then_slowed_and_the_whole_log_pages(phone, settings):
    from games.core import links
    from games.engine.inspection import MAX_OFFER_MOVES

    game = new_game(["Ann", "Ben", "Cid", "Dee"], edition=2)
    timers.advance(game.pk, force=True)  # the market's defaults
    timers.advance(game.pk, force=True)  # the loading's defaults
    ben, cid = game.seats.get(index=1), game.seats.get(index=2)
    for seat in (cid, ben):  # made and withdrawn through the service, to near the cap
        for i in range(MAX_OFFER_MOVES - (2 if seat == ben else 0)):
            since = Game.objects.get(pk=game.pk).engine_state().phase.since
            terms = {"gold": 1, "sheriff": [{"bag": seat.index, "action": "pass"}]}
            make = {"type": "make_offer", "to": 0, "terms": terms}
            assert moves.submit(seat, make, version=since, key=f"{seat.pk}m{i}").accepted
            offer = Game.objects.get(pk=game.pk).engine_state().phase.next_offer - 1
            withdraw = {"type": "withdraw_offer", "offer": offer}
            assert moves.submit(seat, withdraw, version=since, key=f"{seat.pk}w{i}").accepted
    phone.open(links.seat_url(ben), "offer-cap-near")
    assert "You may make or change 2 more offers" in phone.page.inner_text("section.negotiate")
    for amount in ("2", "3"):
        offer = phone.page.locator("section.negotiate form").first
        offer.locator("input[name=gold]").fill(amount)
        offer.get_by_role("button", name="Send the offer").click()
        phone.submitted(expect="offer is on the table")
    phone.check("offer-cap-reached")
    assert "the most one may" in phone.page.inner_text("section.negotiate")
    assert not phone.move_form("make_offer").count()

    # One more move is allowed, then the next is refused with the time to wait.
    settings.MOVES_BURST, settings.MOVES_REFILL_SECONDS = 1, 60
    phone.move_form("withdraw_offer").first.get_by_role("button", name="Withdraw").click()
    phone.submitted(expect="withdrawn")
    statuses = []
    page = phone.page
    page.on("response", lambda r: statuses.append(r.status))
    phone.move_form("withdraw_offer").first.get_by_role("button", name="Withdraw").click()
    page.wait_for_load_state()
    assert 429 in statuses
    phone.console_errors = [e for e in phone.console_errors if "429" not in e]
    assert "Try again in 60 seconds" in page.inner_text(".messages")
    phone.check("too-fast")

    # The whole log, from the start, a page at a time.
    page.get_by_role("link", name="Show the whole log, from the start").click()
    page.wait_for_load_state()
    phone.check("whole-log")
    assert page.locator("section.log li").count() == 100
    assert "The game begins" in page.locator("section.log li").first.inner_text()
    page.get_by_role("link", name="Show the next lines").click()
    page.wait_for_load_state()
    phone.check("whole-log-next")
    assert 0 < page.locator("section.log li").count() <= 100


def test_the_organizer_who_plays_sees_no_secret_until_opening_the_record(chromium, site):
    from games.core import links

    game = new_game(["Ann", "Ben", "Cid"], edition=2)
    state = game.engine_state()
    desk = organizer_desk(chromium, site, "record-")
    page = desk.page
    page.goto(f"/admin/games/game/{game.pk}/change/")
    desk.check("game-running")
    assert state.seed not in page.content() and "/play/" not in page.content()
    page.get_by_role("link", name="Open the full record…").click()
    page.wait_for_load_state()
    desk.check("open-record-form")
    page.fill("textarea[name=reason], input[name=reason]", "Ben says his hand was dealt twice")
    page.get_by_role("button", name="Open the full record").click()
    page.wait_for_load_state()
    desk.check("record-open")
    assert state.seed in page.content()
    desk.close()
    player = Phone(chromium, site, prefix="record-player-")
    player.open(links.seat_url(game.seats.get(index=1)), "told")
    told = player.page.inner_text("#record-openings")
    assert "The organizer opened this game's full record on" in told
    assert "Ben says his hand was dealt twice" in told
    player.close()


def test_every_kind_of_email_passes_the_audit_in_light_and_dark(phone):
    """The emails no game of this suite sends (the organizer's alerts, a replaced
    player's), with a seat's, audited as a phone's mail app shows them, in light and
    dark mode; a screenshot of each in dark mode."""
    from games.mail import emails
    from tests.browser.chromium import SCREENSHOTS, axe_report, axe_violations

    game = new_game(["Ann", "Ben", "Cid"], edition=2)
    game.organizer_email = "org@example.org"
    seat = game.seats.get(index=1)
    kinds = {
        "start": emails.render(game, seat, game.engine_state(), "start"),
        "miss-alert": emails.render_miss_alert(game, seat, "k1"),
        "idle-alert": emails.render_idle_alert(game, "k2"),
        "undeliverable-alert": emails.render_undeliverable_alert(game, seat, "bounced", "k3"),
        "replaced": emails.render_replaced(game, seat, "k4"),
    }
    page = phone.page
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for kind, message in kinds.items():
            page.set_content(message["html"])
            violations = axe_violations(page)
            assert not violations, axe_report(violations, f"the email {kind!r} in {scheme} mode")
            if scheme == "dark":
                page.screenshot(path=SCREENSHOTS / f"email-dark-{kind}.png", full_page=True)
    # Dark mode is on: the page's background is the dark one.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(28, 23, 18)", background


def test_the_black_market_step_tells_a_merchant_who_cannot_claim_why_they_are_asked(phone):
    """Issue 31, 6.1: three face-down goods of three kinds: asked as soon as the bag is
    through, told why, and "No claim this round" ends the wait for them."""
    names = ["Ann", "Ben", "Cid", "Dee"]
    game = game_setup.create_game(
        name="Browser Black Market",
        players=[game_setup.PlayerSpec(n, email(n)) for n in names],
        config={"edition": 2, "black_market": True},
        seed=SEED,
    )
    timers.advance(game.pk, force=True)  # the market, then the loading: the defaults
    timers.advance(game.pk, force=True)
    state = Game.objects.get(pk=game.pk).engine_state()
    merchant = state.merchants()[0]
    rigged = rig(state, f"stand:{merchant}", ["pepper", "mead", "silk"])
    Game.objects.filter(pk=game.pk).update(state=rigged.to_dict())
    sheriff = Game.objects.get(pk=game.pk).seats.get(index=state.sheriff)
    since = rigged.phase.since
    for seat in state.merchants():
        player = Game.objects.get(pk=game.pk).seats.get(index=seat)
        moves.submit(player, {"type": "say_no_offer"}, version=since, key=f"n{seat}")
    moves.submit(sheriff, {"type": "pass_bag", "bag": merchant}, version=since, key="p")
    phone.follow_newest_email(email(names[merchant]), screen="black-market-asked-early")
    assert "You cannot claim this round" in phone.page.inner_text("main")
    for bag in state.merchants()[1:]:
        moves.submit(sheriff, {"type": "pass_bag", "bag": bag}, version=since, key=f"p{bag}")
    assert Game.objects.get(pk=game.pk).engine_state().phase.kind == "black_market"
    phone.follow_newest_email(email(names[merchant]), screen="black-market-why-asked")
    assert "the table waits for every merchant" in phone.page.inner_text("main")
    phone.check("black-market-step-page")
    phone.move_form("decline_black_market").get_by_role(
        "button", name="No claim this round"
    ).click()
    phone.submitted("black-market-no-claim", expect="No Black Market claim from you")
    assert Game.objects.get(pk=game.pk).engine_state().round == 2


def test_a_newcomer_signs_in_from_the_dev_mailbox_and_a_scanner_uses_nothing_up(
    chromium, site, phone
):
    page = phone.page
    phone.open("/", "home")
    page.get_by_role("link", name="Sign in").click()
    page.wait_for_url(re.compile(r"/sign-in/$"))
    phone.check("sign-in")
    page.fill("input[name=email]", "newcomer@example.org")
    page.get_by_role("button", name="Email me a sign-in link").click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    phone.check("sign-in-code")
    # The email as a phone's mail app shows it: its HTML alone, at 390 px.
    page.goto("/dev/mail/?to=newcomer@example.org")
    page.locator("ul.mails li a").first.click()
    page.wait_for_load_state()
    page.goto(page.locator("iframe").get_attribute("src"))
    phone.check("email-sign-in")
    phone.audit("email-sign-in")
    link = page.get_by_role("link", name="Sign me in").get_attribute("href")
    # A mail scanner opens every link first: the GET shows a button and uses nothing up.
    scanner = chromium.new_context()
    assert scanner.new_page().goto(link).status == 200
    scanner.close()
    page.goto(link)
    phone.check("sign-in-link")
    page.get_by_role("button", name="Sign me in").click()
    page.wait_for_url(re.compile(r"/$"))
    phone.check("signed-in")
    assert "You are signed in as newcomer@example.org." in page.inner_text("main")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_load_state()
    assert "You are signed out." in page.inner_text("main")
    # The link worked once: opened again, it says so and offers a new one.
    assert page.goto(link).status == 410
    phone.console_errors = [e for e in phone.console_errors if "410" not in e]
    phone.check("sign-in-link-used")
    assert "no longer works" in page.inner_text("main")
