"""Vigilance — CR 702.20 (702.20a–c)

Vigilance is a static ability that modifies the declare attackers step (702.20a): attacking doesn't cause a
creature with vigilance to tap (702.20b; Declare Attackers Step — CR 508.1f).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/vigilance.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Vigilance — CR 702.20a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> angel = state.add_card(OracleCard.simple("Serra Angel", "{3}{W}{W}", "Creature", power="4", toughness="4",
...                        text="Flying, vigilance"), "you", ZoneKind.BATTLEFIELD)
>>> vigilance(state, angel)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Vigilance"
KIND = "keyword ability"
JAPANESE = ('警戒',)
SUBRULES = ('a', 'b')
SUMMARY = "Attacking doesn't tap it."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def vigilance(state: GameState, card: int) -> bool:
    """Whether ``card`` has vigilance now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
