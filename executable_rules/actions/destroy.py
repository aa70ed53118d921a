"""Destroy — CR 701.8 (701.8a–c)

To destroy a permanent is to move it from the battlefield to its owner's
graveyard (701.8a). Only two things destroy: an effect that says "destroy",
and the state-based actions for lethal damage and for damage from a source
with deathtouch (704.5g, 704.5h); a permanent put into a graveyard any other
way (sacrificed, 0 toughness, the legend rule) hasn't been destroyed (701.8b).
Regeneration replaces destruction (701.8c; Regenerate — CR 701.19), and so
does indestructible: an indestructible permanent can't be destroyed
(Indestructible — CR 702.12b). A replacement effect may send the permanent
elsewhere than the graveyard (Darksteel Colossus): it is still destroyed
there, but never "dies".

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> destroy(state, "Alice", bears)
True
>>> state.names(state.player("Alice").graveyard), state.events[-1].describe()
(['Grizzly Bears'], "Alice: move Grizzly Bears from battlefield to Alice's graveyard — destroyed (Destroy — CR 701.8a)")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Destroy"
KIND = "keyword action"
JAPANESE = ("破壊する", "破壊")
SUBRULES = ("a", "b", "c")
SUMMARY = "Move a permanent from the battlefield to its owner's graveyard, unless indestructible or regenerated."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"card", "player", "regenerate"}
"""``do = "destroy"``: an effect destroys ``card``; ``regenerate = false``: "it can't be regenerated"."""


def destroy(state: GameState, player: str | None, card: int, *, can_be_regenerated: bool = True,
            detail: str = "destroyed", citation: Citation | None = None) -> bool:
    """Destroy the permanent ``card`` (``player`` controls the effect, ``None`` for a state-based action);
    return whether it left the battlefield."""
    from ..engine.layers import characteristics
    from ..engine.replacement import put_into_graveyard
    from .regenerate import regenerates_instead
    if state.zone_of(card) is not state.battlefield:
        return False
    if "Indestructible" in characteristics(state, card).keywords:
        state.emit(EventKind.NOTHING, player, (card,), detail="indestructible: it isn't destroyed",
                   citation=Citation("Indestructible", "702.12b"))
        return False
    if regenerates_instead(state, card, can_be_regenerated=can_be_regenerated):      # 701.8c
        return False
    put_into_graveyard(state, card, detail, citation or Citation(KEYWORD, "701.8a"))
    return state.zone_of(card) is not state.battlefield


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "destroy", card = "Grizzly Bears" }``: an effect destroys it."""
    destroy(run.state, player, run.card(step["card"]), can_be_regenerated=bool(step.get("regenerate", True)))
