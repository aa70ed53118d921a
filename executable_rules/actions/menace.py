"""Menace — CR 702.111 (702.111a–c)

Menace is an evasion ability (702.111a): a creature with menace can't be blocked except by two or more
creatures (702.111b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/menace.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Menace — CR 702.111a–b.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> brute = state.add_card(OracleCard.simple("Boggart Brute", "{2}{R}", "Creature", power="3", toughness="2",
...                        text="Menace"), "you", ZoneKind.BATTLEFIELD)
>>> menace(state, brute)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Menace"
KIND = "keyword ability"
JAPANESE = ('威迫',)
SUBRULES = ('a', 'b')
SUMMARY = "Can't be blocked except by two or more creatures."
OUT_OF_REACH: dict[str, str] = {
    "c": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def menace(state: GameState, card: int) -> bool:
    """Whether ``card`` has menace now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
