"""Shuffle — CR 701.24 (701.24a–e, g)

To shuffle a library is to randomize it so that no player knows its order
(701.24a); the randomness comes from the game's seeded generator. Cards that
stay in the library but are to be put in a certain position afterwards (cards
a search found, "then shuffle and put that card on top") aren't in the
shuffle: the rest is shuffled and they go where they are told (701.24b).
An instruction to shuffle certain objects into a library shuffles it even if
none of them is where it was expected any more (701.24c) — Guile exiled in
response to its own trigger — or if there are no objects at all (701.24d) —
Loaming Shaman with no card targeted — or if a replacement effect puts the
object elsewhere: Black Sun's Zenith cast with flashback is exiled instead of
shuffled in, and the library is still shuffled. An empty or one-card library is still
shuffled, and abilities that trigger on a shuffle trigger (701.24e), as
Psychogenic Probe's ruling says. A shuffle at the same time as an object is put
into a certain position of that library leaves that object there and
randomizes the rest (701.24g): Darksteel Colossus shuffled in and Gravebane
Zombie put on top, both dying in one state-based action check, leave the Zombie
on top of a shuffled library.

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

from typing import TYPE_CHECKING, Any, Sequence

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState, ZoneKind

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Shuffle"
KIND = "keyword action"
JAPANESE = ("切り直す",)
SUBRULES = ("a", "b", "c", "d", "e", "g")
SUMMARY = "Randomize a library; an empty library can be shuffled and still triggers."
OUT_OF_REACH = {
    "f": "no two effects of the model shuffle one library at the same time, so there is no simultaneous shuffle "
         "to trigger twice",
}

STEP_KEYS = {"player", "keep_on_top"}
"""``do = "shuffle"``: ``player`` shuffles their library; ``keep_on_top = ["Shock"]``: those cards stay out of the
shuffle and are put on top (701.24b)."""


def shuffle(state: GameState, player: str, *, keep_on_top: Sequence[int] = (), at_once: bool = False) -> None:
    """``player`` shuffles their library; the cards of ``keep_on_top`` aren't shuffled but put on top (701.24b;
    ``at_once``: put there at the same time as the shuffle, 701.24g)."""
    library = state.player(player).library
    with state.action("shuffle"):
        rest = [c for c in library.cards if c not in keep_on_top]
        kept = [c for c in keep_on_top if c in library.cards]
        state.replace_list(library.cards, kept + state.random_order(rest))
        n = len(library)
        note = f"; {', '.join(state.cards[c].display_name for c in kept)} kept out of it, on top" if kept else ""
        state.emit(EventKind.SHUFFLE, player, source=library.label, detail=f"{n} card{'' if n == 1 else 's'}{note}",
                   citation=Citation(KEYWORD, ("701.24g" if at_once else "701.24b") if kept else "701.24e" if n <= 1
                                     else "701.24a"), amount=n)


def shuffle_into(state: GameState, player: str, cards: Sequence[int], *, expected: Sequence[ZoneKind] = ()) -> None:
    """``player`` shuffles ``cards`` into their owner's library (``player``'s): those still in a zone of
    ``expected`` (any zone when empty) move in; the library is shuffled even if none does (701.24c–d)."""
    library = state.player(player).library
    moved: list[int] = []
    replaced: list[int] = []
    for card in cards:
        zone = state.zone_of(card)
        if zone is library or (expected and zone.kind not in expected) or state.cards[card].owner != player:
            continue
        source = zone.label
        state.move(card, library)
        if state.zone_of(card) is not library:       # a replacement put it elsewhere (flashback: exiled instead)
            replaced.append(card)
            continue
        state.emit(EventKind.MOVE, player, (card,), source=source, destination=library.label, detail="to be shuffled in")
        moved.append(card)
    if replaced and not moved:
        state.emit(EventKind.NOTHING, player, source=library.label, detail="it went elsewhere instead: the library "
                   "is still shuffled", citation=Citation(KEYWORD, "701.24c"))
    elif not moved:
        why = ("none of them is where it was: the library is still shuffled" if cards
               else "there is no object to shuffle in: the library is still shuffled")
        state.emit(EventKind.NOTHING, player, source=library.label, detail=why,
                   citation=Citation(KEYWORD, "701.24c" if cards else "701.24d"))
    shuffle(state, player)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "shuffle" }`` or ``{ do = "shuffle", keep_on_top = ["Shock"] }``."""
    keep = [run.card(name, "keep_on_top", zone=f"{player}.library") for name in step.get("keep_on_top", [])]
    shuffle(run.state, player, keep_on_top=keep)
