"""The environment the site's pages and emails are rendered in (templates/pages/,
templates/emails/, Jinja).

They are Jinja templates because a player's page is the site's most requested
response, and a move owes emails that the worker renders twice each (HTML and
text): Django's template language spent most of its time there walking nodes.
The admin stays in Django's language. The templates read like Django's:
``{{ offer.status }}`` looks a key up before an attribute (a presenter's dicts
have keys such as ``values``), the words come from Django's catalogues
(``{% trans %}``, ``_()``, ``pgettext()``), and what a tag of Django's did is a
global or filter below. An email's plain text is ``{% autoescape false %}``; the
lines both versions print are macros (emails/_parts.html), which escape as the
template calling them does (an included template would escape on its own).
"""

import functools

import jinja2
from django.template.backends.utils import csrf_input
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import format_html
from django.utils.timesince import timeuntil
from markupsafe import Markup

from games.present import markup
from games.templatetags.usertext import bdi, isolated, user_text

# The render's language, a variable of every page and email (PageTemplate).
LANGUAGE = "_language_of_words"


class PageTemplate(jinja2.Template):
    def render(self, *args, **kwargs) -> str:
        """With the active language among the variables: the words read it there,
        once a render, rather than from the thread's state on every word."""
        return super().render(*args, **kwargs, **{LANGUAGE: translation.get_language()})


class PageEnvironment(jinja2.Environment):
    template_class = PageTemplate

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
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.globals.update(
        gettext=words(translation.gettext),
        ngettext=words(translation.ngettext, (("num", 2),)),
        pgettext=words(translation.pgettext, (("context", 0),)),
        npgettext=words(translation.npgettext, (("context", 0), ("num", 3))),
    )
    # _() straight to gettext: the extension's alias looks gettext up again on every
    # call, so that a page could bring its own (none does).
    env.globals["_"] = env.globals["gettext"]
    env.globals.update(static=static, language=translation.get_language, move_fields=move_fields)
    # Filters rather than globals: a filter is called directly, a global through the
    # template's context, and a page draws dozens of cards.
    env.filters.update(
        card=markup.card,
        mark=markup.mark,
        stand_goods_choice=markup.stand_goods_choice,
        bag_goods_field=markup.bag_goods_field,
        email_card=markup.email_card,
        bdi=bdi,
        isolated=isolated,
        user_text=user_text,
        log_items=markup.log_items,
        timeuntil=timeuntil,
    )
    return env


def words(lookup, named: tuple = ()):
    """One of the i18n extension's word functions, as its newstyle ones behave
    (jinja2.ext._make_new_gettext and kin): the translation, escaped as the
    template escapes, %-formatted with the variables, always ("%%" is a percent
    sign). ``named``: (name, position) of arguments that are variables too
    (``num``, ``context``). A page prints some fifty words, so each is kept per
    language and the language read from the render (PageTemplate)."""

    @functools.lru_cache(maxsize=8192)
    def translated(language: str, autoescape: bool, *args):
        text = lookup(*args)  # ``language`` is the active one
        return Markup(text) if autoescape else text

    @functools.lru_cache(maxsize=8192)
    def as_printed(language: str, autoescape: bool, *args):
        return translated(language, autoescape, *args) % {}

    @jinja2.pass_context
    def word(context, *args, **variables):
        # Macros imported without the caller's context have no LANGUAGE.
        language = context.get(LANGUAGE) or translation.get_language()
        autoescape = context.eval_ctx.autoescape
        for name, position in named:
            variables.setdefault(name, args[position])
        if not variables:
            return as_printed(language, autoescape, *args)
        return translated(language, autoescape, *args) % variables

    return word


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
