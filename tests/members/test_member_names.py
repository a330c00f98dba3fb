"""Members' names as a challenge's opponent is typed (/member-names/?q=): a member's prefix in
any script and case, members only (no guest, no computer, nobody who left, not the asker),
at most NAMES of them; for members only, counted per member."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from members.views import NAMES

pytestmark = pytest.mark.django_db


def names(client: Client, q: str, status: int = 200) -> list[str]:
    response = client.get("/member-names/", {"q": q})
    assert response.status_code == status, response.content
    found: list[str] = response.json()["names"]
    return found


def test_names_begin_with_what_is_typed_in_any_script_and_case(client: Client, players) -> None:
    get_user_model().objects.create_user("Alfred")
    client.force_login(players[1])  # bob
    assert names(client, "AL") == ["Alfred", "alice"]  # folded, in the directory's order
    assert names(client, "АЛИ") == ["Алиса"]
    assert names(client, "b") == []  # never the asker
    assert names(client, "") == [] and names(client, "   ") == []


def test_only_members_who_may_be_challenged(client: Client, players) -> None:
    from club import service as club_service
    from rules.challenges import Format

    alice, bob = players[0], players[1]
    gone = get_user_model().objects.create_user("alicia")
    gone.is_active = False
    gone.save()
    invitation = club_service.invite(alice, Format(1)).challenge
    token = club_service.invitation_token(invitation)
    club_service.accept_invitation(token, None, "Alina")
    client.force_login(bob)
    assert names(client, "ali") == ["alice"]


def test_at_most_a_few(client: Client, players) -> None:
    for n in range(NAMES + 5):
        get_user_model().objects.create_user(f"zed{n:02}")
    client.force_login(players[0])
    assert names(client, "zed") == [f"zed{n:02}" for n in range(NAMES)]
    # Not all there are: the page asks again as more is typed; all of them: it need not.
    assert client.get("/member-names/", {"q": "zed"}).json()["whole"] is False
    assert client.get("/member-names/", {"q": "zed1"}).json() == {
        "names": [f"zed{n}" for n in range(10, NAMES + 5)],
        "whole": True,
    }


def test_for_members_only_and_counted_per_member(client: Client, players, settings: Any) -> None:
    names(client, "a", status=403)  # a visitor
    settings.SNOOKER_BROWSE_RATE = "3/m"
    client.force_login(players[0])
    for _ in range(3):
        names(client, "b")
    response = client.get("/member-names/", {"q": "b"})
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    # Another member is counted apart.
    other = Client()
    other.force_login(players[1])
    assert names(other, "a") == ["alice"]
