"""Exert — CR 701.43 (701.43a–c)

To exert a permanent, its controller chooses to have it not untap during their
next untap step (Exert — CR 701.43a). A permanent can be exerted when it isn't
tapped or has been exerted already; exerting it again before that untap step
changes nothing, each effect ending in the same untap step (701.43b). An object
that isn't on the battlefield can't be exerted (701.43c). The model keeps
"exerted" on the object; the untap step (engine/turn.py) leaves an exerted
permanent tapped and ends the exertion.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> cat = state.add_card(OracleCard.simple("Cat", "{1}{W}", "Creature", power="2", toughness="2"), "Alice", ZoneKind.BATTLEFIELD)
>>> exert(state, "Alice", cat), is_exerted(state, cat)
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Exert"
KIND = "keyword action"
JAPANESE = ("督励する", "督励")
SUBRULES = ("a", "b", "c")
SUMMARY = "Choose to have a permanent not untap during your next untap step."
OUT_OF_REACH = {
    "d": "\"you may exert this creature as it attacks\" is an optional cost to attack (508.1g): "
         "the model declares no attackers",
}

STEP_KEYS = {"player", "card"}
EXERTED = "exerted"


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.43{letter}")


def is_exerted(state: GameState, card: int) -> bool:
    return state.has_designation(card, EXERTED)


def exert(state: GameState, player: str, card: int) -> bool:
    """``player`` exerts ``card``; return whether it was exerted (only a permanent can be, 701.43c)."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield:
        state.emit(EventKind.NOTHING, player, names=(c.display_name,),
                   detail="it isn't on the battlefield, so it can't be exerted", citation=cite("c"))
        return False
    again = is_exerted(state, card)
    with state.action("exert"):
        state.designate(card, EXERTED)
        state.emit(EventKind.EFFECT, player, (card,), citation=cite("b" if again or not c.tapped else "a"),
                   detail="exerted again: both exertions end in the same untap step (its controller's next)" if again
                   else "exerted: it won't untap during its controller's next untap step")
    return True


def untap_step(state: GameState, card: int) -> bool:
    """In its controller's untap step: whether an exerted permanent stays tapped (its exertion ends now)."""
    if not is_exerted(state, card):
        return False
    state.undesignate(card, EXERTED)
    state.emit(EventKind.NOTHING, state.controller_of(card), (card,),
               detail="exerted: it doesn't untap during this untap step", citation=cite("a"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "exert", card = "Name" }``."""
    card = run.card(step["card"])
    exert(run.state, player, card)
