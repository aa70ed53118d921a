"""Protection — CR 702.16 (702.16a–e, 702.16g, 702.16j)

Protection is a static ability, "Protection from [quality]" — usually a color
(Protection — CR 702.16a). A permanent or player with protection can't be the
target of spells with that quality or abilities from sources with it (702.16b),
it can't be enchanted by Auras with that quality — such an Aura attached to it is
put into its owner's graveyard as a state-based action (702.16c) — nor equipped
by Equipment with it, which becomes unattached (702.16d; asked by
:mod:`.enchant` and :mod:`.equip`), and damage sources with that quality would
deal it is prevented (702.16e).
"Protection from black and from red" is two protection abilities (702.16g);
"protection from everything" is protection from every object (702.16j): nothing
targets it, and all damage to it is prevented, though effects that don't target
it (Wrath of God) still affect it. The qualities read here are colors, card types ("from
artifacts", "from creatures"), creature types ("from Demons") and everything.

:func:`protection` is what targeting (:func:`executable_rules.engine.effects.legal_targets`)
and damage (:func:`executable_rules.engine.effects.damage`) ask.

>>> from executable_rules.model import OracleCard
>>> sorted(qualities(OracleCard.simple("Paladin en-Vec", "{1}{W}{W}", "Creature",
...        text="First strike, protection from black and from red")))
['B', 'R']
>>> qualities(OracleCard.simple("Progenitus", "{W}", "Creature", text="Protection from everything"))
frozenset({'everything'})
"""

from __future__ import annotations

import re

from ..engine.layers import COLOR_LETTERS, characteristics
from ..model import GameState, OracleCard

KEYWORD = "Protection"
KIND = "keyword ability"
JAPANESE = ("プロテクション",)
SUBRULES = ("a", "b", "c", "d", "e", "g", "j")
SUMMARY = "Can't be targeted, dealt damage, enchanted, equipped or blocked by anything with the stated quality."
OUT_OF_REACH = {
    "f": "blocking is combat, which this module doesn't run (declare blockers belongs to the combat model)",
    "h": "\"protection from each [characteristic]\" (\"from each color\") is read by no card the grammar handles here; "
         "\"protection from all colors\" is only granted conditionally (Etched Champion's metalcraft)",
    "i": "\"protection from each [set]\" (\"from each of your opponents\") needs protection from players",
    "k": "protection from a player isn't modelled (objects are checked by their qualities, not their controller)",
    "m": "no card of the corpus has the same protection twice, and protection granted by effects (Mother of Runes' "
         "color of your choice) isn't read, so redundant instances can't be set up",
    "n": "Auras that say \"this effect doesn't remove\" need attachments",
    "p": "Benevolent Blessing's \"already attached\" needs attachments",
}

_FROM = re.compile(r"\bprotection((?: (?:and )?from [a-z]+(?: [a-z]+)?)+)", re.IGNORECASE)
_TYPES = {"artifacts": "Artifact", "creatures": "Creature", "enchantments": "Enchantment", "instants": "Instant",
          "sorceries": "Sorcery", "planeswalkers": "Planeswalker", "lands": "Land"}


def qualities(card: OracleCard) -> frozenset[str]:
    """The qualities of the card's printed protection abilities: color letters, card types, creature types, or
    ``everything`` (702.16a, 702.16g, 702.16j)."""
    found: set[str] = set()
    for ability in card.parsed.abilities:
        if ability.kind != "keyword":
            continue
        for item in re.split(r"[,;]\s*", ability.text.rstrip(".")):
            m = _FROM.match(item.strip())
            if not m:
                continue
            for quality in re.findall(r"from ([a-z]+)", m.group(1), re.IGNORECASE):
                q = quality.lower()
                found.add(COLOR_LETTERS.get(q) or _TYPES.get(q) or ("everything" if q == "everything" else
                                                                     quality.capitalize().removesuffix("s")))
    return frozenset(found)


def _source_has(state: GameState, source: int, wanted: frozenset[str]) -> bool:
    if "everything" in wanted:
        return True
    if source in state.spells:
        face = state.spells[source].face
        colors = frozenset(c for s in (face.mana_cost.symbols if face.mana_cost else ()) for c in s.split("/")
                           if c in "WUBRG")
        types, subtypes = face.types, set(face.subtypes)
    elif source in state.cards:
        ch = characteristics(state, source)
        colors, types, subtypes = ch.colors, ch.types, set(ch.subtypes)
    else:
        return False
    return bool(wanted & (colors | types | subtypes))


def protection(state: GameState, target: int | str, source: int | None) -> bool:
    """Whether ``target`` (a permanent's id; players' protection isn't modelled) has protection from ``source`` (a
    spell's card, an ability's source, a damage source)."""
    if isinstance(target, str) or source is None or state.zone_of(target) is not state.battlefield:
        return False
    card = state.cards[target]
    if card.face_down:
        return False
    wanted = qualities(card.oracle) | granted_qualities(state, target)
    return bool(wanted) and _source_has(state, source, wanted)


def granted_qualities(state: GameState, target: int) -> frozenset[str]:
    """The qualities of protection abilities an effect grants (Concerted Effort's "protection from red":
    Keyword Abilities — CR 702.1c), read from the permanent's keywords with every layer applied."""
    found: set[str] = set()
    for keyword in characteristics(state, target).keywords:
        if keyword.startswith("Protection from "):
            for quality in re.findall(r"from ([a-z]+)", keyword, re.IGNORECASE):
                q = quality.lower()
                found.add(COLOR_LETTERS.get(q) or _TYPES.get(q) or ("everything" if q == "everything" else
                                                                     quality.capitalize().removesuffix("s")))
    return frozenset(found)
