"""Abandon — CR 701.33 (out of the model's reach)

Only a face-up ongoing scheme can be abandoned, in an Archenemy game (Abandon — CR 701.33a): it is turned
face down and put on the bottom of its owner's scheme deck (701.33b). The model has no schemes, so nothing of it
can run; :func:`abandon` says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a', 'b'])
>>> abandon(GameState.new(["Alice"]), "Alice")
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: abandon a scheme: the model has no Archenemy game (schemes) (Abandon — CR 701.33)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Abandon'
KIND = "keyword action"
JAPANESE = ("破棄する", "破棄")
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Turn a face-up ongoing scheme face down and put it on the bottom of its owner's scheme deck."
OUT_OF_REACH = {
    'a': 'the model plays no Archenemy game (rule 904) and has no ongoing scheme cards',
    'b': 'the model has no scheme deck to put an abandoned scheme on the bottom of',
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def abandon(state: GameState, player: str) -> None:
    """Refused: abandon a scheme: the model has no Archenemy game (schemes)."""
    raise Unimplemented('abandon a scheme: the model has no Archenemy game (schemes) (Abandon — CR 701.33)')
