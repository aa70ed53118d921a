"""Detain — CR 701.35 (701.35a)

A spell or ability that detains a permanent makes it unable to attack or block,
and its activated abilities unable to be activated, until the next turn of the
controller of that spell or ability (Detain — CR 701.35a). The model keeps the
detention on the object (``GameState.designate``): it ends when that player's
next turn begins (engine/turn.py) or when the permanent leaves the battlefield
(a new object, Zones — CR 400.7). Activating an ability of a detained permanent
is refused (engine/stack.py); :func:`can_attack_or_block` answers for combat.
Mana abilities are activated abilities too, so a detained land can't tap for
mana.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> bear = state.add_card(OracleCard.simple("Bear", "{1}{G}", "Creature", power="2", toughness="2"), "Bob", ZoneKind.BATTLEFIELD)
>>> detain(state, "Alice", [bear]) == [bear]
True
>>> is_detained(state, bear), can_attack_or_block(state, bear)
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Detain"
KIND = "keyword action"
JAPANESE = ("留置する", "留置")
SUBRULES = ("a",)
SUMMARY = "Until your next turn, the permanent can't attack or block and its activated abilities can't be activated."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "cards"}
PREFIX = "detained by "


def cite() -> Citation:
    return Citation(KEYWORD, "701.35a")


def detain(state: GameState, player: str, permanents: Sequence[int]) -> list[int]:
    """``player``'s spell or ability detains ``permanents``; return those detained (those on the battlefield)."""
    done = []
    with state.action("detain"):
        for card in permanents:
            if state.zone_of(card) is not state.battlefield:
                continue
            state.designate(card, PREFIX + player)
            state.emit(EventKind.EFFECT, player, (card,), detail=f"detained until {player}'s next turn: it can't attack "
                       "or block and its activated abilities can't be activated", citation=cite())
            done.append(card)
    return done


def is_detained(state: GameState, card: int) -> bool:
    return any(c == card and i == state.incarnation.get(card, 0) and name.startswith(PREFIX)
               for c, i, name in state.designations)


def can_attack_or_block(state: GameState, card: int) -> bool:
    """A detained permanent can't attack or block (701.35a)."""
    return not is_detained(state, card)


def end_detentions(state: GameState, player: str) -> None:
    """``player``'s turn begins: what their spells and abilities detained is free again."""
    for card, incarnation, name in sorted(state.designations):
        if name == PREFIX + player and incarnation == state.incarnation.get(card, 0):
            state.undesignate(card, name)
            state.emit(EventKind.EFFECT, player, (card,), detail=f"no longer detained: {player}'s turn has begun",
                       citation=cite())


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "detain", cards = ["Name"] }`` (``player`` controls the detaining spell)."""
    detain(run.state, player, [run.card(name, "cards") for name in step.get("cards", [])])


def _detained(state: GameState, player: str | None, expected: Any) -> Any:
    """``detained = ["Name"]``: the permanents detained now."""
    return sorted(state.cards[c].display_name for c in state.battlefield.cards if is_detained(state, c))


EXPECT = {"detained": _detained}
