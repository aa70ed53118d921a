"""Indestructible — CR 702.12 (702.12a–c)

Indestructible is a static ability (702.12a): a permanent with indestructible can't be destroyed; lethal
damage doesn't destroy it, as it ignores the state-based action for lethal damage (702.12b;
State-Based Actions — CR 704.5g), nor does damage from a deathtouch source (704.5h).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/indestructible.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Indestructible — CR 702.12a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> myr = state.add_card(OracleCard.simple("Darksteel Myr", "{3}", "Artifact Creature", power="0", toughness="1",
...                      text="Indestructible"), "you", ZoneKind.BATTLEFIELD)
>>> indestructible(state, myr)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Indestructible"
KIND = "keyword ability"
JAPANESE = ('破壊不能',)
SUBRULES = ('a', 'b')
SUMMARY = "Can't be destroyed: lethal damage and deathtouch don't destroy it."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def indestructible(state: GameState, card: int) -> bool:
    """Whether ``card`` has indestructible now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
