"""Connive — CR 701.50 (701.50a–f)

To connive, a permanent's controller draws a card, then discards a card; if a
nonland card was discarded this way, they put a +1/+1 counter on the conniving
permanent (Connive — CR 701.50a). If the permanent has left the battlefield, its
last known information says which object connived and who controlled it: that
player draws and discards, and no counter is put on anything (701.50b). When
several permanents connive at once, players in APNAP order each choose one of
theirs to connive next (701.50c). Connive N is drawing N, discarding N and a
counter for each nonland card discarded (701.50d); connive 0 is no connive
event at all (701.50e). A permanent connives once this is done, even if some or
all of it was impossible (701.50f): a player with no card to discard has still
connived.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> rogue = state.add_card(OracleCard.simple("Rogue", "{U}", "Creature", power="1", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> _ = state.add_card(OracleCard.simple("Shock", "{R}", "Instant"), "Alice", ZoneKind.LIBRARY)
>>> connive(state, state.ref(rogue), choose=Scripted(["discard Shock"]))
1
>>> state.cards[rogue].counters, state.names(state.player("Alice").graveyard)
({'+1/+1': 1}, ['Shock'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ObjectRef

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Connive"
KIND = "keyword action"
JAPANESE = ("謀議",)
SUBRULES = ("a", "b", "c", "d", "e", "f")
SUMMARY = "Draw a card, then discard a card; a nonland card discarded puts a +1/+1 counter on the conniver."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"permanent", "permanents", "n"}
"""The keys of the scenario step ``do = "connive"`` (``n`` for connive N)."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.50{letter}")


def _controller(state: GameState, permanent: ObjectRef) -> str:
    """The current controller, or the last one if the permanent has left (701.50b)."""
    if state.is_current(permanent) and state.zone_of(permanent.card) is state.battlefield:
        return state.controller_of(permanent.card)
    known = state.last_known.get(permanent.card)
    if known is None:
        raise ValueError(f"{state.cards[permanent.card]!r} was never on the battlefield, so it can't connive")
    return known.controller


def _connive_one(state: GameState, permanent: ObjectRef, n: int, choose: Chooser) -> int:
    from .draw import draw
    player = _controller(state, permanent)
    name = state.cards[permanent.card].display_name
    letter = "a" if n == 1 else "d"
    draw(state, player, n, choose=choose)
    hand = state.player(player).hand
    nonland = 0
    for i in range(n):
        if not hand.cards:
            state.emit(EventKind.NOTHING, player, detail="no card left to discard", citation=cite("f"))
            break
        answer = decide(state, Decision.of(player, f"{name} connives: discard a card"
                                           + (f" ({i + 1} of {n})" if n > 1 else ""), cite(letter),
                                           [Option(f"discard {state.cards[c].display_name}", c) for c in hand.cards]),
                        choose)
        card = answer.value
        discarded = state.cards[card].display_name
        if not state.cards[card].is_land:
            nonland += 1
        state.move(card, state.player(player).graveyard)
        state.emit(EventKind.MOVE, player, (card,), names=(discarded,), source=hand.label,
                   destination=state.player(player).graveyard.label, detail="discarded", citation=cite(letter))
    on_battlefield = state.is_current(permanent) and state.zone_of(permanent.card) is state.battlefield
    if nonland and on_battlefield:
        state.add_counters(permanent.card, "+1/+1", nonland)
        state.emit(EventKind.COUNTER, player, (permanent.card,), amount=nonland,
                   detail=f"{nonland} +1/+1 counter(s): {nonland} nonland card(s) discarded", citation=cite(letter))
    elif nonland:
        state.emit(EventKind.NOTHING, player, names=(name,),
                   detail="it has left the battlefield: no +1/+1 counter is put on anything", citation=cite("b"))
    state.emit(EventKind.CONNIVE, player, (permanent.card,), names=(name,), amount=n,
               detail=f"{name} has connived" + ("" if on_battlefield else " (last known information)"),
               citation=cite("f"))
    return nonland if on_battlefield else 0


def connive(state: GameState, permanents: ObjectRef | Sequence[ObjectRef], n: int = 1, *,
            choose: Chooser = first_legal) -> int:
    """Each of ``permanents`` connives ``n`` (several at once: in the order of 701.50c); return the +1/+1
    counters put."""
    remaining = [permanents] if isinstance(permanents, ObjectRef) else list(permanents)
    if n <= 0:
        state.emit(EventKind.NOTHING, None, names=tuple(state.cards[r.card].display_name for r in remaining),
                   detail="connive 0: no connive event", citation=cite("e"))
        return 0
    placed = 0
    with state.action("connive"):
        while remaining:
            if len(remaining) == 1:
                placed += _connive_one(state, remaining.pop(), n, choose)
                continue
            for p in state.apnap():                                      # 701.50c
                mine = [r for r in remaining if _controller(state, r) == p.name]
                if mine:
                    answer = decide(state, Decision.of(p.name, "which permanent connives next", cite("c"), [
                        Option(f"{state.cards[r.card].display_name} connives", r) for r in mine]), choose)
                    remaining.remove(answer.value)
                    placed += _connive_one(state, answer.value, n, choose)
                    break
    return placed


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "connive", permanent = "Name", n = 1 }`` (or ``permanents = [...]``)."""
    names = step.get("permanents") or [step["permanent"]]
    refs = [run.ref(name, "permanent") for name in names]
    connive(run.state, refs if len(refs) > 1 else refs[0], int(step.get("n", 1)), choose=choose)
