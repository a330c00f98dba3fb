"""A player made of the rules core, to write golden matches for the statistics' tests.

It tries the pots a player would (each ball on into each pocket it can see at a fair cut, a
few speeds and spins), plays the one that leaves the most pots for the next stroke, and plays
safe (a soft fair contact) when nothing goes in. Physics and referee are deterministic, so the
commands it finds are a golden match: tests/rules/golden/*.json hold them, and the tests fold
them through `rules.match.apply` again.

    .venv/bin/python -m tests.rules.stats_bot   # rewrites tests/rules/golden/stats_*.json

Slow (seconds a stroke); never run by the test suite.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules import commands as cmd
from rules import match as m
from rules import referee, stats
from rules.commands import Choose, Claim, Command, Concede, ShotClockExpired, Stroke, Toss
from rules.errors import IllegalRequest
from rules.match import Match
from rules.state import FrameState, Player, make_balls, opponent
from rules.table import BALL_DIAMETER, D_CENTRE, D_RADIUS, POCKETS, WHITE, Point

GOLDEN = Path(__file__).resolve().parent / "golden"
SPEEDS = (1.0, 1.6, 2.4, 3.4)
SPINS = ((0.0, 0.0), (0.0, -0.35), (0.0, 0.3))


def _d_points() -> list[Point]:
    cx, cy = D_CENTRE
    out = []
    for r in (0.3, 0.6, 0.9):
        for k in range(7):
            a = math.pi + math.pi * k / 6
            out.append((cx + D_RADIUS * r * math.cos(a), cy + D_RADIUS * r * math.sin(a)))
    return out


def _pots(frame: Any, cue: Point, limit_cut: float = 62.0) -> Iterator[tuple[float, str, float]]:
    """(cut in degrees, ball, aim angle) for each ball on and pocket, straightest first."""
    balls = frame.ball_map()
    on = referee.balls_on(frame.on, [b for b in balls if b != WHITE])
    found = []
    for ball in on:
        p = balls[ball]
        for pocket in POCKETS:
            aim_at = (
                pocket.mouth[0] + pocket.inward[0] * 15,
                pocket.mouth[1] + pocket.inward[1] * 15,
            )
            ux, uy = aim_at[0] - p[0], aim_at[1] - p[1]
            n = math.hypot(ux, uy)
            ux, uy = ux / n, uy / n
            ghost = (p[0] - BALL_DIAMETER * ux, p[1] - BALL_DIAMETER * uy)
            gx, gy = ghost[0] - cue[0], ghost[1] - cue[1]
            g = math.hypot(gx, gy)
            if g < 1:
                continue
            cut = math.degrees(math.acos(max(-1.0, min(1.0, (gx * ux + gy * uy) / g))))
            if cut < limit_cut:
                found.append((cut + n / 200, ball, math.atan2(gy, gx)))
    found.sort()
    yield from found


def _try(match: Match, stroke: Stroke) -> tuple[Match, Any] | None:
    try:
        return m.apply(match, match.frame.striker, stroke)
    except IllegalRequest:
        return None


def _potting(match: Match, budget: int) -> list[tuple[Stroke, Match]]:
    """Strokes that pot a ball on fairly (cue ball on the table), at most `budget` tried."""
    frame = match.frame
    cues: list[Point | None] = [None]
    if frame.in_hand:
        cues = list(_d_points())
    out: list[tuple[Stroke, Match]] = []
    tried = 0
    for cue in cues:
        start = cue if cue is not None else frame.ball_map()[WHITE]
        for _, ball, angle in list(_pots(frame, start))[:8]:
            nominated = ball if frame.on == "colour" else None
            for speed in SPEEDS:
                for side, height in SPINS:
                    for dev in (0.0, 0.0006, -0.0006):
                        tried += 1
                        if tried > budget:
                            return out
                        stroke = Stroke(angle + dev, speed, side, height, nominated, cue)
                        done = _try(match, stroke)
                        if done is None:
                            continue
                        after, outcome = done
                        if (
                            not outcome.ruling.foul
                            and outcome.ruling.points > 0
                            and outcome.shot is not None
                            and WHITE not in outcome.shot.potted
                        ):
                            out.append((stroke, after))
                            break
    return out


def _safety(match: Match) -> Stroke:
    """A soft stroke that first hits a ball on without a foul, else any legal stroke."""
    frame = match.frame
    cue: Point | None = None
    if frame.in_hand:
        cue = _d_points()[3]
    start = cue if cue is not None else frame.ball_map()[WHITE]
    balls = frame.ball_map()
    on = sorted(referee.balls_on(frame.on, [b for b in balls if b != WHITE]))
    if frame.free_ball or not on:
        on = [b for b in balls if b != WHITE]
    for ball in sorted(on, key=lambda b: math.dist(balls[b], start)):
        angle = math.atan2(balls[ball][1] - start[1], balls[ball][0] - start[0])
        nominated = ball if frame.on == "colour" or frame.free_ball else None
        for speed in (1.2, 2.0, 0.8, 3.0):
            stroke = Stroke(angle, speed, 0.0, 0.0, nominated, cue)
            done = _try(match, stroke)
            if done is not None and not done[1].ruling.foul:
                return stroke
    return Stroke(0.0, 1.0, 0.0, 0.0, None, cue)


def _next_pots(match: Match) -> int:
    if match.over or match.frame.pending is not None or match.frame.frame_over:
        return 0
    return len(_potting(match, budget=90))


def choose_stroke(match: Match) -> Stroke:
    options = _potting(match, budget=400)
    if not options:
        return _safety(match)
    ranked = sorted(options[:6], key=lambda o: -_next_pots(o[1]))
    return ranked[0][0]


def play_frame(
    match: Match, log: list[tuple[Player | None, Command]], max_strokes: int = 200
) -> Match:
    """Play until the frame (or the match) is over."""
    number = match.frame_number
    strokes = 0
    while not match.over and match.frame_number == number:
        frame = match.frame
        seat: Player | None
        command: Command
        if m.toss_due(match):
            seat, command = None, Toss("A")
        elif frame.pending is not None and frame.pending.holder is not None:
            seat, command = frame.pending.holder, Choose("play")
        elif strokes >= max_strokes:
            seat, command = frame.striker, Concede("frame")
        else:
            seat, command = frame.striker, choose_stroke(match)
            strokes += 1
        match, outcome = m.apply(match, seat, command)
        log.append((seat, command))
        print(
            f"frame {number} {cmd.kind(command)} {seat} points={outcome.ruling.points}"
            f" foul={outcome.ruling.foul} brk={outcome.settled.brk}"
            f" scores={outcome.settled.scores}",
            flush=True,
        )
    return match


def write(
    name: str,
    best_of: int,
    draw: Player,
    log: list[tuple[Player | None, Command]],
    start: FrameState | None = None,
) -> None:
    """The golden file: the start, the commands, and what the referee made of each (points,
    penalty, the break after it), so that a change of physics or rules shows as such."""
    GOLDEN.mkdir(exist_ok=True)
    match = m.new_match(best_of, draw)
    data: dict[str, Any] = {"best_of": best_of, "draw": draw}
    if start is not None:
        data["start"] = start.to_json()
        match = replace(match, frame=start)
    data["commands"] = [[seat, cmd.kind(c), cmd.to_json(c)] for seat, c in log]
    outcomes = []
    for seat, command in log:
        match, outcome = m.apply(match, seat, command)
        outcomes.append([outcome.ruling.points, outcome.ruling.penalty, outcome.settled.brk])
    data["outcomes"] = outcomes
    (GOLDEN / f"{name}.json").write_text(json.dumps(data) + "\n")


def apply_logged(
    match: Match, log: list[tuple[Player | None, Command]], seat: Player | None, command: Command
) -> Match:
    match, outcome = m.apply(match, seat, command)
    log.append((seat, command))
    r = outcome.ruling
    print(
        f"{cmd.kind(command)} {seat} points={r.points} foul={r.foul} penalty={r.penalty}"
        f" miss={r.miss} calls={outcome.calls} brk={outcome.settled.brk}"
        f" scores={outcome.settled.scores}",
        flush=True,
    )
    return match


def aimed_break(cue: Point, target: Point, speed: float) -> Stroke:
    return Stroke(math.atan2(target[1] - cue[1], target[0] - cue[0]), speed, cue_ball=cue)


def century_match() -> None:
    """Best of 3 from the rack, the bot at both ends. With the physics of issue 11: A's
    break-off fouls and B clears with 120; B's break-off fouls, A makes 50, B 7 and 69."""
    log: list[tuple[Player | None, Command]] = []
    match = m.new_match(3, "A")
    match = apply_logged(match, log, "A", aimed_break((200.0, -1110.0), (120.0, 1127.65), 8.0))
    match = play_frame(match, log)
    match = apply_logged(match, log, "B", aimed_break((200.0, -1110.0), (-120.0, 1127.65), 8.0))
    match = play_frame(match, log)
    while not match.over:
        match = play_frame(match, log)
    write("stats_century", 3, "A", log)


