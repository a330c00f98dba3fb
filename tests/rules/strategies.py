"""Hypothesis strategies for random legal frames and strokes (shared by the rules tests)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from rules.referee import balls_on, visit_on
from rules.state import FrameState, Player, Shot, make_balls
from rules.table import (
    BALL_DIAMETER,
    BALL_RADIUS,
    COLOURS,
    D_CENTRE,
    D_RADIUS,
    HALF_LENGTH,
    HALF_WIDTH,
    REDS,
    WHITE,
    Point,
    in_d,
)

players = st.sampled_from(["A", "B"])


def _free(p: Point, placed: dict[str, Point]) -> bool:
    return all(math.dist(p, q) > BALL_DIAMETER + 0.01 for q in placed.values())


_CELL = 60.0  # mm: balls in different cells of this grid never overlap
_COLS = int(2 * (HALF_WIDTH - BALL_RADIUS) // _CELL)
_ROWS = int(2 * (HALF_LENGTH - BALL_RADIUS) // _CELL)


@st.composite
def positions(draw: st.DrawFn, balls: list[str]) -> dict[str, Point]:
    """Non-overlapping resting positions on the bed for these balls (a jittered grid)."""
    cells = draw(
        st.lists(
            st.integers(0, _COLS * _ROWS - 1),
            min_size=len(balls),
            max_size=len(balls),
            unique=True,
        )
    )
    placed: dict[str, Point] = {}
    for ball, cell in zip(balls, cells, strict=True):
        jx, jy = draw(st.floats(0, 3)), draw(st.floats(0, 3))
        x = -HALF_WIDTH + BALL_RADIUS + (cell % _COLS) * _CELL + BALL_RADIUS + jx
        y = -HALF_LENGTH + BALL_RADIUS + (cell // _COLS) * _CELL + BALL_RADIUS + jy
        placed[ball] = (x, y)
    return placed


@st.composite
def d_point(draw: st.DrawFn, placed: dict[str, Point]) -> Point | None:
    for _ in range(30):
        r = draw(st.floats(0, D_RADIUS))
        a = draw(st.floats(math.pi, 2 * math.pi))
        p = (D_CENTRE[0] + r * math.cos(a), D_CENTRE[1] + r * math.sin(a))
        if in_d(p) and _free(p, placed):
            return p
    return None


@st.composite
def frames(draw: st.DrawFn) -> FrameState:
    """A legal position: some reds and all colours, or the colour sequence under way."""
    reds = draw(st.integers(0, 15))
    colours = list(COLOURS) if reds else list(COLOURS[draw(st.integers(0, len(COLOURS) - 1)) :])
    in_hand = draw(st.booleans())
    names = list(REDS[:reds]) + colours + ([] if in_hand else [WHITE])
    placed = draw(positions(names))
    if not in_hand and WHITE not in placed:
        in_hand = True
    on = visit_on([b for b in placed if b != WHITE])
    if reds and draw(st.booleans()):
        on = "colour"
    if not reds and len(colours) == 6 and draw(st.booleans()):
        on = "colour"  # straight after the last red
    striker: Player = draw(players)
    a, b = draw(st.integers(0, 80)), draw(st.integers(0, 80))
    return FrameState(
        balls=make_balls(placed), striker=striker, scores=(a, b), on=on, in_hand=in_hand
    )


@st.composite
def free_ball_frames(draw: st.DrawFn) -> FrameState:
    """A legal position; where a foul could have left one (red or a colour of the sequence
    on), sometimes with a free ball to play (RULES.md §5)."""
    state = draw(frames())
    if state.on != "colour" and draw(st.booleans()):
        return state.with_(free_ball=True)
    return state


@st.composite
def shots(draw: st.DrawFn, state: FrameState) -> Shot:
    """A stroke the physics could report from this position (rests where it was)."""
    table = state.ball_map()
    objects = [b for b in table if b != WHITE]
    cue = None
    if state.in_hand:
        cue = draw(d_point(table))
    on = sorted(balls_on(state.on, objects))
    nominated = None
    if on and draw(st.integers(0, 2)):  # mostly strokes a player would play: at a ball on
        target = draw(st.sampled_from(on))
        first: tuple[str, ...] = (target,)
        if state.on == "colour":
            nominated = draw(st.sampled_from([None, target]))
        pottable = on if state.on == "red" else [target]
        potted = draw(st.lists(st.sampled_from(pottable), max_size=2, unique=True))
        if draw(st.integers(0, 5)) == 0:
            potted.append(WHITE)
    else:
        first = tuple(draw(st.lists(st.sampled_from(objects), max_size=2, unique=True)))
        if first:
            potted = draw(st.lists(st.sampled_from([*objects, WHITE]), max_size=3, unique=True))
        else:
            potted = [WHITE] if draw(st.booleans()) else []
        if state.on == "colour":
            colours = [b for b in objects if b in COLOURS]
            nominated = draw(st.none() | st.sampled_from(colours)) if colours else None
        elif state.free_ball and objects:
            nominated = draw(st.none() | st.sampled_from(objects))
    # Now and then a ball forced off the table (the cue ball only, if it hit nothing).
    leavable = [b for b in ([*objects, WHITE] if first else [WHITE]) if b not in potted]
    off = []
    if leavable and draw(st.integers(0, 4)) == 0:
        off = [draw(st.sampled_from(leavable))]
    closest = draw(st.none() | st.floats(0, 500))
    return Shot(
        first_contact=first,
        potted=tuple(potted),
        off_table=tuple(off),
        jumped=draw(st.integers(0, 9)) == 0,
        nominated=nominated,
        cue_ball=cue,
        closest_on_mm=closest,
    )
