"""Hints wait in a lane of their own behind the computer's strokes, a few per member
(computer/lanes.py, issue 42)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import AsyncClient

from club.service import practise
from computer import driver, lanes, thinking


class Gated:
    """Work for the pool that says when it starts and ends only when released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, threading.Event] = {}

    def gate(self, name: str) -> threading.Event:
        return self.gates.setdefault(name, threading.Event())

    def work(self, name: str) -> str:
        self.started.append(name)
        assert self.gate(name).wait(10), f"{name} never released"
        return name


async def until(condition: Any) -> None:
    """Wait (turns of the loop, and the pool's thread a moment) until `condition()`."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never happened")


@pytest.fixture
def pool():  # type: ignore[no-untyped-def]
    executor = ThreadPoolExecutor(max_workers=1)
    yield executor
    executor.shutdown(wait=False, cancel_futures=True)


async def test_a_hint_waits_for_the_computers_strokes_even_those_asked_after_it(pool) -> None:  # type: ignore[no-untyped-def]
    gated = Gated()
    first = asyncio.ensure_future(lanes.stroke(pool, gated.work, "stroke 1"))
    await until(lambda: gated.started == ["stroke 1"])
    asked = asyncio.ensure_future(lanes.hint(7, pool, gated.work, "hint"))
    await until(lambda: lanes.waiting(7) == 1)
    second = asyncio.ensure_future(lanes.stroke(pool, gated.work, "stroke 2"))
    await asyncio.sleep(0)
    gated.gate("stroke 1").set()
    assert await first == "stroke 1"
    await until(lambda: len(gated.started) == 2)
    # The pool's queue alone would have thought the hint next: the lane kept it back.
    assert gated.started == ["stroke 1", "stroke 2"]
    gated.gate("stroke 2").set()
    assert await second == "stroke 2"
    gated.gate("hint").set()
    assert await asked == "hint"
    assert gated.started == ["stroke 1", "stroke 2", "hint"]
    assert lanes.waiting(7) == 0


async def test_hints_think_one_at_a_time_in_the_order_asked(pool) -> None:  # type: ignore[no-untyped-def]
    gated = Gated()
    asked = [asyncio.ensure_future(lanes.hint(m, pool, gated.work, f"hint {m}")) for m in (1, 2, 3)]
    await until(lambda: gated.started == ["hint 1"])
    for m in (1, 2, 3):
        gated.gate(f"hint {m}").set()
    assert await asyncio.gather(*asked) == ["hint 1", "hint 2", "hint 3"]


async def test_a_member_has_at_most_two_hints_waiting(pool, settings) -> None:  # type: ignore[no-untyped-def]
    gated = Gated()
    mine = [asyncio.ensure_future(lanes.hint(1, pool, gated.work, f"mine {i}")) for i in (1, 2)]
    await until(lambda: lanes.waiting(1) == 2)
    with pytest.raises(lanes.Busy):
        await lanes.hint(1, pool, gated.work, "mine 3")
    theirs = asyncio.ensure_future(lanes.hint(2, pool, gated.work, "theirs"))
    await until(lambda: lanes.waiting(2) == 1)  # another member is not held to hers
    for name in ("mine 1", "mine 2", "theirs"):
        gated.gate(name).set()
    await asyncio.gather(*mine, theirs)
    assert lanes.waiting(1) == lanes.waiting(2) == 0
    settings.COMPUTER = {**settings.COMPUTER, "HINTS_WAITING": 1}
    gated.gate("again").set()
    assert await lanes.hint(1, pool, gated.work, "again") == "again"


@pytest.mark.django_db(transaction=True)
async def test_a_third_hint_asked_while_two_wait_is_refused_by_the_page(
    pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels.db import database_sync_to_async

    gated = Gated()
    driver.use_pool(pool)
    monkeypatch.setattr(thinking, "hint", lambda *args: gated.work("hint") and None)
    try:

        def made() -> tuple[Any, int]:
            alice = get_user_model().objects.create_user("alice", password="pw")
            return alice, practise(alice, 1).pk

        alice, table = await database_sync_to_async(made)()
        page = AsyncClient()
        await page.aforce_login(alice)
        url = f"/computer/hint/{table}/"
        waiting = [asyncio.ensure_future(page.post(url)) for _ in range(2)]
        await until(lambda: lanes.waiting(alice.pk) == 2)
        refused = await page.post(url)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        gated.gate("hint").set()
        answers = await asyncio.gather(*waiting)
        assert [a.json()["code"] for a in answers] == ["no_stroke", "no_stroke"]  # stubbed
    finally:
        gated.gate("hint").set()
        driver.use_pool(None)


async def test_the_coachs_analysis_waits_for_strokes_and_hints_alike(pool) -> None:  # type: ignore[no-untyped-def]
    """A piece of the coach's analysis thinks only while nothing else waits: a hint asked
    while a stroke thinks goes before it, and it runs once the hint is done."""
    gated = Gated()
    first = asyncio.ensure_future(lanes.stroke(pool, gated.work, "stroke"))
    await until(lambda: gated.started == ["stroke"])
    piece = asyncio.ensure_future(lanes.background(pool, gated.work, "analysis"))
    asked = asyncio.ensure_future(lanes.hint(7, pool, gated.work, "hint"))
    await until(lambda: lanes.waiting(7) == 1)
    gated.gate("stroke").set()
    await until(lambda: gated.started == ["stroke", "hint"])
    gated.gate("hint").set()
    assert await first == "stroke" and await asked == "hint"
    await until(lambda: gated.started == ["stroke", "hint", "analysis"])
    gated.gate("analysis").set()
    assert await piece == "analysis"
