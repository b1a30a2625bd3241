"""Deadlines written by one statement for many games (PostgreSQL): the bound on
10,000 same-second deadlines' lateness (``manage.py bench_deadlines``, issue 39).

A deadline process works out each transition ahead (timers.plan_advances) and
stages its rows here, in the written tables' own shapes (models.DeadlinePlan).
When the deadline falls, ``write`` moves a chunk of games on in one statement,
with no Python per game: each game is updated from its plan only if it is still as
it was read (version and updated_at), in play, due and held by this process; the
events, the owed emails and the missed counts of exactly those games are written
with it. Every other game of the chunk is the caller's to write as before
(timers.advance_many): a move made meanwhile wins, as it does there.

Only the common transition is staged: one that pauses the game, alerts the
organizer or calls for standing instructions takes the ordinary path, which does
those. The rows are the ones the ordinary path writes (tests/core/test_staged_advances.py).
"""

import json
from datetime import date, datetime, time
from functools import cache

from django.db import connection, models, transaction

from games.core import bulk, compiled, notifications, outbox_handoff, standing, timers
from games.models import DeadlinePlan, DeadlineProcess, Game, GameEvent, OutboxEmail, Seat


def stages() -> bool:
    """PostgreSQL: the statement reads the plans' JSON into the tables' row types."""
    return connection.vendor == "postgresql"


def _stageable(t: timers.Transition) -> bool:
    """A transition the one statement writes whole (see the module's note)."""
    if t.pausing or standing.follows_on(t.game, t.state, t.events):
        return False
    return not any(
        timers.reaches_miss_alert(t.game, seat.missed_in_a_row + 1)
        for seat in t.seats
        if seat.index in t.late
    )


def _plain(value):
    """A value as JSON holds it for PostgreSQL to read into its column."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return value


def _json_value(field, obj):
    value = getattr(obj, field.attname)
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return json.loads(json.dumps(value, cls=field.encoder)) if field.encoder else value
    return _plain(bulk.column_value(field, obj))


def _columns(obj, fields) -> dict:
    return {f.column: _json_value(f, obj) for f in fields}


def _game_fields() -> list:
    return [Game._meta.get_field(name) for name in timers.ADVANCED_FIELDS]


def stage(transitions, holder: str) -> set:
    """Keep ``holder``'s plans of these transitions for ``write``, replacing any
    earlier plan of their games; the ids of the games staged (not every
    transition is: ``_stageable``)."""
    if not stages():
        return set()
    game_fields = _game_fields()
    event_fields = compiled.inserted_fields(GameEvent)
    email_fields = compiled.inserted_fields(OutboxEmail)
    plans = []
    for t in transitions:
        if not _stageable(t):
            continue
        version, updated_at = t.stamp
        emails = {email.key: email for email in t.emails}.values()  # as save_owed keeps them
        plans.append(
            DeadlinePlan(
                game_id=t.game.pk,
                holder=holder,
                version=version,
                updated_at=updated_at,
                game=_columns(t.game, game_fields),
                events=[_columns(row, event_fields) for row in t.rows],
                emails=[_columns(email, email_fields) for email in emails],
                missed=[seat.pk for seat in t.seats if seat.index in t.late],
            )
        )
    if not plans:
        return set()
    with transaction.atomic():
        DeadlinePlan.objects.filter(game_id__any=[p.game_id for p in plans]).delete()
        bulk.insert(plans)
    return {p.game_id for p in plans}


@cache
def _write_sql() -> str:
    q = connection.ops.quote_name

    def selected(fields) -> tuple:
        columns = ", ".join(q(f.column) for f in fields)
        values = ", ".join("%(now)s" if bulk.stamped(f) else f"r.{q(f.column)}" for f in fields)
        return columns, values

    game, seat, plan = (q(m._meta.db_table) for m in (Game, Seat, DeadlinePlan))
    event_table, email_table = (q(m._meta.db_table) for m in (GameEvent, OutboxEmail))
    updates = ", ".join(f"{q(f.column)} = r.{q(f.column)}" for f in _game_fields())
    event_columns, event_values = selected(compiled.inserted_fields(GameEvent))
    email_columns, email_values = selected(compiled.inserted_fields(OutboxEmail))
    missed = q("missed_in_a_row")
    return f"""
WITH moved AS (
    UPDATE {game} g SET {updates}
    FROM {plan} p CROSS JOIN LATERAL jsonb_populate_record(NULL::{game}, p.game) r
    WHERE g.id = ANY(%(ids)s::bigint[])  -- the games by their key, whatever the estimates
        AND p.game_id = g.id AND p.holder = %(holder)s
        AND g.version = p.version AND g.updated_at = p.updated_at
        AND g.status = %(active)s AND g.paused_at IS NULL
        AND g.deadline_claimed_by = %(holder)s AND g.phase_deadline <= %(now)s
    RETURNING g.id
), written AS (  -- the plans of the games moved on (the statement sees them before used)
    SELECT p.events, p.emails, p.missed FROM moved JOIN {plan} p ON p.game_id = moved.id
), used AS (
    DELETE FROM {plan} p WHERE p.game_id = ANY(%(ids)s::bigint[]) AND p.holder = %(holder)s
), events AS (
    INSERT INTO {event_table} ({event_columns})
    SELECT {event_values} FROM written
    CROSS JOIN LATERAL jsonb_populate_recordset(NULL::{event_table}, written.events) r
), missed AS (
    UPDATE {seat} s SET {missed} = s.{missed} + 1
    WHERE s.id = ANY(ARRAY(
        SELECT m.id::bigint
        FROM written CROSS JOIN LATERAL jsonb_array_elements_text(written.missed) m(id)
    ))  -- one array: by the seats' key, not a scan of the seats a game
), emails AS (
    INSERT INTO {email_table} ({email_columns})
    SELECT {email_values} FROM written
    CROSS JOIN LATERAL jsonb_populate_recordset(NULL::{email_table}, written.emails) r
    ON CONFLICT (key) DO NOTHING
    RETURNING id
)
SELECT ARRAY(SELECT id FROM moved), ARRAY(SELECT id FROM emails ORDER BY id)"""


def write(game_ids: list, holder: str, now, plans: dict | None = None) -> set:
    """Move on, in one statement and one transaction, the games of ``game_ids``
    whose plan ``holder`` staged and which are still as planned, due by ``now`` and
    held by ``holder``; every plan of these games by ``holder`` is used up either
    way. The ids of the games moved on; their emails go to the email workers once
    committed (or are held, outbox_handoff.sends_held). ``plans``: the transitions
    staged (game id -> timers.Transition), whose Web Push notifications are written
    in the same transaction for the games moved on (two statements more, only when
    push is on and some are owed: they depend on the devices subscribed then)."""
    if not game_ids or not stages():
        return set()
    params = {"ids": game_ids, "holder": holder, "now": now, "active": Game.Status.ACTIVE.value}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_write_sql(), params)
        moved, emails = cursor.fetchone()
        if emails:
            outbox_handoff.send_once_committed(list(emails))
        planned = [plans[pk] for pk in moved if (plans or {}).get(pk) is not None]
        notifications.record_pushes([push for t in planned for push in t.pushes])
    return set(moved)


def forget(holder: str | None = None) -> int:
    """Drop ``holder``'s plans (it stopped), or with no holder those of processes no
    longer known (deadline_claims.forget forgot them): how many."""
    plans = DeadlinePlan.objects.all()
    if holder is not None:
        plans = plans.filter(holder=holder)
    else:
        plans = plans.exclude(holder__in=DeadlineProcess.objects.values("holder"))
    return plans.delete()[0]
