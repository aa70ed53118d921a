"""Lifelink — CR 702.15 (702.15a–f)

Lifelink is a static ability (702.15a): damage dealt by a source with lifelink makes its controller (or
owner) gain that much life, besides the damage's other results (702.15b). Several lifelink sources dealing
damage at once cause separate life gain events, so "whenever you gain life" triggers once for each (702.15e).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/lifelink.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Lifelink — CR 702.15a–e.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> cat = state.add_card(OracleCard.simple("Ajani's Sunstriker", "{W}{W}", "Creature", power="2", toughness="2",
...                      text="Lifelink"), "you", ZoneKind.BATTLEFIELD)
>>> lifelink(state, cat)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Lifelink"
KIND = "keyword ability"
JAPANESE = ('絆魂',)
SUBRULES = ('a', 'b', 'e')
SUMMARY = "Damage it deals also makes its controller gain that much life, one life gain event per source."
OUT_OF_REACH: dict[str, str] = {
    "c": "damage dealt by an object that has left the zone it was in (last known information) isn't modelled: combat damage comes from creatures on the battlefield",
    "d": "no card here deals damage with this ability from a zone other than the battlefield",
    "f": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def lifelink(state: GameState, card: int) -> bool:
    """Whether ``card`` has lifelink now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
