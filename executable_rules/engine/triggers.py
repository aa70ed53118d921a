"""Triggered abilities read from Oracle text: noted as events happen, put on the stack when a player would
receive priority.

:func:`watch` is the state's watcher (:attr:`GameState.watchers`): for every event it looks at the triggered
abilities of the permanents on the battlefield — and, for abilities that look back in time, of the permanent
that just left (Handling Triggered Abilities — CR 603.10a) — and notes each ability whose trigger event
matches (603.2) in ``state.pending_triggers``. An ability triggers once per event: "whenever one or more …"
abilities trigger once for a batch of cards moved by one event (603.2c). "This ability triggers only once
each turn" is kept per object and turn (603.2h).

:func:`put_triggers_on_stack` puts the waiting abilities on the stack in APNAP order, each player putting
theirs in the order they choose (603.3b), choosing targets as each goes on (603.3d); one with no legal
target is removed.

A face-down permanent has no abilities, so it triggers nothing (Face-Down Spells and Permanents — CR 708.2a).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from lark import Token, Tree

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import Card, Event, EventKind, GameState, ObjectRef, TriggeredAbility
from ..oracle import Ability
from .effects import choose_targets, target_specs
from .keyword_abilities import abilities_of
from .layers import characteristics, matches, text, walk
from .replacement import condition_holds

_EVENT_VERBS = {"discover": EventKind.DISCOVER, "discovers": EventKind.DISCOVER, "scry": EventKind.SCRY,
                "scries": EventKind.SCRY, "manifest dread": EventKind.MANIFEST_DREAD,
                "manifests dread": EventKind.MANIFEST_DREAD, "explore": EventKind.EXPLORE,
                "collect evidence": EventKind.COLLECT_EVIDENCE, "collects evidence": EventKind.COLLECT_EVIDENCE,
                "surveil": EventKind.SURVEIL, "surveils": EventKind.SURVEIL,
                "investigate": EventKind.INVESTIGATE, "investigates": EventKind.INVESTIGATE}


def _event_node(ability: Ability) -> Tree[Token] | None:
    if ability.tree is None:
        return None
    for sub in walk(ability.tree):
        if sub.data == ability.trigger:
            return sub
    return None


def _desc(node: Tree[Token]) -> Tree[Token] | None:
    return next((c for c in node.children if isinstance(c, Tree) and c.data in ("object_desc", "card_desc")), None)


def _player_ref(node: Tree[Token]) -> str | None:
    ref = next((c for c in node.children if isinstance(c, Tree) and c.data in (
        "you", "an_opponent", "a_player", "each_player", "each_opponent", "target_player")), None)
    return str(ref.data) if ref is not None else None


def _player_matches(kind: str | None, player: str | None, controller: str) -> bool:
    if kind in (None, "a_player", "each_player"):
        return True
    if kind == "you":
        return player == controller
    return player is not None and player != controller


def _was(state: GameState, card: int, kind: str) -> bool:
    if state.zone_of(card) is state.battlefield:
        return kind in characteristics(state, card).types
    known = state.last_known.get(card)
    return bool(known and kind in known.types)


def triggers_on(state: GameState, source: Card, ability: Ability, event: Event) -> bool:
    """Whether ``event`` is ``ability``'s trigger event (``source`` is the permanent that has it)."""
    node = _event_node(ability)
    if node is None or source.controller is None and event.kind not in (EventKind.MOVE, EventKind.CYCLE, EventKind.CAST):
        return False
    controller = source.controller or (state.last_known[source.id].controller if source.id in state.last_known
                                       else source.owner)
    kind = ability.trigger
    entered = event.kind is EventKind.MOVE and event.destination == "battlefield"
    died = (event.kind is EventKind.MOVE and event.source == "battlefield"
            and (event.destination or "").endswith("graveyard"))
    if kind == "self_enters":
        if event.kind is EventKind.ATTACK:          # "whenever ~ enters or attacks" (Declare Attackers Step — CR 508.3a)
            return "attacks" in text(node).split() and source.id in event.cards
        if entered and source.id in event.cards:
            return True
        desc = _desc(node)               # "whenever ~ or another enchantment enters …"
        return entered and desc is not None and any(
            c != source.id and c in state.cards and matches(state, controller, desc, c, source.id)
            and ("under your control" not in text(node) or state.cards[c].controller == controller) for c in event.cards)
    if kind == "enters":
        desc = _desc(node)
        under_you = "under your control" in text(node)
        return entered and desc is not None and any(
            c in state.cards and matches(state, controller, desc, c, source.id)
            and not ("another" in text(desc).split() and c == source.id)
            and (not under_you or state.cards[c].controller == controller) for c in event.cards)
    if kind == "becomes_target" and "an opponent controls" in text(node) and any(
            isinstance(c, Token) and c.type == "SELF" for c in node.children):
        from ..actions.ward import triggers                                 # Ward — CR 702.21a
        return triggers(event, source.id, controller)
    if kind == "self_cast":          # "when you cast this spell": from the stack (Cascade — CR 702.85a)
        return event.kind is EventKind.CAST and source.id in event.cards and event.player == controller
    if kind == "self_cycled":        # "when you cycle ~": from the zone it went to (Cycling — CR 702.29c)
        return event.kind is EventKind.CYCLE and source.id in event.cards and event.player == controller
    if kind == "self_dies":
        return died and source.id in event.cards and _was(state, source.id, "Creature")
    if kind == "dies":
        desc = _desc(node)
        if desc is not None and any(isinstance(c, Token) and c.type == "SELF" for c in desc.children):
            # "When ~ dies" read as an object description that is the card itself: it is self_dies.
            return died and source.id in event.cards and _was(state, source.id, "Creature")
        if any(isinstance(c, Token) and c.type == "SELF" for c in node.children) and died and source.id in event.cards \
                and _was(state, source.id, "Creature"):
            return True                 # "whenever ~ or another creature dies": it looks back in time (603.10a)
        return died and desc is not None and any(
            _was(state, c, "Creature") and c != source.id
            and ("you control" not in text(desc) or state.last_known.get(c) and state.last_known[c].controller == controller)
            for c in event.cards)
    if kind == "becomes_monstrous":                                     # Monstrosity — CR 701.37a
        return (event.kind is EventKind.EFFECT and source.id in event.cards
                and event.detail.startswith("becomes monstrous"))
    if kind == "explores":
        if event.kind is not EventKind.EXPLORE or event.player != controller or not event.cards:
            return False
        if not _was(state, event.cards[0], "Creature"):
            return False
        wanted = next((c for c in node.children if isinstance(c, Tree) and c.data in ("land", "nonland")), None)
        if wanted is None:
            return True
        revealed = event.cards[1] if len(event.cards) > 1 else None
        is_land = revealed is not None and "Land" in state.cards[revealed].oracle.types
        return (wanted.data == "land") == is_land and revealed is not None
    if kind == "keyword_event":
        verb = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "EVENT_VERB"), "")
        if verb in ("discards a card", "discard a card"):          # Discard — CR 701.9a (Liliana's Caress)
            return (event.kind is EventKind.MOVE and event.detail.startswith("discarded")
                    and _player_matches(_player_ref(node), event.player, controller))
        wanted_kind = _EVENT_VERBS.get(verb)
        return (wanted_kind is not None and event.kind is wanted_kind
                and _player_matches(_player_ref(node), event.player, controller))
    if kind == "cards_to_graveyard":
        words = text(node)
        if event.kind not in (EventKind.MILL, EventKind.MOVE) or not (event.destination or "").endswith("graveyard"):
            return False
        self_desc = _desc(node)
        if self_desc is not None and any(isinstance(t, Token) and t.type == "SELF" for t in self_desc.children):
            return source.id in event.cards        # "When ~ is put into a graveyard from anywhere" (Guile)
        if "from your library" in words and "library" not in (event.source or ""):
            return False
        if "your graveyard" in words and event.player != controller:
            return False
        if "from the battlefield" in words and event.source != "battlefield":
            return False
        desc = _desc(node)
        if desc is not None and text(desc) == "~":   # "when ~ is put into a graveyard …" (persist, undying)
            return source.id in event.cards
        kinds = text(desc).split() if desc is not None else []
        hits = [c for c in event.cards if c in state.cards
                and ("creature" not in kinds or "Creature" in state.cards[c].oracle.types)
                and ("land" not in kinds or "Land" in state.cards[c].oracle.types)]
        return bool(hits)
    if kind == "beginning":
        step = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "STEP"), "")
        owner_node = next((c for c in node.children if isinstance(c, Tree)), None)
        owner = str(owner_node.data) if owner_node is not None else "each"
        if event.kind is not EventKind.STEP or not event.detail.startswith(step):
            return False
        return owner in ("each", "the", "the_next") or (owner in ("your", "your_next") and state.active == controller) \
            or (owner == "opponents" and state.active != controller)
    if kind == "cast":
        return (event.kind is EventKind.CAST and _player_matches(_player_ref(node), event.player, controller)
                and bool(event.cards) and _spell_matches(state, node, event.cards[0]))
    if kind == "searches":
        return (event.kind is EventKind.SEARCH and _player_matches(_player_ref(node), event.player, controller)
                and event.player is not None and event.source == state.player(event.player).library.label)
    if kind == "shuffles":
        return event.kind is EventKind.SHUFFLE
    if kind == "turned_face_up":
        return event.kind is EventKind.TURN_FACE_UP and ("you control" not in text(node) or event.player == controller)
    if kind == "sacrifice_event":
        subtype = next((str(t) for t in node.children if isinstance(t, Token) and t.type == "SACRIFICED_SUBTYPE"), None)
        if subtype is not None:             # "Whenever you sacrifice a Clue" (Tireless Tracker)
            return (died and "sacrificed" in event.detail and _player_matches(_player_ref(node), event.player, controller)
                    and any(c in state.cards and subtype in state.cards[c].oracle.subtypes for c in event.cards))
        return (died and "sacrificed" in event.detail and any(_was(state, c, "Creature") for c in event.cards)
                and _player_matches(_player_ref(node), event.player, controller))
    if kind in ("self_attacks", "attacks", "self_blocks", "blocks"):
        return _attacks_or_blocks(state, source, ability, node, event, controller)
    if kind == "deals_combat_damage":
        return _deals_combat_damage_to_player(state, source, node, event, controller)
    if kind == "player_dealt_damage":          # the damage dealt to one player at once is one event (603.2c)
        return event.kind is EventKind.DEALT_DAMAGE and event.amount > 0 and _player_matches(
            _player_ref(node), event.destination, controller)
    if kind == "gains_life":
        return event.kind is EventKind.LIFE and event.amount > 0 and _player_matches(
            _player_ref(node), event.player, controller)
    return False


