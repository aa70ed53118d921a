"""Bolster — CR 701.39 (701.39a)

"Bolster N" means "Choose a creature you control with the least toughness or
tied for least toughness among creatures you control. Put N +1/+1 counters on
that creature" (Bolster — CR 701.39a). The creature is chosen as bolster
happens (it isn't a target); among creatures tied for least toughness the
player chooses. A player who controls no creature puts no counters.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> ox = state.add_card(OracleCard.simple("Ox", "{3}{W}", "Creature", power="2", toughness="4"), "Alice", ZoneKind.BATTLEFIELD)
>>> lion = state.add_card(OracleCard.simple("Lion", "{1}{W}", "Creature", power="2", toughness="2"), "Alice", ZoneKind.BATTLEFIELD)
>>> bolster(state, "Alice", 2) == lion, state.cards[lion].counters
(True, {'+1/+1': 2})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Bolster"
KIND = "keyword action"
JAPANESE = ("鼓舞を行う", "鼓舞")
SUBRULES = ("a",)
SUMMARY = "Put N +1/+1 counters on a creature you control with the least toughness."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "n"}


def bolster(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> int | None:
    """``player`` bolsters ``n``; return the creature chosen (``None`` if they control no creature)."""
    from ..engine.layers import characteristics
    cite = Citation(KEYWORD, "701.39a")
    creatures = [(c.id, characteristics(state, c.id)) for c in state.permanents(player)]
    creatures = [(card, ch) for card, ch in creatures if "Creature" in ch.types and ch.toughness is not None]
    if not creatures:
        state.emit(EventKind.NOTHING, player, detail=f"bolster {n}: no creature to put counters on", citation=cite)
        return None
    least = min(ch.toughness or 0 for _, ch in creatures)
    with state.action(f"bolster {n}"):
        options = [Option(f"bolster {state.cards[card].display_name}", card, ch.toughness == least,
                          "" if ch.toughness == least else f"toughness {ch.toughness}, not the least ({least})",
                          None if ch.toughness == least else cite) for card, ch in creatures]
        answer = decide(state, Decision.of(player, f"bolster {n}: which creature with the least toughness ({least})",
                                           cite, options), choose)
        state.add_counters(answer.value, "+1/+1", n)
        state.emit(EventKind.COUNTER, player, (answer.value,), amount=n, detail=f"bolster {n}: {n} +1/+1 counter(s)",
                   citation=cite)
    return int(answer.value)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "bolster", n = 2 }``."""
    bolster(run.state, player, int(step.get("n", 1)), choose=choose)
