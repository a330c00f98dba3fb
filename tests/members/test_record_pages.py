"""The club's records as pages: the directory and its search, profiles, a finished match, a
frame's replay, the recent matches on the lobby; public, and cheap (bounded queries)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from game import service
from game.models import Match, MatchEvent
from game.protocol import client_in
from ratings.models import Rating
from tests.members.helpers import store
from tests.pages import unwrap_names
from tests.queries import same_cost

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return unwrap_names(response.content.decode())


def conceded(a: Any, b: Any, loser: Any, best_of: int = 1) -> Match:
    match = service.create_match(a, b, best_of, draw="A")
    service.submit(match.pk, loser, client_in.Concede(type="concede", client_id="c", scope="match"))
    match.refresh_from_db()
    return match


def data_block(html: str, block: str) -> Any:
    found = re.search(rf'<script id="{block}" type="application/json">(.*?)</script>', html, re.S)
    assert found, block
    return json.loads(found.group(1))


# --- the directory -----------------------------------------------------------------------------
def test_the_directory_lists_every_member_with_their_record(client: Client, players) -> None:
    alice, bob, _ = players
    conceded(alice, bob, bob)
    html = page(client, "/players/")
    for name in ("alice", "bob", "Алиса"):
        assert f'href="{reverse("player", args=[name])}"' in html
    assert "/players/%D0%90%D0%BB%D0%B8%D1%81%D0%B0/" in html  # a Cyrillic name, as a link
    row = re.search(r"/players/alice/\">alice</a></td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>", html)
    assert row and row.groups() == ("1", "1")


def test_the_directory_shows_each_members_rating(client: Client, players) -> None:
    """The ladder's rating, rounded as the ladder shows it; a dash before any rated match."""
    alice, bob, _ = players
    Rating.objects.create(member=alice, rating=1612.6, rd=80, played=3)
    Rating.objects.create(member=bob, played=0)  # a row, but no rated match yet
    html = page(client, "/players/")
    ratings = dict(
        re.findall(r'/players/(\w+)/">.*?<td data-testid="rating">(.*?)</td>', html, re.S)
    )
    assert ratings["alice"] == "1613"
    assert ratings["bob"].endswith(">–</span>")


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("ALI", ["alice"]),
        ("алиса", ["Алиса"]),  # lower case finds the capital, in Cyrillic too
        ("АЛИС", ["Алиса"]),
        ("ｂｏｂ", ["bob"]),  # full-width letters are the same name
        ("o", ["bob"]),
        ("%", []),  # not a wildcard
        ("nobody", []),
    ],
)
def test_search_in_any_script_and_case(
    client: Client, players, query: str, found: list[str]
) -> None:
    html = page(client, f"/players/?q={query}")
    listed = re.findall(r'<td><a href="/players/[^"]+/">([^<]+)</a></td>', html)
    assert listed == found
    if not found:
        assert 'data-testid="no-members"' in html


def test_members_who_left_are_not_listed(client: Client, players) -> None:
    bob = players[1]
    bob.is_active = False
    bob.save()
    assert "/players/bob/" not in page(client, "/players/")
    page(client, "/players/bob/", status=404)


def test_guests_are_not_listed_and_cannot_be_challenged(client: Client, players) -> None:
    from club import service as club_service
    from rules.challenges import Format

    alice = players[0]
    invitation = club_service.invite(alice, Format(1)).challenge
    token = club_service.invitation_token(invitation)
    guest = club_service.accept_invitation(token, None, "Gina").user
    assert guest is not None
    assert "Gina" not in page(client, "/players/")
    client.force_login(alice)
    html = page(client, f"/players/{guest.get_username()}/")
    assert 'data-testid="guest"' in html and 'data-testid="challenge-member"' not in html


def test_the_directory_is_paginated(client: Client, players) -> None:
    users = get_user_model().objects
    for i in range(40):
        users.create_user(f"member{i:02d}")
    first = page(client, "/players/")
    assert first.count('<td><a href="/players/') == 30
    assert "Page 1 of 2" in first and 'rel="next" href="?page=2"' in first
    second = page(client, "/players/?page=2")
    assert second.count('<td><a href="/players/') == 13  # 43 members
    assert "Page 2 of 2" in page(client, "/players/?page=99")  # past the end: the last page
    searched = page(client, "/players/?q=member&page=2")
    assert searched.count('<td><a href="/players/') == 10
    assert 'href="?q=member&amp;page=1"' in searched


def test_the_directory_costs_the_same_however_many_members(client: Client, players) -> None:
    users = get_user_model().objects
    users.create_user("member00")

    def grow() -> None:
        for i in range(1, 30):
            users.create_user(f"member{i:02d}")

    # The count, the page, their records.
    same_cost(lambda: page(client, "/players/?q=mem"), grow, most=3)


def test_searching_too_often_is_refused(client: Client, players, settings) -> None:
    settings.SNOOKER_BROWSE_RATE = "3/m"
    for _ in range(3):
        page(client, "/players/?q=a")
    page(client, "/players/?q=a", status=429)
    page(client, "/players/")  # browsing the list is not a search


