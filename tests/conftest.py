"""Shared pytest setup for the whole suite: the Django settings module.

Settings come from the environment (sheriff_pbem/settings.py); tests need a
SECRET_KEY when DEBUG is off. Page fixtures live in tests/fixtures_pages.py.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")
os.environ.setdefault("SECRET_KEY", "tests-only-not-secret")
