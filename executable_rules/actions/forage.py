"""Forage — CR 701.61 (701.61a)

To forage means "Exile three cards from your graveyard or sacrifice a Food"
(Forage — CR 701.61a). The player chooses one of the two that they can do; with
fewer than three cards in their graveyard and no Food, they can't forage, and
an effect that says "you may forage" can't be chosen then (as a cost it can't
be paid). Sacrificing a Food doesn't destroy it (Sacrifice — CR 701.21a); the
token then ceases to exist as a state-based action (State-Based Actions — CR 704.5d).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.tokens import FOOD
>>> state = GameState.new(["you"])
>>> food = state.add_card(FOOD, "you", ZoneKind.BATTLEFIELD)
>>> can_forage(state, "you"), forage(state, "you")
(True, True)
>>> state.permanents("you")
[]
>>> can_forage(state, "you"), forage(state, "you")
(False, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..engine.replacement import put_into_graveyard
from ..model import EventKind, GameState
from .exile import exile

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Forage"
KIND = "keyword action"
JAPANESE = ("給餌する", "給餌")
SUBRULES = ("a",)
SUMMARY = "Exile three cards from your graveyard or sacrifice a Food."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}
"""``do = "forage"``; the decisions pick the option and the cards."""

CITE = Citation(KEYWORD, "701.61a")


def _foods(state: GameState, player: str) -> list[int]:
    return [c.id for c in state.permanents(player) if "Food" in c.subtypes]


def can_forage(state: GameState, player: str) -> bool:
    """Whether ``player`` could forage now: three cards in their graveyard, or a Food."""
    return len(state.player(player).graveyard.cards) >= 3 or bool(_foods(state, player))


def forage(state: GameState, player: str, *, choose: Chooser = first_legal) -> bool:
    """``player`` forages; False if they can do neither half (nothing happens)."""
    graveyard = state.player(player).graveyard
    foods = _foods(state, player)
    with state.action("forage"):
        if not can_forage(state, player):
            state.emit(EventKind.NOTHING, player, detail="fewer than three cards in the graveyard and no Food: "
                       "they can't forage", citation=CITE)
            return False
        options = [
            Option("exile three cards from your graveyard", "exile", len(graveyard.cards) >= 3,
                   f"only {len(graveyard.cards)} card(s) in the graveyard", CITE),
            Option("sacrifice a Food", "food", bool(foods), "no Food to sacrifice", CITE),
        ]
        answer = decide(state, Decision.of(player, "forage: exile three cards from your graveyard or sacrifice a Food",
                                           CITE, options), choose)
        if answer.value == "exile":
            for i in range(3):
                left = list(graveyard.cards)
                pick = decide(state, Decision.of(player, f"forage: exile a card from your graveyard ({i + 1} of 3)", CITE,
                                                 [Option(f"exile {state.cards[c].display_name}", c) for c in left]), choose)
                exile(state, player, pick.value, detail="foraged")
        else:
            pick = decide(state, Decision.of(player, "forage: sacrifice a Food", CITE,
                                             [Option(f"sacrifice {state.cards[c].display_name}", c) for c in foods]),
                          choose)
            put_into_graveyard(state, pick.value, "sacrificed to forage", Citation("Sacrifice", "701.21a"))
        state.emit(EventKind.NOTHING, player, detail=f"{player} has foraged", citation=CITE)
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "forage" }``."""
    forage(run.state, player, choose=choose)
