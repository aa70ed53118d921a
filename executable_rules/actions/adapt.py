"""Adapt — CR 701.46 (701.46a)

"Adapt N" means "If this permanent has no +1/+1 counters on it, put N +1/+1
counters on it" (Adapt — CR 701.46a). A permanent with a +1/+1 counter gets
none, however it got the one it has; one whose counters were all removed may
adapt again.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> beast = state.add_card(OracleCard.simple("Beast", "{2}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> adapt(state, beast, 2), adapt(state, beast, 2)
(2, 0)
>>> state.cards[beast].counters
{'+1/+1': 2}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Adapt"
KIND = "keyword action"
JAPANESE = ("順応を行う", "順応")
SUBRULES = ("a",)
SUMMARY = "If this permanent has no +1/+1 counters on it, put N +1/+1 counters on it."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"permanent", "n"}


def adapt(state: GameState, permanent: int, n: int) -> int:
    """``permanent`` adapts ``n``; return the +1/+1 counters put on it (0 if it had one, or has left)."""
    c = state.cards[permanent]
    if state.zone_of(permanent) is not state.battlefield:
        state.emit(EventKind.NOTHING, None, names=(c.display_name,), detail="it isn't on the battlefield: no counters",
                   citation=Citation(KEYWORD, "701.46a"))
        return 0
    who = state.controller_of(permanent)
    if c.counters.get("+1/+1", 0) > 0:
        state.emit(EventKind.NOTHING, who, (permanent,),
                   detail=f"adapt {n}: it already has a +1/+1 counter, so no counters are put on it",
                   citation=Citation(KEYWORD, "701.46a"))
        return 0
    with state.action(f"adapt {n}"):
        state.add_counters(permanent, "+1/+1", n)
        state.emit(EventKind.COUNTER, who, (permanent,), amount=n, detail=f"adapt {n}: {n} +1/+1 counter(s)",
                   citation=Citation(KEYWORD, "701.46a"))
    return n


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "adapt", permanent = "Name", n = 2 }``."""
    adapt(run.state, run.card(step["permanent"], "permanent"), int(step.get("n", 1)))
