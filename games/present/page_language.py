"""A page with no seat behind it (the home page, signing in, a refused link, the
organizer's page) reads in a language chosen for its reader, and caches keep its
versions apart by the browser's language. The player's and the organizer's pages
both render through here, so neither imports the other."""

import functools

from django.conf import settings
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers


def browser_language(request) -> str:
    """The browser's language, if the site speaks it (settings.LANGUAGES); else the
    site's own."""
    language = translation.get_language_from_request(request)
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def in_browser_language(view):
    """The whole view in the browser's language: its refusals and messages too,
    not only its template."""

    @functools.wraps(view)
    def speaking(request, *args, **kwargs):
        with translation.override(browser_language(request)):
            return view(request, *args, **kwargs)

    return speaking


def in_language(request, template: str, context=None, status=200, language=None):
    """A page rendered in ``language`` (default: the browser's), which caches keep
    apart by the browser's language."""
    with translation.override(language or browser_language(request)):
        response = render(request, template, context, status=status, using="jinja")
    patch_vary_headers(response, ["Accept-Language"])
    return response
