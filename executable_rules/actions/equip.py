"""Equip — CR 702.6 (702.6a–d)

Equip is an activated ability of Equipment: "Equip [cost]" means "[Cost]:
Attach this permanent to target creature you control. Activate only as a
sorcery." (Equip — CR 702.6a): only in its controller's main phase with the
stack empty (Activating Activated Abilities — CR 602.5d). For Equipment in
general (702.6b) see Artifacts — CR 301.5: an Equipment enters the battlefield
unattached and is attached by equip (301.5b); control of the creature matters
only as the ability is activated and as it resolves, so a creature whose
control changed in between is an illegal target
(Resolving Spells and Abilities — CR 608.2b). An Equipment equips only a creature, never itself, and
not while it is a creature itself; an Equipment attached to an illegal or
nonexistent permanent becomes unattached but stays on the battlefield (301.5c;
State-Based Actions — CR 704.5n). "Equipped creature gets +2/+0." is a static
ability of the Equipment applied to whatever creature it is attached to
(301.5a, 301.5f). "Equip [quality] creature [cost]" may target only a creature
you control with that quality, but doesn't restrict what the Equipment may be
attached to (702.6c). A permanent with several equip abilities may activate any
of them (702.6d).

The engine writes equip out as that ability (:func:`written_out`) and reads it
with the Oracle grammar, like cycling; the attaching is :mod:`.attach`'s.

>>> written_out("{1}")
'{1}: Attach ~ to target creature you control. Activate only as a sorcery.'
>>> written_out("{2} {W}")
'{2}{W}: Attach ~ to target creature you control. Activate only as a sorcery.'
>>> written_out("legendary creature  {3}")
'{3}: Attach ~ to target legendary creature you control. Activate only as a sorcery.'
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser
from ..citation import Citation
from ..model import GameState

KEYWORD = "Equip"
KIND = "keyword ability"
JAPANESE = ("装備",)
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Pay the equip cost as a sorcery: attach this Equipment to target creature you control."
OUT_OF_REACH = {
    "e": "\"Equip planeswalker\" attaches as though a planeswalker were a creature, which the model's Equipment "
         "legality (creatures only) doesn't allow",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def written_out(argument: str) -> str:
    """The ability "Equip [cost]" stands for (702.6a); "Equip [quality] creature [cost]" targets only a creature
    with that quality (702.6c). A cost that isn't mana ("Equip—Pay 1 life …") is left as printed: the grammar
    doesn't read it, and activating it is :class:`~executable_rules.errors.Unimplemented`."""
    quality, brace, cost = argument.partition("{")
    cost = "".join((brace + cost).split())
    quality = " ".join(quality.split())
    if not cost or not cost.endswith("}"):
        return f"Equip {argument}"
    what = "creature" if not quality else quality if quality.endswith("creature") else f"{quality} creature"
    return f"{cost}: Attach ~ to target {what} you control. Activate only as a sorcery."


def cant_equip(state: GameState, equipment: int, to: int | str) -> str | None:
    """Why ``equipment`` can't equip ``to`` (None if it can): only a creature, not itself, and not while it is a
    creature (Artifacts — CR 301.5, 301.5c)."""
    from ..engine.layers import characteristics
    if isinstance(to, str):
        return "an Equipment can't equip a player (301.5)"
    if to == equipment:
        return "an Equipment can't equip itself (301.5c)"
    if state.zone_of(to) is not state.battlefield or state.cards[to].phased_out:
        return f"{state.cards[to].display_name} isn't on the battlefield"
    if "Creature" not in characteristics(state, to).types:
        return f"{state.cards[to].display_name} isn't a creature (301.5)"
    if "Creature" in characteristics(state, equipment, statics=False).types:
        return "an Equipment that's also a creature can't equip a creature (301.5c)"
    from .protection import protection
    if protection(state, to, equipment):
        return f"{state.cards[to].display_name} has protection from it (Protection — CR 702.16d)"
    return None


def attach_effect(state: GameState, ctx: Any, node: Any, choose: Chooser) -> None:
    """"Attach ~ to target creature you control." as equip's ability resolves: its target is checked again as it
    resolves (608.2b), so a creature whose control changed is no longer a legal target."""
    from ..engine.effects import _object_child, objects
    from .attach import attach
    target = _object_child(node)
    for card in objects(state, ctx, target) if target is not None else []:
        attach(state, ctx.controller, ctx.source, card, detail="equip's ability resolves: attached, with a new "
               "timestamp (Attach — CR 701.3c)", citation=Citation(KEYWORD, "702.6a"))


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "equip", card = "Short Sword", targets = ["Grizzly Bears"] }``: activate its equip ability (the
    first, or the one whose cost is ``cost``)."""
    from ..engine.stack import activate
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    card = run.card(step["card"])
    cost = step.get("cost") or run.state.cards[card].oracle.parsed.keyword_argument(KEYWORD) or ""
    activate(run.state, player, card, "".join(str(cost).split()) + ": Attach", choose=choose)


STEP_KEYS = {"player", "card", "targets", "cost"}
"""The keys of the scenario step ``do = "equip"``."""


def equip(state: GameState, player: str, equipment: int, cost: str = "", *, choose: Chooser | None = None) -> None:
    """``player`` activates the equip ability of ``equipment`` (the one costing ``cost``, else its first): it goes on
    the stack, its target chosen by ``choose`` (702.6a)."""
    from ..choices import first_legal
    from ..engine.stack import activate
    cost = cost or state.cards[equipment].oracle.parsed.keyword_argument(KEYWORD) or ""
    activate(state, player, equipment, "".join(cost.split()) + ": Attach", choose=choose or first_legal)
