"""A deadline process (games/core/deadline_runner.py): claims its own due games
ahead, works out their transitions, writes each deadline as it falls. Run one or
more, on one host or several (docs/operations.md, "Deadline processes"). SIGTERM
or Ctrl-C stops it cleanly: the claims it has not written yet are released for the
others to take at once."""

import logging
import signal
import threading
from datetime import timedelta

from django.core.management.base import BaseCommand

from games.core import deadline_runner

log = logging.getLogger("games.core.deadline_runner")


class Command(BaseCommand):
    help = (
        "Write deadlines as they fall: claim due games ahead (SKIP LOCKED, a lease each), "
        "work out their transitions meanwhile, write them at the deadline. Run as many as "
        "the load needs."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--ahead",
            type=float,
            default=None,
            help="claim deadlines this many seconds ahead (default: the setting "
            "DEADLINE_CLAIM_AHEAD_SECONDS)",
        )

        parser.add_argument(
            "--batch",
            type=int,
            default=deadline_runner.CLAIM_BATCH,
            help="deadlines claimed at once (each batch is planned before the next is "
            "claimed, so that processes side by side share a burst)",
        )

    def handle(self, *args, **options):
        ahead = options["ahead"]
        runner = deadline_runner.DeadlineRunner(
            ahead=None if ahead is None else timedelta(seconds=ahead), batch=options["batch"]
        )
        stopping = threading.Event()

        def stop(signum, _frame):
            log.info("signal %d: stopping", signum)
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        log.info("deadline process %s: claiming %s ahead", runner.holder, runner.ahead)
        deadline_runner.run(runner, stopping)
