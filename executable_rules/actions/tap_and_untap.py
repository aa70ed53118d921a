"""Tap and Untap — CR 701.26 (701.26a–b)

To tap a permanent is to turn it sideways; only an untapped permanent can be
tapped (701.26a). To untap it is to turn it upright again; only a tapped
permanent can be untapped (701.26b). An effect told to tap a tapped permanent
(or untap an untapped one) does nothing to it, and nothing that triggers on
tapping triggers; a cost of tapping a tapped permanent can't be paid.

The engine taps and untaps through this module: ``{T}`` costs
(Activating Activated Abilities — CR 602.2b), the untap step
(Untap Step — CR 502.3), regeneration (Regenerate — CR 701.19a) and the
"tap target …" and "untap …" effects of cards, and the permanents tapped to pay
a cost: lands and other sources tapped for mana while a spell or ability is paid for
(:mod:`executable_rules.engine.mana`), creatures that convoke (Convoke — CR 702.51a)
or pay a waterbend cost (Waterbend — CR 701.67a). Each is one ``tap`` event, so an
ability that triggers on tapping sees them all.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> tap(state, "Alice", bears), tap(state, "Alice", bears)
(True, False)
>>> state.events[-1].describe()
'Alice: note Grizzly Bears — already tapped: only an untapped permanent can be tapped (Tap and Untap — CR 701.26a)'
>>> untap(state, "Alice", bears), state.cards[bears].tapped
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Tap and Untap"
KIND = "keyword action"
JAPANESE = ("タップする、アンタップする", "タップ", "アンタップ", "タップする", "アンタップする")
SUBRULES = ("a", "b")
SUMMARY = "Turn a permanent sideways (only if untapped) or upright again (only if tapped)."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"card", "player", "untap"}
"""``do = "tap_and_untap"``: ``card`` (a permanent), ``untap = true`` to untap it; told to do what can't be done,
it does nothing (an effect). The scenario step ``do = "tap"`` is a cost: it is refused for a tapped permanent."""


def tap(state: GameState, player: str | None, card: int, *, detail: str = "", citation: Citation | None = None) -> bool:
    """Tap the permanent ``card``; return whether it was tapped (an already tapped one isn't: 701.26a)."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield:
        return False
    if c.tapped:
        state.emit(EventKind.NOTHING, player, (card,),
                   detail="already tapped: only an untapped permanent can be tapped", citation=Citation(KEYWORD, "701.26a"))
        return False
    state.set(c, "tapped", True)
    state.emit(EventKind.TAP, player, (card,), detail=detail, citation=citation or Citation(KEYWORD, "701.26a"))
    return True


def untap(state: GameState, player: str | None, card: int, *, detail: str = "",
          citation: Citation | None = None) -> bool:
    """Untap the permanent ``card``; return whether it was untapped (an untapped one isn't: 701.26b)."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield:
        return False
    if not c.tapped:
        state.emit(EventKind.NOTHING, player, (card,),
                   detail="already untapped: only a tapped permanent can be untapped", citation=Citation(KEYWORD, "701.26b"))
        return False
    state.set(c, "tapped", False)
    state.emit(EventKind.UNTAP, player, (card,), detail=detail, citation=citation or Citation(KEYWORD, "701.26b"))
    return True


def tap_as_cost(state: GameState, player: str, card: int, action: str, *, detail: str = "",
                citation: Citation | None = None) -> None:
    """Tap ``card`` to pay a cost — a ``{T}`` cost, a land tapped for mana while a spell is paid for, a creature
    convoking; a tapped permanent can't pay it (:class:`IllegalChoice`, 701.26a)."""
    if state.cards[card].tapped:
        raise IllegalChoice(action, f"{state.cards[card].display_name} is already tapped: only an untapped permanent "
                            "can be tapped", Citation(KEYWORD, "701.26a"))
    tap(state, player, card, detail=detail, citation=citation)


def tap_and_untap(state: GameState, player: str | None, card: int, *, untap_it: bool = False) -> bool:
    """Tap ``card`` (or untap it, with ``untap_it``); return whether it changed."""
    return untap(state, player, card) if untap_it else tap(state, player, card)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "tap_and_untap", card = "Grizzly Bears", untap = true }``."""
    tap_and_untap(run.state, player, run.card(step["card"]), untap_it=bool(step.get("untap")))
