"""Hand-written reads for what a bound holds: a seat's page (seat page GET p50,
``manage.py bench_moves``), the read a move makes before it takes the game's lock
(move POST p50) and an email's (email sent p50). Everything else reads through
the ORM (games/core/selectors.py).

Through querysets, these reads cost the ORM several times longer in building and
compiling statements and in making a game per seat than the database spends
running them, which takes both requests past their bounds. Here each statement
is written once, from the models' own fields, and the rows become the ORM's own
instances (``Model.from_db``, each field's own converters), so callers cannot
tell the difference; a page's events are decoded only when asked for (most of a
page's log lines are narrated already). ``tests/core/test_selectors.py`` checks them
against the ORM.
"""

from collections.abc import Mapping
from functools import cache, lru_cache

from django.db import connection

from games.core import compiled, live, talk_reads
from games.models import Game, GameEvent, OutboxEmail, RecordOpening, Seat, TalkMessage


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


class _Fields(tuple):
    """A model's fields as its rows are read, made once and kept: known by identity
    (the conversions and names of its columns are kept per instance, where hashing
    dozens of fields on every row read cost more than converting them)."""

    __slots__ = ()
    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other


@cache
def _fields(model, without: tuple = ()) -> _Fields:
    return _Fields(f for f in model._meta.concrete_fields if f.attname not in without)


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


class CompiledRead:
    """A read of one model's rows that the ORM writes (``build`` returns the
    queryset), compiled to SQL once per database with stand-ins for its named
    parameters, which each run replaces (games.core.compiled). Building and
    compiling a queryset costs the ORM more than the database spends running it
    (``bench_moves``: the page's and the email's talk reads); this keeps the rule
    the queryset states in its one place (games.core.talk_reads) and sends it with
    the page's other reads."""

    def __init__(self, model, build):
        self._model, self._build, self._by_vendor = model, build, {}

    def _compiled(self, conn) -> tuple:
        found = self._by_vendor.get(conn.vendor)
        if found is None:
            given = compiled.stand_ins(self._build)
            compiler = self._build(**given).query.get_compiler(connection=conn)
            sql, params = compiler.as_sql()
            if len(compiler.select) != len(_fields(self._model)):
                raise TypeError(f"{self._build} does not compile to one model's rows")
            found = self._by_vendor[conn.vendor] = (
                sql,
                compiled.named_slots(params, given, self._build),
            )
        return found

    def sql_and_params(self, conn, **values) -> tuple:
        sql, slots = self._compiled(conn)
        return sql, compiled.filled(slots, values)

    def rows(self, conn, **values) -> list:
        """The model's instances, run alone (prepared, as compiled.run_together runs them)."""
        return self.instances(
            compiled.run_together([self.sql_and_params(conn, **values)], conn)[0], conn
        )

    def instances(self, rows: list, conn) -> list:
        fields, alias = _fields(self._model), self._model._meta.db_table
        return [_instance(self._model, fields, alias, row, conn) for row in rows]


def _talk_reader(seat: int, game: int, since: int = 0) -> Seat:
    """A seat as the talk reads take it: its id, its game, what it has read."""
    return Seat(pk=seat, game_id=game, talk_read_id=since, talk_mailed_id=since)


# The newest page of talk a seat may read (talk.page's, with one more row).
_NEWEST_TALK = CompiledRead(
    TalkMessage,
    lambda seat, game: talk_reads.visible_to(_talk_reader(seat, game)).order_by("-id")[
        : talk_reads.PAGE + 1
    ],
)
# The oldest talk a seat has not read, for its email (one more than it shows).
_UNREAD_TALK = CompiledRead(
    TalkMessage,
    lambda seat, game, since: talk_reads.unread(_talk_reader(seat, game, since)).order_by("id")[
        : talk_reads.EMAIL_MESSAGES + 1
    ],
)
# The same, from what the seat's row says it has read: read with the seat itself.
_UNREAD_TALK_STORED = CompiledRead(
    TalkMessage,
    lambda seat, game: talk_reads.unread_as_stored(seat, game).order_by("id")[
        : talk_reads.EMAIL_MESSAGES + 1
    ],
)


# A game's row, locked until the transaction ends: every write's first read.
_LOCKED_GAME = CompiledRead(Game, lambda game: Game.objects.select_for_update().filter(pk=game))


def locked_game(game_id: int) -> Game:
    """The game's row, locked until the transaction ends (``select_for_update``).
    Game.DoesNotExist if there is none."""
    found = _LOCKED_GAME.rows(compiled.connection(), game=game_id)
    if not found:
        raise Game.DoesNotExist(f"no game {game_id}")
    return found[0]


