"""From nothing to a running game with no staff account, in a phone's browser: a
newcomer signs in from the dev mailbox, sets up a four-player game with a daily
deadline, invites two friends by email and a third through the join link, each
accepts from their email (the join link's asker confirms, asked nothing again), an
answered invitation's link only says so, the game starts and round 1's market is
played; a full table's join link explains itself."""

import re

import pytest

from games.models import Game, Lobby
from tests.browser.chromium import Phone
from tests.browser.playing import set_aside

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INVITATION = re.compile("Accept or decline|Confirm my seat|Aceptar o rechazar|Confirmar mi asiento")
SIGN_IN = re.compile("Sign me in|Entrar")


SPANISH = {
    "Email me a sign-in link": "Envíame un enlace para entrar",
    "Sign me in": "Entrar",
    "Accept": "Aceptar",
    "Confirm my seat": "Confirmar mi asiento",
    "Set up the game": "Preparar la partida",
}


def say(phone: Phone, words: str) -> str:
    return SPANISH[words] if phone.spanish else words


def sign_in_from_the_mailbox(phone: Phone, address: str, screen: str = "") -> None:
    """On the sign-in page: ask, then follow the emailed link and press its button."""
    page = phone.page
    page.fill("input[name=email]", address)
    page.get_by_role("button", name=say(phone, "Email me a sign-in link")).click()
    page.wait_for_url(re.compile(r"/sign-in/code/$"))
    link = phone.newest_email(address, screen and f"{screen}-email", link=SIGN_IN)
    page.goto(link)
    page.get_by_role("button", name=say(phone, "Sign me in")).click()
    page.wait_for_load_state()


def accept_invitation(phone: Phone, address: str, name: str, screen: str) -> str:
    """Open the invitation's email and accept; a join link's asker only confirms.
    The invitation's link, for a later look."""
    page = phone.page
    link = phone.newest_email(address, f"{screen}-email", link=INVITATION)
    phone.open(link, screen)
    phone.audit(screen)
    if page.locator("input[name=name]").count():
        page.fill("input[name=name]", name)
        page.get_by_role("button", name=say(phone, "Accept"), exact=True).click()
    else:  # asked through the join link: the name was given there
        assert name in page.inner_text("main")
        page.get_by_role("button", name=say(phone, "Confirm my seat")).click()
    page.wait_for_load_state()
    assert ("Estás dentro" if phone.spanish else "You are in") in page.inner_text("main")
    phone.check(f"{screen}-accepted")
    return link


def badge_in_my_games(phone: Phone, screen: str | None = None) -> str:
    """The badge of the one game on the person's My games page."""
    phone.open("/my/", screen)
    [badge] = phone.page.locator(".game-row .badge").all_inner_texts()
    return badge.strip().capitalize()


def test_a_group_goes_from_nothing_to_a_running_game(chromium, site):
    alice = Phone(chromium, site, prefix="self-alice-", zone="Europe/Madrid")
    page = alice.page
    # Setting up a game asks to sign in first, then comes back to the form.
    alice.open("/new/")
    page.wait_for_url(re.compile(r"/sign-in/\?next=/new/"))
    sign_in_from_the_mailbox(alice, "alice@example.org", "sign-in")
    page.wait_for_url(re.compile(r"/new/$"))
    alice.check("new-game")
    alice.audit("new-game")
    # The first-game defaults: one phase a day at 18:00 in the device's zone.
    assert page.input_value("#field-daily_time") == "18:00"
    assert page.input_value("#field-deadline_timezone") == "Europe/Madrid"
    page.fill("#field-name", "Friday smugglers")
    page.fill("#field-my_name", "Alice")
    page.fill("#field-invitees", "Bob <bob@example.org>\nCarol <carol@example.org>")
    page.get_by_role("button", name="Set up the game").click()
    page.wait_for_url(re.compile(r"/new/\d+/$"))
    alice.check("lobby")
    alice.audit("lobby")
    text = page.inner_text("main")
    assert "1 of 4 seats taken" in text
    # Each invitee's controls say whose they are, to a screen reader too.
    for name in ("Bob", "Carol"):
        for control in (f"Send again to {name}", f"Remove {name}"):
            assert page.get_by_role("button", name=control, exact=True).count() == 1
        hidden = page.get_by_text(f"Put someone else in this seat, instead of {name}")
        hidden.locator("xpath=..").click()  # its summary
        assert page.get_by_role("button", name=f"Invite instead of {name}").is_visible()
        assert page.get_by_label(f"Name and address, instead of {name}").is_visible()
    assert "One phase a day at 18:00 Madrid time, every day" in text
    join_link = page.input_value("#join-url")
    # My games lists the game being gathered.
    assert badge_in_my_games(alice, "my-games-gathering") == "Gathering"

    bob = Phone(chromium, site, prefix="self-bob-", zone="Europe/London")
    bob_link = accept_invitation(bob, "bob@example.org", "Bob", "invitation")
    # The invitation forwarded: its link was answered, and only says so.
    forwarded = Phone(chromium, site, prefix="self-forwarded-")
    forwarded.open(bob_link, "invitation-answered")
    forwarded.audit("invitation-answered")
    text = forwarded.page.inner_text("main")
    assert "You are in" in text and "Accept" not in text
    assert forwarded.page.get_by_role("link", name="Sign in").count() == 1
    forwarded.close()
    carol = Phone(chromium, site, prefix="self-carol-", zone="America/New_York")
    accept_invitation(carol, "carol@example.org", "Carol", "invitation")
    # Carol's answer signed her in: her My games shows the game she waits for.
    assert badge_in_my_games(carol, "my-games-accepted") == "You are in"

    # Dave has only the join link from the group chat; his email confirms the seat.
    dave = Phone(chromium, site, prefix="self-dave-", zone="Asia/Tokyo")
    dave.open(join_link, "join")
    dave.audit("join")
    dave.page.fill("input[name=name]", "Dave")
    dave.page.fill("input[name=email]", "dave@example.org")
    dave.page.get_by_role("button", name="Email me to confirm").click()
    dave.page.wait_for_load_state()
    assert "Check your email" in dave.page.inner_text("main")
    dave.check("join-sent")
    accept_invitation(dave, "dave@example.org", "Dave", "confirm")
    assert "invites you" not in dave.page.inner_text("main")

    # Every seat is taken: the organizer is told, and presses Start.
    alice.newest_email("alice@example.org", "table-full", link="Open the game's page")
    alice.open(f"/new/{Lobby.objects.get().pk}/")
    assert "4 of 4 seats taken" in page.inner_text("main")
    alice.check("lobby-full")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    game = Game.objects.get()
    assert sorted(s.name for s in game.seats.all()) == ["Alice", "Bob", "Carol", "Dave"]
    assert game.deadline_mode == "daily" and game.deadline_timezone == "Europe/Madrid"

    # Round 1's market, each merchant from their own first email (the Sheriff waits).
    # My games tells each their badge before and after their move (each was signed in
    # by their invitation's answer, Alice by her sign-in).
    for phone, address in ((alice, "alice"), (bob, "bob"), (carol, "carol"), (dave, "dave")):
        phone.follow_newest_email(f"{address}@example.org", "first")
        merchant = phone.move_form("set_aside").count() > 0
        assert badge_in_my_games(phone, "my-games") == ("Your move" if merchant else "Waiting")
        if merchant:
            phone.follow_newest_email(f"{address}@example.org")
            set_aside(phone, 1, "market")
            loading = Game.objects.get().engine_state().phase.kind == "load"  # the last one
            assert badge_in_my_games(phone) == ("Your move" if loading else "Waiting")
    assert Game.objects.get().engine_state().phase.kind == "load"

    # A newcomer with the old join link learns the table is full, and whom to ask.
    eve = Phone(chromium, site, prefix="self-eve-")
    text = eve.expect_refusal(join_link, "join-full", 410)
    assert "This game has started" in text and "Alice" in text and "who set up this game" in text
    eve.audit("join-full")
    for phone in (alice, bob, carol, dave, eve):
        assert not phone.console_errors, phone.console_errors
        phone.close()


