"""Is the service keeping up? The report of /healthz/backlog (games/core/backlog.py) on
the command line, for an operator or a cron job: exits 1 past a threshold."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.core import backlog


def _seconds(value) -> str:
    return "none" if value is None else f"{value:.0f} s"


class Command(BaseCommand):
    help = (
        "How late the oldest overdue deadline is, how long the oldest due email has waited, "
        "and each queue's depth; exits 1 past a HEALTH_* threshold."
    )

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="the report as JSON")

    def handle(self, *args, **options):
        found = backlog.report()
        if options["json"]:
            self.stdout.write(json.dumps(found, indent=2))
        else:
            limits, deadlines, mail = found["thresholds"], found["deadlines"], found["mail"]
            self.stdout.write(
                f"deadlines: {deadlines['overdue']} overdue, the oldest by "
                f"{_seconds(deadlines['oldest_overdue_seconds'])} "
                f"(threshold {limits['deadline_late_seconds']} s); held by no deadline "
                f"process: {deadlines['unclaimed']}, taken by the safety sweep: "
                f"{deadlines['safety_sweep']}"
            )
            self.stdout.write(
                f"mail:      {mail['owed']} due and unsent, the oldest waiting "
                f"{_seconds(mail['oldest_owed_seconds'])} "
                f"(threshold {limits['mail_late_seconds']} s)"
            )
            for name, depth in found["queues"].items():
                shown = "unknown (the broker did not answer)" if depth is None else depth
                self.stdout.write(
                    f"queue {name}: {shown} waiting (threshold {limits['queue_depth']})"
                )
        if not found["ok"]:
            raise CommandError("behind: " + "; ".join(found["problems"]))
        if not options["json"]:
            self.stdout.write(self.style.SUCCESS("ok"))
