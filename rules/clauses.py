"""The catalogue of rule clauses that scenarios cite and `docs/rules-coverage.md` maps.

Seed clauses are written `§N`, `§N.k` or `§N.k.m` (the numbering of
`shared/seed/000_f57af7a68c6ece4d.txt`); clauses that RULES.md settles beyond the seed are
written `R<section>.<name>`. A scenario's `clause` field cites one or more of these, separated
by commas. Clauses an online table enforces by construction say how, instead of naming
scenarios (RULES.md §9).
"""

from __future__ import annotations

from typing import Final

# id -> what the clause says (one line)
CLAUSES: Final[dict[str, str]] = {
    "§1": "equipment as in section 3",
    "§2": "fifteen reds, six colours, the cue ball; values 1 to 7",
    "§3": "the starting position; the cue ball from hand in the D",
    "§4": "the baulk line and baulk",
    "§5": "the D; the cue ball may be placed on or inside it",
    "§6": "object: score more points than the opponent",
    "§7": "scoring; the last black ends the frame at the first score or foul; re-spotted black",
    "§8": "the opening stroke: first hit a red; after a foul, play on or re-break",
    "§9.1": "a fair pot lets the striker continue",
    "§9.2": "the cue ball must first hit a ball on",
    "§9.3": "red is on at the first stroke of each visit while reds remain",
    "§9.4": "every red potted after first hitting a red scores",
    "§9.5": "when red is on, the cue ball must first hit a red",
    "§9.6": "after a red a colour is on; the striker nominates it and must hit it first",
    "§9.7": "potting a colour when red is on is a foul",
    "§9.8": "potting another ball when a colour is on is a foul",
    "§9.9": "jump shots are fouls",
    "§9.10": "colours are re-spotted while reds remain",
    "§9.11": "after the last red the colours are on in ascending order and stay down",
    "§10": "reds potted on a foul stay down; colours are re-spotted",
    "§11": "balls forced off the table: reds stay off, colours are re-spotted, a foul",
    "§12": "spotting: own spot, highest free spot, as near as possible towards the top cushion",
    "§13": "cue ball off the table: the opponent plays from hand in the D",
    "§14": "touching a ball by hand is a foul",
    "§15": "snookered: no ball on can be hit directly; from hand, from every point of the D",
    "§16": "angled: the jaw blocks every ball on; after a foul, play or from the D",
    "§17": "occupied spot",
    "§18": "touching ball: play away, hitting it is a push",
    "§19": "push stroke",
    "§20": "miss: the opponent plays on or has the cue ball put back and the stroke replayed",
    "§21": "free ball",
    "§22.1": "penalty to the opponent, who may have the offender play again",
    "§22.2": "several fouls in one stroke: the highest penalty",
    "§22.3": "mis-spotted balls stay, unspotted balls are spotted",
    "§23.1.1": "striking while balls move",
    "§23.1.2": "striking the cue ball more than once",
    "§23.1.3": "striking with both feet off the floor",
    "§23.1.4": "playing out of turn",
    "§23.1.5": "playing improperly from hand",
    "§23.1.6": "the cue ball hits no ball: value of the ball on",
    "§23.1.7": "in-off: value of the ball on",
    "§23.1.8": "snookered behind the free ball: value of the ball on",
    "§23.1.9": "a jump shot",
    "§23.2.1": "potting a ball not on",
    "§23.2.2": "first contact with a ball not on",
    "§23.2.3": "push stroke",
    "§23.2.4": "striking with a ball not correctly spotted",
    "§23.2.5": "touching a ball",
    "§23.2.6": "forcing a ball off the table",
    "§23.3": "the cue ball first hits two balls at once",
    "§23.4.1": "a foul after a red is potted, before a colour is nominated: 7",
    "§23.4.2": "using a ball out of play: 7",
    "§23.4.3": "playing at a red when a colour is on: 7",
    "§23.4.4": "using a ball other than the white as the cue ball: 7",
    "R2.first-break-draw": "the first break of a match is decided by a recorded draw",
    "R2.alternate-breaks": "players alternate the opening stroke of each frame; best of N",
    "R2.rebreak-keeps-score": "after a re-break the score keeps the penalty",
    "R2.toss": "the re-spotted black's toss: the winner chooses play or pass, from hand",
    "R2.concede": "a player may concede the frame",
    "R3.no-nomination-fair": "no nomination and a fair stroke: the colour first hit is nominated",
    "R3.no-nomination-foul": "no nomination and a foul while a colour is on: penalty 7",
    "R3.after-last-red": "after the last red, any colour (nominated), which is re-spotted",
    "R3.visit-ends": "a stroke that pots nothing fairly ends the visit",
    "R3.foul-scores-nothing": "the striker scores nothing on a foul stroke",
    "R4.minimum-four": "every penalty is at least 4",
    "R4.choice-play": "the non-offender may play from where the balls lie",
    "R4.choice-put-back": "the non-offender may put the offender back in",
    "R4.choice-replace": "after a miss, every ball is replaced and the offender plays again",
    "R4.choice-from-d": "when angled after a foul, the non-offender may play from the D",
    "R4.choice-rebreak": "after a foul on the opening stroke, the balls are set up again",
    "R5.free-ball-value": "the free ball counts as the ball on and scores its value",
    "R5.free-ball-both": "free ball and ball on potted: only the ball on scores",
    "R5.free-ball-first": "the cue ball must first hit the free ball (or it with the ball on)",
    "R5.free-ball-only-play": "only the non-offender who elects play gets the free ball",
    "R6.miss": "a foul that fails to hit a ball on first is a miss",
    "R6.miss-snookered": "no miss when snookered and the cue ball passed within 52.5 mm",
    "R6.miss-snookers-needed": "no miss when either player needs snookers, before or after",
    "R6.miss-opening": "no miss on the opening stroke",
    "R6.miss-black": "no miss when only the black was left",
    "R6.three-miss": "warned after the second miss with a clear path; the third loses the frame",
    "R7.clear-path": "clear path: a straight line to some part of a ball on",
    "R7.snookered": "snookered: no ball on can be hit at both extreme edges",
    "R7.snookered-from-hand": "from hand, snookered only if so from every point of the D",
    "R7.angled": "angled: no clear path because of the jaws",
    "R7.touching": "touching ball: within 0.5 mm of a ball that is or could be on",
    "R8.spot-own": "a colour goes back on its own spot",
    "R8.spot-highest-free": "own spot occupied: the highest-value free spot",
    "R8.spot-near": "all spots occupied: as near as possible towards the top cushion",
    "R8.spot-near-below": "no room above: as near as possible below the spot",
    "R8.spot-order": "several colours: the highest value is spotted first",
}

