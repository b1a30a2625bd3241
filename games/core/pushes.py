"""The Web Push notifications a change owes, as outbox rows (``OutboxPush``), written in
the change's own transaction beside its emails, never instead of them: sent by
games.push once committed, as the emails are by games.mail.

games.core.notifications says which seat a cause concerns and as which kind
(``PUSH_KINDS``: your move, a deal, table talk, the game over); here, which of that
person's devices asked for that kind, and what each is told. A person is their
email address: every device subscribed under a seat's address (lower case) gets the
seat's pushes, and nobody else's.

A push names the game and the kind, in the device's language, and links to the seat's
page: nothing of a hand, a bag or an offer, nor a word of the talk. It is encrypted
for the device (aes128gcm), so the push service reads none of it; it still passes
through a third party, and a lock screen shows it to whoever holds the phone.
"""

import base64
from collections import defaultdict

from django.conf import settings
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from games.core import bulk, links
from games.engine import actions
from games.models import PUSH_KINDS, OutboxPush, PushSubscription

YOUR_MOVE, DEAL, TALK, GAME_OVER = PUSH_KINDS
# A cause told as "your move" only when the seat must act now (a round's end, the start).
IF_MUST_ACT = "if_must_act"

# What each kind says, in the device's language: these words alone, and the game's name.
BODIES = {
    YOUR_MOVE: _("Your move"),
    DEAL: _("A deal concerns you"),
    TALK: _("Table talk for you"),
    GAME_OVER: _("The game is over"),
}
# Web Push's Urgency (RFC 8030 5.3): a phone in power saving still wakes for "high".
URGENCY = {YOUR_MOVE: "high"}
NORMAL_URGENCY = "normal"
# How long the push service keeps a push for a device that is off (RFC 8030 5.2); the
# sender shortens it by the time the push waited, and drops one older than this.
TTL_SECONDS = 24 * 60 * 60
TOPIC_SALT = "games.core.pushes.topic"


def enabled() -> bool:
    """Push is on for the site: both VAPID keys are set (the system check vouches for
    them, games.push.settings_checks)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def told_as(kind: str | None, state, index: int) -> str | None:
    """The push kind a cause's ``kind`` (one of PUSH_KINDS, IF_MUST_ACT or None) is
    told as to seat ``index``, the game at ``state``: None for no push."""
    if kind != IF_MUST_ACT:
        return kind
    if state.is_over() or not actions(state)[index]["must_act"]:
        return None
    return YOUR_MOVE


def topic(seat) -> str:
    """The seat's Web Push Topic: 32 characters of URL-safe base64, the same for every
    push to the seat (so a newer one replaces a stale one the push service holds) and
    different for every seat, keyed by the server's secret (so it tells nothing)."""
    digest = salted_hmac(TOPIC_SALT, str(seat.pk), algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def urgency(kind: str) -> str:
    return URGENCY.get(kind, NORMAL_URGENCY)


def payload(game, seat, kind: str, language: str) -> dict:
    """What the device is told: the game's name, the kind in its words, the seat's page,
    the seat's topic as the notification's tag (a newer one replaces it on the device)."""
    with translation.override(language):
        body = str(BODIES[kind])
    return {
        "title": game.name,
        "body": body,
        "url": links.seat_url(seat),
        "tag": topic(seat),
        "lang": language,
    }


def record(owed: list) -> list:
    """Write the pushes ``owed`` (game, seat, kind, cause) to the outbox, one for each of
    the seat's person's devices that asked for the kind (call inside the change's
    transaction): one query for the devices of every seat concerned, one insert if
    any is owed. A cause yields one push a device, whatever the repeats. Returns the
    rows written, for notifications to hand to the push workers once committed."""
    if not owed or not enabled():
        return []
    addresses = sorted({seat.email.lower() for _game, seat, _kind, _cause in owed})
    devices = defaultdict(list)
    for device in PushSubscription.objects.filter(email__any=addresses).only(
        "pk", "email", "kinds", "language"
    ):
        devices[device.email].append(device)
    if not devices:
        return []
    rows = []
    for game, seat, kind, cause in owed:
        for device in devices.get(seat.email.lower(), ()):
            if kind not in device.kinds:
                continue
            rows.append(
                OutboxPush(
                    subscription_id=device.pk,
                    game=game,
                    seat=seat,
                    kind=kind,
                    key=f"p{device.pk}:g{game.pk}:s{seat.index}:{cause}"[:120],
                    topic=topic(seat),
                    payload=payload(game, seat, kind, device.language),
                )
            )
    return bulk.insert_new(list({row.key: row for row in rows}.values()), "key")
