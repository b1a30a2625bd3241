"""``makemessages``, reading the pages too: Django's command reads templates in
Django's language, and the pages are Jinja (templates/pages/, games/jinja.py).

A page's words are taken out by Jinja's own parser (``{% trans %}`` blocks,
``_()``, ``pgettext()``...) and handed to xgettext as the same calls in Python, each
on its template line, so the catalogue's references point at the template."""

from pathlib import Path

from django.core.management.commands import makemessages
from django.template import engines

from games import jinja


class PageAwareFile(makemessages.BuildFile):
    def preprocess(self):
        if not is_page(self.path):
            return super().preprocess()
        source = Path(self.path).read_text(encoding="utf-8")
        Path(self.work_path).write_text(as_python_calls(source), encoding="utf-8")


class Command(makemessages.Command):
    build_file_class = PageAwareFile


def is_page(path: str) -> bool:
    found = Path(path).resolve()
    return any(found.is_relative_to(Path(d).resolve()) for d in engines["pages"].template_dirs)


def as_python_calls(source: str) -> str:
    """The page's translatable words as gettext calls, one line of Python for each
    line of the template."""
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in jinja.environment().extract_translations(source):
        strings = message if isinstance(message, tuple) else (message,)
        # A count (None here) is any name to xgettext.
        arguments = [repr(s) for s in strings if s is not None] + ["n"] * (None in strings)
        lines[lineno - 1] += f"{function}({', '.join(arguments)}); "
    return "\n".join(lines) + "\n"
