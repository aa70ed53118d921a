"""Empower Jace — CR 701.71 (701.71a)

To empower Jace N means "If you don't control a Jace planeswalker token, create
a blue Jace planeswalker token with 0 loyalty, '[−1]: Surveil 1,' and '[−3]:
Draw a card.' Choose a Jace planeswalker token you control. Put N loyalty
counters on it." (Empower Jace — CR 701.71a) The token is created with 0 loyalty
and gets its counters in the same action, before state-based actions are checked,
so it survives (State-Based Actions — CR 704.5i); a nontoken Jace planeswalker
you control doesn't count, and a second empower Jace adds to the token you have.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["you"])
>>> jace = empower_jace(state, "you", 2)
>>> state.cards[jace].name, state.cards[jace].counters
('Jace Token', {'loyalty': 2})
>>> empower_jace(state, "you", 1) == jace, state.cards[jace].counters
(True, {'loyalty': 3})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, Face, FaceKind, GameState, Layout, OracleCard, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Empower Jace"
KIND = "keyword action"
JAPANESE: tuple[str, ...] = ()
"""Empower Jace is new in the 20260925 CR: the Japanese CR we hold (20260116) has no name for it yet."""
SUBRULES = ("a",)
SUMMARY = "Create a 0-loyalty blue Jace planeswalker token unless you control one, then put N loyalty counters on one."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "n"}

CITE = Citation(KEYWORD, "701.71a")
JACE = OracleCard("Jace Token", Layout.NORMAL, (Face("Jace Token", None, frozenset({"Planeswalker"}), ("Jace",),
                                                     text="[−1]: Surveil 1.\n[−3]: Draw a card.", kind=FaceKind.NORMAL),),
                  color_indicator=frozenset({"U"}), is_token=True)


def empower_jace(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> int:
    """``player`` empowers Jace ``n``; return the Jace token the counters went on."""
    with state.action(f"empower Jace {n}"):
        tokens = [c.id for c in state.permanents(player)
                  if c.is_token and "Planeswalker" in c.types and "Jace" in c.subtypes]
        if not tokens:
            token = state.add_card(JACE, player, ZoneKind.BATTLEFIELD)
            state.emit(EventKind.CREATE, player, (token,), destination="battlefield",
                       detail="a blue Jace planeswalker token with 0 loyalty", citation=CITE)
            tokens = [token]
        answer = decide(state, Decision.of(player, "empower Jace: choose a Jace planeswalker token you control", CITE,
                                           [Option(f"choose {state.cards[t].display_name}", t) for t in tokens]), choose)
        jace: int = answer.value
        if n > 0:
            state.add_counters(jace, "loyalty", n)
        state.emit(EventKind.COUNTER, player, (jace,), amount=n, detail=f"{n} loyalty counter(s)", citation=CITE)
    return jace


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "empower_jace", n = 2 }``."""
    empower_jace(run.state, player, int(step.get("n", 1)), choose=choose)
