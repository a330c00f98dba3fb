"""Times in the member's own zone (accounts/zones.py): a start time typed in Moscow is read as
Moscow's, every time shown is written in the viewer's zone with its name, and the zone is the
member's choice, else the browser's (its cookie), else the club's (CLUB_TIME_ZONE)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.utils import timezone

from accounts import zones
from accounts.templatetags.times import when
from members.models import Member
from snooker_site import knobs
from tests.ladder.helpers import accepted, on_ladder, row_of

pytestmark = pytest.mark.django_db


def _tomorrow_at(hour: int) -> datetime:
    """Tomorrow at `hour`:00 as a wall clock, no zone."""
    day = (timezone.now() + timedelta(days=1)).date()
    return datetime(day.year, day.month, day.day, hour, 0)


def test_a_start_typed_in_moscow_is_read_as_moscow_time_and_shown_with_the_zone(
    members, main
) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    page = f"/match/{match.pk}/"
    challenger = Client()
    challenger.force_login(ben)
    challenger.cookies[zones.COOKIE] = "Europe/Moscow"
    wall = _tomorrow_at(20)
    response = challenger.post(
        f"/ladder/matches/{row.pk}/start/", {"at": wall.strftime("%Y-%m-%dT%H:%M"), "next": page}
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.fixture.proposed_start == wall.replace(hour=17, tzinfo=UTC)  # 20:00 MSK is 17:00 UTC
    html = challenger.get(page).content.decode()
    assert '20:00 <span translate="no">MSK</span>' in html
    assert "Propose a start time (Europe/Moscow)" in html
    # The defender's browser says nothing: the club's zone, named.
    defender = Client()
    defender.force_login(ann)
    assert '17:00 <span translate="no">UTC</span>' in defender.get(page).content.decode()


def test_the_members_choice_beats_the_browser_and_follows_them_to_another_browser(
    members,
) -> None:
    ann = members[0]
    browser = Client()
    browser.force_login(ann)
    browser.cookies[zones.COOKIE] = "Europe/London"
    assert 'data-testid="zone-link"' in (page := browser.get("/").content.decode())
    assert ">Europe/London</span></a>" in page
    response = browser.post("/time-zone/", {"zone": "Asia/Vladivostok", "next": "/ladder/"})
    assert response.status_code == 302 and response["Location"] == "/ladder/"
    assert Member.objects.get(user=ann).time_zone == "Asia/Vladivostok"
    assert ">Asia/Vladivostok</span></a>" in browser.get("/").content.decode()
    other = Client()
    other.force_login(ann)  # a login on another browser (force_login sends user_logged_in)
    assert ">Asia/Vladivostok</span></a>" in other.get("/").content.decode()
    # Back to the browser's.
    browser.post("/time-zone/", {"zone": ""})
    assert Member.objects.get(user=ann).time_zone == ""
    assert ">Europe/London</span></a>" in browser.get("/").content.decode()


def test_a_zone_the_database_does_not_know_is_refused_or_ignored(members) -> None:
    visitor = Client()
    response = visitor.post("/time-zone/", {"zone": "Mars/Olympus"})
    assert response.status_code == 400 and 'data-testid="zone-error"' in response.content.decode()
    assert zones.SESSION_KEY not in visitor.session
    visitor.cookies[zones.COOKIE] = "Mars/Olympus"  # a cookie is the visitor's to write
    assert ">UTC</span></a>" in visitor.get("/").content.decode()
    with pytest.raises(knobs.BadValue):
        knobs.zone("Mars/Olympus")
    assert knobs.zone(" Europe/Moscow ") == "Europe/Moscow"


def test_a_time_is_written_with_its_zones_name_or_offset() -> None:
    at = datetime(2026, 12, 7, 17, 0, tzinfo=UTC)
    with timezone.override("Europe/Moscow"):
        assert str(when(at)) == (
            '<time datetime="2026-12-07T20:00:00+03:00">7 Dec, 20:00 '
            '<span translate="no">MSK</span></time>'
        )
    with timezone.override("Asia/Almaty"):  # a zone with no abbreviation: its offset
        assert "UTC+05" in str(when(at))
    assert when(None) == ""


def test_a_visitor_may_choose_a_zone_for_the_session() -> None:
    visitor = Client()
    assert visitor.post("/time-zone/", {"zone": "Europe/Moscow"}).status_code == 302
    assert ">Europe/Moscow</span></a>" in visitor.get("/").content.decode()


async def test_an_async_request_reads_the_session_the_async_way() -> None:
    """Under daphne every page passes the async middleware: the session read there must not
    be a synchronous query (SynchronousOnlyOperation)."""

    class Session:
        def get(self, key: str) -> str:
            raise AssertionError("a synchronous session read in an async request")

        async def aget(self, key: str) -> str:
            return "Europe/Moscow"

    request = HttpRequest()
    request.session = Session()  # type: ignore[assignment]
    seen: list[str] = []

    async def view(r: HttpRequest) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    await zones.viewer_zone(view)(request)
    assert seen == ["Europe/Moscow"]
