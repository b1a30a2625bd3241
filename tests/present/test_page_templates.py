"""The pages and the emails are Jinja templates (templates/pages/,
templates/emails/, games/jinja_env.py): they read a presenter's dicts as Django's
templates did, every word on them is in the catalogue, and ``makemessages`` finds
those words where Django's own would not."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from jinja2 import UndefinedError

from games.management.commands.makemessages import as_python_calls, is_jinja
from games.present import jinja_env
from games.present.cards import card_type, grouped

PAGES = Path(settings.BASE_DIR) / "templates" / "pages"
EMAILS = Path(settings.BASE_DIR) / "templates" / "emails"
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"


def page_words() -> set:
    """(context, msgid, plural) of every word the pages and emails translate."""
    words = set()
    env = jinja_env.environment()
    for template in [*PAGES.glob("*.html"), *EMAILS.glob("*.*")]:
        for _line, function, message in env.extract_translations(template.read_text()):
            strings = message if isinstance(message, tuple) else (message,)
            context = strings[0] if function.startswith(("pgettext", "npgettext")) else None
            rest = strings[1:] if context is not None else strings
            words.add((context, rest[0], rest[1] if function in ("ngettext", "npgettext") else ""))
    return words


def test_every_word_on_the_pages_and_in_the_emails_is_translated_in_the_catalogue():
    catalogue = {
        (e.msgctxt, e.msgid, e.msgid_plural): e
        for e in polib.pofile(str(CATALOGUE))
        if not e.obsolete
    }
    words = page_words()
    assert len(words) > 250  # the extraction found the templates' words at all
    missing = sorted((w for w in words if w not in catalogue), key=str)
    assert not missing
    untranslated = [w for w in words if not catalogue[w].translated()]
    assert not untranslated


def test_makemessages_hands_xgettext_the_pages_words_on_their_lines():
    source = (
        '<h1>{{ _("Your settings") }}</h1>\n'
        "<p>{% trans gold=mine.gold %}{{ gold }} gold{% pluralize %}{{ gold }} gold"
        "{% endtrans %}</p>\n"
        "\n"
        '<b>{{ pgettext("a badge", "Sheriff") }}</b>\n'
    )
    lines = as_python_calls(source).split("\n")
    assert lines[0] == "_('Your settings'); "  # xgettext's own keyword
    assert lines[1] == "ngettext('%(gold)s gold', '%(gold)s gold', n); "
    assert lines[2] == ""
    assert lines[3] == "pgettext('a badge', 'Sheriff'); "
    assert is_jinja(str(PAGES / "seat.html")) and is_jinja(str(EMAILS / "message.txt"))
    assert not is_jinja(str(Path(settings.BASE_DIR) / "templates" / "devmail" / "message.html"))


def test_a_page_and_an_email_never_share_a_name():
    """Both folders are searched by file name: a shared one would hide the other."""
    pages = {path.name for path in PAGES.iterdir()}
    emails = {path.name for path in EMAILS.iterdir()}
    assert pages and emails and not pages & emails


def render(source: str, **context) -> str:
    return engines["jinja"].from_string(source).render(context)


def test_a_dict_key_is_read_before_a_method_of_the_same_name():
    assert render("{{ pile.values|join(',') }}", pile={"values": [3, 2]}) == "3,2"
    assert render("{{ pile.label }}", pile={"label": "<Silk>"}) == "&lt;Silk&gt;"


def test_under_the_suites_strict_setting_a_missing_name_may_be_tested_but_not_printed():
    assert settings.STRICT_TEMPLATES
    assert render("{% if moves.load_bag %}x{% else %}none{% endif %}", moves={}) == "none"
    with pytest.raises(UndefinedError):
        render("{{ moves.load_bag }}", moves={})
    with pytest.raises(UndefinedError):
        render("{% for c in hand %}{{ c }}{% endfor %}")


def test_the_sites_setting_reads_a_missing_name_as_nothing_as_django_did():
    env = jinja_env.environment(strict=False)
    assert env.from_string("[{{ moves.load_bag.hand }}]").render(moves={}) == "[]"


def macro_body(name: str) -> str:
    source = (PAGES / "_cards.html").read_text()
    return source.split(f"{{% macro {name}(c) %}}", 1)[1].split("{% endmacro %}", 1)[0]


@pytest.mark.parametrize("name", sorted(jinja_env.FACES))
def test_a_kept_macro_prints_nothing_of_a_card_but_its_face(name):
    """jinja_env.kept_macro keeps a macro's markup by its FACES: the macro must read
    nothing else of a card, or two cards differing there would print alike."""
    body = macro_body(name)
    read = set(re.findall(r"\bc\.(\w+)", body))
    for inner in re.findall(r"\b(\w+)\(c\)", body):  # a macro it calls reads the card too
        read |= set(re.findall(r"\bc\.(\w+)", macro_body(inner)))
    assert read and read <= set(jinja_env.FACES[name])


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_kept_macro_prints_what_the_macro_prints(language):
    env = engines["jinja"].env
    faces = [*grouped(["apples", "apples", "silk"]), card_type("gouda_cheese"), card_type("bread")]
    with translation.override(language):
        module = env.get_template("_cards.html").module
        for name in jinja_env.FACES:
            kept = jinja_env.kept_macro(name)
            for face in faces * 2:  # the second time, kept
                assert str(kept(env.in_active_language(), face)) == str(getattr(module, name)(face))
        printed = env.from_string("{{ card(c) }} {{ goods_mark(c) }}").render(c=faces[0])
    assert printed == f"{module.card(faces[0])} {module.mark(faces[0])}"
