"""The club's service: challenges made, answered once, expired; invitations used once; guests;
rematches; practice tables through the match's own service."""

from __future__ import annotations

import math
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.utils import timezone

from club import service
from club.models import Challenge, Guest
from club.service import ClubError
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from rules.challenges import Format
from rules.match import match_from_json
from tests.game.helpers import BREAK_AT, BREAK_CUE

pytestmark = pytest.mark.django_db

BO3 = Format(3)


def refused(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ClubError) as err:
        call()
    return err.value.code


def concede_match(match: Match, user) -> None:  # type: ignore[no-untyped-def]
    message = client_in.Concede(type="concede", client_id=f"end-{match.pk}", scope="match")
    game_service.submit(match.pk, user, message)


def test_a_challenge_makes_a_match_only_when_accepted(members) -> None:
    alice, bob, _ = members
    made = service.challenge(alice, bob, Format(5, 30, rated=True))
    c = made.challenge
    assert c.status == "open" and c.kind == "direct" and made.news.challenges == (c.pk,)
    assert not Match.objects.exists()
    done = service.accept(bob, c.pk)
    match = done.match
    assert (match.player_a, match.player_b) == (alice, bob)
    assert (match.best_of, match.shot_clock, match.rated, match.guest) == (5, 30, True, False)
    c.refresh_from_db()
    assert c.status == "accepted" and c.match == match and c.version == 2
    assert done.news == service.News((c.pk,), (match.pk,))
    assert refused(lambda: service.accept(bob, c.pk)) == "answered"


def test_only_the_challenged_member_accepts_and_declines(members) -> None:
    alice, bob, carol = members
    c = service.challenge(alice, bob, BO3).challenge
    assert refused(lambda: service.accept(carol, c.pk)) == "not_found"  # not hers to know of
    assert refused(lambda: service.accept(alice, c.pk)) == "own_challenge"
    assert refused(lambda: service.withdraw(bob, c.pk)) == "not_yours"
    service.decline(bob, c.pk)
    c.refresh_from_db()
    assert c.status == "declined" and c.match is None
    assert refused(lambda: service.accept(bob, c.pk)) == "answered"
    assert not Match.objects.exists()


def test_a_challenger_withdraws(members) -> None:
    alice, bob, _ = members
    c = service.challenge(alice, bob, BO3).challenge
    service.withdraw(alice, c.pk)
    assert refused(lambda: service.accept(bob, c.pk)) == "answered"


def test_a_challenge_expires(members, settings) -> None:
    alice, bob, carol = members
    settings.CLUB = {**settings.CLUB, "CHALLENGE_TTL": 60}
    c = service.challenge(alice, bob, BO3).challenge
    assert c.expires - c.created == timedelta(seconds=60)
    other = service.challenge(carol, bob, BO3).challenge
    Challenge.objects.update(expires=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ClubError) as err:
        service.accept(bob, c.pk)
    assert err.value.code == "expired" and err.value.news.challenges == (c.pk,)
    c.refresh_from_db()
    assert c.status == "expired"  # marked on the way, though the acceptance was refused
    assert not Match.objects.exists()
    assert service.expire_due().challenges == (other.pk,)  # the sweep finds the rest
    assert service.expire_due().challenges == ()  # once
    # The pair may meet again: a new challenge once the old one expired.
    assert service.challenge(alice, bob, BO3).challenge.status == "open"


@pytest.mark.django_db(transaction=True)
def test_two_tabs_accepting_at_once_make_one_match(members) -> None:
    """Bob accepts from two tabs at the same instant (two threads, two connections)."""
    alice, bob, _ = members
    c = service.challenge(alice, bob, BO3).challenge
    results: list[object] = []
    start = threading.Barrier(2)

    def tab() -> None:
        try:
            start.wait()
            results.append(service.accept(bob, c.pk).match)
        except ClubError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=tab) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    made = [r for r in results if isinstance(r, Match)]
    assert len(made) == 1, results
    # PostgreSQL: the second waits for the row lock, then finds it answered; SQLite: the
    # write lock serialises the two, or the second is refused busy.
    assert [r for r in results if r not in made] in (["answered"], ["busy"]), results
    assert Match.objects.count() == 1
    assert Challenge.objects.get(pk=c.pk).match == made[0]


