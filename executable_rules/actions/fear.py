"""Fear — CR 702.36 (702.36a–c)

Fear is an evasion ability (702.36a): a creature with fear can't be blocked except by artifact creatures
and/or black creatures (702.36b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/fear.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Fear — CR 702.36a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> legion = state.add_card(OracleCard.simple("Severed Legion", "{1}{B}{B}", "Creature", power="2", toughness="2",
...                         text="Fear"), "you", ZoneKind.BATTLEFIELD)
>>> fear(state, legion)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Fear"
KIND = "keyword ability"
JAPANESE = ('畏怖',)
SUBRULES = ('a', 'b')
SUMMARY = "Can't be blocked except by artifact creatures and black creatures."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def fear(state: GameState, card: int) -> bool:
    """Whether ``card`` has fear now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
