"""A knockout end to end through the competitions' service and the real match service: an
organiser opens it, six members enter (one withdraws and comes back), the draw seeds by rating
and gives the top two seeds byes, each match is played at the table (conceded through the
match service after enough strokes to be rated), the winners go on round by round, every
result is rated as a competition's, and the final's winner is the champion. A fixture not
played by its deadline is decided by the fixtures' default: a walkover to the one who came, or
flagged for an organiser when neither did."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from competitions import service
from competitions.models import Competition, Decision, Pairing
from competitions.service import CompetitionError
from fixtures import service as fixtures_service
from fixtures.models import Fixture
from game.models import Match
from ratings.models import RatedResult, Rating
from rules import bracket as rules
from tests.ladder.helpers import concede

pytestmark = pytest.mark.django_db(transaction=True)

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def refused(call: Any) -> str:
    with pytest.raises(CompetitionError) as caught:
        call()
    return caught.value.code


def opened(organiser: Any, members: Any, plan: rules.BestOf | None = None) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Winter knockout", now, now + timedelta(days=1), name_ru="Зимний турнир",
        best_of=plan or rules.BestOf(1),
    )  # fmt: skip
    for m in members:
        service.enter(row.pk, m, now)
    return row


def to_play(row: Competition) -> dict[str, Match]:
    """The bracket's matches to be played now, by key, with their matches."""
    return {
        p.key: Match.objects.select_related("player_a", "player_b").get(pk=p.fixture.match_id)
        for p in Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
            "fixture"
        )
    }


def names(match: Match) -> tuple[str, str]:
    return match.player_a.username, match.player_b.username


def test_entry_is_open_to_members_until_the_draw(organiser, members) -> None:
    ann, ben, *_ = members
    now = timezone.now()
    assert (
        refused(lambda: service.open_competition(ann, "Mine", now, now + timedelta(days=1)))
        == "organisers_only"
    )
    row = service.open_competition(organiser, "Cup", now, now + timedelta(days=1))
    service.enter(row.pk, ann, now)
    assert refused(lambda: service.enter(row.pk, ann, now)) == "entered_already"
    service.withdraw(row.pk, ann, now)
    assert refused(lambda: service.withdraw(row.pk, ann, now)) == "not_entered"
    service.enter(row.pk, ann, now)
    assert refused(lambda: service.draw(row.pk, ann, now)) == "organisers_only"
    assert refused(lambda: service.draw(row.pk, organiser, now)) == "too_few_entrants"
    assert refused(lambda: service.enter(row.pk, ben, now + timedelta(days=1))) == "entry_closed"
    service.close_entry(row.pk, organiser, now)
    assert refused(lambda: service.enter(row.pk, ben, now)) == "entry_closed"
    assert refused(lambda: service.withdraw(row.pk, ann, now)) == "entry_closed"


def test_a_knockout_is_drawn_played_at_the_table_and_won(organiser, members) -> None:
    row = opened(organiser, members, rules.BestOf(1, semi_finals=3, final=5))
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    row.refresh_from_db()
    assert (row.status, row.seed, row.seeded) == ("in_play", 7, 2)
    seeds = {e.member.username: e.seed for e in row.entrants.select_related("member")}
    assert (seeds["ann"], seeds["ben"]) == (1, 2)  # seeded by rating; the rest drawn
    assert sorted(seeds.values()) == [1, 2, 3, 4, 5, 6]
    # Six entrants in eight places: seeds 1 and 2 have byes, two quarter-finals are played.
    first = to_play(row)
    assert sorted(first) == ["w1.1", "w1.3"]
    assert all(m.best_of == 1 and m.rated for m in first.values())
    assert all(
        f.kind == "competition" and f.play_by is not None
        for f in Fixture.objects.filter(pairing__competition=row)
    )
    assert Decision.objects.filter(competition=row).count() == 0  # byes are worked out
    played = 0
    for round_, best_of in ((1, 1), (2, 3), (3, 5)):
        now = to_play(row)
        assert now and all(k.startswith(f"w{round_}.") for k in now), now
        for match in now.values():
            assert match.best_of == best_of
            a, b = names(match)
            loser = match.player_b if RATINGS[a] > RATINGS[b] else match.player_a
            concede(match, loser)  # the match's end reaches the bracket through its fixture
            played += 1
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann")
    final = Pairing.objects.get(competition=row, key="w3.0").fixture.match
    assert names(final) == ("ann", "ben")  # seeds 1 and 2 meet only in the final
    results = RatedResult.objects.filter(match__fixture__pairing__competition=row)
    assert played == 5 and results.count() == 5
    assert set(results.values_list("kind", flat=True)) == {"competition"}
    assert [d.how for d in Decision.objects.filter(competition=row)] == ["played"] * 5


def test_a_result_is_applied_once(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    match = next(iter(to_play(row).values()))
    concede(match, match.player_b)
    match.refresh_from_db()
    fixture = Fixture.objects.get(match=match)
    with transaction.atomic():  # as the fixtures' service calls it
        assert not service.OWNER.decided(fixture, match, timezone.now())
    assert Decision.objects.filter(competition=row).count() == 1
    assert RatedResult.objects.filter(match=match).count() == 1


def test_a_fixture_not_played_by_its_deadline(organiser, members) -> None:
    """The one who came goes through by a walkover; neither came: flagged, the match waits
    for an organiser."""
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    came, nobody = to_play(row).values()
    Match.objects.filter(pk=came.pk).update(arrived_a=timezone.now())
    done = fixtures_service.settle_due(timezone.now() + timedelta(days=8), 10)
    assert len(done.decided) == 2
    decisions = list(Decision.objects.filter(competition=row))
    assert [(d.how, d.winner_id) for d in decisions] == [("walkover", came.player_a_id)]
    flagged = Fixture.objects.get(match=nobody)
    assert (flagged.flagged, flagged.winner_id) == (True, None)
    row.refresh_from_db()
    bracket = service.bracket_of(row)
    key = rules.Key.parse(Pairing.objects.get(fixture=flagged).key)
    assert rules.match(bracket, key).state is rules.State.READY  # an organiser decides
    assert not RatedResult.objects.filter(match__in=(came, nobody)).exists()


def test_an_organiser_gives_a_flagged_match_by_a_walkover(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=7)
    match = next(iter(to_play(row).values()))
    key = Pairing.objects.get(fixture__match=match).key
    now = timezone.now()
    assert refused(lambda: service.award(row.pk, key, match.player_a, organiser, now)) == (
        "not_flagged"  # still to be played
    )
    fixtures_service.settle_due(now + timedelta(days=8), 10)  # nobody came: flagged
    ann = members[0]
    assert refused(lambda: service.award(row.pk, key, match.player_a, ann, now)) == (
        "organisers_only"
    )
    outsider = next(m for m in members if m.pk not in (match.player_a_id, match.player_b_id))
    assert refused(lambda: service.award(row.pk, key, outsider, organiser, now)) == ("not_in_match")
    made = service.award(row.pk, key, match.player_b, organiser, now)
    assert (made.how, made.winner_id) == ("walkover", match.player_b_id)
    assert refused(lambda: service.award(row.pk, key, match.player_b, organiser, now)) == (
        "not_flagged"
    )
    row.refresh_from_db()
    semi = [m for m in rules.ready(service.bracket_of(row)) if match.player_b_id in m.players]
    assert len(semi) == 1 and Pairing.objects.filter(competition=row, key=str(semi[0].key)).exists()
