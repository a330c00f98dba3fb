"""One settings table (snooker_site/knobs.py): every value the environment gives is read there
and only there, checked at start, and documented once, in docs/settings.md written from it;
deploy/snooker.env.example names the same variables, and no doc names one that is not."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from snooker_site import knobs as k

ROOT = Path(__file__).resolve().parent.parent
ENV_FILE = ROOT / "deploy" / "snooker.env.example"


def test_the_doc_is_the_table_written_out() -> None:
    assert (ROOT / "docs" / "settings.md").read_text() == k.markdown(), (
        "docs/settings.md differs from snooker_site/knobs.py: "
        "run `.venv/bin/python -m snooker_site.knobs > docs/settings.md`"
    )


def test_the_environment_file_names_every_knob_and_no_other() -> None:
    named = re.findall(r"^#?([A-Z][A-Z0-9_]+)=", ENV_FILE.read_text(), re.MULTILINE)
    assert len(named) == len(set(named)), "a variable named twice"
    assert set(named) == k.NAMES


def test_the_environment_file_s_values_are_read_without_complaint() -> None:
    values = dict(re.findall(r"^([A-Z][A-Z0-9_]+)=(.*)$", ENV_FILE.read_text(), re.MULTILINE))
    env = k.Environment(values)
    assert env[k.DEBUG] is False and env[k.SNOOKER_TRUSTED_PROXIES] == 1


def _tracked(*suffixes: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / f for f in out.stdout.split() if f.endswith(suffixes)]


def test_no_doc_names_a_knob_that_is_not_in_the_table() -> None:
    """A renamed or removed variable leaves no doc, comment or unit file behind. (rules/ reads
    no environment: its SNOOKER_ names are the game's constants.)"""
    stale = {
        f"{name} ({path.relative_to(ROOT)})"
        for path in _tracked(".md", ".py", ".service", ".conf", ".example", ".html")
        if not str(path.relative_to(ROOT)).startswith("rules/")
        for name in re.findall(r"\bSNOOKER_[A-Z0-9_]*[A-Z0-9]\b", path.read_text())
        if name not in k.NAMES and path.name != "test_knobs.py"
    }
    assert not stale, sorted(stale)


def test_every_knob_is_read_in_the_settings_and_nothing_else_reads_the_environment() -> None:
    settings = (ROOT / "snooker_site" / "settings.py").read_text()
    unread = [knob.name for knob in k.KNOBS if not re.search(rf"\bk\.{knob.name}\b", settings)]
    assert not unread, unread
    reads = re.compile(r"os\.environ\b(?!\.setdefault\(\"DJANGO_SETTINGS_MODULE\")|getenv")
    readers = {
        str(path.relative_to(ROOT))
        for path in _tracked(".py")
        if reads.search(path.read_text())
        and not str(path.relative_to(ROOT)).startswith(("tests/", "benchmarks/"))
    }
    # Benchmarks and tests set variables for the processes they start.
    assert readers == {"snooker_site/settings.py"}


def test_an_unset_or_empty_variable_is_the_default() -> None:
    for env in (k.Environment({}), k.Environment({knob.name: "" for knob in k.KNOBS})):
        for knob in k.KNOBS:
            assert env[knob] == knob.default, knob.name


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("DEBUG", "Off", False),
        ("DEBUG", " yes ", True),
        ("SNOOKER_HEARTBEAT", "2.5", 2.5),
        ("SNOOKER_RECONNECT_GRACE", "0", 0),
        ("ALLOWED_HOSTS", " a.example , b.example,", ("a.example", "b.example")),
        ("SNOOKER_CSP_CONNECT_SRC", "wss://a  wss://b", ("wss://a", "wss://b")),
        ("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("SECURE_PROXY_SSL_HEADER", "X-Scheme=secure", ("HTTP_X_SCHEME", "secure")),
        ("SNOOKER_SIGNUP_RATE", "5/15m", "5/15m"),
    ],
)
def test_each_kind_of_value_is_read(name: str, raw: str, value: object) -> None:
    knob = next(knob for knob in k.KNOBS if knob.name == name)
    assert k.Environment({name: raw})[knob] == value


def test_every_bad_value_is_named_in_one_message() -> None:
    with pytest.raises(k.BadValue) as refused:
        k.Environment(
            {
                "DEBUG": "maybe",
                "SNOOKER_HEARTBEAT": "0",
                "SNOOKER_RECONNECT_GRACE": "1.5",
                "SNOOKER_NO_SHOW_WAIT": "nan",
                "SNOOKER_TRUSTED_PROXIES": "-1",
                "SNOOKER_SIGNUP_RATE": "ten an hour",
                "SNOOKER_LOGIN_FAILURES": "0",
            }
        )
    message = str(refused.value)
    for part in (
        "DEBUG='maybe' is not true or false",
        "SNOOKER_HEARTBEAT='0' is not more than 0",
        "SNOOKER_RECONNECT_GRACE='1.5' is not a whole number",
        "SNOOKER_NO_SHOW_WAIT='nan' is not a finite number",
        "SNOOKER_TRUSTED_PROXIES='-1' is less than 0",
        "SNOOKER_SIGNUP_RATE='ten an hour' is not a rate",
        "SNOOKER_LOGIN_FAILURES='0' is less than 1",
        "docs/settings.md",
    ):
        assert part in message, (part, message)


def test_a_default_written_beside_a_knob_in_the_docs_is_the_table_s() -> None:
    """Prose may say a default in passing, `NAME` (value): it must be the table's."""
    by_name = {knob.name: knob for knob in k.KNOBS}
    wrong = []
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for name, said in re.findall(
            r"`([A-Z][A-Z0-9_]+)` \(([\d./]+[smhd]?)(?: s)?\)", path.read_text()
        ):
            knob = by_name.get(name)
            if knob is not None and said != k.shown_plain(knob):
                wrong.append(
                    f"{name} ({said}) in {path.name}: the table says {k.shown_plain(knob)}"
                )
    assert not wrong, wrong
