"""Changeling — CR 702.73 (702.73a)

Changeling is a characteristic-defining ability: "This object is every creature
type" (Changeling — CR 702.73a). It works everywhere, even outside the game
(Handling Static Abilities — CR 604.3): a card with changeling in a
library is a Goblin card to a search for one, and on the battlefield a creature
with changeling gets every "other Elf creatures" and "Goblin creatures you
control" bonus. It gives creature types only: a changeling is no Forest and no
Equipment. A face-down permanent has no abilities, so no changeling
(Face-Down Spells and Permanents — CR 708.2a).

:func:`changeling` answers "is it this subtype?"; the engine's descriptions
(:func:`executable_rules.engine.layers.matches`) and the Search action's card
queries ask it.

>>> from executable_rules.model import OracleCard
>>> outcast = OracleCard.simple("Changeling Outcast", "{B}", "Creature", subtypes=("Shapeshifter",), text="Changeling")
>>> changeling(outcast, "Goblin"), changeling(outcast, "Shapeshifter"), changeling(outcast, "Forest")
(True, True, False)
"""

from __future__ import annotations

from ..model import OracleCard

KEYWORD = "Changeling"
KIND = "keyword ability"
JAPANESE = ("多相",)
SUBRULES = ("a",)
SUMMARY = "The object is every creature type, in every zone."
OUT_OF_REACH: dict[str, str] = {}

NONCREATURE_SUBTYPES = frozenset({
    # Land types (Subtypes — CR 205.3i)
    "Cave", "Desert", "Forest", "Gate", "Island", "Lair", "Locus", "Mine", "Mountain", "Plains", "Planet",
    "Power-Plant", "Sphere", "Swamp", "Tower", "Town", "Urza's",
    # Artifact types (205.3g)
    "Attraction", "Blood", "Bobblehead", "Clue", "Contraption", "Equipment", "Food", "Fortification", "Gold",
    "Incubator", "Infinity", "Junk", "Lander", "Map", "Powerstone", "Spacecraft", "Stone", "Treasure", "Vehicle",
    # Enchantment types (205.3h)
    "Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune", "Saga", "Shard", "Shrine",
    # Spell types (205.3k)
    "Adventure", "Arcane", "Chorus", "Lesson", "Omen", "Trap",
})
"""Subtypes that aren't creature types (the land, artifact, enchantment and spell types of Subtypes — CR 205.3):
changeling doesn't give them. Planeswalker and battle types are left out: no description the grammar reads
asks for one next to a creature."""


def changeling(card: OracleCard, subtype: str, *, face_down: bool = False) -> bool:
    """Whether ``card`` is of ``subtype``: printed, or a creature type given by its changeling (702.73a)."""
    if face_down:
        return False
    if subtype in card.subtypes:
        return True
    return subtype not in NONCREATURE_SUBTYPES and card.parsed.has_keyword(KEYWORD)
