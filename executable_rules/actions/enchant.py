"""Enchant — CR 702.5 (702.5a–b, d)

Enchant is a static ability, "Enchant [object or player]": it restricts what an
Aura spell can target and what the Aura can enchant (Enchant — CR 702.5a). For
Auras in general (702.5b) see Enchantments — CR 303.4: an Aura spell requires
a target, the one its enchant ability defines (303.4a); it resolves by entering
the battlefield attached to that target, and if the target is illegal by then
the spell doesn't resolve (Resolving Spells and Abilities — CR 608.2b) and goes
to its owner's graveyard. The object an Aura is attached to is "enchanted"
(303.4b); an Aura attached to an illegal object, or to nothing (its object left
the battlefield), is put into its owner's graveyard as a state-based action
(303.4c; State-Based Actions — CR 704.5m). An Aura can't enchant itself, and an
Aura that is also a creature can't enchant anything (303.4d). An Aura that can
enchant a player targets and is attached only to players (702.5d).

"Enchanted creature gets +1/+2." and "Enchanted creature has flying." are
static abilities applied in layers 7c and 6 to whatever the Aura is attached
to (Interaction of Continuous Effects — CR 613.1, 303.4m).

>>> from executable_rules.model import OracleCard
>>> enchant_qualities(OracleCard.simple("Wild Growth", "{G}", "Enchantment", subtypes=("Aura",),
...     text="Enchant land\\nWhenever enchanted land is tapped for mana, its controller adds an additional {G}.").main)
['land']
"""

from __future__ import annotations

import functools

from lark import Token, Tree

from ..citation import Citation
from ..model import Face, GameState
from ..oracle import parse_card, parse_line

KEYWORD = "Enchant"
KIND = "keyword ability"
JAPANESE = ("エンチャント",)
SUBRULES = ("a", "b", "d")
SUMMARY = "An Aura spell targets what its enchant ability allows, and the Aura enchants only that."
OUT_OF_REACH = {
    "c": "no card of the corpus the model reads has two instances of enchant on one Aura (and no effect grants "
         "enchant), so the combined restriction has nothing to run on",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""

PLAYER_QUALITIES = ("player", "opponent")


def enchant_qualities(face: Face) -> list[str]:
    """The [object or player] of each "Enchant [object or player]" of the face (lowercase, as the grammar reads it)."""
    return [argument for title, argument in parse_card(face.name, face.text).keywords if title == KEYWORD]


@functools.lru_cache(maxsize=256)
def enchant_target(quality: str) -> Tree[Token]:
    """The target phrase an Aura spell with "Enchant [quality]" has (303.4a, 702.5a): "target [quality]", read by
    the grammar ("target player" for an Aura that enchants a player, 702.5d)."""
    if quality in PLAYER_QUALITIES:
        tree = parse_line(f"Target {quality} draws a card.", "?").tree
        assert tree is not None
        from ..engine.layers import walk
        return next(t for t in walk(tree) if t.data in ("target_player", "target_opponent"))
    tree = parse_line(f"Destroy target {quality}.", "?").tree
    assert tree is not None
    return next(tree.find_data("target_phrase"))


def enchant_specs(face: Face) -> list[Tree[Token]]:
    """The target an Aura spell of this face requires: its (first) enchant ability's (303.4a)."""
    qualities = enchant_qualities(face)
    return [enchant_target(qualities[0])] if qualities else []


def cant_enchant(state: GameState, aura: int, to: int | str) -> str | None:
    """Why the Aura ``aura`` can't enchant ``to`` (None if it can): its enchant abilities (702.5a, 702.5d), itself
    and an Aura that's a creature (Enchantments — CR 303.4d)."""
    from ..engine.layers import characteristics, matches
    card = state.cards[aura]
    controller = state.controller_of(aura)
    qualities = enchant_qualities(card.oracle.main)
    if not qualities:
        return f"{card.display_name} has no enchant ability"
    if state.zone_of(aura) is state.battlefield and "Creature" in characteristics(state, aura, statics=False).types:
        return "an Aura that's also a creature can't enchant anything (303.4d)"
    if to == aura:
        return "an Aura can't enchant itself (303.4d)"
    for quality in qualities:
        if quality in PLAYER_QUALITIES:
            if not isinstance(to, str):
                return f"enchant {quality}: it can't be attached to a permanent (702.5d)"
            if quality == "opponent" and to == controller:
                return f"enchant opponent: {to} is its controller"
            continue
        if isinstance(to, str):
            return f"enchant {quality}: it can't enchant a player"
        spec = enchant_target(quality)
        desc = next(spec.find_data("obj_desc"), None)
        if desc is None or state.zone_of(to) is not state.battlefield or not matches(state, controller, desc, to, aura):
            return f"enchant {quality}: {state.cards[to].display_name} isn't one"
    from .protection import protection
    if not isinstance(to, str) and protection(state, to, aura):
        return f"{state.cards[to].display_name} has protection from it (Protection — CR 702.16c)"
    return None


def cite(number: str) -> Citation:
    return Citation("Enchantments", number) if number.startswith("303") else Citation(KEYWORD, number)


def enchant(state: GameState, player: str | None, aura: int, to: int | str) -> bool:
    """Attach the Aura ``aura`` to ``to``, if its enchant abilities allow it (702.5a; Attach — CR 701.3b)."""
    from .attach import attach
    return attach(state, player, aura, to, citation=Citation(KEYWORD, "702.5a"))
