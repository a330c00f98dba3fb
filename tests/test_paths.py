"""Every file a doc or a comment names exists: a stale path sends the next reader nowhere.

A path is looked for where its kind of reader would look: from the repository's root, beside
the file that names it (a script's relative import, a test named from its module), among the
template folders (a template's name), and among the browser's modules (static/js/)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Paths under the project's own top folders, and its top files, as text names them.
TOPS = (
    "rules|game|club|members|ladder|ratings|fixtures|competitions|chat|accounts|computer|snooker_site"
    "|static|templates"
    "|tests|docs"
    "|benchmarks|deploy|locale|\\.ci"
)
PATH = re.compile(
    rf"(?<![\w./-])((?:{TOPS})/[\w./*@-]*[\w*]|Makefile|README\.md|requirements\.txt"
    r"|manage\.py|pyproject\.toml)"
)
READ = (".py", ".js", ".md", ".html", ".css", ".txt", ".toml", ".cfg", ".conf", ".service")
# Data, not prose: scenario and golden files, and the catalogues' source locations.
NOT_PROSE = ("tests/scenarios/", "tests/physics/golden/", "tests/rules/golden/", "locale/")
TEMPLATE_DIRS = [ROOT / "templates", *ROOT.glob("*/templates")]
SEARCH = [*TEMPLATE_DIRS, ROOT / "static" / "js"]


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    own = str(Path(__file__).relative_to(ROOT))  # its examples of stale paths are on purpose
    return [
        f for f in out.stdout.split()
        if f.endswith(READ) and not f.startswith(NOT_PROSE) and f != own
    ]  # fmt: skip


def found(name: str, where: Path) -> bool:
    bases = [ROOT, where.parent, *SEARCH]
    if "*" in name:
        return any(any(base.glob(name)) for base in bases)
    return any((base / name).exists() for base in bases)


def names(text: str) -> set[str]:
    out = set()
    for match in PATH.finditer(text):
        start = match.start()
        end = match.end()
        if (start and text[start - 1] == "/") or text[end : end + 1] == "/":
            continue  # a URL (/accounts/signup/, "accounts/signup/") or a folder
        out.add(match.group(1).rstrip("."))
    return out


def test_every_named_path_exists() -> None:
    missing = [
        f"{name} (named in {file})"
        for file in tracked()
        for name in sorted(names((ROOT / file).read_text(errors="ignore")))
        if not found(name, ROOT / file)
    ]
    assert not missing, "\n".join(missing)


def test_the_check_sees_a_stale_path() -> None:
    """The check itself: a name that exists nowhere is reported, one that exists is not."""
    here = ROOT / "docs" / "x.md"
    assert names("see rules/nowhere.py and (rules/referee.py)") == {
        "rules/nowhere.py",
        "rules/referee.py",
    }
    assert not found("rules/nowhere.py", here)
    assert found("rules/referee.py", here)
    assert names('GET /game/1 or path("accounts/signup/", ...)') == set()
