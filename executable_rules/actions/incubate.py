"""Incubate — CR 701.53 (701.53a–b)

To incubate N, a player creates an Incubator token that enters the battlefield
with N +1/+1 counters on it (Incubate — CR 701.53a). An Incubator token is a
double-faced token: its front face is a colorless Incubator artifact with
"{2}: Transform this token."; its back face is a 0/0 colorless Phyrexian
artifact creature named Phyrexian Token (Incubate — CR 701.53b, Tokens — CR 111.10i).
Transforming it keeps it the same object, with its counters, so incubate 3
becomes a 3/3 Phyrexian (Transform — CR 701.27a). The back face has no
transform ability of its own.

Incubate 0 still creates the token, with no counters: the rule has no
exception for 0 (unlike endure, Endure — CR 701.63b); transformed, it is a
0/0 and dies as a state-based action.

>>> from executable_rules.model import GameState
>>> state = GameState.new(["you"])
>>> token = incubate(state, "you", 3)
>>> state.cards[token].name, state.cards[token].counters, state.cards[token].is_creature
('Incubator Token', {'+1/+1': 3}, False)
>>> transform_incubator(state, token)
True
>>> state.cards[token].name, state.cards[token].power, state.cards[token].toughness
('Phyrexian Token', 3, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ZoneKind
from ..tokens import INCUBATOR, PHYREXIAN

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Incubate"
KIND = "keyword action"
JAPANESE = ("培養",)
SUBRULES = ("a", "b")
SUMMARY = "Create an Incubator token with N +1/+1 counters; {2}: it transforms into a 0/0 Phyrexian artifact creature."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "n"}
"""The keys of the scenario step ``do = "incubate"`` (``n`` = N)."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.53{letter}")


def incubate(state: GameState, player: str, n: int, *, choose: Chooser = first_legal) -> int:
    """``player`` incubates ``n``; return the Incubator token."""
    if n < 0:
        raise ValueError(f"incubate {n}: N is a number of at least 0")
    with state.action(f"incubate {n}"):
        token = state.add_card(INCUBATOR, player, ZoneKind.BATTLEFIELD)
        if n:
            state.add_counters(token, "+1/+1", n)          # it enters with them: no counter is "put on" it later
        state.emit(EventKind.CREATE, player, (token,), destination="battlefield",
                   detail=f"an Incubator token with {n} +1/+1 counter(s) on it", citation=cite("a"))
        state.emit(EventKind.MOVE, player, (token,), destination="battlefield",
                   detail="a double-faced token enters with its front face up: a colorless Incubator artifact",
                   citation=cite("b"))
    return token


def is_incubator(state: GameState, card: int) -> bool:
    """Whether ``card`` is an Incubator token (either face up)."""
    return state.cards[card].oracle in (INCUBATOR, PHYREXIAN)


def transform_incubator(state: GameState, card: int) -> bool:
    """Turn an Incubator token to its other face; False (nothing happens) for anything else on the battlefield
    that isn't a double-faced token or card."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield or not is_incubator(state, card):
        return False
    other = PHYREXIAN if c.oracle is INCUBATOR else INCUBATOR
    state.set(c, "oracle", other)
    state.emit(EventKind.EFFECT, c.controller, (card,), detail=f"transforms into {other.name}, keeping its counters",
               citation=Citation("Transform", "701.27a"))
    return True


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "incubate", n = N }``."""
    incubate(run.state, player, int(step.get("n", 1)), choose=choose)


def _activated(state: GameState, player: str | None, expected: Any) -> dict[str, list[str]]:
    """``activated_abilities = { "Phyrexian Token" = [] }``: the activated abilities of the first permanent of that name."""
    found: dict[str, list[str]] = {}
    for name in expected:
        card = next((c for c in state.permanents() if c.display_name == name), None)
        found[name] = [] if card is None or card.face_down else [
            a.text for a in card.oracle.parsed.abilities if a.kind == "activated"]
    return found


EXPECT = {"activated_abilities": _activated}
