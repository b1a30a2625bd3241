"""Delivering the push outbox: at least once, and every possible duplicate counted.

A push goes ``pending → sending → sent`` (or back to ``pending`` for a retry, or
``failed``, or ``gone`` with its device). Each step is a short statement of its own,
and none is open while the push service is called, so sending never holds a lock a
move or a deadline needs:

1. claim: a compare-and-set of the row as read (pending and due, or left sending past
   the grace) to ``sending``, with ``sending_at`` and one attempt more;
2. POST it to the device's push service (pywebpush: aes128gcm for the device's keys,
   signed with the site's VAPID key, with its Topic, Urgency and TTL), outside any
   transaction;
3. record the answer, compare-and-set on the attempt that claimed it: 201 (or any
   2xx) sent; 404 or 410, the device is gone (RFC 8030 7.3: the subscription is
   deleted, its pushes not yet sent with it); 408, 429 or a 5xx, or no answer, a retry
   with backoff (OUTBOX_FIRST_RETRY_SECONDS doubling; Retry-After if longer), failed
   after OUTBOX_MAX_ATTEMPTS; any other answer, failed for good.

What cannot be known is counted, never hidden: an answer lost after the request went
out (a read timeout, a dropped connection, a gateway's 502/504) may come after the
push service took it, and so may a worker that died between the POST and step 3 (the
row stays ``sending``; the sweep takes it up after OUTBOX_SENDING_GRACE_SECONDS). The
next attempt counts ``in_doubt`` and says so in the log. A duplicate is mild: the same
Topic replaces a copy the push service still holds, and the same tag replaces the
notification on the device.
"""

import json
import logging
import threading
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from pywebpush import WebPushException, webpush

from games.core import push_devices, pushes
from games.models import OutboxPush, PushSubscription
from games.push import vapid

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10  # each request to a push service
MAX_RETRY_SECONDS = 3600
# A push just written is sent by its own task; the sweep waits this long before helping.
SWEEP_GRACE_SECONDS = 10
GONE_STATUS = (404, 410)
RETRYABLE_STATUS = (408, 429)
# A gateway's answer may come after the push service took the push (as for the emails).
MAYBE_TAKEN_STATUS = (502, 504)


def sending_grace() -> timedelta:
    return timedelta(seconds=settings.OUTBOX_SENDING_GRACE_SECONDS)


def backoff(attempts: int, retry_after: str | None = None) -> timedelta:
    first = settings.OUTBOX_FIRST_RETRY_SECONDS
    wait = min(MAX_RETRY_SECONDS, first * 2 ** (attempts - 1))
    if retry_after and retry_after.strip().isdigit():  # the seconds form only
        wait = max(wait, min(MAX_RETRY_SECONDS, int(retry_after.strip())))
    return timedelta(seconds=wait)


_CLAIMED_FIELDS = (
    *("pk", "status", "attempts", "uncertain", "in_doubt", "sending_at", "next_attempt_at"),
    *("created_at", "key", "kind", "topic", "payload", "subscription_id"),
)


def deliver(pk: int, now=None) -> str:
    """Send one owed push if it is due. Returns what happened: "sent", "retry",
    "failed", "gone", or why nothing was sent ("not pending", "being sent", "not due")."""
    now = now or timezone.now()
    claimed = _claim(pk, now)
    if isinstance(claimed, str):
        return claimed
    push, device, ttl = claimed
    try:
        _post(push, device, ttl)
    except Exception as error:  # any failure: recorded, retried or given up, visibly
        return _record_failure(push, device, error, now)
    accepted = timezone.now()
    _record(push, status=OutboxPush.Status.SENT, sent_at=now, accepted_at=accepted, last_error="")
    PushSubscription.objects.filter(pk=device.pk).update(last_sent_at=accepted)
    return "sent"


def _claim(pk: int, now):
    """Step 1: (the row, its device, the TTL left) marked ``sending``; or why not."""
    push = OutboxPush.objects.filter(pk=pk).only(*_CLAIMED_FIELDS).first()
    if push is None or push.status not in (OutboxPush.Status.PENDING, OutboxPush.Status.SENDING):
        return "not pending"
    doubt = push.uncertain
    if push.status == OutboxPush.Status.SENDING:
        if push.sending_at and push.sending_at > now - sending_grace():
            return "being sent"
        doubt = True  # a sender died after handing it over, or before
    elif push.next_attempt_at and push.next_attempt_at > now:
        return "not due"
    age = (now - push.created_at).total_seconds()
    device = _device(push)
    problem = _why_not(push, device, age)
    as_read = OutboxPush.objects.filter(pk=pk, status=push.status, attempts=push.attempts)
    if problem:
        status, why = problem
        if as_read.update(status=status, last_error=why, next_attempt_at=None):
            log.info("push %s not sent: %s", push.key, why)
        return "gone" if status == OutboxPush.Status.GONE else "failed"
    in_doubt = push.in_doubt + (1 if doubt else 0)
    claimed = as_read.update(
        status=OutboxPush.Status.SENDING,
        sending_at=now,
        attempts=F("attempts") + 1,
        uncertain=False,
        in_doubt=in_doubt,
    )
    if not claimed:
        return "being sent"  # another sender took it first
    if doubt:
        log.warning(
            "push %s sent again without knowing whether it arrived, a possible duplicate (%d)",
            push.key,
            in_doubt,
        )
    push.status, push.attempts = OutboxPush.Status.SENDING, push.attempts + 1
    push.in_doubt = in_doubt
    return push, device, max(0, int(pushes.TTL_SECONDS - age))


def _device(push: OutboxPush) -> PushSubscription | None:
    if push.subscription_id is None:
        return None
    return PushSubscription.objects.filter(pk=push.subscription_id).first()