def black_ball() -> None:
    """Pink and black left, A 13 behind: A pots both, the black is re-spotted, B wins the draw
    and passes, A's time runs out on the re-spotted black."""
    from rules.table import SPOTS

    pink = SPOTS["pink"]
    mouth = next(p.mouth for p in POCKETS if p.name == "top_right")
    along = math.atan2(mouth[1] - pink[1], mouth[0] - pink[0])
    white = (pink[0] - 400 * math.cos(along), pink[1] - 400 * math.sin(along))
    start = FrameState(
        balls=make_balls({"white": white, "pink": pink, "black": SPOTS["black"]}),
        striker="A", scores=(50, 63), on="pink",
    )  # fmt: skip
    match = replace(m.new_match(1, "A"), frame=start)
    log: list[tuple[Player | None, Command]] = []
    for _ in range(2):
        match = apply_logged(match, log, "A", choose_stroke(match))
    match = apply_logged(match, log, None, Toss("B"))
    match = apply_logged(match, log, "B", Choose("pass"))
    match = apply_logged(match, log, "A", ShotClockExpired())
    assert match.over
    write("stats_black_ball", 1, "A", log, start)


def missed_pot(match: Match) -> Stroke:
    """A fair stroke that sends a ball on at a pocket and misses it."""
    frame = match.frame
    cue = frame.ball_map()[WHITE]
    for _, ball, angle in _pots(frame, cue):
        nominated = ball if frame.on == "colour" else None
        for dev in (0.012, -0.012, 0.02, -0.02, 0.03, -0.03):
            for speed in (1.6, 2.4):
                stroke = Stroke(angle + dev, speed, nominated=nominated)
                done = _try(match, stroke)
                if done is None or done[1].shot is None:
                    continue
                ruling, shot = done[1].ruling, done[1].shot.to_json()
                if (
                    not ruling.foul
                    and ruling.points == 0
                    and stats.aimed_at_pocket(shot["first_contact"], shot["trajectories"])
                ):
                    return stroke
    raise AssertionError("no missed pot found")


