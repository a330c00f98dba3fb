"""When two tables show the same position (rules/positions.py): the key is exact and coarse,
`keys_near` finds every key a nearby position may have, `near` is the precise test."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.positions import (
    CELL_MM,
    KEY_LENGTH,
    TOLERANCE_MM,
    Position,
    key,
    keys_near,
    near,
    position_of,
)
from rules.referee import new_frame
from rules.state import make_balls
from rules.table import initial_rack

RACK = initial_rack()
PLAYED = {**RACK, "white": (100.0, -900.0)}  # the rack and the cue ball on the table


def position(balls: dict[str, tuple[float, float]], on: str = "red") -> Position:
    return Position(make_balls(balls), on)


def moved(balls: dict[str, tuple[float, float]], ball: str, dx: float, dy: float = 0.0):  # type: ignore[no-untyped-def]
    x, y = balls[ball]
    return {**balls, ball: (x + dx, y + dy)}


def test_a_frames_opening_and_a_frame_over_have_no_position() -> None:
    opening = new_frame("A")
    assert opening.opening and position_of(opening) is None
    played = opening.with_(balls=make_balls(PLAYED), opening=False, in_hand=False)
    assert position_of(played) == Position(played.balls, "red")
    assert position_of(played.with_(frame_over=True)) is None


def test_the_same_balls_within_the_tolerance_are_the_same_position() -> None:
    here = position(PLAYED)
    assert near(here, here)
    assert near(here, position(moved(PLAYED, "red7", TOLERANCE_MM - 0.01)))
    # Every ball nudged a little, each within the tolerance.
    nudged = {b: (p[0] + 6.0, p[1] - 6.0) for b, p in PLAYED.items()}
    assert near(here, position(nudged))


def test_one_ball_beyond_the_tolerance_another_ball_set_or_ball_on_is_another_position() -> None:
    here = position(PLAYED)
    assert not near(here, position(moved(PLAYED, "red7", TOLERANCE_MM + 0.01)))
    assert not near(here, position(moved(PLAYED, "white", 0.0, -(TOLERANCE_MM + 1))))
    fewer = {b: p for b, p in PLAYED.items() if b != "red15"}
    assert not near(here, position(fewer))
    # The same number of balls, one swapped for another at the same spot.
    swapped = {("red15" if b == "red14" else b): p for b, p in fewer.items()}
    assert not near(position(fewer), position(swapped))
    assert not near(here, position(PLAYED, on="colour"))


def test_the_key_names_the_ball_on_the_balls_and_the_centroids_cell() -> None:
    here = position(PLAYED)
    assert key(here).startswith("red:")
    assert len(key(here)) <= KEY_LENGTH
    assert key(here) != key(position(PLAYED, on="colour"))
    assert key(here) != key(position({b: p for b, p in PLAYED.items() if b != "red1"}))
    assert key(here) in keys_near(here)


def test_a_position_astride_a_cells_edge_is_found_under_its_neighbours_key() -> None:
    """The centroid just below a cell's edge, the copy's just above it: different keys, and
    the copy's is among the keys the original looks under (and the other way round)."""
    here = position(PLAYED)
    cx, _ = here.centroid
    edge = math.ceil(cx / CELL_MM) * CELL_MM
    below = position({b: (p[0] + (edge - 0.5 - cx), p[1]) for b, p in PLAYED.items()})
    # Every ball a millimetre to the right: the centroid crosses the edge by half of one.
    above = position({b: (p[0] + 1.0, p[1]) for b, p in below.balls})
    assert near(below, above) and key(below) != key(above)
    assert key(above) in keys_near(below) and key(below) in keys_near(above)


# Each ball moved by less than the tolerance (a hair inside it: `near` compares floats).
coordinate = st.floats(-0.999 * TOLERANCE_MM / math.sqrt(2), 0.999 * TOLERANCE_MM / math.sqrt(2))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shift=st.tuples(st.floats(-2000, 2000), st.floats(-2000, 2000)),
    nudges=st.lists(st.tuples(coordinate, coordinate), min_size=len(PLAYED), max_size=len(PLAYED)),
)
def test_every_position_near_another_is_under_one_of_its_keys_near(shift, nudges) -> None:  # type: ignore[no-untyped-def]
    original = {b: (p[0] + shift[0], p[1] + shift[1]) for b, p in PLAYED.items()}
    copy = {
        b: (p[0] + dx, p[1] + dy) for (b, p), (dx, dy) in zip(original.items(), nudges, strict=True)
    }
    a, b = position(original), position(copy)
    assert near(a, b)
    assert key(b) in keys_near(a)
    assert 1 <= len(keys_near(a)) <= 4
