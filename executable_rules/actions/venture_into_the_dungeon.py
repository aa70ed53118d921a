"""Venture into the Dungeon — CR 701.49 (out of the model's reach)

A player who ventures into the dungeon with no dungeon in the command zone puts one they own from outside
the game there, their venture marker on its topmost room (Venture into the Dungeon — CR 701.49a); otherwise they
move the marker to an adjacent room down an arrow (701.49b), or, from the bottommost room, complete the dungeon
and start another (701.49c); "venture into [quality]" limits the dungeon chosen (701.49d). The model has no
command zone, dungeon cards, rooms or venture marker (rule 309), so nothing of it can run; :func:`venture_into_the_dungeon`
says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a', 'b', 'c', 'd'])
>>> venture_into_the_dungeon(GameState.new(["Alice"]), "Alice")
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: venture into the dungeon: the model has no dungeons (command zone, rooms, venture marker) (Venture into the Dungeon — CR 701.49)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Venture into the Dungeon'
KIND = "keyword action"
JAPANESE = ('ダンジョン探索', '探索')
SUBRULES: tuple[str, ...] = ()
SUMMARY = 'Put a dungeon into the command zone with your venture marker on its first room, or move the marker on.'
OUT_OF_REACH = {
    'a': 'the model has no command zone and no dungeon cards (rule 309)',
    'b': "dungeon rooms, their arrows and the venture marker aren't modelled",
    'c': "completing a dungeon (309.7) isn't modelled",
    'd': 'with no dungeons, no "venture into [quality]" (the Undercity) can be chosen',
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def venture_into_the_dungeon(state: GameState, player: str) -> None:
    """Refused: venture into the dungeon: the model has no dungeons (command zone, rooms, venture marker)."""
    raise Unimplemented('venture into the dungeon: the model has no dungeons (command zone, rooms, venture marker) (Venture into the Dungeon — CR 701.49)')
