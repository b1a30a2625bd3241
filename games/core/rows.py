"""Hand-written reads for the rows every request and every email reads: a link's
seat and game, the game's row under its lock, the table's seats, a batch of the
log (or the news since an email, or the last round), an outbox row to send.

The ORM spends several times longer building and compiling these statements
than the database spends running them (on PostgreSQL, a seat and its game by
primary key: about 1.5 ms through a queryset, 0.3 ms as a prepared string;
``manage.py bench_moves`` measures the whole request). Here each statement is
written once, from the models' own fields, and the rows become the ORM's own
instances (``Model.from_db``, each field's own converters), so callers cannot
tell the difference. ``tests/test_rows.py`` checks them against the ORM.
"""

from collections.abc import Mapping
from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, connection, connections

from games.models import Game, GameEvent, OutboxEmail, RecordOpening, Seat


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _fields(model, without: tuple = ()) -> tuple:
    return tuple(f for f in model._meta.concrete_fields if f.attname not in without)


def _columns(alias: str, fields: tuple) -> str:
    return ", ".join(f"{alias}.{_quote(f.column)}" for f in fields)


# Kept per connection (one per thread): a converter may be bound to its connection.
@lru_cache(maxsize=256)
def _conversions(fields: tuple, alias: str, conn) -> list:
    """The fields whose values the ORM converts as read (JSON text to objects; on
    SQLite, dates and booleans): [(position, converters, column)]."""
    found = []
    for position, field in enumerate(fields):
        column = field.get_col(alias)
        chain = conn.ops.get_db_converters(column) + field.get_db_converters(conn)
        if chain:
            found.append((position, chain, column))
    return found


def _converted(fields: tuple, alias: str, values, conn) -> list:
    values = list(values)
    for position, chain, column in _conversions(fields, alias, conn):
        for convert in chain:
            values[position] = convert(values[position], column, conn)
    return values


def _instance(model, fields: tuple, alias: str, values, conn):
    """The model instance for a row of ``fields``' columns, as the ORM makes it."""
    return model.from_db(conn.alias, _attnames(fields), _converted(fields, alias, values, conn))


@cache
def _attnames(fields: tuple) -> list:
    return [f.attname for f in fields]


class _Statement:
    """One read of one or two models' rows, written the first time it is used
    (the connection decides the quoting) and kept."""

    def __init__(self, build):
        self._build = build

    @cache  # noqa: B019 -- a handful of module-level statements, kept for the process
    def sql(self, vendor: str) -> str:
        return self._build()


_SEAT_GAME = Seat._meta.get_field("game")


def _seat_link_sql(with_state: bool, whole_table: bool = False) -> str:
    """A seat with its game and whether the game's record was ever opened; with
    ``whole_table``, each of the game's seats so, in seat order."""
    game_fields = _fields(Game, () if with_state else ("state",))
    seat, game = _quote("id"), _quote("game_id")
    if whole_table:
        where = f"s.{game} = %s ORDER BY s.{_quote('index')}"
    else:
        where = f"s.{seat} = %s AND s.{game} = %s"
    return (
        f"SELECT {_columns('s', _fields(Seat))}, {_columns('g', game_fields)}, "
        f"EXISTS (SELECT 1 FROM {_quote(RecordOpening._meta.db_table)} o "
        f"WHERE o.{game} = s.{game}) "
        f"FROM {_quote(Seat._meta.db_table)} s "
        f"JOIN {_quote(Game._meta.db_table)} g ON g.{seat} = s.{game} "
        f"WHERE {where}"
    )


_SEAT_LINK = _Statement(lambda: _seat_link_sql(with_state=True))
_TABLE_WITHOUT_STATE = _Statement(lambda: _seat_link_sql(with_state=False, whole_table=True))


def _connection():
    """The thread's own connection (the ``connection`` proxy looks it up on every
    attribute)."""
    return connections[DEFAULT_DB_ALIAS]


def _one(statement: "_Statement", params: list):
    conn = _connection()
    with conn.cursor() as cursor:
        cursor.execute(statement.sql(conn.vendor), params)
        return conn, cursor.fetchone()


def seat_with_game(seat_id: int, game_id: int) -> Seat | None:
    """The seat ``seat_id`` of game ``game_id`` with its game attached and
    ``record_opened``: whether the game's record was ever opened. None if there
    is no such seat."""
    conn, row = _one(_SEAT_LINK, [seat_id, game_id])
    return None if row is None else _seat_of_link(row, True, conn)


