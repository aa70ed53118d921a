"""Trample — CR 702.19 (702.19a–g)

Trample is a static ability that modifies how an attacking creature assigns combat damage; it does nothing
for a blocking creature or for noncombat damage (702.19a). The attacker's controller assigns lethal damage to the
blocking creatures — counting damage already marked and damage other creatures assign in the same step, not
prevention — then may assign the rest to the player or planeswalker it attacks; if not every blocker is assigned
lethal damage, none goes to the player (702.19b). With trample over planeswalkers, once the planeswalker it
attacks is assigned damage equal to its loyalty, the rest may go to its controller (702.19c). A blocked creature
with trample whose blockers have all left assigns all its damage to the player or planeswalker (702.19d); one with
trample over planeswalkers whose planeswalker has left assigns it to the defending player (702.19e); without
trample over planeswalkers, none of the damage of a creature attacking a planeswalker can go to its controller
(702.19f).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/trample.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Trample — CR 702.19a–f.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> mammoth = state.add_card(OracleCard.simple("War Mammoth", "{3}{G}", "Creature", power="3", toughness="3",
...                          text="Trample"), "you", ZoneKind.BATTLEFIELD)
>>> trample(state, mammoth)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Trample"
KIND = "keyword ability"
JAPANESE = ('トランプル',)
SUBRULES = ('a', 'b', 'c', 'd', 'e', 'f')
SUMMARY = "An attacker's damage beyond lethal to its blockers may be assigned to the player or planeswalker."
OUT_OF_REACH: dict[str, str] = {
    "g": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def trample(state: GameState, card: int) -> bool:
    """Whether ``card`` has trample now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
