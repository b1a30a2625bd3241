"""Turn a seat page's POST into one engine command.

The page's forms are plain HTML (no JavaScript). Every form carries ``move``
(the command type), ``version`` (the phase version the page showed) and
``key`` (a one-time random key), plus the move's own fields. ``parse_move``
checks the shape of the input and builds the command dict; the engine checks
the rules. A ``seat`` field in the POST is never read: the service sets the
seat from the signed link. Each move's own fields are read by its parser in the
moves registry (games.present.moves).
"""

from dataclasses import dataclass

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.present.move_fields import LINE_BREAKS, FormError, int_field
from games.present.moves import MOVES
from games.words.typed_text import has_control

MAX_KEY = 40  # keys are secrets.token_urlsafe(16) plus a form number


@dataclass(frozen=True)
class PostedMove:
    """A page's POST, read: the engine command, the page's version and the form's key."""

    command: dict
    version: int
    key: str


def parse_move(post: QueryDict) -> PostedMove:
    _check_characters(post)
    kind = post.get("move", "")
    if kind not in MOVES:
        raise FormError(_("This form is not one the game knows. Please reload the page."))
    version = int_field(post, "version", what=pgettext("a form field", "The page version"))
    key = post.get("key", "").strip()
    if not key or len(key) > MAX_KEY:
        raise FormError(_("This form is incomplete. Please reload the page and try again."))
    command = {"type": kind, **MOVES[kind].parse(post)}
    return PostedMove(command=command, version=version, key=key)


def _check_characters(post) -> None:
    """No control character (NUL included) in any field: none belongs in these
    forms, and the database refuses NUL. Line breaks only in the promise."""
    for name, values in post.lists():
        allowed = LINE_BREAKS if name == "promise" else ""
        if not has_control(name) and not any(has_control(v, allowed) for v in values):
            continue
        if name == "promise":
            raise FormError(_("A promise may hold line breaks, but no other control characters."))
        raise FormError(_("This form holds characters it should not. Please reload the page."))
