"""Every page of the club: the lobby, challenges and their answers, invitations, practice, the
end of a match. (The live parts are tested over the sockets and in Chromium.)"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.templatetags.static import static
from django.test import Client
from django.utils import timezone

from club import service
from club.models import Challenge, Guest
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from rules.challenges import Format
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def page_block(html: str) -> dict:  # type: ignore[type-arg]
    found = re.search(r'<script id="club-page" type="application/json">(.*?)</script>', html)
    assert found is not None
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_the_lobby_for_a_visitor(client: Client, members) -> None:
    alice, bob, carol = members
    live = game_service.create_match(alice, bob, 3)
    game_service.create_match(carol, carol, 1, practice=True)  # nobody else's business
    open_one = service.challenge(carol, None, Format(5, 30)).challenge
    html = unwrap_names(client.get("/").content.decode())
    assert (
        'data-testid="lobby"' in html
        and static("js/lobby.js") in html
        and static("js/site.js") not in html
    )
    assert f'data-id="{live.pk}"' in html and "alice v bob" in html
    assert html.count('data-testid="match-row"') == 2  # the live one and the script's template
    assert f'data-id="{open_one.pk}"' in html and "Open challenge by carol" in html
    assert "best of 5 · 30 s shot clock · friendly" in html
    assert 'data-testid="recent-matches"' in html  # the hook for the records branch
    assert 'data-testid="incoming"' not in html  # a member's own lists
    page = page_block(html)
    assert page["me"] is None and page["protocol"] == 1 and page["text"]["best_of"]


def test_the_lobby_asks_a_visitor_in(client: Client, members) -> None:
    """Logged out, the lobby says what to do next: join, log in, or watch the newest match
    being played (the latest results when none is); a member is not asked."""
    alice, bob, carol = members
    html = client.get("/").content.decode()
    assert 'data-testid="call-to-action"' in html
    assert 'href="/accounts/signup/" data-testid="cta-join"' in html
    assert 'href="/accounts/login/" data-testid="cta-login"' in html
    assert 'href="#recent-matches" data-testid="cta-results"' in html
    assert 'id="recent-matches"' in html and 'data-testid="cta-watch"' not in html
    game_service.create_match(alice, bob, 3)
    newest = game_service.create_match(carol, bob, 1)
    html = client.get("/").content.decode()
    assert f'href="/match/{newest.pk}/" data-testid="cta-watch"' in html
    assert 'data-testid="call-to-action"' not in logged_in(alice).get("/").content.decode()


def test_the_recent_results_alone_for_the_lobby_to_read_again(client: Client, members) -> None:
    """When the lobby sees a match finish it reads this part again (static/js/lobby.js)."""
    html = client.get("/").content.decode()
    assert 'data-recent="/recent/"' in html
    assert "No finished match yet." in client.get("/recent/").content.decode()
    match = _finished(members)
    part = client.get("/recent/").content.decode()
    assert part.lstrip().startswith('<section class="recent-matches"') and "<html" not in part
    assert f'href="/match/{match.pk}/" class="score">1–0<' in part
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/recent/").content.decode()
    assert "Последние матчи" in russian


def test_the_lobby_for_a_member(members) -> None:
    alice, bob, carol = members
    to_alice = service.challenge(bob, alice, Format(3, rated=True)).challenge
    from_alice = service.challenge(alice, carol, Format(1)).challenge
    mine = game_service.create_match(alice, alice, 1, practice=True)
    html = unwrap_names(logged_in(alice).get("/").content.decode())
    incoming = html[html.index('data-testid="incoming"') : html.index('data-testid="outgoing"')]
    assert f'data-id="{to_alice.pk}"' in incoming and "bob challenges you" in incoming
    assert f"/challenges/{to_alice.pk}/accept/" in incoming
    outgoing = html[html.index('data-testid="outgoing"') : html.index('data-testid="my-matches"')]
    assert (
        "You challenge carol" in outgoing and f"/challenges/{from_alice.pk}/withdraw/" in outgoing
    )
    assert f'href="/match/{mine.pk}/"' in html  # her practice, in her matches
    assert 'data-testid="notice-badge" >1</span>' in html.replace("  ", " ")
    assert page_block(html)["me"] == "alice"
    assert 'data-testid="quick-challenge"' in html


def test_every_other_page_of_a_member_listens_for_notices(members) -> None:
    alice, bob, _ = members
    match = game_service.create_match(alice, bob, 3)
    html = logged_in(alice).get(f"/match/{match.pk}/").content.decode()
    assert (
        static("js/site.js") in html
        and 'id="tpl-toast"' in html
        and page_block(html)["me"] == "alice"
    )
    assert 'data-testid="match-end-panel"' in html and f'data-end="/match/{match.pk}/end/"' in html
    assert 'data-practice=""' in html
    anonymous = Client().get(f"/match/{match.pk}/").content.decode()
    assert static("js/site.js") not in anonymous and "club-page" not in anonymous


def test_challenge_a_member(members) -> None:
    alice, bob, _ = members
    client = logged_in(alice)
    form = client.get("/challenges/new/?opponent=bob").content.decode()
    assert 'value="bob"' in form and "Best of 35" in form
    response = client.post(
        "/challenges/new/", {"opponent": "BOB", "best_of": 5, "shot_clock": 45, "rated": "on"}
    )
    c = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/challenges/{c.pk}/"
    assert (c.target, c.best_of, c.shot_clock, c.rated, c.kind) == (bob, 5, 45, True, "direct")
    assert not Match.objects.exists()
    page = client.get(f"/challenges/{c.pk}/").content.decode()
    assert 'data-testid="waiting"' in page and 'data-testid="withdraw"' in page
    # An open challenge: no opponent named.
    client.post("/challenges/new/", {"opponent": "", "best_of": 1})
    assert Challenge.objects.filter(kind="open", target=None).exists()


@pytest.mark.parametrize(
    ("opponent", "error"), [("nobody", "No member is called"), ("alice", "someone other")]
)
def test_a_challenge_needs_another_member(members, opponent, error) -> None:
    response = logged_in(members[0]).post("/challenges/new/", {"opponent": opponent, "best_of": 3})
    assert response.status_code == 200 and error in response.content.decode()
    assert not Challenge.objects.exists()


def test_the_computer_and_a_closed_account_cannot_be_challenged(members) -> None:
    """The form answers as if nobody were called so, and the service refuses them too."""
    from tests.computer.test_computer import seats

    alice, bob, _ = members
    computer = seats()["pro"]
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    for name in (computer.username, "bob"):
        response = logged_in(alice).post("/challenges/new/", {"opponent": name, "best_of": 3})
        assert response.status_code == 200 and "No member is called" in response.content.decode()
    for target in (computer, bob):
        with pytest.raises(service.ClubError) as refused:
            service.challenge(alice, target, Format(3))
        assert refused.value.code == "not_playable"
    assert not Challenge.objects.exists()


def test_too_many_challenges_are_refused_with_429(members, settings) -> None:
    settings.CLUB = {**settings.CLUB, "CHALLENGES_PER_HOUR": 1}
    client = logged_in(members[0])
    assert client.post("/challenges/new/", {"opponent": "bob", "best_of": 3}).status_code == 302
    response = client.post("/challenges/new/", {"opponent": "carol", "best_of": 3})
    assert response.status_code == 429 and "too many challenges" in response.content.decode()


def test_pages_that_need_a_login(client: Client, members) -> None:
    c = service.challenge(members[0], members[1], Format(3)).challenge
    for path in ("/challenges/new/", "/challenges/invite/", "/practice/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    response = client.post(f"/challenges/{c.pk}/accept/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Challenge.objects.get().status == "open"


def test_the_old_new_match_page_leads_to_a_challenge(client: Client) -> None:
    response = client.get("/matches/new/?opponent=bob")
    assert response.status_code == 302 and response["Location"] == "/challenges/new/?opponent=bob"


def test_who_sees_a_challenge(client: Client, members) -> None:
    alice, bob, carol = members
    direct = service.challenge(alice, bob, Format(3)).challenge
    page = logged_in(bob).get(f"/challenges/{direct.pk}/").content.decode()
    assert 'data-testid="accept"' in page and 'data-testid="decline"' in page
    assert logged_in(carol).get(f"/challenges/{direct.pk}/").status_code == 404  # private
    assert client.get(f"/challenges/{direct.pk}/").status_code == 404
    public = service.challenge(alice, None, Format(3)).challenge
    taker = logged_in(carol).get(f"/challenges/{public.pk}/").content.decode()
    assert 'data-testid="accept"' in taker and 'data-testid="decline"' not in taker
    assert "Log in to accept" in client.get(f"/challenges/{public.pk}/").content.decode()
    assert client.get("/challenges/999/").status_code == 404


def test_accept_lands_on_the_table(members) -> None:
    alice, bob, carol = members
    c = service.challenge(alice, bob, Format(3)).challenge
    assert logged_in(bob).get(f"/challenges/{c.pk}/accept/").status_code == 405
    refused = logged_in(carol).post(f"/challenges/{c.pk}/accept/")
    assert refused.status_code == 404 and 'data-code="not_found"' in refused.content.decode()
    response = logged_in(bob).post(f"/challenges/{c.pk}/accept/")
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    again = logged_in(bob).post(f"/challenges/{c.pk}/accept/")
    assert again.status_code == 410 and "already been answered" in again.content.decode()
    page = logged_in(alice).get(f"/challenges/{c.pk}/").content.decode()
    assert f'href="/match/{match.pk}/"' in page


def test_decline_and_withdraw_go_back_where_they_were(members) -> None:
    alice, bob, _ = members
    c = service.challenge(alice, bob, Format(3)).challenge
    response = logged_in(bob).post(f"/challenges/{c.pk}/decline/", {"next": "/practice/"})
    assert response.status_code == 302 and response["Location"] == "/practice/"
    assert Challenge.objects.get(pk=c.pk).status == "declined"
    d = service.challenge(alice, bob, Format(3)).challenge
    response = logged_in(alice).post(
        f"/challenges/{d.pk}/withdraw/", {"next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"  # not elsewhere
    assert Challenge.objects.get(pk=d.pk).status == "withdrawn"


def test_an_invitation_link_seats_a_guest_once(members) -> None:
    alice, _, carol = members
    inviter = logged_in(alice)
    assert "Make the link" in inviter.get("/challenges/invite/").content.decode()
    response = inviter.post("/challenges/invite/", {"best_of": 1, "shot_clock": 0})
    c = Challenge.objects.get()
    assert response["Location"] == f"/challenges/{c.pk}/" and c.kind == "invitation"
    page = inviter.get(f"/challenges/{c.pk}/").content.decode()
    found = re.search(
        r'value="http://testserver(/invite/[^"]+/)" data-testid="invitation-link"', page
    )
    assert found is not None
    path = found.group(1)
    assert 'data-testid="invitation-own"' in inviter.get(path).content.decode()

    visitor = Client()
    form = visitor.get(path).content.decode()
    assert "alice invites you" in form and 'name="name"' in form
    bad = visitor.post(path, {"name": "<b>"})
    assert bad.status_code == 400 and not Match.objects.exists()
    response = visitor.post(path, {"name": "Gina"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    guest = Guest.objects.get().user
    assert match.player_b == guest and match.guest and not match.rated
    table = visitor.get(f"/match/{match.pk}/").content.decode()
    assert 'data-seat="B"' in table and "Gina (guest)" in table
    lobby = visitor.get("/").content.decode()
    assert 'data-testid="quick-challenge"' not in lobby  # guests do not challenge
    assert 'href="/challenges/new/"' not in lobby

    # The same link a second time: another visitor, then a member. Nobody is seated.
    second = Client()
    used = second.get(path)
    assert used.status_code == 410 and 'data-testid="invitation-used"' in used.content.decode()
    assert second.post(path, {"name": "Hal"}).status_code == 410
    assert logged_in(carol).post(path).status_code == 410
    assert Match.objects.count() == 1 and Guest.objects.count() == 1
    assert Client().get("/invite/12:forged/").status_code == 404


def test_a_member_follows_an_invitation_as_themselves(members) -> None:
    alice, bob, _ = members
    token = service.invitation_token(service.invite(alice, Format(1)).challenge)
    client = logged_in(bob)
    assert "Play as bob" in client.get(f"/invite/{token}/").content.decode()
    response = client.post(f"/invite/{token}/")
    assert response.status_code == 302 and Match.objects.get().player_b == bob


def test_practice_page(members) -> None:
    client = logged_in(members[0])
    assert 'data-testid="practice-form"' in client.get("/practice/").content.decode()
    response = client.post("/practice/", {"best_of": 1, "shot_clock": 30})
    match = Match.objects.get()
    assert response["Location"] == f"/match/{match.pk}/"
    assert match.practice and match.player_a == match.player_b and match.shot_clock == 30
    assert 'data-practice="true"' in client.get(f"/match/{match.pk}/").content.decode()


def _finished(members, best_of: int = 1) -> Match:  # type: ignore[no-untyped-def]
    alice, bob, _ = members
    match = game_service.create_match(alice, bob, best_of, draw="A")
    concede = client_in.Concede(type="concede", client_id="c", scope="match")
    game_service.submit(match.pk, bob, concede)
    return Match.objects.get(pk=match.pk)


def test_the_end_of_a_match_and_a_rematch(members) -> None:
    alice, bob, carol = members
    live = game_service.create_match(alice, bob, 1)
    assert Client().get(f"/match/{live.pk}/end/").status_code == 204
    match = _finished(members)
    end = logged_in(alice).get(f"/match/{match.pk}/end/").content.decode()
    assert "alice wins, 1–0 in frames" in end and "bob conceded" in end
    assert end.count('data-testid="end-frame"') == 1
    assert 'data-testid="offer-rematch"' in end and 'data-testid="back-to-lobby"' in end
    assert '<p data-testid="end-breaks">None.</p>' in end  # conceded before any break of 50
    # Its record (the same address, now the record's) and its replay.
    assert f'href="/match/{match.pk}/" data-testid="end-record"' in end
    assert f'href="/match/{match.pk}/replay/" data-testid="end-replay"' in end
    assert Client().get(f"/match/{match.pk}/replay/").status_code == 200
    watcher = logged_in(carol).get(f"/match/{match.pk}/end/").content.decode()
    assert 'data-testid="offer-rematch"' not in watcher and "back-to-lobby" in watcher

    response = logged_in(alice).post(f"/match/{match.pk}/rematch/")
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    mine = logged_in(alice).get(f"/match/{match.pk}/end/").content.decode()
    assert 'data-testid="rematch-offered"' in mine and "waiting for bob" in mine
    theirs = logged_in(bob).get(f"/match/{match.pk}/end/").content.decode()
    assert "alice offers a rematch" in theirs and 'data-testid="rematch-accept"' in theirs
    offer = Challenge.objects.get(kind="rematch")
    response = logged_in(bob).post(f"/challenges/{offer.pk}/accept/")
    rematch = Match.objects.exclude(pk__in=[live.pk, match.pk]).get()
    assert response["Location"] == f"/match/{rematch.pk}/"
    after = logged_in(alice).get(f"/match/{match.pk}/end/").content.decode()
    assert f'href="/match/{rematch.pk}/"' in after and 'data-testid="to-rematch"' in after
    assert logged_in(carol).post(f"/match/{match.pk}/rematch/").status_code == 403


def test_the_result_puts_the_winners_frames_first(members) -> None:
    alice, bob, _ = members
    match = game_service.create_match(alice, bob, 1, draw="A")
    concede = client_in.Concede(type="concede", client_id="c", scope="match")
    game_service.submit(match.pk, alice, concede)
    end = Client().get(f"/match/{match.pk}/end/").content.decode()
    assert "bob wins, 1–0 in frames" in end and "alice conceded" in end


def test_a_declined_rematch_can_be_offered_again(members) -> None:
    match = _finished(members)
    logged_in(members[1]).post(f"/match/{match.pk}/rematch/")
    offer = Challenge.objects.get()
    logged_in(members[0]).post(f"/challenges/{offer.pk}/decline/", {"next": f"/match/{match.pk}/"})
    end = logged_in(members[1]).get(f"/match/{match.pk}/end/").content.decode()
    assert 'data-testid="rematch-declined"' in end and 'data-testid="offer-rematch"' in end


def test_a_finished_practice_offers_another(members) -> None:
    alice = members[0]
    table = service.practise(alice, 1)
    concede = client_in.Concede(type="concede", client_id="c", scope="match")
    game_service.submit(table.pk, alice, concede)
    end = logged_in(alice).get(f"/match/{table.pk}/end/").content.decode()
    assert 'data-testid="practise-again"' in end and 'data-testid="offer-rematch"' not in end
    assert logged_in(alice).post(f"/match/{table.pk}/rematch/").status_code == 409


@pytest.mark.parametrize("kind", ["direct", "rematch", "invitation"])
def test_others_private_challenges_answer_404_for_every_action_and_state(members, kind) -> None:
    """Carol probes a challenge between Alice and Bob: every action, in every state, answers
    exactly as for a challenge that does not exist (it used to be 403, 410 or 404 by state)."""
    alice, bob, carol = members
    if kind == "rematch":
        first = service.accept(bob, service.challenge(alice, bob, Format(1)).challenge.pk).match
        game_service.submit(
            first.pk, alice, client_in.Concede(type="concede", client_id="x", scope="match")
        )
        make = lambda: service.offer_rematch(alice, first.pk).challenge  # noqa: E731
    elif kind == "invitation":
        make = lambda: service.invite(alice, Format(1)).challenge  # noqa: E731
    else:
        make = lambda: service.challenge(alice, bob, Format(1)).challenge  # noqa: E731
    carol_client = logged_in(carol)

    def probe(pk: int) -> list[int]:
        pages = [carol_client.get(f"/challenges/{pk}/").status_code]
        for action in ("accept", "decline", "withdraw"):
            response = carol_client.post(f"/challenges/{pk}/{action}/")
            assert (
                'data-code="not_found"' in response.content.decode() or response.status_code == 404
            )
            pages.append(response.status_code)
        return pages

    nowhere = probe(999_999)
    assert nowhere == [404, 404, 404, 404]
    c = make()
    assert probe(c.pk) == nowhere  # open
    service.withdraw(alice, c.pk)
    assert probe(c.pk) == nowhere  # withdrawn
    c = make()
    Challenge.objects.filter(pk=c.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert probe(c.pk) == nowhere  # past its time
    if kind != "invitation":
        c = make()
        service.decline(bob, c.pk)
        assert probe(c.pk) == nowhere  # declined
        c = make()
        service.accept(bob, c.pk)
        assert probe(c.pk) == nowhere  # accepted


def test_a_players_name_is_drawn_in_one_place() -> None:
    """The `player` filter: the name in a `name` span (shortened when long by site.css), whole
    in its title and its text, escaped in both; the guest's marker in the page's language."""
    from django.utils import translation

    from club.templatetags.club_tags import player, player_text

    assert player('a<b>&"') == (
        '<span class="name" title="a&lt;b&gt;&amp;&quot;">a&lt;b&gt;&amp;&quot;</span>'
    )
    with translation.override("ru"):
        assert player("Гоша (guest)") == (
            '<span class="name" title="Гоша (гость)">Гоша (гость)</span>'
        )
        assert player_text("Гоша (guest)") == "Гоша (гость)"