def potting_break(match: Match) -> Stroke:
    """An opening stroke that pots a red fairly."""
    from tests.browser.strokes import around

    for cue in ((100.0, -1150.0), (150.0, -1150.0), (-100.0, -1150.0)):
        for target in ((120.0, 1127.65), (-120.0, 1127.65), (60.0, 1110.0)):
            aim = math.atan2(target[1] - cue[1], target[0] - cue[0])
            for angle, _ in around(aim, 0.0, steps=15, step=0.001):
                for speed in (6.0, 7.0, 8.0, 9.0, 10.0):
                    stroke = Stroke(angle, speed, cue_ball=cue)
                    done = _try(match, stroke)
                    if done is not None and not done[1].ruling.foul and done[1].ruling.points:
                        return stroke
    raise AssertionError("no break-off pots a red")


def misses_and_concessions() -> None:
    """Misses put back by `replace`, a missed pot, a concession in the middle of a break, the
    shot clock, a claim."""
    from tests.browser import strokes

    log: list[tuple[Player | None, Command]] = []
    match = m.new_match(3, "A")
    found = strokes.break_off(match.frame, (150.0, -1150.0), 8.0)
    cue = (150.0, -1150.0)
    match = apply_logged(match, log, "A", Stroke(found.angle, found.speed, cue_ball=cue))
    for option in ("replace", "play"):
        found = strokes.hit_nothing(match.frame, 0.3)
        match = apply_logged(match, log, "B", Stroke(found.angle, found.speed))
        match = apply_logged(match, log, "A", Choose(option))
    for _ in range(3):
        match = apply_logged(match, log, "A", choose_stroke(match))
    match = apply_logged(match, log, "A", missed_pot(match))
    match = apply_logged(match, log, "B", choose_stroke(match))
    match = apply_logged(match, log, "A", Concede("frame"))
    match = apply_logged(match, log, "B", potting_break(match))
    striker = match.frame.striker
    match = apply_logged(match, log, striker, ShotClockExpired())
    match = apply_logged(match, log, opponent(striker), Choose("put_back"))
    match = apply_logged(match, log, opponent(striker), Claim("match"))
    assert match.over
    write("stats_misses", 3, "A", log)


def main() -> None:
    import sys

    wanted = sys.argv[1:] or ["black_ball", "misses_and_concessions", "century_match"]
    for name in wanted:
        print("---", name, flush=True)
        globals()[name]()


if __name__ == "__main__":
    main()