def seat_at_table(seat_id: int, game_id: int) -> tuple:
    """``seat_with_game`` with the game's state left unread (read when asked
    for), and the game's seats in seat order, the seat among them and each with
    the game attached, in one statement: what a move reads before it takes the
    game's lock. (None, []) if there is no such seat."""
    conn = _connection()
    with conn.cursor() as cursor:
        cursor.execute(_TABLE_WITHOUT_STATE.sql(conn.vendor), [game_id])
        found = cursor.fetchall()
    seats = _table_of_links(found, conn)
    seat = next((s for s in seats if s.pk == seat_id), None)
    return (seat, seats) if seat is not None else (None, [])


def _table_of_links(found: list, conn) -> list:
    """The seats of ``_TABLE_WITHOUT_STATE``'s rows, sharing one game."""
    seats, game = [], None
    for row in found:
        seats.append(_seat_of_link(row, False, conn, game))
        game = seats[-1].game
    return seats


def _seat_of_link(row, with_state: bool, conn, game: Game | None = None) -> Seat:
    """The seat of a ``_seat_link_sql`` row, with ``game`` attached (by default
    the row's)."""
    seat_fields = _fields(Seat)
    split = len(seat_fields)
    seat = _instance(Seat, seat_fields, "s", row[:split], conn)
    if game is None:
        game_fields = _fields(Game, () if with_state else ("state",))
        game = _instance(Game, game_fields, "g", row[split:-1], conn)
    _SEAT_GAME.set_cached_value(seat, game)
    seat.record_opened = bool(row[-1])
    return seat


_GAME_LOCKED = _Statement(
    lambda: (
        f"SELECT {_columns('g', _fields(Game))} FROM {_quote(Game._meta.db_table)} g "
        f"WHERE g.{_quote('id')} = %s"
        + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    )
)


def game_locked(game_id: int) -> Game:
    """The game's row, locked until the transaction ends (``select_for_update``).
    Game.DoesNotExist if there is none."""
    conn, row = _one(_GAME_LOCKED, [game_id])
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return _instance(Game, _fields(Game), "g", row, conn)


_SEATS = _Statement(
    lambda: (
        f"SELECT {_columns('s', _fields(Seat))} FROM {_quote(Seat._meta.db_table)} s "
        f"WHERE s.{_quote('game_id')} = %s ORDER BY s.{_quote('index')}"
    )
)


def seats_of(game: Game) -> list:
    """The game's seats in seat order, each with the game attached."""
    conn = _connection()
    with conn.cursor() as cursor:
        cursor.execute(_SEATS.sql(conn.vendor), [game.pk])
        rows = cursor.fetchall()
    return _seats(rows, game, conn)


def _seats(rows: list, game: Game, conn) -> list:
    seats = [_instance(Seat, _fields(Seat), "s", row, conn) for row in rows]
    for seat in seats:
        _SEAT_GAME.set_cached_value(seat, game)
    return seats


def _select_events(where: str) -> str:
    """The events' seq, type and data, ``where`` (``e`` names an event)."""
    return (
        f"SELECT e.{_quote('seq')}, e.{_quote('type')}, e.{_quote('data')} "
        f"FROM {_quote(GameEvent._meta.db_table)} e WHERE e.{_quote('game_id')} = %s {where}"
    )


def _events_sql(newest_first: bool, bounded: bool) -> str:
    seq = _quote("seq")
    bound = f"AND e.{seq} {'<' if newest_first else '>'} %s " if bounded else ""
    return _select_events(f"{bound}ORDER BY e.{seq} {'DESC' if newest_first else 'ASC'} LIMIT %s")


def _last_of_type(before: str = "") -> str:
    """The seq of the game's last event of a type (parameters: game, type)."""
    table, seq, game = _quote(GameEvent._meta.db_table), _quote("seq"), _quote("game_id")
    return (
        f"SELECT MAX(x.{seq}) FROM {table} x "
        f"WHERE x.{game} = %s AND x.{_quote('type')} = %s{before}"
    )


_EVENTS = {
    (newest, bounded): _Statement(lambda n=newest, b=bounded: _events_sql(n, b))
    for newest in (True, False)
    for bounded in (True, False)
}
_EVENT_DATA = (GameEvent._meta.get_field("data"),)


class StoredEvent(Mapping):
    """An event's data as read for the log: its seq and type at once, the rest
    decoded when first asked for. A page's log lines are mostly narrated already
    (presenters.NARRATED), so most of a batch is never decoded."""

    __slots__ = ("_conn", "_data", "_text", "seq", "type")

    def __init__(self, seq: int, kind: str, text, conn):
        self.seq, self.type, self._text, self._conn, self._data = seq, kind, text, conn, None

    def _decoded(self) -> dict:
        if self._data is None:
            self._data = _converted(_EVENT_DATA, "e", (self._text,), self._conn)[0]
        return self._data

    def __getitem__(self, key):
        if key == "seq":
            return self.seq
        if key == "type":
            return self.type
        return self._decoded()[key]

    def __iter__(self):
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())


