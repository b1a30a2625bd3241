from django.conf import settings
from django.contrib import admin
from django.db import connection
from django.http import HttpResponse
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView


def healthz(request):
    """200 when the database answers: for load balancers and compose healthchecks."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path(settings.ADMIN_PATH, admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # The ESP's tracking webhooks: /anymail/<esp>/tracking/ (games.tracking).
    path("anymail/", include("games.webhooks")),  # only ours, once secured
    # Browsers ask for /favicon.ico on every site, the admin's pages included.
    path("favicon.ico", RedirectView.as_view(url=static("games/icon.svg"), permanent=True)),
    path("", include("games.urls")),
]

if settings.DEV_MAILBOX:
    urlpatterns.append(path("dev/mail/", include("games.devmail_urls")))
