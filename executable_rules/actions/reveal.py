"""Reveal — CR 701.20 (701.20a–b)

To reveal a card is to show it to all players for a brief time (701.20a);
revealing a card doesn't make it leave its zone (701.20b). Revealed cards in a
library or hand stay in a hidden zone (Zones — CR 400.2), which matters to a
search (Search — CR 701.23b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> shock = state.add_card(OracleCard.simple("Shock", "{R}", "Instant"), "Alice", ZoneKind.LIBRARY)
>>> reveal(state, "Alice", [shock])
>>> state.events[-1].describe(), state.zone_of(shock).label
("Alice: reveal Shock from Alice's library (Reveal — CR 701.20a)", "Alice's library")
"""

from __future__ import annotations

from typing import Sequence

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Reveal"
KIND = "keyword action"
JAPANESE = ("公開する",)
SUBRULES = ("a", "b")
SUMMARY = "Show cards to all players; they stay where they are."
OUT_OF_REACH = {
    "c": "the model keeps no lasting revealed state (Telepathy's \"play with their hands revealed\") and no "
         "additional cost of revealing a card (Silvergill Adept), so the example of 701.20c can't be set up",
    "d": "the model keeps no lasting revealed state, so there is nothing for a shuffle to end",
    "e": "looking at cards is logged (a look event) but the model doesn't track which player knows which card",
}


def reveal(state: GameState, player: str, cards: Sequence[int], *, detail: str = "") -> None:
    """``player`` reveals ``cards`` (which stay in their zone)."""
    if not cards:
        return
    with state.action("reveal"):
        state.emit(EventKind.REVEAL, player, cards, source=state.zone_of(cards[0]).label, detail=detail,
                   citation=Citation(KEYWORD, "701.20a"))
