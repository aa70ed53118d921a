"""Blight — CR 701.68 (701.68a–d)

To blight N is to put N -1/-1 counters on a creature you control
(Blight — CR 701.68a). A player who controls no creature can't choose to
blight (Blight — CR 701.68b): "you may blight N" then offers only no. The
creature chosen is "the blighted creature" (Blight — CR 701.68c). A player has
blighted once this is done, whatever happened: "whenever you blight" looks at
that (Blight — CR 701.68d). A creature left with toughness 0 or less is put
into its owner's graveyard as a state-based action (State-Based Actions — CR 704.5f).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> blight(state, "you", 1) == bears, state.cards[bears].power
(True, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Blight"
KIND = "keyword action"
JAPANESE = ("枯朽を行う", "枯朽")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Put N -1/-1 counters on a creature you control."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "n", "optional"}
"""``do = "blight"``, ``n`` = N; ``optional = true`` is "you may blight N"."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.68{letter}")


def can_blight(state: GameState, player: str) -> bool:
    return any(c.is_creature for c in state.permanents(player))


def blight(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> int:
    """``player`` blights ``n``; return the blighted creature (701.68c). :class:`IllegalChoice` without a creature."""
    creatures = [c.id for c in state.permanents(player) if c.is_creature]
    if not creatures:
        raise IllegalChoice(f"blight {n}", f"{player} controls no creature", cite("b"))
    with state.action(f"blight {n}"):
        answer = decide(state, Decision.of(player, f"blight {n}: put {n} -1/-1 counter(s) on a creature you control",
                                           cite("a"), [Option(f"blight {state.cards[c].display_name}", c)
                                                       for c in creatures]), choose)
        card: int = answer.value
        if n > 0:
            state.add_counters(card, "-1/-1", n)
        state.emit(EventKind.COUNTER, player, (card,), amount=n, detail=f"{n} -1/-1 counter(s): the blighted creature",
                   citation=cite("c"))
        state.emit(EventKind.NOTHING, player, (card,), detail=f"{player} has blighted {n}", citation=cite("d"))
    return card


def may_blight(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> int | None:
    """"You may blight N": the yes is illegal without a creature (701.68b); None if they don't."""
    able = can_blight(state, player)
    answer = decide(state, Decision.of(player, f"blight {n}?", cite("b"), [
        Option(f"blight {n}", True, able, "" if able else "no creature to put the counters on", cite("b")),
        Option(f"don't blight {n}", False)]), choose)
    return blight(state, player, n, choose=choose) if answer.value else None


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "blight", n = 2 }``."""
    n = int(step.get("n", 1))
    if step.get("optional"):
        may_blight(run.state, player, n, choose=choose)
    else:
        blight(run.state, player, n, choose=choose)
