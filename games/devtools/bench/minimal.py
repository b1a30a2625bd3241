"""The floor the benchmark measures the site against: what a move must do on this
stack and nothing more. GET: check the signed token, read the game's row, render
a small form. POST: check the token, lock the game's row, update it, commit,
redirect. Same middleware, same database, same server as the seat page."""

from django.core import signing
from django.db import transaction
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect
from django.template import engines
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.core.links import SEAT_LINK_SALT
from games.models import Game

PAGE = engines["django"].from_string(
    "<!doctype html><title>{{ name }}</title><p>Version {{ version }}</p>"
    '<form method="post">{% csrf_token %}'
    '<input type="hidden" name="move" value="minimal">'
    '<input type="hidden" name="version" value="{{ version }}">'
    "<button>Move</button></form>"
)


@never_cache
@require_http_methods(["GET", "POST"])
def minimal_move(request, token: str):
    try:
        game_id = int(signing.loads(token, salt=SEAT_LINK_SALT)["g"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return HttpResponseForbidden("bad link")
    if request.method == "POST":
        with transaction.atomic():
            Game.objects.select_for_update().only("pk").get(pk=game_id)
            Game.objects.filter(pk=game_id).update(updated_at=timezone.now())
        return redirect(request.path)
    name, version = Game.objects.values_list("name", "version").get(pk=game_id)
    return HttpResponse(PAGE.render({"name": name, "version": version}, request))
