"""The development mailbox: every email the site sent, to read and click through.
Mounted only when DEV_MAILBOX is on (the default with DEBUG). Its filters are
GET parameters: reading the mailbox changes nothing."""

import base64
from urllib.parse import urlencode

from csp.decorators import csp_replace, csp_update
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.http import content_disposition_header
from django.views.decorators.clickjacking import xframe_options_sameorigin

from games.models import DevMail, Game

PER_PAGE = 50


def inbox(request):
    """Newest first, 50 a page; filtered by game and by address if asked."""
    mails = DevMail.objects.all()
    game_id = request.GET.get("game", "")
    game = Game.objects.filter(pk=game_id).first() if game_id.isdigit() else None
    if game is not None:  # every email of a game carries its thread token in its Message-ID
        mails = mails.filter(**{"headers__Message-ID__icontains": game.thread_token})
    recipients = sorted(set(mails.values_list("to", flat=True)))
    to = request.GET.get("to", "").strip()
    if to:
        mails = mails.filter(to__icontains=to)
    page = Paginator(mails, PER_PAGE).get_page(request.GET.get("page"))
    filters = {k: v for k, v in (("game", game and game.pk), ("to", to)) if v}
    context = {
        "page": page,
        "games": Game.objects.order_by("-pk").only("pk", "name"),
        "game": game,
        "to": to,
        "recipients": recipients,
        "filtered": bool(filters),
        "query": urlencode(filters) + "&" if filters else "",
    }
    return render(request, "devmail/inbox.html", context)


def message(request, pk: int):
    return render(request, "devmail/message.html", {"mail": get_object_or_404(DevMail, pk=pk)})


# An email's HTML is all inline styles (mail clients take no style sheet) and is shown
# in a frame of the message page. Scripts stay forbidden.
@csp_update({"style-src": ["'unsafe-inline'"]})
@csp_replace({"frame-ancestors": ["'self'"]})
@xframe_options_sameorigin
def message_html(request, pk: int):
    html = get_object_or_404(DevMail, pk=pk).html
    # Links open in the whole window, not inside the preview frame.
    return HttpResponse(html.replace("<head>", '<head><base target="_top">', 1))


def attachment(request, pk: int, index: int):
    """One attachment as a download, with the content type it was sent with."""
    attachments = get_object_or_404(DevMail, pk=pk).attachments
    if index >= len(attachments):
        raise Http404("No such attachment.")
    item = attachments[index]
    if item.get("base64"):
        content, content_type = base64.b64decode(item["content"]), item["mimetype"]
    else:
        content, content_type = item["content"].encode(), f"{item['mimetype']}; charset=utf-8"
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, item["filename"])
    return response


app_name = "devmail"
urlpatterns = [
    path("", inbox, name="inbox"),
    path("<int:pk>/", message, name="message"),
    path("<int:pk>/html/", message_html, name="html"),
    path("<int:pk>/attachments/<int:index>/", attachment, name="attachment"),
]
