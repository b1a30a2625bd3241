from django.conf import settings
from django.contrib import admin
from django.db import connection
from django.http import HttpResponse
from django.urls import include, path


def healthz(request):
    """200 when the database answers: for load balancers and compose healthchecks."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("", include("games.urls")),
]

if settings.DEV_MAILBOX:
    urlpatterns.append(path("dev/mail/", include("games.devmail_urls")))
