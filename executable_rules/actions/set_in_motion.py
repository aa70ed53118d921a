"""Set in Motion — CR 701.32 (out of the model's reach)

Only the archenemy of an Archenemy game sets schemes in motion (Set in Motion — CR 701.32a): they move it
off the top of their scheme deck and turn it face up (701.32b), one scheme at a time (701.32c). The model has no
Archenemy game, scheme deck or scheme cards, so nothing of it can run; :func:`set_in_motion` says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a', 'b', 'c'])
>>> set_in_motion(GameState.new(["Alice"]), "Alice")
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: set a scheme in motion: the model has no Archenemy game (scheme deck, schemes) (Set in Motion — CR 701.32)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Set in Motion'
KIND = "keyword action"
JAPANESE = ('実行中にする',)
SUBRULES: tuple[str, ...] = ()
SUMMARY = 'The archenemy moves a scheme off the top of their scheme deck and turns it face up.'
OUT_OF_REACH = {
    'a': 'the model plays no Archenemy game (rule 904): there is no archenemy',
    'b': 'the model has no scheme deck, no command zone and no scheme cards',
    'c': "with no schemes, several can't be set in motion one at a time",
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def set_in_motion(state: GameState, player: str) -> None:
    """Refused: set a scheme in motion: the model has no Archenemy game (scheme deck, schemes)."""
    raise Unimplemented('set a scheme in motion: the model has no Archenemy game (scheme deck, schemes) (Set in Motion — CR 701.32)')
