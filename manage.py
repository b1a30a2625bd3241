#!/usr/bin/env python
import os
import sys
from pathlib import Path


def load_dev_env() -> None:
    """Development defaults (DEBUG, SITE_URL) that `make run` writes to $VAR_DIR/dev.env.

    Only manage.py reads the file, and the real environment always wins: the web
    server (wsgi) and Celery never read it, and the Docker image never has it
    (.dockerignore leaves var/ out).
    """
    var_dir = Path(os.environ.get("VAR_DIR", Path(__file__).resolve().parent / "var"))
    try:
        lines = (var_dir / "dev.env").read_text().splitlines()
    except OSError:
        return
    for line in lines:
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.lstrip().startswith("#"):
            os.environ.setdefault(key.strip(), value.strip())


if __name__ == "__main__":
    load_dev_env()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
