"""Statements written once and kept, for the bounds on a page, a move and an email
sent (``manage.py bench_moves``, issue 39): building and compiling a queryset's
statement costs the ORM more than the database spends running it, on every call.

The rule a statement states stays in its one place, as a queryset: a read's
(page_reads.CompiledRead) or an UPDATE's WHERE (CompiledUpdate) is compiled by the
ORM once per database, with stand-ins for its named parameters that each run
replaces (``named_slots``). An UPDATE's SET values and an INSERT's values are
prepared as the ORM prepares them (``get_db_prep_save``, ``pre_save``).
"""

import re
from contextlib import nullcontext
from datetime import UTC, datetime
from functools import cache, lru_cache, partial

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

# Between statements sent in one round trip (the benchmark counts them apart).
BATCHED = ";\n"

# Stand-ins for a compiled statement's named parameters: within a small counter's
# range (the ORM refuses a comparison with a value its field cannot hold), and no
# constant of these statements is one of them. A text parameter's: TEXT_STAND_IN
# and its number (``stand_ins``' ``texts``).
STAND_IN = 32_001
TEXT_STAND_IN = "\x00stand-in-{}\x00"


def connection():
    """The thread's own connection (the ``connection`` proxy looks it up on every
    attribute)."""
    return connections[DEFAULT_DB_ALIAS]


def takes_several_statements(conn) -> bool:
    """PostgreSQL with client-side binding (Django's default): a prepared
    statement (``server_side_binding``) holds one statement only."""
    options = conn.settings_dict.get("OPTIONS", {})
    return conn.vendor == "postgresql" and options.get("server_side_binding") is not True


def stand_ins(build, texts: tuple = ()) -> dict:
    """A stand-in value for each parameter of the function ``build``; a text one for
    those named in ``texts``."""
    code = build.__code__
    names = code.co_varnames[: code.co_argcount]
    return {
        name: TEXT_STAND_IN.format(i) if name in texts else STAND_IN + i
        for i, name in enumerate(names)
    }


def named_slots(params: list, given: dict, what) -> list:
    """The compiled ``params`` as slots: (name, None) where a stand-in of ``given``
    stands, (None, constant) elsewhere. TypeError if a name went missing."""
    named = {value: name for name, value in given.items()}
    slots = []
    for param in params:
        # (A driver may wrap an int in a subclass of its own: psycopg's Int2.)
        number = isinstance(param, int) and not isinstance(param, bool)
        key = int(param) if number else param if type(param) is str else None
        name = named.get(key) if key is not None else None
        slots.append((name, None if name else param))
    if {name for name, _ in slots if name} != set(given):
        raise TypeError(f"{what} does not compile with its parameters")
    return slots


def stored_time(value):
    """A time column of a raw row as the ORM would read it: SQLite answers text, and
    times are stored in UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def filled(slots: list, named: dict) -> list:
    return [named[name] if name else constant for name, constant in slots]


class CompiledRows:
    """The rows of values ``build(**named)`` (a queryset of ``values_list``) reads,
    compiled by the ORM once per database with stand-ins for its parameters, ints
    or those named in ``texts``; run as a statement the server keeps prepared
    (``run_together``): planning it costs PostgreSQL more than running it."""

    def __init__(self, build, texts: tuple = ()):
        self._build, self._texts, self._by_vendor = build, texts, {}

    def _compiled(self, conn) -> tuple:
        found = self._by_vendor.get(conn.vendor)
        if found is None:
            given = stand_ins(self._build, self._texts)
            sql, params = self._build(**given).query.sql_with_params()
            found = self._by_vendor[conn.vendor] = (sql, named_slots(params, given, self._build))
        return found

    def sql_and_params(self, conn, **values) -> tuple:
        sql, slots = self._compiled(conn)
        return sql, filled(slots, values)

    def rows(self, **values) -> list:
        conn = connection()
        return run_together([self.sql_and_params(conn, **values)], conn)[0]


class CompiledUpdate:
    """``UPDATE`` the rows ``where(**named)`` selects, setting ``fields`` (names)."""

    def __init__(self, model, fields: tuple, where):
        self._model, self._where, self._by_vendor = model, where, {}
        self._fields = tuple(model._meta.get_field(name) for name in fields)

    def _compiled(self, conn) -> tuple:
        found = self._by_vendor.get(conn.vendor)
        if found is None:
            given = stand_ins(self._where)
            query = self._where(**given).query
            where, params = query.get_compiler(connection=conn).compile(query.where)
            quote = conn.ops.quote_name
            sets = ", ".join(f"{quote(f.column)} = %s" for f in self._fields)
            sql = f"UPDATE {quote(self._model._meta.db_table)} SET {sets} WHERE {where}"
            found = self._by_vendor[conn.vendor] = (sql, named_slots(params, given, self._where))
        return found

    def sql_and_params(self, conn, values: dict, **named) -> tuple:
        """The statement and its parameters: ``values`` by field name, ``named`` the
        WHERE's."""
        sql, slots = self._compiled(conn)
        params = [f.get_db_prep_save(values[f.name], connection=conn) for f in self._fields]
        return sql, params + filled(slots, named)

    def run(self, values: dict, **named) -> int:
        """Run alone: the number of rows updated."""
        conn = connection()
        with conn.cursor() as cursor:
            cursor.execute(*self.sql_and_params(conn, values, **named))
            return cursor.rowcount


@cache
def updates_of(model, fields: tuple, where) -> CompiledUpdate:
    """One CompiledUpdate per set of fields (a module-level ``where``)."""
    return CompiledUpdate(model, fields, where)


