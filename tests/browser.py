"""The browser suite's tools: Debian's Chromium driven by Playwright against
pytest-django's live server, with the dev mailbox as every player's inbox.

A ``Phone`` is one browser tab at 390×844 that checks what a person would
notice on every page it opens: no horizontal scroll, no console error, and
after each form a landing on the table with a success message. Screenshots of
every distinct screen go to ``var/screenshots/`` for a person to look at.
"""

import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "var" / "screenshots"
TABLE_LINK = re.compile("Open your table|See the final table")  # an email's button
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Flags for a headless Chromium on a machine with no network but loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# What a glance at a phone would catch: a goods mark (✓ ✗ ♛) touching the name it
# marks (at least 3 px between them on a line), and a fieldset's legend astride its
# border (the legend sits inside its box, below the border).
CROWDED = """() => {
  const found = [];
  const shown = (el) => el.getClientRects().length > 0;
  for (const mark of document.querySelectorAll(".mark")) {
    if (!shown(mark)) continue;
    let next = mark.nextSibling;
    while (next && !next.textContent.trim()) next = next.nextSibling;
    if (!next) continue;
    const range = document.createRange();
    if (next.nodeType === Node.TEXT_NODE) {
      const text = next.textContent;
      range.setStart(next, text.search(/\\S/));
      range.setEnd(next, text.trimEnd().length);
    } else {
      range.selectNodeContents(next);
    }
    const m = mark.getBoundingClientRect();
    for (const r of range.getClientRects()) {
      const sameLine = Math.min(m.bottom, r.bottom) - Math.max(m.top, r.top) > 2;
      const apart = Math.max(r.left - m.right, m.left - r.right);
      if (r.width && sameLine && apart < 3) {
        found.push(`${mark.textContent} ${next.textContent.trim()}`);
      }
    }
  }
  for (const legend of document.querySelectorAll("fieldset > legend")) {
    const l = legend.getBoundingClientRect();
    if (!shown(legend) || l.width <= 1) continue;
    if (l.top < legend.parentElement.getBoundingClientRect().top + 1) {
      found.push(`legend "${legend.textContent.trim()}" on its border`);
    }
  }
  return found;
}"""


def require_browser() -> None:
    """Skip (locally) or fail (REQUIRE_BROWSER=1, as under CI) without a browser."""
    missing = []
    if not shutil.which(CHROMIUM):
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install -e '.[dev]')")
    if not missing:
        return
    message = "the browser suite needs " + " and ".join(missing)
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


class Phone:
    """One tab; every page it lands on is checked the way a person would."""

    def __init__(self, browser, base_url: str, viewport=PHONE, prefix: str = "", zone=None):
        mobile = viewport == PHONE
        self.context = browser.new_context(
            viewport=viewport,
            is_mobile=mobile,
            has_touch=mobile,
            base_url=base_url,
            timezone_id=zone,  # the device's time zone (None: the machine's)
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.base_url = base_url
        self.width = viewport["width"]
        self.prefix = prefix
        self.console_errors: list[str] = []
        self.shots: Counter = Counter()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        # A seat's link is its secret: no page may load anything from elsewhere.
        self.foreign_requests: list[str] = []
        self.page.on("request", self._request)

    def _request(self, request) -> None:
        if not request.url.startswith((self.base_url, "data:", "about:")):
            self.foreign_requests.append(request.url)

    def _console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({self.page.url})")

    def close(self) -> None:
        self.context.close()

    # --- what a person checks on every screen ------------------------------------------
    def check(self, screen: str | None = None) -> None:
        """No horizontal scroll, no console error; a screenshot of a screen not seen yet."""
        if screen and not self.shots[screen]:  # first, so that a failure can be seen too
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^a-z0-9-]+", "-", f"{self.prefix}{screen}".lower())
            self.page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)
        if screen:
            self.shots[screen] += 1
        width = self.page.evaluate(
            "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        )
        assert width <= self.width, f"{self.page.url} scrolls sideways: {width}px > {self.width}"
        crowded = self.page.evaluate(CROWDED)
        assert not crowded, f"{self.page.url}: touching or overlapping: {crowded}"
        assert not self.console_errors, self.console_errors
        assert not self.foreign_requests, self.foreign_requests

    def expect_refusal(self, path: str, screen: str, status: int) -> str:
        """Open a page that must be refused; the browser logs the status as an error."""
        response = self.page.goto(path)
        assert response.status == status, (path, response.status)
        self.console_errors = [e for e in self.console_errors if str(status) not in e]
        self.check(screen)
        return self.page.inner_text("main")

    # --- the dev mailbox ------------------------------------------------------------------
    def newest_email(self, address: str, screen: str | None = None) -> str:
        """Open the address's newest email in the dev mailbox; returns its table link.
        Checks the email's own HTML at phone width too."""
        page = self.page
        page.goto(f"/dev/mail/?to={address}")
        self.check("mailbox")
        page.locator("ul.mails li a").first.click()
        page.wait_for_load_state()
        self.check("mailbox-message")
        href = (
            page.frame_locator("iframe")
            .get_by_role("link", name=TABLE_LINK)
            .first.get_attribute("href")
        )
        html_url = page.locator("iframe").get_attribute("src")
        # The email as a phone's mail app shows it: its HTML alone, at 390 px.
        page.goto(html_url)
        self.check(f"email-{screen}" if screen else None)
        page.go_back()
        return href

    def follow_newest_email(self, address: str, screen: str | None = None) -> None:
        """Open the newest email and press its button, as a player does."""
        self.newest_email(address, screen)
        self.page.frame_locator("iframe").get_by_role("link", name=TABLE_LINK).first.click()
        self.page.wait_for_url(re.compile(r"/play/"))
        self.check()

    # --- the seat page ---------------------------------------------------------------------
    def open(self, url: str, screen: str | None = None) -> None:
        self.page.goto(url)
        self.check(screen)

    def submitted(self, screen: str | None = None, expect: str | None = None) -> str:
        """After pressing a form's button: back on the table with a success message."""
        page = self.page
        page.wait_for_load_state()
        assert "/play/" in page.url, page.url
        errors = page.locator(".msg-error").all_inner_texts()
        assert not errors, errors
        success = page.locator(".msg-success")
        assert success.count() == 1, page.locator("main").inner_text()[:800]
        text = success.inner_text()
        if expect:
            assert expect in text, text
        self.check(screen)
        return text

    def move_form(self, move: str):
        return self.page.locator(f"form:has(input[name=move][value={move}])")

    def tiles(self, form) -> list[tuple[str, str]]:
        """(kind, label) of each card offered for ticking, in order."""
        out = []
        for tile in form.locator("label.tile").all():
            kind = next(c[2:] for c in tile.get_attribute("class").split() if c.startswith("k-"))
            out.append((kind, tile.locator(".tile-name").inner_text().strip()))
        return out

    def tick(self, form, indexes) -> None:
        boxes = form.locator("label.tile input[type=checkbox]")
        for i in indexes:
            boxes.nth(i).check()
