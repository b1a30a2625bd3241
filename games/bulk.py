"""Set-wide writes for the deadline path, where a thousand games may move on in
the same second.

On PostgreSQL, from FAST_FROM rows on, rows go in with COPY and are updated
from a temporary table COPY filled: the ORM's multi-row INSERT and an UPDATE per
row cost several times more, mostly in building and binding statements
(``manage.py bench_deadlines`` measures the whole path). Otherwise the ORM's
bulk_create and one UPDATE per row do the same. Call inside a transaction.
"""

import json
import uuid

from django.db import connection, models

# Below this many rows the plain statements are cheaper than COPY's set-up (a
# temporary table, for an update): a single move or deadline takes that path.
FAST_FROM = 20


def _fast(objs: list) -> bool:
    return connection.vendor == "postgresql" and len(objs) >= FAST_FROM


def _value(field, obj, add: bool):
    """A field's value as COPY takes it (auto_now and friends applied): psycopg
    adapts plain values itself; JSON goes as its text. Cheaper than the ORM's
    get_db_prep_save, which matters at tens of thousands of values."""
    value = field.pre_save(obj, add)
    if isinstance(field, models.JSONField) and value is not None:
        return json.dumps(value, cls=field.encoder)
    return value


def insert(objs: list) -> None:
    """INSERT model instances of one model, whose primary keys are left unset
    (the objects do not learn them: callers that need them read them back by a
    unique key)."""
    if not objs:
        return
    if not _fast(objs):
        type(objs[0]).objects.bulk_create(objs)
        return
    meta = objs[0]._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for obj in objs:
            copy.write_row([_value(f, obj, add=True) for f in fields])


def update(objs: list, names: list) -> None:
    """UPDATE the fields ``names`` of each (saved) instance to its in-memory values."""
    if not objs:
        return
    model = type(objs[0])
    if not _fast(objs):
        for obj in objs:
            model.objects.filter(pk=obj.pk).update(**{n: getattr(obj, n) for n in names})
        return
    meta = model._meta
    fields = [meta.pk] + [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    table, temp = quote(meta.db_table), quote(f"bulk_{uuid.uuid4().hex}")
    assignments = ", ".join(f"{quote(f.column)} = t.{quote(f.column)}" for f in fields[1:])
    pk = quote(meta.pk.column)
    with connection.cursor() as cursor:
        # Same column types as the table; gone at the end of the transaction.
        cursor.execute(
            f"CREATE TEMPORARY TABLE {temp} ON COMMIT DROP AS "
            f"SELECT {columns} FROM {table} WITH NO DATA"
        )
        with cursor.cursor.copy(f"COPY {temp} ({columns}) FROM STDIN") as copy:
            for obj in objs:
                copy.write_row([_value(f, obj, add=False) for f in fields])
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM {temp} t WHERE {table}.{pk} = t.{pk}"
        )
