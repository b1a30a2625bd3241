"""What a page carries to keep itself current (templates/pages/_live.html, read by
static/games/live.js): its poll's address (games.web.live), the fingerprint the
page was made from (games.core.live), and the page's own address to read again."""

from django.urls import reverse

from games.core import links, live

# Seconds between polls: a table moves at the pace of people; a practice game's
# bots within seconds.
EVERY, QUICK = 5, 2


def seat_poll(request, seat, fingerprint: list | None = None, quick: bool = False) -> dict:
    """What a seat's page carries to keep itself current (templates/pages/_live.html):
    its poll's address, its fingerprint and the page's own address to read again
    (``request.path``: the seat's page, also when shown after a refused form).
    ``fingerprint``: its rows, if read with the page (else read now)."""
    if fingerprint is None:
        seen = live.seat(links.Token(seat.game_id, seat.pk, seat.link_version))
    else:
        seen = live.seat_seen(fingerprint, seat.link_version)
    query = request.GET.urlencode() if request.method == "GET" else ""
    return _poll(request.path + "live/", seen, request.path, query, quick)


def _poll(url: str, seen: live.Seen, page: str, query: str = "", quick: bool = False) -> dict:
    page = f"{page}?{query}" if query else page
    return {"url": url, "tag": seen.tag, "page": page, "every": QUICK if quick else EVERY}


def person_poll(email: str) -> dict:
    """My games' poll, for the signed-in ``email``."""
    token = live.token_for(live.PERSON, email)
    return _poll(reverse("games:live", args=[token]), live.person(email), reverse("games:my-games"))


def organizer_poll(game_id: int, email: str) -> dict:
    """An organizer's page's poll, for the signed-in organizer ``email``."""
    token = live.token_for(live.ORGANIZER, email, game_id)
    page = reverse("games:organize", args=[game_id])
    return _poll(reverse("games:live", args=[token]), live.organized(game_id, email), page)
