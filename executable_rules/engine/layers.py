"""A permanent's characteristics now, with continuous effects applied in layer order.

Interaction of Continuous Effects — CR 613.1 applies effects in layers; the
ones the model has:

- layer 4, type: a face-down permanent is a creature with no subtypes
  (Face-Down Spells and Permanents — CR 708.2a); effects add types;
- layer 5, colour: from the mana cost (Mana Cost and Color — CR 202.2) or a colour
  indicator; face down, colourless (708.2a; Colors — CR 105.2c); effects set it;
- layer 6, abilities: keyword abilities printed, granted by effects and by static
  abilities ("creatures you control have …"); a face-down permanent has none;
- layer 7a, characteristic-defining P/T (``*``: 0 until defined), 7b effects that set P/T,
  7c effects and counters that modify it (Interaction of Continuous Effects — CR 613.4c),
  7d switches (613.4d). Within a layer, effects apply in timestamp order (613.7).

Static abilities of permanents ("Creatures you control get +1/+1.", "Enchanted creature
gets +2/+2.") are effects with the timestamp of their permanent (613.7a).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"), "you",
...                        ZoneKind.BATTLEFIELD)
>>> c = characteristics(state, bears)
>>> (c.power, c.toughness), sorted(c.colors)
((2, 2), ['G'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from lark import Token, Tree

from ..model import Card, ContinuousEffect, FaceDown, GameState, ZoneKind
from ..oracle import Ability
from ..oracle.keywords import canonical_keyword

COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
TYPE_WORDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "land": "Land",
              "planeswalker": "Planeswalker", "battle": "Battle", "instant": "Instant", "sorcery": "Sorcery"}
Node = Tree[Token]


def walk(node: Tree[Token]) -> Iterator[Tree[Token]]:
    """Every subtree of ``node``, top down (a typed ``Tree.iter_subtrees_topdown``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.children) if isinstance(c, Tree))


def text(node: Any) -> str:
    """The words of a subtree, as printed (normalised)."""
    if isinstance(node, Token):
        return str(node)
    if isinstance(node, Tree):
        return " ".join(text(c) for c in node.children if text(c))
    return ""

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
WORD_COLORS = {v: k for k, v in COLOR_WORDS.items()}


@dataclass(frozen=True)
class Characteristics:
    """What a permanent is now."""

    name: str | None
    types: frozenset[str]
    subtypes: tuple[str, ...]
    supertypes: frozenset[str]
    colors: frozenset[str]
    keywords: frozenset[str]
    power: int | None
    toughness: int | None

    @property
    def color_names(self) -> list[str]:
        return sorted(COLOR_WORDS[c] for c in self.colors) or ["colorless"]


def _printed(value: str | None) -> int | None:
    if value is None:
        return None
    digits = value.split("+")[0]
    return int(digits) if digits.lstrip("-").isdigit() else 0


def static_grants(ability: Ability) -> tuple[Any, tuple[str, ...], str]:
    """(who it affects, keywords it grants, P/T change) of an anthem or grant static ability."""
    node = ability.tree
    assert node is not None
    inner = node.children[0]
    assert isinstance(inner, Tree)
    who = next((c for c in inner.children if isinstance(c, Tree) and c.data == "object"), None)
    who = who if who is not None else next((c for c in inner.children if isinstance(c, Tree)
                                           and c.data in ("each_object", "enchanted", "equipped")), None)
    pt = next((str(c) for c in inner.children if isinstance(c, Token) and c.type == "PT"), "")
    keywords = tuple(canonical_keyword(str(k.children[0])) or str(k.children[0])
                     for k in inner.find_data("keyword"))
    return who, keywords, pt


def static_condition(ability: Ability) -> str | None:
    """The "as long as …" condition of an anthem or grant static ability, if it has one."""
    node = ability.tree
    inner = node.children[0] if node is not None and node.children else None
    if not isinstance(inner, Tree):
        return None
    return next((str(c).strip() for c in inner.children if isinstance(c, Token) and c.type == "CONDITION"), None)


def read_pt(pt: str) -> tuple[int, int]:
    """``+1/+1`` → (1, 1); ``-2/-0`` → (-2, 0)."""
    if not pt:
        return 0, 0
    p, t = pt.split("/")
    return int(p.replace("x", "0")), int(t.replace("x", "0"))


