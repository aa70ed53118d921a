"""Proliferate — CR 701.34 (701.34a)

To proliferate, a player chooses any number of permanents and/or players that
have a counter, then gives each one an additional counter of each kind it
already has (Proliferate — CR 701.34a). Choosing none is allowed, and the player
has still proliferated. A permanent with both +1/+1 and -1/-1 counters (before
state-based actions remove them in pairs) gets one more of each. Players'
counters in the model are poison counters.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice", "Bob"])
>>> troll = state.add_card(OracleCard.simple("Troll", "{3}{G}", "Creature", power="0", toughness="0"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> state.add_counters(troll, "+1/+1", 2)
>>> state.player("Bob").poison = 3
>>> proliferate(state, "Alice", choose=Scripted(["proliferate Troll", "proliferate Bob"]))
['Troll', 'Bob']
>>> state.cards[troll].counters["+1/+1"], state.player("Bob").poison
(3, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Proliferate"
KIND = "keyword action"
JAPANESE = ("増殖を行う", "増殖")
SUBRULES = ("a",)
SUMMARY = "Choose any permanents and players with counters; give each one more counter of each kind it has."
OUT_OF_REACH = {
    "b": "the model has no Two-Headed Giant game: no team shares a poison count",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

STEP_KEYS = {"player"}
"""The keys of the scenario step ``do = "proliferate"``."""


def cite(letter: str = "a") -> Citation:
    return Citation(KEYWORD, f"701.34{letter}")


def proliferate(state: GameState, player: str, *, choose: Chooser = first_legal) -> list[str]:
    """``player`` proliferates; return the names of the permanents and players chosen, in the order asked."""
    chosen: list[str] = []
    with state.action("proliferate"):
        permanents = [c for c in state.permanents() if any(n > 0 for n in c.counters.values())]
        players = [p for p in state.players if p.poison > 0 and not p.lost]
        choices: list[tuple[str, Any]] = [(c.display_name, c.id) for c in permanents]
        choices += [(p.name, p.name) for p in players]
        picked: list[Any] = []
        for label, value in choices:
            answer = decide(state, Decision.of(player, f"proliferate: give {label} another counter of each kind?",
                                               cite(), [Option(f"proliferate {label}", True),
                                                        Option(f"skip {label}", False)]), choose)
            if answer.value:
                picked.append(value)
                chosen.append(label)
        for value in picked:
            if isinstance(value, str):
                p = state.player(value)
                state.set(p, "poison", p.poison + 1)
                state.emit(EventKind.COUNTER, player, names=(value,), detail=f"a poison counter ({p.poison})",
                           amount=1, citation=cite())
                continue
            kinds = sorted(k for k, n in state.cards[value].counters.items() if n > 0)
            for kind in kinds:
                state.add_counters(value, kind, 1)
            state.emit(EventKind.COUNTER, player, (value,), detail="one more " + ", ".join(kinds)
                       + (" counter" if len(kinds) == 1 else " counters, one of each"), amount=1, citation=cite())
        state.emit(EventKind.PROLIFERATE, player,
                   detail=f"proliferated ({', '.join(chosen) if chosen else 'nothing chosen'})", citation=cite())
    return chosen


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "proliferate", player = "you" }``."""
    proliferate(run.state, player, choose=choose)


# The expectation all_counters (every kind of counter on a permanent) is time_travel's EXPECT.
