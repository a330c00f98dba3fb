"""Tests that cannot pass by themselves: nothing skips quietly in CI, and a run never writes the
golden files it compares with.

A test that needs something a machine may lack asks `tests.needs.missing`, which fails in CI and
skips elsewhere; no other way to skip is used. The golden files (the physics' strokes, the
statistics' matches, the referee's scenarios) are written only by their own commands (`make
physics-goldens`, `python -m tests.rules.stats_bot`), never by a test: tests/conftest.py checks
at the end of every run that none changed during it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import GOLDEN_DIRS, golden_digests

TESTS = Path(__file__).resolve().parent
SKIPS = re.compile(
    r"pytest\.skip\(|\bskipif\b|importorskip|mark\.skip\b|mark\.xfail|unittest\.skip"
)


def test_only_needs_skips() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{number}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name not in ("needs.py", "test_no_quiet_skips.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if SKIPS.search(line)
    ]
    assert not found, "skip through tests.needs.missing (fails in CI):\n" + "\n".join(found)


def test_the_golden_files_are_watched() -> None:
    digests = golden_digests()
    for folder in GOLDEN_DIRS:
        where = str(folder.relative_to(TESTS.parent))
        assert any(name.startswith(where) for name in digests), folder
    assert len(digests) > 20
