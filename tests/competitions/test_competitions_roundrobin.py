"""A round robin through the competitions' service and the real match service: the draw
(seeded by rating, pots drawn from the stored seed, groups by the snake) repeats exactly from
its seed; every group plays n(n − 1)/2 fixtures a cycle, made through the fixtures; results
played at the table make the standings and the top of a single group the champion; a member
who withdraws keeps the results they played and their remaining fixtures are walkovers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.contrib.auth import get_user_model
from django.utils import timezone

from competitions import service
from competitions.models import Competition, Decision, Entrant, Pairing
from competitions.service import CompetitionError
from fixtures import service as fixtures_service
from fixtures.models import Fixture
from game.models import Match
from ratings.models import RatedResult, Rating
from rules import bracket as rules
from rules import standings
from tests.ladder.helpers import concede

pytestmark = pytest.mark.django_db(transaction=True)

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def idle() -> None:
    """Channels' shared database thread idle (what a broadcast's listener handed it done): on
    SQLite's shared in-memory database its read would lock a table the next stroke writes
    (tests/conftest.py says the same between tests)."""
    SyncToAsync.single_thread_executor.submit(lambda: None).result(timeout=60)


def opened(organiser: Any, members: Any, groups: int = 1, cycles: int = 1) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.get_or_create(member=m, defaults={"rating": RATINGS[m.username], "rd": 60.0})
    row = service.open_competition(
        organiser, "Winter league", now, now + timedelta(days=1), name_ru="Зимняя лига",
        best_of=rules.BestOf(3), format="round_robin", groups=groups, cycles=cycles,
    )  # fmt: skip
    for m in members:
        service.enter(row.pk, m, now)
    return row


def drawn(row: Competition) -> tuple[tuple[tuple[str, ...], ...], list[tuple[str, str, str]]]:
    """The groups (names in seed order) and every fixture (key, first, second)."""
    entrants = Entrant.objects.filter(competition=row).select_related("member").order_by("seed")
    groups: dict[int, list[str]] = {}
    for e in entrants:
        assert e.group is not None
        groups.setdefault(e.group, []).append(e.member.username)
    pairs = [
        (p.key, p.fixture.first.username, p.fixture.second.username)
        for p in Pairing.objects.filter(competition=row)
        .select_related("fixture__first", "fixture__second")
        .order_by("pk")
    ]
    return tuple(tuple(g) for _, g in sorted(groups.items())), pairs


def play_all(row: Competition, played: bool = True) -> int:
    """Every fixture to be played: the higher rated wins at the table (`played`: after enough
    strokes for a rating; else conceded at once)."""
    played = 0
    for p in Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
        "fixture"
    ):
        match = Match.objects.select_related("player_a", "player_b").get(pk=p.fixture.match_id)
        a, b = match.player_a, match.player_b
        idle()
        concede(match, b if RATINGS[a.username] > RATINGS[b.username] else a, played=played)
        played += 1
    return played


def test_the_draw_repeats_from_its_seed_and_makes_every_fixture(organiser, members) -> None:
    now = timezone.now()
    one, two = opened(organiser, members, 2, 2), opened(organiser, members, 2, 2)
    service.draw(one.pk, organiser, now, seed=11)
    service.draw(two.pk, organiser, now, seed=11)
    groups, pairs = drawn(one)
    assert (groups, [(p[1], p[2]) for p in pairs]) == (
        drawn(two)[0],
        [(p[1], p[2]) for p in drawn(two)[1]],
    )
    # Pots of two by rating, drawn; the snake: seeds 1 and 2 head groups 1 and 2.
    assert {groups[0][0], groups[1][0]} == {"ann", "ben"}
    assert {groups[0][1], groups[1][1]} == {"cat", "dan"}
    assert [len(g) for g in groups] == [3, 3]
    # n(n − 1)/2 a group a cycle: 3 + 3, twice round.
    assert len(pairs) == 12
    for g, names in enumerate(groups, start=1):
        mine = [p for p in pairs if p[0].startswith(f"g{g}.")]
        assert len(mine) == 6
        met = [frozenset(p[1:]) for p in mine]
        assert all(met.count(pair) == 2 for pair in met)
        assert all(set(pair) <= set(names) for pair in met)
    one.refresh_from_db()
    assert (one.status, one.seed) == ("in_play", 11)
    fixtures = Fixture.objects.filter(pairing__competition=one)
    assert all(f.kind == "competition" and f.status == "to_play" for f in fixtures)
    assert {m.best_of for m in Match.objects.filter(fixture__in=fixtures)} == {3}
    # Round n is to be played by n windows after the draw.
    last = Pairing.objects.filter(competition=one, key__startswith="g1.6.").first()
    assert last is not None and last.fixture.play_by == now + 6 * one.play_time
    single = opened(organiser, members)
    service.draw(single.pk, organiser, now, seed=5)
    assert len(drawn(single)[1]) == 15  # 6 × 5 / 2
    assert drawn(single)[0] == (("ann", "ben", "cat", "dan", "eve", "fay"),)  # by rating


def test_too_many_groups_are_refused(organiser, members) -> None:
    row = opened(organiser, members[:3], groups=2)
    with pytest.raises(CompetitionError) as caught:
        service.draw(row.pk, organiser, timezone.now(), seed=1)
    assert caught.value.code == "bad_groups"
    row.refresh_from_db()
    assert row.status == "open" and not Pairing.objects.filter(competition=row).exists()


def test_results_make_the_standings_and_the_champion(organiser, members) -> None:
    row = opened(organiser, members[:4])
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    assert play_all(row) == 6
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann")
    entrants = list(Entrant.objects.filter(competition=row))
    (table,) = service.tables_of(entrants, list(Decision.objects.filter(competition=row)))
    rows = standings.standings(table)
    names = {m.pk: m.username for m in members}
    assert [names[r.tally.member] for r in rows] == ["ann", "ben", "cat", "dan"]
    assert [(r.tally.played, r.tally.won, r.tally.lost) for r in rows] == [
        (3, 3, 0),
        (3, 2, 1),
        (3, 1, 2),
        (3, 0, 3),
    ]
    # A conceded match counts the frames needed to win it for the winner (best of 3: two).
    assert all(r.tally.frames_won == 2 * r.tally.won for r in rows)
    results = RatedResult.objects.filter(match__fixture__pairing__competition=row)
    assert results.count() == 6 and set(results.values_list("kind", flat=True)) == {"competition"}


def test_a_withdrawal_keeps_the_results_played_and_walks_over_the_rest(organiser, members) -> None:
    ann, ben, cat, dan = members[:4]
    row = opened(organiser, members[:4])
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    ann_dan = Pairing.objects.get(
        competition=row, fixture__first__in=(ann, dan), fixture__second__in=(ann, dan)
    )
    concede(Match.objects.get(pk=ann_dan.fixture.match_id), dan, played=False)
    with pytest.raises(CompetitionError) as caught:
        service.withdraw(row.pk, dan, timezone.now(), by=ben)
    assert caught.value.code == "organisers_only"
    service.withdraw(row.pk, dan, timezone.now())
    with pytest.raises(CompetitionError) as caught:
        service.withdraw(row.pk, dan, timezone.now())
    assert caught.value.code == "withdrawn_already"
    theirs = Decision.objects.filter(competition=row, loser=dan).order_by("pk")
    assert sorted((d.how, d.winner.username) for d in theirs) == [
        ("played", "ann"),
        ("walkover", "ben"),
        ("walkover", "cat"),
    ]
    walked = Pairing.objects.filter(
        competition=row, key__in=[d.key for d in theirs if d.how == "walkover"]
    ).select_related("fixture__match")
    assert all(p.fixture.status == "off" and p.fixture.match.status == "abandoned" for p in walked)
    assert not RatedResult.objects.filter(match__in=[p.fixture.match for p in walked]).exists()
    assert Entrant.objects.get(competition=row, member=dan).withdrawn is not None
    play_all(row, played=False)
    row.refresh_from_db()
    assert (row.status, row.champion_id) == ("finished", ann.pk)
    entrants = list(Entrant.objects.filter(competition=row))
    (table,) = service.tables_of(entrants, list(Decision.objects.filter(competition=row)))
    tally = {t.member: t for t in table.tallies}
    assert (tally[dan.pk].played, tally[dan.pk].lost, tally[dan.pk].frames_lost) == (3, 3, 6)
    assert (tally[ben.pk].won, tally[cat.pk].won) == (2, 1)


def test_a_flagged_fixture_is_given_by_an_organiser(organiser, members) -> None:
    row = opened(organiser, members[:3])
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    fixtures_service.settle_due(timezone.now() + timedelta(days=30), 10)  # nobody came
    assert not Decision.objects.filter(competition=row).exists()
    p = Pairing.objects.select_related("fixture__first").filter(competition=row).first()
    assert p is not None and p.fixture.flagged
    made = service.award(row.pk, p.key, p.fixture.first, organiser, timezone.now())
    assert (made.how, made.winner_id, made.winner_frames) == ("walkover", p.fixture.first_id, 2)


def test_groups_then_a_knockout(organiser, members) -> None:
    """Two groups of three, the top two of each through: the group winners seeded first,
    each meeting the other group's runner-up in the semi-finals; the final's winner is the
    champion."""
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Winter cup", now, now + timedelta(days=1), best_of=rules.BestOf(1, final=3),
        format="groups", groups=2, advance=2,
    )  # fmt: skip
    for m in members:
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now, seed=4)
    groups, pairs = drawn(row)
    assert len(pairs) == 6 and all(p[0].startswith("g") for p in pairs)
    play_all(row, played=False)  # the groups
    row.refresh_from_db()
    assert row.status == "in_play" and row.slots is not None and row.knockout_seeds is not None
    names = {m.pk: m.username for m in members}
    seeds = [names[s] for s in row.knockout_seeds]
    assert seeds == [groups[0][0], groups[1][0], groups[0][1], groups[1][1]]
    semis = Pairing.objects.filter(competition=row, key__startswith="w").select_related(
        "fixture__first", "fixture__second"
    )
    met = {frozenset((p.fixture.first.username, p.fixture.second.username)) for p in semis}
    assert met == {frozenset((groups[0][0], groups[1][1])), frozenset((groups[1][0], groups[0][1]))}
    play_all(row, played=False)  # the semi-finals
    final = Pairing.objects.get(competition=row, key="w2.0")
    assert final.fixture.match.best_of == 3
    play_all(row, played=False)
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann")
    assert Decision.objects.filter(competition=row).count() == 9


def test_groups_refuse_more_through_than_a_group_holds(organiser, members) -> None:
    now = timezone.now()
    row = service.open_competition(
        organiser, "Cup", now, now + timedelta(days=1), format="groups", groups=2, advance=4
    )
    for m in members:
        service.enter(row.pk, m, now)
    with pytest.raises(CompetitionError) as caught:
        service.draw(row.pk, organiser, now, seed=1)
    assert caught.value.code == "bad_advance"