# An outbox row to send: pending or sending, locked (skipped if another worker has it).
_OUTBOX_TO_SEND = CompiledRead(
    OutboxEmail,
    lambda pk: OutboxEmail.objects.select_for_update(skip_locked=True).filter(
        pk=pk, status__in=[OutboxEmail.Status.PENDING, OutboxEmail.Status.SENDING]
    ),
)


def outbox_email_to_send(pk: int) -> OutboxEmail | None:
    """The outbox row ``pk`` if it is pending or sending, locked until the
    transaction ends; None if it is neither, or another worker holds it."""
    found = _OUTBOX_TO_SEND.rows(compiled.connection(), pk=pk)
    return found[0] if found else None


def unread_talk(seat: Seat) -> list:
    """The oldest EMAIL_MESSAGES + 1 lines of talk ``seat`` has not read, oldest first."""
    since = max(seat.talk_read_id, seat.talk_mailed_id)
    return _UNREAD_TALK.rows(compiled.connection(), seat=seat.pk, game=seat.game_id, since=since)


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


def seat_at_table(seat_id: int, game_id: int) -> tuple:
    """The seat ``seat_id`` of game ``game_id`` with its game attached and
    ``record_opened``, the game's state left unread (read when asked for), and
    the game's seats in seat order, the seat among them and each with
    the game attached, in one statement: what a move reads before it takes the
    game's lock. (None, []) if there is no such seat."""
    conn = compiled.connection()
    found = compiled.run_together([(_TABLE_WITHOUT_STATE.sql(conn.vendor), [game_id])], conn)[0]
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


_SEATS = _Statement(
    lambda: (
        f"SELECT {_columns('s', _fields(Seat))} FROM {_quote(Seat._meta.db_table)} s "
        f"WHERE s.{_quote('game_id')} = %s ORDER BY s.{_quote('index')}"
    )
)


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


# The newest events of a game's log (parameters: game, how many).
_NEWEST_EVENTS = _Statement(lambda: _select_events(f"ORDER BY e.{_quote('seq')} DESC LIMIT %s"))
_EVENT_DATA = _Fields((GameEvent._meta.get_field("data"),))


class StoredEvent(Mapping):
    """An event's data as read for a page's log: its seq and type at once, the
    rest decoded when first asked for. A page's log lines are mostly narrated
    already (presenters.NARRATED), so most of a batch is never decoded."""

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


def _events_of(rows: list, conn) -> list:
    return [StoredEvent(seq, kind, text, conn) for seq, kind, text in rows]


def _seat_with_table(seat_id: int, game_id: int, more: list) -> tuple:
    """The seat with its game and ``record_opened``, its game's seats in seat order
    (each with the game attached) and the rows of the ``more`` reads ((sql, params)),
    in one round trip where the database allows it: (seat, seats, [rows of each]), or
    None if there is no such seat."""
    conn = compiled.connection()
    vendor = conn.vendor
    reads = [(_SEAT_LINK.sql(vendor), [seat_id, game_id]), (_SEATS.sql(vendor), [game_id])]
    seat_rows, table_rows, *more_rows = compiled.run_together(reads + more, conn)
    if not seat_rows:
        return None
    seat = _seat_of_link(seat_rows[0], True, conn)
    return seat, _seats(table_rows, seat.game, conn), more_rows


def seat_page(seat_id: int, game_id: int, events: int) -> tuple:
    """What a seat's page reads: the seat with its game and ``record_opened``
    (whether the game's record was ever opened), its game's seats in seat order
    (each with the game attached), the newest ``events`` of its log (StoredEvent,
    newest first) and the newest page of the table talk it may read (TalkMessage,
    newest first, one more than a page holds: talk.page's), as (seat or None, seats,
    events, talk, fingerprint) — the last, the rows the page's poll compares
    (games.core.live.SEAT). On PostgreSQL the five statements go in one round trip
    (client-side binding takes several at once); elsewhere one after the other."""
    conn = compiled.connection()
    found = _seat_with_table(
        seat_id,
        game_id,
        [
            (_NEWEST_EVENTS.sql(conn.vendor), [game_id, events]),
            _NEWEST_TALK.sql_and_params(conn, seat=seat_id, game=game_id),
            live.SEAT.sql_and_params(conn, seat=seat_id, game=game_id),
        ],
    )
    if found is None:
        return None, [], [], [], []
    seat, seats, (event_rows, talk_rows, fingerprint) = found
    events = _events_of(event_rows, conn)
    return seat, seats, events, _NEWEST_TALK.instances(talk_rows, conn), fingerprint


