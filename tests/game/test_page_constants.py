"""The match page carries the rules' figures for the browser (game/protocol/constants.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from game.protocol import (
    CLOSE_FLOOD,
    CLOSE_FULL,
    CLOSE_MOVED,
    CLOSE_NOT_FOUND,
    CLOSE_UNAVAILABLE,
    PROTOCOL_VERSION,
)
from game.protocol.client_in import MAX_SPEED, MISCUE_LIMIT
from game.protocol.constants import page_constants
from rules import table

pytestmark = pytest.mark.django_db


def test_the_page_renders_the_constants_block(client: Client, match) -> None:
    page = client.get(f"/match/{match.pk}/").content.decode()
    block = re.search(r'<script id="club-constants" type="application/json">(.*?)</script>', page)
    assert block is not None
    assert json.loads(block.group(1)) == json.loads(json.dumps(page_constants()))
    # The power slider's range is the same figures, rendered into the markup.
    slider = re.search(r'<input type="range" min="([^"]+)"\s+max="([^"]+)"', page)
    assert slider is not None
    assert float(slider.group(1)) == page_constants()["stroke"]["min_speed"]
    assert float(slider.group(2)) == MAX_SPEED


def test_the_constants_are_the_rules_own() -> None:
    constants = page_constants()
    assert constants["protocol"] == PROTOCOL_VERSION
    assert constants["close_codes"] == {
        "not_found": CLOSE_NOT_FOUND, "flood": CLOSE_FLOOD, "full": CLOSE_FULL,
        "moved": CLOSE_MOVED, "unavailable": CLOSE_UNAVAILABLE,
    }  # fmt: skip
    assert constants["stroke"]["max_speed"] == MAX_SPEED
    assert constants["stroke"]["miscue_limit"] == MISCUE_LIMIT
    assert 0 < constants["stroke"]["min_speed"] < MAX_SPEED
    t = constants["table"]
    assert (t["half_width"], t["half_length"]) == (table.HALF_WIDTH, table.HALF_LENGTH)
    assert (t["ball_radius"], t["baulk_y"], t["d_radius"]) == (
        table.BALL_RADIUS, table.BAULK_Y, table.D_RADIUS,
    )  # fmt: skip
    assert tuple(t["d_centre"]) == table.D_CENTRE
    assert {b: tuple(p) for b, p in t["spots"].items()} == table.SPOTS
    assert t["values"] == table.VALUES and tuple(t["colours"]) == table.COLOURS
    assert [p["name"] for p in t["pockets"]] == [p.name for p in table.POCKETS]
    for sent, pocket in zip(t["pockets"], table.POCKETS, strict=True):
        assert tuple(sent["mouth"]) == pocket.mouth and tuple(sent["inward"]) == pocket.inward
        assert sent["mouth_width"] == pocket.mouth_width
        assert sent["fall_depth"] == pocket.fall_depth
        assert [(tuple(j["centre"]), j["radius"]) for j in sent["jaws"]] == [
            (j.centre, j.radius) for j in pocket.jaws
        ]
