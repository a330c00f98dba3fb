"""The referee: settles strokes, choices, the draw and concessions (RULES.md, seed §7–§23).

Each entry point is a function from a state to a new state and a `Ruling`; a request the rules
do not allow raises `IllegalRequest` and changes nothing. How the open points of the rule book
are read is written down in docs/referee-decisions.md; each rule below names its clause.

Implemented: scoring and the ball on (§7, §9), nomination (§9.6, §23.4.1), every foul with its
penalty, all of a stroke's fouls called and valued in one place (`_fouls`; §22, §23), the
choices after a foul (§8, §16, §20, §22.1), free ball (§21), the miss and three-miss rules
(RULES.md §6), spotting (§12), touching ball and push (§18, §19), the end
of the frame and the re-spotted black (§7), concession. Not implemented, because an online
table cannot break them: see `rules.clauses.BY_CONSTRUCTION`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from enum import Enum

from rules import geometry
from rules.errors import IllegalRequest
from rules.outcome import Termination
from rules.state import OPTIONS, FrameState, Pending, Player, Shot, make_balls, opponent
from rules.table import (
    COLOURS,
    SPOTS,
    VALUES,
    WHITE,
    Point,
    in_d,
    initial_rack,
    is_colour,
    is_red,
    on_bed,
)

MISS_CLOSE_MM = 52.5  # RULES.md §6 (a): passing this close to a ball on is a real attempt
THREE_MISSES = 3


class Foul(Enum):
    """Why a stroke is a foul; the value is the clause it breaks."""

    NO_CONTACT = "§23.1.6"
    IN_OFF = "§23.1.7"
    FREE_BALL_SNOOKER = "§23.1.8"
    POT_NOT_ON = "§23.2.1"
    WRONG_BALL_FIRST = "§23.2.2"
    PUSH = "§23.2.3"
    OFF_TABLE = "§23.2.6"
    JUMP = "§23.1.9"
    TWO_BALLS_FIRST = "§23.3"
    NO_NOMINATION = "§23.4.1"
    RED_WHEN_COLOUR_ON = "§23.4.3"
    SHOT_CLOCK = "R4.shot-clock"


@dataclass(frozen=True, slots=True)
class Call:
    """One foul of a stroke as the referee calls it: the rule broken, the balls concerned
    (none for the cue ball's own fouls) and its value under §23, before the minimum of 4."""

    foul: Foul
    value: int
    balls: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.foul.name.lower()

    @property
    def clause(self) -> str:
        return self.foul.value


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the referee says about one request. What it leaves on the table (free ball,
    touching ball, choices, the end of the frame) is in the new state, not copied here."""

    foul: bool = False
    fouls: tuple[Call, ...] = ()  # every foul of the stroke; the penalty is the highest (§22.2)
    penalty: int = 0
    miss: bool = False
    points: int = 0
    nominated: str | None = None
    respotted: tuple[tuple[str, Point], ...] = ()
    warning: bool = False
    respotted_black: bool = False  # the re-spotted black comes now: by this stroke, or drawn (§7)
    ended: Termination | None = None  # the request ended the frame, for this reason


def calls(ruling: Ruling, after: FrameState) -> tuple[str, ...]:
    """The referee's words for a request, in order, given the frame it left."""
    words: list[str] = []
    if ruling.foul:
        words.append(f"FOUL {ruling.penalty}")
    if ruling.miss:
        words.append("MISS")
    if ruling.warning:
        words.append("WARNING: A THIRD MISS LOSES THE FRAME")
    if after.free_ball:
        words.append("FREE BALL")
    if after.touching and not after.frame_over:
        words.append("TOUCHING BALL")
    if ruling.respotted_black:
        words.append("RE-SPOTTED BLACK")
    if after.frame_over:
        words.append("FRAME OVER")
    return tuple(words)


# --- what is on -------------------------------------------------------------------------------
def balls_on(on: str, balls: Collection[str]) -> set[str]:
    """The balls that may be struck first as `on` says (no free ball)."""
    if on == "red":
        return {b for b in balls if is_red(b)}
    if on == "colour":
        return {b for b in balls if is_colour(b)}
    return {on} & set(balls)


def visit_on(balls: Collection[str]) -> str:
    """§9.3, §9.11: the ball on at the start of a visit."""
    if any(is_red(b) for b in balls):
        return "red"
    colours = [c for c in COLOURS if c in balls]
    return colours[0] if colours else "black"


def could_be_on(state: FrameState) -> set[str]:
    """Balls the striker could make the ball on (for touching ball, §18)."""
    present = [b for b, _ in state.balls if b != WHITE]
    if state.free_ball:
        return set(present)
    return balls_on(state.on, present)


def closest_on(state: FrameState, nominated: str | None, gaps: Mapping[str, float]) -> float | None:
    """RULES.md §6 (a): how near the cue ball came to a ball on (a nominated free ball counts),
    from the physics' smallest gap to each object ball; None if it came near none."""
    on = balls_on(state.on, gaps)
    if state.free_ball and nominated is not None:
        on.add(nominated)
    return min((gaps[b] for b in on if b in gaps), default=None)


def points_remaining(state: FrameState) -> int:
    """Points still on the table (docs/referee-decisions.md). A free ball (RULES.md §5) is one
    more ball on: while reds remain, one more red and its colour (8); in the colour sequence,
    the value of the colour on."""
    reds = len(state.reds)
    if reds:
        total = reds * 8 + 27 + (7 if state.on == "colour" else 0)
        return total + (8 if state.free_ball else 0)
    if state.on == "colour":
        return 7 + 27
    total = sum(VALUES[c] for c in state.colours)
    return total + (VALUES[state.on] if state.free_ball and state.on in VALUES else 0)


def needs_snookers(state: FrameState, scores: tuple[int, int] | None = None) -> bool:
    """Either player is behind by more than the points remaining."""
    a, b = scores or state.scores
    return abs(a - b) > points_remaining(state)


def _with_touching(state: FrameState) -> FrameState:
    if state.in_hand or state.frame_over:
        return state.with_(touching=None)
    return state.with_(touching=geometry.touching(state.ball_map(), could_be_on(state)))


# --- validation -------------------------------------------------------------------------------
def _refuse(state: FrameState, code: str, message: str) -> IllegalRequest:
    return IllegalRequest(code, message, state.text())


def _check_turn(state: FrameState, by: Player) -> None:
    if state.frame_over:
        raise _refuse(state, "frame_over", "the frame is over")
    if state.pending is not None:
        raise _refuse(state, "choice_pending", "a decision must be taken before the next stroke")
    if by != state.striker:
        raise _refuse(state, "not_your_turn", f"player {by} is not the striker")


@dataclass(frozen=True, slots=True)
class _Target:
    """What this stroke may hit first and pot, and what it is worth."""

    first: frozenset[str]  # balls that may be hit first on their own
    pots: frozenset[str]  # balls that may be potted
    actual_on: frozenset[str]  # the balls on the stroke is played for (free ball stands in)
    value: int  # value of the ball on (§23.1)
    nominated: str | None
    free_ball: str | None  # the free ball, if the striker used one
    declared: bool  # the striker nominated before the stroke
    touching_on: bool = False  # played away from a touching ball on: it counts as hit (§18)

    def worth(self, ball: str) -> int:
        """A ball's value in a penalty: the free ball is worth the ball on it stands for
        (RULES.md §5), every other ball its own value."""
        return self.value if ball == self.free_ball else VALUES[ball]


def _check_nomination(state: FrameState, nominated: str | None, present: Collection[str]) -> None:
    """§9.6, §21, §23.4.1: what may be nominated, before anything is played."""
    if nominated is None:
        return
    if nominated == WHITE or nominated not in present:
        raise _refuse(state, "bad_nomination", f"{nominated!r} is not an object ball on the table")
    if state.free_ball:
        return
    if state.on == "red" and not is_red(nominated):
        raise _refuse(state, "bad_nomination", "red is on: only a red may be nominated")
    if state.on == "colour" and not is_colour(nominated):
        raise _refuse(state, "bad_nomination", "a colour is on: nominate a colour")
    if state.on not in ("red", "colour") and nominated != state.on:
        raise _refuse(state, "bad_nomination", f"{state.on} is on: nothing else may be nominated")


def nominations(state: FrameState) -> tuple[str, ...]:
    """The balls the striker may usefully nominate: any object ball for a free ball (§21),
    a colour while a colour is on (§9.6); nothing else needs a nomination."""
    if state.free_ball:
        return state.object_balls
    if state.on == "colour":
        return state.colours
    return ()


def _target(
    state: FrameState, nominated: str | None, first: tuple[str, ...], present: Collection[str]
) -> _Target:
    """What the stroke was played for, given the (checked) nomination and the first contact."""
    target = _played_for(state, nominated, first, present)
    touching = state.touching
    if touching is not None and touching not in first and touching in target.first:
        return replace(target, touching_on=True)
    return target


def _played_for(
    state: FrameState, nominated: str | None, first: tuple[str, ...], present: Collection[str]
) -> _Target:
    on = state.on
    actual = frozenset(balls_on(on, present))
    if state.free_ball:
        chosen = nominated
        others = [b for b in first if b not in actual]
        away = state.touching in actual and state.touching not in first
        if chosen is None and len(others) == 1 and not away:
            # RULES.md §3: the ball first hit is taken as nominated. Played away from a
            # touching ball on, that ball was the one hit first (§18): nothing is inferred.
            chosen = others[0]
        value = 1 if on == "red" else VALUES[on]
        if chosen is not None and chosen not in actual:
            return _Target(
                frozenset({chosen}), actual | {chosen}, actual, value, chosen, chosen,
                nominated is not None,
            )  # fmt: skip
        return _Target(actual, actual, actual, value, chosen, None, nominated is not None)
    if on == "red":
        return _Target(actual, actual, actual, 1, None, None, False)
    if on == "colour":
        chosen = nominated
        if chosen is None and len(first) == 1 and is_colour(first[0]):
            chosen = first[0]
        if chosen is None:
            return _Target(frozenset(), frozenset(), actual, 7, None, None, False)
        only = frozenset({chosen})
        return _Target(only, only, actual, VALUES[chosen], chosen, None, nominated is not None)
    return _Target(actual, actual, actual, VALUES[on], on, None, False)


def placement_refusal(table: Mapping[str, Point], p: Point) -> str | None:
    """Why the cue ball may not be placed at `p` from hand (§5.2), as an error code, or None.

    `table` holds the object balls. The browser predicts the same answer from the figures
    the server gives it; a test holds its prediction to this function."""
    if not in_d(p):
        return "cue_ball_outside_d"
    if geometry.occupied(p, table):
        return "cue_ball_overlaps"
    return None


_PLACEMENT_WORDS = {
    "cue_ball_outside_d": "the cue ball must be placed in the D",
    "cue_ball_overlaps": "the cue ball would touch another ball",
}


def _place_cue_ball(state: FrameState, cue_ball: Point | None, table: dict[str, Point]) -> None:
    if state.in_hand:
        if cue_ball is None:
            raise _refuse(state, "cue_ball_required", "the cue ball is in hand: place it in the D")
        refusal = placement_refusal(table, cue_ball)
        if refusal is not None:
            raise _refuse(state, refusal, _PLACEMENT_WORDS[refusal])
        table[WHITE] = cue_ball
    elif cue_ball is not None:
        raise _refuse(state, "cue_ball_not_in_hand", "the cue ball is not in hand")
    elif WHITE not in table:
        raise _refuse(state, "no_cue_ball", "the cue ball is not on the table")


def _ready(
    state: FrameState, by: Player, nominated: str | None, cue_ball: Point | None
) -> dict[str, Point]:
    """Refuse a stroke no rule allows; else the table with the cue ball where it is struck."""
    _check_turn(state, by)
    table = state.ball_map()
    if state.in_hand:
        table.pop(WHITE, None)
    _place_cue_ball(state, cue_ball, table)
    _check_nomination(state, nominated, [b for b in table if b != WHITE])
    return table


def _check_shot(state: FrameState, shot: Shot, table: Mapping[str, Point]) -> None:
    known = set(table)
    gone = set(shot.potted) | set(shot.off_table)
    for ball in (*shot.first_contact, *shot.potted, *shot.off_table):
        if ball not in known:
            raise _refuse(state, "ball_not_on_table", f"{ball!r} is not on the table")
    if WHITE in shot.first_contact:
        raise _refuse(state, "bad_shot", "the cue ball cannot be its own first contact")
    if len(shot.first_contact) > 2 or len(set(shot.first_contact)) != len(shot.first_contact):
        raise _refuse(state, "bad_shot", "first contact is one ball or two at the same time")
    if len(gone) != len(shot.potted) + len(shot.off_table):
        raise _refuse(state, "bad_shot", "a ball is listed twice among potted and off the table")
    for ball, pos in shot.after:
        if ball not in known or ball in gone:
            raise _refuse(state, "bad_shot", f"{ball!r} cannot come to rest on the table")
        if not on_bed(pos):
            raise _refuse(state, "bad_shot", f"{ball!r} cannot rest at {pos}")
    if not shot.first_contact and set(shot.potted) - {WHITE}:
        raise _refuse(state, "bad_shot", "no object ball can move if the cue ball hit none")


# --- fouls --------------------------------------------------------------------------------
def penalty(calls: Collection[Call]) -> int:
    """§22.2, §23: of several fouls in one stroke only the highest counts, and never less
    than 4."""
    return max([4, *(c.value for c in calls)])


def _fair_pair(first: tuple[str, ...], target: _Target) -> bool:
    """§23.3: two balls hit at once are fair when both may be hit first (two reds, red on)
    or when they are the free ball and a ball on."""
    if all(b in target.first for b in first):
        return all(is_red(b) for b in first)
    free = target.free_ball
    return free in first and all(b == free or b in target.actual_on for b in first)


def _first_contact(state: FrameState, first: tuple[str, ...], target: _Target) -> list[Call]:
    """The fouls of what the cue ball hit first, one ball or two at once.

    Played away from a touching ball on, that ball counts as the ball first hit (§18, RULES.md
    §7): hitting nothing, or another ball next, is no foul. A red among the first contact while
    a colour is on is playing at a red (§23.4.3), whatever it was hit with. Two reds at once
    are not a §23.3 foul (the clause excepts them): while a colour is on they are §23.4.3, with
    a free ball nominated they are a first contact with balls not on (§23.2.2)."""
    v, worth = target.value, target.worth
    calls: list[Call] = []
    touching = state.touching
    if touching is not None and touching in first:
        calls.append(Call(Foul.PUSH, max(v, worth(touching)), (touching,)))
    if target.touching_on:
        return calls
    reds = tuple(b for b in first if is_red(b))
    if not first:
        calls.append(Call(Foul.NO_CONTACT, v))
    elif state.on == "colour" and reds:
        calls.append(Call(Foul.RED_WHEN_COLOUR_ON, 7, reds))
        if len(reds) < len(first):  # a colour with it: still two balls at once
            calls.append(Call(Foul.TWO_BALLS_FIRST, max(v, *map(worth, first)), first))
    elif len(first) == 1:
        if first[0] not in target.first:
            calls.append(Call(Foul.WRONG_BALL_FIRST, max(v, worth(first[0])), first))
    elif not _fair_pair(first, target):
        foul = Foul.WRONG_BALL_FIRST if len(reds) == len(first) else Foul.TWO_BALLS_FIRST
        calls.append(Call(foul, max(v, *map(worth, first)), first))
    return calls


def _balls_gone(shot: Shot, target: _Target) -> list[Call]:
    """The fouls of where the balls went: potted, forced off the table, the cue ball over a
    ball (§23.1.7, §23.1.9, §23.2.1, §23.2.6): one call per rule, valued at the highest ball
    concerned. The cue ball is worth the ball on (it is not "a ball concerned")."""
    v, worth = target.value, target.worth
    calls: list[Call] = []
    if WHITE in shot.potted:
        calls.append(Call(Foul.IN_OFF, v))
    if shot.jumped:
        calls.append(Call(Foul.JUMP, v))
    wrong = tuple(b for b in shot.potted if b != WHITE and b not in target.pots)
    if wrong:
        calls.append(Call(Foul.POT_NOT_ON, max(v, *map(worth, wrong)), wrong))
    if shot.off_table:
        objects = [worth(b) for b in shot.off_table if b != WHITE]
        calls.append(Call(Foul.OFF_TABLE, max([v, *objects]), shot.off_table))
    return calls


def _fouls(state: FrameState, played: _Played) -> tuple[Call, ...]:
    """Every foul the stroke commits, each with its value (§23). The one place a stroke is
    valued: the penalty is the highest of them (`penalty`, §22.2); the free ball is worth the
    ball on it stands for wherever a value involves it (RULES.md §5)."""
    shot, target = played.shot, played.target
    calls = _first_contact(state, shot.first_contact, target) + _balls_gone(shot, target)
    potted = [b for b in shot.potted if b != WHITE]
    if (
        target.free_ball is not None
        # With a fair pot the striker stays at the table: nobody is snookered by the stroke.
        and (calls or not _scores(state, target, potted))
        and set(played.before) - {WHITE} != {"pink", "black"}
        and _snookered_by_free_ball(target, played.after)
    ):
        calls.append(Call(Foul.FREE_BALL_SNOOKER, target.value, (target.free_ball,)))
    if calls and state.on == "colour" and not target.declared:
        calls.append(Call(Foul.NO_NOMINATION, 7))
    return tuple(calls)


def _snookered_by_free_ball(target: _Target, after: Mapping[str, Point]) -> bool:
    """§21, §23.1.8: the cue ball is left snookered on the balls the free ball stood for, and
    the free ball is the effective snookering ball (§15: of the balls hiding an edge, the
    nearest to the cue ball), even if a farther ball would hide it too (RULES.md §7)."""
    assert target.free_ball is not None
    if target.free_ball not in after or WHITE not in after:
        return False
    on = [b for b in target.actual_on if b in after]
    return target.free_ball in geometry.snookering_balls(after, on)


# --- the stroke -------------------------------------------------------------------------------
def check_stroke(
    state: FrameState, by: Player, nominated: str | None, cue_ball: Point | None
) -> dict[str, Point]:
    """Refuse a stroke request before anything is simulated (turn, placement, nomination);
    else the table as it will be struck, the cue ball in place."""
    return _ready(state, by, nominated, cue_ball)


@dataclass(frozen=True, slots=True)
class _Played:
    """A stroke (or the shot clock's foul) as the foul rules read it."""

    before: Mapping[str, Point]  # the table as struck, the cue ball in place (if on the bed)
    shot: Shot
    target: _Target
    after: dict[str, Point]  # where the balls came to rest; no cue ball if it went down


def strike(state: FrameState, by: Player, shot: Shot) -> tuple[FrameState, Ruling]:
    """Settle one stroke by `by`, given what the physics reports."""
    table = _ready(state, by, shot.nominated, shot.cue_ball)
    _check_shot(state, shot, table)
    present = [b for b in table if b != WHITE]
    target = _target(state, shot.nominated, shot.first_contact, present)

    after = dict(table)
    after.update(dict(shot.after))
    for ball in (*shot.potted, *shot.off_table):
        after.pop(ball, None)

    played = _Played(table, shot, target, after)
    calls = _fouls(state, played)
    if calls:
        return _after_foul(state, played, calls)
    potted = [b for b in shot.potted if b != WHITE]
    return _after_fair(state, shot, target, potted, after)


def _scores(state: FrameState, target: _Target, potted: list[str]) -> int:
    """Points of a fair stroke (§9.4, §9.6, §9.11, §21)."""
    fair = [b for b in potted if b in target.pots]
    if not fair:
        return 0
    if target.free_ball in fair and len(fair) > 1:
        fair.remove(target.free_ball)  # §21: free ball and ball on: only the ball on scores
    if target.free_ball is not None and fair == [target.free_ball]:
        return target.value
    return sum(VALUES[b] for b in fair)


def _respot(table: dict[str, Point], colours: list[str]) -> tuple[tuple[str, Point], ...]:
    placed = tuple(geometry.spot_colours(table, colours))
    table.update(dict(placed))
    return placed


def _after_fair(
    state: FrameState, shot: Shot, target: _Target, potted: list[str], after: dict[str, Point]
) -> tuple[FrameState, Ruling]:
    points = _scores(state, target, potted)
    striker = state.striker
    # Colours that go back: any colour potted while reds remain or straight after the last
    # red (§9.10, R3.after-last-red), and a free ball (§21). In the colour sequence the
    # ball on stays down (§9.11).
    to_spot = [
        b for b in potted
        if is_colour(b) and (state.on in ("red", "colour") or b == target.free_ball)
    ]  # fmt: skip
    respotted = _respot(after, to_spot)
    scores = _add(state.scores, striker, points)
    if points == 0:
        nxt = FrameState(
            balls=make_balls(after), striker=opponent(striker), scores=scores,
            on=visit_on(after), respotted_black=state.respotted_black,
        )  # fmt: skip
    else:
        left = [b for b in after if b != WHITE]
        if state.on == "red":
            on = "colour"
        elif state.on == "colour" or state.on in potted:
            on = visit_on(left)
        else:
            on = state.on
        nxt = FrameState(
            balls=make_balls(after), striker=striker, scores=scores, on=on,
            brk=state.brk + points, respotted_black=state.respotted_black,
        )  # fmt: skip
        if not left:
            nxt = _frame_end(nxt)
    nxt = _with_touching(nxt)
    ruling = Ruling(
        points=points, nominated=target.nominated, respotted=respotted,
        respotted_black=nxt.respotted_black and not state.respotted_black,
        ended=Termination.POTTED_BLACK if nxt.frame_over else None,
    )  # fmt: skip
    return nxt, ruling


def _add(scores: tuple[int, int], player: Player, points: int) -> tuple[int, int]:
    return (scores[0] + points, scores[1]) if player == "A" else (scores[0], scores[1] + points)


def _frame_end(state: FrameState) -> FrameState:
    """§7: the frame is over; level scores bring the re-spotted black."""
    a, b = state.scores
    if a == b:
        return state.with_(
            balls=make_balls({"black": SPOTS["black"]}), on="black", in_hand=True,
            free_ball=False, touching=None, brk=0, misses=0, respotted_black=True,
            pending=Pending(holder=None, options=()),
        )  # fmt: skip
    return state.with_(frame_over=True, winner="A" if a > b else "B", pending=None, free_ball=False)


def _after_foul(
    state: FrameState, played: _Played, calls: tuple[Call, ...]
) -> tuple[FrameState, Ruling]:
    shot, target, after = played.shot, played.target, played.after
    offender = state.striker
    other = opponent(offender)
    points = penalty(calls)
    scores = _add(state.scores, other, points)
    lone_black = state.respotted_black or [b for b in played.before if b != WHITE] == ["black"]
    to_spot = [] if lone_black else [b for b in (*shot.potted, *shot.off_table) if is_colour(b)]
    respotted = _respot(after, to_spot)
    in_hand = WHITE not in after
    on = visit_on(after)

    # With a free ball, or a colour on and none nominated, any ball on counts as hit; so does
    # a touching ball on played away from (§18). For the miss rule a nominated free ball is a
    # ball on (RULES.md §5): the striker who can see it is not snookered.
    undeclared = state.on == "colour" and not target.declared
    legal = target.first | (target.actual_on if target.free_ball or undeclared else frozenset())
    hit_on = target.touching_on or any(b in legal for b in shot.first_contact)
    on_before = legal if target.free_ball else target.actual_on
    close = shot.closest_on_mm is not None and shot.closest_on_mm <= MISS_CLOSE_MM
    nxt = FrameState(
        balls=make_balls(after), striker=other, scores=scores, on=on, in_hand=in_hand,
        respotted_black=state.respotted_black,
    )  # fmt: skip
    miss = (
        # The shot clock's foul is not a miss: no stroke was played.
        all(c.foul is not Foul.SHOT_CLOCK for c in calls)
        and not hit_on
        and not needs_snookers(state)
        and not needs_snookers(nxt)
        and not state.opening
        and not lone_black
        # Asked last: the only question here that needs the geometry.
        and not (close and geometry.snookered(played.before, on_before, from_hand=state.in_hand))
    )
    misses = 0
    if miss and geometry.clear_path(played.before, on_before, from_hand=state.in_hand):
        misses = state.misses + 1
    warning = miss and misses == THREE_MISSES - 1

    ended: Termination | None = None
    if lone_black:
        nxt = _frame_end(nxt)
        ended = Termination.FOUL_ON_BLACK
    elif misses >= THREE_MISSES:
        nxt = nxt.with_(frame_over=True, winner=other)
        ended = Termination.THREE_MISSES
    else:
        next_on = balls_on(on, after)
        free_ball = geometry.snookered(after, next_on, from_hand=in_hand)
        options = ["play"]
        if state.opening:
            options.append("rebreak")
        else:
            options.append("put_back")
        if miss:
            options.append("replace")
        if not in_hand and geometry.angled(after, next_on):
            options.append("from_d")
        restore = state.with_(scores=scores, misses=misses, brk=0) if miss else None
        nxt = _with_touching(
            nxt.with_(
                free_ball=free_ball, misses=misses,
                pending=Pending(other, _ordered(options), offender, restore),
            )
        )  # fmt: skip
    ruling = Ruling(
        foul=True, fouls=calls, penalty=points, miss=miss,
        nominated=target.nominated, respotted=respotted, warning=warning,
        respotted_black=nxt.respotted_black and not state.respotted_black,
        ended=ended if nxt.frame_over else None,
    )  # fmt: skip
    return nxt, ruling


def _ordered(options: list[str]) -> tuple[str, ...]:
    return tuple(o for o in OPTIONS if o in options)


def time_foul(state: FrameState, by: Player) -> tuple[FrameState, Ruling]:
    """The shot clock ran out on `by`: a foul valued at the ball on, nothing moves.

    The value is the ball on's (7 while a colour is on and none was nominated, §23.4.1); it is
    not a miss, since no stroke was played.
    """
    _check_turn(state, by)
    table = state.ball_map()
    target = _target(state, None, (), [b for b in table if b != WHITE])
    after = {b: p for b, p in table.items() if not (b == WHITE and state.in_hand)}
    played = _Played(table, Shot(), target, after)
    return _after_foul(state, played, (Call(Foul.SHOT_CLOCK, target.value),))


# --- choices, the draw, concession -------------------------------------------------------------
def choose(state: FrameState, by: Player, option: str) -> tuple[FrameState, Ruling]:
    """The holder of a pending decision takes one of the options offered."""
    pending = state.pending
    if state.frame_over:
        raise _refuse(state, "frame_over", "the frame is over")
    if pending is None:
        raise _refuse(state, "no_choice_pending", "there is nothing to decide")
    if pending.holder is None:
        raise _refuse(state, "toss_pending", "the draw for the re-spotted black comes first")
    if by != pending.holder:
        raise _refuse(state, "not_your_choice", f"player {pending.holder} decides, not {by}")
    if option not in pending.options:
        offered = ", ".join(pending.options)
        raise _refuse(state, "not_an_option", f"{option!r} is not offered (offered: {offered})")
    base = state.with_(pending=None)
    offender = pending.offender
    if option == "play":
        nxt = base.with_(striker=by, misses=0)
    elif option == "pass":
        nxt = base.with_(striker=opponent(by), misses=0)
    elif option == "put_back":
        assert offender is not None
        nxt = base.with_(striker=offender, free_ball=False, misses=0)
    elif option == "from_d":
        table = {b: p for b, p in state.balls if b != WHITE}
        nxt = base.with_(
            striker=by, balls=make_balls(table), in_hand=True, free_ball=False, misses=0
        )
    elif option == "replace":
        assert pending.restore is not None
        nxt = pending.restore.with_(scores=state.scores, pending=None)
    else:  # rebreak (§8)
        assert offender is not None
        nxt = FrameState(
            balls=make_balls(initial_rack()), striker=offender, scores=state.scores,
            in_hand=True, opening=True, respotted_black=False,
        )  # fmt: skip
    nxt = _with_touching(nxt) if option != "replace" else nxt
    return nxt, Ruling()


def toss(state: FrameState, winner: Player) -> tuple[FrameState, Ruling]:
    """The server's draw for the re-spotted black: the winner holds play/pass (§7)."""
    pending = state.pending
    if pending is None or pending.holder is not None or not state.respotted_black:
        raise _refuse(state, "no_toss_pending", "no draw is due")
    nxt = state.with_(pending=Pending(winner, ("play", "pass")), striker=winner)
    return nxt, Ruling(respotted_black=True)


def concede(state: FrameState, by: Player) -> tuple[FrameState, Ruling]:
    """A player concedes the frame; the other wins it whatever the score."""
    if state.frame_over:
        raise _refuse(state, "frame_over", "the frame is over")
    winner = opponent(by)
    nxt = state.with_(frame_over=True, winner=winner, pending=None, free_ball=False)
    return nxt, Ruling(ended=Termination.CONCEDED)


# --- the start of a frame ------------------------------------------------------------------
def new_frame(breaker: Player, start: tuple[int, int] = (0, 0)) -> FrameState:
    """§3: the balls on their starting positions, the breaker in hand for the opening stroke;
    RULES.md §10: the scores set to the match's handicap start."""
    return FrameState(
        balls=make_balls(initial_rack()), striker=breaker, scores=start, in_hand=True,
        opening=True,
    )  # fmt: skip


__all__ = [
    "Call",
    "Foul",
    "Ruling",
    "balls_on",
    "calls",
    "check_stroke",
    "choose",
    "closest_on",
    "concede",
    "needs_snookers",
    "new_frame",
    "nominations",
    "penalty",
    "placement_refusal",
    "points_remaining",
    "strike",
    "time_foul",
    "toss",
    "visit_on",
]
