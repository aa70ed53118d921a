"""Endure — CR 701.63 (701.63a–b)

To have a permanent endure N, its controller creates an N/N white Spirit
creature token unless they put N +1/+1 counters on that permanent (Endure — CR 701.63a).
Read as written, a permanent that has left the battlefield can't have counters put
on it, so its controller (as it last existed) creates the Spirit. Endure 0 does
nothing: no counters, no token (Endure — CR 701.63b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> endure(state, bears, 2, choose=Scripted(["put 2 +1/+1 counters on Grizzly Bears"])), state.cards[bears].counters
('counters', {'+1/+1': 2})
>>> token = endure(state, bears, 1, choose=Scripted(["create a 1/1 white Spirit creature token"]))
>>> token, [c.name for c in state.permanents()]
('token', ['Grizzly Bears', 'Spirit Token'])
>>> endure(state, bears, 0)
'nothing'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ZoneKind
from ..tokens import creature_token

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Endure"
KIND = "keyword action"
JAPANESE = ("闘魂を行う", "闘魂")
SUBRULES = ("a", "b")
SUMMARY = "Put N +1/+1 counters on the permanent, or else its controller creates an N/N white Spirit creature token."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "permanent", "n"}
"""``do = "endure"``: ``permanent`` endures ``n``."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.63{letter}")


def endure(state: GameState, permanent: int, n: int, *,
           choose: Chooser = first_legal) -> Literal["counters", "token", "nothing"]:
    """``permanent`` endures ``n``; return what its controller did."""
    c = state.cards[permanent]
    on_battlefield = state.zone_of(permanent) is state.battlefield
    known = state.last_known.get(permanent)
    controller = (c.controller or c.owner) if on_battlefield else (known.controller if known else c.owner)
    with state.action(f"endure {n}"):
        if n <= 0:
            state.emit(EventKind.NOTHING, controller, (permanent,), detail="endure 0: nothing happens",
                       citation=cite("b"))
            return "nothing"
        name = c.display_name
        counters_ok = on_battlefield
        options = [Option(f"put {n} +1/+1 counters on {name}", "counters", counters_ok,
                          "" if counters_ok else f"{name} isn't on the battlefield: no counters can be put on it",
                          Citation("Zones", "400.7")),
                   Option(f"create a {n}/{n} white Spirit creature token", "token")]
        answer = decide(state, Decision.of(controller, f"endure {n}: counters on {name} or a Spirit token", cite("a"),
                                           options), choose)
        if answer.value == "counters":
            state.add_counters(permanent, "+1/+1", n)
            state.emit(EventKind.COUNTER, controller, (permanent,), amount=n, detail=f"{n} +1/+1 counter(s)",
                       citation=cite("a"))
            return "counters"
        token = state.add_card(creature_token("Spirit Token", ("Spirit",), n, n, "W"), controller, ZoneKind.BATTLEFIELD)
        state.emit(EventKind.CREATE, controller, (token,), destination="battlefield",
                   detail=f"a {n}/{n} white Spirit creature token", citation=cite("a"))
    return "token"


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "endure", permanent = "Grizzly Bears", n = 2 }``."""
    endure(run.state, run.ref(str(step["permanent"]), "permanent").card, int(step.get("n", 1)), choose=choose)
