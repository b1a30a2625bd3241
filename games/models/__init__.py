"""The app's tables, in six modules: the games and the people around them
(``play``), the deadline processes' own rows (``deadlines``), the table talk with
the replies received by email (``talk``), the development mailbox with the ESPs'
delivery reports (``mail``), the API's keys (``api``) and the devices that take Web
Push notifications with the pushes owed them (``push``)."""

from games.models.api import ApiToken
from games.models.deadlines import DeadlinePlan, DeadlineProcess
from games.models.mail import DeliveryEvent, DevMail
from games.models.play import (
    REPLY_KEY_LENGTH,
    Game,
    GameEvent,
    Invitation,
    Lobby,
    OutboxEmail,
    Person,
    RecordOpening,
    Seat,
    SignIn,
    Submission,
    new_reply_key,
)
from games.models.push import PUSH_KINDS, OutboxPush, PushSubscription
from games.models.talk import InboundMessage, TalkMessage, TalkReport, new_talk_ref

__all__ = [
    "PUSH_KINDS",
    "REPLY_KEY_LENGTH",
    "ApiToken",
    "DeadlinePlan",
    "DeadlineProcess",
    "DeliveryEvent",
    "DevMail",
    "Game",
    "GameEvent",
    "InboundMessage",
    "Invitation",
    "Lobby",
    "OutboxEmail",
    "OutboxPush",
    "Person",
    "PushSubscription",
    "RecordOpening",
    "Seat",
    "SignIn",
    "Submission",
    "TalkMessage",
    "TalkReport",
    "new_reply_key",
    "new_talk_ref",
]
