"""Graft — CR 702.58 (702.58a)

Graft is a static ability and a triggered ability: "Graft N" means "This
permanent enters with N +1/+1 counters on it" and "Whenever another creature
enters, if this permanent has a +1/+1 counter on it, you may move a +1/+1
counter from this permanent onto that creature" (Graft — CR 702.58a). The "if"
is an intervening condition (Handling Triggered Abilities — CR 603.4): checked
as the ability triggers and again as it resolves, so a graft creature that
lost its last counter in between moves nothing. A creature with several
instances of graft has each work separately (702.58b): each enters-with
replacement adds its counters, and each trigger may move one counter.

Moving a counter takes it off this permanent and puts it on the other
(Counters — CR 122.5): the counter isn't "put on" anew from nowhere, and if
"that creature" has left the battlefield, nothing moves.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> initiate = state.add_card(OracleCard.simple("Simic Initiate", "{G}", "Creature", power="0", toughness="0",
...                           text="Graft 1"), "you", ZoneKind.HAND)
>>> graft_numbers(state.cards[initiate]), entering_counters(state, initiate, ())[0][:2]
([1], ('+1/+1', 1))
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import Card, Event, EventKind, GameState, TriggeredAbility

KEYWORD = "Graft"
KIND = "keyword ability"
JAPANESE = ("移植",)
SUBRULES = ("a",)
SUMMARY = "It enters with N +1/+1 counters; whenever another creature enters, you may move a +1/+1 counter from it onto that creature."
OUT_OF_REACH = {
    "b": "no card of the corpus has graft twice and the model grants no graft, so several instances never meet "
         "(the module adds each instance's counters and triggers each instance separately)",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""
ENTERING = 1000
"""A trigger's line is ``instance × ENTERING + the entering creature's place in its event``."""


def _instances(card: Card) -> list[tuple[int, int]]:
    """(Oracle line, N) of each "Graft N" the card has, in printed order (each works separately: 702.58b)."""
    found = []
    for ability in card.oracle.parsed.abilities:
        for place, (title, argument) in enumerate(ability.keywords):
            if title == KEYWORD and argument.strip().isdigit():
                found.append((ability.line * 100 + place, int(argument)))
    return found


def graft_numbers(card: Card) -> list[int]:
    """N of each instance of graft the card has."""
    return [n for _, n in _instances(card)]


def entering_counters(state: GameState, card: int, spent: tuple[str, ...] | None) -> list[tuple[str, int, str]]:
    """"This permanent enters with N +1/+1 counters on it", once for each instance (702.58a, 702.58b)."""
    return [("+1/+1", n, f"graft {n}: {n} +1/+1 counter(s) ({Citation(KEYWORD, '702.58a')})")
            for _, n in _instances(state.cards[card])]


def _has_counter(state: GameState, card: int) -> bool:
    return state.zone_of(card) is state.battlefield and state.cards[card].counters.get("+1/+1", 0) > 0


def keyword_triggers(state: GameState, card: Card, event: Event) -> list[tuple[int, str]]:
    """"Whenever another creature enters, if this permanent has a +1/+1 counter on it" (702.58a): one trigger for
    each instance of graft (702.58b), each entering creature."""
    from ..engine.layers import characteristics
    if event.kind is not EventKind.MOVE or event.destination != "battlefield" or card.id in event.cards:
        return []
    if state.zone_of(card.id) is not state.battlefield or not _has_counter(state, card.id):
        return []                                          # the intervening "if" as it triggers (603.4)
    entering = [c for c in event.cards if state.zone_of(c) is state.battlefield
                and "Creature" in characteristics(state, c).types]
    # The line says which instance and which of the creatures that entered at once it is for.
    return [(line * ENTERING + event.cards.index(c),
             f"graft: you may move a +1/+1 counter onto {state.cards[c].display_name}")
            for line, _ in _instances(card) for c in entering]


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """Check the "if" again (603.4); then the controller may move one +1/+1 counter onto that creature (122.5)."""
    source = ability.source.card
    name = ability.source_name
    if not state.is_current(ability.source) or not _has_counter(state, source):
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail=f"{name} has no +1/+1 counter on it now: the ability does nothing (603.4)",
                   citation=Citation(KEYWORD, "702.58a"))
        return
    target = ability.event.cards[ability.line % ENTERING]
    since = next((i for i in range(len(state.events) - 1, -1, -1) if state.events[i] is ability.event), 0)
    if state.zone_of(target) is not state.battlefield or any(
            e.kind is EventKind.MOVE and target in e.cards for e in state.events[since + 1:]):
        # "that creature" is the object that entered: gone, or back as a new object (Zones — CR 400.7)
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="the creature that entered has left the battlefield: no counter moves",
                   citation=Citation(KEYWORD, "702.58a"))
        return
    other = state.cards[target].display_name
    answer = decide(state, Decision.of(ability.controller, f"{ability.label}: move a +1/+1 counter from {name} onto "
                                       f"{other}?", Citation(KEYWORD, "702.58a"),
                                       [Option("yes", True), Option("no", False)]), choose)
    if not answer.value:
        return
    graft(state, ability.controller, source, target)


def graft(state: GameState, player: str, source: int, target: int) -> None:
    """``player`` moves a +1/+1 counter from the graft permanent ``source`` onto the creature ``target`` (702.58a):
    it comes off one and goes onto the other (Counters — CR 122.5)."""
    if state.cards[source].counters.get("+1/+1", 0) < 1:
        raise IllegalChoice(f"graft onto {state.cards[target].display_name}",
                            f"{state.cards[source].display_name} has no +1/+1 counter to move", Citation(KEYWORD, "702.58a"))
    state.add_counters(source, "+1/+1", -1)
    state.add_counters(target, "+1/+1", 1)
    state.emit(EventKind.COUNTER, player, (source, target), amount=1,
               detail=f"graft: a +1/+1 counter moved from {state.cards[source].display_name} onto "
               f"{state.cards[target].display_name}", citation=Citation(KEYWORD, "702.58a"))
