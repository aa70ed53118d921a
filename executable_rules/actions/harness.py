"""Harness — CR 701.64 (701.64a–b)

"Harness [this permanent]" means "If this permanent isn't harnessed, it becomes
harnessed." (Harness — CR 701.64a) Harnessed is a designation with no rules
meaning of its own, only for other abilities to look at; only permanents have it,
and one keeps it until it leaves the battlefield; it is neither an ability nor a
copiable value (Harness — CR 701.64b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> relic = state.add_card(OracleCard.simple("Test Relic", "{2}", "Artifact"), "you", ZoneKind.BATTLEFIELD)
>>> harness(state, "you", relic), harness(state, "you", relic), is_harnessed(state, relic)
(True, False, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..designations import designate, has_designation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Harness"
KIND = "keyword action"
JAPANESE = ("装着する", "装着")
SUBRULES = ("a", "b")
SUMMARY = "If this permanent isn't harnessed, it becomes harnessed (a designation kept until it leaves)."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "permanent"}

DESIGNATION = "harnessed"


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.64{letter}")


def is_harnessed(state: GameState, card: int) -> bool:
    return state.zone_of(card) is state.battlefield and has_designation(state, card, DESIGNATION)


def harness(state: GameState, player: str, permanent: int) -> bool:
    """Harness ``permanent``; False if nothing happened (already harnessed, or not a permanent)."""
    with state.action("harness"):
        if state.zone_of(permanent) is not state.battlefield:
            state.emit(EventKind.NOTHING, player, (permanent,), detail="only permanents can become harnessed",
                       citation=cite("b"))
            return False
        if is_harnessed(state, permanent):
            state.emit(EventKind.NOTHING, player, (permanent,), detail="already harnessed: nothing happens",
                       citation=cite("a"))
            return False
        designate(state, permanent, DESIGNATION)
        state.emit(EventKind.EFFECT, player, (permanent,), detail="becomes harnessed", citation=cite("a"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "harness", permanent = "…" }``."""
    harness(run.state, player, run.card(str(step["permanent"])))
