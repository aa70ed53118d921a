"""Haste — CR 702.10 (702.10a–d)

Haste is a static ability (702.10a): a creature with haste can attack even if it hasn't been under its
controller's control continuously since their most recent turn began (702.10b; Creatures — CR 302.6).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/haste.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Haste — CR 702.10a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> goblin = state.add_card(OracleCard.simple("Raging Goblin", "{R}", "Creature", power="1", toughness="1",
...                         text="Haste"), "you", ZoneKind.BATTLEFIELD)
>>> haste(state, goblin)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Haste"
KIND = "keyword ability"
JAPANESE = ('速攻',)
SUBRULES = ('a', 'b')
SUMMARY = "Can attack the turn it comes under its controller's control."
OUT_OF_REACH: dict[str, str] = {
    "c": "the model doesn't yet refuse {T} abilities of creatures that came under their controller's control this turn, so haste's exception to it isn't shown",
    "d": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def haste(state: GameState, card: int) -> bool:
    """Whether ``card`` has haste now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
