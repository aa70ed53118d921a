"""Support — CR 701.41 (701.41a)

"Support N" on a permanent means "Put a +1/+1 counter on each of up to N other
target creatures"; on an instant or sorcery spell, "Put a +1/+1 counter on each
of up to N target creatures" (Support — CR 701.41a). The targets are chosen as
the ability is put on the stack (or the spell cast), so a permanent's support
can't target the permanent itself; a target that is illegal on resolution gets
no counter. In Oracle text the engine reads "support N" as N "up to one"
targets (:func:`executable_rules.engine.effects.target_specs`).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> cavalry = state.add_card(OracleCard.simple("Cavalry", "{5}{G}{G}", "Creature", power="6", toughness="6"),
...                          "Alice", ZoneKind.BATTLEFIELD)
>>> lion = state.add_card(OracleCard.simple("Lion", "{1}{W}", "Creature", power="2", toughness="2"), "Alice", ZoneKind.BATTLEFIELD)
>>> support(state, "Alice", cavalry, [state.ref(lion)], 2)
1
>>> support(state, "Alice", cavalry, [state.ref(cavalry)], 2)
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'support 2': support on a permanent targets only other creatures (Support — CR 701.41a)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ObjectRef

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Support"
KIND = "keyword action"
JAPANESE = ("支援を行う", "支援")
SUBRULES = ("a",)
SUMMARY = "Put a +1/+1 counter on each of up to N other target creatures (any N targets for a spell)."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "source", "targets", "n"}


def cite() -> Citation:
    return Citation(KEYWORD, "701.41a")


def legal_target(state: GameState, source: int, card: int) -> bool:
    """A creature on the battlefield, and not the source when support is a permanent's (701.41a)."""
    from ..engine.layers import characteristics
    if state.zone_of(card) is not state.battlefield or "Creature" not in characteristics(state, card).types:
        return False
    return not (card == source and state.zone_of(source) is state.battlefield)


def support(state: GameState, player: str, source: int, targets: Sequence[ObjectRef], n: int) -> int:
    """``source``'s controller ``player`` supports ``n`` with ``targets`` chosen; return the counters put."""
    if len(targets) > n:
        raise IllegalChoice(f"support {n}", f"{len(targets)} targets: support {n} has up to {n}", cite())
    if any(t.card == source and state.zone_of(source) is state.battlefield for t in targets):
        raise IllegalChoice(f"support {n}", "support on a permanent targets only other creatures", cite())
    put = 0
    with state.action(f"support {n}"):
        for target in targets:
            if not state.is_current(target) or not legal_target(state, source, target.card):
                state.emit(EventKind.NOTHING, player, names=(state.cards[target.card].display_name,),
                           detail="an illegal target: no counter", citation=Citation("Resolving Spells and Abilities", "608.2b"))
                continue
            state.add_counters(target.card, "+1/+1", 1)
            state.emit(EventKind.COUNTER, player, (target.card,), amount=1, detail=f"support {n}: a +1/+1 counter",
                       citation=cite())
            put += 1
    return put


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "support", source = "Name", targets = ["A", "B"], n = 2 }``."""
    source = run.card(step["source"], "source")
    support(run.state, player, source, [run.ref(t, "targets") for t in step.get("targets", [])], int(step.get("n", 1)))
