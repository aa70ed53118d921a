"""What the parsed effects of a spell or ability do: each effect rule of the grammar, carried out with the actions.

:func:`run_body` carries out an ability's sentences in order (Resolving Spells and Abilities — CR 608.2c);
each effect node of :mod:`executable_rules.oracle` (``deal_damage``, ``put_counters``, ``create_token``,
``search``, ``explore``, ``discover`` …) has a function here. An effect the engine can't carry out yet raises
:class:`Unimplemented` naming the line: a scenario that needs it fails saying so, it never passes by accident.

Targets are the ``target …`` phrases of the ability in the order they appear (:func:`target_specs`); they are
chosen when the spell is cast or the ability put on the stack, and checked again on resolution (608.2b): an
illegal target is not affected (:func:`objects` leaves it out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from lark import Token, Tree

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..errors import Unimplemented
from ..model import ContinuousEffect, Event, EventKind, Face, FaceKind, GameState, Layout, ObjectRef, OracleCard, ZoneKind
from .layers import characteristics, text, walk
from .mana import add_mana as add, mana_choices
from .replacement import condition_holds, enter_battlefield
from .selectors import Node, amount_of, candidates, find, number_value, player_refs

Target = ObjectRef | str


@dataclass
class Context:
    """A spell or ability resolving: its source, controller, chosen targets and what "it" and X mean."""

    source: int
    controller: str
    name: str
    specs: list[Node] = field(default_factory=list)
    targets: list[Target | None] = field(default_factory=list)
    event: Event | None = None
    x: int = 0
    it: int | None = None
    trigger: str | None = None
    amount: int = 0          # "that much", "the same value"
    memory: dict[str, Any] = field(default_factory=dict)
    them: list[int] | None = None   # what "them" / "those cards" mean (the objects the last effect affected); a
                                    # delayed ability's objects, empty when they have all changed zones (400.7)


# ---------------------------------------------------------------- targets


_SPECS: dict[int, tuple[Node, list[Node]]] = {}


def target_specs(body: Node) -> list[Node]:
    """The target phrases of an ability's text, in order: each is one target to choose (Casting Spells — CR 601.2c).
    A card's parse trees are shared by every game (the parse is cached), so the walk is done once per tree."""
    known = _SPECS.get(id(body))
    if known is not None and known[0] is body:
        return list(known[1])
    found = _target_specs(body)
    if len(_SPECS) > 50_000:
        _SPECS.clear()
    _SPECS[id(body)] = (body, found)
    return list(found)


def _target_specs(body: Node) -> list[Node]:
    found: list[Node] = []
    for sub in walk(body):
        if sub.data in ("target_phrase", "target_up_to") and _child(sub, "number") is not None:
            # "two target lands", "up to two target creatures": one target each, all different (Targets — CR 115.3)
            number = _child(sub, "number")
            found += [sub] * max(1, number_value(text(number)))
        elif sub.data in ("target_phrase", "target_other", "any_target", "player_or_planeswalker"):
            found.append(sub)
        elif sub.data in ("target_player", "target_opponent"):
            found.append(sub)
        elif sub.data == "support":
            # Support — CR 701.41a: "support N" is "… each of up to N (other) target creatures".
            number = next(sub.find_data("number"), None)
            found += [sub] * (number_value(text(number)) if number is not None else 1)
        elif sub.data == "exchange_pair":          # "two target creatures": two targets of one phrase
            found += [sub, sub]
        elif sub.data == "earthbend":
            # "Earthbend N" means "Target land you control becomes …" (Earthbend — CR 701.66a): its target is in
            # the keyword action's meaning, not printed, and is chosen like a printed one.
            found.append(sub)
        elif sub.data == "deal_damage_divided":    # "among one or two targets": two targets, the second optional
            found += [sub, sub]
    return found


def spec_description(spec: Node) -> str:
    return {"any_target": "any target", "target_player": "target player", "target_opponent": "target opponent",
            "player_or_planeswalker": "target player or planeswalker",
            "earthbend": "target land you control"}.get(str(spec.data), text(spec))


def legal_targets(state: GameState, controller: str, spec: Node, source: int, only: Target | None = None,
                  ) -> list[Target]:
    """What ``spec`` could target now (hexproof and shroud are respected: Hexproof — CR 702.11b, Shroud — CR 702.18a);
    with ``only``, whether that one could (the others aren't looked at)."""
    kind = str(spec.data)
    players = [p.name for p in state.players if not p.lost]
    if kind == "target_player":
        return [p for p in players if _targetable(state, controller, p, source)]
    if kind == "target_opponent":
        return [p for p in players if p != controller and _targetable(state, controller, p, source)]
    if kind == "earthbend":                    # Earthbend — CR 701.66a: "target land you control"
        return [state.ref(c.id) for c in state.permanents(controller) if "Land" in characteristics(state, c.id).types
                and _targetable(state, controller, c.id, source)]
    if kind == "support":
        from ..actions.support import legal_target
        return [state.ref(c.id) for c in state.permanents() if legal_target(state, source, c.id)
                and _targetable(state, controller, c.id, source)]
    found: list[Target] = []
    if kind in ("any_target", "player_or_planeswalker", "deal_damage_divided"):
        found += players
        wanted = {"Creature", "Planeswalker", "Battle"} if kind != "player_or_planeswalker" else {"Planeswalker"}
        found += [state.ref(c.id) for c in state.permanents() if characteristics(state, c.id).types & wanted]
    elif kind == "exchange_pair":
        plural = next(str(t) for t in spec.children if isinstance(t, Token) and t.type == "PLURAL_TYPE")
        wanted_type = plural.removesuffix("s").capitalize()
        found += [state.ref(c.id) for c in state.permanents()
                  if wanted_type == "Permanent" or wanted_type in characteristics(state, c.id).types]
    elif find(spec, "graveyard_cards") is not None:
        # "any number of target cards from their graveyard" (Loaming Shaman): cards in graveyards
        found += [state.ref(c) for p in state.players for c in p.graveyard.cards]
    else:
        # "target creature or planeswalker", "target artifact, creature, or enchantment": any of the kinds named
        descs = [c for c in spec.children if isinstance(c, Tree) and c.data == "obj_desc"]
        first = find(spec, "obj_desc")
        descs = descs or ([first] if first is not None else [])
        if not descs:
            return []
        for desc in descs:
            words = text(desc)
            if words in ("player", "opponent"):
                found += [p for p in players if (words == "player" or p != controller) and p not in found]
            elif words.split()[-1:] == ["spell"] or "spell" in words:
                found += [state.ref(c) for c in state.stack.cards if c in state.spells and c != source
                          and _spell_fits(words, state.spells[c].face.types) and state.ref(c) not in found]
            else:
                found += [r for r in (state.ref(c) for c in candidates(state, controller, desc, source)
                                      if not (kind == "target_other" and c == source)) if r not in found]
    if only is not None:
        found = [t for t in found if t == only]
    return [t for t in found if _targetable(state, controller, t if isinstance(t, str) else t.card, source)]


def _spell_fits(words: str, types: frozenset[str]) -> bool:
    """"creature spell", "noncreature spell", "instant or sorcery spell": a spell's types on the stack."""
    if "noncreature" in words:
        return "Creature" not in types
    if "creature spell" in words:
        return "Creature" in types
    if "instant or sorcery" in words:
        return bool(types & {"Instant", "Sorcery"})
    return True


def _targetable(state: GameState, controller: str, target: int | str, source: int | None = None) -> bool:
    """Shroud — CR 702.18a, Hexproof — CR 702.11b–d and Protection — CR 702.16b, each stated in its keyword's module."""
    from ..actions.hexproof import hexproof
    from ..actions.protection import protection
    from ..actions.shroud import shroud
    return not (shroud(state, target) or hexproof(state, controller, target, source) or protection(state, target, source))


def target_label(state: GameState, target: Target) -> str:
    return target if isinstance(target, str) else state.cards[target.card].display_name


def still_legal(state: GameState, controller: str, spec: Node, target: Target, source: int) -> bool:
    """Resolving Spells and Abilities — CR 608.2b: is the target still there and still fits its description?"""
    if isinstance(target, ObjectRef) and not state.is_current(target):
        return False
    return target in legal_targets(state, controller, spec, source, only=target)


def choose_targets(state: GameState, controller: str, specs: list[Node], source: int, name: str, choose: Chooser,
                   citation: Citation) -> list[Target | None] | None:
    """Choose one target per spec; ``None`` when a spec has no legal target (the spell can't be cast, the
    triggered ability is removed from the stack: Handling Triggered Abilities — CR 603.3d)."""
    chosen: list[Target | None] = []
    for i, spec in enumerate(specs):
        legal = [t for t in legal_targets(state, controller, spec, source) if t not in chosen]
        optional = "up to" in text(spec) or "any number of" in text(spec) or spec.data == "support" or (
            spec.data == "deal_damage_divided" and any(s is spec for s in specs[:i]))   # "one or two targets"
        if not legal:
            if optional:
                chosen.append(None)
                continue
            return None
        options = [Option(f"target {target_label(state, t)}", t) for t in legal]
        if optional:
            options.append(Option("no target", None))
        answer = decide(state, Decision.of(controller, f"target for {name} ({spec_description(spec)})", citation,
                                           options), choose)
        chosen.append(answer.value)
    return chosen


# ---------------------------------------------------------------- objects and players


_PLURAL_PRONOUNS = ("them", "those creatures", "those cards", "those tokens", "the exiled cards")


def objects(state: GameState, ctx: Context, node: Any) -> list[int]:
    """The cards an ``object`` node means now (illegal targets left out)."""
    if isinstance(node, Tree) and node.data == "object" and len(node.children) == 1:
        node = node.children[0]
    if isinstance(node, Token):
        word = str(node)
        if node.type == "SELF" or word == "~":
            return [ctx.source] if ctx.source in state.cards else []
        if ctx.them is not None and word in _PLURAL_PRONOUNS:
            return [c for c in ctx.them if c in state.cards]
        if ctx.it is not None:
            return [ctx.it]
        if ctx.them is not None:
            return []              # a delayed ability whose object has changed zones: it can't find it (400.7)
        return [ctx.source]
    if isinstance(node, Tree) and node.data == "object":
        words = text(node)
        if words in _PLURAL_PRONOUNS and ctx.them is not None:
            return [c for c in ctx.them if c in state.cards]
        if words in ("it", "that creature", "that card", "that permanent", "that token", "them", "those creatures"):
            if ctx.them is not None and ctx.it is None:
                return []          # a delayed ability whose object has changed zones: it can't find it (400.7)
            return [ctx.it] if ctx.it is not None else [ctx.source]
        if words == "the top card of your library":
            library = state.player(ctx.controller).library.cards
            return library[:1]
    assert isinstance(node, Tree)
    if node.data in ("target_phrase", "target_other", "target_up_to", "any_target"):
        chosen: list[int] = []      # every target of the phrase ("two target lands" has two)
        for index in (i for i, s in enumerate(ctx.specs) if s is node and i < len(ctx.targets)):
            target = ctx.targets[index]
            if isinstance(target, ObjectRef) and still_legal(state, ctx.controller, node, target, ctx.source):
                # "Its controller" later in the text is this object's controller as it last existed, and "its
                # power" its power then (Resolving Spells and Abilities — CR 608.2h).
                ctx.memory["its controller"] = state.controller_of(target.card)
                ctx.memory.setdefault("last known", {})[target.card] = _last_known_numbers(state, target.card)
                chosen.append(target.card)
        return chosen
    if node.data == "each_object":
        desc = next((c for c in node.children if isinstance(c, Tree)), None)
        return candidates(state, ctx.controller, desc, ctx.source) if desc is not None else []
    if node.data in ("enchanted", "equipped"):        # what the source is attached to (Enchantments — CR 303.4m)
        from ..actions.attach import enchanted_or_last_known
        attached = enchanted_or_last_known(state, ctx.source)
        return [attached] if isinstance(attached, int) else []
    raise Unimplemented(f"the object {text(node)!r}")


