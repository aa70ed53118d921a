"""Roll to Visit Your Attractions — CR 701.52 (701.52a)

To roll to visit your Attractions, a player rolls a six-sided die; each
Attraction they control with that number lit up is visited and its visit
ability triggers (Roll to Visit Your Attractions — CR 701.52a; Attraction Cards — CR 717,
Visit — CR 702.159).

Out of the model's reach: it has no Attraction cards (which numbers a printing
lights up isn't in the Oracle text of the corpus) and no die-rolling rules
(Rolling a Die — CR 706). The function rolls the die from the game's generator
and reports that no Attraction is visited, so a card using it runs, but no
scenario claims the subrule.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["you"], seed=1)
>>> 1 <= roll_to_visit_your_attractions(state, "you") <= 6
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Roll to Visit Your Attractions"
KIND = "keyword action"
JAPANESE = ("アトラクションを観覧するためサイコロを振る",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Roll a six-sided die; your Attractions with that number lit up are visited."
OUT_OF_REACH = {
    "a": "the model has no Attraction cards (their lit-up numbers vary by printing and aren't in the corpus's Oracle "
         "text) and no die-rolling rules (Rolling a Die — CR 706), so no Attraction can be visited",
}

STEP_KEYS = {"player"}


def roll_to_visit_your_attractions(state: GameState, player: str) -> int:
    """``player`` rolls to visit their Attractions; return the result (no Attraction is ever visited here)."""
    with state.action("roll to visit your Attractions"):
        result = state.random_order([1, 2, 3, 4, 5, 6])[0]
        state.emit(EventKind.NOTHING, player, amount=result,
                   detail=f"rolls {result} on a six-sided die to visit their Attractions: they control none")
    return result


roll_to_visit = roll_to_visit_your_attractions
"""The action under its module's name."""


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "roll_to_visit" }``."""
    roll_to_visit_your_attractions(run.state, player)
