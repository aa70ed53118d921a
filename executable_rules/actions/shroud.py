"""Shroud — CR 702.18 (702.18a–b)

Shroud is a static ability: "This permanent or player can't be the target of
spells or abilities" (Shroud — CR 702.18a) — anyone's, its controller's too,
unlike hexproof (Hexproof — CR 702.11b). A player has shroud from "You have
shroud." (Ivory Mask). More instances change nothing (702.18b): a creature with
shroud that gains shroud again is just as untargetable. :func:`shroud` is what
the engine's targeting asks (:func:`executable_rules.engine.effects.legal_targets`).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> insect = state.add_card(OracleCard.simple("Deadly Insect", "{4}{G}", "Creature", text="Shroud", power="6",
...                         toughness="1"), "Alice", ZoneKind.BATTLEFIELD)
>>> shroud(state, insect), shroud(state, "Alice")
(True, False)
"""

from __future__ import annotations

from ..engine.layers import characteristics
from ..model import GameState

KEYWORD = "Shroud"
KIND = "keyword ability"
JAPANESE = ("被覆",)
SUBRULES = ("a", "b")
SUMMARY = "Can't be the target of spells or abilities, its controller's included."
OUT_OF_REACH: dict[str, str] = {}


def shroud(state: GameState, target: int | str) -> bool:
    """Whether ``target`` (a permanent's id or a player's name) has shroud: nothing can target it (702.18a)."""
    if isinstance(target, str):
        return any(a.static == "shroud_static" for c in state.permanents(target) if not c.face_down
                   for a in c.oracle.parsed.abilities)
    if state.zone_of(target) is not state.battlefield:
        return False
    return "Shroud" in characteristics(state, target).keywords
