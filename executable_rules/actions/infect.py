"""Infect — CR 702.90 (702.90a–f)

Infect is a static ability (702.90a). Damage a source with infect deals to a player gives that player that
many poison counters instead of life loss (702.90b); damage it deals to a creature puts that many -1/-1 counters
on it instead of being marked (702.90c). Ten poison counters lose the game (State-Based Actions — CR 704.5c).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/infect.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Infect — CR 702.90a–c.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> shrike = state.add_card(OracleCard.simple("Tine Shrike", "{3}{W}", "Creature", power="2", toughness="1",
...                         text="Infect"), "you", ZoneKind.BATTLEFIELD)
>>> infect(state, shrike)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Infect"
KIND = "keyword ability"
JAPANESE = ('感染',)
SUBRULES = ('a', 'b', 'c')
SUMMARY = "Deals damage as poison counters to players and -1/-1 counters to creatures."
OUT_OF_REACH: dict[str, str] = {
    "d": "damage dealt by an object that has left the zone it was in (last known information) isn't modelled: combat damage comes from creatures on the battlefield",
    "e": "no card here deals damage with this ability from a zone other than the battlefield",
    "f": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def infect(state: GameState, card: int) -> bool:
    """Whether ``card`` has infect now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