# --- profiles ------------------------------------------------------------------------------------
def test_a_profile_shows_the_record_and_the_statistics(client: Client, players) -> None:
    alice, bob, alisa = players
    store("stats_century", alice, bob)
    conceded(bob, alisa, alisa)
    live = service.create_match(bob, alice, 5, draw="A")
    html = page(client, "/players/bob/")
    stat = dict(re.findall(r'data-testid="([a-z-]+)"[^>]*>([^<]*)</dd>', html))
    assert stat == {
        "matches-won": "2", "matches-lost": "0", "frames-won": "3", "frames-lost": "0",
        "highest-break": "120", "centuries": "1", "fifties": "2", "average-break": "65.3",
        "pot-success": "100%", "fouls": "1 (5 points)", "won-on-black": "0",
    }  # fmt: skip
    assert "56 pots in 56 attempts" in html
    best = re.findall(r"<li><b>(\d+)</b>", html)
    assert best == ["120", "69"]
    assert f'href="/match/{live.pk}/"' in html  # playing now
    results = html[html.index('data-testid="recent-matches"') :]
    assert results.count("<li data-match=") == 2 and "Won" in results


def test_a_profile_in_cyrillic(client: Client, players) -> None:
    html = page(client, "/players/Алиса/")
    assert '<h1 data-testid="member-name">Алиса</h1>' in html
    assert "Not playing at the moment." in html and "No finished match yet." in html
    assert 'data-testid="highest-break">0<' in html
    assert 'data-testid="pot-success"' in html and ">–</dd>" in html


def test_unknown_members_and_matches_are_not_found(client: Client, players) -> None:
    page(client, "/players/nobody/", status=404)
    page(client, "/players/ALICE/", status=404)  # names are exact in addresses
    page(client, "/match/999/", status=404)
    page(client, "/match/999/replay/", status=404)


def test_a_profile_costs_the_same_however_many_matches(client: Client, players) -> None:
    alice, bob, alisa = players
    conceded(alice, bob, bob)
    service.create_match(alice, bob, 3, draw="A")
    client.force_login(bob)

    def grow() -> None:
        for _ in range(6):
            conceded(alice, bob, bob)
            conceded(alisa, alice, alisa)
        service.create_match(alisa, alice, 3, draw="A")

    # The session and its user, the member, their totals, best breaks, live matches, results;
    # the header's challenges waiting and guest flag; the rating, ladders, ladder matches to
    # play and rating history; the results against the computer (computer/results.py); whether
    # the viewer has blocked this member (club/blocks.py); an organiser's handicap override
    # (ratings/handicaps.py); their accuracy over analysed frames (computer/analysis.py); the
    # competitions they entered, with their results (competitions/templatetags); their best at
    # each drill (club/drills.py).
    same_cost(lambda: page(client, "/players/alice/"), grow, most=19)
    assert 'data-testid="matches-won">13<' in page(client, "/players/alice/")


# --- a finished match ---------------------------------------------------------------------------
def test_a_finished_match_keeps_its_page(client: Client, players) -> None:
    alice, bob, _ = players
    match = store("stats_century", alice, bob)
    html = page(client, f"/match/{match.pk}/")
    assert 'data-testid="match-record"' in html and 'id="table"' not in html  # not the live table
    assert "bob wins the match" in html and 'data-testid="match-frames">2–0<' in html
    # The frame scores, the winner's marked.
    cells = dict(re.findall(r'data-testid="(frame-\d-[AB])">(\d+)<', html))
    assert cells == {"frame-1-A": "0", "frame-1-B": "124", "frame-2-A": "55", "frame-2-B": "76"}
    # Breaks of 50 or more, frame by frame.
    assert '<span class="break">120 (bob)</span>' in html
    assert '<span class="break">50 (alice)</span>, <span class="break">69 (bob)</span>' in html
    # The final positions, drawn from the stored state by static/js/archive.js.
    positions = data_block(html, "final-positions")
    assert set(positions) == {"1", "2"}
    assert positions["1"] == {"white": match.state["frames"][0]["final"]["balls"]["white"]}
    assert data_block(html, "club-constants")["table"]["ball_radius"] > 0
    assert f'src="{static("js/archive.js")}"' in html
    # The referee's log: every event after the draw, with its calls.
    entries = re.findall(r'<li data-version="(\d+)" data-kind="(\w+)"', html)
    assert [int(v) for v, _ in entries] == list(range(2, match.version + 1))
    assert '<span class="call">FOUL 4</span>' in html and '<span class="call">FOUL 5</span>' in html
    assert html.count('<span class="call">FRAME OVER</span>') == 2
    assert "bob plays on" in html and "alice plays on" in html
    assert f'href="/match/{match.pk}/replay/?frame=2"' in html


def test_a_conceded_match_and_its_result(client: Client, players) -> None:
    alice, _, alisa = players
    match = conceded(alice, alisa, alisa, best_of=3)
    html = page(client, f"/match/{match.pk}/")
    assert "alice wins the match" in html and "(Алиса conceded)" in html
    assert "Алиса concedes the match" in html
    assert 'data-testid="replay-1"' not in html  # a frame without strokes has no replay


