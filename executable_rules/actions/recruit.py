"""Recruit — CR 701.70 (701.70a)

"Recruit" means "Draw a card, then discard a card. If you discarded a nonland
card this way, create a 1/1 white Human Soldier creature token." (Recruit — CR 701.70a)
With an empty hand after the draw nothing is discarded, so no token; a land
discarded makes none either.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> _ = state.add_card(OracleCard.simple("Shock", "{R}", "Instant"), "you", ZoneKind.LIBRARY)
>>> token = recruit(state, "you")
>>> state.cards[token].name, state.names(state.player("you").graveyard)
('Human Soldier Token', ['Shock'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ZoneKind
from ..tokens import creature_token
from .draw import draw

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Recruit"
KIND = "keyword action"
JAPANESE: tuple[str, ...] = ()
"""Recruit is new in the 20260925 CR: the Japanese CR we hold (20260116) has no name for it yet."""
SUBRULES = ("a",)
SUMMARY = "Draw a card, then discard a card; a nonland card discarded makes a 1/1 white Human Soldier."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player"}

CITE = Citation(KEYWORD, "701.70a")
HUMAN_SOLDIER = creature_token("Human Soldier Token", ("Human", "Soldier"), 1, 1, "W")


def recruit(state: GameState, player: str, *, choose: Chooser = first_legal) -> int | None:
    """``player`` recruits; return the Human Soldier token, if one was made."""
    p = state.player(player)
    with state.action("recruit"):
        draw(state, player, 1, choose=choose)
        if not p.hand.cards:
            state.emit(EventKind.NOTHING, player, detail="no card to discard: no token", citation=CITE)
            return None
        answer = decide(state, Decision.of(player, "recruit: discard a card", CITE,
                                           [Option(f"discard {state.cards[c].display_name}", c) for c in p.hand.cards]),
                        choose)
        card: int = answer.value
        name = state.cards[card].display_name
        land = state.cards[card].is_land
        state.move(card, p.graveyard)
        state.emit(EventKind.MOVE, player, (card,), names=(name,), source=p.hand.label, destination=p.graveyard.label,
                   detail="discarded", citation=CITE)
        if land:
            state.emit(EventKind.NOTHING, player, detail="a land card was discarded: no token", citation=CITE)
            return None
        token = state.add_card(HUMAN_SOLDIER, player, ZoneKind.BATTLEFIELD)
        state.emit(EventKind.CREATE, player, (token,), destination="battlefield",
                   detail="a nonland card was discarded: a 1/1 white Human Soldier creature token", citation=CITE)
    return token


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "recruit" }``."""
    recruit(run.state, player, choose=choose)
