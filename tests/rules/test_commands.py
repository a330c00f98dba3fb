"""Commands and their stored form: every command reads back as itself; bad ones name the field."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import commands as c
from rules.errors import StateFormatError
from rules.table import OBJECT_BALLS

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
point = st.tuples(st.floats(-300.0, 300.0), st.floats(-1400.0, -1084.5))
command_strategy = st.one_of(
    st.builds(
        c.Stroke,
        angle=finite,
        speed=finite,
        side=finite,
        height=finite,
        nominated=st.none() | st.sampled_from(OBJECT_BALLS),
        cue_ball=st.none() | point,
    ),
    st.builds(c.Choose, option=st.sampled_from(["play", "put_back", "replace", "pass"])),
    st.builds(c.Concede, scope=st.sampled_from(["frame", "match"])),
    st.builds(c.Claim, scope=st.sampled_from(["frame", "match"])),
    st.builds(c.Toss, winner=st.sampled_from(["A", "B"])),
    st.just(c.ShotClockExpired()),
)


@given(command_strategy)
def test_every_command_reads_back_as_itself(command: c.Command) -> None:
    stored = json.loads(json.dumps(c.to_json(command)))
    assert c.from_json(c.kind(command), stored) == command


@pytest.mark.parametrize(
    ("kind", "data", "field"),
    [
        ("stroke", {"angle": "1", "speed": 1, "side": 0, "height": 0}, "stroke.angle"),
        ("stroke", {"angle": 1, "speed": 1, "side": 0, "height": 0, "cue_ball": [1]},
         "stroke.cue_ball"),
        ("concede", {"scope": "set"}, "concede.scope"),
        ("toss", {"winner": "C"}, "toss.winner"),
        ("teleport", {}, "command.kind"),
    ],
)  # fmt: skip
def test_a_bad_stored_command_names_the_field(kind: str, data: object, field: str) -> None:
    with pytest.raises(StateFormatError) as err:
        c.from_json(kind, data)
    assert err.value.field == field
