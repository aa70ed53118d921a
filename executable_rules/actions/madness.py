"""Madness — CR 702.35 (702.35a–b)

Madness is two abilities: a static ability that works while the card is in a
player's hand, and a triggered ability that works when the first is applied.
"Madness [cost]" means "If a player would discard this card, that player
discards it, but exiles it instead of putting it into their graveyard" and
"When this card is exiled this way, its owner may cast it by paying [cost]
rather than paying its mana cost. If that player doesn't, they put this card
into their graveyard" (Madness — CR 702.35a). The madness cost is an
alternative cost (702.35b; Casting Spells — CR 601.2b, 601.2f–h): the mana
value doesn't change, cost increases and reductions apply to it, and the spell
is cast while the trigger resolves, so the timing of its card type doesn't
apply (Resolving Spells and Abilities — CR 608.2g).

The card is still discarded: a cost paid by discarding it is paid. Discarded
while a spell resolves, it goes to exile at once, and its trigger is put on
the stack the next time a player would receive priority — after that spell has
finished (Handling Triggered Abilities — CR 603.3).

Not run: a card with madness discarded to pay a cost. The engine pays no
"discard a card" cost yet (an activated ability's is refused as not modelled,
Lightning Axe's additional cost is skipped), so the card ruling that the cost
is still paid and the madness spell resolves first has no scenario.

Cards are discarded only from a hand (Discard — CR 701.9a): the replacement
applies to a card moving from its owner's hand to their graveyard, which in
the model is always a discard.

>>> from executable_rules.model import OracleCard
>>> str(madness_cost(OracleCard.simple("Fiery Temper", "{1}{R}{R}", "Instant",
...                  text="Fiery Temper deals 3 damage to any target.\\nMadness {R}")))
'{R}'
"""

from __future__ import annotations

from collections.abc import Callable

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import (
    EventKind,
    GameState,
    ManaCost,
    OracleCard,
    TriggeredAbility,
    Zone,
    ZoneKind,
)

KEYWORD = "Madness"
KIND = "keyword ability"
JAPANESE = ("マッドネス",)
SUBRULES = ("a", "b")
SUMMARY = "Discarded, it is exiled instead; then its owner may cast it for its madness cost, or it goes to the graveyard."
OUT_OF_REACH = {
    "c": "no effect the grammar reads refers to \"the discarded card\" after it was discarded, so finding the card in "
         "the public zone a declined madness card went to has nothing to be shown with",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def madness_cost(card: OracleCard) -> ManaCost | None:
    """The card's mana madness cost ("Madness {2}{G}"); None without one (or for "Madness—{2}{B}, Pay 8 life")."""
    argument = card.parsed.keyword_argument(KEYWORD)
    if not argument:
        return None
    cost = "".join(argument.split())
    if not cost.startswith("{") or not cost.endswith("}") or any(ch in cost for ch in ",—"):
        return None
    return ManaCost.parse(cost)


def madness_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If a player would discard this card, that player discards it, but exiles it instead of putting it into their
    graveyard" (702.35a); the trigger "when this card is exiled this way" waits for the next priority."""
    c = state.cards[card]
    hand = state.player(c.owner).hand
    if to.kind is not ZoneKind.GRAVEYARD or state.zone_of(card) is not hand or madness_cost(c.oracle) is None:
        return None

    def trigger() -> None:
        event = state.emit(EventKind.EXILE, c.owner, (card,), names=(c.oracle.name,), source=hand.label,
                           destination="exile", detail="madness: discarded into exile instead of the graveyard",
                           citation=Citation(KEYWORD, "702.35a"))
        state.append(state.pending_triggers, TriggeredAbility(
            state.ref(card), c.oracle.name, c.owner, f"madness: cast it for {madness_cost(c.oracle)} or put it into "
            "your graveyard", event, line=0, keyword=KEYWORD))

    return state.exile, trigger


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """The madness trigger resolves: :func:`madness`."""
    madness(state, ability, choose)


def madness(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """Its owner may cast the exiled card for its madness cost (702.35a–b); if they don't, it goes to the graveyard."""
    from ..engine.replacement import put_into_graveyard
    from ..engine.stack import cast_spell
    card = ability.source.card
    if not state.is_current(ability.source) or state.zone_of(card) is not state.exile:
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="the card has left exile: nothing happens", citation=Citation(KEYWORD, "702.35a"))
        return
    c = state.cards[card]
    cost = madness_cost(c.oracle)
    assert cost is not None
    name = c.oracle.name
    answer = decide(state, Decision.of(ability.controller, f"madness: cast {name} for {cost}?",
                                       Citation(KEYWORD, "702.35a"),
                                       [Option(f"cast {name} for its madness cost {cost}", True),
                                        Option(f"put {name} into your graveyard", False)]), choose)
    if answer.value:
        # Cast while the trigger resolves: the timing of its card type doesn't apply (608.2g).
        cast_spell(state, ability.controller, card, instead=cost, instead_name="madness", cascade=True, choose=choose)
        return
    put_into_graveyard(state, card, "madness: not cast, put into its owner's graveyard", Citation(KEYWORD, "702.35a"))
