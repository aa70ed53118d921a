"""Morph — CR 702.37 (702.37a–e)

Morph works in any zone the card could be cast from: "Morph [cost]" means "You
may cast this card as a 2/2 face-down creature with no text, no name, no
subtypes, and no mana cost by paying {3} rather than paying its mana cost"
(Morph — CR 702.37a). The player turns the card face down and announces morph;
the spell is a 2/2 creature spell with no name and no mana cost, cast (and
timed) as such a spell would be (702.37c): a face-down spell has no flash.
Without a morph ability a card can't be cast face down (702.37d). Any time its
controller has priority, the face-down permanent may be turned face up by
paying its morph cost — a special action that doesn't use the stack (702.37e,
in :func:`executable_rules.face_down.turn_face_up`). Megamorph is morph that
also puts a +1/+1 counter on the permanent as its megamorph cost turns it face
up (702.37b).

>>> FACE_DOWN_SPELL.name, sorted(FACE_DOWN_SPELL.types), FACE_DOWN_SPELL.power, FACE_DOWN_SPELL.mana_cost, str(FACE_DOWN_COST)
('', ['Creature'], '2', None, '{3}')
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, FaceDown, FaceKind, GameState, ManaCost, OracleCard, Spell

KEYWORD = "Morph"
KIND = "keyword ability"
JAPANESE = ("変異",)
SUBRULES = ("a", "b", "c", "d", "e")
SUMMARY = "Cast the card face down as a 2/2 creature for {3}; turn it face up any time for its morph cost."
OUT_OF_REACH = {
    "f": "no morph cost the card data reads has X (the corpus's morph costs are all fixed mana or non-mana costs)",
    "g": "a pointer to Face-Down Spells and Permanents (708), which the engine models in face_down.py; it states no "
         "rule of its own to run",
}
FACE_DOWN_COST = ManaCost(("3",))
"""What casting a card face down with morph costs, rather than its mana cost (702.37a)."""
FACE_DOWN_SPELL = Face("", None, frozenset({"Creature"}), (), frozenset(), "2", "2", "", FaceKind.NORMAL)
"""The face-down spell's characteristics: a 2/2 creature with no text, no name, no subtypes, no mana cost (702.37c)."""
STEP_KEYS = {"player", "card"}
"""The keys of the scenario step ``do = "morph"`` (cast ``card`` face down with morph)."""


def morph_cost(card: OracleCard) -> ManaCost | None:
    """The card's morph or megamorph cost in mana (None without morph, or for a cost that isn't mana)."""
    return card.morph


def morph(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` face down with its morph ability, paying {3} (702.37a, 702.37c)."""
    from ..engine.mana import pay_mana
    c = state.cards[card]
    name = c.oracle.name
    if not c.oracle.parsed.has_keyword(KEYWORD):
        raise IllegalChoice(f"cast {name} face down", f"{name} has no morph ability: a card can't normally be cast "
                            "face down", Citation(KEYWORD, "702.37d"))
    if state.zone_of(card) is not state.player(player).hand:
        raise IllegalChoice(f"cast {name} face down", f"{name} is in {state.zone_of(card).label}",
                            Citation("Casting Spells", "601.2"))
    if state.stack.cards or state.active != player or "main" not in state.step:
        raise IllegalChoice(f"cast {name} face down", "a face-down creature spell is cast only in its controller's "
                            "main phase with an empty stack", Citation(KEYWORD, "702.37c"))
    with state.action(f"cast {name} face down"):
        state.move(card, state.stack)
        state.set(c, "face_down", FaceDown.MORPHED)
        paid = tuple(pay_mana(state, player, FACE_DOWN_COST, choose, "a face-down spell"))
        spell = Spell(card, player, FACE_DOWN_SPELL, 0, False, False, (), paid)
        state.set_item(state.spells, card, spell)
        state.emit(EventKind.CAST, player, (card,), names=(c.display_name,), source=state.player(player).hand.label,
                   destination="stack", detail=f"face down with morph: a 2/2 creature spell with no name and no mana "
                   f"cost, {FACE_DOWN_COST} paid rather than its mana cost", citation=Citation(KEYWORD, "702.37a"))
        return spell


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "morph", card = "Exalted Angel" }``."""
    morph(run.state, player, run.card(step["card"]), choose=choose)