def _attacks_or_blocks(state: GameState, source: Card, ability: Ability, node: Tree[Token], event: Event,
                       controller: str) -> bool:
    """"Whenever ~ attacks", "whenever a creature you control attacks", "whenever ~ blocks or becomes blocked",
    "whenever you attack", "whenever one or more creatures you control attack": a creature attacks as it is
    declared as an attacker (Declare Attackers Step — CR 508.3a), blocks as it is declared as a blocker, once each
    combat however many it blocks (Declare Blockers Step — CR 509.3a), becomes blocked once however many block it
    (509.3c); "one or more" and "you attack" trigger once for the whole declaration (508.3d)."""
    words = text(node).split()
    if event.kind is EventKind.BLOCK:
        if "blocks" not in words and "blocked" not in words:
            return False
        blocker = event.cards[0] if event.cards else None
        blocked = _blocked_attacker(state, event)
        earlier = [t.event for t in state.pending_triggers if t.source.card == source.id
                   and t.ability == ability.text and t.event.kind is EventKind.BLOCK]
        if any(isinstance(c, Token) and c.type == "SELF" for c in node.children):
            if "blocks" in words and source.id == blocker:
                # "Whenever ~ blocks" triggers once each combat, however many creatures it blocks (509.3a)
                return not any(e.cards[:1] == (blocker,) for e in earlier)
            # "… becomes blocked": once, however many creatures block it (509.3c)
            return "blocked" in words and source.id == blocked and not any(
                _blocked_attacker(state, e) == blocked for e in earlier)
        desc = _desc(node)
        return (desc is not None and blocker is not None and matches(state, controller, desc, blocker, source.id)
                and not any(e.cards[:1] == (blocker,) for e in earlier))
    if event.kind is not EventKind.ATTACK or "attacks" not in words and "attack" not in words:
        return False
    attacker = event.cards[0] if event.cards else None
    if attacker is None:
        return False
    if ability.trigger == "self_attacks":
        return attacker == source.id
    if "you attack" in " ".join(words) or "one or more" in " ".join(words):
        if event.player != controller:
            return False
        desc = _desc(node)
        if desc is not None and not matches(state, controller, desc, attacker, source.id):
            return False
        # once for the declaration: not again for the other creatures declared with it (508.3d)
        return not any(t.source.card == source.id and t.ability == ability.text and t.event.kind is EventKind.ATTACK
                       for t in state.pending_triggers)
    desc = _desc(node)
    if desc is None:
        return False
    if any(isinstance(c, Token) and c.type == "SELF" for c in desc.children):
        return attacker == source.id
    if "another" in text(desc).split() and attacker == source.id:
        return False
    return matches(state, controller, desc, attacker, source.id)


