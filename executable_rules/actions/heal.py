"""Heal — CR 701.69 (701.69a)

To heal damage already dealt to a permanent is to remove that marked damage
from it; "damage already dealt to it is healed" removes all of it, by the
permanent's controller (Heal — CR 701.69a). Healing isn't preventing: the
damage was dealt, and only what is marked goes (Damage — CR 120.6).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> state.cards[bears].damage = 1
>>> heal(state, bears), state.cards[bears].damage
(1, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Heal"
KIND = "keyword action"
JAPANESE: tuple[str, ...] = ()
"""Heal is new in the 20260925 CR: the Japanese CR we hold (20260116) has no name for it yet."""
SUBRULES = ("a",)
SUMMARY = "Remove damage marked on a permanent (all of it when the damage \"is healed\")."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "permanent", "amount"}
"""``do = "heal"``: ``permanent``; ``amount`` heals that much (left out: all of it)."""

CITE = Citation(KEYWORD, "701.69a")


def heal(state: GameState, permanent: int, amount: int | None = None) -> int:
    """Heal ``amount`` damage marked on ``permanent`` (None: all of it); return how much was removed."""
    c = state.cards[permanent]
    if state.zone_of(permanent) is not state.battlefield:
        return 0
    removed = c.damage if amount is None else min(amount, c.damage)
    with state.action("heal"):
        state.set(c, "damage", c.damage - removed)
        state.emit(EventKind.DAMAGE, c.controller, (permanent,), amount=-removed,
                   detail=f"{removed} marked damage healed ({c.damage} left)", citation=CITE)
    return removed


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "heal", permanent = "Grizzly Bears" }``."""
    amount = step.get("amount")
    heal(run.state, run.card(str(step["permanent"])), None if amount is None else int(amount))
