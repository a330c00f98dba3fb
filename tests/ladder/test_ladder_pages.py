"""The ladders' pages (ladder/views.py), the rating change on a finished match's page, the
rating history on a profile, and who may do what through them."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from club.models import Challenge
from ladder import chart, service
from ladder.models import HistoryEntry, Ladder, LadderChallenge
from members.models import MatchFigures
from tests.ladder.helpers import accepted, concede, on_ladder, order
from tests.queries import same_cost

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def rungs(html: str) -> list[tuple[str, str, str]]:
    """(position, member, rating) of each row of the ladder's table."""
    return re.findall(
        r'data-testid="rung" data-member="([^"]+)" data-position="(\d+)" data-rating="([^"]+)"',
        html,
    )


def test_the_main_ladder_for_a_visitor(client: Client, members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    html = client.get("/ladder/").content.decode()
    assert rungs(html) == [("ann", "1", "1500"), ("ben", "2", "1500"), ("cat", "3", "1500")]
    assert "Best of 1" in html and "challenge up to 3 places above" in html
    assert "answer within 2 days" in html and "play within 7 days of accepting" in html
    assert "when a deadline passes, the challenger takes the win" in html
    assert 'data-testid="join-ladder"' not in html and "Log in to join the ladder" in html
    assert 'data-testid="challenge-' not in html  # visitors challenge nobody
    assert 'href="/ladder/main/history/"' in html and 'href="/ladder/history/"' in html


def test_a_member_joins_and_challenges_from_the_ladder(members, main) -> None:
    ann, ben, cat, dan, eve, fay = members
    on_ladder(main, ann, ben, cat, dan, eve)
    client = logged_in(fay)
    html = client.get("/ladder/").content.decode()
    assert 'data-testid="join-ladder"' in html
    response = client.post("/ladder/main/join/")
    assert response.status_code == 302 and response["Location"] == "/ladder/main/"
    html = client.get("/ladder/main/").content.decode()
    assert "You are at position 6." in html and 'data-testid="join-ladder"' not in html
    # Buttons for the three members above, no others.
    assert re.findall(r'data-testid="challenge-(\w+)"', html) == ["cat", "dan", "eve"]
    response = client.post("/ladder/main/challenge/", {"defender": "cat"})
    made = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/challenges/{made.pk}/"
    assert made.kind == "ladder" and made.target == cat
    page = client.get(f"/challenges/{made.pk}/").content.decode()
    assert "Ladder challenge" in page and 'data-testid="withdraw"' in page
    # Now busy: no more buttons; the pending challenge is listed for everyone.
    html = client.get("/ladder/").content.decode()
    assert 'data-testid="challenge-' not in html
    pending = html[html.index('data-testid="pending"') :]
    assert "fay challenges cat" in pending and 'data-testid="withdraw-ladder"' in pending
    assert "no: playing cat" in html  # fay's and cat's rows say they are not free


def test_the_defender_answers_from_the_ladder_page(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    service.challenge(main.pk, ben, ann)
    row = LadderChallenge.objects.get()
    client = logged_in(ann)
    html = client.get("/ladder/").content.decode()
    assert f'action="/challenges/{row.challenge_id}/accept/"' in html
    assert 'data-testid="decline-ladder"' in html
    # Her notices show it too: a challenge waiting for her.
    assert 'data-testid="notice-badge" >1</span>' in html.replace("  ", " ")
    response = client.post(f"/challenges/{row.challenge_id}/accept/")
    row.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == f"/match/{row.fixture.match_id}/"
    html = client.get("/ladder/").content.decode()
    assert "ben v ann" in html and f'href="/match/{row.fixture.match_id}/"' in html


def test_refusals_say_why(members, main) -> None:
    ann, ben, cat, dan, eve, fay = members
    on_ladder(main, ann, ben, cat, dan, eve)
    response = logged_in(eve).post("/ladder/main/challenge/", {"defender": "ann"})
    assert response.status_code == 409
    assert 'data-code="out_of_range"' in response.content.decode()
    assert "too far above you" in response.content.decode()
    response = logged_in(fay).post("/ladder/main/challenge/", {"defender": "eve"})
    assert 'data-code="not_on_ladder"' in response.content.decode()
    assert logged_in(fay).post("/ladder/main/challenge/", {"defender": "nobody"}).status_code == 404
    assert logged_in(ann).post("/ladder/main/join/").status_code == 409  # on it already
    # Visitors are sent to log in; GET changes nothing.
    assert Client().post("/ladder/main/join/").status_code == 302
    assert logged_in(fay).get("/ladder/main/join/").status_code == 405
    assert not Challenge.objects.exists()


def test_another_ladder_and_the_links_between_them(client: Client, members, main) -> None:
    ann, *_ = members
    juniors = Ladder.objects.create(name="Juniors", slug="juniors", places_above=2, best_of=5)
    on_ladder(juniors, ann)
    html = client.get("/ladder/juniors/").content.decode()
    assert "Juniors" in html and rungs(html) == [("ann", "1", "1500")]
    assert "challenge up to 2 places above" in html and "Best of 5" in html
    assert 'href="/ladder/"' in html  # the main ladder, linked
    assert 'href="/ladder/juniors/"' in client.get("/ladder/").content.decode()
    assert client.get("/ladder/seniors/").status_code == 404


def test_no_ladder_yet(client: Client, db: None) -> None:
    Ladder.objects.all().delete()
    html = client.get("/ladder/").content.decode()
    assert "The club has no ladder yet." in html


def test_the_history_anyone_can_read(client: Client, members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    match = accepted(main, cat, ann)
    concede(match, ann)
    html = client.get("/ladder/history/").content.decode()
    assert "ann conceded to cat · cat takes position 1, ann moves down to 2" in html
    assert f'href="/match/{match.pk}/"' in html
    assert "ben joined at position 2" in html and "Club ladder" in html
    service.void(HistoryEntry.objects.get(kind="result").pk, ben, "a mistake")
    html = client.get("/ladder/main/history/").content.decode()
    assert "An organiser voided the result of cat against ann" in html
    assert "(voided)" in html and "(by ben)" in html and "a mistake" in html
    assert client.get("/ladder/history/?page=99").status_code == 200


def test_a_finished_ladder_match_shows_the_result_and_rating_changes(
    client: Client, members, main
) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = concede(accepted(main, ben, ann), ann)
    html = client.get(f"/match/{match.pk}/").content.decode()
    section = html[html.index('data-testid="match-rating"') :]
    assert "Ladder and ratings" in section
    assert "ann conceded to ben · ben takes position 1, ann moves down to 2" in section
    # Two newcomers: the winner's gain against a provisional opponent is within the budget
    # (75), the loser's loss is Glicko's.
    assert "ben: 1500 → 1575" in section and "+75" in section
    assert "ann: 1500 → 1338" in section and "−162" in section


def test_the_history_says_how_a_result_was_won(client: Client, members, main) -> None:
    """As the match's record words it: conceded, claimed, or played out; in Russian with the
    names in the nominative."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = concede(accepted(main, ben, ann), ann)
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru")
    for ended, english, words in (
        ("conceded", "ann conceded to ben", "ann сдаётся — победитель ben"),
        ("claimed", "ben wins by claim: ann left the table",
         "Техническая победа: ben — соперник ann ушёл из-за стола"),
        ("frames", "ben beat ann", "ben: победа над игроком ann"),
    ):  # fmt: skip
        MatchFigures.objects.filter(match=match).update(termination=ended)
        for html in (
            client.get("/ladder/history/").content.decode(),
            client.get(f"/match/{match.pk}/").content.decode(),
        ):
            assert f"{english} · ben takes position 1" in html, ended
        assert words in russian.get("/ladder/main/history/").content.decode(), ended


def test_a_friendly_shows_no_ladder(client: Client, members) -> None:
    ann, ben, *_ = members
    from game import service as game_service

    friendly = concede(game_service.create_match(ann, ben, 1), ben)
    assert 'data-testid="match-rating"' not in client.get(f"/match/{friendly.pk}/").content.decode()
    rated = concede(game_service.create_match(ann, ben, 1, rated=True), ben)
    html = client.get(f"/match/{rated.pk}/").content.decode()
    assert 'data-testid="match-rating"' in html and "ann: 1500 → 1575" in html
    assert 'data-testid="ladder-result"' not in html


def test_the_profile_shows_the_rating_its_history_and_the_ladders(
    client: Client, members, main
) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann)
    html = client.get("/players/ben/").content.decode()
    standing = html[html.index('data-testid="standing"') :]
    assert "Rating <b>1575</b> (deviation 290) after 1 rated match" in standing
    assert "Position 1 on</a>" not in standing and "Position 1 on" in standing
    svg = standing[standing.index("<svg") : standing.index("</svg>")]
    assert re.search(r'<polyline points="40\.0,[\d.]+ 312\.0,[\d.]+"', svg), svg
    assert "style=" not in svg and "<script" not in html.split("</head>")[1]
    assert "1575 · " in svg  # each point's rating, and its date
    html = client.get("/players/cat/").content.decode()
    assert "No rated match yet." in html and "<svg" not in html


def test_the_chart_places_its_points() -> None:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    assert chart.chart(1500, []) is None
    drawn = chart.chart(1500, [(t, 1600), (t + timedelta(days=1), 1550)])
    assert drawn is not None
    xs = [d.x for d in drawn.dots]
    assert xs == [chart.LEFT, 176.0, chart.WIDTH - chart.RIGHT]  # one step per match
    top = min(d.y for d in drawn.dots)
    assert (
        top == chart.TOP and drawn.dots[0].y == chart.HEIGHT - chart.BOTTOM
    )  # 1600 top, 1500 bottom
    assert (drawn.high, drawn.low) == (1600, 1500)
    assert drawn.points.startswith("40.0,112.0 176.0,8.0 ")
    # A small change is drawn with room: at least MIN_SPAN points top to bottom.
    small = chart.chart(1500, [(t, 1510)])
    assert small is not None and small.high - small.low == chart.MIN_SPAN
    # Only the latest KEPT matches, from the rating before the first of them.
    many = chart.chart(1500, [(t, 1500 + i) for i in range(80)])
    assert many is not None and len(many.dots) == chart.KEPT + 1
    assert many.dots[0].rating == 1500 + 80 - chart.KEPT - 1


def test_a_ladder_page_costs_the_same_however_long_the_ladder(
    client: Client, members, main
) -> None:
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    many = [users.create_user(f"m{i}", password=None) for i in range(30)]
    on_ladder(main, *members[:2], many[10])
    client.force_login(many[10])

    def grow() -> None:
        on_ladder(main, *members[2:], *many[:10], *many[11:])
        service.challenge(main.pk, many[5], many[3])

    # Session and user, the ladder, rungs with ratings, the pending, the viewer's cool-downs,
    # the other ladders, the viewer's guest flag, the badge's count.
    same_cost(lambda: client.get("/ladder/"), grow, most=9)
    assert len(rungs(client.get("/ladder/").content.decode())) == 36


def test_the_history_costs_the_same_however_long(client: Client, members, main) -> None:
    ann, ben, *_ = members
    main.cooldown = timedelta(0)  # the same two, again and again
    main.save()
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann, client_id="c")

    def grow() -> None:
        for i in range(6):
            concede(accepted(main, ann, ben), ben, client_id=f"d{i}")
            concede(accepted(main, ben, ann), ann, client_id=f"c{i}")

    same_cost(lambda: client.get("/ladder/history/"), grow, most=3)
    assert order(main) == ["ben", "ann"]


def test_words_in_russian(client: Client, members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    html = client.get("/ladder/", headers={"accept-language": "ru"}).content.decode()
    assert "Лестница" in html or "лестниц" in html
    assert "Позиция" in html and "Рейтинг" in html and "Форма" in html


def test_a_rated_challenge_can_be_accepted_as_a_friendly(members) -> None:
    ann, ben, *_ = members
    from club import service as club_service
    from rules.challenges import Format

    proposed = club_service.challenge(ann, ben, Format(1, rated=True)).challenge
    assert proposed is not None
    page = logged_in(ben).get(f"/challenges/{proposed.pk}/").content.decode()
    assert 'data-testid="accept-friendly"' in page and 'name="rated" value="no"' in page
    response = logged_in(ben).post(f"/challenges/{proposed.pk}/accept/", {"rated": "no"})
    proposed.refresh_from_db()
    assert response.status_code == 302 and proposed.match is not None
    assert not proposed.match.rated
    assert timezone.now() > proposed.created