def _blocked_attacker(state: GameState, event: Event) -> int | None:
    """The attacker a BLOCK event's creature blocks ("blocks Grizzly Bears")."""
    name = event.detail.removeprefix("blocks ").strip()
    combat = state.combat
    if combat is None:
        return None
    for ref, _ in combat.attackers:
        if ref.card in state.cards and state.cards[ref.card].display_name == name:
            return ref.card
    return None


def _deals_combat_damage_to_player(state: GameState, source: Card, node: Tree[Token], event: Event,
                                   controller: str) -> bool:
    """"Whenever ~ deals combat damage to a player (an opponent)": a combat damage event to a player names its
    source (Combat Damage Step — CR 510.3a). Damage to creatures, and noncombat "deals damage", aren't read yet."""
    words = text(node)
    if event.kind is not EventKind.DAMAGE or "combat damage" not in event.detail or "combat" not in words.split():
        return False
    if event.destination not in [p.name for p in state.players] or not event.cards:
        return False
    recipient = next((text(c) for c in node.children if isinstance(c, Tree) and c.data == "damage_recipient"), "")
    if "player" not in recipient and "opponent" not in recipient:
        return False
    if "opponent" in recipient and event.destination == controller:
        return False
    if any(isinstance(c, Token) and c.type == "SELF" for c in node.children):
        return source.id in event.cards
    desc = _desc(node)
    return desc is not None and any(c in state.cards and matches(state, controller, desc, c, source.id)
                                    for c in event.cards)


