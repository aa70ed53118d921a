"""Wither — CR 702.80 (702.80a–d)

Wither is a static ability: damage a source with wither deals to a creature puts that many -1/-1 counters
on it instead of being marked (702.80a).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/wither.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Wither — CR 702.80a.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> gang = state.add_card(OracleCard.simple("Boggart Ram-Gang", "{R/G}{R/G}{R/G}", "Creature", power="3",
...                       toughness="3", text="Haste, wither"), "you", ZoneKind.BATTLEFIELD)
>>> wither(state, gang)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Wither"
KIND = "keyword ability"
JAPANESE = ('萎縮',)
SUBRULES = ('a',)
SUMMARY = "Deals damage to creatures as -1/-1 counters."
OUT_OF_REACH: dict[str, str] = {
    "b": "damage dealt by an object that has left the zone it was in (last known information) isn't modelled: combat damage comes from creatures on the battlefield",
    "c": "no card here deals damage with this ability from a zone other than the battlefield",
    "d": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def wither(state: GameState, card: int) -> bool:
    """Whether ``card`` has wither now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