def test_a_spanish_table_reads_every_new_screen_in_spanish(chromium, site):
    """Ana's phone speaks Spanish: the sign-in, the form, the table's page and the
    invitation she sends read in Spanish; Beto, invited, answers in Spanish."""
    ana = Phone(chromium, site, prefix="es-ana-", zone="Europe/Madrid", locale="es-ES")
    page = ana.page
    ana.open("/new/")
    sign_in_from_the_mailbox(ana, "ana@example.org", "sign-in")
    page.wait_for_url(re.compile(r"/new/$"))
    ana.check("new-game")
    ana.audit("new-game")
    assert "Prepara una partida" in page.inner_text("main")
    assert "Has entrado." in page.inner_text(".messages")  # the sign-in's message too
    page.wait_for_function(
        "document.querySelector('#pace-now strong').textContent.includes('Madrid')"
    )
    assert "Una fase al día a las 18:00, hora de Madrid" in page.inner_text("#pace-now")
    page.fill("#field-name", "Contrabandistas")
    page.fill("#field-my_name", "Ana")
    page.fill("#field-invitees", "Beto <beto@example.org>")
    page.get_by_role("button", name=say(ana, "Set up the game")).click()
    page.wait_for_url(re.compile(r"/new/\d+/$"))
    ana.check("lobby")
    ana.audit("lobby")
    assert "1 de 4 asientos ocupados" in page.inner_text("main")
    beto = Phone(chromium, site, prefix="es-beto-", zone="America/Mexico_City", locale="es-MX")
    accept_invitation(beto, "beto@example.org", "Beto", "invitation")
    join = page.input_value("#join-url")
    # Cata opens the join link, asks for a seat, then thinks better of it: the
    # email's "never invite me again" is a page with one button.
    cata = Phone(chromium, site, prefix="es-cata-", zone="Europe/Madrid", locale="es-ES")
    cata.open(join, "join")
    cata.audit("join")
    cata.page.fill("input[name=name]", "Cata")
    cata.page.fill("input[name=email]", "cata@example.org")
    cata.page.get_by_role("button", name="Envíame un correo para confirmar").click()
    cata.page.wait_for_load_state()
    assert "Mira tu correo" in cata.page.inner_text("main")
    cata.check("join-sent")
    cata.newest_email("cata@example.org", "confirm", link=INVITATION)
    never = cata.page.frame_locator("iframe").get_by_role("link", name="No volver a invitarme")
    cata.open(never.get_attribute("href"), "never-invite")
    cata.audit("never-invite")
    cata.page.get_by_role("button", name="No volver a invitarme").click()
    cata.page.wait_for_load_state()
    assert "No más invitaciones" in cata.page.inner_text("main")
    cata.check("never-invite-done")
    page.get_by_role("button", name="Cerrar el enlace para unirse").click()
    page.wait_for_load_state()
    text = beto.expect_refusal(join, "join-closed", 410)
    assert "ha cerrado este enlace" in text and "Ana" in text
    for phone in (ana, beto, cata):
        assert not phone.console_errors, phone.console_errors
        phone.close()