def _spell_matches(state: GameState, node: Tree[Token], card: int) -> bool:
    """Whether the spell just cast fits "a green spell", "an instant or sorcery spell", "a creature spell" …"""
    from .layers import COLOR_LETTERS, TYPE_WORDS
    desc = next((c for c in node.children if isinstance(c, Tree) and c.data == "spell_desc"), None)
    if desc is None or card not in state.spells:
        return desc is None
    face = state.spells[card].face
    words = text(desc).split()
    colors = frozenset(c for s in (face.mana_cost.symbols if face.mana_cost else ()) for c in s.split("/")
                       if c in "WUBRG")
    for word in words:
        if word in COLOR_LETTERS and COLOR_LETTERS[word] not in colors:
            return False
        if word == "multicolored" and len(colors) < 2:
            return False
    if "noncreature" in words and "Creature" in face.types:
        return False
    if "instant" in words and "sorcery" in words:
        return bool(face.types & {"Instant", "Sorcery"})
    for word in words:
        if word in TYPE_WORDS and word not in ("instant", "sorcery") and TYPE_WORDS[word] not in face.types:
            return False
    return True


DELAYED_LINE = -2
"""The ``line`` of a delayed triggered ability a spell or ability created: no line of its source's text."""


def _delayed(state: GameState, event: Event) -> None:
    """A step begins: the delayed triggered abilities waiting for it trigger, each once
    (Handling Triggered Abilities — CR 603.7b–c), and are gone."""
    due = [d for d in state.delayed_triggers
           if event.detail.startswith(d.step) and (not d.own_turn or state.active == d.controller)
           and state.turn > d.after_turn]
    if not due:
        return
    state.replace_list(state.delayed_triggers, [d for d in state.delayed_triggers if d not in due])
    for d in due:
        state.append(state.pending_triggers, TriggeredAbility(
            d.source, d.source_name, d.controller, d.ability, event, line=DELAYED_LINE, delayed=d))


