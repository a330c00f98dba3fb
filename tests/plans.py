"""What a query reads, from the database's own plan: a read on a hot path of a table that grows
for ever (matches, their figures) must come from an index that holds what it asks for, not walk
the whole table. Measured on SQLite (EXPLAIN QUERY PLAN) and PostgreSQL (EXPLAIN, with the
sequential scan made as dear as it can be, so that a tiny test table still shows whether an
index could answer)."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext


def plans(run: Callable[[], object], table: str) -> list[tuple[str, list[str]]]:
    """Each query `run` makes that names `table`, with its plan's lines."""
    with CaptureQueriesContext(connection) as context:
        run()
    out = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET enable_seqscan = off")
        try:
            for query in context.captured_queries:
                sql = query["sql"]
                if f'"{table}"' not in sql or not sql.lstrip().upper().startswith("SELECT"):
                    continue
                prefix = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
                cursor.execute(prefix + sql)
                out.append((sql, [str(row[-1]) for row in cursor.fetchall()]))
        finally:
            if connection.vendor == "postgresql":
                cursor.execute("RESET enable_seqscan")
    return out


def whole_reads(
    run: Callable[[], object], table: str, partial: tuple[str, ...] = ()
) -> list[tuple[str, list[str]]]:
    """The queries of `run` that read the whole of `table` (a walk of the table, or of an
    index over all its rows with no condition on it; on SQLite, a sort of rows found by an
    index that is not one of the `partial` ones), with their plans:
    none, on a hot path. Walking one of the `partial` indexes (which hold only the rows that
    matter: the live matches) is not reading the whole table. A search by a condition is
    taken as bounded: where its rows grow with time too (a member's history), check the
    index it uses by name (`plans`)."""
    found = plans(run, table)
    assert found, f"{table} was not read at all"
    return [(sql, lines) for sql, lines in found if _whole(lines, table, partial)]


def _whole(lines: list[str], table: str, partial: tuple[str, ...]) -> bool:
    if connection.vendor == "sqlite":
        sorted_, bounded = False, True
        for line in lines:
            sorted_ = sorted_ or line == "USE TEMP B-TREE FOR ORDER BY"
            access = re.match(
                rf"(SCAN|SEARCH) {table}\b(?: USING (?:COVERING )?INDEX (\S+))?", line
            )
            if access is None or "INTEGER PRIMARY KEY" in line:
                continue
            if access.group(2) not in partial:
                if access.group(1) == "SCAN":
                    return True
                bounded = False  # found by a condition, among rows that grow with time
        return sorted_ and not bounded  # a sort of those rows (a sort of live ones is not)
    # PostgreSQL: a node on the table, and its detail lines up to the next node.
    text = "\n".join(lines)
    for node in re.split(r"\n\s*->", text):
        head = node.strip().splitlines()[0] if node.strip() else ""
        if re.search(rf"Seq Scan on {table}\b", head):
            return True
        scan = re.search(rf"Index (?:Only )?Scan (?:Backward )?using (\S+) on {table}\b", head)
        if scan and scan.group(1) not in partial and "Index Cond" not in node:
            return True
    return False
