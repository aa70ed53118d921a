"""Partner — CR 702.124 (702.124a–c, 702.124f, 702.124h, 702.124j)

Partner abilities change the Commander variant's deck construction
(Commander — CR 903) and work before the game begins: each lets a player designate two
legendary cards as their commander rather than one, under its own requirement
(Partner — CR 702.124a). The deck is still exactly 100 cards, the two
commanders included (702.124b), and "your commander's color identity" is the
two commanders' combined color identity (702.124c; Commander — CR 903.4).
Different partner abilities can't be combined: one commander with "partner"
and the other with "partner with [name]" is not allowed (702.124f).
"Partner" pairs two cards that each have partner (702.124h); "partner with
[name]" pairs exactly the two cards that name each other (702.124j — its
second ability, an enters trigger that searches for the partner, is a
triggered ability this module doesn't run).

:func:`partner` checks a pair of commanders and a deck and returns the
combined color identity; a pair that isn't allowed is refused with the rule.
The model plays no Commander game, so the rules for two commanders during the
game (702.124d–e) are out of its reach.

>>> from executable_rules.model import OracleCard
>>> tymna = OracleCard.simple("Tymna the Weaver", "{1}{W}{B}", "Creature", supertypes=["Legendary"],
...                          text="Lifelink\\nPartner")
>>> thrasios = OracleCard.simple("Thrasios, Triton Hero", "{G}{U}", "Creature", supertypes=["Legendary"], text="Partner")
>>> partner(tymna, thrasios)
('B', 'G', 'U', 'W')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..choices import Chooser
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, OracleCard

KEYWORD = "Partner"
KIND = "keyword ability"
JAPANESE = ("共闘",)
SUBRULES = ("a", "b", "c", "f", "h", "j")
SUMMARY = "Deck construction for Commander: two legendary cards with matching partner abilities may both be your commander."
OUT_OF_REACH = {
    "d": "the model plays no Commander game: no command zone, commander tax or commander damage",
    "e": "the model plays no Commander game, so no effect refers to \"your commander\"",
    "g": "no card of the corpus has more than one partner ability",
    "i": "no card of the corpus's card data has a \"partner—[text]\" ability",
    "k": "no legendary Background enchantment is in the corpus's card data, so \"choose a Background\" has no partner",
    "m": "no card of the corpus's card data has \"Doctor's companion\" or is a Time Lord Doctor",
    "n": "no effect the grammar reads refers to a partner ability by name",
}
STEP_KEYS = {"player", "commanders", "deck", "deck_size"}
"""The keys of the scenario step ``{ do = "partner", commanders = [two names], deck = [names], deck_size = 100 }``."""

DECK_SIZE = 100
_SYMBOL = re.compile(r"\{([^}]+)\}")


def color_identity(card: OracleCard) -> frozenset[str]:
    """The card's color identity: the colors of the mana symbols in its mana cost and rules text, reminder text
    left out (Commander — CR 903.4), and its colors."""
    text = re.sub(r"\([^)]*\)", "", card.text)
    symbols = _SYMBOL.findall(text) + _SYMBOL.findall(str(card.mana_cost or ""))
    return frozenset(c for s in symbols for c in "WUBRG" if c in s.upper().split("/") or s.upper() == c) | card.colors


def _partner_ability(card: OracleCard) -> tuple[str, str] | None:
    """("partner", "") or ("partner with", name) of the card (None without a partner ability)."""
    argument = card.parsed.keyword_argument(KEYWORD)
    if argument is None:
        return None
    return ("partner with", argument.strip()) if argument.strip() else ("partner", "")


def _can_be_commander(card: OracleCard) -> bool:
    return "Legendary" in card.supertypes and ("Creature" in card.types or "can be your commander" in card.text)


def partner(first: OracleCard, second: OracleCard, deck: Sequence[OracleCard] = (),
            deck_size: int = DECK_SIZE) -> tuple[str, ...]:
    """Check that ``first`` and ``second`` may both be your commander, with ``deck`` (other cards of it) and
    ``deck_size`` cards in all; return their combined color identity. :class:`IllegalChoice` names the rule broken."""
    label = f"commanders {first.name} and {second.name}"
    for card in (first, second):
        if not _can_be_commander(card):
            raise IllegalChoice(label, f"{card.name} isn't a legendary creature (nor says it can be your commander)",
                                Citation(KEYWORD, "702.124a"))
    abilities = (_partner_ability(first), _partner_ability(second))
    if abilities[0] is None or abilities[1] is None:
        lacking = first.name if abilities[0] is None else second.name
        raise IllegalChoice(label, f"{lacking} has no partner ability", Citation(KEYWORD, "702.124a"))
    if abilities[0][0] != abilities[1][0]:
        raise IllegalChoice(label, "one has partner and the other partner with [name]: different partner abilities "
                            "can't be combined", Citation(KEYWORD, "702.124f"))
    if abilities[0][0] == "partner with" and (abilities[0][1] != second.name or abilities[1][1] != first.name):
        raise IllegalChoice(label, f"{first.name} partners with {abilities[0][1]} and {second.name} with "
                            f"{abilities[1][1]}: each must name the other", Citation(KEYWORD, "702.124j"))
    if deck_size != DECK_SIZE:
        raise IllegalChoice(label, f"the deck has {deck_size} cards: it must have exactly {DECK_SIZE}, its two "
                            "commanders included", Citation(KEYWORD, "702.124b"))
    identity = color_identity(first) | color_identity(second)
    for card in deck:
        outside = color_identity(card) - identity
        if outside:
            raise IllegalChoice(label, f"{card.name}'s color identity ({', '.join(sorted(outside))}) is outside the "
                                f"commanders' combined color identity ({', '.join(sorted(identity)) or 'colorless'})",
                                Citation(KEYWORD, "702.124c"))
    return tuple(sorted(identity))


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "partner", commanders = ["Tymna the Weaver", "Thrasios, Triton Hero"] }``."""
    first, second = (run.state.cards[run.card(n, "commanders")] for n in step["commanders"])
    deck = [run.state.cards[run.card(n, "deck")].oracle for n in step.get("deck", [])]
    identity = partner(first.oracle, second.oracle, deck, int(step.get("deck_size", DECK_SIZE)))
    run.state.emit(EventKind.NOTHING, player, (first.id, second.id),
                   detail=f"commanders: {first.oracle.name} and {second.oracle.name}; color identity "
                   f"{', '.join(identity) or 'colorless'}", citation=Citation(KEYWORD, "702.124a"))
