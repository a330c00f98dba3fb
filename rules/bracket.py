"""A knockout's state: its matches and where their winners (and, in double elimination, their
losers) go, the results and withdrawals so far, and what follows from them: who plays whom
next, byes and walkovers, the third place and the champion.

Pure, like the rest of `rules/`: entrants are member ids, a bracket is a frozen value, and each
change (`advance`, `withdraw`) returns a new one. The bracket stores only its shape (`Spec`s,
made once from the draw's first-round places, `rules.seeding.Draw.slots`), the decisions made
and who has withdrawn; everything else is worked out from them (`matches`), so the
competition's service stores the same few rows and a replay is a fold over them.

- **Single elimination** (`single`): rounds 1 to k for 2^k places; the winner of each match
  goes on; the final's winner is the champion. An optional **third-place match** between the
  semi-finals' losers (`third_place=True`).
- **Double elimination** (`double`): the same winners' bracket, and a losers' bracket that
  every first loss drops into (an entrant is out at their second loss). Its rounds alternate:
  the losers' own round, then one in which its winners meet those just beaten in the next
  winners' round (dropped in reverse order every other round, so two who met in the winners'
  bracket do not meet again at once). The **grand final** is the winners' bracket's champion
  against the losers'; with `reset=True`, if the losers' champion wins it (each has now lost
  once) a second grand final decides (`Key.RESET`), and is not needed otherwise.
- **Byes** are the draw's empty places: a match with one entrant and an empty place is won by
  that entrant (`How.BYE`), with nobody to drop; a match of two empty places is empty
  (`How.EMPTY`), and its place in the next round is empty in turn.
- **Walkovers and withdrawals**: an organiser's walkover (a no-show, a flagged fixture decided)
  is a decision like a result (`How.WALKOVER`, the loser dropping in double elimination). A
  member who withdraws or is disqualified (`withdraw`) keeps the results they played; every
  match of theirs not yet decided is a walkover to their opponent, and a match between two
  withdrawn entrants sends nobody on (`How.BOTH_OUT`). In double elimination a withdrawn
  loser still drops, and their losers' match is a walkover in turn. Those still in
  (`playing`) are the ones a withdrawal can still change anything for.
  "Both out", an organiser's decision on a fixture, is both players withdrawn at once
  (`both_out`).
- **A result away from the site** is recorded by an organiser (`How.RECORDED`): it decides the
  match like a played one and is never rated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.errors import IllegalRequest
from rules.seeding import Slots


class Format(StrEnum):
    SINGLE = "knockout"
    DOUBLE = "double"


class Side(StrEnum):
    WINNERS = "w"
    LOSERS = "l"
    FINAL = "f"  # the grand final of a double elimination (and its reset)
    THIRD = "t"  # the third-place match


@dataclass(frozen=True, slots=True, order=True)
class Key:
    """A match's place in the bracket: its side, its round there (from 1) and its index in that
    round (from 0, top to bottom)."""

    side: Side
    round: int
    index: int

    def __str__(self) -> str:
        return f"{self.side}{self.round}.{self.index}"

    @classmethod
    def parse(cls, text: str) -> Key:
        """A key from its text (`str(key)`, as a competition's fixture row stores it)."""
        try:
            place, index = text[1:].split(".")
            key = cls(Side(text[:1]), int(place), int(index))
        except ValueError:
            key = None
        if key is None or key.round < 1 or key.index < 0 or str(key) != text:
            raise IllegalRequest("bad_key", f"{text!r} names no match")
        return key


GRAND_FINAL = Key(Side.FINAL, 1, 0)
RESET = Key(Side.FINAL, 2, 0)
THIRD_PLACE = Key(Side.THIRD, 1, 0)


@dataclass(frozen=True, slots=True)
class Seat:
    """A first-round place of the draw (None: a bye)."""

    player: int | None


@dataclass(frozen=True, slots=True)
class WinnerOf:
    key: Key


@dataclass(frozen=True, slots=True)
class LoserOf:
    key: Key


Source = Seat | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class Spec:
    """A match of the bracket's shape: where its two players come from."""

    key: Key
    sources: tuple[Source, Source]


class How(StrEnum):
    """How a match was decided."""

    PLAYED = "played"  # at the table
    RECORDED = "recorded"  # played away from the site, recorded by an organiser; never rated
    WALKOVER = "walkover"  # an organiser's decision, or the opponent withdrew
    BYE = "bye"  # the other place is empty
    EMPTY = "empty"  # both places empty (or one, and the other entrant withdrew)
    BOTH_OUT = "both_out"  # both players withdrawn
    NOT_NEEDED = "not_needed"  # the grand final's reset, when the winners' champion won


# The decisions between two entrants (the others send one on, or nobody, without a meeting).
MEETINGS = (How.PLAYED, How.RECORDED, How.WALKOVER)


@dataclass(frozen=True, slots=True)
class Decision:
    winner: int | None
    how: How


@dataclass(frozen=True, slots=True)
class Bracket:
    format: Format
    specs: tuple[Spec, ...]  # each after the matches it draws on
    seeds: tuple[int, ...]  # the entrants by seed number (seed 1 first)
    rounds: int  # the winners' bracket's rounds (2^rounds places)
    decisions: tuple[tuple[Key, Decision], ...] = ()  # in the order made
    withdrawn: frozenset[int] = frozenset()


class State(StrEnum):
    WAITING = "waiting"  # a player still to be known
    READY = "ready"  # both known: to be played
    DECIDED = "decided"


@dataclass(frozen=True, slots=True)
class Match:
    """A match as the bracket stands: its players (None: not known yet, or nobody) and, once
    decided, how."""

    key: Key
    players: tuple[int | None, int | None]
    state: State
    decision: Decision | None

    @property
    def winner(self) -> int | None:
        return self.decision.winner if self.decision else None

    @property
    def loser(self) -> int | None:
        """Who lost it at the table or by a walkover (None: nobody, or not decided)."""
        if self.decision is None or self.decision.how not in MEETINGS:
            return None
        a, b = self.players
        return b if self.decision.winner == a else a


# --- the shape ------------------------------------------------------------------------------------
def _rounds(slots: Slots) -> int:
    n = len(slots)
    if n < 2 or n & (n - 1):
        raise IllegalRequest("bad_bracket_size", f"{n} places is not a power of two")
    if sum(p is not None for p in slots) < 2:
        raise IllegalRequest("too_few_entrants", "a knockout needs 2 entrants")
    entrants = [p for p in slots if p is not None]
    if len(set(entrants)) != len(entrants):
        raise IllegalRequest("duplicate_entrant", "an entrant is placed twice")
    return n.bit_length() - 1


def _winners(slots: Slots, k: int) -> list[Spec]:
    specs = [
        Spec(Key(Side.WINNERS, 1, i), (Seat(slots[2 * i]), Seat(slots[2 * i + 1])))
        for i in range(len(slots) // 2)
    ]
    for r in range(2, k + 1):
        specs += [
            Spec(
                Key(Side.WINNERS, r, i),
                (
                    WinnerOf(Key(Side.WINNERS, r - 1, 2 * i)),
                    WinnerOf(Key(Side.WINNERS, r - 1, 2 * i + 1)),
                ),
            )
            for i in range(len(slots) >> r)
        ]
    return specs


def _seeds(slots: Slots, seeds: Sequence[int] | None) -> tuple[int, ...]:
    placed = tuple(p for p in slots if p is not None)
    if seeds is None:
        return placed
    if sorted(seeds) != sorted(placed):
        raise IllegalRequest("seeds_not_entrants", "the seeds are the entrants placed")
    return tuple(seeds)


def single(slots: Slots, seeds: Sequence[int] | None = None, third_place: bool = False) -> Bracket:
    """A single-elimination bracket from the draw's first-round places (`seeds`: the entrants
    by seed number, for walkovers to the higher seed; default: as placed)."""
    k = _rounds(slots)
    specs = _winners(slots, k)
    if third_place and k >= 2:
        semis = (Key(Side.WINNERS, k - 1, 0), Key(Side.WINNERS, k - 1, 1))
        specs.append(Spec(THIRD_PLACE, (LoserOf(semis[0]), LoserOf(semis[1]))))
    return Bracket(Format.SINGLE, tuple(specs), _seeds(slots, seeds), k)


def double(slots: Slots, seeds: Sequence[int] | None = None, reset: bool = True) -> Bracket:
    """A double-elimination bracket from the draw's first-round places (the module's
    docstring); `reset`: a second grand final if the losers' champion wins the first."""
    k = _rounds(slots)
    specs = _winners(slots, k)
    w = len(slots)
    # Losers' round 1: the first round's losers in pairs.
    if k >= 2:
        specs += [
            Spec(
                Key(Side.LOSERS, 1, i),
                (LoserOf(Key(Side.WINNERS, 1, 2 * i)), LoserOf(Key(Side.WINNERS, 1, 2 * i + 1))),
            )
            for i in range(w // 4)
        ]
    for j in range(1, k):
        # Losers' round 2j: its winners so far against the losers of winners' round j + 1.
        count = w >> (j + 1)
        specs += [
            Spec(
                Key(Side.LOSERS, 2 * j, i),
                (
                    WinnerOf(Key(Side.LOSERS, 2 * j - 1, i)),
                    LoserOf(Key(Side.WINNERS, j + 1, count - 1 - i if j % 2 else i)),
                ),
            )
            for i in range(count)
        ]
        if j < k - 1:
            # Losers' round 2j + 1: the winners of round 2j in pairs.
            specs += [
                Spec(
                    Key(Side.LOSERS, 2 * j + 1, i),
                    (
                        WinnerOf(Key(Side.LOSERS, 2 * j, 2 * i)),
                        WinnerOf(Key(Side.LOSERS, 2 * j, 2 * i + 1)),
                    ),
                )
                for i in range(count // 2)
            ]
    losers_champion: Source = (
        WinnerOf(Key(Side.LOSERS, 2 * (k - 1), 0)) if k >= 2 else LoserOf(Key(Side.WINNERS, 1, 0))
    )
    specs.append(Spec(GRAND_FINAL, (WinnerOf(Key(Side.WINNERS, k, 0)), losers_champion)))
    if reset:
        specs.append(Spec(RESET, (WinnerOf(GRAND_FINAL), LoserOf(GRAND_FINAL))))
    return Bracket(Format.DOUBLE, tuple(specs), _seeds(slots, seeds), k)


def final_key(bracket: Bracket) -> Key:
    """The match whose winner is the champion (the reset, when played, decides instead)."""
    return GRAND_FINAL if bracket.format is Format.DOUBLE else Key(Side.WINNERS, bracket.rounds, 0)


# --- the bracket as it stands ---------------------------------------------------------------------
def _auto(players: tuple[int | None, int | None], withdrawn: frozenset[int]) -> Decision | None:
    """The decision that follows from empty places and withdrawals alone (None: to play)."""
    present = [p for p in players if p is not None]
    staying = [p for p in present if p not in withdrawn]
    if len(present) == 2 and len(staying) == 2:
        return None
    if len(present) == 2:
        return Decision(staying[0], How.WALKOVER) if staying else Decision(None, How.BOTH_OUT)
    return Decision(staying[0], How.BYE) if staying else Decision(None, How.EMPTY)


def matches(bracket: Bracket) -> dict[Key, Match]:
    """Every match of the bracket as it stands, in the shape's order."""
    decided = dict(bracket.decisions)
    out: dict[Key, Match] = {}
    for spec in bracket.specs:
        known: list[bool] = []
        players: list[int | None] = []
        for source in spec.sources:
            if isinstance(source, Seat):
                known.append(True)
                players.append(source.player)
                continue
            feeder = out[source.key]
            known.append(feeder.state is State.DECIDED)
            if isinstance(source, WinnerOf):
                players.append(feeder.winner)
            else:
                players.append(feeder.loser)
        pair = (players[0], players[1])
        if not all(known):
            out[spec.key] = Match(spec.key, pair, State.WAITING, None)
            continue
        decision = decided.get(spec.key)
        if decision is None and spec.key == RESET:
            final = out[GRAND_FINAL]
            if final.decision is None or final.winner != final.players[0]:
                # Nobody lost the final at the table: the reset has nobody to replay it.
                alone = How.BYE if final.winner is not None else How.EMPTY
                decision = None if final.loser is not None else Decision(final.winner, alone)
            else:
                decision = Decision(final.winner, How.NOT_NEEDED)
        if decision is None:
            decision = _auto(pair, bracket.withdrawn)
        state = State.READY if decision is None else State.DECIDED
        out[spec.key] = Match(spec.key, pair, state, decision)
    return out


def match(bracket: Bracket, key: Key) -> Match:
    try:
        return matches(bracket)[key]
    except KeyError:
        raise IllegalRequest("no_such_match", f"no match {key} in this bracket") from None


def ready(bracket: Bracket) -> tuple[Match, ...]:
    """The matches to be played now (both players known, not decided)."""
    return tuple(m for m in matches(bracket).values() if m.state is State.READY)


def changed(before: Bracket, after: Bracket) -> tuple[Match, ...]:
    """The matches of `after` that stand differently from `before` (a result's live update:
    the match decided, and the ones its players went on or dropped to)."""
    old = matches(before)
    return tuple(m for k, m in matches(after).items() if old.get(k) != m)


def champion(bracket: Bracket) -> int | None:
    """The winner of the competition, once decided (None: not yet, or nobody is left)."""
    every = matches(bracket)
    final = every[final_key(bracket)]
    reset = every.get(RESET)
    if reset is not None:
        return reset.winner if reset.state is State.DECIDED else None
    return final.winner


def finished(bracket: Bracket) -> bool:
    return all(m.state is State.DECIDED for m in matches(bracket).values())


def playing(bracket: Bracket) -> frozenset[int]:
    """The entrants still in: each a player of a match not yet decided (to be played, or
    waiting for the opponent), not withdrawn. Nobody once the bracket is finished."""
    return frozenset(
        p
        for m in matches(bracket).values()
        if m.state is not State.DECIDED
        for p in m.players
        if p is not None and p not in bracket.withdrawn
    )


def placings(bracket: Bracket) -> tuple[int | None, int | None, int | None]:
    """The champion, the runner-up and the third (None: not decided, or nobody): the third is
    the third-place match's winner, or the losers' final's loser in double elimination."""
    every = matches(bracket)
    first = champion(bracket)
    if first is None:
        return None, None, None
    final = every[final_key(bracket)]
    reset = every.get(RESET)
    deciding = reset if reset is not None and reset.decision and reset.loser else final
    third: int | None = None
    if THIRD_PLACE in every:
        third = every[THIRD_PLACE].winner
    elif bracket.format is Format.DOUBLE and bracket.rounds >= 2:
        third = every[Key(Side.LOSERS, 2 * (bracket.rounds - 1), 0)].loser
    return first, deciding.loser, third


def text(bracket: Bracket) -> str:
    """The bracket in its canonical text form, a match a line (`w2.0 1 v 5 decided 1 played`,
    `-` for a place not known or empty), then who has withdrawn: for logs and golden tests."""

    def name(p: int | None) -> str:
        return "-" if p is None else str(p)

    lines = []
    for m in matches(bracket).values():
        line = f"{m.key} {name(m.players[0])} v {name(m.players[1])} {m.state}"
        if m.decision is not None:
            line += f" {name(m.decision.winner)} {m.decision.how}"
        lines.append(line)
    if bracket.withdrawn:
        lines.append("withdrawn " + " ".join(str(m) for m in sorted(bracket.withdrawn)))
    return "\n".join(lines)


# --- changes ------------------------------------------------------------------------------------
def advance(bracket: Bracket, key: Key, winner: int, how: How = How.PLAYED) -> Bracket:
    """The bracket after `winner` won match `key`: at the table (`How.PLAYED`), by a walkover an
    organiser gives (`How.WALKOVER`) or as an organiser recorded a match played away
    (`How.RECORDED`)."""
    if how not in MEETINGS:
        raise IllegalRequest("bad_decision", f"a match is decided {how} only by the bracket")
    m = match(bracket, key)
    if m.state is State.DECIDED:
        raise IllegalRequest("match_decided", f"match {key} is decided already", text(bracket))
    if m.state is State.WAITING:
        raise IllegalRequest("match_waiting", f"match {key} waits for its players", text(bracket))
    if winner not in m.players:
        raise IllegalRequest(
            "not_in_match", f"member {winner} does not play match {key}", text(bracket)
        )
    return replace(bracket, decisions=(*bracket.decisions, (key, Decision(winner, how))))


def withdraw(bracket: Bracket, member: int) -> Bracket:
    """The bracket after `member` withdrew or was disqualified (the module's docstring): what
    is decided now stays decided (byes and walkovers included, written down as decisions so
    that a later withdrawal cannot undo them), the member's match to be played now is a
    walkover to the opponent, and their matches to come will be when their opponents are
    known."""
    if member not in bracket.seeds:
        raise IllegalRequest("not_entered", f"member {member} is not in this bracket")
    if member in bracket.withdrawn:
        raise IllegalRequest("withdrawn_already", f"member {member} has withdrawn already")
    return _out(bracket, frozenset({member}))


def both_out(bracket: Bracket, key: Key) -> Bracket:
    """An organiser's decision on a fixture neither player came to (or both broke the rules):
    both are out of the competition, as if both withdrew at once, and nobody goes on from it."""
    m = match(bracket, key)
    if m.state is not State.READY:
        raise IllegalRequest(f"match_{m.state}", f"match {key} is not to be played now")
    a, b = m.players
    assert a is not None and b is not None
    return _out(bracket, frozenset({a, b}))


def _out(bracket: Bracket, members: frozenset[int]) -> Bracket:
    made = dict(bracket.decisions)
    frozen: list[tuple[Key, Decision]] = []
    for m in matches(bracket).values():
        if m.decision is not None and m.key not in made:
            frozen.append((m.key, m.decision))
        elif m.state is State.READY and members & set(m.players):
            staying = [p for p in m.players if p not in members]
            decision = (
                Decision(staying[0], How.WALKOVER) if staying else Decision(None, How.BOTH_OUT)
            )
            frozen.append((m.key, decision))
    return replace(
        bracket,
        decisions=(*bracket.decisions, *frozen),
        withdrawn=bracket.withdrawn | members,
    )


def higher_seed(bracket: Bracket, key: Key) -> int:
    """Of a match's two players, the higher seed (an organiser's walkover to the higher seed)."""
    m = match(bracket, key)
    a, b = m.players
    if a is None or b is None:
        raise IllegalRequest("match_waiting", f"match {key} waits for its players")
    return min((a, b), key=bracket.seeds.index)


# --- rounds and their frames ----------------------------------------------------------------------
class Stage(StrEnum):
    """What a round is called (the pages word it: "Quarter-final", "Четвертьфинал")."""

    ROUND = "round"  # an earlier round: "Round n" (its `Key.round`)
    QUARTER_FINAL = "quarter_final"
    SEMI_FINAL = "semi_final"
    FINAL = "final"
    THIRD_PLACE = "third_place"
    WINNERS_FINAL = "winners_final"
    LOSERS_ROUND = "losers_round"
    LOSERS_FINAL = "losers_final"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"


def stage(bracket: Bracket, key: Key) -> Stage:
    if key.side is Side.THIRD:
        return Stage.THIRD_PLACE
    if key.side is Side.FINAL:
        return Stage.GRAND_FINAL if key.round == 1 else Stage.GRAND_FINAL_RESET
    if key.side is Side.LOSERS:
        last = 2 * (bracket.rounds - 1)
        return Stage.LOSERS_FINAL if key.round == last else Stage.LOSERS_ROUND
    left = bracket.rounds - key.round
    if bracket.format is Format.DOUBLE:
        return Stage.WINNERS_FINAL if left == 0 else Stage.ROUND
    return (Stage.FINAL, Stage.SEMI_FINAL, Stage.QUARTER_FINAL)[left] if left < 3 else Stage.ROUND


@dataclass(frozen=True, slots=True)
class BestOf:
    """Frames per round: `rounds` for the earlier rounds, and each later stage as said or as
    the stage before it (say best of 5, semi-finals 7, final 9: `BestOf(5, 5, 7, 9)`). The
    third-place match is played as the semi-finals, the winners' and losers' finals too; the
    grand final and its reset as the final."""

    rounds: int
    quarter_finals: int | None = None
    semi_finals: int | None = None
    final: int | None = None

    def __post_init__(self) -> None:
        for n in (self.rounds, self.quarter_finals, self.semi_finals, self.final):
            if n is not None and (n < 1 or n % 2 == 0):
                raise IllegalRequest("bad_best_of", f"best of {n}: an odd number of frames")

    def of(self, stage: Stage) -> int:
        quarter = self.quarter_finals or self.rounds
        semi = self.semi_finals or quarter
        final = self.final or semi
        if stage is Stage.QUARTER_FINAL:
            return quarter
        if stage in (Stage.SEMI_FINAL, Stage.THIRD_PLACE, Stage.WINNERS_FINAL, Stage.LOSERS_FINAL):
            return semi
        if stage in (Stage.FINAL, Stage.GRAND_FINAL, Stage.GRAND_FINAL_RESET):
            return final
        return self.rounds


def best_of(bracket: Bracket, plan: BestOf, key: Key) -> int:
    """The frames of match `key`: best of this many."""
    return plan.of(stage(bracket, key))
