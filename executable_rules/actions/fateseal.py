"""Fateseal — CR 701.29 (701.29a)

To fateseal N, a player looks at the top N cards of an opponent's library, then
puts any number of them on the bottom of that library in any order and the rest
on top in any order (Fateseal — CR 701.29a): scry, on an opponent's library.
The fatesealing player makes every choice; with several opponents they choose
whose library. A library with fewer than N cards is looked at whole.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice", "Bob"])
>>> for n in ("A", "B", "C"):
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Bob", ZoneKind.LIBRARY)
>>> [state.cards[c].name for c in fateseal(state, "Alice", 2, choose=Scripted(["put A on the bottom", "keep B on top"]))]
['A']
>>> state.names(state.player("Bob").library)
['B', 'C', 'A']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Fateseal"
KIND = "keyword action"
JAPANESE = ("消術を行う", "消術")
SUBRULES = ("a",)
SUMMARY = "Look at the top N cards of an opponent's library; put any of them on the bottom, the rest on top."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "count", "opponent"}


def fateseal(state: GameState, player: str, n: int, opponent: str | None = None, *,
             choose: Chooser = first_legal) -> list[int]:
    """``player`` fateseals ``n`` (of ``opponent``'s library, or an opponent they choose); return the cards put on
    the bottom, in the order they go there."""
    cite = Citation(KEYWORD, "701.29a")
    with state.action(f"fateseal {n}"):
        if opponent is None:
            answer = decide(state, Decision.of(player, f"fateseal {n}: whose library", cite,
                                               [Option(f"fateseal {p.name}", p.name) for p in state.opponents(player)
                                                if not p.lost]), choose)
            opponent = str(answer.value)
        library = state.player(opponent).library
        looked = list(library.cards[:n])
        state.emit(EventKind.LOOK, player, tuple(looked), source=library.label, detail=f"fateseal {n}", citation=cite)
        bottom: list[int] = []
        for card in looked:
            name = state.cards[card].display_name
            answer = decide(state, Decision.of(player, f"fateseal {n}: {name} on top or on the bottom?", cite,
                                               [Option(f"keep {name} on top", False),
                                                Option(f"put {name} on the bottom", True)]), choose)
            if answer.value:
                bottom.append(card)
        for card in bottom:
            state.move(card, library, position="bottom")
        state.emit(EventKind.MOVE, player, tuple(bottom), source=library.label, destination=f"the bottom of {library.label}",
                   detail=f"fateseal {n}: {len(bottom)} on the bottom", citation=cite)
    return bottom


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "fateseal", count = 2, opponent = "opponent" }``."""
    opponent = run.player(step, "opponent") if "opponent" in step else None
    fateseal(run.state, player, int(step.get("count", 1)), opponent, choose=choose)
