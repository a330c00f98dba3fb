"""The chat's service (chat/service.py): lines stored through the rules, a room's recent lines,
the moderators' timeouts and deleted lines, audit-logged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from chat import service
from chat.models import Action, Line
from chat.service import ChatRefused

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)


def member(name: str, staff: bool = False) -> User:
    # A usable password's hash, without the hashing's cost.
    return User.objects.create(username=name, password="pbkdf2_sha256$1$s$h", is_staff=staff)


def guest(name: str) -> User:
    user = User.objects.create_user(name)
    user.set_unusable_password()
    user.save()
    return user


def test_a_line_is_stored_cleaned_and_read_back_in_order() -> None:
    room = service.room("players", 7)
    ann = member("ann")
    service.say(room, ann, "  good\u202e shot ", T0, player=True)
    service.say(room, ann, "rematch at eight?", T0 + timedelta(seconds=1), player=True)
    lines = service.recent(room)
    assert [(s.author, s.text) for s in lines] == [
        ("ann", "good shot"),
        ("ann", "rematch at eight?"),
    ]
    assert service.room("players", "7") == room  # one room per what it belongs to
    assert service.room("spectators", 7) != room


def test_an_address_past_its_rate_is_refused_and_its_count_away_refuses_nothing(
    settings: Any, monkeypatch: pytest.MonkeyPatch, throttle_clock: Any
) -> None:
    """Lines from one address count together whoever writes them (the socket tests hold the
    rest: tests/game/test_chat_socket.py); with the count's cache away (Redis, for several
    processes) a line goes, held by the per-member limits alone."""
    import redis.exceptions

    from accounts import limits

    settings.SNOOKER_CHAT_ADDRESS_RATE = "2/10s"
    room = service.room("lobby")
    ann, ben = member("ann"), member("ben")
    service.say(room, ann, "hello", T0, address="10.0.5.1")
    service.say(room, ben, "hi ann", T0, address="10.0.5.1")
    with pytest.raises(ChatRefused) as refused:
        service.say(room, ben, "a frame?", T0, address="10.0.5.1")
    assert refused.value.code == "chat_address_flood"
    service.say(room, ben, "a frame?", T0, address="10.0.5.2")  # his other address
    service.say(room, ben, "from a shell", T0, address=None)  # no client: not counted

    def away(*args: Any) -> bool:
        raise redis.exceptions.ConnectionError("Error 111 connecting")

    monkeypatch.setattr(limits, "over_rate", away)
    service.say(room, ann, "still here", T0, address="10.0.5.1")
    assert Line.objects.count() == 5


def test_the_sixth_line_in_ten_seconds_is_refused_and_not_stored() -> None:
    room = service.room("lobby")
    ann = member("ann")
    words = ("hello", "good shot", "unlucky", "rematch?", "at eight")
    for i, said in enumerate(words):
        service.say(room, ann, said, T0 + timedelta(seconds=i))
    with pytest.raises(ChatRefused) as refused:
        service.say(room, ann, "one too many", T0 + timedelta(seconds=5))
    assert refused.value.code == "chat_flood"
    assert Line.objects.count() == 5
    # The flood counts per room: the players' room is another.
    service.say(
        service.room("players", 1), ann, "one too many", T0 + timedelta(seconds=5), player=True
    )


def test_a_guest_says_presets_only_and_a_stranger_nothing() -> None:
    room = service.room("spectators", 3)
    bob = guest("bob (guest)")
    with pytest.raises(ChatRefused) as refused:
        service.say(room, bob, "hello", T0)
    assert refused.value.code == "chat_presets_only"
    said = service.say(room, bob, None, T0, preset="good_shot")
    assert (said.text, said.preset) == ("good_shot", "good_shot")
    with pytest.raises(ChatRefused):
        service.say(room, None, None, T0, preset="good_shot")


def test_a_spectator_cannot_write_in_the_players_room() -> None:
    with pytest.raises(ChatRefused) as refused:
        service.say(service.room("players", 3), member("eve"), "play safe", T0)
    assert refused.value.code == "chat_not_allowed"


def test_a_moderator_times_a_member_out_with_a_reason_and_it_is_logged() -> None:
    room = service.room("lobby")
    ann, org = member("ann"), member("org", staff=True)
    with pytest.raises(ChatRefused) as refused:
        service.time_out(ann, org.pk, "15m", "no", T0)
    assert refused.value.code == "chat_not_a_moderator"
    service.time_out(org, ann.pk, "15m", "insults", T0)
    told = service.timed_out(ann, T0 + timedelta(minutes=1))
    assert told is not None and told.reason == "insults"
    assert told.until == T0 + timedelta(minutes=15)
    with pytest.raises(ChatRefused) as refused:
        service.say(room, ann, "hi", T0 + timedelta(minutes=14))
    assert refused.value.code == "chat_timed_out"
    service.say(room, ann, "hi", T0 + timedelta(minutes=15))
    assert Action.objects.get().kind == "timeout"


def test_a_deleted_line_is_no_longer_read_and_a_trolls_only_by_the_troll() -> None:
    room = service.room("lobby")
    ann, org, tom = member("ann"), member("org", staff=True), member("tom")
    first = service.say(room, ann, "<img src=x onerror=alert(1)>", T0)
    service.say(room, tom, "troll line", T0)
    Line.objects.filter(author=tom).update(shadow=True)
    service.hide(org, first.id, "spam", T0)
    assert service.recent(room, ann) == []
    assert [s.text for s in service.recent(room, tom)] == ["troll line"]
    assert Action.objects.get().line_id == first.id


def test_a_room_sends_at_most_its_last_hundred_lines() -> None:
    room = service.room("lobby")
    people = [member(f"m{i}") for i in range(30)]
    for i in range(120):
        said = f"{i} " + ("ab", "cd", "ef", "gh")[i // 30] * 8  # no near-copy of one's last
        service.say(room, people[i % 30], said, T0 + timedelta(seconds=i))
    lines = service.recent(room)
    assert len(lines) == 100
    assert lines[0].text.startswith("20 ") and lines[-1].text.startswith("119 ")
