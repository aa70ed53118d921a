"""Attach — CR 701.3 (none of 701.3a–d yet)

To attach an Aura, Equipment or Fortification to an object or player is to
move it onto that object or player; it can't be attached to something it
couldn't enchant, equip or fortify (701.3a); an attempt to attach it where it
can't go, or where it already is, does nothing (701.3b); a newly attached
permanent gets a new timestamp (701.3c); unattaching an Equipment leaves it on
the battlefield attached to nothing, and leaving the battlefield counts as
becoming unattached (701.3d).

The model has no attachments yet: a permanent records no object it is
attached to, and "enchanted creature" and "equipped creature" aren't read by
the engine (its effects raise :class:`~executable_rules.errors.Unimplemented`
for them). Every subrule is in ``OUT_OF_REACH`` until the keyword abilities
that attach (Enchant — CR 702.5, Equip — CR 702.6) bring them.
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = "Attach"
KIND = "keyword action"
JAPANESE = ("つける",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Put an Aura, Equipment or Fortification onto an object or player it can enchant, equip or fortify."
_NO_ATTACHMENTS = "the model has no attachments: a permanent records nothing it is attached to"
OUT_OF_REACH = {
    "a": _NO_ATTACHMENTS,
    "b": _NO_ATTACHMENTS + ", so there is no attempt to attach to refuse",
    "c": _NO_ATTACHMENTS + ", so no attaching gives a new timestamp",
    "d": _NO_ATTACHMENTS + ", so nothing becomes unattached",
}


def attach(state: GameState, player: str, card: int, to: int | str) -> None:
    """Attach ``card`` to ``to``: not modelled yet (:class:`Unimplemented`)."""
    raise Unimplemented(f"attaching {state.cards[card].oracle.name}: {_NO_ATTACHMENTS}")
