"""The environment the site's pages and emails are rendered in (templates/pages/,
templates/emails/, Jinja).

They are Jinja templates because a player's page is the site's most requested
response, and a move owes emails that the worker renders twice each (HTML and
text): Django's template language spent most of its time there walking nodes.
The admin stays in Django's language. The templates read like Django's:
``{{ offer.status }}`` looks a key up before an attribute (a presenter's dicts
have keys such as ``values``), the words come from Django's catalogues
(``{% trans %}``, ``_()``, ``pgettext()``), and what a tag of Django's did is a
global or filter below; the words are Jinja's own i18n extension's, bound to
Django's gettext (newstyle: escaped, and %-formatted); constant words are
translated when a template is compiled, once per language (games.present.jinja_words).
An email's plain text is
``{% autoescape false %}``; the lines both versions print are macros
(emails/_parts.html), which escape as the template calling them does (an
included template would escape on its own).
"""

import functools

import jinja2
from django.template.backends.utils import csrf_input
from django.templatetags.static import static
from django.utils import translation
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timeuntil

from games.present import jinja_words
from games.templatetags.usertext import bdi, isolated, unlinked, user_text


class PageEnvironment(jinja2.Environment):
    """``language``: the language this environment's templates are compiled in, their
    constant words translated then (games.present.jinja_words); None for the
    environment itself, which hands each template to the overlay of the language
    active when it is asked for (and looks every word up at render when none is)."""

    language: str | None = None

    def in_active_language(self) -> "PageEnvironment":
        language = translation.get_language()
        if language is None or language == self.language:
            return self
        root = self.linked_to if self.overlayed else self
        overlays = root.__dict__.setdefault("language_overlays", {})
        found = overlays.get(language)
        if found is None:
            found = overlays[language] = root.overlay()
            found.language = language
        return found

    def get_template(self, name, parent=None, globals=None):
        # A language's overlay is asked only by the root, or by its own templates
        # (an include, an import), which stay in their language: a page includes
        # dozens, and asking for the active language is not free.
        env = self if self.language else self.in_active_language()
        if env is not self:
            return env.get_template(name, parent, globals)
        return super().get_template(name, parent, globals)

    def from_string(self, source, globals=None, template_class=None):
        env = self.in_active_language()
        if env is not self:
            return env.from_string(source, globals, template_class)
        return super().from_string(source, globals, template_class)

    def _parse(self, source, name, filename):
        # Jinja's own step from source to tree (Environment.compile calls it), kept
        # but for the words, when this environment has a language.
        template = super()._parse(source, name, filename)
        return jinja_words.translated(template, self.language) if self.language else template

    def getattr(self, obj, attribute):
        """A dict's key before its attribute, as Django's templates read them:
        ``pile.values`` is the pile's values, not ``dict.values`` (and a key is
        found without raising and catching an AttributeError)."""
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


class StrictUndefined(jinja2.StrictUndefined):
    """A name the view did not give may be tested (``{% if moves.load_bag %}``: a
    presenter leaves out what a page does not show) but not printed, looped over
    or read further."""

    def __bool__(self) -> bool:
        return False


def environment(strict: bool = False, **options) -> jinja2.Environment:
    """``strict`` (the test suite's setting): printing or reading into a name the
    view did not give is an error; otherwise it reads as nothing, as in Django's
    templates."""
    options["undefined"] = StrictUndefined if strict else jinja2.ChainableUndefined
    options.setdefault("keep_trailing_newline", True)  # as Django's templates print them
    env = PageEnvironment(extensions=["jinja2.ext.i18n"], **options)
    env.policies["ext.i18n.trimmed"] = True  # as Django's {% blocktranslate trimmed %}
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=translation.gettext,
        ngettext=translation.ngettext,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
        newstyle=True,
    )
    env.globals.update(static=static, language=translation.get_language, move_fields=move_fields)
    env.globals.update(card=kept_macro("card"), goods_mark=kept_macro("mark"))
    env.filters.update(bdi=bdi, isolated=isolated, user_text=user_text, timeuntil=timeuntil)
    env.filters.update(unlinked=unlinked)
    return env


# What a kept macro of _cards.html prints of its card (tests/present/test_page_templates.py
# checks that each reads nothing else).
FACES = {
    "card": ("kind", "kind_name", "mark", "count", "text", "label", "value", "penalty"),
    "mark": ("kind_name", "mark"),
}


def kept_macro(name: str):
    """_cards.html's macro ``name``, rendered once per card face and language and then
    reused: a page prints dozens of cards and goods marks of a few kinds, and a macro
    call cost more than the rest of its line (the bound it serves: a page GET within
    1.1× its cost before the restructure, issue "Speed")."""
    fields = FACES[name]

    @jinja2.pass_environment
    def kept(env, c: dict):
        return _rendered(_cards_template(env), name, tuple(c.get(f) for f in fields))

    return kept


def _cards_template(env):
    """_cards.html in ``env``'s language: asked for once per language overlay, unless
    templates reload as they change (development)."""
    if env.auto_reload or not env.language:
        return env.get_template("_cards.html")
    found = env.__dict__.get("cards_template")
    if found is None:
        found = env.__dict__["cards_template"] = env.get_template("_cards.html")
    return found


@functools.lru_cache(maxsize=2048)
def _rendered(template, name: str, face: tuple):
    # The template is the language's own compiled copy (and a new one once reloaded).
    return getattr(template.module, name)(dict(zip(FACES[name], face, strict=True)))


@jinja2.pass_context
def move_fields(context, move: str) -> str:
    """The hidden fields every move's form carries: the CSRF token, the move, the
    phase version the page shows (a stale page is told so) and the form's one-time
    key (``keys``: move_forms.FormKeys)."""
    return format_html(
        '{}<input type="hidden" name="move" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="key" value="{}">',
        csrf_field(context["request"]),
        move,
        context["version"],
        context["keys"].next,
    )


def csrf_field(request) -> str:
    """The CSRF token's hidden field, masked once a page as Django's
    ``{% csrf_token %}`` is (masking draws random bytes; a page has several forms)."""
    field = getattr(request, "_page_csrf_field", None)
    if field is None:
        field = request._page_csrf_field = csrf_input(request)
    return field


def one_csrf_field(request) -> dict:
    """A context processor: ``{{ csrf_input }}`` as ``csrf_field``, one mask a page
    for every form (the talk panel has several), where Django's backend gives a
    lazy value that draws random bytes to mask the token again on each."""
    return {"csrf_input": _lazy_csrf_field(request)}


_lazy_csrf_field = lazy(csrf_field, SafeString)  # (lazy() makes a class: once)
