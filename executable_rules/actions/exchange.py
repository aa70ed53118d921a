"""Exchange — CR 701.12 (701.12a–c, e)

An exchange happens whole or not at all: if the entire exchange can't be
completed as the spell or ability resolves, no part of it happens (701.12a) —
Switcheroo with one of its two targets gone does nothing to the other.
Exchanging control of two permanents controlled by different players makes
each of those players gain control of the other's permanent at the same time;
if one player controls both, nothing happens (701.12b). Exchanging life
totals makes each player gain or lose the life needed to end at the other's
previous total (701.12c): it is life gained and lost, so "whenever you gain
life" abilities trigger. A card exchanged with a card in another zone stops
being attached to what it was attached to, and the other card becomes attached
to it (701.12e): aura swap's exchange of an Aura with an Aura card in hand
(Aura Swap — CR 702.65a, :func:`executable_rules.actions.aura_swap.exchange`).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> bear = OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2")
>>> a = state.add_card(bear, "Alice", ZoneKind.BATTLEFIELD)
>>> b = state.add_card(bear, "Bob", ZoneKind.BATTLEFIELD)
>>> exchange_control(state, "Alice", a, b), state.cards[a].controller, state.cards[b].controller
(True, 'Bob', 'Alice')
>>> state.player("Bob").life = 7
>>> exchange_life_totals(state, "Alice", "Bob"), state.player("Alice").life, state.player("Bob").life
(True, 7, 20)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Exchange"
KIND = "keyword action"
JAPANESE = ("交換する", "交換")
SUBRULES = ("a", "b", "c", "e")
SUMMARY = "Swap control of two permanents or two life totals, all of it or none of it."
OUT_OF_REACH = {
    "d": "the model's only exchange between zones is aura swap (Aura Swap — CR 702.65a), which always needs a card in "
         "each zone, so \"even if one zone is empty\" has nothing to run on (its same-owner requirement is run as "
         "702.65b's example)",
    "f": "no card of the model exchanges two zones",
    "g": "no card of the model exchanges two numerical values such as a life total and a creature's power",
    "h": "text-changing effects (Text-Changing Effects — CR 612) aren't modelled, so Exchange of Words can't run",
}

STEP_KEYS = {"player", "control", "life"}
"""``do = "exchange"``: ``control = ["Grizzly Bears", "Hill Giant"]`` exchanges control of those permanents;
``life = ["you", "opponent"]`` exchanges those players' life totals."""


def exchange_control(state: GameState, player: str, first: int | None, second: int | None) -> bool:
    """``player``'s effect exchanges control of ``first`` and ``second`` (``None``: a target that is gone);
    return whether the exchange happened."""
    gone = [c for c in (first, second) if c is None or state.zone_of(c) is not state.battlefield]
    if gone:
        state.emit(EventKind.NOTHING, player, tuple(c for c in (first, second) if c is not None),
                   detail="the entire exchange can't be completed: no part of it happens", citation=Citation(KEYWORD, "701.12a"))
        return False
    assert first is not None and second is not None
    a, b = state.cards[first], state.cards[second]
    if a.controller == b.controller:
        state.emit(EventKind.NOTHING, player, (first, second),
                   detail=f"{a.controller} controls both: the exchange does nothing", citation=Citation(KEYWORD, "701.12b"))
        return False
    was_a, was_b = a.controller, b.controller
    with state.action("exchange control"):
        state.set(a, "controller", was_b)
        state.set(b, "controller", was_a)
        state.emit(EventKind.CONTROL, player, (first, second),
                   detail=f"control exchanged: {was_b} now controls {a.display_name}, {was_a} {b.display_name}",
                   citation=Citation(KEYWORD, "701.12b"))
    return True


def exchange_life_totals(state: GameState, first: str, second: str) -> bool:
    """``first`` and ``second`` exchange life totals; return whether anything changed."""
    from ..instructions import gain_life, lose_life
    before = {first: state.player(first).life, second: state.player(second).life}
    if before[first] == before[second]:
        state.emit(EventKind.NOTHING, first, detail=f"{first} and {second} both have {before[first]} life: nothing changes",
                   citation=Citation(KEYWORD, "701.12c"))
        return False
    with state.action("exchange life totals"):
        for player, other in ((first, second), (second, first)):
            change = before[other] - before[player]
            detail = f"exchanging life totals with {other} (Exchange — CR 701.12c)"
            if change > 0:
                gain_life(state, player, change, detail=detail)
            else:
                lose_life(state, player, -change, detail=detail)
    return True


def exchange(state: GameState, player: str, first: int | None, second: int | None) -> bool:
    """The action by its name: exchange control of two permanents (:func:`exchange_control`)."""
    return exchange_control(state, player, first, second)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "exchange", control = ["Grizzly Bears", "Hill Giant"] }`` or ``{ do = "exchange", life = [...] }``."""
    if "life" in step:
        first, second = (run.player({"player": p}) for p in step["life"])
        exchange_life_totals(run.state, first, second)
        return
    first_card, second_card = (run.card(name, "control") for name in step["control"])
    exchange_control(run.state, player, first_card, second_card)
