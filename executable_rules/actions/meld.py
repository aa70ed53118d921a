"""Meld — CR 701.42 (701.42b–c; 701.42a out of reach)

Meld appears in an ability of one card of a meld pair: to meld the two cards,
they are put onto the battlefield back faces up and combined, one object
represented by two cards (Meld — CR 701.42a). Only the two cards of one meld
pair can be melded: not tokens, not cards that aren't meld cards, not meld
cards of different pairs (701.42b). Told to meld objects that can't be melded,
they stay in their current zone (701.42c) — an exiled token then ceases to
exist as a state-based action. The meld pair is read from the cards' Oracle
text: one says "(Melds with [the other].)", the other "meld them into [the
melded permanent]".

The model has one card per object, so a melded permanent (two cards, one
object) can't be made: :func:`meld` checks whether the objects can be melded
and, if they can, says the model can't do the rest.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> a = state.add_card(OracleCard.simple("Scavengers", "{4}{B}", "Creature", text="(Melds with Rats.)"), "Alice", ZoneKind.EXILE)
>>> b = state.add_card(OracleCard.simple("Bears", "{1}{G}", "Creature"), "Alice", ZoneKind.EXILE)
>>> meld(state, "Alice", [a, b])
False
>>> state.names(state.exile)
['Scavengers', 'Bears']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser
from ..citation import Citation
from ..errors import Unimplemented
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Meld"
KIND = "keyword action"
JAPANESE = ("合体する", "合体")
SUBRULES = ("b", "c")
SUMMARY = "Put the two cards of a meld pair onto the battlefield back faces up, combined into one permanent."
OUT_OF_REACH = {
    "a": "a melded permanent is one object represented by two cards; the model has one card per object "
         "(and the corpus gives the melded back face as a card of its own)",
}

STEP_KEYS = {"player", "cards", "zone"}


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.42{letter}")


def why_not(state: GameState, cards: Sequence[int]) -> str | None:
    """Why these objects can't be melded (701.42b), or ``None`` if they are the two cards of a meld pair."""
    if len(cards) != 2 or cards[0] == cards[1]:
        return "only two cards can be melded"
    one, other = (state.cards[c] for c in cards)
    for c in (one, other):
        if c.is_token:
            return f"{c.display_name} is a token"
    for first, second in ((one, other), (other, one)):
        partner = re.search(r"\(Melds with ([^)]+?)\.\)", first.oracle.text)
        if partner and partner.group(1) == second.oracle.name and "meld them into" in second.oracle.text:
            return None
    return f"{one.display_name} and {other.display_name} aren't the two cards of a meld pair"


def meld(state: GameState, player: str, cards: Sequence[int]) -> bool:
    """``player`` is told to meld ``cards``: ``False`` (they stay where they are, 701.42c) if they can't be melded."""
    reason = why_not(state, cards)
    if reason is not None:
        state.emit(EventKind.NOTHING, player, tuple(cards),
                   detail=f"can't be melded ({reason}): they stay in their current zone", citation=cite("c"))
        return False
    raise Unimplemented("meld: a melded permanent is one object of two cards, which the model can't represent "
                        "(Meld — CR 701.42a)")


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "meld", cards = ["A", "B"], zone = "exile" }``."""
    meld(run.state, player, [run.card(name, "cards", zone=step.get("zone")) for name in step.get("cards", [])])
