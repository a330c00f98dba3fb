"""A backup is only one when it restores: the shipped scripts (deploy/bin/snooker-backup, as the
nightly timer runs it, and snooker-restore) dump a club's PostgreSQL database, the database is
dropped, made again empty and restored, and the club's matches, ladder and ratings come back
identical, row for row; then the club goes on (new rows take new keys).

Needs PostgreSQL (as `make test` does: README); fails rather than skips without it. It uses a
scratch database of its own on DATABASE_URL's server, not pytest-django's."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.deploy.render import DEPLOY, ROOT
from tests.live.harness import ScratchDatabase, postgres_url, run_json, with_database


def _require_postgres() -> str:
    server = postgres_url()
    try:
        psycopg.connect(with_database(server, "postgres"), connect_timeout=3).close()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is needed (README: make test) at {server}: {exc}")
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is needed (apt-get install postgresql-client)")
    return server


def _env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG")}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="snooker_site.settings",
               PYTHONUNBUFFERED="1", **extra)  # fmt: skip
    return env


def _club(env: dict[str, str], command: str) -> dict[str, Any]:
    return run_json(env, "-m", "tests.deploy.club_data", command, timeout=300)


def _script(name: str, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(DEPLOY / "bin" / name), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{name}: {done.stdout}\n{done.stderr}"
    return done.stdout


def test_a_dump_restores_the_club_identically(tmp_path: Path) -> None:
    scratch = ScratchDatabase(_require_postgres(), prefix="snooker_restore")
    scratch.create()
    try:
        env = _env(scratch.url, BACKUP_DIR=str(tmp_path / "backups"), BACKUP_KEEP_DAYS="14")
        _club(env, "fill")
        before = _club(env, "state")
        # What the test stands on: a club with matches, a ladder that moved and ratings.
        assert before["kinds"]["game.match"] == 3
        assert before["kinds"]["game.matchevent"] > 3
        assert before["kinds"]["ratings.ratingchange"] >= 4
        assert [name for name, _ in before["ladder"]] == ["ben", "ann", "cat", "dan"]
        assert len(set(before["ratings"].values())) > 1
        assert before["sessions"] == 1

        dump = Path(_script("snooker-backup", env).strip().splitlines()[-1])
        assert dump.parent == tmp_path / "backups" and dump.stat().st_size > 0
        assert dump.name.startswith("snooker-") and dump.suffix == ".dump"
        assert not list(dump.parent.glob(".*partial"))

        scratch.drop()  # the loss
        scratch.create()  # an empty database, as the restore's instructions make
        with psycopg.connect(scratch.url) as conn:
            tables = conn.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            ).fetchone()
            assert tables == (0,)
        _script("snooker-restore", env, str(dump))

        after = _club(env, "state")
        assert after["ladder"] == before["ladder"]
        assert after["ratings"] == before["ratings"]
        assert after["kinds"] == before["kinds"]
        assert after["rows"] == before["rows"]  # every row, field for field
        assert after["sessions"] == 0  # a dump holds no live login (the table stays)

        # The club goes on: keys after the restored ones.
        more = _club(env, "more")
        most = max(r["pk"] for r in before["rows"] if r["model"] == "game.match")
        assert more["match"] > most
        # A restore over a live database replaces it (the script's --clean), and is repeatable.
        _script("snooker-restore", env, str(dump))
        assert _club(env, "state")["rows"] == before["rows"]
    finally:
        scratch.drop()


def test_the_restore_refuses_a_missing_dump(tmp_path: Path) -> None:
    env = _env("postgres://nobody@127.0.0.1:1/none")
    done = subprocess.run(
        [str(DEPLOY / "bin" / "snooker-restore"), str(tmp_path / "nothing.dump")],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert "cannot read" in done.stderr
