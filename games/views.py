"""The player's page, reached from the signed link in every email.

GET shows the seat's page and never changes anything (mail scanners open
every link). POST performs one move, then redirects back (Post/Redirect/Get)
with a message. The page is built only from the seat's engine view and its
projected log.
"""

import logging

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games import engine, links, presenters, services
from games.forms import FormError, parse_move
from games.models import GameEvent

log = logging.getLogger(__name__)

DONE = {
    "set_aside": "Your market choice is recorded.",
    "market_turn": "Your market turn is done.",
    "load_bag": "Your bag is closed and your declaration recorded.",
    "make_offer": "Your offer is on the table.",
    "revise_offer": "Your offer is revised.",
    "withdraw_offer": "Your offer is withdrawn.",
    "accept_offer": "Deal! The offer is accepted.",
    "pass_bag": "The bag passes.",
    "inspect_bag": "The bag is inspected.",
}


def _private(response):
    """The page's address is a secret: keep it out of caches, indexes and Referer headers."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def seat_page(request, token: str):
    try:
        seat = links.resolve(token)
    except links.LinkError as error:
        response = render(
            request,
            "games/link_error.html",
            {"title": error.title, "message": error.message},
            status=error.status,
        )
        return _private(response)
    if request.method == "POST":
        return _private(_move(request, seat))
    return _private(_show(request, seat))


def _move(request, seat):
    try:
        move = parse_move(request.POST)
    except FormError as error:
        messages.error(request, error.message)
        return redirect(request.path)
    # Namespaced per seat, so two seats' keys can never meet.
    key = f"{seat.pk}.{move.key}"
    try:
        outcome = services.submit(seat, move.command, version=move.version, key=key)
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect(request.path)
    if outcome.accepted:
        done = DONE[move.command["type"]]
        if outcome.repeated:
            done = "That form was already sent; it counted once. " + done
        messages.success(request, done)
    else:
        messages.error(request, outcome.message)
    return redirect(request.path)


def _show(request, seat):
    game = seat.game
    state = game.engine_state()
    view = engine.view_for(state, seat.index)
    names = list(game.seats.order_by("index").values_list("name", flat=True))
    log_all = request.GET.get("log") == "all"
    events = (
        GameEvent.objects.filter(game=game)
        .order_by("-seq")
        .values_list("data", flat=True)
        .iterator(chunk_size=200)
    )
    lines, more = presenters.log_lines(
        state, events, names, seat.index, None if log_all else presenters.LOG_LINES
    )
    context = presenters.seat_page(
        view,
        names,
        game_name=game.name,
        log=lines,
        log_all=log_all,
        log_more=more,
        deadline=presenters.deadline(getattr(game, "phase_deadline", None), seat.timezone),
    )
    return render(request, "games/seat.html", context)


def csrf_failure(request, reason=""):
    """A form without a valid CSRF token (an old tab, blocked cookies): a friendly page."""
    return _private(
        render(
            request,
            "games/link_error.html",
            {
                "title": "This form has expired",
                "message": "Please open your latest email link again and repeat your move. "
                "Your browser must accept cookies from this site.",
            },
            status=403,
        )
    )