def watch(state: GameState, event: Event) -> None:
    """Note each ability ``event`` triggers (603.2); they wait in ``state.pending_triggers``."""
    if event.kind is EventKind.STEP and state.delayed_triggers:
        _delayed(state, event)
    sources = list(state.battlefield.cards)
    if event.kind is EventKind.MOVE and event.source == "battlefield":
        sources += [c for c in event.cards if c not in sources]       # leaves-the-battlefield: look back (603.10a)
    if event.kind in (EventKind.CYCLE, EventKind.CAST):
        sources += [c for c in event.cards if c not in sources]       # "when you cycle ~" / "when you cast ~"
    for card_id in sources:
        card = state.cards.get(card_id)
        if card is None or card.face_down or card.phased_out:      # a phased-out one doesn't exist (Phasing — CR 702.26b)
            continue
        if state.zone_of(card_id) is not state.battlefield and event.kind not in (EventKind.CYCLE, EventKind.CAST):
            known = state.last_known.get(card_id)
            if card_id not in event.cards or known is None or known.face_down:
                continue        # looking back, it is as it last existed: face down, it had no abilities
        for ability in abilities_of(card.oracle):        # printed, and keywords written out (prowess, persist …)
            if ability.kind not in ("triggered", "modal") or not triggers_on(state, card, ability, event):
                continue
            if (event.kind in (EventKind.CYCLE, EventKind.CAST) and state.zone_of(card_id) is not state.battlefield
                    and ability.trigger not in ("self_cycled", "self_cast")):
                continue        # off the battlefield, only "when you cycle/cast this card" abilities work
            condition = intervening_condition(ability)
            if condition is not None and not condition_holds(state, card.controller or card.owner, condition, card_id):
                continue        # "When …, if …": the condition is checked as it triggers (603.4)
            if ability.once_each_turn:
                key = (card_id, ability.text)
                if key in state.once_each_turn:
                    continue
                state.mark_once(key)
            controller = card.controller or (state.last_known[card_id].controller if card_id in state.last_known
                                             else card.owner)
            cast = state.spells.get(event.cards[0]) if event.kind is EventKind.CAST and event.cards else None
            state.append(state.pending_triggers, TriggeredAbility(
                state.ref(card_id) if state.zone_of(card_id) is state.battlefield else
                _last_ref(state, card_id), card.oracle.name, controller, ability.text, event, line=ability.line,
                spell=cast))
        for module in _keyword_trigger_modules():          # keyword abilities that trigger (Cumulative Upkeep)
            for line, ability_text in module.keyword_triggers(state, card, event):
                controller = card.controller or (state.last_known[card_id].controller if card_id in state.last_known
                                                 else card.owner)
                state.append(state.pending_triggers, TriggeredAbility(
                    state.ref(card_id) if state.zone_of(card_id) is state.battlefield else _last_ref(state, card_id),
                    card.oracle.name, controller, ability_text, event, line=line, keyword=module.KEYWORD))


