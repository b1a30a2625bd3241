"""UPDATEs of one row that an email sent makes (claim, answer, what its seat was
told), written once per database and sent together where the database allows it.

For the bound on an email sent (``bench_moves``' "email sent" p50, issue 39): the
ORM's ``filter(...).update(...)`` builds and compiles its statement on every call,
which costs more than the database spends running it. Here the WHERE is the one a
queryset states (its rule kept in its one place), compiled once with stand-ins for
its named parameters as page_reads._Compiled does; the SET names its fields, each
value prepared as the ORM's update prepares it (``get_db_prep_save``).
"""

from django.db import transaction

from games.core.page_reads import BATCHED, _connection, _takes_several_statements

# Stand-ins for a WHERE's named parameters: within a small counter's range (the ORM
# refuses a comparison with a value its field cannot hold), and no constant of these
# WHEREs is one of them (checked when compiled).
_STAND_IN = 32_001


class CompiledUpdate:
    """``UPDATE`` the rows ``where(**named)`` selects, setting ``fields`` (names)."""

    def __init__(self, model, fields: tuple, where):
        self._model, self._where, self._by_vendor = model, where, {}
        self._fields = tuple(model._meta.get_field(name) for name in fields)

    def _compiled(self, conn) -> tuple:
        found = self._by_vendor.get(conn.vendor)
        if found is None:
            code = self._where.__code__
            names = code.co_varnames[: code.co_argcount]
            stand_ins = {name: _STAND_IN + i for i, name in enumerate(names)}
            query = self._where(**stand_ins).query
            where, params = query.get_compiler(connection=conn).compile(query.where)
            named = {value: name for name, value in stand_ins.items()}
            # (A driver may wrap an int in a subclass of its own, psycopg's Int2.)
            numbers = {
                i for i, p in enumerate(params) if isinstance(p, int) and type(p) is not bool
            }
            slots = [(named.get(int(p)) if i in numbers else None, p) for i, p in enumerate(params)]
            named_slots = [slots[i][0] for i in numbers]
            if None in named_slots or set(named_slots) != set(names):
                raise TypeError(f"{self._where} does not compile with its parameters")
            quote = conn.ops.quote_name
            sets = ", ".join(f"{quote(f.column)} = %s" for f in self._fields)
            sql = f"UPDATE {quote(self._model._meta.db_table)} SET {sets} WHERE {where}"
            found = self._by_vendor[conn.vendor] = (sql, slots)
        return found

    def sql_and_params(self, conn, values: dict, **named) -> tuple:
        """The statement and its parameters: ``values`` by field name, ``named`` the
        WHERE's."""
        sql, slots = self._compiled(conn)
        params = [f.get_db_prep_save(values[f.name], connection=conn) for f in self._fields]
        return sql, params + [named[name] if name else constant for name, constant in slots]

    def run(self, values: dict, **named) -> int:
        """Run alone: the number of rows updated."""
        conn = _connection()
        with conn.cursor() as cursor:
            cursor.execute(*self.sql_and_params(conn, values, **named))
            return cursor.rowcount


def run_in_one_commit(updates: list) -> int:
    """Each (CompiledUpdate, values, named), committed together: the number of rows
    the first updated. On PostgreSQL with client-side binding in one round trip,
    which the server runs as one transaction (no BEGIN and COMMIT of their own);
    elsewhere one by one in a transaction."""
    conn = _connection()
    statements = [update.sql_and_params(conn, values, **named) for update, values, named in updates]
    if _takes_several_statements(conn):
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
