"""Attach — CR 701.3 (701.3a–d)

To attach an Aura, Equipment or Fortification to an object or player is to
take it from where it is and put it onto that object or player; it can't be
attached to something it couldn't enchant, equip or fortify
(Attach — CR 701.3a). An effect that tries to attach it where it can't go
leaves it where it is; one that tries to attach it where it already is does
nothing; one that tries to attach anything else does nothing (701.3b).
Attaching it on the battlefield to a different object or player gives it a new
timestamp (701.3c). To unattach an Equipment is to leave it on the battlefield
attached to nothing; an Aura, Equipment or Fortification that stops being
attached to something "becomes unattached" from it, including by leaving the
battlefield or by the object it was attached to leaving its zone (701.3d).

A permanent records what it is attached to (``Card.attached_to``: a reference
to the object, so an object that changes zones is no longer the one it is
attached to — Zones — CR 400.7 — or a player's name). What an Aura may
enchant is its enchant ability's (Enchant — CR 702.5a, :mod:`.enchant`); an
Equipment equips only a creature, not itself, and not while it is a creature
(Artifacts — CR 301.5, 301.5c; :mod:`.equip`).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "you", ZoneKind.BATTLEFIELD)
>>> sword = state.add_card(OracleCard.simple("Short Sword", "{1}", "Artifact", subtypes=("Equipment",),
...     text="Equipped creature gets +1/+1.\\nEquip {1}"), "you", ZoneKind.BATTLEFIELD)
>>> attach(state, "you", sword, bears)
True
>>> attached_object(state, sword) == bears, attach(state, "you", sword, bears)      # already there: nothing (701.3b)
(True, False)
>>> attach(state, "you", bears, sword)           # a creature isn't an Aura, Equipment or Fortification (701.3b)
False
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser
from ..citation import Citation
from ..model import EventKind, GameState

KEYWORD = "Attach"
KIND = "keyword action"
JAPANESE = ("つける",)
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Put an Aura, Equipment or Fortification onto an object or player it can enchant, equip or fortify."
OUT_OF_REACH: dict[str, str] = {}
STEP_KEYS = {"player", "card", "to", "unattach"}
"""The keys of the scenario step ``do = "attach"``: ``card`` onto ``to`` (a card's name or a player);
``unattach = true`` unattaches ``card`` instead (701.3d)."""

ATTACHABLE = ("Aura", "Equipment", "Fortification")


def _cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.3{letter}")


def attachable_kind(state: GameState, card: int) -> str | None:
    """``"Aura"``, ``"Equipment"`` or ``"Fortification"``: what the permanent is now (None if none of them)."""
    from ..engine.layers import characteristics
    subtypes = characteristics(state, card, statics=False).subtypes if state.zone_of(card) is state.battlefield \
        else state.cards[card].oracle.subtypes
    return next((kind for kind in ATTACHABLE if kind in subtypes), None)


def attached_object(state: GameState, card: int) -> int | str | None:
    """The permanent (its id) or player ``card`` is attached to now; None if it is attached to nothing, or to an
    object that has since left its zone (it is a new object: Zones — CR 400.7, 701.3d)."""
    c = state.cards.get(card)
    if c is None or c.attached_to is None or state.zone_of(card) is not state.battlefield:
        return None
    to = c.attached_to
    if isinstance(to, str):
        return to
    if not state.is_current(to) or state.zone_of(to.card) is not state.battlefield:
        return None
    return to.card


def attachments(state: GameState, to: int | str) -> list[int]:
    """The permanents attached to ``to`` (a permanent's id or a player's name) now."""
    return [p.id for p in state.permanents() if attached_object(state, p.id) == to]


def can_attach(state: GameState, card: int, to: int | str) -> str | None:
    """Why ``card`` can't be attached to ``to`` (None if it can): an Aura by its enchant abilities
    (Enchant — CR 702.5a), an Equipment to a creature (Artifacts — CR 301.5, 301.5c)."""
    kind = attachable_kind(state, card)
    if kind is None:
        return f"{state.cards[card].display_name} is no Aura, Equipment or Fortification"
    if kind == "Aura":
        from .enchant import cant_enchant
        return cant_enchant(state, card, to)
    if kind == "Equipment":
        from .equip import cant_equip
        return cant_equip(state, card, to)
    from ..engine.layers import characteristics
    if isinstance(to, str) or "Land" not in characteristics(state, to).types:
        return "a Fortification fortifies only a land"
    return None


def _label(state: GameState, to: int | str) -> str:
    return to if isinstance(to, str) else state.cards[to].display_name


def attach(state: GameState, player: str | None, card: int, to: int | str, *, detail: str = "",
           citation: Citation | None = None) -> bool:
    """Attach the permanent ``card`` to ``to`` (a permanent's id or a player's name); return whether it moved.

    It doesn't move where it can't be attached, and nothing happens where it already is or when it is no Aura,
    Equipment or Fortification (701.3b); attached somewhere new, it gets a new timestamp (701.3c)."""
    c = state.cards[card]
    why = can_attach(state, card, to)
    if why is None and attached_object(state, card) == to:
        why = f"it is already attached to {_label(state, to)}"
    if why is not None:
        state.emit(EventKind.NOTHING, player, (card,), detail=f"not attached to {_label(state, to)}: {why}",
                   citation=_cite("b"))
        return False
    with state.action(f"attach {c.display_name}"):
        state.set(c, "attached_to", to if isinstance(to, str) else state.ref(to))
        state.set(c, "timestamp", state.stamp())
        state.emit(EventKind.ATTACH, player, (card,), destination=_label(state, to),
                   detail=detail or "attached: a new timestamp", citation=citation or _cite("c"))
    return True


def unattach(state: GameState, player: str | None, card: int, *, detail: str = "",
             citation: Citation | None = None) -> bool:
    """Unattach ``card``: it stays on the battlefield attached to nothing (701.3d); False if it was attached to
    nothing."""
    c = state.cards[card]
    if c.attached_to is None:
        return False
    was = attached_object(state, card)
    state.set(c, "attached_to", None)
    state.emit(EventKind.ATTACH, player, (card,), source=_label(state, was) if was is not None else None,
               detail=detail or "unattached: it stays on the battlefield", citation=citation or _cite("d"))
    return True


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "attach", card = "Short Sword", to = "Grizzly Bears" }`` (``to`` a player's name for an Aura that
    enchants a player); ``{ do = "attach", card = "Short Sword", unattach = true }``."""
    card = run.card(step["card"])
    if step.get("unattach"):
        unattach(run.state, player, card)
        return
    to = step["to"]
    players = [p.name for p in run.state.players]
    attach(run.state, player, card, to if to in players else run.card(to))


def _attached(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name]
        to = attached_object(state, cards[0]) if cards else None
        found[name] = None if not cards else ("" if to is None else _label(state, to))
    return found


def _newer(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    for name, other in expected.items():
        a = [state.cards[c] for c in state.battlefield.cards if state.cards[c].display_name == name]
        b = [state.cards[c] for c in state.battlefield.cards if state.cards[c].display_name == other]
        found[name] = other if a and b and a[0].timestamp > b[0].timestamp else f"not newer than {other}"
    return found


EXPECT = {"attached": _attached, "newer": _newer}
"""``attached = { "Short Sword" = "Grizzly Bears" }``: what each permanent named is attached to now (a card's
name or a player's; ``""`` when attached to nothing); ``newer = { "Short Sword" = "Silvercoat Lion" }``: the first
has a later timestamp than the second (Interaction of Continuous Effects — CR 613.7)."""


def enters_attached(state: GameState, card: int, to: int | str, citation: Citation) -> None:
    """An Aura entering the battlefield attached to ``to`` (Enchantments — CR 303.4): it is attached as it enters,
    with the timestamp it entered with."""
    c = state.cards[card]
    state.set(c, "attached_to", to if isinstance(to, str) else state.ref(to))
    state.emit(EventKind.ATTACH, c.controller, (card,), destination=_label(state, to),
               detail="enters the battlefield attached", citation=citation)


__all__ = ["attach", "attached_object", "attachments", "can_attach", "enters_attached", "unattach"]


def illegally_attached(state: GameState, card: int) -> tuple[str, str] | None:
    """(kind, why) when the permanent ``card`` is an Aura attached illegally or to nothing
    (State-Based Actions — CR 704.5m), or an Equipment or Fortification attached illegally (704.5n); else None."""
    kind = attachable_kind(state, card)
    c = state.cards[card]
    if kind is None:
        return None
    to = attached_object(state, card)
    if to is None:
        if kind == "Aura":
            return kind, "attached to nothing" if c.attached_to is None else "whose object left the battlefield"
        return (kind, "the permanent it was attached to left the battlefield") if c.attached_to is not None else None
    why = can_attach(state, card, to)
    return (kind, f"attached illegally ({why})") if why is not None else None


def enchanted_or_last_known(state: GameState, card: int) -> int | str | None:
    """What ``card`` is attached to, or, once it has left the battlefield, what it was attached to as it last
    existed there if that object is still on the battlefield: an ability of an Aura that resolves after the Aura
    left affects the creature it last enchanted, by last known information
    (Resolving Spells and Abilities — CR 608.2h)."""
    if state.zone_of(card) is state.battlefield:
        return attached_object(state, card)
    known = state.last_known.get(card)
    was = known.attached_to if known is not None else None
    if isinstance(was, str):
        return was
    if was is not None and state.is_current(was) and state.zone_of(was.card) is state.battlefield:
        return was.card
    return None
