"""Suspect — CR 701.60 (701.60a–d)

To suspect a creature makes it suspected until it leaves the battlefield or
an effect says it is no longer suspected (Suspect — CR 701.60a). Suspected is
a designation, only of permanents, neither an ability nor a copiable value
(Suspect — CR 701.60b). While suspected, the permanent has menace and "This
creature can't block" (Suspect — CR 701.60c). A suspected permanent can't
become suspected again (Suspect — CR 701.60d): suspecting it again does
nothing, and "if it's suspected" abilities such as Repeat Offender's read it.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.engine.layers import characteristics
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> suspect(state, "you", bears), suspect(state, "you", bears)
(True, False)
>>> sorted(characteristics(state, bears).keywords)
['Menace', "This creature can't block"]
>>> no_longer_suspected(state, "you", bears), is_suspected(state, bears)
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..designations import designate, designations, has_designation, remove_designation
from ..engine.layers import characteristics
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Suspect"
KIND = "keyword action"
JAPANESE = ("容疑をかける",)
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "A creature becomes suspected: it has menace and can't block until it leaves or is no longer suspected."
OUT_OF_REACH: dict[str, str] = {}

DESIGNATION = "suspected"
GRANTED = ("Menace", "This creature can't block")
"""What a suspected permanent has (Suspect — CR 701.60c), as a layer 6 effect."""

STEP_KEYS = {"player", "card", "undo"}
"""``do = "suspect"``: ``card`` (a permanent); ``undo = true`` makes it no longer suspected."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.60{letter}")


def is_suspected(state: GameState, card: int) -> bool:
    return state.zone_of(card) is state.battlefield and has_designation(state, card, DESIGNATION)


def suspect(state: GameState, player: str, card: int) -> bool:
    """``player`` suspects ``card``; False if nothing happened (not a permanent, or already suspected)."""
    c = state.cards[card]
    with state.action("suspect"):
        if state.zone_of(card) is not state.battlefield:
            state.emit(EventKind.NOTHING, player, (card,), detail="only permanents can be suspected", citation=cite("b"))
            return False
        if is_suspected(state, card):
            state.emit(EventKind.NOTHING, player, (card,), detail="already suspected: it can't become suspected again",
                       citation=cite("d"))
            return False
        designate(state, card, DESIGNATION, keywords=GRANTED)
        state.emit(EventKind.EFFECT, player, (card,), detail=f"{c.display_name} becomes suspected", citation=cite("a"))
        state.emit(EventKind.EFFECT, player, (card,), detail="a suspected permanent has menace and can't block",
                   citation=cite("c"))
    return True


def no_longer_suspected(state: GameState, player: str, card: int) -> bool:
    """An effect says ``card`` is no longer suspected (Suspect — CR 701.60a); False if it wasn't."""
    with state.action("no longer suspected"):
        if not remove_designation(state, card, DESIGNATION):
            return False
        state.emit(EventKind.EFFECT, player, (card,), detail="no longer suspected: it loses menace and can block again",
                   citation=cite("a"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "suspect", card = "Grizzly Bears" }`` (``undo = true``: it's no longer suspected)."""
    card = run.card(str(step["card"]))
    if step.get("undo"):
        no_longer_suspected(run.state, player, card)
    else:
        suspect(run.state, player, card)


def _named(state: GameState, name: str) -> int | None:
    return next((c.id for c in state.permanents() if c.display_name == name), None)


def _designations(state: GameState, player: str | None, expected: Any) -> dict[str, list[str]]:
    """``designations = { "Repeat Offender" = ["suspected"] }``: each permanent's designations (sorted)."""
    found = {}
    for name in expected:
        card = _named(state, name)
        found[name] = sorted(designations(state, card)) if card is not None else ["(not on the battlefield)"]
    return found


def _abilities(state: GameState, player: str | None, expected: Any) -> dict[str, list[str]]:
    """``abilities = { "Repeat Offender" = ["Menace", …] }``: the keyword abilities it has now, all layers applied."""
    found = {}
    for name in expected:
        card = _named(state, name)
        found[name] = sorted(characteristics(state, card).keywords) if card is not None else ["(not on the battlefield)"]
    return found


EXPECT = {"designations": _designations, "abilities": _abilities}
