"""First Strike — CR 702.7 (702.7a–d)

First strike is a static ability that modifies the combat damage step (702.7a): with a creature with first
strike or double strike in combat, those creatures assign their damage in a first combat damage step and the
others in a second (702.7b; Combat Damage Step — CR 510.4). A creature given first strike after the first step
still deals its damage in the second; one that loses first strike after dealing damage doesn't deal it again
(702.7c).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/first_strike.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: First Strike — CR 702.7a–c.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> knight = state.add_card(OracleCard.simple("White Knight", "{W}{W}", "Creature", power="2", toughness="2",
...                         text="First strike"), "you", ZoneKind.BATTLEFIELD)
>>> first_strike(state, knight)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "First Strike"
KIND = "keyword ability"
JAPANESE = ('先制攻撃',)
SUBRULES = ('a', 'b', 'c')
SUMMARY = "Deals combat damage in a first combat damage step, before creatures without it."
OUT_OF_REACH: dict[str, str] = {
    "d": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def first_strike(state: GameState, card: int) -> bool:
    """Whether ``card`` has first strike now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
