"""A player makes an API token on their seat's settings page, on a phone: it is shown
once, a program plays with it, and revoking it on the same page ends it. Screenshots
land in var/screenshots/api-*.png."""

import pytest
import requests

from games.core import links
from tests.browser.chromium import Phone
from tests.support.fixtures_pages import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, site):
    tab = Phone(chromium, site, prefix="api-")
    yield tab
    tab.close()


def test_a_token_made_used_and_revoked_from_the_settings_page(phone, site):
    game = start_game()
    ben = game.seats.get(index=1)
    page = phone.page
    phone.open(links.seat_path(ben) + "settings/#api", "settings")
    section = page.locator("#api")
    assert "API tokens" in section.inner_text()
    section.get_by_label("A name for it (optional)").fill("my bot")
    section.get_by_role("button", name="Make a token").click()
    page.wait_for_load_state()
    phone.check("token-shown")
    token = page.locator("#new-token").inner_text()
    assert token.startswith("shf_") and len(token) > 40
    assert "shown only this once" in page.locator("#api").inner_text()

    program = requests.Session()
    program.headers["Authorization"] = f"Bearer {token}"
    me = program.get(f"{site}/api/v1/token", timeout=30).json()
    assert me == {"game": game.pk, "seat": 1, "name": "Ben"}
    view = program.get(f"{site}/api/v1/games/{game.pk}/seats/1", timeout=30).json()
    assert view["view"]["me"]["hand"]  # the seat's own hand, as its page shows it

    phone.open(links.seat_path(ben) + "settings/", "settings-with-token")
    listed = page.locator("#api ul.tokens")
    assert token[:10] in listed.inner_text() and token not in page.content()
    assert "my bot" in listed.inner_text()
    listed.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    phone.check("revoked")
    assert "The token is revoked" in page.locator(".msg-success").inner_text()
    assert program.get(f"{site}/api/v1/token", timeout=30).status_code == 401
