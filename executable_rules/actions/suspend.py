"""Suspend — CR 702.62 (702.62a–d)

Suspend is three abilities: a static ability that works while the card is in
a hand, and two triggered abilities that work in exile. "Suspend N—[cost]"
means "If you could begin to cast this card by putting it onto the stack from
your hand, you may pay [cost] and exile it with N time counters on it. This
action doesn't use the stack", "At the beginning of your upkeep, if this card
is suspended, remove a time counter from it" and "When the last time counter
is removed from this card, if it's exiled, you may play it without paying its
mana cost if able. If you don't, it remains exiled. If you cast a creature
spell this way, it gains haste until you lose control of the spell or the
permanent it becomes" (Suspend — CR 702.62a). A card is suspended if it is
in exile, has suspend and has a time counter on it (702.62b). Whether it
could be cast takes every effect that would prohibit casting it into account
(702.62c), and its card type's timing (a sorcery only in your main phase with
an empty stack). Cast with suspend, it is cast without paying its mana cost,
an alternative cost (702.62d; Casting Spells — CR 601.2b): its mana value is
still that of its mana cost, and its targets are chosen then, not when it was
exiled. It is cast while the trigger resolves, so its type's timing doesn't
apply (Resolving Spells and Abilities — CR 608.2g).

:func:`suspend` is the special action; :func:`watch_upkeep` is the engine's
watcher for the two triggered abilities and the haste of a creature cast this
way. Only the removal by suspend's own upkeep ability triggers the third
ability here (other removals, such as time travel's, don't yet).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> bolt = state.add_card(OracleCard.simple("Rift Bolt", "{2}{R}", "Sorcery", text="Suspend 1—{R}"), "you",
...                       ZoneKind.HAND)
>>> n, cost = suspend_parts(state.cards[bolt].oracle); n, str(cost)
(1, '{R}')
"""

from __future__ import annotations

import re
from typing import Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import (
    ContinuousEffect,
    Event,
    EventKind,
    GameState,
    ManaCost,
    OracleCard,
    TriggeredAbility,
)

KEYWORD = "Suspend"
KIND = "keyword ability"
JAPANESE = ("待機",)
SUBRULES = ("a", "b", "c", "d")
SUMMARY = "Pay the suspend cost to exile the card from your hand with N time counters; one comes off each upkeep; with the last, cast it free."
OUT_OF_REACH: dict[str, str] = {}
"""Every lettered subrule of suspend (702.62a–d) is implemented."""
STEP_KEYS = {"player", "card"}
"""The keys of the scenario step ``{ do = "suspend", card = "Rift Bolt" }``."""

REMOVE, CAST = 1, 2
"""The ``line`` of suspend's two triggered abilities."""
CAST_WITH_SUSPEND = "cast with suspend"

_PARTS = re.compile(r"^\s*(\d+)\s*—\s*((?:\{[^}]+\}\s*)+)$")


def suspend_parts(card: OracleCard) -> tuple[int, ManaCost] | None:
    """(N, cost) of the card's "Suspend N—[cost]" (None without suspend, or with a cost that isn't mana)."""
    argument = card.parsed.keyword_argument(KEYWORD)
    m = _PARTS.match(argument or "")
    if m is None:
        return None
    return int(m.group(1)), ManaCost.parse("".join(m.group(2).split()))


def is_suspended(state: GameState, card: int) -> bool:
    """702.62b: in exile, with suspend, with a time counter on it."""
    c = state.cards[card]
    return (state.zone_of(card) is state.exile and c.counters.get("time", 0) > 0
            and c.oracle.parsed.has_keyword(KEYWORD))


