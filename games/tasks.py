"""Every Celery task of the site: thin entry points, the work is in games.core,
games.mail and games.push. Each keeps the name it was first deployed with
(games.tasks.<function>), so that tasks queued before an upgrade still find it. The
database is the source of truth: a duplicated, late or lost task is harmless
(games.core.deadline_sweep).

Core and mail queue some of these by name (outbox_handoff.SEND_EMAILS and SEND_PUSHES,
the names in deadline_sweep): they never import this module, which sits above them."""

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.core import (
    backlog,
    bot_turns,
    daily_emails,
    deadline_sweep,
    lobbies,
    notifications,
    timers,
)
from games.mail import sending
from games.push import sending as push_sending

# --- The deadlines queue (settings.CELERY_TASK_ROUTES) ------------------------------------


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """The beat's safety net for deadlines, and the due reminders, ended bargaining
    times and bots' turns handed to the workers (the tasks below)."""
    return deadline_sweep.sweep()


@shared_task(name="games.tasks.advance_games", ignore_result=True)
def advance_games(targets: list, at: str | None = None) -> int:
    """Advance a chunk of overdue games, each still at its given version (the
    safety sweep's). ``at`` is accepted from tasks an earlier version queued ahead
    of their deadline; a game whose deadline has not passed is left alone."""
    return timers.advance_chunk([tuple(t) for t in targets])


@shared_task(name="games.tasks.remind_game", ignore_result=True)
def remind_game(game_id: int) -> int:
    return timers.send_reminders(game_id)


@shared_task(name="games.tasks.end_bargaining", ignore_result=True)
def end_bargaining(game_id: int) -> bool:
    return timers.end_bargaining(game_id)


@shared_task(name="games.tasks.play_bots", ignore_result=True)
def play_bots(game_id: int) -> int:
    """The bots' turn at a table whose time for it has come (games.core.bot_turns)."""
    return bot_turns.play(game_id)


# Says in the log when mail is backed up, at most this often (per worker process).
BACKED_UP_MAIL = backlog.BackedUpMail(every=300)


@shared_task(name="games.tasks.check_mail_backlog", ignore_result=True)
def check_mail_backlog() -> bool:
    """Warn when mail is backed up. Beat runs it on the deadlines queue: on the email
    queue it would wait behind the very emails that are late, and say nothing."""
    return BACKED_UP_MAIL.check()


# --- The default queue: the emails and the beat's hourly work ----------------------------


@shared_task(name="games.tasks.send_emails", ignore_result=True)
def send_emails(pks: list) -> int:
    """The emails one move made owed, queued by name when it commits."""
    return sending.send(pks)


@shared_task(
    name="games.tasks.sweep_outbox", ignore_result=True, time_limit=sending.SWEEP_OUTBOX_TIME_LIMIT
)
def sweep_outbox() -> int:
    """Send what is owed and not yet sent, for a while (games.mail.sending)."""
    return sending.sweep()


@shared_task(name="games.tasks.send_pushes", ignore_result=True)
def send_pushes(pks: list) -> int:
    """The Web Push notifications one change made owed, queued by name when it commits."""
    return push_sending.send(pks)


@shared_task(
    name="games.tasks.sweep_pushes", ignore_result=True, time_limit=push_sending.SWEEP_TIME_LIMIT
)
def sweep_pushes() -> int:
    """Send the pushes owed and not yet sent, for a while (games.push.sending)."""
    return push_sending.sweep()


@shared_task(name="games.tasks.send_digests", ignore_result=True)
def send_digests() -> int:
    """The players' daily summaries due this hour (beat runs it every few minutes)."""
    with transaction.atomic():
        return len(notifications.record_digests(timezone.now()))


@shared_task(name="games.tasks.send_daily_emails", ignore_result=True)
def send_daily_emails() -> int:
    """The people's daily emails across all their games due this hour (beat runs it
    every few minutes)."""
    with transaction.atomic():
        return len(daily_emails.record_daily(timezone.now()))


@shared_task(name="games.tasks.start_due_lobbies", ignore_result=True)
def start_due_lobbies() -> int:
    """Start the full tables whose start time has come (beat runs it every minute;
    a table filled after its start time starts with its last acceptance)."""
    return len(lobbies.start_due(timezone.now()))