@functools.cache
def _keyword_trigger_modules() -> tuple[Any, ...]:
    """The keyword-ability modules whose abilities trigger: ``keyword_triggers(state, card, event)`` gives the
    (line, text) of each instance ``event`` triggers; ``resolve_keyword_trigger(state, ability, choose)`` resolves
    one (and ``keyword_targets(state, ability, choose)``, if there, chooses its targets). Looked up once: it is
    asked for every permanent at every event."""
    from ..actions import ACTIONS
    return tuple(m for m in ACTIONS if hasattr(m, "keyword_triggers"))


def intervening_condition(ability: Ability) -> str | None:
    """The condition of "When/Whenever/At …, if [condition], …" (Handling Triggered Abilities — CR 603.4)."""
    if ability.tree is None:
        return None
    node = next((c for c in ability.tree.children if isinstance(c, Tree) and c.data == "intervening"), None)
    if node is None:
        return None
    return next(str(t) for t in node.children if isinstance(t, Token) and t.type == "CONDITION").strip()


def _last_ref(state: GameState, card: int) -> ObjectRef:
    known = state.last_known.get(card)
    return ObjectRef(card, known.incarnation if known else 0)


def ability_of(state: GameState, ability: TriggeredAbility) -> Ability:
    """The parsed line of the source's Oracle text this triggered or activated ability is."""
    if ability.mode:                      # a modal triggered ability: the mode chosen as it was put on the stack
        card = state.cards.get(ability.source.card)
        if card is not None:
            return next(a for a in abilities_of(card.oracle) if a.line == ability.mode)
    if ability.delayed is not None:       # its effect is part of the text of the ability that created it (603.7a)
        return Ability("triggered", ability.ability, DELAYED_LINE, Tree("triggered", [ability.delayed.body]),
                       trigger="delayed")
    if ability.line < 0:
        # A delayed triggered ability (603.7), such as earthbend's: no line of the card; its effect is read from
        # its own text, as a "when ~ dies" ability of its source (whose "it" is that card).
        from ..oracle import parse_card
        return parse_card(ability.source_name, f"When ~ dies, {ability.ability.split(', ', 1)[1]}").abilities[0]
    card = state.cards.get(ability.source.card)
    if card is None:
        # Its source has ceased to exist (a Clue sacrificed to pay the cost): the ability is on the stack
        # independently of it (Abilities — CR 113.7a), and is read from its own text.
        from ..oracle import parse_card
        return parse_card(ability.source_name, ability.ability).abilities[0]
    return next(a for a in abilities_of(card.oracle) if a.line == ability.line)


def put_triggers_on_stack(state: GameState, choose: Chooser) -> int:
    """Put the waiting triggered abilities on the stack (603.3b, 603.3d); return how many went on."""
    waiting = list(state.pending_triggers)
    if not waiting:
        return 0
    state.replace_list(state.pending_triggers, [])
    put = 0
    for player in state.apnap():
        mine = [a for a in waiting if a.controller == player.name]
        while mine:
            if len({(a.source_name, a.ability) for a in mine}) > 1:
                answer = decide(state, Decision.of(
                    player.name, "put which triggered ability on the stack next",
                    Citation("Handling Triggered Abilities", "603.3b"),
                    [Option(f"{a.source_name}: {a.ability}", a) for a in mine]), choose)
                ability = answer.value
            else:
                ability = mine[0]
            mine.remove(ability)
            put += _put_one(state, ability, choose)
    return put


