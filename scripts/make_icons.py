#!/usr/bin/env python3
"""Make the installed app's PNG icons (games/static/games/icons/) from the site's
icon, games/static/games/icon.svg, by having Chromium draw it on a page of each
size and taking a screenshot: so a new icon.svg gives new icons with one command.

- icon-192.png, icon-512.png: the icon as it is, on a transparent page (the
  manifest's "any");
- maskable-512.png: the page filled with the icon's brown and the icon within the
  middle 80%, the safe zone a launcher's mask (circle, squircle...) never cuts;
- apple-touch-icon.png (180×180): filled the same way, since iOS shows a
  transparent corner as black and rounds the corners itself;
- badge-96.png: the star alone, white on transparent: Android draws a
  notification's badge from its alpha channel only, so the circle would be a blot.

    .venv/bin/python scripts/make_icons.py

Needs Playwright (the dev extras) and Debian's Chromium (CHROMIUM, default
/usr/bin/chromium).
"""

import os
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "games" / "static" / "games"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
BRAND = "#5b3a1e"  # the circle of icon.svg, and the site's theme colour

# (file, size in px, the page's background or None for transparent, the icon's share
# of the page's width, what to draw: "icon" as it is or its "star" in white)
ICONS = [
    ("icon-192.png", 192, None, 1.0, "icon"),
    ("icon-512.png", 512, None, 1.0, "icon"),
    ("maskable-512.png", 512, BRAND, 0.8, "icon"),
    ("apple-touch-icon.png", 180, BRAND, 0.9, "icon"),
    ("badge-96.png", 96, None, 1.0, "star"),
]

PAGE = """<!doctype html><html><head><style>
html, body {{ margin: 0; width: {size}px; height: {size}px; background: {background}; }}
body {{ display: flex; align-items: center; justify-content: center; }}
svg {{ width: {drawn}px; height: {drawn}px; display: block; }}
</style></head><body>{svg}</body></html>"""


def star_only(svg: str) -> str:
    """The icon without its circle, its star white."""
    svg = re.sub(r"<circle[^>]*/>", "", svg)
    return re.sub(r'fill="#[0-9a-fA-F]{3,6}"', 'fill="#ffffff"', svg)


def main() -> None:
    svg = (STATIC / "icon.svg").read_text().strip()
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, size, background, share, drawn in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            html = PAGE.format(
                size=size,
                background=background or "transparent",
                drawn=round(size * share),
                svg=svg if drawn == "icon" else star_only(svg),
            )
            page.set_content(html)
            page.screenshot(path=out / name, omit_background=background is None)
            page.close()
            print(f"{out / name} ({size}×{size})")
        browser.close()


if __name__ == "__main__":
    main()
