"""Behold — CR 701.4 (701.4a)

"Behold a [quality]" means "reveal a [quality] card from your hand or choose a
[quality] permanent you control on the battlefield" (701.4a). :func:`behold`
returns what was beheld and whether it had the quality as it was beheld,
which is what "if a [quality] was beheld" asks (701.4b); no effect of the
model changes a quality afterwards, and no card of the corpus asks it, so
701.4b is out of reach.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = GameState.new(["Alice"])
>>> elf = OracleCard.simple("Llanowar Elves", "{G}", "Creature", subtypes=("Elf", "Druid"), power="1", toughness="1")
>>> _ = state.add_card(elf, "Alice", ZoneKind.HAND)
>>> _ = state.add_card(elf, "Alice", ZoneKind.BATTLEFIELD)
>>> beheld = behold(state, "Alice", "Elf", choose=Scripted(["reveal Llanowar Elves from hand"]))
>>> beheld.had_quality, beheld.from_hand, state.events[-1].describe()
(True, True, 'Alice: choice Llanowar Elves — beholds an Elf (Behold — CR 701.4a)')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Behold"
KIND = "keyword action"
JAPANESE = ("後見を受ける", "後見")
SUBRULES = ("a",)
SUMMARY = "Reveal a card of the quality from your hand, or choose a permanent of the quality you control."
OUT_OF_REACH = {
    "b": "no card of the corpus asks \"if a [quality] was beheld\", and no effect of the model changes a card's "
         "types or subtypes after it is beheld, so the time the quality is judged can't be observed",
}

STEP_KEYS = {"player", "quality"}
"""``do = "behold"``: ``player`` beholds a ``quality`` (a card type or subtype: ``Elf``, ``Dragon``, ``artifact``)."""


@dataclass(frozen=True)
class Beheld:
    """What was beheld: the card, whether it was revealed from the hand, and whether it had the quality then."""

    card: int | None
    from_hand: bool
    had_quality: bool


def has_quality(state: GameState, card: int, quality: str) -> bool:
    """Whether the card or permanent has ``quality`` (a card type such as ``artifact`` or a subtype such as ``Elf``)
    now; a permanent is read with the effects on it (layers)."""
    from ..engine.layers import characteristics
    if state.zone_of(card) is state.battlefield:
        ch = characteristics(state, card)
        types, subtypes = ch.types, ch.subtypes
    else:
        types, subtypes = state.cards[card].types, state.cards[card].subtypes
    return quality.capitalize() in types or quality in subtypes


def behold(state: GameState, player: str, quality: str, *, choose: Chooser = first_legal) -> Beheld:
    """``player`` beholds a ``quality``: reveals such a card from their hand or chooses such a permanent they
    control (701.4a); return what was beheld (nothing, if they have neither)."""
    from .reveal import reveal
    hand = [c for c in state.player(player).hand.cards if has_quality(state, c, quality)]
    permanents = [c.id for c in state.permanents(player) if has_quality(state, c.id, quality)]
    article = "an" if quality[:1].lower() in "aeiou" else "a"
    if not hand and not permanents:
        state.emit(EventKind.NOTHING, player, detail=f"no {quality} card in hand nor {quality} permanent: nothing beheld",
                   citation=Citation(KEYWORD, "701.4a"))
        return Beheld(None, False, False)
    options = [Option(f"reveal {state.cards[c].display_name} from hand", (c, True))
               for c in hand] + [Option(f"choose {state.cards[c].display_name} on the battlefield", (c, False))
                                 for c in permanents]
    answer = decide(state, Decision.of(player, f"behold {article} {quality}", Citation(KEYWORD, "701.4a"), options),
                    choose)
    card, from_hand = answer.value
    if from_hand:
        reveal(state, player, [card], detail=f"to behold {article} {quality}")
    state.emit(EventKind.CHOICE, player, (card,), detail=f"beholds {article} {quality}", citation=Citation(KEYWORD, "701.4a"))
    return Beheld(card, from_hand, True)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "behold", quality = "Elf" }``."""
    behold(run.state, player, str(step["quality"]), choose=choose)
