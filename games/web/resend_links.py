"""Resend my links: the home page's small form. One email with a link to each of
the address's seats in play (games/core/my_links.py), or none if it has none;
the answer is the same either way, and paced or not."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.core import my_links, sign_in
from games.present.page_language import browser_language, in_browser_language
from games.web.sign_in import AddressForm
from games.web.views import home_page
from sheriff_pbem.security import client_ip


@never_cache
@require_POST
@in_browser_language
def resend_links(request):
    form = AddressForm(request.POST)
    if not form.is_valid():
        return home_page(request, links_form=form, status=400)
    client = sign_in.client_key(client_ip(request))
    my_links.ask(form.cleaned_data["email"], client, browser_language(request))
    messages.success(
        request, _("If that address plays here, an email with your links is on its way.")
    )
    return redirect("games:home")
