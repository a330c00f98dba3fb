"""The chat's rules (rules/chat.py): a line's shape, the flood limits, who writes where,
timeouts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from rules import chat
from rules.chat import Line, Said, Timeout, Writer

T0 = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
MEMBER = Writer(member=True)
PLAYER = Writer(member=True, player=True)
GUEST = Writer(member=False)


def test_a_line_is_trimmed_and_its_whitespace_runs_are_one_space() -> None:
    assert chat.clean("  good\t\tshot \n ") == "good shot"


def test_control_bidi_and_zero_width_characters_are_removed() -> None:
    assert chat.clean("a\x00b\x07c\u202ed\u2066e\u200bf\ufeffg\u200dh") == "abcdefgh"


def test_a_line_of_140_characters_is_kept_and_141_refused() -> None:
    assert chat.check_text("x" * 140) is None
    assert chat.check_text("x" * 141) == "chat_too_long"
    # Counted after trimming: spaces around do not count.
    assert chat.judge("lobby", MEMBER, "  " + "x" * 140 + "  ", None, (), (), T0) == Line(
        "x" * 140, None
    )


def test_an_empty_line_is_refused_even_if_it_held_only_invisible_characters() -> None:
    assert chat.judge("lobby", MEMBER, " \u200b\u202e ", None, (), (), T0) == "chat_empty"


def test_the_sixth_line_in_ten_seconds_is_a_flood_and_after_the_window_it_is_not() -> None:
    recent = [Said(T0 + timedelta(seconds=i), f"line {'abcde'[i]}") for i in range(5)]
    assert chat.flood(recent, "something new", T0 + timedelta(seconds=9))
    assert not chat.flood(recent, "something new", T0 + timedelta(seconds=10))


def test_a_near_copy_of_either_of_the_last_two_lines_is_a_flood() -> None:
    recent = [Said(T0, "are you still there?"), Said(T0, "rematch at eight"), Said(T0, "gg")]
    now = T0 + timedelta(minutes=5)
    assert chat.flood(recent, "GG!", now)
    assert chat.flood(recent, "Rematch at eight!!", now)
    assert chat.flood(recent, "rematch at eigth", now)  # a typo's difference
    assert not chat.flood(recent, "are you still there?", now)  # the third last: allowed
    assert chat.judge("lobby", MEMBER, "gg", None, recent, (), now) == "chat_flood"


def test_a_spectator_never_writes_in_the_players_room() -> None:
    assert chat.judge("players", MEMBER, "play safe", None, (), (), T0) == "chat_not_allowed"
    assert chat.judge("players", GUEST, None, "good_shot", (), (), T0) == "chat_not_allowed"
    assert chat.judge("players", PLAYER, "good shot", None, (), (), T0) == Line("good shot", None)


def test_players_write_in_the_spectators_room_only_once_the_match_is_over() -> None:
    assert chat.may_write("spectators", PLAYER, False) == "chat_not_allowed"
    done = Writer(member=True, player=True, finished=True)
    assert chat.may_write("spectators", done, False) is None
    assert chat.may_read("spectators", player=True, finished=False) is False
    assert chat.may_read("spectators", player=True, finished=True) is True
    assert chat.may_read("players", player=False, finished=True) is False


def test_a_guest_says_only_preset_phrases() -> None:
    assert chat.judge("spectators", GUEST, "hello", None, (), (), T0) == "chat_presets_only"
    assert chat.judge("spectators", GUEST, None, "good_luck", (), (), T0) == Line(
        "good_luck", "good_luck"
    )
    assert chat.judge("spectators", GUEST, None, "bribe", (), (), T0) == "chat_unknown_preset"
    guest_player = Writer(member=False, player=True)
    assert chat.judge("players", guest_player, None, "sorry", (), (), T0) == Line("sorry", "sorry")


def test_a_timeout_silences_until_it_ends() -> None:
    until = chat.timeout_until(T0, "15m")
    assert until == T0 + timedelta(minutes=15)
    out = [Timeout(until, "insults")]
    assert chat.judge("lobby", MEMBER, "hi", None, (), out, T0) == "chat_timed_out"
    assert chat.judge("lobby", MEMBER, "hi", None, (), out, until) == Line("hi", None)
    longer = Timeout(chat.timeout_until(T0, "1d"), "again")
    assert chat.timed_out([*out, longer], T0 + timedelta(hours=1)) == longer


# --- properties --------------------------------------------------------------------------------
@given(st.text())
def test_a_cleaned_line_holds_no_control_format_or_edge_space_and_cleaning_is_stable(
    text: str,
) -> None:
    line = chat.clean(text)
    assert chat.clean(line) == line
    assert line == line.strip()
    assert "  " not in line
    assert not any(ch in line for ch in "\x00\u202e\u2066\u200b\ufeff\n\t")


@given(st.text(max_size=300), st.sampled_from(chat.ROOM_KINDS), st.booleans(), st.booleans())
def test_whatever_is_judged_a_line_is_at_most_140_characters_and_clean(
    text: str, kind: chat.RoomKind, member: bool, player: bool
) -> None:
    said = chat.judge(kind, Writer(member, player), text, None, (), (), T0)
    if isinstance(said, Line):
        assert 0 < len(said.text) <= chat.MAX_LENGTH
        assert chat.clean(said.text) == said.text
        assert member  # only members write their own words


@given(st.lists(st.integers(min_value=0, max_value=30), max_size=12), st.integers(0, 40))
def test_never_more_than_five_lines_pass_in_any_ten_seconds(starts: list[int], at: int) -> None:
    """Feeding lines through `flood` one after another never lets a sixth in a window."""
    passed: list[Said] = []
    for i, second in enumerate(sorted(starts)):
        now = T0 + timedelta(seconds=second)
        text = f"distinct line number {i} " + "xyzw"[i % 4] * i
        if not chat.flood(passed, text, now):
            passed.append(Said(now, text))
    times = [s.at for s in passed]
    for t in times:
        assert sum(1 for u in times if t <= u < t + chat.FLOOD_WINDOW) <= chat.FLOOD_LINES


@given(st.text(min_size=1, max_size=140))
def test_a_line_is_always_a_near_copy_of_itself(text: str) -> None:
    assert chat.near_copy(text, text)


def test_every_room_anyone_writes_in_counts_per_address_but_a_matchs_players() -> None:
    counted = [kind for kind in chat.ROOM_KINDS if chat.counted_per_address(kind)]
    assert counted == ["spectators", "lobby", "competition", "ladder"]


def test_a_rooms_rate_is_a_bucket_of_its_count_refilled_over_its_period() -> None:
    assert chat.room_rate("10/2s") == (10, 5.0)
    assert chat.room_rate("5/s") == (5, 5.0)
    assert chat.room_rate("3/m") == (3, 0.05)
    burst, per_second = chat.room_rate("10/2s")
    tokens = None
    for _ in range(10):  # ten at once
        tokens = chat.take(tokens, 0.0, burst, per_second)
        assert tokens is not None
    assert chat.take(tokens, 0.0, burst, per_second) is None  # the eleventh waits
    assert chat.take(tokens, 0.1, burst, per_second) is None  # half a line's time
    later = chat.take(tokens, 0.2, burst, per_second)  # one line's time: five a second
    assert later is not None and chat.take(later, 0.2, burst, per_second) is None
    # A line refused after all gives its place back, never past the burst.
    assert chat.give_back(later, burst).left == later.left + 1
    full = chat.Tokens(10, 0.0)
    assert chat.give_back(full, burst).left == 10
    assert chat.counted_per_room("spectators") and chat.counted_per_room("lobby")
    assert not chat.counted_per_room("players")


@given(st.lists(st.floats(min_value=0, max_value=5), max_size=200))
def test_a_room_never_takes_more_than_its_burst_and_its_rate(gaps: list[float]) -> None:
    burst, per_second = chat.room_rate("10/2s")
    tokens, now, taken = None, 0.0, 0
    for gap in gaps:
        now += gap
        found = chat.take(tokens, now, burst, per_second)
        if found is not None:
            tokens, taken = found, taken + 1
    assert taken <= burst + now * per_second
