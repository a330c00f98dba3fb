"""The chat's moderation (chat/moderation.py, chat/views.py; issue 41): members report lines,
organisers answer on their page with the line's context (delete, time out, mark a troll,
dismiss), trolls' lines shown only to themselves, the panic switch keeping the lobby to members
of some standing, no links from a new member; every action in the audit log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from chat import moderation, service
from chat.models import Action, Line, Preference, Report, Timeout
from chat.service import ChatRefused

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
OLD = T0 - timedelta(days=30)


def member(name: str, staff: bool = False, joined: datetime = OLD) -> User:
    return User.objects.create(
        username=name, password="pbkdf2_sha256$1$s$h", is_staff=staff, date_joined=joined
    )


@pytest.fixture
def room():  # type: ignore[no-untyped-def]
    return service.room("lobby")


def test_a_report_is_open_until_an_organiser_answers_it(room) -> None:  # type: ignore[no-untyped-def]
    ann, ben, cat, org = member("ann"), member("ben"), member("cat"), member("org", staff=True)
    said = [service.say(room, ann, f"line {n}", T0 + timedelta(seconds=3 * n), played=5)
            for n in range(3)]  # fmt: skip
    bad = service.say(room, ben, "you are all idiots", T0 + timedelta(seconds=10), played=5)
    moderation.report(ann, bad.id, "insult", "rude", T0)
    moderation.report(cat, bad.id, "insult", "", T0)
    with pytest.raises(ChatRefused) as again:
        moderation.report(cat, bad.id, "spam", "", T0)
    assert again.value.code == "chat_already_reported"
    with pytest.raises(ChatRefused) as own:
        moderation.report(ann, said[0].id, "spam", "", T0)
    assert own.value.code == "chat_own_line"
    [case] = moderation.open_cases()
    assert case.line.pk == bad.id and len(case.reports) == 2
    assert [line.text for line in case.before] == ["line 0", "line 1", "line 2"]
    moderation.answer(org, bad.id, "1h", "insults", T0)
    assert moderation.open_cases() == []
    assert Timeout.objects.get().member == ben
    assert set(Report.objects.values_list("closed_by__username", flat=True)) == {"org"}
    assert list(Action.objects.values_list("kind", flat=True)) == ["timeout"]


def test_members_only_report_and_not_too_often(room) -> None:  # type: ignore[no-untyped-def]
    ann, ben = member("ann"), member("ben")
    lines = [service.say(room, ben, f"word {n}", T0 + timedelta(seconds=3 * n), played=5)
             for n in range(moderation.REPORTS_A_DAY + 1)]  # fmt: skip
    for line in lines[:-1]:
        moderation.report(ann, line.id, "spam", "", T0)
    with pytest.raises(ChatRefused) as flood:
        moderation.report(ann, lines[-1].id, "spam", "", T0)
    assert flood.value.code == "chat_flood"
    with pytest.raises(ChatRefused) as stranger:
        moderation.report(None, lines[0].id, "spam", "", T0)
    assert stranger.value.code == "chat_members_only"
    with pytest.raises(ChatRefused):
        moderation.report(ann, lines[0].id, "no such reason", "", T0)


def test_a_trolls_lines_are_shown_only_to_themselves(room) -> None:  # type: ignore[no-untyped-def]
    ann, ben, org = member("ann"), member("ben"), member("org", staff=True)
    before = service.say(room, ben, "first", T0, played=5)
    moderation.report(ann, before.id, "insult", "", T0)
    moderation.answer(org, before.id, "troll", "baiting", T0)
    after = service.say(room, ben, "second", T0 + timedelta(seconds=5), played=5)
    assert after.shadow and Line.objects.get(pk=before.id).shadow
    assert [s.text for s in service.recent(room, ann)] == []
    assert [s.text for s in service.recent(room, ben)] == ["first", "second"]
    with pytest.raises(ChatRefused):
        moderation.troll(ann, ben.pk, "not a moderator", T0)
    moderation.untroll(org, ben.pk, "served", T0)
    third = service.say(room, ben, "third", T0 + timedelta(seconds=10), played=5)
    assert not third.shadow
    assert [s.text for s in service.recent(room, ann)] == ["third"]
    kinds = list(Action.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["troll", "untroll"]


def test_the_panic_switch_keeps_the_lobby_to_members_of_some_standing(room) -> None:  # type: ignore[no-untyped-def]
    org = member("org", staff=True)
    settled = member("settled")
    newcomer = member("newcomer", joined=T0 - timedelta(days=2))
    moderation.panic(org, 1, "a raid", T0)
    service.say(room, settled, "calm down", T0, played=3)
    with pytest.raises(ChatRefused) as refused:
        service.say(room, newcomer, "hello", T0, played=5)
    assert refused.value.code == "chat_panic"
    with pytest.raises(ChatRefused):
        service.say(room, settled, "too few matches", T0 + timedelta(seconds=5), played=2)
    # Only the lobby: a match's rooms are as before.
    service.say(service.room("players", 3), newcomer, "gl", T0, player=True, played=5)
    assert moderation.panic_until(T0) == T0 + timedelta(hours=1)
    moderation.calm(org, T0 + timedelta(minutes=5))
    service.say(room, newcomer, "hello", T0 + timedelta(minutes=6), played=5)
    # By itself at its end, too.
    moderation.panic(org, 1, "again", T0 + timedelta(minutes=10))
    service.say(room, newcomer, "back", T0 + timedelta(minutes=71), played=5)


def test_a_new_member_writes_no_links(room) -> None:  # type: ignore[no-untyped-def]
    fresh = member("fresh", joined=T0 - timedelta(hours=2))
    with pytest.raises(ChatRefused) as refused:
        service.say(room, fresh, "cheap cues at www.example.com", T0, played=1)
    assert refused.value.code == "chat_no_links"
    unplayed = member("unplayed")
    with pytest.raises(ChatRefused):
        service.say(room, unplayed, "see casino.ru", T0, played=0)
    service.say(room, unplayed, "see you at the club.", T0, played=0)  # a full stop is no link
    member_ = member("settled")
    service.say(room, member_, "rules at https://example.com", T0, played=1)


def test_the_report_endpoint_answers_json(room, client: Client) -> None:  # type: ignore[no-untyped-def]
    ann, ben = member("ann"), member("ben")
    line = service.say(room, ben, "spam spam", T0, played=5)
    url = f"/chat/lines/{line.id}/report/"
    refused = client.post(url, {"reason": "spam"})
    assert refused.status_code == 403 and json.loads(refused.content)["code"] == "chat_members_only"
    client.force_login(ann)
    assert json.loads(client.post(url, {"reason": "spam"}).content) == {"ok": True}
    again = client.post(url, {"reason": "spam"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert again.status_code == 409
    assert json.loads(again.content)["message"] == "Вы уже пожаловались на эту строку."
    assert client.get(url).status_code == 405


def test_the_organisers_page(room, client: Client) -> None:  # type: ignore[no-untyped-def]
    ann, ben, org = member("ann"), member("ben"), member("org", staff=True)
    line = service.say(room, ben, "<b>shouting</b>", T0, played=5)
    moderation.report(ann, line.id, "insult", "", T0)
    client.force_login(ann)
    assert client.get("/chat/reports/").status_code == 403
    client.force_login(org)
    page = client.get("/chat/reports/").content.decode()
    assert f'data-testid="case-{line.id}"' in page and "&lt;b&gt;shouting&lt;/b&gt;" in page
    answered = client.post(
        "/chat/reports/", {"do": "answer", "line": line.id, "action": "hide", "reason": "rude"}
    )
    assert answered.status_code == 302 and Line.objects.get(pk=line.id).hidden
    assert 'data-testid="no-reports"' in client.get("/chat/reports/").content.decode()
    client.post("/chat/reports/", {"do": "panic", "hours": "3", "reason": "raid"})
    assert 'data-testid="panic-on"' in client.get("/chat/reports/").content.decode()
    bad = client.post("/chat/reports/", {"do": "panic", "hours": "99", "reason": "raid"})
    assert bad.status_code == 409
    russian = client.get("/chat/reports/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Жалобы в чате" in russian


def test_a_members_chat_settings(client: Client) -> None:
    ann = member("ann")
    assert service.preference(ann).mild_shown is False and not service.preference(None).pk
    assert client.get("/chat/settings/").status_code == 302  # to log in
    client.force_login(ann)
    assert 'data-testid="chat-settings-link"' in client.get("/players/ann/").content.decode()
    saved = client.post("/chat/settings/", {"mild_shown": "on"})
    assert saved.status_code == 302
    assert service.preference(ann).mild_shown and not service.preference(ann).off_at_table
    # Her table's players' chat is hers alone unless she lets spectators read it.
    assert not service.preference(ann).players_shown
    assert 'name="players_shown"' in client.get("/chat/settings/").content.decode()
    client.post("/chat/settings/", {"mild_shown": "on", "players_shown": "on"})
    assert service.preference(ann).players_shown
    ben = member("ben")
    assert not service.shown_to_spectators({ann.pk, ben.pk})  # ben has not
    Preference.objects.create(member=ben, players_shown=True)
    assert service.shown_to_spectators({ann.pk, ben.pk})
    russian = client.get("/chat/settings/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Настройки чата" in russian and "Показывать мягкие слова" in russian
    assert "Разрешить зрителям читать чат игроков" in russian


def test_the_report_reasons_are_the_rules_own() -> None:
    from rules.chat import REPORT_REASONS

    assert tuple(Report.Reason.values) == REPORT_REASONS
