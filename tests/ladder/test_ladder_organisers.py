"""What organisers do (ladder/service.py; their admin pages: test_ladder_admin.py): void a
result (positions and ratings as if it never happened), move a member by hand, remove one;
each recorded in the history. (The ratings of rated friendlies: tests/ratings.)"""

from __future__ import annotations

import pytest
from django.conf import settings

from club.models import Challenge
from ladder import service
from ladder.models import HistoryEntry, LadderChallenge, Rung
from ratings.models import RatedResult, Rating, RatingChange
from rules import ladder as rules
from rules import ratings
from tests.ladder.helpers import accepted, concede, on_ladder, order

pytestmark = pytest.mark.django_db


def first_result() -> tuple[ratings.Rating, ratings.Rating]:
    """Two newcomers after one rated result: the winner's gain against a provisional opponent
    is within the budget (rules.ratings.rate_result)."""
    room = settings.RATINGS["PROVISIONAL_GAIN"]
    return ratings.rate_result(ratings.NEW, ratings.NEW, 1.0, room, room)


def ratings_of(*users) -> list[float]:  # type: ignore[no-untyped-def]
    return [round(Rating.objects.get(member=u).rating, 6) for u in users]


def test_voiding_a_result_restores_positions_and_ratings(members, main) -> None:
    ann, ben, cat, dan, *_ = members
    organiser = members[5]
    on_ladder(main, ann, ben, cat, dan)
    # Two results: dan beats ben (dan 2nd), then cat beats dan (cat 2nd).
    first = accepted(main, dan, ben)
    concede(first, ben)
    assert order(main) == ["ann", "dan", "ben", "cat"]
    second = accepted(main, cat, dan)
    concede(second, dan)
    assert order(main) == ["ann", "cat", "dan", "ben"]
    # What the club would have without the first: only cat (3rd) beating dan (4th).
    without = rules.replay(
        [rules.Joined(m.pk) for m in (ann, ben, cat, dan)] + [rules.Result(cat.pk, dan.pk)]
    )
    cat_only, dan_only = first_result()

    entry = HistoryEntry.objects.get(kind="result", match=first)
    voiding = service.void(entry.pk, organiser, "played on the wrong table")
    assert tuple(Rung.objects.order_by("position").values_list("member", flat=True)) == without
    assert order(main) == ["ann", "ben", "cat", "dan"]  # cat was above dan already: nobody moves
    assert ratings_of(cat, dan) == [round(cat_only.rating, 6), round(dan_only.rating, 6)]
    assert ratings_of(ann, ben) == [1500, 1500]
    assert Rating.objects.get(member=ben).played == 0
    # Forms as if it never happened.
    forms = dict(Rung.objects.values_list("member__username", "form"))
    assert forms == {"ann": "", "ben": "", "cat": "W", "dan": "L"}
    # Recorded: the void names the result, the organiser and why; the result is marked.
    entry.refresh_from_db()
    assert entry.voided and voiding.voids == entry and voiding.kind == "voided"
    assert (voiding.by, voiding.note, voiding.match) == (
        organiser,
        "played on the wrong table",
        first,
    )
    assert RatedResult.objects.get(match=first).voided
    # The later result's rating change now reads as if the first never happened.
    change = RatingChange.objects.get(result__match=second, player=dan)
    assert (change.before, round(change.after, 6)) == (1500, round(dan_only.rating, 6))


def test_a_result_is_voided_once_and_only_a_result(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann)
    entry = HistoryEntry.objects.get(kind="result")
    service.void(entry.pk, ann)
    with pytest.raises(service.LadderError) as err:
        service.void(entry.pk, ann)
    assert err.value.code == "voided"
    joined = HistoryEntry.objects.filter(kind="joined").first()
    assert joined is not None
    with pytest.raises(service.LadderError) as err:
        service.void(joined.pk, ann)
    assert err.value.code == "not_a_result"
    assert order(main) == ["ann", "ben"]


def test_moving_a_member_by_hand_is_recorded_and_replays(members, main) -> None:
    ann, ben, cat, dan, *_ = members
    organiser = members[5]
    on_ladder(main, ann, ben, cat, dan)
    moved = service.move(main.pk, dan, 1, organiser, "a new season")
    assert order(main) == ["dan", "ann", "ben", "cat"]
    assert (moved.kind, moved.member_from, moved.member_to, moved.by) == ("moved", 4, 1, organiser)
    # The history still gives the positions (a later void replays the move too).
    concede(accepted(main, cat, ann), ann)
    assert order(main) == ["dan", "cat", "ann", "ben"]
    service.void(HistoryEntry.objects.get(kind="result").pk, organiser)
    assert order(main) == ["dan", "ann", "ben", "cat"]


def test_removing_a_member_moves_those_below_up_and_cancels_their_challenge(members, main) -> None:
    ann, ben, cat, dan, *_ = members
    organiser = members[5]
    on_ladder(main, ann, ben, cat, dan)
    done = service.challenge(main.pk, cat, ben)
    assert done.challenge is not None
    removed = service.remove(main.pk, ben, organiser, "inactive since March")
    assert order(main) == ["ann", "cat", "dan"]
    assert (removed.kind, removed.member_from, removed.note) == (
        "removed",
        2,
        "inactive since March",
    )
    row = LadderChallenge.objects.get()
    assert (row.status, row.outcome) == ("settled", "cancelled")
    assert Challenge.objects.get().status == "withdrawn"
    assert not Rung.objects.filter(engaged__isnull=False).exists()  # cat is free again
    assert service.challenge(main.pk, dan, cat).challenge is not None
    # Rejoining puts them at the bottom; the history replays to the same order.
    service.join(main.pk, ben)
    assert order(main) == ["ann", "cat", "dan", "ben"]
