"""What a parsed phrase refers to: "a creature you control", "target creature an opponent controls", "creatures
you control", "each opponent", numbers in words.

These read the parse trees of :mod:`executable_rules.oracle` (the grammar's ``obj_desc``, ``plural_desc``,
``object_desc``, ``player_ref`` and ``number`` rules) and answer for the state now.

>>> number_value("three"), number_value("a"), number_value("12")
(3, 1, 12)
"""

from __future__ import annotations

from typing import Any, Iterator

from lark import Token, Tree

from ..model import Card, GameState, ObjectRef
from .layers import _description, matches, text, walk

WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
                "fourteen": 14, "fifteen": 15, "twenty": 20}

Node = Tree[Token]




def find(node: Any, name: str) -> Node | None:
    """The first subtree named ``name`` (top down), or None."""
    if isinstance(node, Tree):
        for sub in walk(node):
            if sub.data == name:
                return sub
    return None


def subtrees(node: Node) -> Iterator[Node]:
    for child in node.children:
        if isinstance(child, Tree):
            yield child


def number_value(word: str, x: int = 0) -> int:
    word = word.strip().lower()
    if word.isdigit():
        return int(word)
    if word == "x":
        return x
    return WORD_NUMBERS.get(word, 1)


def amount_of(node: Node | None, x: int = 0, default: int = 1) -> int:
    if node is None:
        return default
    number = find(node, "number")
    words = text(number) if number is not None else text(node)
    for w in words.split():
        if w.isdigit() or w in WORD_NUMBERS or w.lower() == "x":
            return number_value(w, x)
    return default


def candidates(state: GameState, controller: str, node: Node, source: int | None = None) -> list[int]:
    """Every object ``node`` could mean now: permanents, or cards in the graveyards it names."""
    pool = [c.id for c in state.permanents()]          # not the phased-out ones (Phasing — CR 702.26b)
    _, kinds, owner, _ = _description(node)
    if owner in ("in_your_graveyard", "in_a_graveyard") or any(k.endswith("card") for k in kinds):
        pool += [c for p in state.players for c in p.graveyard.cards]
    return [c for c in pool if c in state.cards and matches(state, controller, node, c, source)]


def player_refs(state: GameState, controller: str, node: Node | None, *, event_player: str | None = None) -> list[str]:
    """The players a ``player_ref`` names (``you`` when there is none)."""
    kind = str(node.data) if node is not None else "you"
    opponents = [p.name for p in state.opponents(controller)]
    if kind == "you":
        return [controller]
    if kind in ("each_opponent", "an_opponent") or kind == "target_opponent":
        return opponents[:1] if kind != "each_opponent" else opponents
    if kind == "each_player":
        return [p.name for p in state.apnap()]
    if kind in ("that_player", "they", "defending_player") and event_player:
        return [event_player]
    return [controller]


def refs(state: GameState, cards: list[int]) -> list[ObjectRef]:
    return [state.ref(c) for c in cards]


def is_card(state: GameState, card_id: int) -> Card | None:
    return state.cards.get(card_id)
