"""The deadline processes' own rows: each process alive, and the transitions it
worked out ahead of a deadline (games.core.deadline_claims, staged_advances)."""

from django.db import models


class DeadlinePlan(models.Model):
    """A deadline's transition, worked out ahead by the process that holds it
    (games.core.staged_advances) and written at the deadline by one statement for many
    games, if the game is still as it was read then (its version and updated_at). Rows
    in the written tables' own shapes, by column; removed when written. On PostgreSQL
    the table is unlogged: a plan lost in a crash is worked out again."""

    game_id = models.BigIntegerField(primary_key=True)  # no key to the game: written at once
    holder = models.CharField(max_length=80)
    version = models.PositiveIntegerField()  # the game's, as read
    updated_at = models.DateTimeField()  # the game's, as read
    game = models.JSONField()  # the game's new fields
    events = models.JSONField()  # GameEvent rows
    emails = models.JSONField()  # OutboxEmail rows
    missed = models.JSONField()  # the ids of the seats that missed the deadline

    def __str__(self) -> str:
        return f"game {self.game_id}, planned by {self.holder}"


class DeadlineProcess(models.Model):
    """A deadline process alive (games.core.deadline_claims): it says so every second
    or so, even while it writes a long burst. The games it claimed stay its own while
    it does, past their leases; once it stops saying so, another takes them over."""

    holder = models.CharField(max_length=80, primary_key=True)
    alive_until = models.DateTimeField()

    def __str__(self) -> str:
        return self.holder
