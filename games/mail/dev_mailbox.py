"""The development mailbox: every email the site sent, to read and click through,
and to answer. Mounted only when DEV_MAILBOX is on (the default with DEBUG). Its
filters are GET parameters: reading the mailbox changes nothing.

Replying (a POST, for an email with a Reply-To) writes the reply as a mail app
would (a "Re:" subject, In-Reply-To and References, the email quoted under an
"On ... wrote:" line), as raw MIME, and hands it to anymail's inbound signal as
an ESP's webhook would: the same handler (games.mail.inbound) reads it, so replies
can be tried with ``make run`` and no ESP."""

import base64
import uuid
from email.message import EmailMessage
from email.utils import format_datetime
from urllib.parse import urlencode

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, inbound
from csp.decorators import csp_replace, csp_update
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST

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


@require_POST
def reply(request, pk: int):
    """Answer an email as its reader would, from its own address; back to the
    reader's mailbox, where the site's answer arrives."""
    mail = get_object_or_404(DevMail, pk=pk)
    reply_to = mail.headers.get("Reply-To", "")
    if not reply_to:
        raise Http404("This email takes no reply.")
    raw = replied(mail, request.POST.get("text", "")[:20000], reply_to)
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    event = AnymailInboundEvent(event_type="inbound", message=message, esp_event=None)
    inbound.send(sender=reply, event=event, esp_name="devmail")
    return redirect(f"{reverse('devmail:inbox')}?{urlencode({'to': mail.to})}")


def replied(mail: DevMail, text: str, reply_to: str) -> bytes:
    """The reply as a mail app sends it: raw MIME."""
    reply = EmailMessage()
    reply["From"] = mail.to
    reply["To"] = reply_to
    subject = mail.subject
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = f"<{uuid.uuid4().hex}@devmail.localhost>"
    ours = mail.headers.get("Message-ID", "")
    if ours:
        reply["In-Reply-To"] = ours
        reply["References"] = f"{mail.headers.get('References', '')} {ours}".strip()
    when = mail.created_at.strftime("%a, %d %b %Y at %H:%M")
    quoted = "\n".join(f"> {line}" if line else ">" for line in mail.text.splitlines())
    reply.set_content(f"{text}\n\nOn {when}, Sheriff of Nottingham wrote:\n{quoted}\n")
    return bytes(reply)


def message(request, pk: int):
    mail = get_object_or_404(DevMail, pk=pk)
    context = {"mail": mail, "reply_to": mail.headers.get("Reply-To", "")}
    return render(request, "devmail/message.html", context)


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
    path("<int:pk>/reply/", reply, name="reply"),
    path("<int:pk>/attachments/<int:index>/", attachment, name="attachment"),
]
