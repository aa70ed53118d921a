"""Investigate — CR 701.16 (701.16a)

"Investigate" means "Create a Clue token" (701.16a): a colorless Clue
artifact token with "{2}, Sacrifice this artifact: Draw a card."
(Tokens — CR 111.10f), created by :mod:`executable_rules.actions.create`.
"Whenever you investigate" abilities see an ``investigate`` event, once per
investigation, even if a replacement effect changes the number of Clues.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["Alice"])
>>> _ = investigate(state, "Alice")
>>> state.names(state.battlefield), [e.describe() for e in state.events][-1]
(['Clue Token'], 'Alice: investigate — creates a Clue token (Investigate — CR 701.16a)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState
from .create import create_tokens, predefined_token

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Investigate"
KIND = "keyword action"
JAPANESE = ("調査を行う", "調査")
SUBRULES = ("a",)
SUMMARY = "Create a Clue token: a colorless artifact with \"{2}, Sacrifice this artifact: Draw a card.\""
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "times"}
"""``do = "investigate"``: ``player`` investigates (``times`` times)."""


def investigate(state: GameState, player: str, times: int = 1) -> list[int]:
    """``player`` investigates ``times`` times; return the Clues created."""
    clues: list[int] = []
    for _ in range(times):
        clues += create_tokens(state, player, predefined_token("Clue"), 1, detail="a Clue token (investigate)")
        state.emit(EventKind.INVESTIGATE, player, detail="creates a Clue token", citation=Citation(KEYWORD, "701.16a"))
    return clues


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "investigate", times = 2 }``."""
    investigate(run.state, player, int(step.get("times", 1)))
