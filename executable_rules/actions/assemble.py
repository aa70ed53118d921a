"""Assemble — CR 701.45 (out of the model's reach)

Assemble is the Unstable keyword action that puts Contraptions onto the battlefield; the CR leaves its rules
to the Unstable FAQ, and only Steamflogger Boss refers to it outside silver-bordered cards (Assemble — CR 701.45a).
The model has no Contraption deck or sprockets, so nothing of it can run; :func:`assemble` says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a'])
>>> assemble(GameState.new(["Alice"]), "Alice")
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: assemble a Contraption: the model has no Contraption deck (Assemble — CR 701.45)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Assemble'
KIND = "keyword action"
JAPANESE = ("組み立てる", "組み立て")
SUBRULES: tuple[str, ...] = ()
SUMMARY = 'Put a Contraption from your Contraption deck onto the battlefield (Unstable; Steamflogger Boss).'
OUT_OF_REACH = {
    'a': "Contraptions, the Contraption deck and sprockets aren't in the CR or the model (the Unstable FAQ has them)",
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def assemble(state: GameState, player: str) -> None:
    """Refused: assemble a Contraption: the model has no Contraption deck."""
    raise Unimplemented('assemble a Contraption: the model has no Contraption deck (Assemble — CR 701.45)')
