"""Mill — CR 701.17 (701.17a–b)

To mill N cards, a player puts that many cards from the top of their library
into their graveyard (701.17a); with fewer cards in the library they mill as
many as possible (701.17b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> for n in ("A", "B"):
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Alice", ZoneKind.LIBRARY)
>>> [state.cards[c].name for c in mill(state, "Alice", 3)]
['A', 'B']
>>> state.events[-1].describe()
"Alice: mill A, B from Alice's library to Alice's graveyard — 2 of 3: as many as possible (Mill — CR 701.17b)"
"""

from __future__ import annotations

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Mill"
KIND = "keyword action"
JAPANESE = ("切削する", "切削")
SUBRULES = ("a", "b")
SUMMARY = "Put the top N cards of a library into its owner's graveyard, as many as there are."
OUT_OF_REACH = {
    "c": "no effect the grammar reads refers back to \"the milled card\" to find it in the zone it went to",
    "d": "no replacement effect of the model makes a player mill more cards than a single-card mill asks for, "
         "so a question about \"the milled card\" never has several answers",
}


def mill(state: GameState, player: str, n: int, *, detail: str = "") -> list[int]:
    """``player`` mills ``n`` cards; return the milled cards (top first)."""
    p = state.player(player)
    milled = list(p.library.cards[:n])
    taken = len(milled)
    with state.action(f"mill {n}"):
        for card in milled:
            state.move(card, p.graveyard)
        # A replacement effect may have sent some elsewhere (Darksteel Colossus): they weren't milled there.
        milled = [c for c in milled if state.zone_of(c) is p.graveyard]
        names = [state.cards[c].display_name for c in milled]
        short = taken < n
        note = f"{len(milled)} of {n}: as many as possible" if short else ""
        state.emit(EventKind.MILL, player, milled, names=names, source=p.library.label, destination=p.graveyard.label,
                   detail="; ".join(x for x in (detail, note) if x),
                   citation=Citation(KEYWORD, "701.17b" if short else "701.17a"), amount=len(milled))
    return milled
