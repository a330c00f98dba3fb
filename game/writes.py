"""A match's next version and its event, written together and only if the row is still as the
request that made them read it.

The players' requests all queue on one thread per process, and under load every round trip to
the database costs that thread a wait for the interpreter lock the event loop holds: a stroke
is worth the fewest. On PostgreSQL the row's update and the event's insert are one statement
(a data-modifying `WITH`), atomic by itself, so a stroke costs two round trips in all (this
and the read of the row), not five (begin, the locked read, update, insert, commit). Django's
ORM cannot say `UPDATE … RETURNING` inside a `WITH`, hence the SQL here, built from the models'
own tables, columns and types. Other databases (SQLite) write the same two rows in a
transaction of their own.
"""

from __future__ import annotations

from typing import Any

from django.db import connections, router, transaction
from django.db.models import Field

from game.models import Match, MatchEvent

# What a request's result depends on that a writer other than a request may change without a
# new version: the arrivals and the start (game/presence.py, the shot clock's deadline), the
# status (a no-show's abandonment, club/noshows.py). The version covers the rest.
READ = ("version", "status", "started", "arrived_a", "arrived_b")
# What a new version changes in the row.
WRITTEN = ("version", "state", "status", "deadline")


def as_read(row: Match) -> dict[str, Any]:
    """The values of the row that a new version written from it must still find."""
    return {name: getattr(row, name) for name in READ}


def advance(row: Match, read: dict[str, Any], event: MatchEvent) -> bool:
    """Store `row`'s written fields and `event` if the row in the database still has `read`
    (`as_read` of the row the request began from); False, and nothing written, otherwise."""
    alias = router.db_for_write(Match)
    if connections[alias].vendor == "postgresql":
        return _in_one_statement(alias, row, read, event)
    with transaction.atomic(using=alias, savepoint=False):
        written = {name: getattr(row, name) for name in WRITTEN}
        if not Match.objects.using(alias).filter(pk=row.pk, **read).update(**written):
            return False
        event.save(using=alias, force_insert=True)
    return True


def _in_one_statement(alias: str, row: Match, read: dict[str, Any], event: MatchEvent) -> bool:
    connection = connections[alias]
    name = connection.ops.quote_name
    params: list[Any] = []

    def value(field: Field[Any, Any], of: Any) -> str:
        # Cast to the column's type, so that a NULL or a server-side bound parameter has one.
        params.append(field.get_db_prep_save(of, connection))
        return f"CAST(%s AS {field.db_type(connection)})"

    def column(field: Field[Any, Any]) -> str:
        assert field.column is not None  # a concrete field's
        return name(field.column)

    def is_(field: str, of: Any, op: str = "=") -> str:
        found = _field(Match, field)
        return f"{column(found)} {op} {value(found, of)}"

    pk = column(_field(Match, "id"))
    sets = ", ".join(is_(f, getattr(row, f)) for f in WRITTEN)
    where = " AND ".join(
        [is_("id", row.pk)] + [is_(f, v, "IS NOT DISTINCT FROM") for f, v in read.items()]
    )
    # The event's columns but its key; its match is the updated row's.
    fields = [f for f in MatchEvent._meta.concrete_fields if f.name not in ("id", "match")]
    values = ", ".join(value(f, f.pre_save(event, add=True)) for f in fields)
    columns = ", ".join(column(f) for f in [_field(MatchEvent, "match"), *fields])
    sql = (
        f"WITH moved AS (UPDATE {name(Match._meta.db_table)} SET {sets} WHERE {where}"
        f" RETURNING {pk}) INSERT INTO {name(MatchEvent._meta.db_table)} ({columns})"
        f" SELECT moved.{pk}, {values} FROM moved"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        written: bool = cursor.rowcount == 1
    return written


def _field(model: type[Match] | type[MatchEvent], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field
