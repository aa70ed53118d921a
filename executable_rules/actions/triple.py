"""Triple — CR 701.11 (701.11a–c)

Tripling a creature's power and/or toughness is a continuous effect that
modifies them (layer 7c), not one that sets them (701.11a): the creature gets
+X/+0, X being twice its power as the effect begins (701.11b); a negative
power tripled gets -X/-0, X being twice how far below 0 it is (701.11c) — in
both cases, X is twice its power.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.engine.layers import characteristics
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> triple(state, "Alice", bears)
(4, 0)
>>> characteristics(state, bears).power
6
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..model import GameState
from .double import _pump

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Triple"
KIND = "keyword action"
JAPANESE = ("3倍にするする", "3倍にする", "3倍")
SUBRULES = ("a", "b", "c")
SUMMARY = "Triple a creature's power and/or toughness: it gets +X/+0 where X is twice its power."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "card", "power", "toughness"}
"""``do = "triple"``: ``card``, with ``power = true`` (the default) and/or ``toughness = true``."""


def triple(state: GameState, player: str, card: int, *, power: bool = True, toughness: bool = False,
           source: str = "triple", duration: str = "until end of turn") -> tuple[int, int]:
    """Triple the creature's power and/or toughness; return the +X/+Y it gets."""
    return _pump(state, player, card, 2, power, toughness, source, KEYWORD, "701.11", duration)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "triple", card = "Grizzly Bears", toughness = true }``."""
    triple(run.state, player, run.card(step["card"]), power=bool(step.get("power", True)),
           toughness=bool(step.get("toughness", False)))
