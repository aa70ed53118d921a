"""Shadow — CR 702.28 (702.28a–c)

Shadow is an evasion ability (702.28a): a creature with shadow can't be blocked by creatures without
shadow, and a creature without shadow can't be blocked by creatures with shadow (702.28b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/shadow.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Shadow — CR 702.28a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> soldier = state.add_card(OracleCard.simple("Soltari Foot Soldier", "{W}", "Creature", power="1", toughness="1",
...                          text="Shadow"), "you", ZoneKind.BATTLEFIELD)
>>> shadow(state, soldier)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Shadow"
KIND = "keyword ability"
JAPANESE = ('シャドー',)
SUBRULES = ('a', 'b')
SUMMARY = "Blocks and is blocked only by creatures with shadow."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def shadow(state: GameState, card: int) -> bool:
    """Whether ``card`` has shadow now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
