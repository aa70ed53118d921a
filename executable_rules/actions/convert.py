"""Convert — CR 701.28 (out of the model's reach)

To convert a permanent is to turn it so its other face is up, following the rules of transforming
(Convert — CR 701.28a); it is not turning face up or down (701.28b). A permanent that isn't a double-faced card or
token doesn't convert (701.28c), nor does one whose other face is an instant or sorcery (701.28d); an ability of a
permanent converts it only if it hasn't converted or transformed since (701.28e); what can't transform can't
convert (701.28f). The corpus's card data gives each face of a transforming double-faced card (the Transformers
cards that convert) as a card of its own, with no link to the other face, so the model has no permanent with
another face to turn up: even 701.28c can't be run faithfully, since the model would take a real double-faced
card for a single-faced one. :func:`convert` says so.

>>> from executable_rules.model import GameState
>>> SUBRULES, sorted(OUT_OF_REACH)
((), ['a', 'b', 'c', 'd', 'e', 'f'])
>>> convert(GameState.new(["Alice"]), "Alice", 1)
Traceback (most recent call last):
...
executable_rules.errors.Unimplemented: convert: the model has no transforming double-faced cards (the corpus gives their faces unlinked) (Convert — CR 701.28)
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState

KEYWORD = 'Convert'
KIND = "keyword action"
JAPANESE = ('トランスフォーム',)
SUBRULES: tuple[str, ...] = ()
SUMMARY = 'Turn a double-faced permanent so its other face is up (as transforming does).'
OUT_OF_REACH = {
    'a': "the corpus's transforming double-faced cards have no linked back face, so no permanent has another face to turn up",
    'b': "with no double-faced permanents, converting can't be told apart from turning face up or down",
    'c': "the model can't tell a real single-faced permanent from a double-faced card whose back face the corpus doesn't link",
    'd': 'no double-faced card of the model has an instant or sorcery face to convert into',
    'e': 'converting and transforming aren\'t modelled, so "hasn\'t converted or transformed since" can\'t be judged',
    'f': 'the model has no "can\'t transform" effects',
}
"""Every subrule, each with the reason the model can't run it (the coverage test reads it)."""


def convert(state: GameState, player: str, permanent: int) -> None:
    """Refused: convert: the model has no transforming double-faced cards (the corpus gives their faces unlinked)."""
    raise Unimplemented('convert: the model has no transforming double-faced cards (the corpus gives their faces unlinked) (Convert — CR 701.28)')
