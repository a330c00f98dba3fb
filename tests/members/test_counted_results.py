"""What a member's record counts (issue 36, item 6): matches between two members only. A
guest is whoever follows an invitation's link, the inviter included, so a guest's concession
is nobody's win; a match against the computer is shown apart, in the directory too."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from club import service as club_service
from computer.service import play_computer
from game import service
from game.models import Match
from game.protocol import client_in
from rules.challenges import Format
from tests.computer.test_computer import seats
from tests.pages import unwrap_names

pytestmark = pytest.mark.django_db


def concede(match: Match, loser: Any) -> None:
    service.submit(match.pk, loser, client_in.Concede(type="concede", client_id="c", scope="match"))
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def directory_row(client: Client, name: str) -> tuple[str, str]:
    html = unwrap_names(client.get("/players/").content.decode())
    row = re.search(rf"/players/{name}/\">{name}</a></td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>", html)
    assert row, html
    return row.group(1), row.group(2)


def won_on_profile(client: Client, name: str) -> str:
    html = client.get(f"/players/{name}/").content.decode()
    found = re.search(r'data-testid="matches-won">(\d+)<', html)
    assert found
    return found.group(1)


def test_inviting_yourself_as_a_guest_who_concedes_wins_nothing(client: Client, players) -> None:
    alice, bob, _ = players
    invitation = club_service.invite(alice, Format(1)).challenge
    assert invitation is not None
    # Alice follows her own link in another browser: a visitor, seated as a guest.
    token = club_service.invitation_token(invitation)
    taken = club_service.accept_invitation(token, AnonymousUser(), "Ally")
    assert taken.match is not None and taken.user is not None and taken.match.guest
    concede(taken.match, taken.user)  # the "guest" gives the match up at once
    assert won_on_profile(client, "alice") == "0"
    assert directory_row(client, "alice") == ("0", "0")
    # A match with a member counts as before.
    match = service.create_match(alice, bob, 1, draw="A")
    concede(match, bob)
    assert won_on_profile(client, "alice") == "1"
    assert directory_row(client, "alice") == ("1", "1")
    page = client.get("/players/alice/").content.decode()
    assert 'data-testid="statistics-note"' in page


def test_the_directory_does_not_count_matches_against_the_computer(client: Client, players) -> None:
    alice, bob, _ = players
    seats()
    against = play_computer(alice, "novice", 1)
    concede(against, against.player_b)  # the computer's seat gives up: Alice "won"
    assert directory_row(client, "alice") == ("0", "0")
    assert won_on_profile(client, "alice") == "0"  # as the profile already did
    concede(service.create_match(alice, bob, 1, draw="A"), alice)
    assert directory_row(client, "alice") == ("1", "0")
