"""Surveil — CR 701.25 (701.25a, 701.25c–d)

To surveil N, a player looks at the top N cards of their library, then puts
any number of them into their graveyard and the rest back on top in any
order (701.25a): for each card they choose graveyard or top, then the order
of those kept on top (the first chosen is the new top card). Surveil 0 is no
surveil event at all: nothing is looked at and "whenever you surveil"
abilities don't trigger (701.25c). Those abilities trigger once per surveil,
after it is done, however many cards were looked at, even with an empty
library (701.25d).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> for n in ("A", "B", "C"):
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Alice", ZoneKind.LIBRARY)
>>> [state.cards[c].name for c in surveil(state, "Alice", 2, choose=Scripted(["put A into graveyard", "keep B on top"]))]
['A']
>>> state.names(state.player("Alice").library), state.events[-1].describe()
(['B', 'C'], 'Alice: surveil A, B — surveil 2: 1 into the graveyard, 1 on top (Surveil — CR 701.25a)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Surveil"
KIND = "keyword action"
JAPANESE = ("諜報を行う", "諜報")
SUBRULES = ("a", "c", "d")
SUMMARY = "Look at the top N cards of your library; put any of them into your graveyard, the rest back on top."
OUT_OF_REACH = {
    "b": "no card of the model lets a player look at additional cards while they surveil",
}

STEP_KEYS = {"player", "count"}
"""``do = "surveil"``: ``player`` surveils ``count``."""


def surveil(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> list[int]:
    """``player`` surveils ``n``; return the cards put into the graveyard."""
    if n <= 0:
        state.emit(EventKind.NOTHING, player, detail="surveil 0: no surveil event", citation=Citation(KEYWORD, "701.25c"))
        return []
    p = state.player(player)
    library = p.library
    looked = list(library.cards[:n])
    binned: list[int] = []
    with state.action(f"surveil {n}"):
        for card in looked:
            name = state.cards[card].display_name
            answer = decide(state, Decision.of(player, f"surveil {n}: {name} into the graveyard?",
                                               Citation(KEYWORD, "701.25a"),
                                               [Option(f"keep {name} on top", False),
                                                Option(f"put {name} into graveyard", True)]), choose)
            if answer.value:
                binned.append(card)
        for card in binned:
            state.move(card, p.graveyard)
        if binned:
            state.emit(EventKind.MOVE, player, tuple(binned), source=library.label, destination=p.graveyard.label,
                       citation=Citation(KEYWORD, "701.25a"))
        kept = [c for c in looked if c not in binned]
        order: list[int] = []
        while len(kept) > 1:                   # the rest on top in any order: the first chosen is the top card
            answer = decide(state, Decision.of(player, f"surveil {n}: which card on top of those kept",
                                               Citation(KEYWORD, "701.25a"),
                                               [Option(f"{state.cards[c].display_name} on top", c) for c in kept]), choose)
            order.append(answer.value)
            kept.remove(answer.value)
        order += kept
        for card in reversed(order):
            state.move(card, library, position="top")
        state.emit(EventKind.SURVEIL, player, tuple(looked), amount=n,
                   detail=f"surveil {n}: {len(binned)} into the graveyard, {len(order)} on top",
                   citation=Citation(KEYWORD, "701.25a" if looked else "701.25d"))
    return binned


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "surveil", count = 2 }``."""
    surveil(run.state, player, int(step.get("count", 1)), choose=choose)
