"""``makemessages``, reading the pages and emails too: Django's command reads
templates in Django's language, and these are Jinja (templates/pages/,
templates/emails/, games/jinja_env.py).

A template's words are taken out by Jinja's own parser (``{% trans %}`` blocks,
``_()``, ``pgettext()``...) and handed to xgettext as the same calls in Python, each
on its template line, so the catalogue's references point at the template."""

from pathlib import Path

from django.core.management.commands import makemessages
from django.template import engines

from games.present import jinja_env


class JinjaAwareFile(makemessages.BuildFile):
    def preprocess(self):
        if not is_jinja(self.path):
            return super().preprocess()
        source = Path(self.path).read_text(encoding="utf-8")
        Path(self.work_path).write_text(as_python_calls(source), encoding="utf-8")


class Command(makemessages.Command):
    build_file_class = JinjaAwareFile


def is_jinja(path: str) -> bool:
    found = Path(path).resolve()
    return any(found.is_relative_to(Path(d).resolve()) for d in engines["jinja"].template_dirs)


def as_python_calls(source: str) -> str:
    """The template's translatable words as gettext calls, one line of Python for each
    line of the template."""
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in jinja_env.environment().extract_translations(source):
        strings = message if isinstance(message, tuple) else (message,)
        # A count (None here) is any name to xgettext.
        arguments = [repr(s) for s in strings if s is not None] + ["n"] * (None in strings)
        lines[lineno - 1] += f"{function}({', '.join(arguments)}); "
    return "\n".join(lines) + "\n"
