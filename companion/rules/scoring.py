"""Hand scoring for both games, in one place: Okey (O6) and Okey 101 (H6–H8).

Every result carries its explanation ("why this number"): see :mod:`companion.rules.explain`.
"""

from companion.rules.explain import Explanation
from companion.rules.scoring_101 import PENALTY_REASONS, Okey101HandScore, Penalty, rack_points, score_okey101_hand
from companion.rules.scoring_okey import OkeyHandScore, score_okey_hand, team_of

__all__ = [
    "Explanation",
    "PENALTY_REASONS",
    "Okey101HandScore",
    "OkeyHandScore",
    "Penalty",
    "rack_points",
    "score_okey101_hand",
    "score_okey_hand",
    "team_of",
]
