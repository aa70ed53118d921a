"""Exile — CR 701.13 (701.13a)

To exile an object is to move it to the exile zone from wherever it is
(701.13a). Exiled cards are face up unless an effect says otherwise.

"Exile [it] until ~ leaves the battlefield" (Portable Hole, Banishing Light) is a one-shot effect that returns
the card when that permanent leaves: :func:`exile_until_leaves` exiles it and links it to the permanent, and
:func:`return_when_source_leaves` (an engine watcher) returns it to the battlefield under its owner's control as
soon as the permanent has left (One-Shot Effects — CR 610.3, 610.3c); if the permanent has already left as the
ability resolves, nothing is exiled (610.3c).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> mine = state.add_card(OracleCard.simple("Howling Mine", "{2}", "Artifact"), "Alice", ZoneKind.BATTLEFIELD)
>>> exile(state, "Alice", mine)
>>> state.names(state.exile), state.cards[mine].controller
(['Howling Mine'], None)
"""

from __future__ import annotations

from ..citation import Citation
from ..model import Event, EventKind, GameState, ObjectRef

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


def exile_until_leaves(state: GameState, player: str, card: int, source: ObjectRef, source_name: str) -> None:
    """``player`` exiles ``card`` until the permanent ``source`` leaves the battlefield (610.3)."""
    if not state.is_current(source) or state.zone_of(source.card) is not state.battlefield:
        state.emit(EventKind.NOTHING, player, (card,), detail=f"{source_name} has already left the battlefield: "
                   "nothing is exiled", citation=Citation("One-Shot Effects", "610.3c"))
        return
    exile(state, player, card, detail=f"until {source_name} leaves the battlefield")
    state.append(state.exiled_until, (source, state.ref(card)))


def return_when_source_leaves(state: GameState, event: Event) -> None:
    """Watch for the permanents of :func:`exile_until_leaves` leaving the battlefield: each card exiled until then
    returns to the battlefield under its owner's control (610.3); a card that has left exile stays where it is."""
    if event.kind is not EventKind.MOVE or event.source != "battlefield" or not state.exiled_until:
        return
    for source, exiled in list(state.exiled_until):
        if source.card not in event.cards or state.is_current(source):
            continue
        state.replace_list(state.exiled_until, [x for x in state.exiled_until if x != (source, exiled)])
        if not state.is_current(exiled) or state.zone_of(exiled.card) is not state.exile:
            continue
        from ..engine.replacement import enter_battlefield
        owner = state.cards[exiled.card].owner
        left = event.names[0] if event.names else "its exiler"
        enter_battlefield(state, exiled.card, owner,
                          detail=f"returns: {left} left the battlefield (One-Shot Effects — CR 610.3)")