def suspend(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``player`` suspends ``card`` from their hand: pays the cost and exiles it with N time counters (702.62a), a
    special action that uses no stack."""
    from ..engine.mana import pay_mana
    from ..engine.stack import cast_permitted
    from .flash import flash
    c = state.cards[card]
    name = c.oracle.name
    parts = suspend_parts(c.oracle)
    if parts is None:
        raise IllegalChoice(f"suspend {name}", f"{name} has no suspend the model reads", Citation(KEYWORD, "702.62a"))
    if state.zone_of(card) is not state.player(player).hand:
        raise IllegalChoice(f"suspend {name}", f"{name} isn't in {player}'s hand", Citation(KEYWORD, "702.62a"))
    instant = "Instant" in c.oracle.types or flash(c.oracle)
    if not instant and (state.stack.cards or state.active != player or "main" not in state.step):
        raise IllegalChoice(f"suspend {name}", f"{player} couldn't begin to cast {name} now: its type's timing "
                            "(a main phase of their own turn, the stack empty)", Citation(KEYWORD, "702.62c"))
    try:
        cast_permitted(state, player, card, c.oracle.main)
    except IllegalChoice as stopped:              # an effect that would prohibit casting it (702.62c)
        raise IllegalChoice(f"suspend {name}", f"{player} couldn't begin to cast {name}: {stopped.reason}",
                            Citation(KEYWORD, "702.62c")) from None
    n, cost = parts
    with state.action(f"suspend {name}"):
        pay_mana(state, player, cost, choose, f"{name}'s suspend cost")
        state.move(card, state.exile)
        state.add_counters(card, "time", n)
        state.emit(EventKind.EXILE, player, (card,), source=state.player(player).hand.label, destination="exile",
                   amount=n, detail=f"suspended: exiled with {n} time counter(s); a special action, it uses no stack",
                   citation=Citation(KEYWORD, "702.62a"))


def _trigger(state: GameState, card: int, line: int, text: str, event: Event) -> None:
    c = state.cards[card]
    state.append(state.pending_triggers, TriggeredAbility(state.ref(card), c.oracle.name, c.owner, text, event,
                                                          line=line, keyword=KEYWORD))


def watch_upkeep(state: GameState, event: Event) -> None:
    """The engine's watcher: "At the beginning of your upkeep, if this card is suspended" (702.62a–b); and a
    creature spell cast with suspend gains haste as the permanent it becomes (702.62a)."""
    if event.kind is EventKind.STEP and event.detail.startswith("upkeep"):
        for card in list(state.exile.cards):
            if card in state.cards and state.cards[card].owner == state.active and is_suspended(state, card):
                _trigger(state, card, REMOVE, "suspend: remove a time counter", event)
    elif event.kind is EventKind.MOVE and event.source == "stack" and event.destination == "battlefield":
        for card in event.cards:
            if (card, state.incarnation.get(card, 0) - 1, CAST_WITH_SUSPEND) in state.designations:
                state.append(state.continuous, ContinuousEffect(f"{state.cards[card].oracle.name}'s suspend", "6",
                                                                (state.ref(card),), state.stamp(), keywords=("Haste",),
                                                                duration="indefinitely"))
                state.emit(EventKind.EFFECT, state.cards[card].controller, (card,),
                           detail="cast with suspend: it has haste", citation=Citation(KEYWORD, "702.62a"))


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """Suspend's upkeep ability removes a time counter (then, with the last, the cast ability triggers); the cast
    ability lets its owner cast it without paying its mana cost, or it remains exiled (702.62a)."""
    from ..engine.stack import cast_spell
    card = ability.source.card
    name = ability.source_name
    if ability.line == REMOVE:
        if not state.is_current(ability.source) or not is_suspended(state, card):
            state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                       detail=f"{name} isn't suspended now: nothing happens", citation=Citation(KEYWORD, "702.62b"))
            return
        state.add_counters(card, "time", -1)
        left = state.cards[card].counters.get("time", 0)
        event = state.emit(EventKind.COUNTER, ability.controller, (card,), amount=-1,
                           detail=f"a time counter removed ({left} left)", citation=Citation(KEYWORD, "702.62a"))
        if left == 0:
            _trigger(state, card, CAST, "suspend: the last time counter was removed; you may cast it", event)
        return
    if not state.is_current(ability.source) or state.zone_of(card) is not state.exile:
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail=f"{name} isn't in exile: nothing happens", citation=Citation(KEYWORD, "702.62a"))
        return
    answer = decide(state, Decision.of(ability.controller, f"suspend: cast {name} without paying its mana cost?",
                                       Citation(KEYWORD, "702.62a"),
                                       [Option(f"cast {name} without paying its mana cost", True),
                                        Option(f"don't cast {name}: it remains exiled", False)]), choose)
    if not answer.value:
        return
    # Cast while the trigger resolves: the timing of its card type doesn't apply (608.2g); 702.62d.
    cast_spell(state, ability.controller, card, without_paying=True, cascade=True, choose=choose)
    if "Creature" in state.cards[card].oracle.types:
        state.designate(card, CAST_WITH_SUSPEND)


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "suspend", card = "Rift Bolt" }``."""
    suspend(run.state, player, run.card(step["card"]), choose=choose)
