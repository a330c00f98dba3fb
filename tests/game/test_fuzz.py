"""Fuzzing the match socket: messages from the schemas and mutations of them, through the real
consumer. Whatever arrives, no exception escapes, the socket stays open, every message gets
its answer, and a refused message leaves the stored match as it was.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.models import Match
from game.protocol import client_in, server_out
from rules.state import OPTIONS
from rules.table import OBJECT_BALLS
from tests.game.helpers import Client

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "2000"))

# --- values: good ones, and the wrong kinds a hostile client sends --------------------------------
weird = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
angle = st.floats(-7.0, 7.0, allow_nan=False)
speed = st.floats(0.0, 12.0, allow_nan=False)
tip = st.floats(-0.6, 0.6, allow_nan=False)
point = st.tuples(st.floats(-2100, 2100, allow_nan=False), st.floats(-2100, 2100, allow_nan=False))
client_id = st.text(alphabet="abcXYZ019_.:-", min_size=1, max_size=70)
version = st.integers(-2, 6)

FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "hello": {"protocol": st.integers(0, 2), "last_version": st.none() | version},
    "stroke": {
        "client_id": client_id, "version": version, "angle": angle, "speed": speed,
        "side": tip, "height": tip, "nominated": st.none() | st.sampled_from(OBJECT_BALLS),
        "cue_ball": st.none() | point,
    },
    "aim": {"angle": angle, "speed": speed, "side": tip, "height": tip,
            "cue_ball": st.none() | point},
    "choose": {"client_id": client_id, "version": version, "option": st.sampled_from(OPTIONS)},
    "concede": {"client_id": client_id, "scope": st.sampled_from(["frame", "match", "set"])},
    "claim": {"client_id": client_id, "scope": st.sampled_from(["frame", "match"])},
    "ping": {"version": version},
    "log": {"frame": st.integers(-2, 1002)},
    "say": {
        "room": st.sampled_from(["players", "spectators", "lobby"]),
        "text": st.none() | st.text(max_size=600), "client_id": st.none() | client_id,
        "preset": st.none() | st.sampled_from(["good_shot", "sorry", "bribe"]),
    },
}  # fmt: skip
assert set(FIELDS) == set(client_in.TYPES)  # every message type is fuzzed


@st.composite
def messages(draw: st.DrawFn) -> str:
    """A message of some type with each field kept, dropped, or replaced by a weird value, and
    perhaps extra fields; or a mutation of its text."""
    kind = draw(st.sampled_from([*client_in.TYPES, "dance", None, 7]))
    fields = FIELDS.get(kind, {}) if isinstance(kind, str) else {}
    message: dict[str, Any] = {"type": kind}
    for name, good in fields.items():
        how = draw(st.sampled_from(["good", "good", "good", "weird", "drop"]))
        if how != "drop":
            message[name] = draw(good if how == "good" else weird)
    if draw(st.booleans()) and draw(st.booleans()):
        message[draw(st.text(max_size=6))] = draw(weird)
    text = json.dumps(message)
    mutation = draw(st.sampled_from(["none"] * 6 + ["big", "deep", "cut", "raw", "array", "pad"]))
    if mutation == "big":  # an integer past every limit, where a number goes
        text = text.replace('"protocol": ', '"protocol": ' + "9" * 5000 + " + ", 1)
        text = text.replace('"version": ', '"version": ' + "9" * draw(st.integers(20, 5000)), 1)
    elif mutation == "deep":
        depth = draw(st.integers(10, 3000))
        text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    elif mutation == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif mutation == "raw":
        text = draw(st.text(max_size=40))
    elif mutation == "array":
        text = json.dumps([message])
    elif mutation == "pad":
        text = text[:-1] + ', "pad": "' + "é" * draw(st.integers(3000, 5000)) + '"}'
    return text


@pytest.fixture
async def player(match, players, settings):  # type: ignore[no-untyped-def]
    settings.SNOOKER = {**settings.SNOOKER, "RATE_BURST": 10**9, "RATE_PER_SECOND": 10**9,
                        "MEMBER_RATE_BURST": 10**9, "MEMBER_RATE_PER_SECOND": 10**9}  # fmt: skip
    client = Client(match.pk, players[0])
    await client.open()
    yield client
    await client.close()


def _awaited(text: str) -> tuple[int, bool]:
    """How many pongs answer the fuzzed text and the test's own ping after it; and whether
    the text is a chat line, whose one answer (its `line`, or an error) comes from a task of
    its own (game/consumers.py `_say`), and so may come after those pongs."""
    try:
        parsed = client_in.parse(text)
    except client_in.BadMessage:
        return 1, False
    return 1 + isinstance(parsed, client_in.Ping), isinstance(parsed, client_in.Say)


def _stored(match_id: int) -> tuple[int, Any]:
    row = Match.objects.get(pk=match_id)
    return row.version, row.state


@settings(
    max_examples=EXAMPLES, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(text=messages())
async def test_any_message_is_answered_and_a_refused_one_changes_nothing(
    player: Client, match: Match, text: str
) -> None:
    before = player.stored if hasattr(player, "stored") else None
    if before is None:
        before = player.stored = await database_sync_to_async(_stored)(match.pk)  # type: ignore[attr-defined]
    await player.ws.send_input({"type": "websocket.receive", "text": text})  # "" included
    # A ping after it: its pong closes the answers to the fuzzed message (which, if it is a
    # good ping itself, is answered with a pong too: otherwise the next example would take
    # that second pong for its own, and this one's answers for the next one's).
    await player.ws.send_to(text_data=json.dumps({"type": "ping", "version": 0}))
    answers: list[dict[str, Any]] = []
    pongs, said = _awaited(text)
    while pongs or said:
        output = await player.ws.receive_output(timeout=5)
        assert output["type"] == "websocket.send", f"the socket closed on {text[:200]!r}"
        answer = json.loads(output["text"])
        server_out.SCHEMAS[answer["type"]].model_validate(answer)
        if answer["type"] == "pong":
            pongs -= 1
        else:
            answers.append(answer)
            if answer["type"] in ("line", "error"):
                said = False
    kinds = {a["type"] for a in answers}
    history = getattr(player, "history", [])
    history.append((text[:80], [a.get("code", a["type"]) for a in answers]))
    player.history = history[-4:]  # type: ignore[attr-defined]
    assert not (kinds & {"error"} and kinds & {"ack"}), answers
    if "error" in kinds:
        after = await database_sync_to_async(_stored)(match.pk)
        assert after[0] == before[0], player.history  # type: ignore[attr-defined]
        assert after == before
        assert all(a["code"] != "internal" for a in answers if a["type"] == "error"), answers
    if "ack" in kinds:
        player.stored = await database_sync_to_async(_stored)(match.pk)  # type: ignore[attr-defined]


def test_the_fuzzer_makes_every_kind_of_refusal() -> None:
    """The generator reaches each way of being wrong, not only one easy error."""
    codes: set[str] = set()

    @settings(max_examples=400, database=None)
    @given(messages())
    def collect(text: str) -> None:
        try:
            client_in.parse(text)
        except client_in.BadMessage as exc:
            codes.add(exc.code)

    collect()
    assert {"bad_json", "bad_message", "unknown_type", "invalid", "too_large"} <= codes
