"""Exalted — CR 702.83 (702.83a–b)

Exalted is a triggered ability: "Whenever a creature you control attacks alone, that creature gets +1/+1
until end of turn" (702.83a); each instance triggers. A creature attacks alone if it is the only creature declared
as an attacker (702.83b; Combat Phase — CR 506.5). The model resolves the exalted triggers as they trigger: no
player acts in between (responding to one is out of its reach).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/exalted.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Exalted — CR 702.83a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> squire = state.add_card(OracleCard.simple("Akrasan Squire", "{W}", "Creature", power="1", toughness="1",
...                         text="Exalted"), "you", ZoneKind.BATTLEFIELD)
>>> exalted(state, squire)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Exalted"
KIND = "keyword ability"
JAPANESE = ('賛美',)
SUBRULES = ('a', 'b')
SUMMARY = "A creature attacking alone gets +1/+1 until end of turn for each instance."
OUT_OF_REACH: dict[str, str] = {}
"""Subrules the model doesn't run, each with the reason."""


def exalted(state: GameState, card: int) -> bool:
    """Whether ``card`` has exalted now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