def test_a_second_transaction_that_read_the_challenge_open_is_refused(members) -> None:
    """The conditional write holds even where no row lock does: a tab that read the challenge
    open before the other tab's acceptance committed changes nothing."""
    alice, bob, _ = members
    c = service.challenge(alice, bob, BO3).challenge
    stale = Challenge.objects.get(pk=c.pk)  # read by the second tab
    service.accept(bob, c.pk)  # the first tab commits
    with pytest.raises(ClubError) as err, transaction.atomic():
        service._answered(stale, bob, "accept", timezone.now())
    assert err.value.code == "answered"
    assert Match.objects.count() == 1  # the second match was rolled back with the refusal


def test_an_open_challenge_is_taken_by_the_first_other_member(members) -> None:
    alice, bob, carol = members
    c = service.challenge(alice, None, BO3).challenge
    assert c.kind == "open" and c.target is None
    assert refused(lambda: service.accept(alice, c.pk)) == "own_challenge"
    assert refused(lambda: service.decline(bob, c.pk)) == "not_for_you"
    match = service.accept(carol, c.pk).match
    assert (match.player_a, match.player_b) == (alice, carol)
    assert refused(lambda: service.accept(bob, c.pk)) == "answered"


def test_limits_on_making_challenges(members, settings) -> None:
    alice, bob, carol = members
    settings.CLUB = {**settings.CLUB, "PENDING_CHALLENGES": 2, "CHALLENGES_PER_HOUR": 3}
    first = service.challenge(alice, bob, BO3).challenge
    assert refused(lambda: service.challenge(alice, bob, BO3)) == "already_challenged"
    service.challenge(alice, carol, BO3)
    assert refused(lambda: service.challenge(alice, None, BO3)) == "too_many_waiting"
    service.withdraw(alice, first.pk)
    service.challenge(alice, None, BO3)  # the third of the hour
    service.withdraw(alice, Challenge.objects.filter(kind="open").get().pk)
    assert refused(lambda: service.challenge(alice, None, BO3)) == "rate_limited"
    assert service.challenge(bob, alice, BO3).challenge  # counted per member
    assert refused(lambda: service.challenge(alice, alice, BO3)) == "same_player"
    assert refused(lambda: service.challenge(alice, bob, Format(4))) == "bad_format"


def test_an_invitation_seats_one_guest_once(members) -> None:
    alice, bob, _ = members
    invitation = service.invite(alice, Format(3, rated=True)).challenge
    assert invitation.kind == "invitation" and invitation.rated is False
    token = service.invitation_token(invitation)
    assert service.invitation_of(token) == invitation
    assert service.invitation_of(token + "x") is None
    assert service.invitation_of(token.replace(str(invitation.pk), "999", 1)) is None

    done = service.accept_invitation(token, AnonymousUser(), "  Gina  ")
    guest, match = done.user, done.match
    assert guest.username == "Gina (guest)" and not guest.has_usable_password()
    assert Guest.objects.get(user=guest).invitation == invitation
    assert (match.player_a, match.player_b) == (alice, guest)
    assert match.guest and not match.rated
    users = get_user_model().objects.count()

    # The same link again: from another visitor, and from a member. Nobody is seated.
    assert refused(lambda: service.accept(bob, invitation.pk)) == "not_found"  # not by its id
    with pytest.raises(ClubError) as err:
        service.accept_invitation(token, AnonymousUser(), "Hal")
    assert err.value.code == "answered"
    assert refused(lambda: service.accept_invitation(token, bob, None)) == "answered"
    assert get_user_model().objects.count() == users
    assert Match.objects.count() == 1


def test_a_member_may_follow_an_invitation_but_not_their_own(members) -> None:
    alice, bob, _ = members
    invitation = service.invite(alice, BO3).challenge
    token = service.invitation_token(invitation)
    # Its id is no secret: only the signed link takes it.
    assert refused(lambda: service.accept(bob, invitation.pk)) == "not_found"
    assert refused(lambda: service.accept_invitation(token, alice, None)) == "own_challenge"
    done = service.accept_invitation(token, bob, None)
    assert done.user is None and done.match.player_b == bob
    assert not done.match.rated and not done.match.guest  # a friendly between members


