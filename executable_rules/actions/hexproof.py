"""Hexproof — CR 702.11 (702.11a–d, 702.11h)

Hexproof is a static ability (Hexproof — CR 702.11a). On a permanent it means
"This permanent can't be the target of spells or abilities your opponents
control" (702.11b); on a player ("You have hexproof.", Leyline of Sanctity),
"You can't be the target of spells or abilities your opponents control"
(702.11c). Its controller's own spells and abilities may still target it.
"Hexproof from [quality]" stops only [quality] spells the opponents control and
abilities of [quality] sources they control (702.11d); "hexproof from black and
from white" is two such abilities (702.11f). More instances of the same
hexproof change nothing (702.11h).

Targets are checked when they are chosen (Casting Spells — CR 601.2c) and again
on resolution (Resolving Spells and Abilities — CR 608.2b), so a creature that
gains hexproof in response makes an opponent's spell lose that target.
:func:`hexproof` is what the engine's targeting asks
(:func:`executable_rules.engine.effects.legal_targets`).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["Alice", "Bob"])
>>> knight = state.add_card(OracleCard.simple("Knight of Grace", "{1}{W}", "Creature", text="First strike\\n"
...                         "Hexproof from black", power="2", toughness="2"), "Bob", ZoneKind.BATTLEFIELD)
>>> murder = state.add_card(OracleCard.simple("Murder", "{1}{B}{B}", "Instant", text="Destroy target creature."),
...                         "Alice", ZoneKind.STACK)
>>> bolt = state.add_card(OracleCard.simple("Shock", "{R}", "Instant", text="Shock deals 2 damage to any target."),
...                       "Alice", ZoneKind.STACK)
>>> hexproof(state, "Alice", knight, murder), hexproof(state, "Alice", knight, bolt), hexproof(state, "Bob", knight, murder)
(True, False, False)
>>> hexproof_qualities(state.cards[knight].oracle)
(False, frozenset({'B'}))
"""

from __future__ import annotations

import re

from ..engine.layers import COLOR_LETTERS, characteristics
from ..model import GameState, OracleCard

KEYWORD = "Hexproof"
KIND = "keyword ability"
JAPANESE = ("呪禁",)
SUBRULES = ("a", "b", "c", "d", "h")
SUMMARY = "Can't be the target of spells or abilities the opponents control (of that quality, for hexproof from)."
OUT_OF_REACH = {
    "e": "no effect of the model makes an object lose hexproof, lets a player target as though it hadn't hexproof, "
         "or looks for a card with hexproof",
    "f": "\"hexproof from [A] and from [B]\" is printed on no card of the corpus; only Veil of Summer grants it, "
         "and the grammar doesn't read that spell (its colour qualities are read from printed keyword lines)",
    "g": "\"hexproof from each [characteristic]\" (hexproof from each color) is on no card the grammar reads, and the "
         "model has no characteristic but color to be hexproof from",
}

_FROM = re.compile(r"\bhexproof((?: (?:and )?from (?:white|blue|black|red|green|monocolored|multicolored))+)",
                   re.IGNORECASE)


def hexproof_qualities(card: OracleCard) -> tuple[bool, frozenset[str]]:
    """(plain hexproof printed, the colors of its printed "hexproof from …" abilities): Hexproof — CR 702.11b, 702.11d, 702.11f."""
    plain = False
    colors: set[str] = set()
    for ability in card.parsed.abilities:
        if ability.kind != "keyword":
            continue
        for item in re.split(r"[,;]\s*", ability.text.rstrip(".")):
            m = _FROM.match(item.strip())
            if m:
                colors |= {COLOR_LETTERS[w] for w in re.findall(r"white|blue|black|red|green", m.group(1).lower())}
            elif item.strip().lower() == "hexproof":
                plain = True
    return plain, frozenset(colors)


def player_has_hexproof(state: GameState, player: str) -> bool:
    """"You have hexproof." on a permanent the player controls (702.11c)."""
    return any(a.static == "hexproof_static" for c in state.permanents(player) if not c.face_down
               for a in c.oracle.parsed.abilities)


def _source_colors(state: GameState, source: int | None) -> frozenset[str]:
    if source is None:
        return frozenset()
    if source in state.spells:
        face = state.spells[source].face
        return frozenset(c for s in (face.mana_cost.symbols if face.mana_cost else ()) for c in s.split("/")
                         if c in "WUBRG")
    if source in state.cards:
        return characteristics(state, source).colors
    return frozenset()


def hexproof(state: GameState, controller: str, target: int | str, source: int | None) -> bool:
    """Whether hexproof stops ``controller``'s spell or ability ``source`` from targeting ``target``
    (a permanent's id, or a player's name)."""
    if isinstance(target, str):
        return target != controller and player_has_hexproof(state, target)
    card = state.cards[target]
    if state.zone_of(target) is not state.battlefield or card.controller == controller:
        return False
    if card.face_down:
        return False
    keywords = characteristics(state, target).keywords
    plain, colors = hexproof_qualities(card.oracle)
    if plain or ("Hexproof" in keywords and not colors):     # printed, or gained from an effect (Ranger's Guile)
        return True
    return bool(colors & _source_colors(state, source))      # hexproof from [quality] (702.11d)
