"""Celery tasks. They hold no state of their own: the database is the source of
truth, so a duplicated or lost task is harmless (the beat sweep catches up)."""

from celery import shared_task

from games import outbox


@shared_task(ignore_result=True)
def send_email(pk: int) -> str:
    return outbox.deliver(pk)


@shared_task(ignore_result=True)
def sweep_outbox() -> int:
    """Send what is owed and not yet sent: emails whose task was lost, and retries."""
    pending = outbox.due()
    for pk in pending:
        outbox.deliver(pk)
    return len(pending)
