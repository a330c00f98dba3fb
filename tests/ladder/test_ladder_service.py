"""The ladder's service (ladder/service.py): joining, challenging, the answer, the result of
the match however it ends, deadlines and their default results on a controlled clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from club import service as club_service
from club.models import Challenge, Guest
from club.service import ClubError
from fixtures import service as fixtures_service
from game import service as game_service
from game.models import Absence, Connection, Match
from game.protocol import client_in
from game.signals import match_finished
from ladder import service
from ladder.models import HistoryEntry, Ladder, LadderChallenge, Rung
from ladder.service import LadderError
from ratings.models import RatedResult, Rating
from tests.ladder.helpers import accepted, concede, on_ladder, order, row_of

pytestmark = pytest.mark.django_db


def refused(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(LadderError) as err:
        call()
    return err.value.code


# --- joining -----------------------------------------------------------------------------------
def test_new_members_join_at_the_bottom(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben)
    rung = service.join(main.pk, cat)
    assert rung.position == 3 and order(main) == ["ann", "ben", "cat"]
    assert refused(lambda: service.join(main.pk, cat)) == "already_on_ladder"
    joined = HistoryEntry.objects.filter(ladder=main, kind="joined").order_by("pk")
    assert [(e.member.get_username(), e.member_to) for e in joined] == [
        ("ann", 1), ("ben", 2), ("cat", 3),
    ]  # fmt: skip
    assert Rating.objects.get(member=cat).rating == 1500  # a newcomer's rating


def test_a_closed_ladder_is_joined_through_an_organiser(members, main) -> None:
    ann, ben, *_ = members
    main.open = False
    main.save()
    assert refused(lambda: service.join(main.pk, ann)) == "closed"
    service.join(main.pk, ann, by=ben)
    assert order(main) == ["ann"]


# --- challenging -------------------------------------------------------------------------------
def test_the_challenge_range(members, main) -> None:
    ann, ben, cat, dan, eve, fay = members
    on_ladder(main, ann, ben, cat, dan, eve)
    assert refused(lambda: service.challenge(main.pk, eve, ann)) == "out_of_range"  # 4 above
    assert refused(lambda: service.challenge(main.pk, cat, dan)) == "below"
    assert refused(lambda: service.challenge(main.pk, fay, ann)) == "not_on_ladder"
    assert refused(lambda: service.challenge(main.pk, ann, fay)) == "defender_not_on_ladder"
    assert not Challenge.objects.exists()  # a refusal leaves nothing behind
    done = service.challenge(main.pk, eve, ben)  # 3 places above: the default range
    assert done.challenge is not None
    assert (done.challenge.challenger_position, done.challenge.defender_position) == (5, 2)
    # The club's challenge: a ladder challenge in the ladder's format, always rated, told to
    # both parties.
    club_row = done.challenge.challenge
    assert (club_row.kind, club_row.best_of, club_row.rated, club_row.target) == (
        "ladder", 1, True, ben,
    )  # fmt: skip
    assert club_row.expires == done.challenge.answer_by
    assert done.news.challenges == (club_row.pk,)
    main.places_above = 4
    main.save()
    assert service.challenge(main.pk, dan, ann).challenge is not None


def test_one_pending_challenge_at_a_time(members, main) -> None:
    ann, ben, cat, dan, eve, _ = members
    on_ladder(main, ann, ben, cat, dan, eve)
    service.challenge(main.pk, dan, cat)
    # Neither may challenge, nor be challenged, until it is settled.
    assert refused(lambda: service.challenge(main.pk, dan, ben)) == "busy"
    assert refused(lambda: service.challenge(main.pk, eve, cat)) == "defender_busy"
    assert refused(lambda: service.challenge(main.pk, eve, dan)) == "defender_busy"
    assert refused(lambda: service.challenge(main.pk, cat, ben)) == "busy"
    assert service.challenge(main.pk, eve, ben).challenge is not None  # others are free
    engaged = dict(Rung.objects.filter(ladder=main).values_list("member__username", "engaged"))
    assert engaged["ann"] is None and engaged["cat"] == engaged["dan"] is not None


def test_a_guest_is_never_on_a_ladder(members, main) -> None:
    ann, *_ = members
    Guest.objects.create(user=ann, name="Ann")
    assert refused(lambda: service.join(main.pk, ann)) == "members_only"


def test_the_clubs_limits_on_challenges_apply(members, main, settings) -> None:
    ann, ben, cat, dan, *_ = members
    settings.CLUB = {**settings.CLUB, "CHALLENGES_PER_HOUR": 1}
    on_ladder(main, ann, ben, cat, dan)
    done = service.challenge(main.pk, dan, cat)
    assert done.challenge is not None
    club_service.withdraw(dan, done.challenge.challenge_id)
    assert refused(lambda: service.challenge(main.pk, dan, cat)) == "rate_limited"


# --- the answer ----------------------------------------------------------------------------------
def test_accepting_makes_a_rated_match_in_the_ladders_format(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    now = timezone.now()
    match = accepted(main, ben, ann, now=now)
    row = row_of(match)
    assert row.status == "accepted" and row.fixture.play_by is not None
    assert abs(row.fixture.play_by - timezone.now() - main.play_time) < timedelta(seconds=5)
    assert (match.best_of, match.rated, match.player_a, match.player_b) == (1, True, ben, ann)


def test_a_ladder_match_is_rated_whatever_the_one_accepting_says(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    done = service.challenge(main.pk, ben, ann)
    assert done.challenge is not None
    taken = club_service.accept(ann, done.challenge.challenge_id, rated=False)
    assert taken.match is not None and taken.match.rated


@pytest.mark.parametrize("counts", [True, False])
def test_declining(members, main, counts: bool) -> None:
    ann, ben, cat, *_ = members
    main.decline_counts_as_loss = counts
    main.save()
    on_ladder(main, ann, ben, cat)
    done = service.challenge(main.pk, cat, ann)
    assert done.challenge is not None
    club_service.decline(ann, done.challenge.challenge_id)
    row = LadderChallenge.objects.get()
    assert (row.status, row.outcome) == ("settled", "declined")
    entry = HistoryEntry.objects.get(challenge=row)
    if counts:  # a loss for the defender: the challenger takes the place
        assert order(main) == ["cat", "ann", "ben"]
        assert (entry.kind, entry.member, entry.other) == ("result", cat, ann)
        assert (entry.member_from, entry.member_to, entry.other_from, entry.other_to) == (
            3, 1, 1, 2,
        )  # fmt: skip
    else:
        assert order(main) == ["ann", "ben", "cat"]
        assert (entry.kind, entry.member, entry.other) == ("settled", cat, ann)
    assert not Rung.objects.filter(engaged__isnull=False).exists()  # both free again
    assert not RatedResult.objects.exists()  # no match, no rating


def test_withdrawing_frees_both_and_moves_nobody(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    done = service.challenge(main.pk, ben, ann)
    assert done.challenge is not None
    club_service.withdraw(ben, done.challenge.challenge_id)
    assert LadderChallenge.objects.get().outcome == "withdrawn"
    assert not HistoryEntry.objects.exclude(kind="joined").exists()
    # A withdrawal starts the pair's cool-down (both ways); after it, they meet again.
    assert refused(lambda: service.challenge(main.pk, ben, ann)) == "cooling_down"
    later = timezone.now() + main.cooldown + timedelta(seconds=1)
    assert service.challenge(main.pk, ben, ann, now=later).challenge is not None


# --- the result of the match ----------------------------------------------------------------
def test_a_challenger_who_wins_takes_the_place_and_those_between_move_down(members, main) -> None:
    ann, ben, cat, dan, eve, _ = members
    on_ladder(main, ann, ben, cat, dan, eve)
    match = accepted(main, eve, ben)
    assert order(main) == ["ann", "ben", "cat", "dan", "eve"]  # nothing until it ends
    concede(match, ben)  # the defender concedes: the challenger wins
    assert order(main) == ["ann", "eve", "ben", "cat", "dan"]
    row = row_of(match)
    assert (row.status, row.outcome, row.winner) == ("settled", "played", eve)
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.member, entry.other, entry.match, entry.how) == (eve, ben, match, "played")
    assert (entry.member_from, entry.member_to, entry.other_from, entry.other_to) == (5, 2, 2, 3)
    assert dict(Rung.objects.values_list("member__username", "form")) == {
        "ann": "", "ben": "L", "cat": "", "dan": "", "eve": "W",
    }  # fmt: skip
    # Rated: both players moved from 1500.
    changes = {c.player_id: c for c in RatedResult.objects.get(match=match).changes.all()}
    assert changes[eve.pk].after > 1500 > changes[ben.pk].after


def test_a_defender_who_wins_keeps_the_place(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    match = accepted(main, cat, ann)
    concede(match, cat)
    assert order(main) == ["ann", "ben", "cat"]
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.member, entry.member_from, entry.member_to) == (ann, 1, 1)
    assert Rating.objects.get(member=ann).rating > 1500  # still rated


def test_neighbours_swap(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann)
    assert order(main) == ["ben", "ann"]


def test_a_claim_applies_the_result_too(members, main, settings) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    # Both came to the table and the match started; the defender left long ago (past the
    # reconnect grace); the challenger is at the table.
    long_ago = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(
        arrived_a=long_ago, arrived_b=long_ago, started=long_ago
    )
    Absence.objects.create(match=match, seat="B", since=long_ago)
    Connection.objects.create(match=match, channel_name="ben", seat="A", last_seen=timezone.now())
    claim = client_in.Claim(type="claim", client_id="k", scope="match")
    game_service.submit(match.pk, ben, claim)
    assert order(main) == ["ben", "ann"]
    assert row_of(match).outcome == "played"


def test_the_result_is_applied_once(members, main) -> None:
    """The same concession again (a retry, a second tab) and the end of the match seen again:
    one result, one rating."""
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    match = accepted(main, cat, ann)
    concede(match, ann, client_id="x")
    concede(match, ann, client_id="x")  # the retry is answered with the stored event
    fixtures_service.finished(Match.objects.get(pk=match.pk), timezone.now())  # the hook again
    assert service.settle_due(timezone.now() + timedelta(days=30)).challenges == ()
    assert order(main) == ["cat", "ann", "ben"]
    assert HistoryEntry.objects.filter(kind="result").count() == 1
    assert RatedResult.objects.count() == 1 and Rating.objects.get(member=cat).played == 1


def test_a_failure_in_the_ladder_never_stops_the_match_ending(members, main, monkeypatch) -> None:
    """The match ends; the next pass of the deadlines applies what its end should have."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the ladder is down")

    monkeypatch.setattr(fixtures_service, "finished", broken)
    concede(match, ann)
    assert match.status == "finished" and order(main) == ["ann", "ben"]
    monkeypatch.undo()
    done = service.settle_due()
    assert done.challenges == (row_of(match).pk,)
    assert order(main) == ["ben", "ann"] and RatedResult.objects.filter(match=match).exists()


