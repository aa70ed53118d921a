"""Cloak — CR 701.58 (701.58a–h)

Cloak works as manifest does (Manifest — CR 701.40), and the face-down 2/2
creature also has ward {2} (701.58a). It can be turned face up for its mana
cost if it is a creature card (701.58b), or for its morph or disguise cost
(701.58c–d); several cards from one library are cloaked one at a time
(701.58e); a prohibited face-down object isn't cloaked (701.58f); an instant or
sorcery that would turn face up is revealed and stays face down (701.58g);
see Face-Down Spells and Permanents — CR 708 (701.58h).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> bolt = state.add_card(OracleCard.simple("Lightning Bolt", "{R}", "Instant"), "Alice", ZoneKind.LIBRARY)
>>> cloak(state, "Alice") == [bolt]
True
>>> str(state.cards[bolt].ward), state.cards[bolt].is_creature
('{2}', True)
"""

from __future__ import annotations

from typing import Sequence

from ..citation import Citation
from ..face_down import put_face_down_one_at_a_time, turn_face_up
from ..model import FaceDown, GameState

KEYWORD = "Cloak"
KIND = "keyword action"
JAPANESE = ("偽装", "偽装する")
SUBRULES = ("a", "b", "c", "d", "e", "f", "g", "h")
SUMMARY = "Manifest with ward {2}: a face-down 2/2 creature that can be turned up for its mana cost if it's a creature card."
OUT_OF_REACH: dict[str, str] = {}
"""Every subrule of the rule is run by the model."""

__all__ = ["cloak", "turn_face_up"]


def cloak(state: GameState, player: str, cards: Sequence[int] | None = None, *, count: int = 1) -> list[int]:
    """``player`` cloaks ``cards``, or the top ``count`` cards of their library one at a time (701.58e)."""
    with state.action("cloak"):
        return put_face_down_one_at_a_time(state, player, cards, count, FaceDown.CLOAKED,
                                           Citation(KEYWORD, "701.58e"))
