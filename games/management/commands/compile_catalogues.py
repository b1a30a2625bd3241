"""Compile the translation catalogues (locale/*/LC_MESSAGES/django.po -> .mo).

Django's own ``compilemessages`` needs GNU gettext installed; this needs only
polib, a Python dependency, so ``make`` and the Docker image build the catalogues
on any machine. The compiled files are build products, not kept in git.
"""

import os
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def catalogues() -> list[Path]:
    return sorted(p for d in settings.LOCALE_PATHS for p in Path(d).glob("*/LC_MESSAGES/*.po"))


class Command(BaseCommand):
    help = "Compile every .po catalogue under LOCALE_PATHS into its .mo file."

    def handle(self, *args, **options):
        for po_path in catalogues():
            try:
                catalogue = polib.pofile(str(po_path))
            except (OSError, ValueError) as error:
                raise CommandError(f"{po_path}: {error}") from error
            write_if_changed(po_path.with_suffix(".mo"), catalogue.to_binary())
            self.stdout.write(f"{po_path}: {len(catalogue)} entries")


def write_if_changed(path: Path, data: bytes) -> None:
    """Replace the file at once (a reader never sees half of it), only if it differs."""
    if path.exists() and path.read_bytes() == data:
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    os.replace(partial, path)