def test_guest_names(members) -> None:
    assert service.clean_guest_name(" Ｇｉｎａ  Rose ") == "Gina Rose"  # NFKC, one space
    assert service.clean_guest_name("Алиса") == "Алиса"
    for bad in ("", " ", "x" * 21, "a_b", "<script>", "a/b", "-dash", "(guest)"):
        assert refused(lambda b=bad: service.clean_guest_name(b)) == "bad_name"
    # A member's name, or one that looks like it, is a member's: not a guest's.
    # Fillers and zero-width characters show blank, or hide a difference (issue 42).
    for blank in ("\u3164", "\u3164\u3164", "\u1160\u115f", "\uffa0", "Gi\u200bna", "Gina\u3164"):
        assert refused(lambda b=blank: service.clean_guest_name(b)) == "bad_name", repr(blank)
    for taken in ("alice", "ALICE", "\u0430lice", "a\u04cfice", "\u1d00lice", "\u1d00\u029fice"):
        assert refused(lambda t=taken: service.clean_guest_name(t)) == "member_name", taken
    alice = members[0]
    first = service.accept_invitation(
        service.invitation_token(service.invite(alice, BO3).challenge), None, "Gina"
    ).user
    second = service.accept_invitation(
        service.invitation_token(service.invite(alice, BO3).challenge), None, "Gina"
    ).user
    assert first.username == "Gina (guest)"
    assert second.username.startswith("Gina (guest ") and second.username != first.username


def test_guests_play_friendlies_only(members) -> None:
    alice, bob, _ = members
    token = service.invitation_token(service.invite(alice, BO3).challenge)
    gina = service.accept_invitation(token, None, "Gina").user
    assert refused(lambda: service.challenge(gina, bob, BO3)) == "members_only"
    assert refused(lambda: service.challenge(bob, gina, BO3)) == "target_is_guest"
    assert refused(lambda: service.invite(gina, BO3)) == "members_only"
    assert refused(lambda: service.practise(gina, 1)) == "members_only"
    open_one = service.challenge(bob, None, BO3).challenge
    assert refused(lambda: service.accept(gina, open_one.pk)) == "members_only"


def test_a_rematch_keeps_the_seats_and_alternates_the_first_break(members) -> None:
    alice, bob, carol = members
    c = service.challenge(alice, bob, Format(1, rated=True)).challenge
    first = service.accept(bob, c.pk).match
    breaker = match_from_json(first.state).first_breaker
    assert refused(lambda: service.offer_rematch(alice, first.pk)) == "match_not_over"
    concede_match(first, bob)
    assert refused(lambda: service.offer_rematch(carol, first.pk)) == "not_a_player"
    offer = service.offer_rematch(alice, first.pk).challenge
    assert (offer.kind, offer.target, offer.rematch_of) == ("rematch", bob, first)
    assert service.offer_rematch(alice, first.pk).challenge == offer  # offered once
    second = service.accept(bob, offer.pk).match
    assert (second.player_a, second.player_b) == (alice, bob)
    assert (second.best_of, second.rated) == (1, True)
    assert match_from_json(second.state).first_breaker != breaker
    # And again: the break alternates back.
    concede_match(second, alice)
    third = service.accept(alice, service.offer_rematch(bob, second.pk).challenge.pk).match
    assert match_from_json(third.state).first_breaker == breaker


def test_offering_a_rematch_the_other_player_offered_accepts_it(members) -> None:
    alice, bob, _ = members
    first = service.accept(bob, service.challenge(alice, bob, Format(1)).challenge.pk).match
    concede_match(first, alice)
    offer = service.offer_rematch(bob, first.pk).challenge
    done = service.offer_rematch(alice, first.pk)
    assert done.match is not None and done.challenge.pk == offer.pk
    assert Challenge.objects.get(pk=offer.pk).status == "accepted"
    assert Match.objects.count() == 2