# A game's events a seat has not been told yet: from its notified_seq on, newest first
# (parameters: game, seat).
_NEWS = _Statement(
    lambda: _select_events(
        f"AND e.{_quote('seq')} >= (SELECT s.{_quote('notified_seq')} "
        f"FROM {_quote(Seat._meta.db_table)} s WHERE s.{_quote('id')} = %s) "
        f"ORDER BY e.{_quote('seq')} DESC"
    )
)


def seat_news(seat_id: int, game_id: int) -> tuple:
    """What a seat's email reads: the seat with its game and ``record_opened``, the
    game's seats in seat order (each with the game attached), the events the
    seat has not been told yet (StoredEvent, newest first: events_since's) and the
    oldest table talk it has not read (unread_talk's), as (seat or None, seats,
    news, talk); on PostgreSQL in one round trip."""
    conn = compiled.connection()
    news = (_NEWS.sql(conn.vendor), [game_id, seat_id])
    talk = _UNREAD_TALK_STORED.sql_and_params(conn, seat=seat_id, game=game_id)
    found = _seat_with_table(seat_id, game_id, [news, talk])
    if found is None:
        return None, [], [], []
    seat, seats, (event_rows, talk_rows) = found
    return seat, seats, _events_of(event_rows, conn), _UNREAD_TALK_STORED.instances(talk_rows, conn)


# Stand-ins for the seat and the game of seat_news's reads, which read them from the
# outbox row instead (outbox_email_with_news).
_EMAILS_SEAT, _EMAILS_GAME = -7_000_000_101, -7_000_000_102


def _from_outbox_row(sql: str, params: list) -> tuple:
    """``sql`` with each stand-in parameter for the email's seat or game replaced by
    a subquery reading it from the outbox row (whose id is then the parameter)."""
    outbox = f"{_quote(OutboxEmail._meta.db_table)} ob WHERE ob.{_quote('id')} = %s"
    read = {
        _EMAILS_SEAT: f"(SELECT ob.{_quote('seat_id')} FROM {outbox})",
        _EMAILS_GAME: f"(SELECT ob.{_quote('game_id')} FROM {outbox})",
    }
    values = iter(params)
    slots = []

    def replaced(match) -> str:
        if match.group() == "%%":
            return "%%"
        value = next(values)
        slots.append(value)
        return read.get(value, "%s") if type(value) is int else "%s"

    return compiled.PARAMETER.sub(replaced, sql), slots


@cache
def _news_from_outbox(vendor: str) -> tuple:
    """seat_news's reads in one round trip, from the outbox row: (sql, slots), each
    slot None where the row's id goes."""
    conn = compiled.connection()
    reads = [
        (_SEAT_LINK.sql(vendor), [_EMAILS_SEAT, _EMAILS_GAME]),
        (_SEATS.sql(vendor), [_EMAILS_GAME]),
        (_NEWS.sql(vendor), [_EMAILS_GAME, _EMAILS_SEAT]),
        _UNREAD_TALK_STORED.sql_and_params(conn, seat=_EMAILS_SEAT, game=_EMAILS_GAME),
    ]
    statements, slots = [], []
    for sql, params in reads:
        statement, statement_slots = _from_outbox_row(sql, params)
        statements.append(statement)
        slots += [None if v in (_EMAILS_SEAT, _EMAILS_GAME) else v for v in statement_slots]
    return compiled.BATCHED.join(statements), slots


def outbox_email_with_news(pk: int) -> tuple:
    """outbox_email_to_send's row and, for a seat's email, seat_news's reads, as
    (email or None, (seat or None, seats, news, talk)). On PostgreSQL in one round
    trip, the seat's reads taking the seat and the game from the row (for the bound
    on an email sent, ``bench_moves``); elsewhere the row, then seat_news if it is
    to be sent."""
    conn = compiled.connection()
    if not compiled.pipelines(conn):
        email = outbox_email_to_send(pk)
        if email is None or email.seat_id is None:
            return email, (None, [], [], [])
        return email, seat_news(email.seat_id, email.game_id)
    email_sql, email_params = _OUTBOX_TO_SEND.sql_and_params(conn, pk=pk)
    news_sql, slots = _news_from_outbox(conn.vendor)
    email_rows, seat_rows, table_rows, event_rows, talk_rows = compiled.run_together(
        [(email_sql, email_params), (news_sql, [pk if s is None else s for s in slots])], conn
    )
    email = _OUTBOX_TO_SEND.instances(email_rows, conn)[0] if email_rows else None
    if email is None or not seat_rows:
        return email, (None, [], [], [])
    seat = _seat_of_link(seat_rows[0], True, conn)
    seats = _seats(table_rows, seat.game, conn)
    talk = _UNREAD_TALK_STORED.instances(talk_rows, conn)
    return email, (seat, seats, _events_of(event_rows, conn), talk)