# --- deadlines --------------------------------------------------------------------------------
def test_a_challenge_not_answered_in_time_goes_to_the_challenger(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    now = timezone.now()
    done = service.challenge(main.pk, cat, ann, now=now)
    assert done.challenge is not None
    # Not yet: one second before the answer time is up.
    assert not service.settle_due(now + main.answer_time - timedelta(seconds=1))
    assert order(main) == ["ann", "ben", "cat"]
    settled = service.settle_due(now + main.answer_time)
    assert settled.challenges == (done.challenge.pk,)
    assert settled.news.challenges == (done.challenge.challenge_id,)  # both parties are told
    assert order(main) == ["cat", "ann", "ben"]
    row = LadderChallenge.objects.get()
    assert (row.outcome, row.winner) == ("unanswered", cat)
    assert Challenge.objects.get().status == "expired"
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.how, entry.member, entry.other) == ("unanswered", cat, ann)
    assert not RatedResult.objects.exists()  # a default result is not rated
    # Settled once: the next pass finds nothing.
    assert not service.settle_due(now + main.answer_time * 2)


@pytest.mark.parametrize(
    ("rule", "after", "kind"),
    [
        ("challenger_wins", ["cat", "ann", "ben"], "result"),
        ("defender_wins", ["ann", "ben", "cat"], "result"),
        ("no_change", ["ann", "ben", "cat"], "settled"),
    ],
)
def test_the_default_rule_is_the_ladders(members, main, rule, after, kind) -> None:  # type: ignore[no-untyped-def]
    ann, ben, cat, *_ = members
    main.default_result = rule
    main.save()
    on_ladder(main, ann, ben, cat)
    now = timezone.now()
    service.challenge(main.pk, cat, ann, now=now)
    service.settle_due(now + main.answer_time)
    assert order(main) == after
    assert HistoryEntry.objects.get(challenge__isnull=False).kind == kind


