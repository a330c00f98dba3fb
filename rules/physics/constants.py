"""Physical figures of the shot simulation, with their sources (see docs/physics.md).

Units inside the physics: millimetres, seconds, radians. Speeds are mm/s, accelerations
mm/s², angular velocities rad/s. Only the cue strike takes metres per second (`Strike.speed`).
"""

from __future__ import annotations

import math
from typing import Final

from rules.table import BALL_RADIUS

# --- ball ----------------------------------------------------------------------------------
R: Final = BALL_RADIUS  # 26.25 mm, WPBSA 52.5 mm ball (RULES.md §1)
GRAVITY: Final = 9810.0  # mm/s²

# --- cloth (ball-table) --------------------------------------------------------------------
# Sliding friction ball/cloth. Alciatore ("Dr. Dave", TP A.4 / measured 0.2), Han 2005 (0.2),
# Mathavan et al. 2010 measured 0.212 on a snooker table.
MU_SLIDE: Final = 0.2
# Rolling resistance. Alciatore gives 0.005-0.015 for cloth; pooltool's default is 0.01.
MU_ROLL: Final = 0.01
# Spinning (about the vertical axis) friction, as a coefficient in the Marlow / pooltool form
# dωz/dt = -5 μsp g / (2R). pooltool scales it with the radius (μsp ≈ 0.444·R in metres), which
# for R = 26.25 mm gives 0.0117: a spin decay of about 10.9 rad/s².
MU_SPIN: Final = 0.0117

# --- ball-ball -----------------------------------------------------------------------------
# Coefficient of restitution between phenolic balls: Alciatore TP A.5 / Marlow, 0.92-0.98.
E_BALL: Final = 0.95
# Ball-ball sliding friction falls with the slip speed of the contact points (Alciatore, TP A.14,
# the fit to Marlow's measurements that pooltool uses): μ = a + b·exp(-c·v), v in m/s.
MU_BALL_A: Final = 0.00995
MU_BALL_B: Final = 0.108
MU_BALL_C: Final = 1.088  # per m/s

# --- cushions and jaws ----------------------------------------------------------------------
# Height of the cushion nose (contact point) above the bed: 7R/5 (= 0.7·2R = 36.75 mm), the
# snooker figure Mathavan et al. 2010 use; the contact normal is tilted down by θ with
# sin θ = (h - R)/R = 2/5.
CUSHION_HEIGHT: Final = 7.0 * R / 5.0
SIN_THETA: Final = (CUSHION_HEIGHT - R) / R
COS_THETA: Final = math.sqrt(1.0 - SIN_THETA * SIN_THETA)
# Energetic coefficient of restitution of the cushion in Mathavan et al. 2010's model (their
# fit to snooker measurements, 0.98), which also loses energy to both contacts' friction.
E_CUSHION: Final = 0.98
# Ball-cushion sliding friction: Mathavan et al. 2010, μw = 0.14. (The cloth's μs acts at the
# bed during the impact.)
MU_CUSHION: Final = 0.14
# Normal speed up to which the rigid-cushion model holds (Mathavan et al. 2010 tested it to
# about 2.5 m/s); beyond it the restitution falls (rules/physics/cushion.py).
HARD_CUSHION_SPEED: Final = 2500.0  # mm/s

# --- pockets ------------------------------------------------------------------------------
# A ball whose centre is over a pocket's hole (beyond its fall line) drops unless it is back
# over the bed within the time a free fall takes to go down a ball's radius: by then a jaw or
# the pocket's back meets it above its centre and holds it in (docs/physics.md, "Pockets").
DROP_HEIGHT: Final = R
DROP_TIME: Final = math.sqrt(2.0 * DROP_HEIGHT / GRAVITY)  # s, 0.073

# --- derived -------------------------------------------------------------------------------
SLIDE_DECEL: Final = MU_SLIDE * GRAVITY  # mm/s²
ROLL_DECEL: Final = MU_ROLL * GRAVITY  # mm/s²
SPIN_DECEL: Final = 5.0 * MU_SPIN * GRAVITY / (2.0 * R)  # rad/s²

# --- the cue strike --------------------------------------------------------------------------
MAX_SPEED: Final = 10.0  # m/s, hardest break cue-ball speed accepted
MISCUE_LIMIT: Final = 0.5  # tip offset |(side, height)| as a fraction of R (Alciatore TP A.30)
# Squirt (Alciatore TP A.31): side deflects the cue ball from the cue's line by
# atan(5/2·s·√(1−s²) / (1 + m/me + 5/2·(1−s²))), s the side offset over R. m/me is the ball's
# mass over the cue tip's effective end mass: pooltool's figures, a 0.140 kg snooker ball and
# an end mass of 0.170097/30 kg, give 24.69 (1.5° at 0.3 R, 2.2° at 0.5 R).
SQUIRT_MASS_RATIO: Final = 0.140 / (0.170097 / 30.0)

# --- simulation bounds and tolerances ----------------------------------------------------------
DEFAULT_MAX_EVENTS: Final = 20_000
DEFAULT_MAX_TIME: Final = 600.0  # s of simulated time
# Two first contacts of the cue ball this close in time count as "at once" (§23.3).
FIRST_CONTACT_TOLERANCE: Final = 1e-6  # s
