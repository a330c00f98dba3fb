"""The club's rules of challenges (rules/challenges.py), without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.challenges import (
    Challenge,
    Format,
    Kind,
    Party,
    Status,
    check_answer,
    check_challenge,
    expired,
    expires_at,
    rated,
    rematch_breaker,
)
from rules.errors import IllegalRequest

ALICE, BOB, CAROL = Party(1), Party(2), Party(3)
GINA = Party(4, guest=True)
CLOSED = Party(5, closed=True)  # a deactivated member, or the computer's user
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BO3 = Format(3)


def code(call) -> str | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except IllegalRequest as exc:
        return exc.code
    return None


@pytest.mark.parametrize(
    ("kind", "challenger", "target", "fmt", "refusal"),
    [
        (Kind.DIRECT, ALICE, BOB, BO3, None),
        (Kind.DIRECT, ALICE, BOB, Format(5, 30, rated=True), None),
        (Kind.OPEN, ALICE, None, BO3, None),
        (Kind.INVITATION, ALICE, None, BO3, None),
        (Kind.REMATCH, GINA, ALICE, BO3, None),  # a guest may offer a rematch of their match
        (Kind.DIRECT, ALICE, ALICE, BO3, "same_player"),
        (Kind.DIRECT, ALICE, None, BO3, "no_opponent"),
        (Kind.OPEN, ALICE, BOB, BO3, "bad_challenge"),
        (Kind.DIRECT, ALICE, GINA, BO3, "target_is_guest"),
        (Kind.DIRECT, ALICE, CLOSED, BO3, "not_playable"),
        (Kind.LADDER, ALICE, CLOSED, Format(3, rated=True), "not_playable"),
        (Kind.DIRECT, GINA, ALICE, BO3, "members_only"),
        (Kind.OPEN, GINA, None, BO3, "members_only"),
        (Kind.INVITATION, GINA, None, BO3, "members_only"),
        (Kind.DIRECT, ALICE, BOB, Format(4), "bad_format"),
        (Kind.DIRECT, ALICE, BOB, Format(3, 17), "bad_format"),
        (Kind.INVITATION, ALICE, None, Format(3, rated=True), "unrated"),
        (Kind.REMATCH, ALICE, GINA, Format(3, rated=True), "unrated"),
    ],
)
def test_who_may_challenge_whom(kind, challenger, target, fmt, refusal) -> None:  # type: ignore[no-untyped-def]
    assert code(lambda: check_challenge(kind, challenger, target, fmt)) == refusal


def test_only_members_between_themselves_play_rated() -> None:
    assert rated(Kind.DIRECT, ALICE, BOB, wanted=True)
    assert not rated(Kind.DIRECT, ALICE, BOB, wanted=False)
    assert rated(Kind.OPEN, ALICE, CAROL, wanted=True)
    assert not rated(Kind.INVITATION, ALICE, BOB, wanted=True)  # a member who took a link
    assert not rated(Kind.REMATCH, ALICE, GINA, wanted=True)


def _challenge(kind: Kind, target: Party | None, status: Status = Status.OPEN) -> Challenge:
    return Challenge(kind, ALICE, target, BO3, status, NOW + timedelta(minutes=10))


@pytest.mark.parametrize(
    ("kind", "target", "who", "answer", "refusal"),
    [
        (Kind.DIRECT, BOB, BOB, "accept", None),
        (Kind.DIRECT, BOB, BOB, "decline", None),
        (Kind.DIRECT, BOB, CAROL, "accept", "not_for_you"),
        (Kind.DIRECT, BOB, ALICE, "accept", "own_challenge"),
        (Kind.DIRECT, BOB, ALICE, "withdraw", None),
        (Kind.DIRECT, BOB, BOB, "withdraw", "not_yours"),
        (Kind.OPEN, None, CAROL, "accept", None),
        (Kind.OPEN, None, ALICE, "accept", "own_challenge"),
        (Kind.OPEN, None, GINA, "accept", "members_only"),
        (Kind.OPEN, None, CAROL, "decline", "not_for_you"),
        (Kind.INVITATION, None, GINA, "accept", None),
        (Kind.INVITATION, None, CAROL, "accept", None),  # a member may follow the link
        (Kind.INVITATION, None, ALICE, "accept", "own_challenge"),
        (Kind.REMATCH, GINA, GINA, "accept", None),
    ],
)
def test_who_may_answer(kind, target, who, answer, refusal) -> None:  # type: ignore[no-untyped-def]
    assert code(lambda: check_answer(_challenge(kind, target), who, answer, NOW)) == refusal


def test_an_answered_challenge_is_answered_once() -> None:
    for status in (Status.ACCEPTED, Status.DECLINED, Status.WITHDRAWN):
        done = _challenge(Kind.DIRECT, BOB, status)
        assert code(lambda d=done: check_answer(d, BOB, "accept", NOW)) == "answered"
    gone = _challenge(Kind.DIRECT, BOB, Status.EXPIRED)
    assert code(lambda: check_answer(gone, BOB, "accept", NOW)) == "expired"


def test_a_challenge_expires_at_its_time_marked_or_not() -> None:
    ttl = {k: timedelta(minutes=10) for k in Kind}
    made = NOW - timedelta(minutes=10)
    waiting = Challenge(
        Kind.DIRECT, ALICE, BOB, BO3, Status.OPEN, expires_at(Kind.DIRECT, made, ttl)
    )
    assert not expired(waiting, NOW - timedelta(seconds=1))
    assert expired(waiting, NOW)
    assert code(lambda: check_answer(waiting, BOB, "accept", NOW)) == "expired"
    assert code(lambda: check_answer(waiting, ALICE, "withdraw", NOW)) == "expired"
    accepted = Challenge(Kind.DIRECT, ALICE, BOB, BO3, Status.ACCEPTED, waiting.expires)
    assert not expired(accepted, NOW + timedelta(days=1))


def test_a_rematch_gives_the_first_break_to_the_other_player() -> None:
    assert rematch_breaker("A") == "B" and rematch_breaker("B") == "A"


def test_only_the_parties_know_of_a_private_challenge() -> None:
    from rules.challenges import visible_to

    for kind, target in ((Kind.DIRECT, BOB), (Kind.REMATCH, BOB), (Kind.LADDER, BOB)):
        for status in Status:
            c = _challenge(kind, target, status)
            assert [visible_to(c, p) for p in (ALICE, BOB, CAROL, GINA)] == [
                True, True, False, False,
            ]  # fmt: skip
    invitation = _challenge(Kind.INVITATION, None)
    assert [visible_to(invitation, p) for p in (ALICE, CAROL)] == [True, False]
    public = _challenge(Kind.OPEN, None)
    assert all(visible_to(public, p) for p in (ALICE, BOB, CAROL, GINA))
