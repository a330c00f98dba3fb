"""The computer opponent (docs/opponent.md): a pure player at three strengths.

decision = decide(match, "B", LEVELS["pro"], random.Random(seed))
match, outcome = rules.match.apply(match, "B", decision.command)
"""

from rules.opponent.model import CLUB, LEVELS, NOVICE, PRO, Level
from rules.opponent.player import Decision, decide

__all__ = ["CLUB", "LEVELS", "NOVICE", "PRO", "Decision", "Level", "decide"]