def modes_of(oracle_abilities: tuple[Ability, ...], head: Ability) -> list[Ability]:
    """The modes of a modal ability: the bullet lines right after its "choose one —" line."""
    modes: list[Ability] = []
    for a in oracle_abilities:
        if a.line == head.line + len(modes) + 1 and a.kind == "bullet":
            modes.append(a)
    return modes


def _choose_mode(state: GameState, ability: TriggeredAbility, parsed: Ability, choose: Chooser) -> TriggeredAbility:
    """"Whenever ~ attacks or blocks, choose one — • … • …": its controller chooses the mode as it is put on the stack
    (Handling Triggered Abilities — CR 603.3c); only "choose one" is read."""
    from ..errors import Unimplemented
    if "choose one" not in parsed.text:
        raise Unimplemented(f"{ability.label}: {parsed.text!r} (only \"choose one\" modal abilities are read)")
    card = state.cards[ability.source.card]
    modes = modes_of(abilities_of(card.oracle), parsed)
    unread = [m for m in modes if not m.parsed]
    if not modes or unread:
        raise Unimplemented(f"{ability.label}: a mode of {parsed.text!r} isn't read")
    answer = decide(state, Decision.of(ability.controller, f"{ability.label}: choose one",
                                       Citation("Handling Triggered Abilities", "603.3c"),
                                       [Option(f"mode {i}: {m.text.lstrip('• ')}", m.line)
                                        for i, m in enumerate(modes, 1)]), choose)
    return replace(ability, mode=int(answer.value))


def _put_one(state: GameState, ability: TriggeredAbility, choose: Chooser) -> int:
    if ability.keyword:
        return _put_keyword_trigger(state, ability, choose)
    parsed = ability_of(state, ability)
    if parsed.kind == "modal" and not ability.mode:
        ability = _choose_mode(state, ability, parsed, choose)
        parsed = ability_of(state, ability)
    body = parsed.tree.children[-1] if parsed.tree is not None else None
    specs = target_specs(body) if isinstance(body, Tree) else []
    targets: list[ObjectRef | str | None] = []
    if specs:
        chosen = choose_targets(state, ability.controller, specs, ability.source.card, ability.label, choose,
                                Citation("Handling Triggered Abilities", "603.3d"))
        if chosen is None:
            state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                       detail="no legal target: removed from the stack",
                       citation=Citation("Handling Triggered Abilities", "603.3d"))
            return 0
        targets = list(chosen)
    ability_id = state.next_id
    state.set(state, "next_id", ability_id + 1)
    on_stack = replace(ability, id=ability_id, targets=tuple(t for t in targets if t is not None))
    state.set_item(state.abilities, ability_id, on_stack)
    state.append(state.stack.cards, ability_id)
    state.emit(EventKind.TRIGGER, ability.controller, names=(ability.label,), destination="stack",
               detail=ability.ability, citation=Citation("Handling Triggered Abilities", "603.3"))
    from ..actions.ward import targeted
    targeted(state, ability.controller, ability_id, ability.label, targets)          # what ward triggers on
    return 1


def _put_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> int:
    """A keyword ability's trigger goes on the stack with the targets its module chooses (603.3d)."""
    from ..actions import find_action
    module = find_action(ability.keyword)
    targets: list[ObjectRef | str] | None = []
    if hasattr(module, "keyword_targets"):
        targets = module.keyword_targets(state, ability, choose)
        if targets is None:
            state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                       detail="no legal target: removed from the stack",
                       citation=Citation("Handling Triggered Abilities", "603.3d"))
            return 0
    ability_id = state.next_id
    state.set(state, "next_id", ability_id + 1)
    on_stack = replace(ability, id=ability_id, targets=tuple(targets or ()))
    state.set_item(state.abilities, ability_id, on_stack)
    state.append(state.stack.cards, ability_id)
    state.emit(EventKind.TRIGGER, ability.controller, names=(ability.label,), destination="stack",
               detail=ability.ability, citation=Citation("Handling Triggered Abilities", "603.3"))
    return 1