def affects(state: GameState, source: Card, who: Any, card: Card) -> bool:
    """Whether a static ability of ``source`` affecting ``who`` ("creatures you control") applies to ``card``."""
    if who is None or source.controller is None:
        return False
    node = who.children[0] if isinstance(who, Tree) and who.data == "object" and who.children else who
    if isinstance(node, Token):
        return node.type == "SELF" and card.id == source.id
    if node.data == "each_object":
        desc = next((c for c in node.children if isinstance(c, Tree)), None)
        return desc is not None and matches(state, source.controller, desc, card.id, source.id)
    if node.data in ("enchanted", "equipped"):      # whatever it is attached to (Enchantments — CR 303.4m, Artifacts — CR 301.5f)
        from ..actions.attach import attached_object
        return attached_object(state, source.id) == card.id
    return False


def _static_effects(state: GameState) -> list[tuple[int, Card, Any, tuple[str, ...], int, int]]:
    """(timestamp, source, who, keywords, +power, +toughness) of the anthem and grant abilities on the battlefield."""
    found = []
    for source in state.permanents():
        if source.face_down:
            continue
        for ability in source.oracle.parsed.abilities:
            if ability.kind != "static" or ability.static not in ("anthem", "grant") or ability.tree is None:
                continue
            who, keywords, pt = static_grants(ability)
            condition = static_condition(ability)
            # "~ gets +1/+2 as long as you control a Forest": the effect exists only while the condition holds, and
            # is checked at every moment (Handling Static Abilities — CR 604.1; Continuous Effects — CR 611.3a).
            if condition is not None:
                from .conditions import static_condition_holds
                if not static_condition_holds(state, source.id, condition):
                    continue
            found.append((source.timestamp, source, who, keywords, *read_pt(pt)))
    return found


def characteristics(state: GameState, card_id: int, *, statics: bool = True) -> Characteristics:
    """The permanent's (or card's) characteristics with every applicable effect.

    With ``statics=False`` the static abilities of permanents are left out: what they affect is decided by the
    types and colours of layers 4 and 5, which no static ability of the model changes, so deciding it this way
    can't loop (Interaction of Continuous Effects — CR 613.8 handles dependencies in general)."""
    card = state.cards[card_id]
    oracle = card.oracle
    face_down = card.face_down is not None
    ref = state.ref(card_id)
    effects: list[ContinuousEffect] = [e for e in state.continuous if ref in e.affected]
    effects.sort(key=lambda e: e.timestamp)
    # Layer 4: type.
    types = frozenset({"Creature"}) if face_down else oracle.types
    types = types | card.added_types
    for e in effects:
        if e.layer == "4":
            types |= e.types
    if not face_down and "Creature" in types and state.zone_of(card_id) is state.battlefield:
        types = _isnt_creature(state, card, types)
    subtypes = () if face_down else oracle.subtypes
    for e in effects:
        if e.layer == "4" and e.subtypes:
            subtypes += tuple(t for t in e.subtypes if t not in subtypes)
    # Layer 5: colour.
    colors = frozenset() if face_down else oracle.colors
    if not face_down and oracle.parsed.has_keyword("Devoid"):
        colors = frozenset()     # a characteristic-defining ability, applied first in its layer (Devoid — CR 702.114a)
    for e in effects:
        if e.layer == "5" and e.colors is not None:
            colors = e.colors
    # Layer 6: abilities.
    keywords = frozenset() if face_down else frozenset(k for k, _ in oracle.parsed.keywords)
    for e in effects:
        if e.layer == "6":
            keywords |= frozenset(e.keywords)
    on_battlefield = state.zone_of(card_id) is state.battlefield
    found = _static_effects(state) if on_battlefield and statics else []
    for _, source, who, granted, _, _ in found:
        if granted and affects(state, source, who, card):
            keywords |= frozenset(granted)
    # Layer 7: power and toughness.
    if "Creature" not in types:
        power = toughness = None
    else:
        power = 2 if face_down else (_printed(oracle.main.power) or 0)
        toughness = 2 if face_down else (_printed(oracle.main.toughness) or 0)
        for e in effects:                                                   # 7b
            if e.layer == "7b":
                power, toughness = e.power, e.toughness
        modifiers = [(e.timestamp, e.power, e.toughness) for e in effects if e.layer == "7c"]
        modifiers += [(t, p, q) for t, source, who, _, p, q in found if (p or q) and affects(state, source, who, card)]
        for _, p, q in sorted(modifiers):                                   # 7c, in timestamp order
            power, toughness = power + p, toughness + q
        counters = card.counters.get("+1/+1", 0) - card.counters.get("-1/-1", 0)
        power, toughness = power + counters, toughness + counters
        for e in effects:                                                   # 7d
            if e.layer == "7d":
                power, toughness = toughness, power
    name = None if face_down else oracle.name
    return Characteristics(name, types, subtypes, frozenset() if face_down else oracle.supertypes, colors, keywords,
                           power, toughness)


