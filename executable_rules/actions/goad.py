"""Goad — CR 701.15 (701.15a–d)

A spell or ability that goads a creature makes it goaded until its
controller's next turn (701.15a). Goaded is a designation, not an ability
(701.15b): a goaded creature attacks each combat if able, and attacks a
player other than the ones who goaded it if able. Several players can goad
the same creature, each adding a requirement (701.15c); a player who goads a
creature they already goaded adds nothing (701.15d).

The model has no declare-attackers step yet: :func:`attack_requirement`
says what a goaded creature must do when it can attack — attack, and attack
one of these players — fulfilling as many requirements as possible
(Declare Attackers Step — CR 508.1d): a player who didn't goad it if there is
one, else any opponent. Goading ends as the goading player's next turn
begins, not at other players' turns.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob", "Carol"])
>>> lion = state.add_card(OracleCard.simple("Silvercoat Lion", "{1}{W}", "Creature", power="2", toughness="2"),
...                       "Bob", ZoneKind.BATTLEFIELD)
>>> goad(state, "Alice", lion), goad(state, "Alice", lion)
(True, False)
>>> goaded_by(state, lion), attack_requirement(state, lion)
(['Alice'], ['Carol'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import ContinuousEffect, EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Goad"
KIND = "keyword action"
JAPANESE = ("使嗾する", "使嗾")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Until your next turn, the creature attacks each combat if able, and attacks a player other than you if able."
OUT_OF_REACH: dict[str, str] = {}

GOADED = "goaded"
"""The ``layer`` of the designation among the lasting effects (``state.continuous``): not a layer effect
(a designation isn't a characteristic), kept there for its object reference and duration; ``source`` is the
goading player."""

STEP_KEYS = {"player", "card"}
"""``do = "goad"``: ``player`` goads ``card``."""


def _until(player: str) -> str:
    return f"until {player}'s next turn"


def _whose(player: str) -> str:
    return "your" if player == "you" else f"{player}'s"     # scenarios' players are "you" and "opponent"


def goaded_by(state: GameState, card: int) -> list[str]:
    """The players who have goaded the permanent ``card`` (in the order they did)."""
    ref = state.ref(card)
    return [e.source for e in state.continuous if e.layer == GOADED and ref in e.affected]


def goad(state: GameState, player: str, card: int) -> bool:
    """``player``'s spell or ability goads the creature ``card``; return whether that added a requirement."""
    if state.zone_of(card) is not state.battlefield:
        return False
    name = state.cards[card].display_name
    if player in goaded_by(state, card):
        state.emit(EventKind.NOTHING, player, (card,), detail=f"already goaded by {player}: no additional requirement",
                   citation=Citation(KEYWORD, "701.15d"))
        return False
    others = goaded_by(state, card)
    state.append(state.continuous, ContinuousEffect(player, GOADED, (state.ref(card),), state.stamp(),
                                                    duration=_until(player)))
    state.emit(EventKind.GOAD, player, (card,), names=(name,),
               detail=f"goaded until {_whose(player)} next turn" + (f" (also goaded by {', '.join(others)})" if others else ""),
               citation=Citation(KEYWORD, "701.15c" if others else "701.15a"))
    return True


def attack_requirement(state: GameState, card: int) -> list[str]:
    """The players the goaded creature ``card`` must attack one of, if able (701.15b, 701.15c): those who didn't
    goad it, or, when every opponent goaded it, any opponent. Empty if it isn't goaded."""
    goaders = goaded_by(state, card)
    if not goaders:
        return []
    controller = state.cards[card].controller
    opponents = [p.name for p in state.players if p.name != controller and not p.lost]
    preferred = [p for p in opponents if p not in goaders]
    return preferred or opponents


def end_goad(state: GameState, active: str) -> None:
    """A turn of ``active`` begins: what they goaded is goaded no more (701.15a)."""
    ending = [e for e in state.continuous if e.layer == GOADED and e.duration == _until(active)]
    if ending:
        state.replace_list(state.continuous, [e for e in state.continuous if e not in ending])
        state.emit(EventKind.NOTHING, active, detail=f"the creatures {active} goaded are no longer goaded by {active}",
                   citation=Citation(KEYWORD, "701.15a"))


def _observe(key: str) -> Any:
    def observe(state: GameState, player: str | None, expected: Any) -> dict[str, list[str]]:
        found = {}
        for name in expected:
            cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
            found[name] = (goaded_by if key == "goaded_by" else attack_requirement)(state, cards[0]) if cards else []
        return found
    return observe


EXPECT = {"goaded_by": _observe("goaded_by"), "must_attack": _observe("must_attack")}
"""``goaded_by = { "Silvercoat Lion" = ["you"] }``; ``must_attack = { "Silvercoat Lion" = ["third"] }`` (the players
it must attack one of, if able)."""


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "goad", card = "Silvercoat Lion" }``."""
    goad(run.state, player, run.card(step["card"]))
