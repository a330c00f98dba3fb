"""How many sockets a process asks to reconnect elsewhere (game/balance.py): none while it
holds about its share, down to its share when it holds far more (after a rolling restart),
and the crowd's that reached a players' process back to the crowd's once it is up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.balance import LEAST, to_ask, to_move


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


@dataclass
class Held:
    channel_name: str
    crowd: bool = False

    async def close(self, code: Any = None, reason: Any = None) -> None:
        pass


def test_the_crowd_sent_to_the_players_goes_back_once_its_process_is_up() -> None:
    """A players' process holding sockets that came on the crowd's path (its process was down)
    asks them all to reconnect once one of the crowd's is up, however even the counts; not
    before (they would come straight back)."""
    players = [Held(f"p{i}") for i in range(3)]
    crowd = [Held(f"c{i}", crowd=True) for i in range(2)]
    held = [*crowd, *players]
    assert to_ask(held, {"other": 5}, crowd_up=True) == crowd
    assert to_ask(held, {"other": 5}, crowd_up=False) == []
    assert to_ask(players, {"other": 5}, crowd_up=True) == []


def test_otherwise_the_excess_over_its_kinds_share_moves() -> None:
    held = [Held(f"s{i}") for i in range(200)]
    assert to_ask(held, {"restarted": 0}, crowd_up=True) == held[:100]
