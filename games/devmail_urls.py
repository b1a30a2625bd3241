"""The development mailbox: every email the site sent, to read and click through.
Mounted only when DEV_MAILBOX is on (the default with DEBUG)."""

from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.views.decorators.clickjacking import xframe_options_sameorigin

from games.models import DevMail


def inbox(request):
    to = request.GET.get("to", "")
    mails = DevMail.objects.all()
    if to:
        mails = mails.filter(to__icontains=to)
    recipients = sorted(set(DevMail.objects.values_list("to", flat=True)))
    return render(
        request, "devmail/inbox.html", {"mails": mails[:300], "to": to, "recipients": recipients}
    )


def message(request, pk: int):
    return render(request, "devmail/message.html", {"mail": get_object_or_404(DevMail, pk=pk)})


@xframe_options_sameorigin
def message_html(request, pk: int):
    from django.http import HttpResponse

    html = get_object_or_404(DevMail, pk=pk).html
    # Links open in the whole window, not inside the preview frame.
    return HttpResponse(html.replace("<head>", '<head><base target="_top">', 1))


app_name = "devmail"
urlpatterns = [
    path("", inbox, name="inbox"),
    path("<int:pk>/", message, name="message"),
    path("<int:pk>/html/", message_html, name="html"),
]
