"""Deathtouch — CR 702.2 (702.2a–f)

Deathtouch is a static ability (702.2a). A creature with toughness greater than 0 dealt damage by a
source with deathtouch since state-based actions were last checked is destroyed by them (702.2b;
State-Based Actions — CR 704.5h): 1 damage is enough. Any nonzero combat damage a deathtouch source assigns to a creature
counts as lethal damage when the attacker's controller divides it, so a deathtouch attacker blocked by two
creatures can kill both with 1 damage each, and with trample assign the rest to the player (702.2c). An
indestructible creature isn't destroyed (Indestructible — CR 702.12b).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/deathtouch.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Deathtouch — CR 702.2a–c.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> rats = state.add_card(OracleCard.simple("Typhoid Rats", "{B}", "Creature", power="1", toughness="1",
...                       text="Deathtouch"), "you", ZoneKind.BATTLEFIELD)
>>> deathtouch(state, rats)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Deathtouch"
KIND = "keyword ability"
JAPANESE = ('接死',)
SUBRULES = ('a', 'b', 'c')
SUMMARY = "Any damage from a deathtouch source destroys a creature; 1 combat damage counts as lethal for assignment."
OUT_OF_REACH: dict[str, str] = {
    "d": "no card here deals damage with this ability from a zone other than the battlefield",
    "e": "damage dealt by an object that has left the zone it was in (last known information) isn't modelled: combat damage comes from creatures on the battlefield",
    "f": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def deathtouch(state: GameState, card: int) -> bool:
    """Whether ``card`` has deathtouch now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
