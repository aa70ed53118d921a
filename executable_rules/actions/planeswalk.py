"""Planeswalk — CR 701.31 (out of the model's reach)

To planeswalk, the planar controller puts each face-up plane and phenomenon card on the bottom of its
owner's planar deck face down, then turns the top card of their planar deck face up (Planeswalk — CR 701.31b),
only in a Planechase game (701.31a). The model has no Planechase game: no planar deck, no command zone, no plane
cards, so nothing of it can run; :func:`planeswalk` says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a', 'b', 'c', 'd'])
>>> planeswalk(GameState.new(["Alice"]), "Alice")
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: planeswalk: the model has no Planechase game (planar deck, plane cards) (Planeswalk — CR 701.31)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Planeswalk'
KIND = "keyword action"
JAPANESE = ("プレインズウォークする", "プレインズウォーク")
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Put the face-up plane on the bottom of its owner's planar deck and turn the top of your planar deck face up."
OUT_OF_REACH = {
    'a': 'the model plays no Planechase game (rule 901): there is no planar controller',
    'b': 'the model has no planar deck, no command zone and no plane or phenomenon cards',
    'c': "the planeswalking ability ({CHAOS} die rolls) and phenomena aren't modelled",
    'd': 'the model has no plane cards to planeswalk to or away from',
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def planeswalk(state: GameState, player: str) -> None:
    """Refused: planeswalk: the model has no Planechase game (planar deck, plane cards)."""
    raise Unimplemented('planeswalk: the model has no Planechase game (planar deck, plane cards) (Planeswalk — CR 701.31)')
