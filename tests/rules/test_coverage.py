"""docs/rules-coverage.md is current, and every clause has a scenario, a test or a reason."""

from rules.coverage import main, render


def test_every_clause_is_covered() -> None:
    _, problems = render()
    assert problems == []


def test_coverage_doc_is_current() -> None:
    assert main(["--check"]) == 0, "run: python -m rules.coverage"
