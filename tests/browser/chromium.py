"""The browser suite's tools: Debian's Chromium driven by Playwright against
pytest-django's live server, with the dev mailbox as every player's inbox.

A ``Phone`` is one browser tab at 390×844 that checks what a person would
notice on every page it opens: no horizontal scroll, no console error, and
after each form a landing on the table with a success message. Every distinct
screen, and every kind of email it opens, is audited with axe-core against WCAG
2.2 A and AA (``audit``): a violation fails the test, naming the rule, its
impact, the element and the screen. Screenshots of every distinct screen go to
``var/screenshots/`` for a person to look at.
"""

import os
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
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
# The WCAG 2.2 A/AA rules of axe-core; "best-practice" and experimental rules stay out.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(page) -> list[dict]:
    """axe-core's WCAG 2.2 A/AA violations on the page as it is now. axe-core's
    script comes with the axe-playwright-python package (the dev extras): the
    suite needs no network but the package index."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    return Axe().run(page, options=options).response["violations"]


def axe_report(violations: list[dict], where: str) -> str:
    """One line a failing element: rule id, impact, CSS target, what to fix."""
    lines = [f"axe-core: {len(violations)} WCAG 2.2 A/AA violation(s) on {where}"]
    for v in violations:
        for node in v["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"- {v['id']} ({v['impact']}) at {target}: {v['help']}. {summary}")
    return "\n".join(lines)


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

    def __init__(
        self,
        browser,
        base_url: str,
        viewport=PHONE,
        prefix: str = "",
        zone=None,
        audit=True,
        locale=None,
    ):
        mobile = viewport == PHONE
        self.context = browser.new_context(
            viewport=viewport,
            is_mobile=mobile,
            has_touch=mobile,
            base_url=base_url,
            timezone_id=zone,  # the device's time zone (None: the machine's)
            locale=locale,  # the device's language, sent as Accept-Language
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.base_url = base_url
        self.width = viewport["width"]
        self.prefix = prefix
        self.spanish = (locale or "").startswith("es")  # the pages answer in Spanish
        self.console_errors: list[str] = []
        self.shots: Counter = Counter()
        self.email_kinds: set[str] = set()  # the email headlines audited already
        self.audits = audit  # off for Django's own admin, whose markup is not the site's
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

    def sign_in_as(self, email: str) -> None:
        """The person's browser session, as games.core.sign_in makes one."""
        people = get_user_model().objects
        person = people.filter(email=email).first() or people.create_user(email, email)
        client = Client()
        client.force_login(person)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": self.base_url}]
        )

    # --- what a person checks on every screen ------------------------------------------
    def check(self, screen: str | None = None) -> None:
        """No horizontal scroll, no console error; a screenshot and an accessibility
        audit of a screen not seen yet."""
        first_time = screen and not self.shots[screen]
        if first_time:  # first, so that a failure can be seen too
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
        if first_time and self.audits:
            self.audit(screen)

    def audit(self, screen: str) -> None:
        """axe-core's WCAG 2.2 A/AA rules on the page as it is: any violation fails."""
        violations = axe_violations(self.page)
        if violations:
            where = f"screen {screen!r} ({self.page.url})"
            pytest.fail(axe_report(violations, where), pytrace=False)

    def expect_refusal(self, path: str, screen: str, status: int) -> str:
        """Open a page that must be refused; the browser logs the status as an error."""
        response = self.page.goto(path)
        assert response.status == status, (path, response.status)
        self.console_errors = [e for e in self.console_errors if str(status) not in e]
        self.check(screen)
        return self.page.inner_text("main")

    # --- the dev mailbox ------------------------------------------------------------------
    def newest_email(self, address: str, screen: str | None = None, link=TABLE_LINK) -> str:
        """Open the address's newest email in the dev mailbox; returns its table link.
        Checks the email's own HTML at phone width too, and audits each kind of
        email (told by its headline) the first time one arrives."""
        page = self.page
        page.goto(f"/dev/mail/?to={address}")
        self.check("mailbox")
        page.locator("ul.mails li a").first.click()
        page.wait_for_load_state()
        self.check("mailbox-message")
        href = (
            page.frame_locator("iframe").get_by_role("link", name=link).first.get_attribute("href")
        )
        html_url = page.locator("iframe").get_attribute("src")
        # The email as a phone's mail app shows it: its HTML alone, at 390 px.
        page.goto(html_url)
        self.check(f"email-{screen}" if screen else None)
        kind = re.sub(r"\d+", "N", page.locator("h1").first.inner_text().strip())
        if kind not in self.email_kinds:
            self.email_kinds.add(kind)
            violations = axe_violations(page)
            if violations:
                where = f"the email {kind!r} ({html_url})"
                pytest.fail(axe_report(violations, where), pytrace=False)
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
        # A screen reader hears the result first: in the title, and the focus on it.
        title = re.sub("[\u2066-\u2069]", "", page.title())  # a name's bidi isolates
        assert title.startswith(" ".join(text.split())), (title, text)
        # (The browser applies autofocus when it next renders, which may come just
        # after "load": a page with more scripts to run at load showed it.)
        until(lambda: page.evaluate("document.activeElement.id") == "messages", 3)
        self.check(screen)
        return text

    def talk_said(self, screen: str | None = None, expect: str | None = None) -> str:
        """After a talk form: back on the table at the talk panel, focused and on
        screen, which says what the form did (the title says it first too)."""
        page = self.page
        page.wait_for_load_state()
        assert re.search(r"/play/[^/]+/#talk$", page.url), page.url
        said = page.locator("#talk #talk-said .msg")
        assert said.count() == 1, page.locator("#talk").inner_text()[:800]
        text = said.inner_text()
        if expect:
            assert expect in text, text
        title = re.sub("[\u2066-\u2069]", "", page.title())
        assert title.startswith(" ".join(text.split())), (title, text)
        assert page.evaluate("document.activeElement.id") == "talk", "focus not on the talk"
        top = page.evaluate("document.getElementById('talk').getBoundingClientRect().top")
        assert 0 <= top < page.viewport_size["height"] / 2, f"the talk panel is at {top}px"
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


def until(check, seconds: float = 12):
    """``check()``'s first true answer, asked every 0.2 s: for what a page does by
    itself (the pages' policy forbids the evaluated strings Playwright's
    wait_for_function would send)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {check}")
