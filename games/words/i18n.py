"""Each player reads the game in their own language.

Pages and emails are rendered inside ``as_seat(seat)``: the seat's language
(``Seat.language``, one of ``settings.LANGUAGES``; anything else reads as the
default) is active for every gettext call, template tag and date format. Adding
a language is a catalogue under ``locale/`` and a line in ``settings.LANGUAGES``.
"""

import functools
from contextlib import contextmanager

from django.conf import settings
from django.utils import translation


def language_of(seat) -> str:
    """The seat's language as one the site speaks ("es-MX" reads as "es")."""
    code = (getattr(seat, "language", "") or "").strip().lower()
    for candidate in (code, code.split("-")[0]):
        if candidate in dict(settings.LANGUAGES):
            return candidate
    return settings.LANGUAGE_CODE


@contextmanager
def as_seat(seat):
    """Render for this seat: its language active for the block."""
    with translation.override(language_of(seat)):
        yield


def cached_per_language(maxsize: int):
    """Keep a function's results by its (hashable) arguments and the active
    language: for words and markup a page repeats dozens of times, where looking
    a translation up costs more than keeping it (catalogues do not change while
    the site runs)."""

    def keep(function):
        kept = functools.lru_cache(maxsize=maxsize)(lambda _language, *args: function(*args))

        @functools.wraps(function)
        def in_the_active_language(*args):
            return kept(translation.get_language(), *args)

        return in_the_active_language

    return keep
