"""Double Strike — CR 702.4 (702.4a–e)

Double strike is a static ability that modifies the combat damage step (702.4a). With a creature with
first strike or double strike in combat, there are two combat damage steps: in the first only those creatures
assign damage; in the second the others, and those that have double strike now (702.4b). So a creature given
double strike after dealing first-strike damage deals damage again in the second step (702.4d).

The rules live in :mod:`executable_rules.engine.combat` (blocking, damage) and
:mod:`executable_rules.engine.effects` (what damage does); this module names them and holds their scenarios
(``data/scenarios/double_strike.toml``, run with the combat steps ``attack``, ``block`` and ``combat_damage``).
Implemented here: Double Strike — CR 702.4a–d.

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"])
>>> blade = state.add_card(OracleCard.simple("Boros Swiftblade", "{R}{W}", "Creature", power="1", toughness="2",
...                        text="Double strike"), "you", ZoneKind.BATTLEFIELD)
>>> double_strike(state, blade)
True
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Double Strike"
KIND = "keyword ability"
JAPANESE = ('二段攻撃',)
SUBRULES = ('a', 'b', 'd')
SUMMARY = "Deals combat damage in both the first-strike and the regular combat damage step."
OUT_OF_REACH: dict[str, str] = {
    "c": "no card the model reads removes an ability (\"loses double strike\") from a creature",
    "e": "a permanent's keyword abilities are a set here, so a second instance changes nothing by construction; no scenario with two instances of it from real cards is written",
}
"""Subrules the model doesn't run, each with the reason."""


def double_strike(state: GameState, card: int) -> bool:
    """Whether ``card`` has double strike now (with every continuous effect applied)."""
    return KEYWORD in characteristics(state, card).keywords
