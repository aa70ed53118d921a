"""Manifest — CR 701.40 (701.40a–h)

To manifest a card, turn it face down: it becomes a 2/2 face-down creature
card with no text, no name, no subtypes and no mana cost, and is put onto the
battlefield; it is a manifested permanent while it stays face down (701.40a).
Its controller may turn it face up at any time they have priority, for its
mana cost if it is a creature card (701.40b), or for its morph or disguise cost
(701.40c–d). Several cards are manifested one at a time (701.40e). If a rule or
effect prohibits the face-down object from entering the battlefield, the card
isn't manifested and stays where it was (701.40f). An instant or sorcery that
would turn face up is revealed and left face down (701.40g). The steps shared
with cloak are in :mod:`executable_rules.face_down`
(Face-Down Spells and Permanents — CR 708; 701.40h).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.LIBRARY)
>>> manifest(state, "Alice") == [bears]
True
>>> c = state.cards[bears]
>>> c.name, c.power, c.types, c.mana_cost, c.face_down.value
(None, 2, frozenset({'Creature'}), None, 'manifested')
"""

from __future__ import annotations

from typing import Sequence

from ..citation import Citation
from ..face_down import put_face_down_one_at_a_time, turn_face_up
from ..model import FaceDown, GameState

KEYWORD = "Manifest"
KIND = "keyword action"
JAPANESE = ("予示", "予示する")
SUBRULES = ("a", "b", "c", "d", "e", "f", "g", "h")
SUMMARY = "Put a card onto the battlefield face down as a 2/2 creature; turn it up for its mana cost if it's a creature card."
OUT_OF_REACH: dict[str, str] = {}
"""Every lettered subrule is implemented."""

__all__ = ["manifest", "turn_face_up"]


def manifest(state: GameState, player: str, cards: Sequence[int] | None = None, *, count: int = 1) -> list[int]:
    """``player`` manifests ``cards``, or the top ``count`` cards of their library one at a time (701.40e).

    Return the cards manifested (a prohibited one isn't, 701.40f).
    """
    with state.action("manifest"):
        return put_face_down_one_at_a_time(state, player, cards, count, FaceDown.MANIFESTED,
                                           Citation(KEYWORD, "701.40e"))
