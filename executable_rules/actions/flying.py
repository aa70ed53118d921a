"""Flying — CR 702.9 (702.9a–c)

Flying is an evasion ability (702.9a): a creature with flying can't be blocked except by creatures with
flying and/or reach; a creature with flying can block a creature with or without flying (702.9b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/flying.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Flying — CR 702.9a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> drake = state.add_card(OracleCard.simple("Wind Drake", "{2}{U}", "Creature", power="2", toughness="2",
...                        text="Flying"), "you", ZoneKind.BATTLEFIELD)
>>> flying(state, drake)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Flying"
KIND = "keyword ability"
JAPANESE = ('飛行',)
SUBRULES = ('a', 'b')
SUMMARY = "Can't be blocked except by creatures with flying or reach."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def flying(state: GameState, card: int) -> bool:
    """Whether ``card`` has flying now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
