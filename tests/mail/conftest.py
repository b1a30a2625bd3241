"""The emails (games/mail/): the outbox under ESP failures and its locks, the tracking
webhooks and their start-up checks, the dev mailbox, each reader's language, the
gathered offer emails and the round emails, and whole games played through the emails
alone (the players are in tests/support/email_players.py).
"""

from tests.support.clock import clock  # noqa: F401 (the fixture, for every mail test)
