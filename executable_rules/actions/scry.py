"""Scry — CR 701.22 (701.22a–b, 701.22d)

To scry N, a player looks at the top N cards of their library, then puts any
number of them on the bottom of their library in any order and the rest on top
in any order (701.22a). Scry 0 is no scry event at all: nothing is looked at and
nothing that triggers on scrying triggers (701.22b). "Whenever you scry"
abilities trigger once the scry is done, even if its library had fewer cards
than N or none at all (701.22d).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> for n in ("A", "B", "C"):
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Alice", ZoneKind.LIBRARY)
>>> [state.cards[c].name for c in scry(state, "Alice", 2, choose=Scripted(["put A on the bottom", "keep B on top"]))]
['A']
>>> [state.cards[c].name for c in state.player("Alice").library.cards]
['B', 'C', 'A']
>>> scry(state, "Alice", 0)
[]
>>> state.events[-1].describe()
'Alice: scry — scry 0: no scry event (Scry — CR 701.22b)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Scry"
KIND = "keyword action"
JAPANESE = ("占術を行う", "占術")
SUBRULES = ("a", "b", "d")
SUMMARY = "Look at the top N cards of your library; put any of them on the bottom, the rest back on top."
OUT_OF_REACH = {
    "c": "several players scrying at once decide in APNAP order and move together: no card scries for two players",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

STEP_KEYS = {"player", "count"}
"""The keys of the scenario step ``do = "scry"`` (``count`` = N)."""


def scry(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> list[int]:
    """``player`` scries ``n``; return the cards put on the bottom (in the order they go there)."""
    if n <= 0:
        state.emit(EventKind.SCRY, player, (), amount=0, detail="scry 0: no scry event",
                   citation=Citation(KEYWORD, "701.22b"))
        return []
    library = state.player(player).library
    looked = list(library.cards[:n])
    bottom: list[int] = []
    with state.action(f"scry {n}"):
        for card in looked:
            name = state.cards[card].display_name
            answer = decide(state, Decision.of(player, f"scry {n}: {name} on top or on the bottom?",
                                               Citation(KEYWORD, "701.22a"),
                                               [Option(f"keep {name} on top", False),
                                                Option(f"put {name} on the bottom", True)]), choose)
            if answer.value:
                bottom.append(card)
        for card in bottom:
            state.move(card, library, position="bottom")
        state.emit(EventKind.SCRY, player, tuple(looked), amount=n,
                   detail=f"scry {n}: {len(bottom)} on the bottom", citation=Citation(KEYWORD, "701.22a"))
    return bottom


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "scry", count = N, player = "you" }``."""
    scry(run.state, player, int(step.get("count", 1)), choose=choose)
