"""Banding — CR 702.22 (702.22a–m)

Banding is a static ability that modifies the rules for combat (702.22a): attacking creatures may form a band
that attacks together (702.22c–f), a creature blocking one of them blocks them all (702.22h, 702.22i), and the
defending player — not the active player — divides the damage of a creature blocked by a creature with banding
(702.22j, 702.22k). The model has no bands: this module only states the rule and why each part is out of reach,
so that ``kb check`` and the coverage tests list it rather than forget it.

>>> SUBRULES, sorted(OUT_OF_REACH)[:3]
((), ['a', 'b', 'c'])
"""

from __future__ import annotations

KEYWORD = "Banding"
KIND = "keyword ability"
JAPANESE = ("バンド",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Attacking creatures form bands; the defending player divides the damage of creatures blocked by banding."
_NO_BANDS = "the model's attack declaration has no bands (Declare Attackers Step — CR 508.1e isn't run)"
OUT_OF_REACH = {
    "a": _NO_BANDS, "b": _NO_BANDS + "; nor \"bands with other\"", "c": _NO_BANDS, "d": _NO_BANDS, "e": _NO_BANDS,
    "f": _NO_BANDS, "g": _NO_BANDS,
    "h": _NO_BANDS + ": a block can't spread to a band (the rule's example, a band of a flier and a swampwalker)",
    "i": _NO_BANDS, "j": "combat damage is always divided by the creature's controller: banding's exception isn't run",
    "k": "combat damage is always divided by the creature's controller: banding's exception isn't run",
    "m": _NO_BANDS,
}
"""Every subrule is out of reach, each with the reason."""

EXAMPLES_OUT_OF_REACH = {("702.22h", 1): OUT_OF_REACH["h"]}
"""CR examples of this rule the model can't run, each with the reason."""


def banding(state: object, card: int) -> bool:
    """Always False: no permanent is in a band in this model (see ``OUT_OF_REACH``)."""
    return False
