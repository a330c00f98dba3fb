"""The organisers' admin (`/admin/`, ladder/admin.py) through Django's test client, as a
superuser: ladders and their settings, a member put on, moved and removed by hand, results
voided; each recorded in the history. Members who are not staff never get in."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ladder import service
from ladder.models import HistoryEntry, Ladder, Rung
from ratings.models import Rating
from tests.ladder.helpers import accepted, concede, on_ladder, order

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_superuser("olga", "olga@example.org", None)


@pytest.fixture
def admin(organiser) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organiser)
    return client


def test_only_staff_get_in(members, main) -> None:
    member = Client()
    member.force_login(members[0])
    for path in ("/admin/", "/admin/ladder/ladder/", "/admin/ladder/rung/add/"):
        response = member.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], path
    response = member.post("/admin/ladder/historyentry/", {"action": "void_results"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_every_organisers_page_answers(admin: Client, members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ann)
    pages = ["/admin/", "/admin/auth/user/", f"/admin/auth/user/{ann.pk}/change/"]
    for model in ("ladder", "rung", "historyentry", "ladderchallenge"):
        pages.append(f"/admin/ladder/{model}/")
    pages.append(f"/admin/ladder/ladder/{main.pk}/change/")
    pages.append(f"/admin/ladder/rung/{Rung.objects.first().pk}/change/")  # type: ignore[union-attr]
    for path in pages:
        assert admin.get(path).status_code == 200, path
    # The history is read, never written by hand.
    assert admin.get("/admin/ladder/historyentry/add/").status_code == 403


def test_a_ladder_and_its_settings(admin: Client, db: None) -> None:
    response = admin.post(
        "/admin/ladder/ladder/add/",
        {
            "name": "Juniors", "slug": "juniors", "open": "on", "places_above": 2,
            "best_of": 5, "shot_clock": 45, "answer_time": "1 00:00:00",
            "play_time": "3 12:00:00", "default_result": "no_change",
            "decline_counts_as_loss": "on", "cooldown": "3 00:00:00",
            "rungs-TOTAL_FORMS": 0, "rungs-INITIAL_FORMS": 0,
            "rungs-MIN_NUM_FORMS": 0, "rungs-MAX_NUM_FORMS": 1000,
        },
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    juniors = Ladder.objects.get(slug="juniors")
    assert (juniors.places_above, juniors.best_of, juniors.shot_clock) == (2, 5, 45)
    assert str(juniors.answer_time) == "1 day, 0:00:00" and juniors.play_time.days == 3
    assert juniors.default_result == "no_change" and juniors.decline_counts_as_loss
    assert juniors.cooldown.days == 3
    # "history" is the address of every ladder's history: not a ladder's.
    response = admin.post(
        "/admin/ladder/ladder/add/",
        {"name": "History", "slug": "history", "places_above": 3, "best_of": 3,
         "answer_time": "1 00:00:00", "play_time": "1 00:00:00",
         "default_result": "challenger_wins", "cooldown": "7 00:00:00", "rungs-TOTAL_FORMS": 0,
         "rungs-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 200 and not Ladder.objects.filter(slug="history").exists()


def test_put_on_moved_and_removed_by_hand_each_recorded(
    admin: Client, organiser, members, main
) -> None:
    ann, ben, cat, dan, *_ = members
    on_ladder(main, ann, ben, cat)
    # Put on: at the bottom.
    response = admin.post(
        "/admin/ladder/rung/add/", {"ladder": main.pk, "member": dan.pk, "note": ""}
    )
    assert response.status_code == 302
    assert order(main) == ["ann", "ben", "cat", "dan"]
    joined = HistoryEntry.objects.get(kind="joined", member=dan)
    assert joined.by == organiser and joined.member_to == 4
    # Moved by hand: from 4th to 2nd; those between move down one.
    rung = Rung.objects.get(member=dan)
    response = admin.post(
        f"/admin/ladder/rung/{rung.pk}/change/", {"new_position": 2, "note": "came back"}
    )
    assert response.status_code == 302
    assert order(main) == ["ann", "dan", "ben", "cat"]
    moved = HistoryEntry.objects.get(kind="moved")
    assert (moved.member, moved.member_from, moved.member_to, moved.by, moved.note) == (
        dan, 4, 2, organiser, "came back",
    )  # fmt: skip
    # Removed (an inactive member): those below move up one.
    rung = Rung.objects.get(member=ben)
    response = admin.post(f"/admin/ladder/rung/{rung.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert order(main) == ["ann", "dan", "cat"]
    removed = HistoryEntry.objects.get(kind="removed")
    assert (removed.member, removed.member_from, removed.by) == (ben, 3, organiser)
    # Several at once, from the list, with a note.
    ids = list(Rung.objects.filter(member__in=(ann, cat)).values_list("pk", flat=True))
    response = admin.post(
        "/admin/ladder/rung/",
        {"action": "remove_members", "_selected_action": ids, "note": "inactive for a year"},
    )
    assert response.status_code == 302
    assert order(main) == ["dan"]
    assert set(
        HistoryEntry.objects.filter(kind="removed", note="inactive for a year").values_list(
            "member__username", flat=True
        )
    ) == {"ann", "cat"}
    # Django's own bulk delete is not offered: it would skip the record.
    assert "delete_selected" not in admin.get("/admin/ladder/rung/").content.decode()


def test_voiding_a_result(admin: Client, organiser, members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    match = concede(accepted(main, cat, ann), ann)
    assert order(main) == ["cat", "ann", "ben"]
    entry = HistoryEntry.objects.get(kind="result")
    response = admin.post(
        "/admin/ladder/historyentry/",
        {"action": "void_results", "_selected_action": [entry.pk], "note": "wrong players"},
    )
    assert response.status_code == 302
    assert order(main) == ["ann", "ben", "cat"]
    assert [Rating.objects.get(member=u).rating for u in (ann, cat)] == [1500, 1500]
    voiding = HistoryEntry.objects.get(kind="voided")
    assert (voiding.voids, voiding.by, voiding.note, voiding.match) == (
        entry, organiser, "wrong players", match,
    )  # fmt: skip
    # Voiding it again, or a join, is refused with a message, and changes nothing.
    joined = HistoryEntry.objects.filter(kind="joined").first()
    assert joined is not None
    response = admin.post(
        "/admin/ladder/historyentry/",
        {"action": "void_results", "_selected_action": [entry.pk, joined.pk]},
        follow=True,
    )
    assert "That result was voided already." in response.content.decode()
    assert "Only a result can be voided." in response.content.decode()
    assert HistoryEntry.objects.filter(kind="voided").count() == 1


def test_the_settings_of_a_ladder_with_members(admin: Client, members, main) -> None:
    """The change page carries its standings (read only): its own form data saves the new
    settings and moves nobody."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    rungs = list(Rung.objects.filter(ladder=main).order_by("position"))
    data: dict[str, Any] = {
        "name": "Club ladder", "slug": "main", "main": "on", "open": "on",
        "places_above": 5, "best_of": 7, "shot_clock": 60, "answer_time": "0 12:00:00",
        "play_time": "14 00:00:00", "default_result": "defender_wins", "cooldown": "0",
        "rungs-TOTAL_FORMS": len(rungs), "rungs-INITIAL_FORMS": len(rungs),
        "rungs-MIN_NUM_FORMS": 0, "rungs-MAX_NUM_FORMS": 1000,
    }  # fmt: skip
    for i, rung in enumerate(rungs):
        data[f"rungs-{i}-id"] = rung.pk
        data[f"rungs-{i}-ladder"] = main.pk
    response = admin.post(f"/admin/ladder/ladder/{main.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    main.refresh_from_db()
    assert (main.places_above, main.best_of, main.default_result) == (5, 7, "defender_wins")
    assert main.shot_clock == 60  # never none: a ladder match is rated (issue 36)
    assert main.answer_time.total_seconds() == 12 * 3600 and not main.decline_counts_as_loss
    assert main.cooldown.total_seconds() == 0  # none: the same two may meet again at once
    assert order(main) == ["ann", "ben"]
    html = Client().get("/ladder/").content.decode()
    assert "Best of 7" in html and "answer within 12 hours" in html
    assert "when a deadline passes, the defender keeps the place" in html


def test_organisers_find_flagged_defaults_and_void_them(admin: Client, members, main) -> None:
    """A match nobody came to, settled by the ladder's rule (the challenger takes the win),
    is flagged: the history's *flagged* filter lists it, and the void undoes it."""
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    concede(accepted(main, cat, ben), cat)  # a played result: never flagged
    match = accepted(main, ben, ann)
    row = match.fixture.ladder_challenge
    assert row.fixture.play_by is not None
    service.settle_due(row.fixture.play_by + timedelta(seconds=1))
    assert order(main) == ["ben", "ann", "cat"]
    flagged = HistoryEntry.objects.get(flagged=True)
    assert (flagged.kind, flagged.how, flagged.member) == ("result", "unplayed", ben)
    listed = admin.get("/admin/ladder/historyentry/?flagged__exact=1").content.decode()
    assert f"/admin/ladder/historyentry/{flagged.pk}/change/" in listed
    played = HistoryEntry.objects.get(how="played")
    assert f"/admin/ladder/historyentry/{played.pk}/change/" not in listed
    challenges = admin.get("/admin/ladder/ladderchallenge/?flagged__exact=1").content.decode()
    assert f"/admin/ladder/ladderchallenge/{row.pk}/change/" in challenges
    response = admin.post(
        "/admin/ladder/historyentry/",
        {"action": "void_results", "_selected_action": [flagged.pk], "note": "nobody came"},
    )
    assert response.status_code == 302
    assert order(main) == ["ann", "ben", "cat"]
    public = Client().get("/ladder/history/").content.decode()
    assert 'data-testid="flagged"' in public
