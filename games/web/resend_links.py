"""Resend my links: the home page's small form. One email with a link to each of
the address's seats in play (games/core/my_links.py), or none if it has none;
the answer is the same either way, and paced or not."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.core import my_links, sign_in
from games.web.sign_in import AddressForm
from games.web.views import browser_language, home_page
from sheriff_pbem.security import client_ip


@never_cache
@require_POST
def resend_links(request):
    form = AddressForm(request.POST)
    if not form.is_valid():
        return home_page(request, links_form=form, status=400)
    client = sign_in.client_key(client_ip(request))
    language = browser_language(request)
    my_links.ask(form.cleaned_data["email"], client, language)
    with translation.override(language):
        said = _("If that address plays here, an email with your links is on its way.")
    messages.success(request, said)
    return redirect("games:home")