def _last_known_numbers(state: GameState, card: int) -> dict[str, int]:
    """The power, toughness and mana value of a permanent now, kept for when it has left (608.2h)."""
    numbers = {"mana value": state.cards[card].mana_value}
    if state.zone_of(card) is state.battlefield:
        from .layers import characteristics
        ch = characteristics(state, card)
        numbers.update({"power": max(0, ch.power or 0), "toughness": max(0, ch.toughness or 0)})
    return numbers


def exile_graveyards(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Exile all graveyards." (Rest in Peace), "Exile each opponent's graveyard.": every card in them
    (Exile — CR 701.13a)."""
    from ..actions.exile import exile as exile_card
    words = text(node)
    if "all graveyards" in words:
        whose = [p.name for p in state.players]
    elif "each opponent's" in words:
        whose = [p.name for p in state.players if p.name != ctx.controller]
    else:
        whose = [ctx.controller]
    for name in whose:
        for card in list(state.player(name).graveyard.cards):
            exile_card(state, ctx.controller, card, detail=f"{ctx.name}: {words}")


def recipients(state: GameState, ctx: Context, node: Node) -> list[Target]:
    kind = str(node.data)
    if kind in ("any_target", "player_or_planeswalker"):
        index = next((i for i, s in enumerate(ctx.specs) if s is node), None)
        target = ctx.targets[index] if index is not None and index < len(ctx.targets) else None
        if target is None or not still_legal(state, ctx.controller, node, target, ctx.source):
            return []
        return [target]
    if kind == "you":
        return [ctx.controller]
    if kind == "each_opponent":
        return [p.name for p in state.opponents(ctx.controller)]
    if kind == "each_player":
        return [p.name for p in state.apnap()]
    if kind == "that_player" and ctx.event and ctx.event.player:
        return [ctx.event.player]
    if kind == "each":
        desc = next((c for c in node.children if isinstance(c, Tree)), None)
        return [state.ref(c) for c in candidates(state, ctx.controller, desc, ctx.source)] if desc is not None else []
    if kind == "object":
        return [state.ref(c) for c in objects(state, ctx, node)]
    raise Unimplemented(f"damage to {text(node)!r}")


def players(state: GameState, ctx: Context, node: Node) -> list[str]:
    """The players an effect's subject names (its controller when it names none). An effect with no subject
    whose verb agrees with one ("… sacrifices a creature and loses 10 life") has the previous effect's subject."""
    ref = next((c for c in node.children if isinstance(c, Tree) and c.data in _PLAYER_REFS), None)
    if ref is None:
        verb = next((str(c) for c in node.children if isinstance(c, Token)), "")
        if verb.endswith("s") and "subject" in ctx.memory:
            return list(ctx.memory["subject"])
    else:
        ctx.memory["subject_node"] = ref
    if ref is not None and ref.data == "its_controller" and "its controller" in ctx.memory:
        ctx.memory["subject"] = [ctx.memory["its controller"]]
        return [ctx.memory["its controller"]]
    if ref is not None and ref.data in ("target_player", "target_opponent"):
        index = next((i for i, s in enumerate(ctx.specs) if s is ref), None)
        target = ctx.targets[index] if index is not None and index < len(ctx.targets) else None
        ctx.memory["subject"] = [target] if isinstance(target, str) else []
        return list(ctx.memory["subject"])
    if ref is not None and ref.data == "defending_player" and state.combat is not None:
        from .combat import defending_player      # Declare Attackers Step — CR 508.5: the player the source attacks
        attacked = {r.card: a for r, a in state.combat.attackers}
        if ctx.source in attacked:
            ctx.memory["subject"] = [defending_player(state, attacked[ctx.source])]
            return list(ctx.memory["subject"])
    event_player = ctx.event.player if ctx.event else None
    if ctx.event is not None and ctx.trigger == "deals_combat_damage" and ctx.event.destination in [
            p.name for p in state.players]:
        event_player = ctx.event.destination          # "that player": the player dealt the damage
    found = player_refs(state, ctx.controller, ref, event_player=event_player)
    ctx.memory["subject"] = found
    return found


_PLAYER_REFS = {"you", "target_player", "target_opponent", "each_player", "each_opponent", "that_player",
                "its_controller", "its_owner", "defending_player", "an_opponent", "a_player", "each_other_player", "they"}


# ---------------------------------------------------------------- running a body


def run_body(state: GameState, ctx: Context, body: Node, choose: Chooser) -> None:
    """Each sentence of the ability, in order (608.2c)."""
    if any(isinstance(s, Tree) and s.data == "new_targets" for s in body.children):
        ctx.memory["new targets"] = True      # "you may choose new targets for the copies" (707.10c)
    for sentence in body.children:
        if not isinstance(sentence, Tree):
            continue
        if sentence.data in ("once_each_turn", "new_targets"):
            continue
        if sentence.data == "delayed":
            create_delayed_trigger(state, ctx, sentence)
            continue
        chain = next((c for c in sentence.children if isinstance(c, Tree) and c.data == "effect_chain"), None)
        if chain is None:
            continue
        for effect in chain.children:
            if isinstance(effect, Tree) and effect.data != "effect_sep":
                run_effect(state, ctx, effect, choose)


_DELAY_STEPS = {"the next end step": ("end step", False), "your next end step": ("end step", True),
                "the next upkeep": ("upkeep", False), "your next upkeep": ("upkeep", True),
                "the next turn's upkeep": ("upkeep", False), "the next cleanup step": ("cleanup", False)}


def create_delayed_trigger(state: GameState, ctx: Context, sentence: Node) -> None:
    """"… at the beginning of the next end step" in a resolving spell or ability: it creates a delayed triggered
    ability, which triggers once, the next time that step begins (Handling Triggered Abilities — CR 603.7a–c). Its
    "it" and "them" are the objects the effects before it affected, as they are now (603.7c: it refers to them
    even though they have changed zones since the spell was cast)."""
    from ..model import DelayedTrigger
    delay = _child(sentence, "delay")
    chain = _child(sentence, "effect_chain")
    assert delay is not None and chain is not None
    when = next(str(t) for t in delay.children if isinstance(t, Token) and t.type == "DELAY_STEP")
    step, own_turn = _DELAY_STEPS[when]
    refers = ctx.them if ctx.them is not None else ([ctx.it] if ctx.it is not None else [])
    body = Tree("body", [Tree("sentence", [chain])])
    words = f"at the beginning of {when}, {text(chain)}"
    trigger = DelayedTrigger(state.ref(ctx.source) if ctx.source in state.cards else ObjectRef(ctx.source, 0),
                             ctx.name.removesuffix("'s ability"), ctx.controller, step, own_turn, words,
                             tuple(state.ref(c) for c in refers if c in state.cards), body,
                             after_turn=state.turn if when == "the next turn's upkeep" else 0)
    state.append(state.delayed_triggers, trigger)
    _note(state, ctx, f"a delayed triggered ability is created: {words}",
          Citation("Handling Triggered Abilities", "603.7a"))


def run_effect(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    handler = HANDLERS.get(str(node.data))
    if handler is None:
        raise Unimplemented(f"{ctx.name}: the effect {text(node)!r} ({node.data}) isn't carried out by the engine yet")
    handler(state, ctx, node, choose)


def _child(node: Node, name: str) -> Node | None:
    return next((c for c in node.children if isinstance(c, Tree) and c.data == name), None)


def _object_child(node: Node) -> Node | None:
    return next((c for c in node.children if isinstance(c, Tree) and c.data in (
        "object", "target_phrase", "each_object", "target_other", "any_target", "enchanted", "equipped")), None)


def _note(state: GameState, ctx: Context, detail: str, citation: Citation | None = None) -> None:
    state.emit(EventKind.NOTHING, ctx.controller, names=(ctx.name,), detail=detail, citation=citation)


# ---------------------------------------------------------------- the effects


def deal_damage(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    amount = _amount(node, ctx)
    recipient = next((c for c in node.children if isinstance(c, Tree) and c.data in (
        "any_target", "each", "object", "you", "player_or_planeswalker", "each_opponent", "each_player",
        "that_player", "its_controller", "itself")), None)
    wrapper = _child(node, "recipients")          # "… damage to target creature": an object under "recipients"
    if recipient is None and wrapper is not None:
        recipient = next((c for c in wrapper.children if isinstance(c, Tree)), None)
    if recipient is None:
        raise Unimplemented(f"damage to {text(node)!r}")
    source_name = state.cards[ctx.source].display_name if ctx.source in state.cards else ctx.name
    dealt = 0
    for target in recipients(state, ctx, recipient):
        dealt += damage(state, ctx.controller, source_name, target, amount,
                        source=ctx.source if ctx.source in state.cards else None)
        if isinstance(target, ObjectRef):
            ctx.it = target.card      # "… Put a -1/-1 counter on that creature." (Puncture Bolt)
    if ctx.source in state.cards:
        lifelink(state, ctx.source, dealt)


def deal_damage_divided(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"~ deals N damage divided as you choose among one or two targets": the division is announced as the spell
    is cast, each target getting at least 1 (Casting Spells — CR 601.2d), so one target gets all N and N targets 1
    each; an illegal target's share isn't dealt (Resolving Spells and Abilities — CR 608.2b). Other divisions
    would need a choice at casting, which the model doesn't ask."""
    number = _child(node, "number")
    amount = number_value(text(number)) if number is not None else 0
    chosen = [t for s, t in zip(ctx.specs, ctx.targets) if s is node and t is not None]
    if len(chosen) == 1:
        shares = [amount]
    elif len(chosen) == amount:
        shares = [1] * amount
    else:
        raise Unimplemented(f"{ctx.name}: dividing {amount} damage among {len(chosen)} targets")
    source_name = state.cards[ctx.source].display_name if ctx.source in state.cards else ctx.name
    for target, share in zip(chosen, shares):
        if still_legal(state, ctx.controller, node, target, ctx.source):
            damage(state, ctx.controller, source_name, target, share, source=ctx.source if ctx.source in state.cards
                   else None)


def damage(state: GameState, controller: str, source_name: str, target: Target, amount: int, *,
           source: int | None = None, combat: bool = False) -> int:
    """Damage — CR 120.3: to a player, life loss (120.3a); to a creature, damage marked on it (120.3e);
    to a planeswalker, loyalty counters removed (120.3c). Return the damage dealt.

    Damage from a ``source`` the target has protection from is prevented (Protection — CR 702.16e).
    With the ``source`` card, its abilities change the results, in whatever zone it is: infect gives poison
    counters to a player and -1/-1 counters to a creature instead (Infect — CR 702.90b, 702.90c, 702.90e); wither
    gives -1/-1 counters to a creature instead (Wither — CR 702.80a); combat damage to a player from a creature with
    toxic also gives poison counters (Toxic — CR 702.164c); a creature dealt damage by a source with deathtouch is
    noted for the state-based action that destroys it (Deathtouch — CR 702.2b, 702.2d). Lifelink is
    :func:`lifelink`, once per source for all it dealt at once (Lifelink — CR 702.15e)."""
    if amount <= 0:
        return 0
    if isinstance(target, str) and source is not None and state.prevention_shields and _shielded(
            state, controller, source_name, target, source, amount):
        return 0
    from ..actions.protection import protection
    if isinstance(target, ObjectRef) and protection(state, target.card, source):
        state.emit(EventKind.NOTHING, controller, (target.card,), amount=amount,
                   detail=f"{amount} damage from {source_name} is prevented: protection",
                   citation=Citation("Protection", "702.16e"))
        return 0
    keywords = characteristics(state, source).keywords if source is not None and source in state.cards else frozenset()
    kind = "combat damage" if combat else "damage"
    if isinstance(target, str):
        p = state.player(target)
        if "Infect" in keywords:
            state.set(p, "poison", p.poison + amount)
            state.emit(EventKind.DAMAGE, controller, (source,) if source is not None else (), names=(source_name,),
                       destination=target, amount=amount, detail=f"{amount} {kind} to {target} from a source with infect: {amount} poison counters "
                              f"({p.poison})", citation=Citation("Infect", "702.90b"))
        else:
            state.set(p, "life", p.life - amount)
            state.emit(EventKind.DAMAGE, controller, (source,) if source is not None else (), names=(source_name,),
                       destination=target, amount=amount, detail=f"{amount} {kind} to {target}: loses {amount} life "
                       f"({p.life})", citation=Citation("Damage", "120.3a"))
        if not combat:                   # combat damage is dealt at once: the combat damage step says so (510.2)
            state.emit(EventKind.DEALT_DAMAGE, controller, names=(source_name,), destination=target, amount=amount,
                       detail=f"{target} is dealt {amount} damage")
        toxic = total_toxic_value(state, source) if combat and source is not None else 0
        if toxic:
            state.set(p, "poison", p.poison + toxic)
            state.emit(EventKind.DAMAGE, controller, names=(source_name,), destination=target,
                       detail=f"toxic {toxic}: {toxic} poison counters ({p.poison})", citation=Citation("Toxic", "702.164c"))
        return amount
    card = state.cards[target.card]
    types = characteristics(state, target.card).types
    if "Planeswalker" in types and "Creature" not in types:
        state.add_counters(target.card, "loyalty", -min(amount, card.counters.get("loyalty", 0)))
        state.emit(EventKind.DAMAGE, controller, (target.card,), amount=amount,
                   detail=f"{amount} {kind} from {source_name}: loyalty counters removed",
                   citation=Citation("Damage", "120.3c"))
        return amount
    if "Infect" in keywords or "Wither" in keywords:
        state.add_counters(target.card, "-1/-1", amount)
        which = "infect" if "Infect" in keywords else "wither"
        state.emit(EventKind.DAMAGE, controller, (target.card,), amount=amount,
                   detail=f"{amount} {kind} from {source_name} ({which}): {amount} -1/-1 counters put on it",
                   citation=Citation("Infect", "702.90c") if which == "infect" else Citation("Wither", "702.80a"))
    else:
        state.set(card, "damage", card.damage + amount)
        state.emit(EventKind.DAMAGE, controller, (target.card,), amount=amount,
                   detail=f"{amount} {kind} from {source_name} marked on it", citation=Citation("Damage", "120.3e"))
    if "Deathtouch" in keywords and "Creature" in types:
        state.set(state, "deathtouched", state.deathtouched | {state.ref(target.card)})
    return amount


def _shielded(state: GameState, controller: str, source_name: str, player: str, source: int, amount: int) -> bool:
    """A shield of ``player``'s for this source prevents the damage, and is used up: the next time that source would
    deal damage, all of that damage is prevented (Prevention Effects — CR 615.8), if the source still has the
    quality it was chosen for (615.9)."""
    from .layers import COLOR_LETTERS
    for shield in state.prevention_shields:
        if shield.player != player or shield.turn != state.turn or shield.source.card != source:
            continue
        if shield.quality and (source not in state.cards or COLOR_LETTERS[shield.quality] not in _colors_now(
                state, source)):
            continue
        state.replace_list(state.prevention_shields, [s for s in state.prevention_shields if s is not shield])
        state.emit(EventKind.NOTHING, controller, (source,), names=(source_name,), destination=player, amount=amount,
                   detail=f"{amount} damage from {source_name} to {player} is prevented ({shield.name})",
                   citation=Citation("Prevention Effects", "615.8"))
        return True
    return False


def _colors_now(state: GameState, card: int) -> frozenset[str]:
    """A source's colours now: a permanent's with its effects, a spell's from its face (Colors — CR 105.2)."""
    if card in state.spells:
        face = state.spells[card].face
        return frozenset(c for s in (face.mana_cost.symbols if face.mana_cost else ()) for c in s.split("/")
                         if c in "WUBRG")
    return characteristics(state, card).colors


def prevent_next_from_source(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"The next time a [red] source of your choice would deal damage to you this turn, prevent that damage": the
    source is chosen as the ability resolves, among the objects with that quality — permanents and spells on the
    stack (Effects — CR 609.7a) — and a shield is made for it (Prevention Effects — CR 615.8); with none to choose,
    nothing is made."""
    from ..model import PreventionShield
    from .layers import COLOR_LETTERS
    quality = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "SHIELD_COLOR"), "")
    pool = [c.id for c in state.permanents()] + [c for c in state.stack.cards if c in state.spells]
    if quality:
        pool = [c for c in pool if COLOR_LETTERS[quality] in _colors_now(state, c)]
    if not pool:
        _note(state, ctx, f"no {quality + ' ' if quality else ''}source to choose: no shield",
              Citation("Prevention Effects", "615.9"))
        return
    answer = decide(state, Decision.of(ctx.controller, f"{ctx.name}: choose a {quality + ' ' if quality else ''}source",
                                       Citation("Prevention Effects", "615.9"),
                                       [Option(f"choose {state.cards[c].display_name}", c) for c in pool]), choose)
    state.append(state.prevention_shields, PreventionShield(ctx.controller, state.ref(answer.value), quality,
                                                            state.turn, ctx.name))
    _note(state, ctx, f"the next time {state.cards[answer.value].display_name} would deal damage to "
          f"{ctx.controller} this turn, that damage is prevented", Citation("Prevention Effects", "615.8"))


def lifelink(state: GameState, source: int, amount: int) -> None:
    """Damage dealt by a source with lifelink makes its controller (or owner) gain that much life, one life gain
    event per source (Lifelink — CR 702.15b, 702.15e)."""
    if amount <= 0 or "Lifelink" not in characteristics(state, source).keywords:
        return
    from ..instructions import gain_life
    player = state.controller_of(source)
    gain_life(state, player, amount, detail=f"lifelink: {state.cards[source].display_name} dealt {amount} damage")
    state.emit(EventKind.NOTHING, player, (source,), detail="damage from a source with lifelink: its controller gains "
               "that much life", citation=Citation("Lifelink", "702.15b"))


def total_toxic_value(state: GameState, source: int | None) -> int:
    """The sum of the N of every toxic ability the creature has (Toxic — CR 702.164b)."""
    if source is None or source not in state.cards or state.cards[source].face_down:
        return 0
    printed = sum(int(arg) for title, arg in state.cards[source].oracle.parsed.keywords if title == "Toxic" and arg.isdigit())
    return printed


def _amount(node: Node, ctx: Context) -> int:
    words = [str(t) for t in node.scan_values(lambda v: isinstance(v, Token))]
    if "that" in words and "much" in words:
        return ctx.amount
    number = _child(node, "number")
    if number is None:
        amount = _child(node, "amount")
        number = _child(amount, "number") if amount is not None else None
        if amount is not None and number is None and text(amount) == "x":
            return ctx.x
    return number_value(text(number), ctx.x) if number is not None else 1


def put_counters(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    amount_node = _child(node, "counter_amount")
    amount = amount_of(amount_node, ctx.x) if amount_node is not None else 1
    if amount_node is not None and text(amount_node).lower() == "x":      # Black Sun's Zenith prints "X"
        amount = ctx.x
    if amount_node is not None and text(amount_node).lower() == "that many":   # the triggering event's amount
        amount = ctx.amount
    kind = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "COUNTER")
    target = _object_child(node)
    cards = objects(state, ctx, target) if target is not None else []
    placed = False
    for card in cards:
        if state.zone_of(card) is state.battlefield:
            ctx.it = card             # "Then that creature fights …" (Hunt the Weak)
            state.add_counters(card, kind, amount)
            state.emit(EventKind.COUNTER, ctx.controller, (card,), detail=f"{amount} {kind} counter(s)", amount=amount)
            placed = True
    if not placed:
        _note(state, ctx, "it has left the battlefield: no counter is put on anything",
              Citation("Zones", "400.7"))


def _life_equal(state: GameState, ctx: Context, node: Node) -> int | None:
    """"… life equal to its power" (Swords to Plowshares): the number of the object the text means, read from the
    object as it last existed if it has left the battlefield (Resolving Spells and Abilities — CR 608.2h)."""
    words = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "LIFE_EQUAL"), None)
    if words is None:
        return None
    quality = "mana value" if words.endswith("mana value") else words.rsplit(" ", 1)[1]
    card = ctx.source if words.startswith("~") else ctx.it if ctx.it is not None else ctx.source
    known = ctx.memory.get("last known", {}).get(card)
    if known is not None and state.zone_of(card) is not state.battlefield:
        return int(known.get(quality, 0))
    if quality == "mana value":
        return state.cards[card].mana_value
    from .layers import characteristics
    ch = characteristics(state, card)
    value = ch.power if quality == "power" else ch.toughness
    return max(0, value or 0)


def gain_life(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..instructions import gain_life as gain
    equal = _life_equal(state, ctx, node)
    amount = equal if equal is not None else ctx.amount if "that much" in text(node) else _amount(node, ctx)
    for player in players(state, ctx, node):
        gain(state, player, amount)


def lose_life(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..instructions import lose_life as lose
    equal = _life_equal(state, ctx, node)
    amount = equal if equal is not None else ctx.amount if "that much" in text(node) else _amount(node, ctx)
    for player in players(state, ctx, node):
        lose(state, player, amount)


def draw(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.draw import draw as draw_cards
    count = _cards(node, ctx, state)
    for player in players(state, ctx, node):
        draw_cards(state, player, count, choose=choose)


def _cards(node: Node, ctx: Context, state: GameState | None = None) -> int:
    count = _child(node, "one") or _child(node, "n") or _child(node, "that_many") or _child(node, "variable")
    if count is None:
        return 1
    if count.data == "variable":             # "draw cards equal to its power" (Champion of Wits)
        words = text(count).removeprefix("cards equal to").strip()
        if words in ("its power", "~'s power") and state is not None:
            if state.zone_of(ctx.source) is state.battlefield:
                return max(0, characteristics(state, ctx.source).power or 0)
            # It has left: its power as it last existed (608.2h), which the last known information doesn't keep.
            raise Unimplemented(f"{ctx.name}: its power after it left the battlefield (last known information)")
        raise Unimplemented(f"{ctx.name}: draw {text(count)!r}")
    if count.data == "that_many":
        return ctx.amount
    return 1 if count.data == "one" else amount_of(count, ctx.x)


def destroy(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Destroy — CR 701.8a, by the action's module ("they can't be regenerated": Regenerate — CR 701.19c)."""
    from ..actions.destroy import destroy as destroy_permanent
    regenerable = "can't be regenerated" not in text(node)
    for card in objects(state, ctx, _object_child(node)):
        destroy_permanent(state, ctx.controller, card, can_be_regenerated=regenerable)


def fight(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Fight — CR 701.14, by the action's module: an illegal target means no fight (701.14b)."""
    from ..actions.fight import fight as fight_action
    sides = [c for c in node.children if isinstance(c, Tree)]
    found = [objects(state, ctx, side) for side in sides]
    fighters = [f[0] if f else None for f in found]
    fight_action(state, ctx.controller, fighters[0], fighters[-1])


def goad(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Goad — CR 701.15a, by the action's module."""
    from ..actions.goad import goad as goad_creature
    for card in objects(state, ctx, _object_child(node)):
        goad_creature(state, ctx.controller, card)


def exchange_control(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Exchange — CR 701.12a–b, by the action's module: both targets must still be legal."""
    from ..actions.exchange import exchange_control as exchange
    pair = _child(node, "exchange_pair")
    chosen: list[int | None] = []
    for spec, target in zip(ctx.specs, ctx.targets):
        if spec is pair:
            legal = isinstance(target, ObjectRef) and still_legal(state, ctx.controller, spec, target, ctx.source)
            chosen.append(target.card if legal and isinstance(target, ObjectRef) else None)
    exchange(state, ctx.controller, *(chosen + [None, None])[:2])


def exchange_life(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Exchange life totals with target opponent" (Exchange — CR 701.12c), by the action's module."""
    from ..actions.exchange import exchange_life_totals
    for other in players(state, ctx, node):
        exchange_life_totals(state, ctx.controller, other)


def double_power(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Double — CR 701.10b, by the action's module."""
    from ..actions.double import double_power as double
    for card in [c for c in objects(state, ctx, _object_child(node)) if state.zone_of(c) is state.battlefield]:
        double(state, ctx.controller, card, source=ctx.name, duration=_duration(node))


def double_life(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Double — CR 701.10d, by the action's module ("Double target player's life total.")."""
    from ..actions.double import double_life as double
    for player in players(state, ctx, node):
        double(state, player)


def double_counters(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Double — CR 701.10e, by the action's module."""
    from ..actions.double import double_counters as double
    kind = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "COUNTER")
    for card in [c for c in objects(state, ctx, _object_child(node)) if state.zone_of(c) is state.battlefield]:
        double(state, ctx.controller, card, kind)


def double_mana(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Double — CR 701.10f, by the action's module (Doubling Cube)."""
    from ..actions.double import double_mana as double
    double(state, ctx.controller)


def transform(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Transform — CR 701.27c, by the action's module; an Incubator token's "Transform this token." by Incubate's
    (Incubate — CR 701.53b)."""
    from ..actions.incubate import is_incubator, transform_incubator
    from ..actions.transform import transform as transform_permanent
    for card in objects(state, ctx, _object_child(node)):
        if is_incubator(state, card):
            transform_incubator(state, card)
        else:
            transform_permanent(state, ctx.controller, card)


def regenerate(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Regenerate — CR 701.19a, by the action's module: a shield for each object."""
    from ..actions.regenerate import regenerate as make_shield
    for card in objects(state, ctx, _object_child(node)):
        make_shield(state, ctx.controller, card, source=ctx.name)


def exile(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.exile import exile as exile_card, exile_until_leaves
    until = find(node, "exile_until") is not None        # "… until ~ leaves the battlefield" (610.3)
    source = state.ref(ctx.source) if until else None
    exiled = []
    for card in objects(state, ctx, _object_child(node)):
        if source is not None:
            exile_until_leaves(state, ctx.controller, card, source, state.cards[ctx.source].oracle.name)
        else:
            exile_card(state, ctx.controller, card)
        ctx.it = card             # "that card": the new object in exile (Zones — CR 400.7)
        exiled.append(card)
    ctx.them = exiled             # "return them …" / "those cards"


def bounce(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    for card in objects(state, ctx, _object_child(node)):
        owner = state.cards[card].owner
        source = state.zone_of(card).label
        name = state.cards[card].display_name
        state.move(card, state.player(owner).hand)
        state.emit(EventKind.MOVE, ctx.controller, (card,), names=(name,), source=source,
                   destination=state.player(owner).hand.label, detail="returned to its owner's hand")


def pump(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from .layers import read_pt
    pt = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "PT")
    power, toughness = read_pt(pt.replace("x", str(ctx.x)))
    cards = [c for c in objects(state, ctx, _object_child(node)) if state.zone_of(c) is state.battlefield]
    if not cards:
        _note(state, ctx, "no object to affect", Citation("Resolving Spells and Abilities", "608.2b"))
        return
    effect = ContinuousEffect(ctx.name, "7c", tuple(state.ref(c) for c in cards), state.stamp(), power, toughness,
                              duration=_duration(node), until_turn_of=ctx.controller)
    state.append(state.continuous, effect)
    for card in cards:
        state.emit(EventKind.EFFECT, ctx.controller, (card,), detail=f"gets {pt} {effect.duration}",
                   citation=Citation("Interaction of Continuous Effects", "613.4c"))
    keywords = find(node, "keyword_list_inline")
    if keywords is not None:
        _grant(state, ctx, cards, keywords, effect.duration)


def _duration(node: Node) -> str:
    if find(node, "until_end_of_turn") is not None or find(node, "this_turn") is not None:
        return "until end of turn"
    if find(node, "until_your_next_turn") is not None:
        return "until your next turn"
    return "indefinitely"


def _grant(state: GameState, ctx: Context, cards: list[int], keywords: Node, duration: str) -> None:
    from ..oracle.keywords import canonical_keyword
    names = tuple(canonical_keyword(str(k.children[0])) or str(k.children[0]) for k in keywords.find_data("keyword"))
    state.append(state.continuous, ContinuousEffect(ctx.name, "6", tuple(state.ref(c) for c in cards), state.stamp(),
                                                    keywords=names, duration=duration,
                                                    until_turn_of=ctx.controller))
    for card in cards:
        state.emit(EventKind.EFFECT, ctx.controller, (card,), detail=f"gains {', '.join(names).lower()} {duration}",
                   citation=Citation("Interaction of Continuous Effects", "613.1f"))


def gain_keyword(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    cards = [c for c in objects(state, ctx, _object_child(node)) if state.zone_of(c) is state.battlefield]
    keywords = _child(node, "keyword_list_inline")
    assert keywords is not None
    _grant(state, ctx, cards, keywords, _duration(node))


def create_token(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Create — CR 701.7a: put a token onto the battlefield; its name is its subtypes plus "Token" (Tokens — CR 111.4)."""
    from ..actions.create import create_tokens
    counts = [c for c in node.children if isinstance(c, Tree) and c.data == "token_count"]
    descs = [c for c in node.children if isinstance(c, Tree) and c.data == "token_desc"]
    made: list[int] = []
    # "create a 3/3 … with deathtouch and a 3/3 … with lifelink" (Wurmcoil Engine): each kind in turn
    for count_node, desc in zip(counts, descs):
        count = ctx.x if text(count_node).lower() == "x" else amount_of(count_node, ctx.x)
        oracle = token_card(desc)
        tapped_node = _child(desc, "token_tapped")
        entering = text(tapped_node).lower() if tapped_node is not None else ""
        for player in players(state, ctx, node):
            tokens = create_tokens(state, player, oracle, count)
            for token in tokens if entering else ():      # "… that's tapped and attacking" (Hero of Bladehold)
                state.set(state.cards[token], "tapped", True)
                if "attacking" in entering:
                    from .combat import enter_attacking
                    enter_attacking(state, player, token, choose)
            made += tokens
    ctx.them = made                 # "Sacrifice them at the beginning of the next end step"
    if made:
        ctx.it = made[0]


def create_token_copy(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Create a token that's a copy of target creature": a token with the object's copiable values — what is
    printed on it with the copy effects applied to it, not its counters, damage or other effects
    (Copying Objects — CR 707.2) — under the creating player's control (Create — CR 701.7a)."""
    from dataclasses import replace

    from ..actions.create import create_tokens
    made: list[int] = []
    for card in objects(state, ctx, _object_child(node)):
        original = state.cards[card]
        if original.face_down:
            raise Unimplemented(f"{ctx.name}: a copy of a face-down permanent (its copiable values are a 2/2's)")
        copy = replace(original.oracle, is_token=True)
        for player in players(state, ctx, node):
            made += create_tokens(state, player, copy, 1, detail=f"a token that's a copy of {original.display_name}")
    ctx.them = made
    if made:
        ctx.it = made[0]


def investigate(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Investigate — CR 701.16a, by the action's module; "Its controller investigates." (Fateful Absence)."""
    from ..actions.investigate import investigate as investigate_action
    for player in players(state, ctx, node):
        investigate_action(state, player)


def token_card(desc: Node) -> OracleCard:
    from .layers import COLOR_LETTERS
    values = {t.type: str(t) for t in desc.children if isinstance(t, Token)}
    type_node = _child(desc, "token_type")
    type_words = text(type_node).split() if type_node is not None else []
    if "NAMETOKEN" in values:
        from ..actions.create import predefined_token
        return predefined_token(values["NAMETOKEN"])
    subtypes = tuple(values.get("SUBTYPES", "").split())
    colors = frozenset(COLOR_LETTERS[w] for w in values.get("COLOR_LIST", "").split() if w in COLOR_LETTERS)
    power, _, toughness = values.get("PTVAL", "/").partition("/")
    types = frozenset(w.capitalize() for w in type_words)
    keywords = _child(desc, "keyword_list_inline")
    text_ = text(keywords).capitalize() if keywords is not None else ""
    name = " ".join(subtypes) + " Token" if subtypes else "Token"
    face = Face(name, None, types, subtypes, frozenset(), power or None, toughness or None, text_, FaceKind.NORMAL)
    return OracleCard(name, Layout.NORMAL, (face,), color_indicator=colors, is_token=True)


def search(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.search import CardQuery, Find, search as search_library
    what = text(_child(node, "search_what")).lower()
    types = frozenset(v for k, v in {"creature": "Creature", "land": "Land", "artifact": "Artifact",
                                     "enchantment": "Enchantment", "instant": "Instant", "sorcery": "Sorcery",
                                     "planeswalker": "Planeswalker"}.items() if k in what.split())
    supertypes = frozenset({"Basic"}) if "basic" in what.split() else frozenset()
    basic_types = ("Forest", "Island", "Swamp", "Mountain", "Plains")
    named = [w.capitalize() for w in what.split() if w.capitalize() in basic_types]
    alternatives = len(named) > 1 and " or " in what
    subtypes = frozenset() if alternatives else frozenset(named)
    # "a Goblin card": other subtypes, as printed (a card with changeling is one: Changeling — CR 702.73a)
    subtypes |= frozenset(w for w in text(_child(node, "search_what")).split()
                          if w[:1].isupper() and w not in basic_types)
    if "card named" in what or "with" in what:
        raise Unimplemented(f"search for {what!r}")
    count, up_to = 1, False
    words = what.split()
    if words[0] == "up" and len(words) > 2:
        count, up_to = number_value(words[2]), True
    elif words[0] in ("two", "three"):
        count = number_value(words[0])
    query = CardQuery(what.removeprefix("a ").removeprefix("an "), None, types, supertypes, subtypes,
                      any_subtypes=frozenset(named) if alternatives else frozenset())
    dest_node = find(node, "search_put")
    dest = next((c for c in dest_node.children if isinstance(c, Tree)), None) if dest_node is not None else None
    put = {"to_hand": ZoneKind.HAND, "to_battlefield": ZoneKind.BATTLEFIELD, "to_graveyard": ZoneKind.GRAVEYARD,
           "to_exile": ZoneKind.EXILE}.get(str(dest.data) if dest is not None else "", ZoneKind.HAND)
    tapped = dest is not None and "tapped" in text(dest)
    if dest is not None and dest.data == "to_top":
        raise Unimplemented("search … put that card on top of your library")
    shuffle = "shuffle" in [str(t) for t in node.scan_values(lambda v: isinstance(v, Token))]
    player = players(state, ctx, node)[0]
    search_library(state, player, [Find(query, count, up_to, put, tapped)], reveal_found="reveal" in text(node),
                   shuffle=shuffle, choose=choose)


def explore(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.explore import explore as explore_action
    target = _object_child(node)
    cards = objects(state, ctx, target) if target is not None else [ctx.source]
    for card in cards:
        ref = state.ref(card)
        if state.zone_of(card) is not state.battlefield:
            # Explore — CR 701.44c: it left the battlefield; its last known information says who explores.
            ref = ObjectRef(card, state.last_known[card].incarnation) if card in state.last_known else ref
        explore_action(state, ref, choose=choose)


def discover(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.discover import discover as discover_action
    if "again for the same value" in text(node):
        n = ctx.event.amount if ctx.event is not None else 0
    else:
        n = _amount(node, ctx)
    discover_action(state, ctx.controller, n, choose=choose)


def manifest(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.manifest import manifest as manifest_action
    words = text(node)
    if "a card from your hand" in words:
        hand = state.player(ctx.controller).hand.cards
        if not hand:
            _note(state, ctx, "no card in hand to manifest")
            return
        answer = decide(state, Decision.of(ctx.controller, "manifest which card from your hand",
                                           Citation("Manifest", "701.40a"),
                                           [Option(f"manifest {state.cards[c].oracle.name}", c) for c in hand]), choose)
        manifest_action(state, ctx.controller, [answer.value])
        return
    if "the top card of" in words or "the top" in words:
        count = _amount(node, ctx) if "cards of" in words else 1
        whose = players(state, ctx, node)[0]
        if "target player's" in words:
            whose = next((t for t in ctx.targets if isinstance(t, str)), whose)
        done = manifest_action(state, whose, count=count)
        if done:
            ctx.it = done[-1]         # "… then put two +1/+1 counters on it": the manifested permanent
        return
    raise Unimplemented(f"manifest {words!r}")


def cloak(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.cloak import cloak as cloak_action
    if "the top card of your library" in text(node):
        cloak_action(state, ctx.controller, None, count=1)
        return
    raise Unimplemented(f"cloak {text(node)!r}")


def manifest_dread(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.manifest_dread import manifest_dread as dread
    dread(state, ctx.controller, choose=choose)


# ---- keyword actions 701.53–701.70, each by its module (executable_rules/actions/<name>.py)


def incubate(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Incubate — CR 701.53a."""
    from ..actions.incubate import incubate as incubate_action
    incubate_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def suspect(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Suspect — CR 701.60a."""
    from ..actions.suspect import suspect as suspect_action
    for card in objects(state, ctx, _object_child(node)):
        suspect_action(state, ctx.controller, card)


def forage(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Forage — CR 701.61a."""
    from ..actions.forage import forage as forage_action
    forage_action(state, ctx.controller, choose=choose)


def endure(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Endure — CR 701.63a: "~ endures N", "it endures N"."""
    from ..actions.endure import endure as endure_action
    for card in objects(state, ctx, _object_child(node)):
        endure_action(state, card, _amount(node, ctx), choose=choose)


def collect_evidence(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Collect Evidence — CR 701.59a."""
    from ..actions.collect_evidence import collect_evidence as collect
    collect(state, ctx.controller, _amount(node, ctx), choose=choose)


def ring_tempts(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """The Ring Tempts You — CR 701.54a."""
    from ..actions.ring_tempts_you import the_ring_tempts_you
    the_ring_tempts_you(state, ctx.controller, choose=choose)


def time_travel(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Time Travel — CR 701.56a."""
    from ..actions.time_travel import time_travel as travel
    travel(state, ctx.controller, choose=choose)


def blight(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Blight — CR 701.68a."""
    from ..actions.blight import blight as blight_action
    blight_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def recruit(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Recruit — CR 701.70a."""
    from ..actions.recruit import recruit as recruit_action
    recruit_action(state, ctx.controller, choose=choose)


def earthbend(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Earthbend — CR 701.66a: "target land you control" is the spell's or ability's target."""
    from ..actions.earthbend import earthbend as earthbend_action
    # Its target ("target land you control") is in the keyword's meaning, not printed: target_specs gives this node
    # as a target phrase, so it was chosen with the others as the spell was cast or the ability put on the stack.
    index = next((i for i, s in enumerate(ctx.specs) if s is node), None)
    target = ctx.targets[index] if index is not None and index < len(ctx.targets) else None
    if isinstance(target, ObjectRef) and still_legal(state, ctx.controller, node, target, ctx.source):
        earthbend_action(state, ctx.controller, target.card, _amount(node, ctx))
    else:
        _note(state, ctx, "earthbend: its target land is gone or no longer a land you control",
              Citation("Resolving Spells and Abilities", "608.2b"))


def airbend(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Airbend — CR 701.65a."""
    from ..actions.airbend import airbend as airbend_action
    airbend_action(state, ctx.controller, objects(state, ctx, _object_child(node)))


def harness(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Harness — CR 701.64a."""
    from ..actions.harness import harness as harness_action
    for card in objects(state, ctx, _object_child(node)):
        harness_action(state, ctx.controller, card)


def conditional(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"If [condition], [effect]": the effect happens only if the condition holds as it resolves (608.2c); an
    "otherwise" that follows reads the answer."""
    condition = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "CONDITION")
    if condition.strip() == "you do":            # "You may [do A]. If you do, [B]": A was done
        holds = bool(ctx.memory.get("you did", False))
    elif condition.strip() in ("you win", "you won", "you won the clash"):            # Clash — CR 701.30d
        holds = bool(ctx.memory.get("won clash", False))
    else:
        holds = condition_holds(state, ctx.controller, condition, ctx.source)
    ctx.memory["if"] = holds
    if holds:
        run_effect(state, ctx, next(c for c in node.children if isinstance(c, Tree)), choose)
    else:
        _note(state, ctx, f"not so ({condition.strip()}): that effect doesn't happen",
              Citation("Resolving Spells and Abilities", "608.2c"))


def otherwise(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Otherwise, [effect]": only if the "if" before it didn't hold."""
    if "if" not in ctx.memory:
        raise Unimplemented("\"otherwise\" with no \"if\" before it")
    if not ctx.memory["if"]:
        run_effect(state, ctx, next(c for c in node.children if isinstance(c, Tree)), choose)


def search_instead(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Search your library for A. If [condition], instead search your library for B. Reveal it, put it into your
    hand, then shuffle.": one search, for B if the condition holds as it resolves (Analyze the Pollen)."""
    from ..actions.search import CardQuery, Find, search as search_library
    first, second = (str(t).lower() for t in node.children if isinstance(t, Token) and t.type == "SEARCH_TEXT")
    condition = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "CONDITION")
    what = second if condition_holds(state, ctx.controller, condition, ctx.source) else first
    words = what.removeprefix("a ").removeprefix("an ").split()
    kinds = {"creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment",
             "instant": "Instant", "sorcery": "Sorcery", "planeswalker": "Planeswalker"}
    named = frozenset(kinds[w] for w in words if w in kinds)
    either = "or" in words
    if set(words) - set(kinds) - {"basic", "or", "card"}:
        raise Unimplemented(f"search for {what!r}")
    query = CardQuery(" ".join(words), None, frozenset() if either else named,
                      frozenset({"Basic"}) if "basic" in words else frozenset(), any_types=named if either else frozenset())
    _note(state, ctx, f"{condition}: search for {query.description}" if what == second
          else f"not so ({condition}): search for {query.description}")
    search_library(state, ctx.controller, [Find(query, 1, False, ZoneKind.HAND, False)], reveal_found=True,
                   shuffle=True, choose=choose)


def _may_collect_evidence(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.collect_evidence import may_collect_evidence
    ctx.memory["you did"] = may_collect_evidence(state, ctx.controller, _amount(node, ctx), choose=choose) is not None


def _may_blight(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.blight import may_blight
    ctx.memory["you did"] = may_blight(state, ctx.controller, _amount(node, ctx), choose=choose) is not None


def _may_forage(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.forage import can_forage
    able = can_forage(state, ctx.controller)
    answer = decide(state, Decision.of(ctx.controller, f"{ctx.name}: forage?", Citation("Forage", "701.61a"), [
        Option("forage", True, able, "" if able else "fewer than three cards in the graveyard and no Food",
               Citation("Forage", "701.61a")), Option("don't forage", False)]), choose)
    ctx.memory["you did"] = bool(answer.value)
    if answer.value:
        forage(state, ctx, node, choose)


def _may_pay(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"You may pay {2}/2 life. If you do, …": a cost paid as the ability resolves (Costs — CR 118.12), offered only
    to a player who has what it takes — the mana from their pool and untapped sources, or that much life (118.3;
    Life — CR 119.4); "If you do" reads whether it was paid."""
    from ..instructions import lose_life
    from ..model import ManaCost
    from .mana import _plan, mana_sources, pay_mana
    player = state.player(ctx.controller)
    mana = next((c for c in node.children if isinstance(c, Tree) and c.data == "mana_cost"), None)
    if mana is not None:
        cost = ManaCost.parse("".join(str(t) for t in mana.children))
        if cost.has_x or any(not (s.strip("{}").isdigit() or s.strip("{}") in "WUBRGC") for s in (str(t) for t in mana.children)):
            raise Unimplemented(f"paying {cost} as an ability resolves")
        able = _plan(player.mana, mana_sources(state, ctx.controller), cost, 0) is not None
        why = "" if able else f"{ctx.controller} can't pay {cost}"
        what = f"pay {cost}"
    else:
        amount = amount_of(node)
        able = player.life >= amount
        why = "" if able else f"{ctx.controller} has {player.life} life"
        what = f"pay {amount} life"
    citation = Citation("Costs", "118.12")
    answer = decide(state, Decision.of(ctx.controller, f"{ctx.name}: {what}?", citation, [
        Option(what, True, able, why, Citation("Costs", "118.3")), Option(f"don't {what}", False)]), choose)
    ctx.memory["you did"] = bool(answer.value)
    if not answer.value:
        return
    if mana is not None:
        pay_mana(state, ctx.controller, cost, choose, ctx.name)
    else:
        lose_life(state, ctx.controller, amount, detail=f"paid as a cost ({ctx.name})")
    _note(state, ctx, f"{what}: paid as it resolves", citation)


def pay_cost(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """A payment not offered with "may" (a cost that must be paid as it resolves) isn't modelled."""
    raise Unimplemented(f"{text(node)!r} without \"you may\"")


MAY_ACTIONS: dict[str, Callable[[GameState, Context, Node, Chooser], None]] = {
    "collect_evidence": _may_collect_evidence, "blight": _may_blight, "forage": _may_forage, "pay_cost": _may_pay,
}
"""Actions a player "may" do only if they can (Collect Evidence — CR 701.59b, Blight — CR 701.68b): yes is
offered only then."""


def mill(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.mill import mill as mill_action
    words = text(node)
    if words.startswith("put") or " put " in words:
        count = 1 if "the top card" in words else _amount(node, ctx)
    else:
        count = _cards(node, ctx)
    for player in players(state, ctx, node):
        mill_action(state, player, count)


def scry(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Scry — CR 701.22a, by the action's module."""
    from ..actions.scry import scry as scry_action
    scry_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def proliferate(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Proliferate — CR 701.34a, by the action's module."""
    from ..actions.proliferate import proliferate as proliferate_action
    proliferate_action(state, ctx.controller, choose=choose)


def _lki_ref(state: GameState, card: int) -> ObjectRef:
    """The object ``card`` is, or was last on the battlefield (for "it connives" after it left: 701.50b)."""
    if state.zone_of(card) is not state.battlefield and card in state.last_known:
        return ObjectRef(card, state.last_known[card].incarnation)
    return state.ref(card)


def connive(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Connive — CR 701.50a (701.50d with a number), by the action's module."""
    from ..actions.connive import connive as connive_action
    target = _object_child(node)
    cards = objects(state, ctx, target) if target is not None else [ctx.source]
    if not cards:
        return
    n = _amount(node, ctx) if _child(node, "number") is not None else 1
    refs = [_lki_ref(state, c) for c in cards]
    connive_action(state, refs if len(refs) > 1 else refs[0], n, choose=choose)


def amass(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Amass — CR 701.47a, by the action's module; "the Army you amassed" is then "it" (701.47c)."""
    from ..actions.amass import amass as amass_action
    subtype = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "AMASS_TYPE"), None)
    army = amass_action(state, ctx.controller, subtype, _amount(node, ctx), choose=choose)
    if army is not None:
        ctx.it = army


def adapt(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Adapt — CR 701.46a: this permanent adapts."""
    from ..actions.adapt import adapt as adapt_action
    adapt_action(state, ctx.source, _amount(node, ctx))


def monstrosity(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Monstrosity — CR 701.37a: this permanent's monstrosity N (X as the ability was activated, 701.37c)."""
    from ..actions.monstrosity import monstrosity as monstrosity_action
    x = "X" in [str(t) for t in node.children if isinstance(t, Token)]
    monstrosity_action(state, ctx.source, ctx.x if x else _amount(node, ctx))


def bolster(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Bolster — CR 701.39a, by the action's module."""
    from ..actions.bolster import bolster as bolster_action
    bolster_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def support(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Support — CR 701.41a: a +1/+1 counter on each target chosen for this "support N"."""
    from ..actions.support import support as support_action
    chosen = [t for i, t in enumerate(ctx.targets) if i < len(ctx.specs) and ctx.specs[i] is node
              and isinstance(t, ObjectRef)]
    support_action(state, ctx.controller, ctx.source, chosen, _amount(node, ctx))


def populate(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Populate — CR 701.36a, by the action's module."""
    from ..actions.populate import populate as populate_action
    token = populate_action(state, ctx.controller, choose=choose)
    if token is not None:
        ctx.it = token


def detain(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Detain — CR 701.35a: until this ability's controller's next turn."""
    from ..actions.detain import detain as detain_action
    detain_action(state, ctx.controller, objects(state, ctx, _object_child(node)))


def fateseal(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Fateseal — CR 701.29a, by the action's module."""
    from ..actions.fateseal import fateseal as fateseal_action
    fateseal_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def clash(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Clash — CR 701.30b: "clash with an opponent"; whether you won is kept for a following "if you win"."""
    from ..actions.clash import clash as clash_action
    ctx.memory["won clash"] = ctx.controller in clash_action(state, ctx.controller, choose=choose)


def learn(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Learn — CR 701.48a, by the action's module."""
    from ..actions.learn import learn as learn_action
    learn_action(state, ctx.controller, choose=choose)


def surveil(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Surveil — CR 701.25a, by the action's module."""
    from ..actions.surveil import surveil as surveil_action
    surveil_action(state, ctx.controller, _amount(node, ctx), choose=choose)


def counter_spell(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Counter — CR 701.6a, by the action's module; a ward trigger's "counter it unless …" by Ward's."""
    ward_cost = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "WARD_COST"), None)
    if ward_cost is not None and ctx.event is not None:
        from ..actions.ward import ward                                     # Ward — CR 702.21a
        ward(state, ctx.event, ward_cost, choose)
        return
    from ..actions.counter import counter, counter_unless_paid
    cost = _child(node, "mana_cost")
    for card in objects(state, ctx, _object_child(node)):
        if card in state.spells:
            if cost is not None:             # "… unless its controller pays {3}" (Mana Leak)
                counter_unless_paid(state, ctx.controller, card, "".join(str(t) for t in cost.children), choose=choose)
            else:
                counter(state, ctx.controller, card)


def tap(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Tap and Untap — CR 701.26a, by the action's module."""
    from ..actions.tap_and_untap import tap as tap_permanent
    for card in objects(state, ctx, _object_child(node)):
        tap_permanent(state, ctx.controller, card)


def untap(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Tap and Untap — CR 701.26b, by the action's module."""
    from ..actions.tap_and_untap import untap as untap_permanent
    for card in objects(state, ctx, _object_child(node)):
        untap_permanent(state, ctx.controller, card)


def sacrifice(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Sacrifice — CR 701.21a, by the action's module."""
    from ..actions.sacrifice import sacrifice as sacrifice_permanent, sacrifice_one
    target = _object_child(node)
    unless = find(node, "sacrifice_unless")
    if unless is not None:
        condition = text(unless).removeprefix("unless ").strip()
        if condition_holds(state, ctx.controller, condition, ctx.source):
            _note(state, ctx, f"not sacrificed: {condition}")
            return
    if target is not None and text(target) in ("~", "it") and (text(target) == "~" or ctx.it is None and ctx.them is None):
        # "sacrifice it" in an ability of the permanent itself ("When ~ enters, sacrifice it unless …")
        if state.zone_of(ctx.source) is state.battlefield and state.cards[ctx.source].controller == ctx.controller:
            sacrifice_permanent(state, ctx.controller, ctx.source)
        return
    if target is not None and (text(target) in _PLURAL_PRONOUNS or text(target) in ("it", "that creature", "that token")):
        # "Sacrifice them / those tokens / it" (a delayed ability, or an effect after the one that made them): each
        # one its controller still controls on the battlefield (Sacrifice — CR 701.21a)
        for card in objects(state, ctx, target):
            if state.zone_of(card) is state.battlefield and state.cards[card].controller == ctx.controller:
                sacrifice_permanent(state, ctx.controller, card)
        return
    plural = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "PLURAL_TYPE"), None)
    if plural is not None:                # "Each player sacrifices two creatures." (Barter in Blood)
        from .layers import TYPE_WORDS
        count = amount_of(_child(node, "number"), ctx.x)
        kind = TYPE_WORDS.get(plural.removesuffix("s"))
        for player in players(state, ctx, node):
            chosen: list[int] = []
            for _ in range(count):
                def of_kind(card: int) -> bool:
                    return kind is None or kind in characteristics(state, card).types
                one = sacrifice_one(state, player, of_kind, plural.removesuffix("s"), choose=choose, exclude=chosen)
                if one is None:
                    break
                chosen.append(one)
        return
    desc = find(node, "object_desc") or find(node, "obj_desc")
    if desc is None:
        raise Unimplemented(f"sacrifice {text(node)!r}")
    for player in players(state, ctx, node):
        def fits(card: int, who: str = player) -> bool:
            return _matches_desc(state, who, desc, card, ctx.source)
        sacrifice_one(state, player, fits, text(desc), choose=choose)


def _matches_desc(state: GameState, controller: str, desc: Node, card: int, source: int) -> bool:
    from .layers import matches
    return matches(state, controller, desc, card, source)


def discard(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Discard — CR 701.9a–b, by the action's module: the player's choice, at random, their hand, or the card
    another player chose ("You choose a nonland card from it. That player discards that card.")."""
    from ..actions.discard import discard as discard_card, discard_cards, discard_hand
    words = text(node)
    target = _object_child(node)
    who = players(state, ctx, node)
    if _child(node, "that_player") is not None and "revealed hand" in ctx.memory:
        who = [ctx.memory["revealed hand"]]       # "That player discards that card." after "… reveals their hand"
    for player in who:
        if words.endswith(("their hand", "your hand")):
            discard_hand(state, player)
        elif target is not None and find(target, "all_desc") is not None:
            from .layers import matches          # "… and discards all nonland cards" (Amnesia)
            desc = find(target, "all_desc")
            assert desc is not None
            for card in [c for c in state.player(player).hand.cards if matches(state, player, desc, c)]:
                discard_card(state, player, card, detail="discarded (all of them)")
        elif target is not None:
            if "chosen" in ctx.memory and ctx.memory["chosen"] is None:
                continue                 # nothing was chosen: "that card" is no card
            for card in objects(state, ctx, target):
                if state.zone_of(card) is state.player(player).hand:
                    discard_card(state, player, card, detail=f"discarded (chosen by {ctx.controller})",
                                 citation=Citation("Discard", "701.9b"))
        else:
            discard_cards(state, player, _cards(node, ctx), at_random="at random" in words, choose=choose)


def reveal_hand(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Target opponent reveals their hand" (Reveal — CR 701.20a, by the action's module)."""
    from ..actions.reveal import reveal
    for player in players(state, ctx, node):
        hand = state.player(player).hand
        ctx.memory["revealed hand"] = player
        if hand.cards:
            reveal(state, player, list(hand.cards), detail="their hand")
        else:
            _note(state, ctx, f"{player} reveals an empty hand")


def choose_from_hand(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"You choose a noncreature, nonland card from it": from the hand just revealed; "that card" is it."""
    from .layers import TYPE_WORDS
    player = ctx.memory.get("revealed hand")
    if player is None:
        raise Unimplemented(f"{text(node)!r} with no revealed hand")
    quality = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "CHOSEN_CARD")
    words = quality.replace(",", " ").split()
    excluded = {TYPE_WORDS[w[3:]] for w in words if w.startswith("non") and w[3:] in TYPE_WORDS}
    wanted = {TYPE_WORDS[w] for w in words if w in TYPE_WORDS}
    fits = [c for c in state.player(player).hand.cards if not state.cards[c].types & excluded
            and (not wanted or state.cards[c].types & wanted)]
    ctx.memory["chosen"] = None
    if not fits:
        _note(state, ctx, f"no {quality.removeprefix('a ').removeprefix('an ')} in it to choose")
        return
    answer = decide(state, Decision.of(ctx.controller, f"choose {quality} from {player}'s hand",
                                       Citation("Discard", "701.9b"),
                                       [Option(f"choose {state.cards[c].display_name}", c) for c in fits]), choose)
    ctx.memory["chosen"] = ctx.it = answer.value


def add_mana(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    choices = mana_choices(node)
    if not choices:
        raise Unimplemented(f"add {text(node)!r}")
    add(state, ctx.controller, choices, choose, ctx.name)


def look_top(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    n = _amount(node, ctx) if "cards of" in text(node) else 1
    library = state.player(ctx.controller).library
    looked = list(library.cards[:n])
    ctx.memory["looked"] = looked
    state.emit(EventKind.LOOK, ctx.controller, tuple(looked), source=library.label, detail=f"the top {len(looked)}")


def reveal_from_among(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Reveal an instant or sorcery card from among them and put it into your hand" (of the cards looked at)."""
    from .layers import TYPE_WORDS
    words = [w for w in text(node).split() if w in TYPE_WORDS]
    p = state.player(ctx.controller)
    looked = [c for c in ctx.memory.get("looked", []) if c in p.library.cards]
    fits = [c for c in looked if not words or state.cards[c].oracle.types & {TYPE_WORDS[w] for w in words}]
    if not fits:
        _note(state, ctx, "no card among them fits: none is revealed")
        return
    answer = decide(state, Decision.of(ctx.controller, "reveal which card and put it into your hand", None,
                                       [Option(f"reveal {state.cards[c].display_name}", c) for c in fits]), choose)
    state.emit(EventKind.REVEAL, ctx.controller, (answer.value,), source=p.library.label)
    state.move(answer.value, p.hand)
    state.emit(EventKind.MOVE, ctx.controller, (answer.value,), source=p.library.label, destination=p.hand.label)
    ctx.memory["taken"] = [answer.value]


def put_rest(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    looked = [c for c in ctx.memory.get("looked", []) if c in state.player(ctx.controller).library.cards]
    words = text(node)
    if words.startswith("put the rest on the bottom of your library in"):
        p = state.player(ctx.controller)
        rest = list(looked)
        if "random" in words:
            rest = state.random_order(rest)
        for card in rest:
            state.move(card, p.library, position="bottom")
        if rest:
            state.emit(EventKind.MOVE, ctx.controller, tuple(rest), source=p.library.label,
                       destination=f"the bottom of {p.library.label}", detail="the rest")
        return
    to_bottom = "and the rest on the bottom of your library in" in words
    if not words.startswith("put one of them into your hand and the rest") or not (
            to_bottom or "into your hand and the rest into your graveyard" in words):
        raise Unimplemented(f"{words!r}")
    p = state.player(ctx.controller)
    if not looked:
        return
    answer = decide(state, Decision.of(ctx.controller, "put one of them into your hand", None,
                                       [Option(f"put {state.cards[c].display_name} into hand", c) for c in looked]),
                    choose)
    state.move(answer.value, p.hand)
    state.emit(EventKind.MOVE, ctx.controller, (answer.value,), source=p.library.label, destination=p.hand.label)
    rest = [c for c in looked if c != answer.value]
    if to_bottom:            # "… and the rest on the bottom of your library in any order / in a random order"
        _to_bottom(state, ctx, rest, random_order="random" in words, choose=choose)
        return
    for card in rest:
        state.move(card, p.graveyard)
    if rest:
        state.emit(EventKind.MOVE, ctx.controller, tuple(rest), source=p.library.label, destination=p.graveyard.label,
                   detail="the rest")


def _to_bottom(state: GameState, ctx: Context, cards: list[int], *, random_order: bool, choose: Chooser) -> None:
    """Put ``cards`` on the bottom of their owner's library: in a random order, or one at a time in the order the
    player chooses (no choice among cards of one name: those orders can't be told apart)."""
    p = state.player(ctx.controller)
    left = state.random_order(list(cards)) if random_order else list(cards)
    placed = []
    while left:
        one_of_each: dict[str, int] = {}
        for c in left:
            one_of_each.setdefault(state.cards[c].display_name, c)
        pick = left[0]
        if not random_order and len(one_of_each) > 1:
            pick = decide(state, Decision.of(ctx.controller, "put which card on the bottom next", None,
                                             [Option(f"bottom: {n}", c) for n, c in one_of_each.items()]),
                          choose).value
        left.remove(pick)
        state.move(pick, p.library, position="bottom")
        placed.append(pick)
    if placed:
        state.emit(EventKind.MOVE, ctx.controller, tuple(placed), source=p.library.label,
                   destination=f"the bottom of {p.library.label}", detail="the rest")


def put_this_way(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Put a card you put into your graveyard this way into your hand": one of the cards the triggering event
    put into that graveyard (Paranormal Analyst)."""
    graveyard = state.player(ctx.controller).graveyard
    cards = [c for c in (ctx.event.cards if ctx.event else ()) if c in graveyard.cards]
    if not cards:
        _note(state, ctx, "no card was put into the graveyard this way")
        return
    hand = state.player(ctx.controller).hand
    answer = decide(state, Decision.of(ctx.controller, "put a card into your hand", None,
                                       [Option(state.cards[c].display_name, c) for c in cards]), choose)
    state.move(answer.value, hand)
    state.emit(EventKind.MOVE, ctx.controller, (answer.value,), source=graveyard.label, destination=hand.label)


def shuffle(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """Shuffle — CR 701.24a, by the action's module; "shuffle it into its owner's library" shuffles even when
    it is no longer there (701.24c), "any number of target cards" even when none was targeted (701.24d)."""
    from ..actions.shuffle import shuffle as shuffle_library, shuffle_into
    words = text(node)
    if "into" not in words:
        shuffle_library(state, players(state, ctx, node)[0])
        return
    target = _object_child(node)
    if target is not None and find(target, "graveyard_cards") is not None:
        cards = objects(state, ctx, target)
        shuffle_into(state, players(state, ctx, node)[0], cards, expected=[ZoneKind.GRAVEYARD])
        return
    if words.startswith(("shuffle it into", "shuffle ~ into")) or (target is not None and text(target) == "~"):
        if ctx.trigger == "cards_to_graveyard" and ctx.event is not None and ctx.event.cards:
            card, where = ctx.event.cards[0], [ZoneKind.GRAVEYARD]          # Guile: from the graveyard it went to
        else:
            card, where = ctx.source, [ZoneKind.STACK]                      # Black Sun's Zenith: the spell itself
        if card in state.cards:
            shuffle_into(state, state.cards[card].owner, [card], expected=where)
        return
    raise Unimplemented(f"{words!r}")


def return_to_battlefield(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    counters: dict[str, int] = {}
    with_counter = _child(node, "return_with_counter")
    if with_counter is not None:                 # "… with a -1/-1 counter on it" (Persist — CR 702.79a)
        amount_node = _child(with_counter, "counter_amount")
        kind = next(str(t) for t in with_counter.children if isinstance(t, Token) and t.type == "COUNTER")
        counters[kind] = amount_of(amount_node, ctx.x) if amount_node is not None else 1
    for card in objects(state, ctx, _object_child(node)):
        oracle = state.cards[card].oracle
        if (ctx.event is not None and card in ctx.event.cards and (ctx.event.destination or "").endswith("graveyard")
                and state.zone_of(card).kind is not ZoneKind.GRAVEYARD):
            # The card the ability returns left the graveyard it was put into: it is a new object the
            # ability can't find (Zones — CR 400.7); a token has ceased to exist (Tokens — CR 111.7).
            state.emit(EventKind.NOTHING, ctx.controller, (card,) if card in state.cards else (),
                       names=(oracle.name,), detail="it is no longer in the graveyard: nothing is returned",
                       citation=Citation("Zones", "400.7"))
            continue
        if not oracle.types & {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}:
            # An instant or sorcery card (a split card's halves are both) stays where it is (Zones — CR 400.4a);
            # a double-faced card has its front face's characteristics there (Double-Faced Cards — CR 712.8a).
            state.emit(EventKind.NOTHING, ctx.controller, (card,), source=state.zone_of(card).label,
                       detail="not a permanent card: it can't enter the battlefield and stays where it is",
                       citation=Citation("Zones", "400.4a"))
            continue
        enter_battlefield(state, card, ctx.controller if "under your control" in text(node) else state.cards[card].owner,
                          tapped=any(isinstance(t, Token) and t.type == "TAPPED" for t in node.children), choose=choose,
                          counters=counters)
        if state.zone_of(card) is state.battlefield:
            ctx.it = card         # "It gains haste …" (Bond of Revival): other parts of the effect find the object (Zones — CR 400.7j)


def return_to_hand(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    bounce(state, ctx, node, choose)


def extra_land(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"You may play an additional land this turn" (Lands — CR 305.2a): one more land play this turn."""
    words = text(node)
    more = 1 if "an additional land" in words else _amount(node, ctx)
    p = state.player(ctx.controller)
    state.set(p, "land_plays", p.land_plays + more)
    _note(state, ctx, f"{ctx.controller} may play {more} more land this turn ({p.land_plays} in all)",
          Citation("Lands", "305.2a"))


def may(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    inner = next(c for c in node.children if isinstance(c, Tree) and c.data != "you" and c.data not in _PLAYER_REFS)
    if inner.data == "extra_land":          # a permission, not a choice made now
        extra_land(state, ctx, inner, choose)
        return
    if inner.data == "pay_cost" and any(isinstance(c, Tree) and c.data in _PLAYER_REFS and c.data != "you"
                                        for c in node.children):
        raise Unimplemented(f"another player's payment ({text(node)!r})")
    if inner.data in MAY_ACTIONS:
        MAY_ACTIONS[str(inner.data)](state, ctx, inner, choose)
        return
    answer = decide(state, Decision.of(ctx.controller, f"{ctx.name}: {text(inner)}?", None,
                                       [Option("yes", True), Option("no", False)]), choose)
    ctx.memory["you did"] = bool(answer.value)          # "If you do, …" reads it
    if answer.value:
        run_effect(state, ctx, inner, choose)


def copy_spell(state: GameState, ctx: Context, node: Node, choose: Chooser, times: int = 1) -> None:
    """"Copy it", "copy target instant or sorcery spell": put a copy of the spell onto the stack
    (Copying Objects — CR 707.10), ``times`` times; "you may choose new targets for the copy" lets its controller
    change targets (707.10c). A spell that has left the stack is copied as it last existed there (the spell that triggered a
    "when you cast" ability: Storm — CR 702.40a copies even a countered spell)."""
    from .stack import copy_spell as put_copy
    new_targets = bool(ctx.memory.get("new targets")) or "new targets" in text(node)
    remembered = ctx.memory.get("spell")
    for card in objects(state, ctx, _object_child(node)):
        spell = state.spells.get(card)
        if spell is None and remembered is not None and remembered.card == card:
            spell = remembered
        if spell is None:
            _note(state, ctx, "no spell to copy", Citation("Copying Objects", "707.10"))
            continue
        for _ in range(times):
            put_copy(state, ctx.controller, spell, choose, new_targets=new_targets)


def _spells_cast_before(state: GameState, ctx: Context) -> int:
    """"Each other spell that was cast before it this turn": counted by the Storm module."""
    from ..actions.storm import storm
    return storm(state, ctx.event)


def _becomes_renowned(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.renown import become_renowned
    become_renowned(state, ctx.source)


def get_poison(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"That player gets N poison counters": a player with ten or more loses (State-Based Actions — CR 704.5c)."""
    amount = amount_of(_child(node, "counter_amount"), ctx.x)
    for player in players(state, ctx, node):
        p = state.player(player)
        state.set(p, "poison", p.poison + amount)
        state.emit(EventKind.COUNTER, player, amount=amount, detail=f"gets {amount} poison counter(s) ({p.poison})",
                   citation=Citation("State-Based Actions", "704.5c"))


def for_each(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Draw a card for each creature you control": the effect once for each object the description names now
    (only effects that are the same done N times one by one: drawing, milling, gaining life)."""
    from ..oracle import parse_line
    from .selectors import candidates
    inner = next(c for c in node.children if isinstance(c, Tree))
    words = next(str(t) for t in node.children if isinstance(t, Token) and t.type == "FOR_EACH").strip()
    if inner.data == "copy_spell" and words == "other spell that was cast before it this turn":
        copy_spell(state, ctx, inner, choose, times=_spells_cast_before(state, ctx))
        return
    if inner.data not in ("draw", "mill", "gain_life") or not words.endswith("you control"):
        raise Unimplemented(f"{ctx.name}: {text(node)!r}")
    # The description is read by the grammar as the object of "destroy each …".
    tree = parse_line(f"Destroy each {words}.", "?").tree
    desc = find(tree, "each_desc") if tree is not None else None
    if desc is None and re.fullmatch(r"[A-Z][a-z]+ you control", words):
        # "for each Island you control": a subtype alone names permanents of that subtype (Subtypes — CR 205.3)
        tree = parse_line(f"Destroy each {words.replace(' you control', ' permanent you control')}.", "?").tree
        desc = find(tree, "each_desc") if tree is not None else None
    if desc is None:
        raise Unimplemented(f"{ctx.name}: for each {words!r}")
    n = len(candidates(state, ctx.controller, desc, ctx.source))
    _note(state, ctx, f"for each {words}: {n}")
    for _ in range(n):
        run_effect(state, ctx, inner, choose)


def flash_permission(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Until end of turn, you may cast spells as though they had flash." (Alchemist's Refuge): a permission for the
    ability's controller, ending in the cleanup step (Cleanup Step — CR 514.2); :mod:`..actions.flash` reads it."""
    desc = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "FLASH_DESC"), "")
    effect = ContinuousEffect(ctx.name, "", (), state.stamp(), duration="until end of turn", player=ctx.controller,
                              permission=f"cast as though flash: {desc.strip()}")
    state.append(state.continuous, effect)
    state.emit(EventKind.EFFECT, ctx.controller, names=(ctx.name,),
               detail=f"until end of turn, {ctx.controller} may cast {desc.strip() + ' ' if desc.strip() else ''}spells "
                      "as though they had flash", citation=Citation("Timing and Priority", "117.1a"))


HANDLERS: dict[str, Callable[[GameState, Context, Node, Chooser], None]] = {
    "exile_graveyards": exile_graveyards,
    "deal_damage": deal_damage, "put_counters": put_counters, "gain_life": gain_life, "lose_life": lose_life,
    "draw": draw, "destroy": destroy, "exile": exile, "bounce": bounce, "pump": pump, "gain_keyword": gain_keyword,
    "copy_spell": copy_spell, "create_token_copy": create_token_copy, "prevent_next_from_source": prevent_next_from_source, "becomes_renowned": _becomes_renowned, "get_poison": get_poison,
    "create_token": create_token, "search": search, "explore": explore, "discover": discover, "manifest": manifest,
    "cloak": cloak, "manifest_dread": manifest_dread, "mill": mill, "scry": scry, "surveil": surveil,
    "counter_spell": counter_spell, "tap": tap, "untap": untap, "regenerate": regenerate, "fight": fight, "goad": goad, "transform": transform, "exchange_control": exchange_control,
    "exchange_life": exchange_life, "double_power": double_power, "double_life": double_life,
    "double_counters": double_counters, "double_mana": double_mana, "sacrifice": sacrifice, "discard": discard,
    "reveal_hand": reveal_hand, "choose_from_hand": choose_from_hand, "investigate": investigate,
    "add_mana": add_mana, "look_top": look_top, "put_rest": put_rest, "shuffle": shuffle,
    "return_to_battlefield": return_to_battlefield, "return_to_hand": return_to_hand, "may": may, "pay_cost": pay_cost,
    "put_this_way": put_this_way, "flash_permission": flash_permission, "extra_land": extra_land, "reveal_from_among": reveal_from_among,
    "incubate": incubate, "suspect": suspect, "forage": forage, "endure": endure,
    "collect_evidence": collect_evidence, "ring_tempts": ring_tempts, "time_travel": time_travel, "blight": blight,
    "recruit": recruit, "earthbend": earthbend, "airbend": airbend, "harness": harness, "conditional": conditional,
    "otherwise": otherwise, "search_instead": search_instead,
    "proliferate": proliferate, "connive": connive, "amass": amass, "adapt": adapt, "monstrosity": monstrosity,
    "bolster": bolster, "support": support, "populate": populate, "detain": detain, "fateseal": fateseal,
    "clash": clash, "learn": learn,
    "for_each": for_each,
    "cascade": lambda state, ctx, node, choose: _cascade(state, ctx, node, choose),
    "attach": lambda state, ctx, node, choose: _attach(state, ctx, node, choose),
    "deal_damage_divided": deal_damage_divided,
    "grant_flashback": lambda state, ctx, node, choose: _grant_flashback(state, ctx, node, choose),
    "aura_swap_exchange": lambda state, ctx, node, choose: _aura_swap(state, ctx, node, choose),
    "each_puts_from_graveyard": lambda state, ctx, node, choose: each_puts_from_graveyard(state, ctx, node, choose),
}


def each_puts_from_graveyard(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    """"Each player puts a creature card from their graveyard onto the battlefield." (Exhume): in turn order from
    the active player (APNAP order: The Magic Golden Rules — CR 101.4) each chooses one, then they enter at once."""
    from .layers import TYPE_WORDS
    kind = TYPE_WORDS.get(next(str(t) for t in node.children if isinstance(t, Token) and t.type == "GRAVEYARD_KIND"))
    chosen: list[tuple[str, int]] = []
    for player in players(state, ctx, node):
        graveyard = state.player(player).graveyard
        fits = [c for c in graveyard.cards if kind is None or kind in state.cards[c].oracle.types]
        if not fits:
            _note(state, ctx, f"{player} has no such card in {graveyard.label}")
            continue
        answer = decide(state, Decision.of(player, f"put a card from {graveyard.label} onto the battlefield", None,
                                           [Option(f"put {state.cards[c].display_name} onto the battlefield", c)
                                            for c in fits]), choose)
        chosen.append((player, answer.value))
    for player, card in chosen:
        enter_battlefield(state, card, player, choose=choose, detail=f"put onto the battlefield by {ctx.name}")


def _cascade(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.cascade import resolve                                   # Cascade — CR 702.85a
    resolve(state, ctx, node, choose)


def _attach(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.equip import attach_effect                               # Equip — CR 702.6a
    attach_effect(state, ctx, node, choose)


def _grant_flashback(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.flashback import grant_flashback                         # Flashback — CR 702.34a
    grant_flashback(state, ctx, node, choose)


def _aura_swap(state: GameState, ctx: Context, node: Node, choose: Chooser) -> None:
    from ..actions.aura_swap import exchange                                # Aura Swap — CR 702.65a–b
    exchange(state, ctx, node, choose)