def test_an_expiry_marked_by_the_club_is_settled_by_the_ladder(members, main) -> None:
    """The club's sweep may mark the challenge expired first; the ladder still settles it."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    now = timezone.now()
    service.challenge(main.pk, ben, ann, now=now)
    Challenge.objects.update(status="expired")
    service.settle_due(now + main.answer_time)
    assert order(main) == ["ben", "ann"]


def test_an_answer_after_the_answer_time_is_refused(members, main) -> None:
    ann, ben, *_ = members
    main.answer_time = timedelta(seconds=1)
    main.save()
    on_ladder(main, ann, ben)
    done = service.challenge(main.pk, ben, ann, now=timezone.now() - timedelta(seconds=2))
    assert done.challenge is not None
    with pytest.raises(ClubError) as err:
        club_service.accept(ann, done.challenge.challenge_id)
    assert err.value.code == "expired"


def test_a_match_not_played_by_its_deadline(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    match = accepted(main, cat, ben)
    row = row_of(match)
    assert row.fixture.play_by is not None
    assert not service.settle_due(row.fixture.play_by - timedelta(seconds=1))
    assert service.settle_due(row.fixture.play_by).challenges == (row.pk,)
    assert order(main) == ["ann", "cat", "ben"]
    row.refresh_from_db()
    assert (row.outcome, row.winner) == ("unplayed", cat)
    # The match is over with its default (issue 36: it stayed live for ever): abandoned, out
    # of the lobby and the live positions, and nothing more is played at it.
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED and match.deadline is None
    with pytest.raises(game_service.ServiceError) as refused:
        concede(match, cat, played=False)
    assert refused.value.code == "abandoned"
    assert order(main) == ["ann", "cat", "ben"]
    assert not RatedResult.objects.exists()
    assert HistoryEntry.objects.filter(challenge=row).count() == 1


def test_a_match_finished_just_before_the_deadline_counts_as_played(members, main) -> None:
    """A pass that finds the match finished applies its result, not the default one."""
    ann, ben, *_ = members
    main.default_result = "no_change"
    main.save()
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    # Finished with the ladder's hook missing (as if its savepoint had failed):
    match_finished.disconnect(dispatch_uid="fixtures.match_finished")
    try:
        concede(match, ann)
    finally:
        match_finished.connect(
            fixtures_service.match_finished, dispatch_uid="fixtures.match_finished"
        )
    assert row.fixture.play_by is not None
    service.settle_due(row.fixture.play_by + timedelta(days=1))
    row.refresh_from_db()
    assert row.outcome == "played" and order(main) == ["ben", "ann"]


def test_several_ladders_each_with_its_settings(members, main) -> None:
    ann, ben, cat, *_ = members
    juniors = Ladder.objects.create(name="Juniors", slug="juniors", best_of=3, places_above=1)
    on_ladder(main, ann, ben, cat)
    on_ladder(juniors, cat, ben, ann)  # on both, in another order
    assert refused(lambda: service.challenge(juniors.pk, ann, cat)) == "out_of_range"
    match = accepted(juniors, ann, ben)
    assert match.best_of == 3
    # Engaged on the juniors' ladder only: free on the main one.
    assert service.challenge(main.pk, ben, ann).challenge is not None
    concede(match, ben)
    assert order(juniors) == ["cat", "ann", "ben"] and order(main) == ["ann", "ben", "cat"]
