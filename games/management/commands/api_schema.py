"""Write the API's schema to docs/openapi.json, or check that it is current (CI)."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.api.app import api

SCHEMA_FILE = Path(settings.BASE_DIR) / "docs" / "openapi.json"


def schema_text() -> str:
    """The schema as the file keeps it: sorted keys, two spaces, a final newline, so
    that a change reads as a small diff."""
    return json.dumps(api.get_openapi_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


class Command(BaseCommand):
    help = "Write the API's OpenAPI schema to docs/openapi.json (--check: fail if it differs)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true")

    def handle(self, *args, check: bool = False, **options):
        text = schema_text()
        if check:
            kept = SCHEMA_FILE.read_text() if SCHEMA_FILE.exists() else ""
            if kept != text:
                raise CommandError(
                    "docs/openapi.json differs from the API's schema: run "
                    "`DEBUG=1 .venv/bin/python manage.py api_schema` and commit it."
                )
            self.stdout.write("docs/openapi.json is current.")
            return
        SCHEMA_FILE.write_text(text)
        self.stdout.write(f"Wrote {SCHEMA_FILE.relative_to(settings.BASE_DIR)}.")
