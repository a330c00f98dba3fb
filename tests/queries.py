"""A page that must cost the same however much it shows is measured at two sizes: the number
of queries at the small size must equal the number after the data grew (and stay within a
stated bound), so a query per row cannot hide behind a generous maximum."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext


def count(run: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as context:
        run()
    return len(context.captured_queries)


def same_cost(run: Callable[[], object], grow: Callable[[], object], most: int) -> None:
    """`run` costs the same number of queries (at most `most`) before and after `grow`."""
    run()  # once first: what a process reads once (content types, a compiled template) aside
    small = count(run)
    grow()
    large = count(run)
    assert small == large, f"{small} queries at the small size, {large} at the large"
    assert large <= most, f"{large} queries, more than {most}"