def run_in_one_commit(updates: list) -> int:
    """Each (CompiledUpdate, values, named), committed together: the number of rows
    the first updated. On PostgreSQL with client-side binding in one round trip,
    which the server runs as one transaction (no BEGIN and COMMIT of their own);
    elsewhere one by one in a transaction."""
    conn = connection()
    statements = [update.sql_and_params(conn, values, **named) for update, values, named in updates]
    if takes_several_statements(conn):
        with conn.cursor() as cursor:
            cursor.execute(
                BATCHED.join(sql for sql, _ in statements),
                [value for _, params in statements for value in params],
            )
            return cursor.rowcount  # the first statement's
    with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
        counts = []
        for sql, params in statements:
            cursor.execute(sql, params)
            counts.append(cursor.rowcount)
        return counts[0]


def inserted_fields(model) -> tuple:
    """The fields an INSERT of a new ``model`` row writes: all but a primary key the
    database numbers."""
    return tuple(
        f for f in model._meta.concrete_fields if not isinstance(f, models.fields.AutoFieldMixin)
    )


@cache
def _insert_sql(model, rows: int, vendor: str) -> str:
    conn = connection()
    quote = conn.ops.quote_name
    fields = inserted_fields(model)
    columns = ", ".join(quote(f.column) for f in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"


def insert_statement(objs: list, conn) -> tuple:
    """(sql, params) of one INSERT of the new instances ``objs`` of one model, their
    values as the ORM's save prepares them (auto_now filled in). Their primary keys
    are left unset."""
    model = type(objs[0])
    values = [
        f.get_db_prep_save(f.pre_save(obj, add=True), connection=conn)
        for obj in objs
        for f in inserted_fields(model)
    ]
    return _insert_sql(model, len(objs), conn.vendor), values


def insert(objs: list) -> None:
    """INSERT the new instances ``objs`` of one model, primary keys left unset: in
    one statement, or as few as the database's cap on parameters allows."""
    conn = connection()
    size = conn.ops.bulk_batch_size(inserted_fields(type(objs[0])), objs)
    with conn.cursor() as cursor:
        for start in range(0, len(objs), size):
            cursor.execute(*insert_statement(objs[start : start + size], conn))
    for obj in objs:
        obj._state.adding = False


def insert_and_update(objs: list, update: CompiledUpdate, values: dict, **named) -> int:
    """INSERT the new instances ``objs`` and run ``update``: the number of rows
    updated. On PostgreSQL one statement (the INSERT a data-modifying WITH of the
    UPDATE): a move writes its events and its game's row so, for the bound on a
    move's statements (at most five). Both writes happen even if no row is updated:
    call inside a transaction, and roll it back then."""
    conn = connection()
    sql, params = update.sql_and_params(conn, values, **named)
    if objs and conn.vendor == "postgresql":
        insert_sql, insert_params = insert_statement(objs, conn)
        sql, params = f"WITH inserted AS ({insert_sql}) {sql}", [*insert_params, *params]
    elif objs:
        insert(objs)
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        updated = cursor.rowcount
    for obj in objs:
        obj._state.adding = False
    return updated


# A statement's parameters, and its escaped percent signs (%%), which take none.
PARAMETER = re.compile(r"%%|%s")


def run_together(reads: list, conn) -> list:
    """Each (sql, params) read's rows (a read's sql may hold several statements,
    joined by BATCHED: a set of rows each). On PostgreSQL in one round
    trip, each statement prepared (_pipelined); elsewhere one by one."""
    if pipelines(conn):
        return _pipelined(reads, conn)
    results = []
    with conn.cursor() as cursor:
        for sql, params in reads:
            cursor.execute(sql, params)
            results.append(cursor.fetchall())
    return results


def pipelines(conn) -> bool:
    """PostgreSQL: psycopg sends several statements in one round trip, whichever side
    binds their parameters."""
    return conn.vendor == "postgresql"


@lru_cache(maxsize=64)
def _split(sql: str) -> tuple:
    """``sql``'s statements (BATCHED apart), each with how many parameters it takes:
    worked out once per statement text, not on every page."""
    return tuple(
        (statement, sum(1 for token in PARAMETER.findall(statement) if token == "%s"))
        for statement in sql.split(BATCHED)
    )


def _statements(reads: list) -> list:
    """``reads`` as (sql, params), a statement each: BATCHED apart, each with its own
    parameters."""
    found = []
    for sql, params in reads:
        values = iter(params)
        for statement, taken in _split(sql):
            found.append((statement, [next(values) for _ in range(taken)]))
    return found


def _pipelined(reads: list, conn) -> list:
    """Each statement's rows, sent in one round trip (several in psycopg's pipeline
    mode), each a statement the server keeps prepared on this connection: parsing
    and planning these reads cost the server more than running them (the page's,
    the move's and the email's p50, bench_moves). Unless the connection's
    ``prepare_threshold`` is None (Django's default, which settings.py changes:
    docs/operations.md says when to keep it). Logged as one query, through the
    connection's execute wrappers, as a cursor's execute is."""
    statements = _statements(reads)
    sql = BATCHED.join(statement for statement, _ in statements)
    params = [value for _, values in statements for value in values]

    def run(sql, params, many, context) -> list:
        driver = conn.connection
        cursors = [psycopg.Cursor(driver) for _ in statements]  # bound on the server
        with driver.pipeline() if len(statements) > 1 else nullcontext():
            for cursor, (statement, values) in zip(cursors, statements, strict=True):
                cursor.execute(statement, values, prepare=True)
        return [cursor.fetchall() for cursor in cursors]

    with conn.cursor() as cursor:
        for wrapper in reversed(conn.execute_wrappers):
            run = partial(wrapper, run)
        logged = cursor.debug_sql(sql, params) if conn.queries_logged else nullcontext()
        with logged, conn.wrap_database_errors:
            conn.validate_no_broken_transaction()
            return run(sql, params, False, {"connection": conn, "cursor": cursor})
