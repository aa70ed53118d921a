"""Monstrosity — CR 701.37 (701.37a–c)

"Monstrosity N" means "If this permanent isn't monstrous, put N +1/+1 counters
on it and it becomes monstrous" (Monstrosity — CR 701.37a). Monstrous is a
designation with no rules meaning of its own: it stays until the permanent
leaves the battlefield, and it is neither an ability nor copiable (701.37b):
the model keeps it on the object (``GameState.designate``), so a permanent that
leaves and returns is a new object that isn't monstrous. The X of "monstrosity
X" is remembered as the permanent became monstrous, for its other abilities
(701.37c): :func:`monstrous_x`.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> hydra = state.add_card(OracleCard.simple("Hydra", "{X}{G}", "Creature", power="0", toughness="0"), "Alice",
...                        ZoneKind.BATTLEFIELD)
>>> monstrosity(state, hydra, 3), monstrosity(state, hydra, 5)
(True, False)
>>> state.cards[hydra].counters, is_monstrous(state, hydra), monstrous_x(state, hydra)
({'+1/+1': 3}, True, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Monstrosity"
KIND = "keyword action"
JAPANESE = ("怪物化を行う", "怪物化")
SUBRULES = ("a", "b", "c")
SUMMARY = "If this permanent isn't monstrous, put N +1/+1 counters on it and it becomes monstrous."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"permanent", "n"}
MONSTROUS = "monstrous"


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.37{letter}")


def is_monstrous(state: GameState, permanent: int) -> bool:
    return state.has_designation(permanent, MONSTROUS)


def monstrous_x(state: GameState, permanent: int) -> int | None:
    """The X it became monstrous with (701.37c), or ``None``."""
    for card, incarnation, name in state.designations:
        if card == permanent and incarnation == state.incarnation.get(card, 0) and name.startswith("monstrosity X="):
            return int(name.removeprefix("monstrosity X="))
    return None


def monstrosity(state: GameState, permanent: int, n: int) -> bool:
    """``permanent``'s monstrosity ``n``; return whether it became monstrous."""
    c = state.cards[permanent]
    if state.zone_of(permanent) is not state.battlefield:
        state.emit(EventKind.NOTHING, None, names=(c.display_name,),
                   detail="it isn't on the battlefield: only permanents become monstrous", citation=cite("b"))
        return False
    who = state.controller_of(permanent)
    if is_monstrous(state, permanent):
        state.emit(EventKind.NOTHING, who, (permanent,), detail=f"monstrosity {n}: it is already monstrous, nothing happens",
                   citation=cite("a"))
        return False
    with state.action(f"monstrosity {n}"):
        state.add_counters(permanent, "+1/+1", n)
        state.emit(EventKind.COUNTER, who, (permanent,), amount=n, detail=f"monstrosity {n}: {n} +1/+1 counter(s)",
                   citation=cite("a"))
        state.designate(permanent, MONSTROUS)
        state.designate(permanent, f"monstrosity X={n}")
        state.emit(EventKind.EFFECT, who, (permanent,), amount=n, detail=f"becomes monstrous (X is {n})",
                   citation=cite("b"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "monstrosity", permanent = "Name", n = 3 }``."""
    monstrosity(run.state, run.card(step["permanent"], "permanent"), int(step.get("n", 1)))


def _monstrous(state: GameState, player: str | None, expected: Any) -> Any:
    """``monstrous = ["Name"]``: the permanents that are monstrous now."""
    return sorted(state.cards[c].oracle.name for c in state.battlefield.cards if is_monstrous(state, c))


EXPECT = {"monstrous": _monstrous}