def test_a_practice_table_is_one_member_on_both_sides(members) -> None:
    alice, bob, _ = members
    assert game_service.create_match(alice, bob, 1).practice is False
    with pytest.raises(game_service.ServiceError) as err:
        game_service.create_match(alice, alice, 1)
    assert err.value.code == "same_player"
    with pytest.raises(game_service.ServiceError) as err:
        game_service.create_match(alice, bob, 1, practice=True)
    assert err.value.code == "bad_practice"
    with pytest.raises(game_service.ServiceError) as err:
        game_service.create_match(alice, alice, 1, practice=True, rated=True)
    assert err.value.code == "unrated"

    table = service.practise(alice, 1)
    assert table.player_a == table.player_b == alice and table.practice and not table.rated
    striker = match_from_json(table.state).frame.striker
    assert game_service.seat_of(table, alice) == striker
    assert game_service.seat_of(table, bob) is None
    angle = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
    stroke = client_in.Stroke(
        type="stroke", client_id="p1", version=1, angle=angle, speed=8.0, cue_ball=BREAK_CUE
    )
    game_service.submit(table.pk, alice, stroke)
    table.refresh_from_db()
    after = match_from_json(table.state).frame
    assert after.striker != striker  # the break potted nothing: the other side plays
    assert game_service.seat_of(table, alice) == after.striker
    concede = client_in.Concede(type="concede", client_id="p2", scope="frame")
    game_service.submit(table.pk, alice, concede)  # she may act for the side to play
    assert Match.objects.get(pk=table.pk).status == "finished"
    assert refused(lambda: service.offer_rematch(alice, table.pk)) == "practice"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_both_players_offering_a_rematch_at_once_make_one_match(members, repeat) -> None:
    """Alice and Bob press "Rematch" at the same instant (two threads, two connections: on
    PostgreSQL two sessions, as two server processes). Each used to make an offer of their
    own: one was refused `already_challenged` (or `busy`, their row locks deadlocking), and
    nobody played. Now both are sent to one match."""
    alice, bob, _ = members
    first = service.accept(bob, service.challenge(alice, bob, Format(1)).challenge.pk).match
    concede_match(first, alice)
    results: list[object] = [None, None]
    start = threading.Barrier(2)

    def press(i: int, user) -> None:  # type: ignore[no-untyped-def]
        try:
            start.wait()
            results[i] = service.offer_rematch(user, first.pk)
        except ClubError as exc:
            results[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(i, u)) for i, u in enumerate((alice, bob))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done = [r for r in results if isinstance(r, service.Done)]
    if connection.vendor == "sqlite" and len(done) == 1:
        # The in-memory test database's shared cache refuses the second writer at once
        # rather than letting it wait (CI runs this on PostgreSQL, where both wait their turn).
        assert [r for r in results if r not in done] == ["busy"], results
        return
    assert len(done) == 2, results
    rematches = Match.objects.exclude(pk=first.pk)
    assert rematches.count() == 1
    offer = Challenge.objects.get(rematch_of=first)
    assert offer.status == "accepted" and offer.match == rematches.get()
    # The one who accepted is sent by the answer; the other by the offer's acceptance.
    assert sorted(d.match is None for d in done) == [False, True]
    assert {d.challenge.pk for d in done} == {offer.pk}


@pytest.mark.django_db(transaction=True)
def test_a_change_tells_the_parties_once_committed_and_never_if_rolled_back(
    members, monkeypatch
) -> None:
    """A challenge made, answered or expired announces itself once its transaction commits
    (no view has to remember to), and a rolled-back one tells nobody."""
    from club import process

    alice, bob, _ = members
    told = []

    def announce_now(news: service.News) -> None:
        told.append((news, transaction.get_connection().in_atomic_block))

    monkeypatch.setattr(process, "announce_now", announce_now)
    with pytest.raises(RuntimeError), transaction.atomic():
        service.challenge(alice, bob, BO3)
        raise RuntimeError("after the challenge, before the commit")
    assert told == [] and not Challenge.objects.exists()
    made = service.challenge(alice, bob, BO3)
    assert told == [(service.News((made.challenge.pk,)), False)]
    done = service.accept(bob, made.challenge.pk)
    assert told[1:] == [(service.News((made.challenge.pk,), (done.match.pk,)), False)]


def test_a_rated_match_always_has_a_shot_clock(members, settings) -> None:  # type: ignore[no-untyped-def]
    """Issue 36: a rated friendly whose format has none gets the club's generous clock, so a
    losing player cannot sit at the table without striking; a friendly keeps its format's,
    and a rated one with a clock of its own keeps that."""
    ann, ben, *_ = members
    rated = service.challenge(ann, ben, Format(1, None, rated=True)).challenge
    assert rated is not None
    match = service.accept(ben, rated.pk).match
    assert match is not None and match.rated and match.shot_clock == 120
    settings.CLUB = {**settings.CLUB, "RATED_SHOT_CLOCK": 60}
    friendly = service.challenge(ben, ann, Format(1, None, rated=True)).challenge
    assert friendly is not None
    unrated = service.accept(ann, friendly.pk, rated=False).match
    assert unrated is not None and not unrated.rated and unrated.shot_clock is None
    own = service.challenge(ann, ben, Format(1, 30, rated=True)).challenge
    assert own is not None
    assert service.accept(ben, own.pk).match.shot_clock == 30  # type: ignore[union-attr]
