"""Learn — CR 701.48 (701.48a)

"Learn" means "You may discard a card. If you do, draw a card. If you didn't
discard a card, you may reveal a Lesson card you own from outside the game and
put it into your hand" (Learn — CR 701.48a). So a player who learns does one
of three things: discard and draw, fetch a Lesson, or nothing. With no card in
hand only the Lesson (or nothing) is possible; with no Lesson outside the game,
only the rummage (or nothing).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> _ = state.add_card(OracleCard.simple("Lesson", "{1}", "Sorcery", subtypes=("Lesson",)), "Alice", ZoneKind.OUTSIDE)
>>> learn(state, "Alice", choose=Scripted(["put Lesson into your hand"]))
'lesson'
>>> state.names(state.player("Alice").hand)
['Lesson']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Learn"
KIND = "keyword action"
JAPANESE = ("履修を行う", "履修")
SUBRULES = ("a",)
SUMMARY = "Discard a card to draw a card, or put a Lesson card from outside the game into your hand, or neither."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}


def learn(state: GameState, player: str, *, choose: Chooser = first_legal) -> str:
    """``player`` learns; return what they did: ``"rummage"``, ``"lesson"`` or ``"nothing"``."""
    from .draw import draw
    cite = Citation(KEYWORD, "701.48a")
    p = state.player(player)
    lessons = [c for c in p.outside.cards if "Lesson" in state.cards[c].oracle.subtypes]
    options = [Option(f"discard {state.cards[c].display_name}, then draw", ("rummage", c)) for c in p.hand.cards]
    options += [Option(f"put {state.cards[c].display_name} into your hand", ("lesson", c)) for c in lessons]
    options.append(Option("don't discard and don't take a Lesson", ("nothing", None)))
    with state.action("learn"):
        answer = decide(state, Decision.of(player, "learn", cite, options), choose)
        what, card = answer.value
        if what == "rummage":
            name = state.cards[card].display_name
            state.move(card, p.graveyard)
            state.emit(EventKind.MOVE, player, (card,), names=(name,), source=p.hand.label,
                       destination=p.graveyard.label, detail="discarded to learn", citation=cite)
            draw(state, player, 1, choose=choose)
        elif what == "lesson":
            state.emit(EventKind.REVEAL, player, (card,), source=p.outside.label, citation=cite)
            state.move(card, p.hand)
            state.emit(EventKind.MOVE, player, (card,), source=p.outside.label, destination=p.hand.label,
                       detail="a Lesson card from outside the game", citation=cite)
        else:
            state.emit(EventKind.NOTHING, player, detail="learns: no discard, no Lesson", citation=cite)
    return str(what)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "learn" }``."""
    learn(run.state, player, choose=choose)
