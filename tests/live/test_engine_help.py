"""No engine help across processes (issue 36): the strokes of a live match are stored by one
process and the hint is asked of another, sharing only PostgreSQL. The index of live
positions is the database's, so the other process refuses the copied position, and gives
the hint once the match is over. Needs PostgreSQL, as the multi-process test."""

from __future__ import annotations

from tests.live.harness import run_json


def test_a_position_stored_by_one_process_is_refused_by_another(
    server_env: dict[str, str],
) -> None:
    env = {**server_env, "DEBUG": "true"}  # the test client asks as localhost, a DEBUG host
    made = run_json(env, "-m", "tests.live.engine_ctl", "live")
    assert made["position"] is not None
    assert run_json(env, "-m", "tests.live.engine_ctl", "hint", timeout=180) == {
        "status": 403,
        "code": "live_position",
    }
    run_json(env, "-m", "tests.live.engine_ctl", "over", str(made["match"]))
    again = run_json(env, "-m", "tests.live.engine_ctl", "hint", timeout=180)
    assert again["status"] == 200
