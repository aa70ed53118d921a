"""Manifest Dread — CR 701.62 (701.62a–b)

"Manifest dread" means "Look at the top two cards of your library. Manifest
one of them, then put the cards you looked at that were not manifested this
way into your graveyard." (701.62a; see Manifest — CR 701.40). With one card
in the library that card is manifested; with none, nothing happens. Read as
written, a card that couldn't be manifested (Manifest — CR 701.40f) was "not
manifested this way", so it goes to the graveyard too. A player has
manifested dread once this is done, even if some or all of it was impossible,
and "whenever you manifest dread" abilities trigger then (701.62b).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> for n in ("Grizzly Bears", "Shock"):
...     _ = state.add_card(OracleCard.simple(n, "{1}", "Creature" if n == "Grizzly Bears" else "Instant"),
...                        "Alice", ZoneKind.LIBRARY)
>>> _ = manifest_dread(state, "Alice")
>>> state.names(state.battlefield), state.names(state.player("Alice").graveyard)
(['face-down card [Grizzly Bears]'], ['Shock'])
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from .manifest import manifest

KEYWORD = "Manifest Dread"
KIND = "keyword action"
JAPANESE = ("戦慄予示", "戦慄予示する")
SUBRULES = ("a", "b")
SUMMARY = "Look at the top two cards, manifest one, put the other into the graveyard."
OUT_OF_REACH: dict[str, str] = {}
"""Every subrule of the rule is run by the model."""


def manifest_dread(state: GameState, player: str, *, choose: Chooser = first_legal) -> int | None:
    """``player`` manifests dread; return the card manifested, if any."""
    p = state.player(player)
    manifested: int | None = None
    with state.action("manifest dread"):
        looked = list(p.library.cards[:2])
        if looked:
            state.emit(EventKind.LOOK, player, looked, source=p.library.label, detail=f"the top {len(looked)}",
                       citation=Citation(KEYWORD, "701.62a"))
            answer = decide(state, Decision.of(player, "manifest which card", Citation(KEYWORD, "701.62a"),
                                               [Option(f"manifest {state.cards[c].oracle.name}", c) for c in looked]),
                            choose)
            done = manifest(state, player, [answer.value])
            manifested = done[0] if done else None
        else:
            state.emit(EventKind.NOTHING, player, source=p.library.label, detail="the library is empty: nothing to look at",
                       citation=Citation(KEYWORD, "701.62b"))
        rest = [c for c in looked if c != manifested]
        for card in rest:
            state.move(card, p.graveyard)
        if rest:
            state.emit(EventKind.MOVE, player, rest, source=p.library.label, destination=p.graveyard.label,
                       detail="the cards looked at and not manifested", citation=Citation(KEYWORD, "701.62a"))
        state.emit(EventKind.MANIFEST_DREAD, player, rest, detail=f"{player} has manifested dread",
                   citation=Citation(KEYWORD, "701.62b"))
    return manifested
