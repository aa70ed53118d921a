"""Time Travel — CR 701.56 (701.56a)

To time travel, a player chooses any number of permanents they control with one
or more time counters on them and/or suspended cards they own in exile with one
or more time counters on them, and for each puts a time counter on it or removes
one from it (Time Travel — CR 701.56a). A card is suspended if it's in exile, has
suspend and has a time counter on it (Suspend — CR 702.62b): a card in exile with
time counters but without suspend isn't, and can't be chosen; nor can an
opponent's permanent, or a suspended card someone else owns.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["you"])
>>> bolt = state.add_card(OracleCard.simple("Rift Bolt", "{2}{R}", "Sorcery", text="Suspend 1—{R}"), "you", ZoneKind.EXILE)
>>> state.add_counters(bolt, "time", 1)
>>> time_travel(state, "you", choose=Scripted(["remove a time counter from Rift Bolt"]))
{'Rift Bolt': -1}
>>> state.cards[bolt].counters
{'time': 0}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from .suspend import is_suspended  # Suspend — CR 702.62b: what "suspended" means

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Time Travel"
KIND = "keyword action"
JAPANESE = ("タイムトラベルを行う", "タイムトラベル")
SUBRULES = ("a",)
SUMMARY = "For any number of your permanents and suspended cards with time counters, add or remove a time counter."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}
"""``do = "time_travel"``; the decisions say, object by object, what to do."""

CITE = Citation(KEYWORD, "701.56a")


def time_travel_candidates(state: GameState, player: str) -> list[int]:
    """What ``player`` may choose: permanents they control and suspended cards they own, each with a time counter."""
    permanents = [c.id for c in state.permanents(player) if c.counters.get("time", 0) > 0]
    suspended = [c for c in state.exile.cards if state.cards[c].owner == player and is_suspended(state, c)]
    return permanents + suspended


def time_travel(state: GameState, player: str, *, choose: Chooser = first_legal) -> dict[str, int]:
    """``player`` time travels; return {name: +1 or -1} for each object changed."""
    changed: dict[str, int] = {}
    with state.action("time travel"):
        for card in time_travel_candidates(state, player):
            name = state.cards[card].display_name
            answer = decide(state, Decision.of(player, f"time travel: {name} has "
                                               f"{state.cards[card].counters['time']} time counter(s)", CITE, [
                Option(f"put a time counter on {name}", 1), Option(f"remove a time counter from {name}", -1),
                Option(f"leave {name} alone", 0)]), choose)
            if answer.value:
                state.add_counters(card, "time", answer.value)
                state.emit(EventKind.COUNTER, player, (card,), amount=answer.value,
                           detail=("a time counter put on it" if answer.value > 0 else "a time counter removed from it")
                           + f": {state.cards[card].counters['time']} now", citation=CITE)
                changed[name] = answer.value
        state.emit(EventKind.NOTHING, player, detail=f"{player} has time traveled", citation=CITE)
    return changed


def run_step(run: ScenarioRun, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "time_travel" }``."""
    time_travel(run.state, player, choose=choose)


def _counters(state: GameState, player: str | None, expected: Any) -> dict[str, dict[str, int]]:
    """``all_counters = { "Rift Bolt" = { time = 2 } }``: every kind of counter on the first card of that name on
    the battlefield or in exile (kinds with none left out)."""
    found: dict[str, dict[str, int]] = {}
    for name in expected:
        card = next((c for z in (state.battlefield, state.exile) for c in z.cards
                     if name in (state.cards[c].display_name, state.cards[c].oracle.name)), None)
        found[name] = {} if card is None else {k: v for k, v in state.cards[card].counters.items() if v}
    return found


EXPECT = {"all_counters": _counters}
