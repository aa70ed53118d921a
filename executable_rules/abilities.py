"""The abilities of the cards the scenarios use, by card name, and the stack of triggered abilities.

The model doesn't read rules text into abilities. The few static and triggered
abilities that the rules of the actions interact with are written here, each
under its card's name, with its Oracle text:

- static abilities and lasting effects answer the actions' questions: may a
  player search libraries (Mindlock Orb, Shadow of Doubt); does a search see
  only the top four cards (Aven Mindcensor); may a card enter the battlefield
  (Grafdigger's Cage); is the top card of a library revealed (Future Sight);
  does a player face a villainous choice again (``Test: Echo of Villainy``);
- triggered abilities watch the log (:func:`note_triggers`, called for every
  event), wait in ``state.pending_triggers``, go on the stack with
  :func:`put_triggers_on_stack`, which chooses their targets then
  (Handling Triggered Abilities — CR 603.3d), and resolve with
  :func:`resolve_top`, which checks their targets first
  (Resolving Spells and Abilities — CR 608.2b).

A face-down permanent has no abilities
(Face-Down Spells and Permanents — CR 708.2a), so it triggers nothing.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> from executable_rules.actions.shuffle import shuffle
>>> state = GameState.new(["Alice", "Bob"])
>>> _ = state.add_card(OracleCard.simple("Psychogenic Probe", "{2}", "Artifact"), "Bob", ZoneKind.BATTLEFIELD)
>>> shuffle(state, "Alice")                    # an empty library: still a shuffle
>>> [t.label for t in state.pending_triggers]
["Psychogenic Probe's ability"]
>>> from executable_rules.choices import first_legal
>>> put_triggers_on_stack(state, first_legal); resolve_top(state, first_legal)
>>> state.player("Alice").life
18
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from .choices import Chooser, Decision, Option, decide
from .citation import Citation
from .model import Card, Event, EventKind, GameState, ObjectRef, TriggeredAbility, ZoneKind

# ------------------------------------------------------------------ static abilities and lasting effects

SEARCH_PROHIBITORS = {
    "Mindlock Orb": "Players can't search libraries.",
    "Shadow of Doubt": "Players can't search libraries this turn.",
}


def search_prohibited_by(state: GameState) -> str | None:
    """The card whose "players can't search libraries" applies now, if any."""
    for card in state.permanents():
        if card.name in SEARCH_PROHIBITORS:
            return card.name
    for effect in state.effects:
        if effect.name in SEARCH_PROHIBITORS:
            return effect.name
    return None


def library_search_limit(state: GameState, searcher: str) -> tuple[int, str] | None:
    """Aven Mindcensor: "If an opponent would search a library, that player searches the top four cards
    of that library instead." Return (4, card name) when it applies to ``searcher``."""
    for card in state.permanents():
        if card.name == "Aven Mindcensor" and card.controller != searcher:
            return 4, "Aven Mindcensor"
    return None


def entering_prohibited_by(state: GameState, card: Card, face_down: bool = False) -> str | None:
    """Grafdigger's Cage: "Creature cards in graveyards and libraries can't enter the battlefield."

    A card to be manifested or cloaked is checked as the face-down 2/2
    creature card it would be (Manifest — CR 701.40a, 701.40f).
    """
    zone = state.zone_of(card.id).kind
    is_creature_card = face_down or "Creature" in card.oracle.types
    if zone in (ZoneKind.GRAVEYARD, ZoneKind.LIBRARY) and is_creature_card:
        for permanent in state.permanents():
            if permanent.name == "Grafdigger's Cage":
                return "Grafdigger's Cage"
    return None


def top_card_revealed_by(state: GameState, player: str) -> str | None:
    """Future Sight: "Play with the top card of your library revealed." """
    for card in state.permanents(player):
        if card.name == "Future Sight":
            return "Future Sight"
    return None


def additional_villainous_choices(state: GameState, player: str) -> list[str]:
    """``Test: Echo of Villainy``: "If an opponent would face a villainous choice, they face that choice
    an additional time." One entry per such permanent an opponent of ``player`` controls."""
    return [c.display_name for c in state.permanents() if c.name == "Test: Echo of Villainy" and c.controller != player]


# ------------------------------------------------------------------ triggered abilities


@dataclass(frozen=True)
class TriggerDefinition:
    """A triggered ability of a card: when it triggers, what it targets, what it does."""

    card: str
    text: str
    event: EventKind
    condition: Callable[[GameState, Card, Event], bool]
    effect: Callable[[GameState, TriggeredAbility, Chooser], None]
    target: str | None = None
    once_each_turn: bool = False


