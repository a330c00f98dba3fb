"""A competition's news reaches its players on the club's notices (their own group: every
socket of theirs): the draw, their next match's opponent, a start time proposed, a result that
sends them through or out, the champion; each after its change commits, in the message the page
words (club/protocol/server_out.py, `CompetitionNotice`)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import override

from club.text import catalog
from competitions import service
from competitions.models import Pairing
from rules import bracket as rules
from tests.club.helpers import LobbyClient
from tests.competitions.test_competitions_service import opened, refused, to_play
from tests.ladder.helpers import concede


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


async def news_of(socket: LobbyClient, count: int) -> list[tuple[str, str | None]]:
    """The next `count` competition notices on a socket: (news, opponent)."""
    out = []
    while len(out) < count:
        m = await socket.expect("competition_notice", timeout=10)
        out.append((m["news"], m["opponent"]))
    return out


async def quiet(socket: LobbyClient, timeout: float = 0.3) -> bool:
    """No competition notice for `timeout` seconds (other messages passed over)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (left := end - loop.time()) > 0:
        if await socket.ws.receive_nothing(timeout=left):
            return True
        if (await socket.recv())["type"] == "competition_notice":
            return False
    return True


@pytest.mark.django_db(transaction=True)
async def test_a_knockouts_news_reaches_its_players(organiser, members) -> None:
    ann, ben, cat, dan, *_ = members
    row = await database_sync_to_async(opened)(organiser, (ann, ben, cat, dan), rules.BestOf(1))
    sockets = {m.username: LobbyClient(m, lobby=False) for m in (ann, ben, cat, dan)}
    try:
        for socket in sockets.values():
            await socket.open()
        now = timezone.now()
        await database_sync_to_async(service.draw)(row.pk, organiser, now, 7)
        # Seeds 1 v 4 (ann v dan) and 2 v 3 (ben v cat).
        for name, opponent in (("ann", "dan"), ("dan", "ann"), ("ben", "cat"), ("cat", "ben")):
            assert await news_of(sockets[name], 2) == [("drawn", None), ("opponent", opponent)]
        first = await database_sync_to_async(to_play)(row)
        match = first["w1.0"]
        pairing = await database_sync_to_async(Pairing.objects.get)(competition=row, key="w1.0")
        at = now + timedelta(hours=3)
        await database_sync_to_async(service.propose_start)(pairing.fixture_id, ann, at, now)
        for name, opponent in (("ann", "dan"), ("dan", "ann")):
            told = await sockets[name].expect("competition_notice", timeout=10)
            assert (told["news"], told["opponent"], told["by"]) == ("proposed", opponent, "ann")
            assert told["match"] is None and told["name"] == "Winter knockout"
            assert told["name_ru"] == "Зимний турнир" and told["competition"] == row.pk
        assert match.player_a.username in ("ann", "dan")
        # The semi-finals: the higher rated win; each winner hears whom they meet next.
        await database_sync_to_async(concede)(first["w1.0"], dan)
        assert await news_of(sockets["ann"], 1) == [("through", "dan")]
        assert await news_of(sockets["dan"], 1) == [("out", "ann")]
        await database_sync_to_async(concede)(first["w1.1"], cat)
        assert await news_of(sockets["cat"], 1) == [("out", "ben")]
        assert sorted(await news_of(sockets["ben"], 2)) == [("opponent", "ann"), ("through", "cat")]
        assert await news_of(sockets["ann"], 1) == [("opponent", "ben")]
        final = (await database_sync_to_async(to_play)(row))["w2.0"]
        await database_sync_to_async(concede)(final, ben)
        assert await news_of(sockets["ann"], 1) == [("champion", None)]
        assert await news_of(sockets["ben"], 1) == [("out", "ann")]
        # A refused change tells nobody.
        code = await database_sync_to_async(refused)(
            lambda: service.propose_start(pairing.fixture_id, ann, at, now)
        )
        assert code
        assert await quiet(sockets["dan"])
    finally:
        for socket in sockets.values():
            await socket.ws.disconnect()


def test_every_competition_notice_has_words() -> None:
    words = catalog()
    for news in ("drawn", "opponent", "proposed", "proposed_mine", "through", "through_alone",
                 "out", "out_alone", "champion"):  # fmt: skip
        assert f"competition_{news}" in words
    with override("ru"):
        assert catalog()["competition_champion"] == "%(competition)s: вы победитель турнира!"
        assert catalog()["competition_drawn"] == "%(competition)s: жеребьёвка проведена"
