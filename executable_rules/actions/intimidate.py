"""Intimidate — CR 702.13 (702.13a–c)

Intimidate is an evasion ability (702.13a): a creature with intimidate can't be blocked except by artifact
creatures and/or creatures that share a color with it (702.13b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/intimidate.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Intimidate — CR 702.13a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> boar = state.add_card(OracleCard.simple("Bladetusk Boar", "{3}{R}", "Creature", power="3", toughness="2",
...                       text="Intimidate"), "you", ZoneKind.BATTLEFIELD)
>>> intimidate(state, boar)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Intimidate"
KIND = "keyword ability"
JAPANESE = ('威嚇',)
SUBRULES = ('a', 'b')
SUMMARY = "Can't be blocked except by artifact creatures and creatures sharing a color with it."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def intimidate(state: GameState, card: int) -> bool:
    """Whether ``card`` has intimidate now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
