"""How many sockets a process asks to reconnect elsewhere (game/balance.py): none while it
holds about its share, down to its share when it holds far more (after a rolling restart)."""

from __future__ import annotations

from game.balance import LEAST, to_move


def test_alone_or_even_nobody_moves() -> None:
    assert to_move(500, {}) == 0
    assert to_move(100, {"other": 100}) == 0
    assert to_move(110, {"other": 90}) == 0  # within the slack


def test_a_few_over_is_not_worth_a_reconnection() -> None:
    assert to_move(LEAST, {"other": 0}) == 0  # far over its share, but by few sockets


def test_after_a_rolling_restart_the_excess_moves() -> None:
    assert to_move(200, {"restarted": 0}) == 100
    assert to_move(300, {"b": 0, "c": 0}) == 200
    assert to_move(101, {"restarted": 0}) == 50  # down to its share, rounded up


def test_only_the_process_over_its_share_moves_any() -> None:
    assert to_move(0, {"full": 200}) == 0
    assert to_move(120, {"b": 120, "c": 60}) == 0  # within 25 % of its share (100)
    assert to_move(150, {"b": 150, "c": 0}) == 50  # each of the two over it moves its excess