def _isnt_creature(state: GameState, card: Card, types: frozenset[str]) -> frozenset[str]:
    """"As long as [condition], ~ isn't a creature" (Theros's gods): while the condition holds, its own static
    ability removes the type (layer 4: Interaction of Continuous Effects — CR 613.1d). Devotion, the usual
    condition, counts mana costs, not types, so judging it here can't loop."""
    for ability in card.oracle.parsed.abilities:
        if ability.static == "isnt_creature" and ability.tree is not None:
            from .replacement import condition_holds
            condition = next(str(t) for t in ability.tree.scan_values(
                lambda v: isinstance(v, Token) and v.type == "CONDITION"))
            if condition_holds(state, card.controller or card.owner, condition, card.id):
                return types - {"Creature"}
    return types


def devotion(state: GameState, player: str, colors: frozenset[str]) -> int:
    """A player's devotion to one colour or two: the mana symbols of those colours among the mana costs of the
    permanents they control, a hybrid symbol of both counted once (General — CR 700.5, 700.5a)."""
    count = 0
    for permanent in state.permanents(player):
        if permanent.face_down or permanent.oracle.mana_cost is None:
            continue
        count += sum(1 for symbol in permanent.oracle.mana_cost.symbols if set(symbol.split("/")) & colors)
    return count


def has_keyword(state: GameState, card_id: int, keyword: str) -> bool:
    return keyword in characteristics(state, card_id).keywords


def ward_of(card: Card) -> str | None:
    """Cloaked permanents have ward {2} (Cloak — CR 701.58a)."""
    return "{2}" if card.face_down is FaceDown.CLOAKED else None


# ---------------------------------------------------------------- describing objects


def _description(node: Node) -> tuple[set[str], set[str], str | None, str]:
    """(adjectives, type words, owner clause, with clause) of an obj_desc / plural_desc / object_desc node."""
    adjectives: set[str] = set()
    kinds: set[str] = set()
    owner = None
    with_text = ""
    for child in node.children:
        if isinstance(child, Tree):
            if child.data == "adjs":
                adjectives |= {str(t) for t in child.children if str(t) != ","}
            elif child.data == "with_clause":
                with_text = text(child)
            else:
                owner = str(child.data)
        elif isinstance(child, Token) and child.type in ("BASE_TYPE", "PLURAL_TYPE"):
            kinds |= set(str(child).removesuffix("s").replace(" cards", " card").split(" or "))
        elif isinstance(child, Token) and child.type == "SUBTYPE_NOUN":  # "target Forest": a subtype, any permanent
            adjectives.add(str(child))
        elif isinstance(child, Token) and str(child) == "other":       # "other Elf creatures": not itself
            adjectives.add("other")
    return adjectives, kinds, owner, with_text


