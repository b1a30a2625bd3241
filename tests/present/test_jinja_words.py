"""The pages' and emails' words (games.present.jinja_env) print what Jinja's own
newstyle gettext functions print over Django's catalogues, in every language,
escaped or not, and a macro imported without the context speaks the active one."""

import jinja2
import pytest
from django.utils import translation
from django.utils.translation import trans_real
from jinja2.ext import (
    _make_new_gettext,
    _make_new_ngettext,
    _make_new_npgettext,
    _make_new_pgettext,
)

from games.present.jinja_env import environment

SOURCES = [
    '{{ _("Round %(round)s is over", round=r) }}',
    "{% trans round=r %}Round {{ round }} is over{% endtrans %}",
    "{% trans %}100% sure{% endtrans %} {{ _('a <b> 100%% sure') }}",
    '{{ pgettext("email headline", "Your move") }}',
    '{{ pgettext("a form field", "The page version") }}',
    "{% trans count=n %}{{ count }} day{% pluralize %}{{ count }} days{% endtrans %}",
    '{{ ngettext("%(count)d hour", "%(count)d hours", n, count=n) }}',
    '{{ npgettext("time", "%(num)d hour", "%(num)d hours", n) }} {{ _("<i>") }}',
    '{% autoescape false %}{{ _("<i>") }} {{ _("Round %(round)s is over", round=r) }}'
    "{% endautoescape %}",
]


def jinja_own() -> jinja2.Environment:
    env = environment()
    env.globals.update(
        gettext=_make_new_gettext(translation.gettext),
        ngettext=_make_new_ngettext(translation.ngettext),
        pgettext=_make_new_pgettext(translation.pgettext),
        npgettext=_make_new_npgettext(translation.npgettext),
    )
    env.globals["_"] = env.globals["gettext"]
    return env


@pytest.mark.parametrize("autoescape", [True, False])
def test_the_words_are_jinja_s_own_in_each_language_by_turns(autoescape):
    ours, theirs = environment(autoescape=autoescape), jinja_own()
    theirs.autoescape = autoescape
    for _ in range(2):  # the second time, from what was kept
        for language in ("en", "es", "en"):
            for source in SOURCES:
                for n in (1, 2):
                    with translation.override(language):
                        printed = ours.from_string(source).render(r="<3>", n=n)
                        assert printed == theirs.from_string(source).render(r="<3>", n=n)
    with translation.override("es"):
        assert ours.from_string(SOURCES[0]).render(r=2) == "Ha terminado la ronda 2"


def test_a_macro_imported_without_the_context_speaks_the_active_language():
    env = environment(
        loader=jinja2.DictLoader(
            {
                "parts.html": '{% macro headline() %}{{ pgettext("email headline", "Your move") }}'
                "{% endmacro %}",
                "page.html": '{% import "parts.html" as parts %}{{ parts.headline() }}',
            }
        )
    )
    for language, words in (("es", "Te toca jugar"), ("en", "Your move")):
        with translation.override(language):
            assert env.get_template("page.html").render() == words


def test_constant_words_are_looked_up_when_compiled_not_at_each_render(monkeypatch):
    env = environment(loader=jinja2.DictLoader({"p.html": SOURCES[1] + " " + SOURCES[3]}))
    with translation.override("es"):
        template = env.get_template("p.html")
    looked_up = []
    spy = lambda words: looked_up.append(words) or words  # noqa: E731
    monkeypatch.setattr(trans_real, "gettext", spy)  # what pgettext calls
    monkeypatch.setattr(translation._trans, "gettext", spy)  # what gettext calls
    with translation.override("es"):
        assert env.get_template("p.html") is template  # kept, per language
        assert template.render(r=3) == "Ha terminado la ronda 3 Te toca jugar"
    assert looked_up == []


def test_a_template_includes_templates_of_its_own_language_without_asking_again(monkeypatch):
    env = environment(
        loader=jinja2.DictLoader(
            {
                "part.html": '{{ pgettext("email headline", "Your move") }}',
                "page.html": '{% include "part.html" %} {% include "part.html" %}',
            }
        )
    )
    with translation.override("es"):
        page = env.get_template("page.html")
        page.render()  # the includes compiled
    asked = []
    monkeypatch.setattr(translation, "get_language", lambda: asked.append(1) or "en")
    assert page.render() == "Te toca jugar Te toca jugar"  # in its language, not "en"
    assert asked == []
