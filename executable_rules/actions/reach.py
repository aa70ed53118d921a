"""Reach — CR 702.17 (702.17a–c)

Reach is a static ability (702.17a): a creature with flying can't be blocked except by creatures with
flying and/or reach, so a creature with reach can block it (702.17b; Flying — CR 702.9b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/reach.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Reach — CR 702.17a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> spider = state.add_card(OracleCard.simple("Giant Spider", "{3}{G}", "Creature", power="2", toughness="4",
...                         text="Reach"), "you", ZoneKind.BATTLEFIELD)
>>> reach(state, spider)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Reach"
KIND = "keyword ability"
JAPANESE = ('到達',)
SUBRULES = ('a', 'b')
SUMMARY = "Can block creatures with flying."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def reach(state: GameState, card: int) -> bool:
    """Whether ``card`` has reach now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
