"""Open an Attraction — CR 701.51 (701.51a–c)

A player may open an Attraction only in a game in which they play with an
Attraction deck (Open an Attraction — CR 701.51a; Attraction Cards — CR 717). To
open one, the top card of their Attraction deck is turned face up and put onto
the battlefield under their control (701.51b); "whenever you open an Attraction"
triggers on that (701.51c).

The model has no Attraction deck (no player's game here has one), so what it
runs is 701.51a: told to open an Attraction, a player without an Attraction deck
does nothing. Moving a card from an Attraction deck and the trigger are out of reach.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["you"])
>>> open_an_attraction(state, "you") is None
True
>>> state.events[-1].describe()
"you: note — you plays with no Attraction deck: they can't open an Attraction (Open an Attraction — CR 701.51a)"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Open an Attraction"
KIND = "keyword action"
JAPANESE = ("アトラクションを開く",)
SUBRULES = ("a",)
SUMMARY = "Put the top card of your Attraction deck onto the battlefield face up (only with an Attraction deck)."
OUT_OF_REACH = {
    "b": "the model has no Attraction deck (Attraction Cards — CR 717): no zone to move its top card from",
    "c": "with no Attraction deck no Attraction is ever opened, so nothing can trigger on it",
}

STEP_KEYS = {"player"}


def open_an_attraction(state: GameState, player: str) -> int | None:
    """``player`` is told to open an Attraction; without an Attraction deck nothing happens (701.51a)."""
    state.emit(EventKind.NOTHING, player, detail=f"{player} plays with no Attraction deck: they can't open an "
               "Attraction", citation=Citation(KEYWORD, "701.51a"))
    return None


open_attraction = open_an_attraction
"""The action under its module's name."""


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "open_attraction" }``."""
    open_an_attraction(run.state, player)
