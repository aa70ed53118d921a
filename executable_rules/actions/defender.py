"""Defender — CR 702.3 (702.3a–c)

Defender is a static ability (702.3a): a creature with defender can't attack (702.3b). It can block.

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/defender.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Defender — CR 702.3a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> wall = state.add_card(OracleCard.simple("Wall of Wood", "{G}", "Creature", power="0", toughness="3",
...                       text="Defender"), "you", ZoneKind.BATTLEFIELD)
>>> defender(state, wall)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Defender"
KIND = "keyword ability"
JAPANESE = ('防衛',)
SUBRULES = ('a', 'b')
SUMMARY = "A creature with defender can't attack."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def defender(state: GameState, card: int) -> bool:
    """Whether ``card`` has defender now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
