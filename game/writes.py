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

import functools
from typing import Any

from django.db import connections, router, transaction
from django.db.models import Field

from game.models import Match, MatchEvent

# What a request's result depends on that a writer other than a request may change without a
# new version: the arrivals and the start (game/presence.py, the shot clock's deadline), the
# status (a no-show's abandonment, club/noshows.py), an agreed start time (a fixture's). The
# version covers the rest.
READ = ("version", "status", "started", "arrived_a", "arrived_b", "not_before")
# What a new version changes in the row (`position`: the index of live positions,
# game/positions.py, kept in the same statement at the cost of its key's bytes).
WRITTEN = ("version", "state", "status", "deadline", "turn_began", "position")


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
    sql, event_fields = _statement(alias)
    values = [(_field(Match, f), getattr(row, f)) for f in WRITTEN]
    values += [(_field(Match, "id"), row.pk)] + [(_field(Match, f), read[f]) for f in READ]
    values += [(f, f.pre_save(event, add=True)) for f in event_fields]  # `created` as a save
    params = [field.get_db_prep_save(of, connection) for field, of in values]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        written: bool = cursor.rowcount == 1
    return written


@functools.cache
def _statement(alias: str) -> tuple[str, list[Field[Any, Any]]]:
    """The statement's text (its values in the order `_in_one_statement` gives them: the
    written fields, the key, the read fields, the event's fields) and the event's fields; made
    once per database, off the strokes' path."""
    connection = connections[alias]
    name = connection.ops.quote_name

    def column(field: Field[Any, Any]) -> str:
        assert field.column is not None  # a concrete field's
        return name(field.column)

    def value(field: Field[Any, Any]) -> str:
        # Cast to the column's type, so that a NULL or a server-side bound parameter has one.
        return f"CAST(%s AS {field.db_type(connection)})"

    def compared(field: str, op: str) -> str:
        found = _field(Match, field)
        return f"{column(found)} {op} {value(found)}"

    pk = column(_field(Match, "id"))
    sets = ", ".join(compared(f, "=") for f in WRITTEN)
    unchanged = [compared(f, "IS NOT DISTINCT FROM") for f in READ]
    where = " AND ".join([compared("id", "="), *unchanged])
    # The event's columns but its key; its match is the updated row's.
    fields = [f for f in MatchEvent._meta.concrete_fields if f.name not in ("id", "match")]
    columns = ", ".join(column(f) for f in [_field(MatchEvent, "match"), *fields])
    sql = (
        f"WITH moved AS (UPDATE {name(Match._meta.db_table)} SET {sets} WHERE {where}"
        f" RETURNING {pk}) INSERT INTO {name(MatchEvent._meta.db_table)} ({columns})"
        f" SELECT moved.{pk}, {', '.join(value(f) for f in fields)} FROM moved"
    )
    return sql, fields


def _field(model: type[Match] | type[MatchEvent], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field