# Clauses that cannot be broken on an online table, and how the server enforces them
# (RULES.md §9). They have no scenarios.
BY_CONSTRUCTION: Final[dict[str, str]] = {
    "§1": "the table is defined once in rules/table.py and used by physics and referee",
    "§4": "a geometric constant (rules/table.py); the D that it bounds is tested by §5",
    "§6": "the winner is the player with more points (tested with §7)",
    "§9.9": "the 2-D physics cannot jump; the referee would settle one reported as a foul",
    "§14": "no hand touches the balls; the server places every ball",
    "§22.3": "the server spots every ball itself, so none is ever mis-spotted",
    "§23.1.1": "a stroke while another is being settled or a choice is pending is refused",
    "§23.1.2": "a stroke is one strike of the cue ball by construction",
    "§23.1.3": "there are no feet",
    "§23.1.4": "a stroke out of turn is refused with an error (tests/test_referee.py)",
    "§23.1.5": "a cue ball placed outside the D is refused with an error (tests/test_referee.py)",
    "§23.1.9": "the 2-D physics cannot jump (see §9.9)",
    "§23.2.4": "the server spots every ball itself (see §22.3)",
    "§23.2.5": "no hand touches the balls (see §14)",
    "§23.4.2": "only balls on the table can be struck or nominated; others are refused",
    "§23.4.4": "the cue ball is always the white",
}

# Clauses proved by ordinary tests rather than referee scenarios (they are about the match
# around the frames, which scenarios do not describe).
BY_TESTS: Final[dict[str, str]] = {
    "R2.first-break-draw": "tests/rules/test_match.py::test_first_break_goes_to_the_draw",
    "R2.alternate-breaks": "tests/rules/test_match.py::test_breaks_alternate_and_best_of_ends",
}