def _was_creature(state: GameState, card: int) -> bool:
    if state.zone_of(card) is state.battlefield:
        return state.cards[card].is_creature
    known = state.last_known.get(card)
    return bool(known and "Creature" in known.types)


def _counter_on_source(state: GameState, ability: TriggeredAbility) -> None:
    if state.is_current(ability.source) and state.zone_of(ability.source.card) is state.battlefield:
        state.add_counters(ability.source.card, "+1/+1", 1)
        state.emit(EventKind.COUNTER, ability.controller, (ability.source.card,), detail="+1/+1 counter")
    else:
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.source_name,),
                   detail="it has left the battlefield: no counter is put on anything")


def _wildgrowth(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    from .instructions import gain_life
    _counter_on_source(state, ability)
    gain_life(state, ability.controller, 3)


def _chupacabra(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    target = ability.targets[0]
    assert isinstance(target, ObjectRef)
    state.emit(EventKind.NOTHING, ability.controller, (target.card,), detail="gets -2/-2 until end of turn")


def _curator(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    from .actions.discover import discover
    discover(state, ability.controller, ability.event.amount, choose=choose)


def _ob_nixilis(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    from .instructions import Instruction, lose_life, perform
    player = ability.event.player
    assert player is not None
    perform(state, player, Instruction("sacrifice", 1, "Creature"), choose)
    lose_life(state, player, 10)


def _probe(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    from .instructions import lose_life
    assert ability.event.player is not None
    lose_life(state, ability.event.player, 2, detail="2 damage from Psychogenic Probe")


def _analyst(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    graveyard = state.player(ability.controller).graveyard
    cards = [c for c in ability.event.cards if c in graveyard.cards]
    if not cards:
        state.emit(EventKind.NOTHING, ability.controller, detail="no card was put into the graveyard this way")
        return
    answer = decide(state, Decision.of(ability.controller, "put a card into your hand", None,
                                       [Option(state.cards[c].display_name, c) for c in cards]), choose)
    state.move(answer.value, state.player(ability.controller).hand)
    state.emit(EventKind.MOVE, ability.controller, (answer.value,), source=graveyard.label,
               destination=state.player(ability.controller).hand.label)


def _gain_one(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    from .instructions import gain_life
    gain_life(state, ability.controller, 1)


def _you(state: GameState, source: Card, event: Event) -> bool:
    return event.player == source.controller


def _your_creature_explores(state: GameState, source: Card, event: Event) -> bool:
    return event.player == source.controller and _was_creature(state, event.cards[0])


TRIGGERS: dict[str, list[TriggerDefinition]] = {}
for _trigger in [
    TriggerDefinition("Psychogenic Probe",
                      "Whenever a spell or ability causes a player to shuffle their library, "
                      "Psychogenic Probe deals 2 damage to that player.",
                      EventKind.SHUFFLE, lambda s, src, e: True, _probe),
    TriggerDefinition("Lurking Chupacabra",
                      "Whenever a creature you control explores, target creature an opponent controls "
                      "gets -2/-2 until end of turn.",
                      EventKind.EXPLORE, _your_creature_explores, _chupacabra, target="creature an opponent controls"),
    TriggerDefinition("Wildgrowth Walker",
                      "Whenever a creature you control explores, put a +1/+1 counter on Wildgrowth Walker "
                      "and you gain 3 life.", EventKind.EXPLORE, _your_creature_explores, _wildgrowth),
    TriggerDefinition("Shadowed Caravel",
                      "Whenever a creature you control explores, put a +1/+1 counter on Shadowed Caravel.",
                      EventKind.EXPLORE, _your_creature_explores, lambda s, a, c: _counter_on_source(s, a)),
    TriggerDefinition("Curator of Sun's Creation",
                      "Whenever you discover, discover again for the same value. This ability triggers only "
                      "once each turn.", EventKind.DISCOVER, _you, _curator, once_each_turn=True),
    TriggerDefinition("Ob Nixilis, Unshackled",
                      "Whenever an opponent searches their library, that player sacrifices a creature and "
                      "loses 10 life.", EventKind.SEARCH,
                      lambda s, src, e: e.player is not None and e.player != src.controller
                      and e.source == s.player(e.player).library.label,
                      _ob_nixilis),
    TriggerDefinition("Paranormal Analyst",
                      "Whenever you manifest dread, put a card you put into your graveyard this way into "
                      "your hand.", EventKind.MANIFEST_DREAD, _you, _analyst),
    TriggerDefinition("Test: Face-Up Watcher",
                      "Whenever a permanent you control is turned face up, you gain 1 life.",
                      EventKind.TURN_FACE_UP, _you, _gain_one),
]:
    TRIGGERS.setdefault(_trigger.card, []).append(_trigger)


def note_triggers(state: GameState, event: Event) -> None:
    """Note each ability ``event`` triggers (Handling Triggered Abilities — CR 603.2); they wait to go on the stack."""
    for card_id in state.battlefield.cards:
        card = state.cards[card_id]
        name = card.name
        if name is None or name not in TRIGGERS:
            continue
        for definition in TRIGGERS[name]:
            if definition.event is not event.kind or not definition.condition(state, card, event):
                continue
            if definition.once_each_turn:
                key = (card_id, definition.text)
                if key in state.once_each_turn:
                    continue
                state.mark_once(key)
            assert card.controller is not None
            state.append(state.pending_triggers, TriggeredAbility(
                state.ref(card_id), name, card.controller, definition.text, event))


def _definition(ability: TriggeredAbility) -> TriggerDefinition:
    return next(d for d in TRIGGERS[ability.source_name] if d.text == ability.ability)


def _targets(state: GameState, ability: TriggeredAbility, kind: str) -> list[ObjectRef]:
    if kind == "creature an opponent controls":
        return [state.ref(c.id) for c in state.permanents() if c.is_creature and c.controller != ability.controller]
    raise ValueError(f"unknown target kind {kind!r}")


def put_triggers_on_stack(state: GameState, choose: Chooser) -> None:
    """Put the waiting triggered abilities on the stack, APNAP order (Handling Triggered Abilities — CR 603.3b),
    choosing their targets now (603.3d); one without a legal target is removed."""
    waiting = list(state.pending_triggers)
    if not waiting:
        return
    state.replace_list(state.pending_triggers, [])
    for player in state.apnap():
        for ability in waiting:
            if ability.controller != player.name:
                continue
            definition = _definition(ability)
            targets: tuple[ObjectRef | str, ...] = ()
            if definition.target:
                candidates = _targets(state, ability, definition.target)
                if not candidates:
                    state.emit(EventKind.NOTHING, player.name, names=(ability.label,),
                               detail=f"no legal target ({definition.target}): removed from the stack",
                               citation=Citation("Handling Triggered Abilities", "603.3d"))
                    continue
                answer = decide(state, Decision.of(
                    player.name, f"target for {ability.label} ({definition.target})", Citation("Handling Triggered Abilities", "603.3d"),
                    [Option(f"target {state.cards[t.card].display_name}", t) for t in candidates]), choose)
                targets = (answer.value,)
            ability_id = state.next_id
            state.set(state, "next_id", ability_id + 1)
            on_stack = replace(ability, id=ability_id, targets=targets)
            state.set_item(state.abilities, ability_id, on_stack)
            state.append(state.stack.cards, ability_id)
            state.emit(EventKind.TRIGGER, player.name, names=(ability.label,), destination="stack",
                       detail=ability.ability, citation=Citation("Handling Triggered Abilities", "603.3"))


def _is_legal_target(state: GameState, target: ObjectRef | str) -> bool:
    if isinstance(target, str):
        return any(p.name == target for p in state.players)
    return state.is_current(target) and state.zone_of(target.card) is state.battlefield


def resolve_top(state: GameState, choose: Chooser) -> None:
    """Resolve the triggered ability on top of the stack (spells aren't resolved by the model)."""
    if not state.stack.cards:
        raise ValueError("the stack is empty: there is nothing to resolve")
    top = state.stack.cards[-1]
    if top not in state.abilities:
        raise NotImplementedError(
            f"{state.cards[top].display_name} is a spell; the model casts spells but doesn't resolve them")
    ability = state.abilities[top]
    with state.action(f"resolve {ability.label}"):
        state.replace_list(state.stack.cards, state.stack.cards[:-1])
        state.delete_item(state.abilities, top)
        if ability.targets and not any(_is_legal_target(state, t) for t in ability.targets):
            state.emit(EventKind.NOT_RESOLVED, ability.controller, names=(ability.label,),
                       detail="every target is illegal", citation=Citation("Resolving Spells and Abilities", "608.2b"))
            return
        state.emit(EventKind.RESOLVE, ability.controller, names=(ability.label,), source="stack", detail=ability.ability)
        _definition(ability).effect(state, ability, choose)
