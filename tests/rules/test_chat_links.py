"""rules.chat's new-member and standing rules: no links from a new member, the lobby kept to
members of some standing while the panic switch is on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from rules import chat as rules

NOW = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)


def test_new_and_standing() -> None:
    day, week = rules.NEW_FOR, rules.STANDING_FOR
    assert rules.is_new(NOW - day / 2, 5, NOW)  # the first day
    assert rules.is_new(NOW - 2 * day, 0, NOW)  # no finished match yet
    assert not rules.is_new(NOW - day, 1, NOW)
    assert not rules.of_standing(NOW - week + timedelta(seconds=1), 9, NOW)
    assert not rules.of_standing(NOW - week, rules.STANDING_MATCHES - 1, NOW)
    assert rules.of_standing(NOW - week, rules.STANDING_MATCHES, NOW)


@given(st.text(alphabet=st.characters(blacklist_characters="./:"), max_size=140))
def test_a_line_without_a_dot_or_a_slash_holds_no_link(line: str) -> None:
    assert not rules.has_link(line)


def test_judge_refuses_a_new_members_link_and_a_newcomer_in_a_panicking_lobby() -> None:
    new = rules.Writer(member=True, new=True, standing=False)
    settled = rules.Writer(member=True)
    assert rules.judge("lobby", new, "www.spam.example", None, [], [], NOW) == "chat_no_links"
    assert isinstance(rules.judge("lobby", settled, "www.club.org", None, [], [], NOW), rules.Line)
    assert rules.judge("lobby", new, "hi", None, [], [], NOW, panic=True) == "chat_panic"
    player = rules.Writer(member=True, player=True, new=True, standing=False)
    assert isinstance(
        rules.judge("players", player, "gl", None, [], [], NOW, panic=True), rules.Line
    )
