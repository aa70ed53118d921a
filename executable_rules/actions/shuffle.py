"""Shuffle — CR 701.24 (701.24a, 701.24e)

To shuffle a library is to randomize it so that no player knows its order
(701.24a); the randomness comes from the game's seeded generator. An empty or
one-card library is still shuffled, and abilities that trigger on a shuffle
trigger (701.24e), as Psychogenic Probe's ruling says. Cards a search found
are moved before this is called, so they are not in the shuffle (701.24b).

Discover's "random order" is not a shuffle: it logs a ``random order`` event,
never a ``shuffle`` one, so "whenever … shuffle" abilities don't see it.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"], seed=3)
>>> for n in "ABCDE":
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Artifact"), "Alice", ZoneKind.LIBRARY)
>>> shuffle(state, "Alice")
>>> sorted(state.names(state.player("Alice").library)), state.events[-1].describe()
(['A', 'B', 'C', 'D', 'E'], "Alice: shuffle Alice's library — 5 cards (Shuffle — CR 701.24a)")
"""

from __future__ import annotations

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Shuffle"
KIND = "keyword action"
JAPANESE = ("切り直す",)
SUBRULES = ("a", "e")
SUMMARY = "Randomize a library; an empty library can be shuffled and still triggers."


def shuffle(state: GameState, player: str) -> None:
    """``player`` shuffles their library."""
    library = state.player(player).library
    with state.action("shuffle"):
        state.replace_list(library.cards, state.random_order(library.cards))
        n = len(library)
        state.emit(EventKind.SHUFFLE, player, source=library.label, detail=f"{n} card{'' if n == 1 else 's'}",
                   citation=Citation(KEYWORD, "701.24e" if n <= 1 else "701.24a"), amount=n)
