"""Model fields of our own."""

import json

from django.core.exceptions import EmptyResultSet
from django.db import models


class JSONTextField(models.TextField):
    """JSON kept as text. For the engine snapshot, which is only ever read and
    written whole: PostgreSQL parses jsonb several times slower than it stores
    text (COPY of 500 snapshots of 3.7 KB: 230 ms as jsonb, 42 ms as text), and
    prints it back as text on every read."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def to_python(self, value):
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value):
        return None if value is None else json.dumps(value)

    def value_to_string(self, obj):
        return json.dumps(self.value_from_object(obj))


class AnyOf(models.lookups.In):
    """``field__any=[...]`` (values; ids for a foreign key): ``field IN (...)``,
    sent as one array on PostgreSQL (``field = ANY(%s)``). For the deadline path's
    sets of hundreds of ids (``manage.py bench_deadlines``): the driver parses a
    statement of hundreds of placeholders in Python on every run (too long for its
    cache), about 12 ms for 750 ids, where the database finds them in under 1 ms."""

    lookup_name = "any"

    def as_postgresql(self, compiler, connection):
        if self.rhs_is_direct_value():
            lhs, lhs_params = self.process_lhs(compiler, connection)
            field = self.lhs.output_field
            values = [field.get_db_prep_value(v, connection) for v in self.rhs if v is not None]
            if not values:
                raise EmptyResultSet
            return f"{lhs} = ANY(%s::{field.cast_db_type(connection)}[])", [*lhs_params, values]
        return self.as_sql(compiler, connection)


models.Field.register_lookup(AnyOf)
models.ForeignObject.register_lookup(AnyOf)  # its lookups are its own, not Field's