def matches(state: GameState, controller: str, node: Node, card_id: int, source: int | None = None) -> bool:
    """Whether ``card_id`` is described by ``node`` ("a creature you control", "other Elf creatures …") for a
    source controlled by ``controller``."""
    if not isinstance(node, Tree):
        return False
    if node.data == "object_desc" and any(isinstance(c, Token) and c.type == "SELF" for c in node.children):
        return card_id == source
    adjectives, kinds, owner, with_text = _description(node)
    card = state.cards[card_id]
    on_battlefield = state.zone_of(card_id) is state.battlefield
    if on_battlefield:
        ch = characteristics(state, card_id, statics=False)
        types, subtypes, supertypes, colors = ch.types, ch.subtypes, ch.supertypes, ch.colors
    else:
        o = card.oracle
        types, subtypes, supertypes, colors = o.types, o.subtypes, o.supertypes, o.colors
    for kind in kinds or {"permanent"}:
        if _kind_matches(kind, types, on_battlefield):
            break
    else:
        return False
    for adjective in adjectives:
        a = adjective.lower()
        if a in ("other", "another") and card_id == source:
            return False
        if a.startswith("non") and a[3:] in TYPE_WORDS and TYPE_WORDS[a[3:]] in types:
            return False
        if a == "nontoken" and card.is_token:
            return False
        if a == "face-down" and not card.face_down:
            return False
        if a == "basic" and "Basic" not in supertypes:
            return False
        if a == "legendary" and "Legendary" not in supertypes:
            return False
        if a in COLOR_LETTERS and COLOR_LETTERS[a] not in colors:
            return False
        if a == "colorless" and colors:
            return False
        if a in ("tapped", "untapped") and card.tapped != (a == "tapped"):
            return False
        if a in ("attacking", "blocking", "attacking or blocking") and not _in_combat_as(state, card_id, a):
            return False
        if a in TYPE_WORDS and TYPE_WORDS[a] not in types:
            return False
        if adjective[:1].isupper() and adjective not in subtypes:
            from ..actions.changeling import changeling                   # every creature type: Changeling — CR 702.73a
            if not changeling(card.oracle, adjective, face_down=card.face_down is not None):
                return False
    if with_text:
        if "flying" in with_text and "Flying" not in characteristics(state, card_id, statics=False).keywords:
            return False
        value = re.search(r"mana value (\d+) or (less|greater)", with_text)
        if value:                                                       # "with mana value 4 or less"
            limit, mv = int(value.group(1)), card.mana_value
            if (mv > limit) if value.group(2) == "less" else (mv < limit):
                return False
    controller_of = card.controller or card.owner
    if owner == "you_control" and not (on_battlefield and controller_of == controller):
        return False
    if owner == "opponent_controls" and not (on_battlefield and controller_of != controller):
        return False
    if owner == "you_dont_control" and controller_of == controller:
        return False
    if owner == "defending_player_controls" and not (on_battlefield and controller_of == _defending_player(state, source)):
        return False
    if owner == "in_your_graveyard" and state.zone_of(card_id) is not state.player(controller).graveyard:
        return False
    if owner == "in_a_graveyard" and state.zone_of(card_id).kind is not ZoneKind.GRAVEYARD:
        return False
    if owner is None and not on_battlefield and kinds & {"creature", "artifact", "enchantment", "land",
                                                         "planeswalker", "permanent", "creature or planeswalker"}:
        return False
    return True


def _in_combat_as(state: GameState, card_id: int, quality: str) -> bool:
    """Whether the permanent is an attacking or blocking creature now, read from the combat record alone, since
    this runs while continuous effects are being applied.
    Declare Attackers Step — CR 508.1k; Declare Blockers Step — CR 509.1g"""
    combat = state.combat
    if combat is None:
        return False
    attacking = any(state.is_current(ref) and ref.card == card_id for ref, _ in combat.attackers)
    blocking = any(state.is_current(ref) and ref.card == card_id for ref, _ in combat.blocks)
    return {"attacking": attacking, "blocking": blocking, "attacking or blocking": attacking or blocking}[quality]


def _defending_player(state: GameState, source: int | None) -> str | None:
    """"Defending player" in the text of an attacking creature's ability: the player it attacks, or the controller
    of the planeswalker it attacks (Declare Attackers Step — CR 508.5); with no combat, there is none."""
    combat = state.combat
    if combat is None or not combat.attackers:
        return None
    chosen = next(((r, a) for r, a in combat.attackers if r.card == source), combat.attackers[0])
    attacked = chosen[1]
    if isinstance(attacked, str):
        return attacked
    permanent = state.cards.get(attacked.card)
    return permanent.controller if permanent is not None else None


def _kind_matches(kind: str, types: frozenset[str], on_battlefield: bool) -> bool:
    kind = kind.strip()
    if kind in ("permanent", "token"):
        return on_battlefield
    if kind in ("card",):
        return True
    if kind.endswith(" card"):
        word = kind.removesuffix(" card")
        if word == "permanent":
            return bool(types & {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})
        if word in ("instant or sorcery", "instant and sorcery"):     # "each instant and sorcery card": either
            return bool(types & {"Instant", "Sorcery"})
        return all(TYPE_WORDS.get(w) in types for w in word.split() if w in TYPE_WORDS)
    if kind in TYPE_WORDS:
        return TYPE_WORDS[kind] in types
    return False