_EVENTS_SINCE = _Statement(
    lambda: _select_events(f"AND e.{_quote('seq')} >= %s ORDER BY e.{_quote('seq')} DESC")
)


# The last round that ended: from its round_started (the first event, if there is
# none) to its round_ended. Parameters: game, then (game, type) for each MAX.
def _last_round_sql() -> str:
    seq = f"e.{_quote('seq')}"
    ended = _last_of_type()
    started = _last_of_type(f" AND x.{_quote('seq')} < ({ended})")
    return _select_events(f"AND {seq} <= ({ended}) AND {seq} >= COALESCE(({started}), 0) "
                          f"ORDER BY {seq}")  # fmt: skip


_LAST_ROUND = _Statement(_last_round_sql)


def _stored_events(statement: "_Statement", params: list) -> list:
    conn = _connection()
    with conn.cursor() as cursor:
        cursor.execute(statement.sql(conn.vendor), params)
        rows = cursor.fetchall()
    return _events_of(rows, conn)


def _events_of(rows: list, conn) -> list:
    return [StoredEvent(seq, kind, text, conn) for seq, kind, text in rows]


def events_since(game_id: int, seq: int) -> list:
    """The game's events from ``seq`` on (StoredEvent), newest first: what a seat
    has not been told yet."""
    return _stored_events(_EVENTS_SINCE, [game_id, seq])


def last_round_events(game_id: int) -> list:
    """The events of the last round that ended (StoredEvent), oldest first, its
    round_ended last; [] while no round has ended."""
    ended = [game_id, "round_ended"]
    return _stored_events(_LAST_ROUND, [game_id, *ended, game_id, "round_started", *ended])


def event_data(game_id: int, newest_first: bool, bound: int | None, limit: int) -> list:
    """Up to ``limit`` of the game's events (their data, as StoredEvent), newest or
    oldest first, from before (newest first) or after ``bound``, a seq (None: from
    the end)."""
    params = [game_id] + ([] if bound is None else [bound]) + [limit]
    return _stored_events(_EVENTS[newest_first, bound is not None], params)


def _outbox_sql() -> str:
    lock = ""
    if connection.features.has_select_for_update_skip_locked:
        lock = " FOR UPDATE SKIP LOCKED"
    return (
        f"SELECT {_columns('o', _fields(OutboxEmail))} FROM {_quote(OutboxEmail._meta.db_table)} o "
        f"WHERE o.{_quote('id')} = %s AND o.{_quote('status')} IN (%s, %s){lock}"
    )


_OUTBOX_TO_SEND = _Statement(_outbox_sql)


def outbox_email_to_send(pk: int) -> OutboxEmail | None:
    """The outbox row ``pk`` if it is pending or sending, locked until the
    transaction ends; None if it is neither, or another worker holds it."""
    statuses = [OutboxEmail.Status.PENDING, OutboxEmail.Status.SENDING]
    conn, row = _one(_OUTBOX_TO_SEND, [pk, *statuses])
    return None if row is None else _instance(OutboxEmail, _fields(OutboxEmail), "o", row, conn)


# Between statements sent in one round trip (the benchmark counts them apart).
BATCHED = ";\n"


def _takes_several_statements(conn) -> bool:
    """PostgreSQL with client-side binding (Django's default): a prepared
    statement (``server_side_binding``) holds one statement only."""
    options = conn.settings_dict.get("OPTIONS", {})
    return conn.vendor == "postgresql" and options.get("server_side_binding") is not True


def seat_page(seat_id: int, game_id: int, events: int) -> tuple:
    """What a seat's page reads: ``seat_with_game``, its game's ``seats_of`` and
    the newest ``events`` of its log (``event_data``), as (seat or None, seats,
    events). On PostgreSQL the three statements go in one round trip (client-side
    binding takes several at once); elsewhere one after the other."""
    conn = _connection()
    vendor = conn.vendor
    reads = (
        (_SEAT_LINK, [seat_id, game_id]),
        (_SEATS, [game_id]),
        (_EVENTS[True, False], [game_id, events]),
    )
    with conn.cursor() as cursor:
        if _takes_several_statements(conn):
            cursor.execute(
                BATCHED.join(statement.sql(vendor) for statement, _ in reads),
                [value for _, params in reads for value in params],
            )
            results = [cursor.fetchall()]
            while cursor.nextset():
                results.append(cursor.fetchall())
        else:
            results = []
            for statement, params in reads:
                cursor.execute(statement.sql(vendor), params)
                results.append(cursor.fetchall())
    [seat_row], seat_rows, event_rows = results[0] or [None], results[1], results[2]
    if seat_row is None:
        return None, [], []
    seat = _seat_of_link(seat_row, True, conn)
    return seat, _seats(seat_rows, seat.game, conn), _events_of(event_rows, conn)