def test_a_live_match_is_still_the_live_table(client: Client, players) -> None:
    match = service.create_match(players[0], players[1], 3, draw="A")
    html = page(client, f"/match/{match.pk}/")
    assert 'id="table"' in html and 'data-testid="match-record"' not in html
    page(client, f"/match/{match.pk}/replay/", status=404)


def test_a_match_page_is_read_once(client: Client, players, django_assert_max_num_queries) -> None:
    alice, bob, _ = players
    match = store("stats_misses", alice, bob)
    with django_assert_max_num_queries(2):  # the match and its players, its events
        page(client, f"/match/{match.pk}/")
    with django_assert_max_num_queries(1):  # then from the cache
        page(client, f"/match/{match.pk}/")


# --- a replay ------------------------------------------------------------------------------------
def test_the_replay_of_a_frame(client: Client, players) -> None:
    alice, bob, _ = players
    match = store("stats_misses", alice, bob)
    html = page(client, f"/match/{match.pk}/replay/?frame=1&stroke=3")
    data = data_block(html, "replay-data")
    assert (data["frame"], data["stroke"]) == (1, 3)
    events = {e.version: json.loads(e.payload) for e in MatchEvent.objects.filter(match=match)}
    first, *rest = sorted(v for v, e in events.items() if v == 1 or _frame(e, events) == 1)
    assert data["start"]["balls"] == events[first]["snapshot"]["frame"]["balls"]
    assert [s["version"] for s in data["steps"]] == rest
    final = match.state["frames"][0]["final"]["balls"]
    for step in data["steps"]:
        event = events[step["version"]]
        assert step["kind"] == event["kind"] and step["calls"] == event["ruling"]["calls"]
        if event["ruling"]["frame_over"]:  # its snapshot shows the next rack
            assert step["balls"] == final
        else:
            assert step["balls"] == event["snapshot"]["frame"]["balls"]
        if event["shot"]:  # the stored trajectories, as stored
            assert step["shot"]["trajectories"] == event["shot"]["trajectories"]
            assert step["cue_ball"] == event["request"]["cue_ball"]
    assert [s["calls"] for s in data["steps"][:2]] == [[], ["FOUL 4", "MISS"]]
    assert data["steps"][-1]["scores"] == {"A": 13, "B": 1}
    assert 'data-step="1"' in html and f'data-step="{len(rest)}"' in html
    assert f'src="{static("js/replay_page.js")}"' in html


def _frame(event: dict[str, Any], events: dict[int, dict[str, Any]]) -> int:
    """The frame an event was played in: the number on the board before it."""
    return int(events[event["version"] - 1]["snapshot"]["scoreboard"]["frame_number"])


def test_replays_of_frames_that_do_not_exist(client: Client, players) -> None:
    match = store("stats_misses", players[0], players[1])
    for frame in ("0", "3", "-1"):
        page(client, f"/match/{match.pk}/replay/?frame={frame}", status=404)
    # Not a number: the first frame, from its start.
    data = data_block(page(client, f"/match/{match.pk}/replay/?frame=x&stroke=y"), "replay-data")
    assert (data["frame"], data["stroke"]) == (1, 0)


def test_a_replay_page_is_cheap(client: Client, players, django_assert_max_num_queries) -> None:
    match = store("stats_misses", players[0], players[1])
    page(client, f"/match/{match.pk}/")  # the archive is cached
    with django_assert_max_num_queries(2):  # the match, the frame's events
        page(client, f"/match/{match.pk}/replay/?frame=2")


def test_replaying_too_often_is_refused(client: Client, players, settings) -> None:
    settings.SNOOKER_BROWSE_RATE = "2/m"
    match = store("stats_misses", players[0], players[1])
    page(client, f"/match/{match.pk}/replay/")
    page(client, f"/match/{match.pk}/replay/?frame=2")
    page(client, f"/match/{match.pk}/replay/", status=429)


# --- recent matches -----------------------------------------------------------------------------
def test_recent_matches_on_the_lobby_for_visitors(client: Client, players) -> None:
    alice, bob, alisa = players
    html = page(client, "/")
    assert 'data-testid="recent-matches"' in html and "No finished match yet." in html
    first = conceded(alice, bob, bob)
    second = conceded(alisa, bob, alisa, best_of=3)
    service.create_match(alice, alisa, 3, draw="A")  # live: not listed
    html = page(client, "/")
    recent = html[html.index('data-testid="recent-matches"') :]
    listed = re.findall(r'<li data-match="(\d+)">', recent)
    assert listed == [str(second.pk), str(first.pk)]  # the latest first, each once
    assert f'href="/match/{first.pk}/" class="score">1–0<' in recent
    assert 'href="/players/bob/" class="winner">bob<' in recent


def test_the_lobby_stays_cheap(client: Client, players) -> None:
    alice, bob, _ = players
    conceded(alice, bob, bob)

    def grow() -> None:
        for _ in range(11):
            conceded(alice, bob, bob)

    # Live matches, the count of those against the computer, the form's nothing, recent matches.
    same_cost(lambda: page(client, "/"), grow, most=4)
    assert page(client, "/").count("<li data-match=") == 10
