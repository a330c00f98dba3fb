"""A handicapped match in the club's records (issue 40: "shown everywhere the score is"): the
record says who had the start and marks each frame won with it, the figures and the profile
count those frames, the replay's scoreboard shows the start; in English and Russian."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game import service
from game.models import Match
from game.protocol import client_in
from members.models import MatchFigures
from rules import stats
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db


def conceded_frames(a: Any, b: Any, start: tuple[int, int]) -> Match:
    """A best of 3 that A concedes frame by frame: B wins both, with or without a start."""
    match = service.create_match(a, b, 3, draw="A", start=start)
    for n in range(2):
        service.submit(
            match.pk, a, client_in.Concede(type="concede", client_id=f"c{n}", scope="frame")
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def text(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return unwrap_names(response.content.decode())


def test_the_record_marks_the_start_and_the_frames_it_helped_to_win(
    client: Client, players
) -> None:
    alice, bob, _ = players
    match = conceded_frames(alice, bob, (0, 30))
    html = text(client, f"/match/{match.pk}/")
    assert 'data-testid="match-start"' in html and "handicap: bob started each frame on 30" in html
    assert 'data-testid="frame-1-start"' in html and 'data-testid="frame-2-start"' in html
    assert "won with a start" in html
    row = html[html.index('data-testid="won-with-start"') :].split("</tr>")[0]
    assert row.endswith("<td>0</td><td>2</td>")  # alice none, bob both
    assert [f.won_with_start for f in MatchFigures.objects.order_by("seat")] == [0, 2]
    russian = text(client, f"/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "фора: 30 у bob в каждой партии" in russian and "выиграна с форой" in russian
    profile = text(client, "/players/bob/")
    assert 'data-testid="won-with-start">2<' in profile
    replay = text(client, f"/match/{match.pk}/replay/?frame=1")
    assert 'data-testid="start-B">+30 start<' in replay and 'data-testid="start-A"' not in replay


def test_a_match_without_a_start_shows_none_of_it(client: Client, players) -> None:
    alice, bob, _ = players
    match = conceded_frames(alice, bob, (0, 0))
    html = text(client, f"/match/{match.pk}/")
    assert "match-start" not in html and "won-with-start" not in html and "-start" not in html
    assert 'data-testid="won-with-start"' not in text(client, "/players/bob/")


def test_a_frame_won_against_the_start_is_not_marked() -> None:
    """The start's receiver loses: nobody's frame is "won with a start"."""
    acts = [
        stats.Act(kind="concede", seat="B", frame=1, frame_winner="A", match_winner="A"),
    ]
    figures = stats.figures(acts, (0, 40))
    assert (figures.A.won_with_start, figures.B.won_with_start) == (0, 0)
    assert stats.figures(acts, (40, 0)).A.won_with_start == 1
    assert stats.figures(acts).A.won_with_start == 0
