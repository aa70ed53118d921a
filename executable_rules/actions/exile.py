"""Exile — CR 701.13 (701.13a)

To exile an object is to move it to the exile zone from wherever it is
(701.13a). Exiled cards are face up unless an effect says otherwise.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> mine = state.add_card(OracleCard.simple("Howling Mine", "{2}", "Artifact"), "Alice", ZoneKind.BATTLEFIELD)
>>> exile(state, "Alice", mine)
>>> state.names(state.exile), state.cards[mine].controller
(['Howling Mine'], None)
"""

from __future__ import annotations

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Exile"
KIND = "keyword action"
JAPANESE = ("追放する",)
SUBRULES = ("a",)
SUMMARY = "Move an object to the exile zone."
OUT_OF_REACH: dict[str, str] = {}


def exile(state: GameState, player: str, card: int, *, detail: str = "") -> None:
    """``player`` exiles ``card`` from wherever it is."""
    source = state.zone_of(card).label
    name = state.cards[card].display_name
    with state.action(f"exile {name}"):
        state.move(card, state.exile)
        state.emit(EventKind.EXILE, player, (card,), names=(name,), source=source, destination="exile",
                   detail=detail, citation=Citation(KEYWORD, "701.13a"))
