"""A double elimination, a knockout's third-place match and withdrawals from a knockout, through
the competitions' service and the real match service, on the set clock: six members in a
double elimination played to its champion through the grand final's reset (fixtures made in
the winners', losers' and grand final's matches as their players become known, each round's
best-of, the placings); a knockout's third-place match played with the final; a member who
withdraws and one an organiser disqualifies after a knockout's draw (their results stand,
their match under way ends unplayed, their matches to come are walkovers); a withdrawal from
a double elimination's losers' bracket, and from its winners' bracket, whose loser still
drops (and walks over in turn)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competitions import service
from competitions.models import Competition, Decision, Entrant, Pairing
from competitions.service import CompetitionError
from game.models import Match
from ratings.models import RatedResult, Rating
from rules import bracket as rules
from tests.clock import SetClock
from tests.ladder.helpers import concede, each_plays

pytestmark = pytest.mark.django_db(transaction=True)

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}
PLAN = rules.BestOf(1, semi_finals=3, final=5)


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def refused(call: Any) -> str:
    with pytest.raises(CompetitionError) as caught:
        call()
    return caught.value.code


def drawn(organiser: Any, members: Any, now: Any, **options: Any) -> Competition:
    """Opened (`options`: the format and its options), entered by `members`, drawn."""
    for m in members:
        Rating.objects.get_or_create(member=m, defaults={"rating": RATINGS[m.username], "rd": 60.0})
    row = service.open_competition(
        organiser, "Winter cup", now, now + timedelta(days=1), best_of=PLAN, **options
    )
    for m in members:
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now, seed=7)
    row.refresh_from_db()
    return row


def to_play(row: Competition) -> dict[str, Match]:
    """The matches to be played now, by key."""
    return {
        p.key: Match.objects.select_related("player_a", "player_b").get(pk=p.fixture.match_id)
        for p in Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
            "fixture"
        )
    }


def play(row: Competition, upsets: frozenset[str] = frozenset(), played: bool = False) -> list[str]:
    """Every match to be played now, the higher rated winning (the lower in `upsets`), conceded
    at the table (`played`: after enough strokes to be rated): their keys."""
    now = to_play(row)
    for key, match in now.items():
        a, b = match.player_a, match.player_b
        higher, lower = (a, b) if RATINGS[a.username] > RATINGS[b.username] else (b, a)
        concede(match, higher if key in upsets else lower, played=played)
    return sorted(now)


def names(row: Competition, key: str) -> tuple[str | None, str | None]:
    users = {u.pk: u.username for u in get_user_model().objects.all()}
    a, b = rules.match(service.bracket_of(row), rules.Key.parse(key)).players
    return users.get(a) if a else None, users.get(b) if b else None


def test_a_double_elimination_of_six_is_played_through_the_reset(
    organiser, members, set_clock: SetClock
) -> None:
    now = set_clock.now()
    row = drawn(organiser, members, now, format="double")
    assert (row.format, row.reset, row.status) == ("double", True, "in_play")
    assert row.seeded == 2 and [e.seed for e in Entrant.objects.filter(competition=row)] == [
        1, 2, 3, 4, 5, 6,
    ]  # fmt: skip
    # Eight places: seeds 1 and 2 have byes, and so the losers' first round has nobody to
    # play (its places are the byes' losers): two matches to play.
    assert play(row) == ["w1.1", "w1.3"]
    assert play(row) == ["w2.0", "w2.1"]  # the losers' second round waits for their losers
    assert play(row) == ["l2.0", "l2.1", "w3.0"]
    assert names(row, "w3.0") == ("ann", "ben")
    assert play(row) == ["l3.0"]
    assert names(row, "l4.0") == ("cat", "ben")  # the losers' final: ben dropped into it
    assert play(row) == ["l4.0"]
    assert names(row, "f1.0") == ("ann", "ben")
    assert to_play(row)["f1.0"].best_of == 5
    # The losers' champion wins the grand final: each has lost once, and the reset decides.
    assert play(row, upsets=frozenset({"f1.0"}), played=True) == ["f1.0"]
    row.refresh_from_db()
    assert (row.status, row.champion_id) == ("in_play", None)
    assert names(row, "f2.0") == ("ben", "ann")
    assert play(row, played=True) == ["f2.0"]
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann") and row.finished
    bracket = service.bracket_of(row)
    users = {m.pk: m.username for m in members}
    assert [users.get(p) for p in rules.placings(bracket)] == ["ann", "ben", "cat"]
    # 2N − 1 matches with the reset, each a fixture made once its players were known, each
    # the best of its round's frames: the earlier rounds of both brackets 1, the winners' and
    # losers' finals the semi-finals' 3, the grand final and its reset the final's 5.
    best = {
        p.key: p.fixture.match.best_of
        for p in Pairing.objects.filter(competition=row).select_related("fixture__match")
    }
    assert best == {
        "w1.1": 1, "w1.3": 1, "w2.0": 1, "w2.1": 1, "w3.0": 3,
        "l2.0": 1, "l2.1": 1, "l3.0": 1, "l4.0": 3, "f1.0": 5, "f2.0": 5,
    }  # fmt: skip
    decided = Decision.objects.filter(competition=row)
    assert decided.count() == 11 and set(decided.values_list("how", flat=True)) == {"played"}
    # Every one is rated as a competition's (the grand finals, played, changed the ratings).
    results = RatedResult.objects.filter(match__fixture__pairing__competition=row)
    assert results.count() == 11 and set(results.values_list("kind", flat=True)) == {"competition"}
    changed = results.filter(unrated="").values_list("match__fixture__pairing__key", flat=True)
    assert sorted(changed) == ["f1.0", "f2.0"]


def test_the_winners_champion_winning_the_grand_final_needs_no_reset(
    organiser, members, set_clock: SetClock
) -> None:
    row = drawn(organiser, members[:3], set_clock.now(), format="double")
    while play(row):
        pass
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann")
    keys = set(Pairing.objects.filter(competition=row).values_list("key", flat=True))
    assert "f1.0" in keys and "f2.0" not in keys


def test_a_knockouts_third_place_match(organiser, members, set_clock: SetClock) -> None:
    now = set_clock.now()
    plain = drawn(organiser, members, now)
    assert plain.third_place is False
    row = drawn(organiser, members, now, third_place=True)
    assert row.third_place is True
    assert play(row) == ["w1.1", "w1.3"]
    assert play(row) == ["w2.0", "w2.1"]
    third = to_play(row)["t1.0"]
    assert third.best_of == 3  # as the semi-finals
    semi_finalists = set(names(row, "w2.0") + names(row, "w2.1")) - {"ann", "ben"}
    assert set(names(row, "t1.0")) == semi_finalists  # the semi-finals' losers
    assert play(row, upsets=frozenset({"t1.0"})) == ["t1.0", "w3.0"]
    row.refresh_from_db()
    assert (row.status, row.champion.username) == ("finished", "ann")
    users = {m.pk: m.username for m in members}
    placed = [users.get(p or 0) for p in rules.placings(service.bracket_of(row))]
    upset = min(semi_finalists, key=lambda n: RATINGS[n or ""])  # the lower rated won it
    assert placed == ["ann", "ben", upset]
    # A knockout opened without it has none; nor does a round robin's option take.
    assert not Pairing.objects.filter(competition=plain, key="t1.0").exists()
    rr = service.open_competition(
        organiser, "League", now, now + timedelta(days=1), format="round_robin", third_place=True
    )
    assert rr.third_place is False


def test_a_withdrawal_and_a_disqualification_in_a_knockout(
    organiser, members, set_clock: SetClock
) -> None:
    ann, ben, *_ = members
    now = set_clock.now()
    row = drawn(organiser, members, now)
    # The top seed withdraws at once: her bye stands, written down (and the other bye with
    # it), and her quarter-final to come will be a walkover.
    service.withdraw(row.pk, ann, now)
    assert refused(lambda: service.withdraw(row.pk, ann, now)) == "withdrawn_already"
    stored = {d.key: (d.how, d.winner_id) for d in Decision.objects.filter(competition=row)}
    assert stored == {"w1.0": ("bye", ann.pk), "w1.2": ("bye", ben.pk)}
    # A first-round match under way: the organiser disqualifies its higher rated player.
    first = to_play(row)
    live = first["w1.1"]
    each_plays(live)
    a, b = live.player_a, live.player_b
    out, stays = (a, b) if RATINGS[a.username] > RATINGS[b.username] else (b, a)
    assert refused(lambda: service.withdraw(row.pk, out, now, by=ben)) == "organisers_only"
    set_clock.move(60)
    service.withdraw(row.pk, out, set_clock.now(), by=organiser)
    live.refresh_from_db()
    fixture = Pairing.objects.get(competition=row, key="w1.1").fixture
    assert (fixture.status, live.status) == ("off", "abandoned")
    assert not RatedResult.objects.filter(match=live).exists()
    # Its walkover, and the next, against the withdrawn top seed: nobody plays w2.0.
    bracket = service.bracket_of(row)
    assert rules.match(bracket, rules.Key.parse("w1.1")).decision == rules.Decision(
        stays.pk, rules.How.WALKOVER
    )
    assert rules.match(bracket, rules.Key.parse("w2.0")).decision == rules.Decision(
        stays.pk, rules.How.WALKOVER
    )
    other = first["w1.3"]
    assert play(row) == ["w1.3"]
    other.refresh_from_db()
    lost = other.player_b if Decision.objects.get(competition=row, key="w1.3").winner_id == (
        other.player_a_id
    ) else other.player_a  # fmt: skip
    assert refused(lambda: service.withdraw(row.pk, lost, now)) == "out_already"
    assert play(row) == ["w2.1"]
    assert names(row, "w3.0") == (stays.username, "ben")
    assert play(row) == ["w3.0"]
    row.refresh_from_db()
    assert (row.status, row.champion_id) == ("finished", ben.pk)
    # What was decided at each withdrawal is written down; the walkover to come (w2.0) is
    # worked out, as byes are.
    hows = dict(Decision.objects.filter(competition=row).values_list("key", "how"))
    assert hows == {
        "w1.0": "bye", "w1.2": "bye", "w1.1": "walkover", "w1.3": "played", "w2.1": "played",
        "w3.0": "played",
    }  # fmt: skip
    keys = set(Pairing.objects.filter(competition=row).values_list("key", flat=True))
    assert keys == {"w1.1", "w1.3", "w2.1", "w3.0"}
    assert refused(lambda: service.withdraw(row.pk, ben, now)) == "entry_closed"
    withdrawn = Entrant.objects.filter(competition=row, withdrawn__isnull=False)
    assert set(withdrawn.values_list("member_id", flat=True)) == {ann.pk, out.pk}


def test_withdrawals_from_a_double_eliminations_two_sides(
    organiser, members, set_clock: SetClock
) -> None:
    ann, ben, cat, dan = members[:4]
    now = set_clock.now()
    row = drawn(organiser, members[:4], now, format="double", reset=False)
    assert row.reset is False
    assert play(row) == ["w1.0", "w1.1"]  # ann beat dan, ben beat cat
    assert names(row, "l1.0") == ("dan", "cat")
    # dan withdraws from the losers' bracket during his match there.
    losers = to_play(row)["l1.0"]
    each_plays(losers)
    service.withdraw(row.pk, dan, now)
    losers.refresh_from_db()
    assert losers.status == "abandoned"
    assert Decision.objects.get(competition=row, key="l1.0").winner_id == cat.pk
    # ben is disqualified before the winners' final: ann goes on by a walkover, and ben,
    # dropping into the losers' final, walks over to cat there in turn.
    service.withdraw(row.pk, ben, now, by=organiser)
    bracket = service.bracket_of(row)
    for key, winner in (("w2.0", ann), ("l2.0", cat)):
        decision = rules.match(bracket, rules.Key.parse(key)).decision
        assert decision == rules.Decision(winner.pk, rules.How.WALKOVER), key
    assert names(row, "f1.0") == ("ann", "cat")
    assert play(row, upsets=frozenset({"f1.0"})) == ["f1.0"]
    row.refresh_from_db()
    # No reset chosen: the grand final decides.
    assert (row.status, row.champion_id) == ("finished", cat.pk)
    keys = set(Pairing.objects.filter(competition=row).values_list("key", flat=True))
    assert keys == {"w1.0", "w1.1", "l1.0", "w2.0", "f1.0"}
    assert Pairing.objects.get(competition=row, key="w2.0").fixture.status == "off"


def test_a_withdrawal_from_the_knockout_after_groups(
    organiser, members, set_clock: SetClock
) -> None:
    """Groups of three, two through from each: once the knockout is drawn, a semi-finalist's
    withdrawal walks over to the opponent; one knocked out in the groups is out already."""
    now = set_clock.now()
    row = drawn(organiser, members, now, format="groups", groups=2, advance=2)
    assert len(play(row)) == 6  # the groups
    row.refresh_from_db()
    assert row.slots is not None
    semis = to_play(row)
    assert sorted(semis) == ["w1.0", "w1.1"]
    out = [m for m in members if m.pk not in row.knockout_seeds]
    assert refused(lambda: service.withdraw(row.pk, out[0], now)) == "out_already"
    leaving = semis["w1.1"].player_a
    other = semis["w1.1"].player_b
    service.withdraw(row.pk, leaving, now)
    assert Decision.objects.get(competition=row, key="w1.1").winner_id == other.pk
    assert play(row) == ["w1.0"]
    finalists = names(row, "w2.0")
    assert finalists[1] == other.username
    assert play(row) == ["w2.0"]
    row.refresh_from_db()
    best = max(finalists, key=lambda n: RATINGS[n or ""])
    assert (row.status, row.champion.username) == ("finished", best)