def _why_not(push: OutboxPush, device, age: float) -> tuple | None:
    """(status, why) for a push that is not to be sent at all; None to send it."""
    if device is None:
        return OutboxPush.Status.GONE, "The device unsubscribed, or its push service dropped it."
    if not pushes.enabled():
        return OutboxPush.Status.FAILED, "Push is off for the site (no VAPID keys)."
    if age >= pushes.TTL_SECONDS:
        return OutboxPush.Status.FAILED, "Expired: older than its time to live."
    host = (urlsplit(device.endpoint).hostname or "").lower()
    if not push_devices.endpoint_allowed(host):
        return OutboxPush.Status.FAILED, "The device's push service is not allowed."
    return None


def _post(push: OutboxPush, device: PushSubscription, ttl: int) -> None:
    """Step 2: POST the push; raises unless the push service took it."""
    webpush(
        subscription_info={
            "endpoint": device.endpoint,
            "keys": {"p256dh": device.p256dh, "auth": device.auth},
        },
        data=json.dumps(push.payload, ensure_ascii=False, separators=(",", ":")),
        vapid_private_key=vapid.signer(),
        # A new dict each time: pywebpush writes the audience and expiry into it.
        vapid_claims={"sub": settings.WEBPUSH_VAPID_CONTACT},
        content_encoding="aes128gcm",
        timeout=TIMEOUT_SECONDS,
        ttl=ttl,
        headers={"Topic": push.topic, "Urgency": pushes.urgency(push.kind)},
        requests_session=_session(),
    )


_local = threading.local()


def _session() -> requests.Session:
    """A session per thread: its connections to a push service are kept, so a push
    costs one round trip, not a TLS handshake more."""
    if getattr(_local, "session", None) is None:
        _local.session = requests.Session()
    return _local.session


def _record(push: OutboxPush, **fields) -> bool:
    """Step 3, compare-and-set: only the attempt that claimed the row records its answer."""
    still = OutboxPush.objects.filter(
        pk=push.pk, status=OutboxPush.Status.SENDING, attempts=push.attempts
    )
    return still.update(**fields) == 1


def status_of(error: Exception) -> int | None:
    return getattr(error, "status_code", None) if isinstance(error, WebPushException) else None


def _record_failure(push: OutboxPush, device: PushSubscription, error: Exception, now) -> str:
    status = status_of(error)
    text = describe(error, status)
    if status in GONE_STATUS:
        _gone(push, device, text)
        return "gone"
    lost = answer_lost(error, status)
    retryable = lost or status in RETRYABLE_STATUS or (status or 0) >= 500 or _never_sent(error)
    if not retryable or push.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        _record(push, status=OutboxPush.Status.FAILED, last_error=text, uncertain=lost)
        log.error("push %s failed for good: %s", push.key, text)
        return "failed"
    retry_after = getattr(error, "retry_after", None) if status else None
    _record(
        push,
        status=OutboxPush.Status.PENDING,
        last_error=text,
        next_attempt_at=now + backoff(push.attempts, retry_after),
        uncertain=lost,
    )
    log.info("push %s to be tried again: %s", push.key, text)
    return "retry"


def _gone(push: OutboxPush, device: PushSubscription, text: str) -> None:
    """The push service says the device is gone for good: so is its subscription, and
    its pushes not yet sent (their rows stay, to be counted, without it)."""
    with transaction.atomic():
        if not _record(push, status=OutboxPush.Status.GONE, last_error=text):
            return
        waiting = OutboxPush.objects.filter(
            subscription_id=device.pk, status=OutboxPush.Status.PENDING
        )
        waiting.update(status=OutboxPush.Status.GONE, last_error=text)
        PushSubscription.objects.filter(pk=device.pk).delete()
    log.info("push %s: its device is gone (%s); its subscription is deleted", push.key, text)


def describe(error: Exception, status: int | None) -> str:
    if status is not None:
        reason = getattr(getattr(error, "response", None), "reason", "") or ""
        return f"HTTP {status} {reason}".strip()[:2000]
    try:
        said = str(error)
    except Exception:  # an exception that cannot describe itself still gets recorded
        said = repr(getattr(error, "args", ()))
    return f"{type(error).__name__}: {said}"[:2000]


def _never_sent(error: Exception) -> bool:
    """The connection was never made: nothing reached the push service."""
    if isinstance(error, requests.exceptions.ConnectTimeout):
        return True
    if isinstance(error, requests.exceptions.ConnectionError):
        reason = getattr(error.args[0], "reason", None) if error.args else None
        text = repr(reason or error)
        return "NewConnectionError" in text or "NameResolutionError" in text
    return False


def answer_lost(error: Exception, status: int | None) -> bool:
    """Did the push service perhaps take the push, its answer lost on the way back? A
    gateway's 502/504, or a request error after the connection was made (a read
    timeout, a reset). An error before anything was sent (the encryption, bad keys),
    a connection never made, or the push service's own answer: no."""
    if status is not None:
        return status in MAYBE_TAKEN_STATUS
    if not isinstance(error, requests.exceptions.RequestException):
        return False
    return not _never_sent(error)


def due(now=None, limit: int = 200) -> list:
    """Pushes the sweep should send now: pending ones whose own task is late or whose
    retry is due, and rows a dead sender left ``sending``."""
    now = now or timezone.now()
    grace = now - timedelta(seconds=SWEEP_GRACE_SECONDS)
    pending = Q(status=OutboxPush.Status.PENDING) & (
        Q(next_attempt_at__lte=now) | Q(next_attempt_at=None, created_at__lte=grace)
    )
    abandoned = Q(status=OutboxPush.Status.SENDING, sending_at__lte=now - sending_grace())
    return list(
        OutboxPush.objects.filter(pending | abandoned)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
