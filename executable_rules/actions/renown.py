"""Renown — CR 702.112 (702.112a–b)

Renown is a triggered ability: "Renown N" means "When this creature deals
combat damage to a player, if it isn't renowned, put N +1/+1 counters on it and
it becomes renowned" (Renown — CR 702.112a). Renowned is a designation with no
rules meaning of its own; only permanents can be renowned, and a permanent stays
renowned until it leaves the battlefield (702.112b): the model keeps it on the
object, so a permanent that leaves and returns is a new object that isn't. With
several instances, the first to resolve makes it renowned and the others do
nothing: the "if it isn't renowned" is checked as each resolves (702.112c,
Handling Triggered Abilities — CR 603.4).

The engine writes renown out as its rule's sentence (:func:`written_out`), read
by the Oracle grammar like a printed trigger.

>>> print(written_out("2"))
When this creature deals combat damage to a player, if it isn't renowned, put 2 +1/+1 counters on it and it becomes renowned.
"""

from __future__ import annotations

from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Renown"
KIND = "keyword ability"
JAPANESE = ("高名",)
SUBRULES = ("a", "b")
SUMMARY = "When it deals combat damage to a player, if it isn't renowned, it gets N +1/+1 counters and becomes renowned."
OUT_OF_REACH = {
    "c": "no card of the corpus has renown twice or grants it, so a creature with two instances can't be set up from "
         "real cards; each written-out instance would trigger, and the second would find it renowned",
}
RENOWNED = "renowned"


def written_out(argument: str) -> str:
    """Renown — CR 702.112a, word for word, for ``Renown N``."""
    return (f"When this creature deals combat damage to a player, if it isn't renowned, put {argument or 1} +1/+1 "
            "counters on it and it becomes renowned.")


def is_renowned(state: GameState, permanent: int) -> bool:
    """Whether the object is renowned (702.112b: only as the permanent it became renowned as)."""
    return state.has_designation(permanent, RENOWNED)


def become_renowned(state: GameState, permanent: int) -> None:
    """The permanent becomes renowned (702.112b); a card no longer on the battlefield doesn't."""
    if state.zone_of(permanent) is not state.battlefield:
        return
    state.designate(permanent, RENOWNED)
    state.emit(EventKind.EFFECT, state.controller_of(permanent), (permanent,), detail="becomes renowned",
               citation=Citation(KEYWORD, "702.112b"))


def renown(state: GameState, permanent: int) -> bool:
    """Whether ``permanent`` is renowned now (the designation 702.112b)."""
    return is_renowned(state, permanent)


def _renowned(state: GameState, player: str | None, expected: object) -> list[str]:
    """``renowned = ["Rhox Maulers"]``: the renowned permanents now, by name (sorted)."""
    return sorted(c.display_name for c in state.permanents() if is_renowned(state, c.id))


EXPECT = {"renowned": _renowned}
"""The expectation ``renowned``: which permanents are renowned (702.112b)."""
