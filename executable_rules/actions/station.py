"""Station — CR 702.184 (no subrule run)

Station is an activated ability: "Tap another untapped creature you control:
Put a number of charge counters on this permanent equal to the tapped
creature's power. Activate only as a sorcery." (Station — CR 702.184a). Cards
printed with it are station cards, with station symbols that are keyword
abilities themselves (702.184b, Station Cards — CR 721); static abilities may
make a station ability count another characteristic than power (702.184c).

No card of the corpus has station (Edge of Eternities, 2025, isn't in its card
data), so the model runs none of it; :func:`station` says whether a card
prints it.

>>> from executable_rules.model import OracleCard
>>> station(OracleCard.simple("Test", "{3}", "Artifact", text="Station (Tap another creature you control: ...)"))
True
"""

from __future__ import annotations

from ..model import OracleCard

KEYWORD = "Station"
KIND = "keyword ability"
JAPANESE = ("配備",)
SUBRULES: tuple[str, ...] = ()
SUMMARY = "Tap another creature you control: put charge counters equal to its power on this permanent (sorcery speed)."
OUT_OF_REACH = {
    "a": "no card in the corpus has station (Edge of Eternities is not in its card data), and the model has no "
         "activated ability whose cost taps another creature",
    "b": "station cards' layout and station symbols (721) aren't in the corpus's card data",
    "c": "the example's Tapestry Warden has no Oracle text in the corpus (only its Japanese name, in "
         "jpname_20250920.json), and station isn't modelled",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def station(card: OracleCard) -> bool:
    """Whether the card prints station (read from its parsed keyword lines)."""
    return card.parsed.has_keyword(KEYWORD)
