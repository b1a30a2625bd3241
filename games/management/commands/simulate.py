"""Random full games through the rules engine, every invariant checked after every
step: ``manage.py simulate`` is ``python -m games.engine.self_play`` (same options,
same figures). Prints games played, invariant failures (must be 0), commands per
game and milliseconds per game; exits non-zero when an invariant failed.

    .venv/bin/python manage.py simulate --games 1000 --players 6
"""

from django.core.management.base import BaseCommand, CommandError

from games.engine import self_play


class Command(BaseCommand):
    help = "Play random full games and check every engine invariant after every step."

    def add_arguments(self, parser):
        self_play.add_arguments(parser)

    def handle(self, *args, **options):
        problem = self_play.check_arguments(_Options(options))
        if problem:
            raise CommandError(problem)
        if self_play.run(_Options(options), out=self.stdout, err=self.stderr):
            raise CommandError("invariant failures: see above")


class _Options:
    """The command's options as attributes, as argparse gives them to ``run``."""

    def __init__(self, options: dict):
        self.__dict__.update(options)
