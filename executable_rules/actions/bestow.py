"""Bestow — CR 702.103 (702.103a–b, d)

"Bestow [cost]" means "As you cast this spell, you may choose to cast it
bestowed. If you do, you pay [cost] rather than its mana cost": an alternative
cost (Bestow — CR 702.103a). As a spell cast bestowed goes on the stack it
becomes an Aura enchantment with enchant creature — no longer a creature
spell — and its controller chooses a creature as its target (702.103b). Only
its characteristics as modified by bestow decide whether it can be cast
bestowed (702.103d; Casting Spells — CR 601.3e): "Creature spells can't be
cast" doesn't stop it, and "You may cast creature spells from the top of your
library" doesn't allow it.

The model casts a spell bestowed (``cast_spell(…, bestowed=True)``, the
scenario step ``cast_spell`` with ``bestowed = true``) and checks whether it
may be cast; a bestowed Aura spell resolving isn't modelled (702.103e).

>>> from executable_rules.model import Face, ManaCost
>>> satyr = Face("Boon Satyr", ManaCost.parse("{1}{G}{G}"), frozenset({"Enchantment", "Creature"}), ("Satyr",),
...              text="Flash\\nBestow {3}{G}{G}\\nEnchanted creature gets +4/+2.")
>>> face, cost = bestowed_face(satyr)
>>> sorted(face.types), face.subtypes, str(cost), face.mana_value
(['Enchantment'], ('Aura',), '{3}{G}{G}', 3)
"""

from __future__ import annotations

import functools
from dataclasses import replace

from lark import Token, Tree

from ..citation import Citation
from ..errors import IllegalChoice
from ..model import Face, ManaCost

KEYWORD = "Bestow"
KIND = "keyword ability"
JAPANESE = ("授与",)
SUBRULES = ("a", "b", "d")
SUMMARY = "Cast it bestowed for its bestow cost: an Aura spell with enchant creature, judged as that when deciding whether it can be cast."
OUT_OF_REACH = {
    "c": "the model doesn't copy spells",
    "e": "a bestowed Aura spell resolving isn't modelled: the permanent would have to keep the bestowed characteristics "
         "(an Aura, not a creature) it had as a spell, which the model's permanents don't",
    "f": "no bestowed Aura reaches the battlefield (702.103e), so none becomes unattached",
    "g": "no bestowed Aura reaches the battlefield (702.103e), so none phases in unattached",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def bestow_cost(face: Face) -> ManaCost | None:
    """The cost of the face's "Bestow [cost]", read from its Oracle text by the grammar."""
    from ..oracle import parse_card
    argument = parse_card(face.name, face.text).keyword_argument(KEYWORD)
    return ManaCost.parse(argument.replace(" ", "")) if argument and argument.startswith("{") else None


def bestowed_face(face: Face) -> tuple[Face, ManaCost]:
    """The characteristics of the spell cast bestowed — an Aura enchantment with enchant creature, not a creature
    (702.103b) — and the bestow cost paid rather than its mana cost (702.103a). Its mana cost stays."""
    cost = bestow_cost(face)
    if cost is None:
        raise IllegalChoice(f"cast {face.name} bestowed", f"{face.name} has no bestow", Citation(KEYWORD, "702.103a"))
    aura = replace(face, types=frozenset({"Enchantment"}), subtypes=("Aura",), power=None, toughness=None,
                   text=face.text + "\nEnchant creature")
    return aura, cost


def bestow(face: Face) -> Face:
    """The face of a spell cast bestowed (see :func:`bestowed_face`)."""
    return bestowed_face(face)[0]


@functools.lru_cache(maxsize=1)
def aura_target() -> Tree[Token]:
    """The target of enchant creature: "target creature", as the grammar reads it."""
    from ..oracle import parse_line
    tree = parse_line("Target creature gets +0/+0 until end of turn.", "?").tree
    assert tree is not None
    return next(tree.find_data("target_phrase"))
