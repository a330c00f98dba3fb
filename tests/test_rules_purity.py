"""rules/ is the pure core: nothing in it may import Django (or the Django-bound stack)."""

import ast
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {"django", "channels", "channels_redis", "daphne"}


def forbidden_imports(source: str, filename: str = "<string>") -> list[str]:
    """The forbidden modules that `source` imports, as `line: module`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        found += [f"{node.lineno}: {m}" for m in modules if m.split(".")[0] in FORBIDDEN]
    return found


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import django", True),
        ("import os, django.conf as c", True),
        ("from django.db import models", True),
        ("from channels.layers import get_channel_layer", True),
        ("def f():\n    import django\n", True),
        ("import djangoish\nfrom . import django", False),
        ("from rules.table import BALL_RADIUS", False),
    ],
)
def test_detector(source: str, bad: bool) -> None:
    assert bool(forbidden_imports(source)) is bad


def test_rules_do_not_import_django() -> None:
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files, f"no Python files under {RULES_DIR}"
    offenders = {
        str(path.relative_to(RULES_DIR.parent)): hits
        for path in files
        if (hits := forbidden_imports(path.read_text(encoding="utf-8"), str(path)))
    }
    assert not offenders, f"rules/ must stay free of Django: {offenders}"
