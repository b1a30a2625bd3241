from django.conf import settings
from django.contrib import admin
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import never_cache
from django.views.generic import RedirectView

from games.api.app import api
from games.core import backlog


def healthz(request):
    """200 when the database answers: the cheap liveness check, for load balancers
    and scripts waiting for the site to start."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


@never_cache
def healthz_backlog(request):
    """Is the service keeping up (games/core/backlog.py)? 200, or 503 past a threshold;
    ages and counts only, so it may answer anyone."""
    found = backlog.report()
    response = JsonResponse(found, status=200 if found["ok"] else 503)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


urlpatterns = [
    path(settings.ADMIN_PATH, admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("healthz/backlog", healthz_backlog, name="healthz-backlog"),
    # The ESP's tracking webhooks: /anymail/<esp>/tracking/ (games.mail.tracking).
    path("anymail/", include("games.mail.webhooks")),  # only ours, once secured
    # Browsers ask for /favicon.ico on every site, the admin's pages included.
    path("favicon.ico", RedirectView.as_view(url=static("games/icon.svg"), permanent=True)),
    # The public JSON API (docs/api.md); its schema at /api/v1/openapi.json.
    path("api/v1/", api.urls),
    path("", include("games.urls")),
]

if settings.DEV_MAILBOX:
    urlpatterns.append(path("dev/mail/", include("games.mail.dev_mailbox")))
