"""A signed-in person's own games (their session, as on My games)."""

from django.utils import translation
from ninja import Router
from ninja.security import SessionAuth

from games.api.errors import SIGN_IN, ApiError, documented
from games.api.schemas import MyGamesOut
from games.present import my_games
from games.present.page_language import browser_language


class SignedIn(SessionAuth):
    """The site's session (request.auth: the person), or 401 ``not_signed_in``."""

    def authenticate(self, request, key):
        person = super().authenticate(request, key)
        if person is None:
            raise ApiError(401, "not_signed_in", SIGN_IN)
        return person


router = Router(auth=SignedIn(), tags=["person"])
SECTIONS = {my_games.YOUR_MOVE: "your_move", my_games.WAITING: "waiting", my_games.OVER: "over"}


@router.get(
    "/me/games",
    response={200: MyGamesOut, **documented(401)},
    summary="My games",
    operation_id="my_games",
)
def games(request):
    """What My games shows the signed-in person: their move first, then the games
    waiting on others, then those over, with each one's links."""
    with translation.override(browser_language(request)):
        found = my_games.my_games(request.user.email.strip())
        rows = [
            {
                "name": row.name,
                "badge": str(row.badge),
                "line": str(row.line),
                "details": [str(d) for d in row.details],
                "section": SECTIONS.get(row.section, "waiting"),
                "links": [{"label": str(link.label), "url": link.url} for link in row.links],
                "talk_unread": row.talk_unread,
            }
            for row in found.rows
        ]
    return {"your_move": found.your_move(), "games": rows}
