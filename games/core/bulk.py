"""Set-wide writes for the deadline path, where a thousand games may move on in
the same second: hand-written for the bound on same-second deadlines' lateness
(``manage.py bench_deadlines``), and for the bound on a move's statements.

On PostgreSQL, from FAST_FROM rows on, rows go in with COPY and are updated
from a temporary table COPY filled: the ORM's multi-row INSERT and an UPDATE per
row cost several times more, mostly in building and binding statements.
Otherwise the ORM's bulk_create and one UPDATE per row do the same. Call inside
a transaction. ``insert_new`` writes a move's or a deadline batch's owed emails
in one statement on PostgreSQL (the ORM needs a lookup first to learn which are
new, with their keys): a move stays within its statements.

``ready()`` turns objects into COPY rows ahead of time (a deadline's worker does
it before the deadline), so that writing them is little more than sending them.
"""

import json
import uuid

from django.db import connection, models
from django.utils import timezone

from games.core import compiled
from games.fields import JSONTextField

# Below this many rows the plain statements are cheaper than COPY's set-up (a
# temporary table, for an update): a single move or deadline takes that path.
FAST_FROM = 20


def _fast(objs: list) -> bool:
    return connection.vendor == "postgresql" and len(objs) >= FAST_FROM


def stamped(field) -> bool:
    """Filled with the time of writing (auto_now, auto_now_add), not of ready()."""
    return getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)


def column_value(field, obj):
    """A field's in-memory value as COPY takes it: psycopg adapts plain values
    itself; JSON goes as its text. Cheaper than the ORM's get_db_prep_save,
    which matters at tens of thousands of values."""
    value = getattr(obj, field.attname)
    if isinstance(field, models.JSONField) and value is not None:
        return json.dumps(value, cls=field.encoder)
    if isinstance(field, JSONTextField):
        return field.get_prep_value(value)
    return value


def _row(obj, fields: list, names: tuple | None) -> list:
    """The object's COPY row (None where the time of writing goes), kept on it
    by ready() for the same set of fields."""
    kept = getattr(obj, "_bulk_row", None)
    if kept is not None and kept[0] == names:
        return kept[1]
    return [None if stamped(f) and names is None else column_value(f, obj) for f in fields]


def ready(objs: list, names: list | None = None) -> None:
    """Work out the COPY rows of insert(objs) (``names`` None) or of
    update(objs, names) now, to be written later."""
    if not objs:
        return
    meta = objs[0]._meta
    key = None if names is None else tuple(names)
    fields = compiled.inserted_fields(meta.model) if names is None else _updated(meta, names)
    for obj in objs:
        obj._bulk_row = (key, _row(obj, fields, key))


def _updated(meta, names: list) -> list:
    return [meta.pk] + [meta.get_field(name) for name in names]


def insert(objs: list) -> None:
    """INSERT model instances of one model, whose primary keys are left unset
    (the objects may not learn them: callers that need them read them back by a
    unique key). auto_now and auto_now_add fields get the time of writing."""
    if not objs:
        return
    if not _fast(objs):
        compiled.insert(objs)
        return
    meta = objs[0]._meta
    fields = compiled.inserted_fields(meta.model)
    now = timezone.now()
    stamped_at = [i for i, f in enumerate(fields) if stamped(f)]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for obj in objs:
            row = _row(obj, fields, None)
            for i in stamped_at:
                row[i] = now
            copy.write_row(row)


def insert_new(objs: list, unique: str) -> list:
    """INSERT the instances whose ``unique`` field value is not in the table yet;
    return those, with their primary keys. On PostgreSQL one statement (the
    columns sent as arrays, ON CONFLICT DO NOTHING ... RETURNING); otherwise a
    lookup and bulk_create."""
    if not objs:
        return []
    model = type(objs[0])
    if connection.vendor != "postgresql":
        taken = set(
            model.objects.filter(
                **{f"{unique}__in": [getattr(o, unique) for o in objs]}
            ).values_list(unique, flat=True)
        )
        return model.objects.bulk_create([o for o in objs if getattr(o, unique) not in taken])
    if _fast(objs):
        return _insert_new_copied(objs, unique)
    meta = model._meta
    fields = compiled.inserted_fields(meta.model)
    now = timezone.now()
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
    rows = [_row(obj, fields, None) for obj in objs]
    values = [[now if stamped(f) else row[i] for row in rows] for i, f in enumerate(fields)]
    unique_column = quote(meta.get_field(unique).column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) SELECT * FROM unnest({arrays}) "
            f"ON CONFLICT ({unique_column}) DO NOTHING "
            f"RETURNING {unique_column}, {quote(meta.pk.column)}",
            values,
        )
        return _created(objs, unique, dict(cursor.fetchall()))


def _insert_new_copied(objs: list, unique: str) -> list:
    """insert_new for many rows (a deadline's thousands of emails): COPY into a
    temporary table, then one INSERT ... SELECT: the rows readied ahead (ready())
    are sent as they are, where arrays as parameters cost a dump of every value."""
    meta = objs[0]._meta
    fields = compiled.inserted_fields(meta.model)
    now = timezone.now()
    stamped_at = [i for i, f in enumerate(fields) if stamped(f)]

    def rows():
        for obj in objs:
            row = _row(obj, fields, None)
            for i in stamped_at:
                row[i] = now
            yield row

    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    unique_column = quote(meta.get_field(unique).column)
    with connection.cursor() as cursor:
        temp = _copied_to_temp(cursor, meta, fields, rows())
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) SELECT {columns} FROM {temp} "
            f"ON CONFLICT ({unique_column}) DO NOTHING "
            f"RETURNING {unique_column}, {quote(meta.pk.column)}"
        )
        return _created(objs, unique, dict(cursor.fetchall()))


def _created(objs: list, unique: str, created: dict) -> list:
    """The objects whose ``unique`` value is a key of ``created`` (value -> primary
    key), given their primary keys."""
    new = [obj for obj in objs if getattr(obj, unique) in created]
    for obj in new:
        obj.pk = created[getattr(obj, unique)]
        obj._state.adding = False
    return new


def _copied_to_temp(cursor, meta, fields: list, rows) -> str:
    """A temporary table with the table's column types for ``fields``, gone at the
    end of the transaction, filled with ``rows`` by COPY: its quoted name."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    temp = quote(f"bulk_{uuid.uuid4().hex}")
    cursor.execute(
        f"CREATE TEMPORARY TABLE {temp} ON COMMIT DROP AS "
        f"SELECT {columns} FROM {quote(meta.db_table)} WITH NO DATA"
    )
    with cursor.cursor.copy(f"COPY {temp} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    return temp


def update(objs: list, names: list) -> None:
    """UPDATE the fields ``names`` of each (saved) instance to its in-memory values
    (auto_now fields included: name them, with the value they should have)."""
    if not objs:
        return
    model = type(objs[0])
    if not _fast(objs):
        for obj in objs:
            model.objects.filter(pk=obj.pk).update(**{n: getattr(obj, n) for n in names})
        return
    meta = model._meta
    fields = _updated(meta, names)
    key = tuple(names)
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    assignments = ", ".join(f"{quote(f.column)} = t.{quote(f.column)}" for f in fields[1:])
    pk = quote(meta.pk.column)
    with connection.cursor() as cursor:
        temp = _copied_to_temp(cursor, meta, fields, (_row(obj, fields, key) for obj in objs))
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM {temp} t WHERE {table}.{pk} = t.{pk}"
        )
