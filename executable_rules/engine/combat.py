"""Combat: declaring attackers and blockers, and combat damage (Combat Phase — CR 506).

- :func:`declare_attackers` is the turn-based action of the declare attackers step
  (Declare Attackers Step — CR 508.1): the active player's untapped creatures that have haste or have been under their control since the
  turn began (508.1a; Creatures — CR 302.6; Haste — CR 702.10b), none with defender (Defender — CR 702.3b),
  each attacking a player or a planeswalker of an opponent (508.1b). Attacking taps them (508.1f) unless they
  have vigilance (Vigilance — CR 702.20b). A creature that attacks alone gets +1/+1 for each instance of
  exalted its controller's permanents have (Exalted — CR 702.83a, 702.83b).
- :func:`declare_blockers` is the defending player's (Declare Blockers Step — CR 509.1): untapped creatures, each
  blocking one creature attacking that player or their planeswalker (509.1a), within the evasion abilities'
  restrictions (509.1b): flying (Flying — CR 702.9b) and reach (Reach — CR 702.17b), menace (Menace — CR
  702.111b), intimidate (Intimidate — CR 702.13b), fear (Fear — CR 702.36b), shadow (Shadow — CR 702.28b) and
  landwalk (Landwalk — CR 702.14c). An attacker with a blocker declared for it is blocked, and stays blocked
  (509.1h).
- :func:`combat_damage` is the combat damage step (Combat Damage Step — CR 510): each attacking and blocking
  creature assigns combat damage equal to its power (510.1a), an unblocked one to what it attacks (510.1b), a
  blocked one among its blockers as its controller chooses (510.1c), a blocker among the attackers it blocks
  (510.1d); trample lets the excess over lethal damage go to the player or planeswalker (Trample — CR 702.19b,
  702.19c, 702.19d), and any damage from a deathtouch source counts as lethal (Deathtouch — CR 702.2c). All of
  it is dealt at once (510.2). With first strike or double strike in combat there are two damage steps
  (510.4; First Strike — CR 702.7b; Double Strike — CR 702.4b).

A permanent that leaves the battlefield, changes controller or stops being a creature is removed from combat
(Combat Phase — CR 506.4): combat is kept as references (:class:`~executable_rules.model.Combat`).

>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.engine.game import new_game
>>> state = new_game(["you", "opponent"]); state.step = "beginning of combat"
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "you", ZoneKind.BATTLEFIELD)
>>> wall = state.add_card(OracleCard.simple("Wall of Wood", "{G}", "Creature", power="0", toughness="3",
...                       text="Defender"), "opponent", ZoneKind.BATTLEFIELD)
>>> declare_attackers(state, "you", [(bears, "opponent")])
>>> state.cards[bears].tapped, [state.cards[c].name for c, _ in attackers(state)]
(True, ['Grizzly Bears'])
>>> declare_blockers(state, [(wall, bears)])
>>> combat_damage(state)
>>> state.cards[wall].damage, state.player("opponent").life
(2, 20)
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from lark import Token

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import Combat, ContinuousEffect, EventKind, GameState, ObjectRef
from .effects import damage, lifelink
from .layers import characteristics
from .turn import resolve_stack

Attacked = ObjectRef | str
"""What a creature attacks: a player (by name) or a planeswalker."""

DamageTarget = int | str
"""A creature or planeswalker (card id) or a player (name) that combat damage is assigned to."""

Assignment = Mapping[DamageTarget, int]


def _cite(number: str) -> Citation:
    titles = {"506": "Combat Phase", "508": "Declare Attackers Step", "509": "Declare Blockers Step",
              "510": "Combat Damage Step"}
    return Citation(titles[number[:3]], number)


def _enter_step(state: GameState, step: str, detail: str = "") -> None:
    """The game moves to a step of combat (Turn Structure — CR 500.1), as the turn's other steps are announced."""
    state.set(state, "step", step)
    whose = "your" if state.active == "you" else f"{state.active}'s"
    state.emit(EventKind.STEP, state.active, detail=f"{detail or step} (turn {state.turn}, {whose} turn)",
               citation=Citation("Turn Structure", "500.1"))


def _name(state: GameState, card: int) -> str:
    return state.cards[card].display_name


def _keywords(state: GameState, card: int) -> frozenset[str]:
    return characteristics(state, card).keywords


def _printed_keywords(state: GameState, card: int) -> tuple[tuple[str, str], ...]:
    c = state.cards[card]
    return () if c.face_down else c.oracle.parsed.keywords


def in_combat(state: GameState, ref: ObjectRef, controller: str | None = None) -> bool:
    """Whether the object ``ref`` still is a creature on the battlefield (under ``controller``): else it has been
    removed from combat (Combat Phase — CR 506.4)."""
    if not state.is_current(ref) or state.zone_of(ref.card) is not state.battlefield:
        return False
    if controller is not None and state.cards[ref.card].controller != controller:
        return False
    return "Creature" in characteristics(state, ref.card).types


def attackers(state: GameState) -> list[tuple[int, Attacked]]:
    """The attacking creatures still in combat, in the order declared, with what each attacks."""
    combat = state.combat
    if combat is None:
        return []
    return [(ref.card, attacked) for ref, attacked in combat.attackers if in_combat(state, ref, state.active)]


def _attacked_still(state: GameState, attacked: Attacked) -> bool:
    """A planeswalker that left the battlefield or stopped being one is removed from combat (506.4)."""
    if isinstance(attacked, str):
        return not state.player(attacked).lost
    return (state.is_current(attacked) and state.zone_of(attacked.card) is state.battlefield
            and "Planeswalker" in characteristics(state, attacked.card).types)


def defending_player(state: GameState, attacked: Attacked) -> str:
    """The player a creature attacks, or the controller of the planeswalker it attacks (508.5)."""
    if isinstance(attacked, str):
        return attacked
    controller = state.cards[attacked.card].controller
    if controller is None:
        known = state.last_known.get(attacked.card)
        return known.controller if known else state.cards[attacked.card].owner
    return controller


def blockers_of(state: GameState, attacker: int) -> list[int]:
    """The creatures blocking ``attacker`` now (those removed from combat no longer are)."""
    combat = state.combat
    if combat is None:
        return []
    attacked = dict((ref.card, a) for ref, a in combat.attackers)
    defender = defending_player(state, attacked[attacker]) if attacker in attacked else None
    return [b.card for b, a in combat.blocks if a.card == attacker and state.is_current(a)
            and in_combat(state, b, defender)]


def blocked_by(state: GameState, blocker: int) -> list[int]:
    """The attacking creatures ``blocker`` blocks now."""
    combat = state.combat
    if combat is None:
        return []
    current = {c for c, _ in attackers(state)}
    return [a.card for b, a in combat.blocks if b.card == blocker and state.is_current(b) and a.card in current
            and state.is_current(a)]


def is_blocked(state: GameState, attacker: int) -> bool:
    combat = state.combat
    return combat is not None and state.ref(attacker) in combat.blocked


# ---------------------------------------------------------------- declare attackers (508)


def summoning_sick(state: GameState, card: int) -> bool:
    """Whether the permanent has come under its controller's control since the turn began (Creatures — CR 302.6):
    it entered the battlefield, was created or changed control this turn."""
    for event in state.events[state.turn_started:]:
        if card not in event.cards:
            continue
        if event.kind in (EventKind.MOVE, EventKind.CREATE) and event.destination == "battlefield":
            return True
        if event.kind is EventKind.CONTROL:
            return True
    return False


_RESTRICTIONS = ("cant_block", "cant_attack_or_block", "cant_be_blocked")


def restrictions(state: GameState, card: int) -> list[tuple[str, str]]:
    """The restrictions on ``card`` from static abilities ("~ can't block.", "Enchanted creature can't attack or
    block.", "Creatures your opponents control can't block.", "~ can't be blocked."): (kind, the line) pairs, kind
    ``attack``, ``block``, ``block fliers``, ``be blocked`` or ``block only fliers``. A restriction the model can't
    judge ("can't attack alone", "can't be blocked except by …") stops with needs what the engine can't do yet."""
    from ..errors import Unimplemented
    from .layers import affects
    found: list[tuple[str, str]] = []
    target = state.cards[card]
    for permanent in state.permanents():
        if permanent.face_down:
            continue
        for a in permanent.oracle.parsed.abilities:
            if a.static not in _RESTRICTIONS or a.tree is None:
                continue
            who = next(a.tree.find_data("object_or_self")).children[0]
            if not affects(state, permanent, who, target):
                continue
            line = a.text.replace("~", permanent.oracle.name)
            only_with = re.search(r"except by creatures with (\w+)(?: or (\w+))?\.$", line)
            if only_with:            # "except by creatures with flying or reach" (Signal Pest): Declare Blockers Step — CR 509.1b
                found.append(("be blocked except by " + " or ".join(k.capitalize() for k in only_with.groups() if k),
                              line))
                continue
            if "alone" in line or "except by" in line:
                raise Unimplemented(f"{permanent.oracle.name}: {line}")
            if a.static == "cant_block":
                found.append(("block fliers" if "creatures with flying" in line else "block", line))
            elif a.static == "cant_attack_or_block":
                found += [("attack", line)] + ([("block", line)] if "or block" in line else [])
            elif "can't be blocked by" in line:                 # "by Walls": a creature of that subtype can't block it
                plural = next(str(t) for t in a.tree.scan_values(lambda v: isinstance(v, Token)
                                                                  and v.type == "BLOCKED_BY_SUBTYPE"))
                subtype = plural[:-3] + "f" if plural.endswith("ves") else plural[:-1]     # Elves → Elf, Walls → Wall
                found.append((f"be blocked by {subtype}", line))
            else:
                found.append(("block only fliers" if "can block only" in line else "be blocked", line))
    return found


def attack_problem(state: GameState, player: str, card: int, attacked: Attacked) -> tuple[str, Citation] | None:
    """Why ``card`` can't attack ``attacked`` for ``player`` now (None if it can)."""
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield or "Creature" not in characteristics(state, card).types:
        return f"{c.display_name} isn't a creature on the battlefield: only a creature can attack", _cite("506.3")
    if player != state.active:
        return f"{player} isn't the active player: only the active player's creatures attack", _cite("506.2")
    if c.controller != player:
        return f"{player} doesn't control {c.display_name}", _cite("508.1a")
    if c.tapped:
        return f"{c.display_name} is tapped: attacking creatures must be untapped", _cite("508.1a")
    keywords = _keywords(state, card)
    if summoning_sick(state, card) and "Haste" not in keywords:
        return (f"{c.display_name} hasn't been under {player}'s control continuously since the turn began and has "
                "no haste", Citation("Haste", "702.10b"))
    if "Defender" in keywords:
        return f"{c.display_name} has defender: it can't attack", Citation("Defender", "702.3b")
    for kind, line in restrictions(state, card):           # "~ can't attack": Declare Attackers Step — CR 508.1c
        if kind == "attack":
            return f"{c.display_name} can't attack: {line}", _cite("508.1c")
    if isinstance(attacked, str):
        if attacked == player or attacked not in [p.name for p in state.players] or state.player(attacked).lost:
            return f"{attacked} isn't an opponent in the game: a creature attacks an opponent", _cite("506.2")
    else:
        if not _attacked_still(state, attacked) or state.cards[attacked.card].controller == player:
            return (f"{_name(state, attacked.card)} isn't a planeswalker an opponent controls: only a player, a "
                    "planeswalker or a battle can be attacked", _cite("506.3"))
    return None


def declare_attackers(state: GameState, player: str, attacks: Sequence[tuple[int, Attacked]],
                      choose: Chooser = first_legal) -> None:
    """``player`` declares these attackers (each with what it attacks); illegal declarations are refused whole
    (508.1). Then triggers and priority (508.2)."""
    with state.action("declare attackers"):
        _enter_step(state, "declare attackers")
        seen: set[int] = set()
        for card, attacked in attacks:
            if card in seen:
                raise IllegalChoice(f"attack with {_name(state, card)}", "a creature is declared as an attacker once",
                                    _cite("508.1a"))
            seen.add(card)
            problem = attack_problem(state, player, card, attacked)
            if problem:
                raise IllegalChoice(f"attack with {_name(state, card)}", *problem)
        refs: list[tuple[ObjectRef, Attacked]] = []
        for card, attacked in attacks:
            c = state.cards[card]
            what = attacked if isinstance(attacked, str) else _name(state, attacked.card)
            if "Vigilance" in _keywords(state, card):
                state.emit(EventKind.ATTACK, player, (card,), detail=f"attacks {what}; vigilance: it doesn't tap",
                           citation=Citation("Vigilance", "702.20b"))
            else:
                state.set(c, "tapped", True)
                state.emit(EventKind.ATTACK, player, (card,), detail=f"attacks {what}; attacking taps it",
                           citation=_cite("508.1f"))
            refs.append((state.ref(card), attacked))
        state.set(state, "combat", Combat(attackers=tuple(refs)))
        if not attacks:
            state.emit(EventKind.NOTHING, player, detail="no creatures attack: the declare blockers and combat damage "
                       "steps are skipped", citation=Citation("Declare Attackers Step", "508.8"))
        if len(attacks) == 1:
            _exalted(state, player, attacks[0][0])
    resolve_stack(state, choose)


def _exalted(state: GameState, player: str, attacker: int) -> None:
    """Each instance of exalted among ``player``'s permanents: the creature attacking alone gets +1/+1 until end of
    turn (Exalted — CR 702.83a, 702.83b). The triggers resolve at once (no player acts between them)."""
    instances = 0
    for permanent in state.permanents(player):
        if "Exalted" in _keywords(state, permanent.id):
            printed = sum(1 for title, _ in _printed_keywords(state, permanent.id) if title == "Exalted")
            instances += max(printed, 1)
    for _ in range(instances):
        effect = ContinuousEffect("exalted", "7c", (state.ref(attacker),), state.stamp(), 1, 1)
        state.append(state.continuous, effect)
        state.emit(EventKind.EFFECT, player, (attacker,), detail="exalted: attacks alone, gets +1/+1 until end of turn",
                   citation=Citation("Exalted", "702.83a"))


# ---------------------------------------------------------------- declare blockers (509)


def landwalk_problem(state: GameState, attacker: int, defender: str) -> str | None:
    """The landwalk of ``attacker`` that makes it unblockable by ``defender`` (Landwalk — CR 702.14c), if any:
    "swampwalk" (a land with that subtype), "snow forestwalk" (both), "nonbasic landwalk" (a land without it),
    "legendary landwalk"/"artifact landwalk" (a land with that supertype or type)."""
    for title, argument in _printed_keywords(state, attacker):
        if title != "Landwalk":
            continue
        words = argument.lower().removesuffix("walk").split()
        if not words:
            continue
        subtype = words[-1]
        qualifiers = words[:-1]
        for land in state.permanents(defender):
            ch = characteristics(state, land.id)
            if "Land" not in ch.types:
                continue
            if subtype != "land" and subtype.capitalize() not in ch.subtypes:
                continue
            if all(_has_quality(ch.types | ch.supertypes, q) for q in qualifiers):
                return argument
    return None


def _has_quality(kinds: frozenset[str], quality: str) -> bool:
    if quality.startswith("non"):
        return quality[3:].capitalize() not in kinds
    return quality.capitalize() in kinds


_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def protected_from(state: GameState, card: int, source: int) -> bool:
    """Whether ``card`` has protection from a quality ``source`` has (Protection — CR 702.16a): a colour,
    "creatures", "artifacts", "everything", "all colors"; "from A and from B" is two (702.16g)."""
    qualities = [q.strip() for t, a in _printed_keywords(state, card) if t == "Protection"
                 for q in a.removeprefix("from").split("and from")]
    if not qualities:
        return False
    ch = characteristics(state, source)
    for quality in qualities:
        q = quality.lower().removeprefix("from ").strip()
        if q in _COLOR_WORDS and _COLOR_WORDS[q] in ch.colors:
            return True
        if q == "all colors" and ch.colors:
            return True
        if q == "everything":
            return True
        if q.endswith("s") and q[:-1].capitalize() in ch.types:
            return True
    return False


READS_LINES = (re.compile(r"^~ can block (an additional creature|any number of creatures) each combat\.$", re.IGNORECASE),)
"""Lines applied here by reading their text (:func:`can_block_additional`): a run doesn't report them unread."""


def can_block_additional(state: GameState, blocker: int) -> int:
    """How many creatures ``blocker`` may block: one, plus one for "~ can block an additional creature each
    combat" (Declare Blockers Step — CR 509.1a; read from its Oracle text)."""
    c = state.cards[blocker]
    if c.face_down:
        return 1
    text = c.oracle.text.lower()
    if "can block any number of creatures" in text:
        return 1000
    return 2 if "can block an additional creature each combat" in text else 1


def block_problem(state: GameState, blocker: int, attacker: int) -> tuple[str, Citation] | None:
    """Why ``blocker`` can't block ``attacker`` (None if it can), but menace, which needs the whole declaration."""
    b = state.cards[blocker]
    if state.zone_of(blocker) is not state.battlefield or "Creature" not in characteristics(state, blocker).types:
        return f"{b.display_name} isn't a creature on the battlefield: only a creature can block", _cite("506.3")
    current = dict(attackers(state))
    if attacker not in current:
        return f"{_name(state, attacker)} isn't attacking", _cite("509.1a")
    defender = defending_player(state, current[attacker])
    if b.controller != defender:
        return (f"{b.display_name} isn't controlled by the player {_name(state, attacker)} attacks ({defender})",
                _cite("509.1a"))
    if b.tapped:
        return f"{b.display_name} is tapped: blocking creatures must be untapped", _cite("509.1a")
    a_kw, b_kw = _keywords(state, attacker), _keywords(state, blocker)
    a_name = _name(state, attacker)
    if "Flying" in a_kw and not {"Flying", "Reach"} & b_kw:
        return (f"{a_name} has flying: only a creature with flying or reach can block it", Citation("Flying", "702.9b"))
    if "Shadow" in a_kw and "Shadow" not in b_kw:
        return f"{a_name} has shadow: only a creature with shadow can block it", Citation("Shadow", "702.28b")
    if "Shadow" in b_kw and "Shadow" not in a_kw:
        return (f"{b.display_name} has shadow: it can block only a creature with shadow", Citation("Shadow", "702.28b"))
    b_ch, a_ch = characteristics(state, blocker), characteristics(state, attacker)
    if "Intimidate" in a_kw and "Artifact" not in b_ch.types and not (a_ch.colors & b_ch.colors):
        return (f"{a_name} has intimidate: only an artifact creature or a creature sharing a color with it can block "
                "it", Citation("Intimidate", "702.13b"))
    if "Fear" in a_kw and "Artifact" not in b_ch.types and "B" not in b_ch.colors:
        return f"{a_name} has fear: only an artifact or black creature can block it", Citation("Fear", "702.36b")
    if protected_from(state, attacker, blocker):
        return (f"{a_name} has protection from a quality {b.display_name} has: it can't block it",
                Citation("Protection", "702.16f"))
    for kind, line in restrictions(state, blocker):         # "~ can't block": Declare Blockers Step — CR 509.1b
        if kind == "block" or (kind == "block fliers" and "Flying" in a_kw) or (kind == "block only fliers"
                                                                                   and "Flying" not in a_kw):
            return f"{b.display_name} can't block {a_name}: {line}", _cite("509.1b")
    for kind, line in restrictions(state, attacker):
        if kind == "be blocked" or (kind.startswith("be blocked by ") and kind[14:] in b_ch.subtypes) or (
                kind.startswith("be blocked except by ") and not set(kind[21:].split(" or ")) & b_kw):
            return f"{a_name} can't be blocked by {b.display_name}: {line}", _cite("509.1b")
    walk = landwalk_problem(state, attacker, defender)
    if walk:
        return (f"{a_name} has {walk} and {defender} controls such a land: it can't be blocked",
                Citation("Landwalk", "702.14c"))
    return None


def declare_blockers(state: GameState, blocks: Sequence[tuple[int, int]], choose: Chooser = first_legal) -> None:
    """The defending player declares these blocks, (blocker, attacker) pairs; an illegal declaration is refused
    whole (509.1). Then triggers and priority (509.2)."""
    combat = state.combat
    if combat is None:
        raise IllegalChoice("declare blockers", "no creatures are attacking: the declare blockers step is skipped",
                            Citation("Declare Attackers Step", "508.8"))
    if combat.blockers_declared:
        raise IllegalChoice("declare blockers", "blockers are declared once, in the declare blockers step",
                            _cite("509.1"))
    with state.action("declare blockers"):
        _enter_step(state, "declare blockers")
        for blocker, attacker in blocks:
            problem = block_problem(state, blocker, attacker)
            if problem:
                raise IllegalChoice(f"block {_name(state, attacker)} with {_name(state, blocker)}", *problem)
        per_blocker: dict[int, int] = {}
        per_attacker: dict[int, int] = {}
        for blocker, attacker in blocks:
            if (blocker, attacker) in [pair for pair in blocks[: blocks.index((blocker, attacker))]]:
                raise IllegalChoice(f"block {_name(state, attacker)} with {_name(state, blocker)}",
                                    "declared twice", _cite("509.1a"))
            per_blocker[blocker] = per_blocker.get(blocker, 0) + 1
            per_attacker[attacker] = per_attacker.get(attacker, 0) + 1
        for blocker, n in per_blocker.items():
            if n > can_block_additional(state, blocker):
                raise IllegalChoice(f"block with {_name(state, blocker)}", f"{_name(state, blocker)} can block only one "
                                    "creature", _cite("509.1a"))
        for attacker, n in per_attacker.items():
            if n < 2 and "Menace" in _keywords(state, attacker):
                raise IllegalChoice(f"block {_name(state, attacker)}", f"{_name(state, attacker)} has menace: it can't "
                                    "be blocked except by two or more creatures", Citation("Menace", "702.111b"))
        for blocker, attacker in blocks:
            state.emit(EventKind.BLOCK, state.cards[blocker].controller, (blocker,),
                       detail=f"blocks {_name(state, attacker)}", citation=_cite("509.1g"))
        blocked = frozenset(state.ref(a) for a in per_attacker)
        for attacker, _ in attackers(state):
            if attacker not in per_attacker:
                state.emit(EventKind.NOTHING, state.active, (attacker,), detail="unblocked", citation=_cite("509.1h"))
        state.set(state, "combat", Combat(combat.attackers, tuple((state.ref(b), state.ref(a)) for b, a in blocks),
                                          True, blocked, combat.first_strikers, combat.damage_steps))
    resolve_stack(state, choose)


# ---------------------------------------------------------------- combat damage (510)


def _strikes_first(state: GameState, card: int) -> bool:
    return bool({"First Strike", "Double Strike"} & _keywords(state, card))


def _tramples_over_planeswalkers(state: GameState, card: int) -> bool:
    return any(t == "Trample" and "over planeswalkers" in a for t, a in _printed_keywords(state, card))


def _lethal(state: GameState, creature: int, source: int, assigned: Mapping[int, int], mine: int = 0) -> int:
    """The damage still needed for lethal damage to ``creature``: its toughness less damage marked and damage
    already assigned this step (Trample — CR 702.19b); any damage from a deathtouch source is lethal (702.2c)."""
    ch = characteristics(state, creature)
    if "Planeswalker" in ch.types and "Creature" not in ch.types:
        return max(0, state.cards[creature].counters.get("loyalty", 0) - assigned.get(creature, 0) - mine)
    remaining = (ch.toughness or 0) - state.cards[creature].damage - assigned.get(creature, 0) - mine
    if remaining <= 0:
        return 0
    if "Deathtouch" in _keywords(state, source):
        return 0 if mine else 1
    return remaining


def _default_split(state: GameState, source: int, power: int, creatures: list[int], assigned: Mapping[int, int],
                   rest: DamageTarget | None) -> dict[DamageTarget, int]:
    """Lethal damage to each creature in order, the rest to ``rest`` (trample) or to the last creature."""
    split: dict[DamageTarget, int] = {}
    left = power
    for creature in creatures:
        need = min(left, _lethal(state, creature, source, assigned))
        if need:
            split[creature] = need
            left -= need
    if left:
        target: DamageTarget = rest if rest is not None else creatures[-1]
        split[target] = split.get(target, 0) + left
    return split


def _attacked_target(attacked: Attacked) -> DamageTarget:
    return attacked if isinstance(attacked, str) else attacked.card


def _check_attacker_assignment(state: GameState, attacker: int, power: int, blockers: list[int],
                               attacked: Attacked | None, split: Assignment, assigned: Mapping[int, int]) -> None:
    name = _name(state, attacker)
    label = f"assign {name}'s combat damage"

    def refuse(reason: str, citation: Citation) -> IllegalChoice:
        return IllegalChoice(label, reason, citation)

    if any(v < 0 for v in split.values()) or sum(split.values()) != power:
        raise refuse(f"{name} assigns combat damage equal to its power ({power}), not {sum(split.values())}",
                     _cite("510.1a"))
    trample = "Trample" in _keywords(state, attacker)
    over = _tramples_over_planeswalkers(state, attacker)
    beyond = [t for t in split if t not in blockers and split[t]]
    if not trample and beyond and blockers:
        raise refuse(f"{name} is blocked and has no trample: it assigns its damage only to the creatures blocking it",
                     _cite("510.1c"))
    allowed: set[DamageTarget] = set()
    if attacked is not None:
        allowed.add(_attacked_target(attacked))
        if over and not isinstance(attacked, str):
            allowed.add(defending_player(state, attacked))
    for t in beyond:
        if t not in allowed:
            what = t if isinstance(t, str) else _name(state, t)
            if not isinstance(attacked, str) and isinstance(t, str) and not over:
                raise refuse(f"{name} attacks a planeswalker and has no trample over planeswalkers: none of its damage "
                             f"can be assigned to {t}", Citation("Trample", "702.19f"))
            raise refuse(f"{what} isn't blocking {name} or what it attacks", _cite("510.1c"))
    if not beyond:
        return
    short = [b for b in blockers if _lethal(state, b, attacker, assigned, split.get(b, 0))]
    if short:
        raise refuse(f"{', '.join(_name(state, b) for b in short)} must be assigned lethal damage before any is "
                     "assigned to the player or planeswalker", Citation("Trample", "702.19b"))
    if attacked is not None and not isinstance(attacked, str) and split.get(defending_player(state, attacked)):
        if _lethal(state, attacked.card, attacker, assigned, split.get(attacked.card, 0)):
            raise refuse(f"{_name(state, attacked.card)} must be assigned damage equal to its loyalty before any goes "
                         "to its controller", Citation("Trample", "702.19c"))


def _assign_attacker(state: GameState, attacker: int, attacked: Attacked, assigned: dict[int, int],
                     explicit: Assignment | None) -> dict[DamageTarget, int]:
    power = characteristics(state, attacker).power or 0
    if power <= 0:
        return {}                                                      # 510.1a
    attacked_now = attacked if _attacked_still(state, attacked) else None
    if attacked_now is None and not isinstance(attacked, str) and _tramples_over_planeswalkers(state, attacker):
        attacked_now = defending_player(state, attacked)            # Trample — CR 702.19e
    if not is_blocked(state, attacker):
        if attacked_now is None:
            return {}                                                  # 510.1b
        if explicit is not None:
            _check_attacker_assignment(state, attacker, power, [], attacked_now, explicit, assigned)
            return dict(explicit)
        if _tramples_over_planeswalkers(state, attacker) and not isinstance(attacked_now, str):
            return _default_split(state, attacker, power, [attacked_now.card], assigned,
                                  defending_player(state, attacked_now))
        return {_attacked_target(attacked_now): power}
    blockers = blockers_of(state, attacker)
    trample = "Trample" in _keywords(state, attacker)
    if not blockers:
        if not trample or attacked_now is None:
            return {}                                                  # 510.1c, 702.19d
        return {_attacked_target(attacked_now): power}
    if explicit is not None:
        _check_attacker_assignment(state, attacker, power, blockers, attacked_now, explicit, assigned)
        return dict(explicit)
    rest: DamageTarget | None = None
    if trample and attacked_now is not None:
        if _tramples_over_planeswalkers(state, attacker) and not isinstance(attacked_now, str):
            split = _default_split(state, attacker, power, blockers + [attacked_now.card], assigned,
                                   defending_player(state, attacked_now))
            return split
        rest = _attacked_target(attacked_now)
    return _default_split(state, attacker, power, blockers, assigned, rest)


def _assign_blocker(state: GameState, blocker: int, assigned: dict[int, int],
                    explicit: Assignment | None) -> dict[DamageTarget, int]:
    power = characteristics(state, blocker).power or 0
    blocking = blocked_by(state, blocker)
    if power <= 0 or not blocking:
        return {}                                                      # 510.1a, 510.1d
    if explicit is not None:
        if sum(explicit.values()) != power or any(t not in blocking for t in explicit if explicit[t]):
            raise IllegalChoice(f"assign {_name(state, blocker)}'s combat damage", f"a blocking creature assigns its "
                                f"damage ({power}) among the creatures it blocks", _cite("510.1d"))
        return dict(explicit)
    return _default_split(state, blocker, power, blocking, assigned, None)


def _deal(state: GameState, participants: set[int], assign: Mapping[int, Assignment]) -> None:
    """Assign (510.1) and deal (510.2) the combat damage of ``participants``."""
    assigned: dict[int, int] = {}
    plan: list[tuple[int, dict[DamageTarget, int]]] = []
    for attacker, attacked in attackers(state):
        if attacker in participants:
            split = _assign_attacker(state, attacker, attacked, assigned, assign.get(attacker))
            plan.append((attacker, split))
            for target, amount in split.items():
                if isinstance(target, int):
                    assigned[target] = assigned.get(target, 0) + amount
    combat = state.combat
    blockers = list(dict.fromkeys(b.card for b, _ in combat.blocks)) if combat else []
    for blocker in blockers:
        if blocker in participants and blocked_by(state, blocker):
            split = _assign_blocker(state, blocker, assigned, assign.get(blocker))
            plan.append((blocker, split))
    if not any(split for _, split in plan):
        state.emit(EventKind.NOTHING, state.active, detail="no creature assigns combat damage", citation=_cite("510.1a"))
        return
    with state.action("combat damage"):
        dealt: list[tuple[int, int]] = []
        to_players: dict[str, int] = {}
        for source, split in plan:
            total = 0
            for target, amount in split.items():
                if amount <= 0:
                    continue
                if isinstance(target, int) and protected_from(state, target, source):
                    state.emit(EventKind.NOTHING, state.cards[target].controller, (target,),
                               detail=f"protection: {amount} damage from {_name(state, source)} is prevented",
                               citation=Citation("Protection", "702.16e"))
                    continue
                to = target if isinstance(target, str) else state.ref(target)
                done = damage(state, state.cards[source].controller or state.cards[source].owner,
                              _name(state, source), to, amount, source=source, combat=True)
                total += done
                if isinstance(target, str) and done > 0:
                    to_players[target] = to_players.get(target, 0) + done
            dealt.append((source, total))
        for source, total in dealt:
            lifelink(state, source, total)                             # one life gain event per source: Lifelink — CR 702.15e
        for player, amount in to_players.items():     # all of it dealt at once (510.2): one event per player
            state.emit(EventKind.DEALT_DAMAGE, state.active, destination=player, amount=amount,
                       detail=f"{player} is dealt {amount} combat damage", citation=_cite("510.2"))


def combat_damage(state: GameState, choose: Chooser = first_legal, assign: Mapping[int, Assignment] | None = None,
                  *, only_first_strike: bool = False) -> None:
    """The combat damage step(s): a first-strike step if any attacking or blocking creature has first strike or
    double strike, then the regular one (510.4); after each, state-based actions, triggers and priority (510.3).

    ``assign`` gives a creature's division of its damage ({creature or player: amount}); the others divide as
    :func:`_default_split` does. With ``only_first_strike`` the phase stops after the first-strike step (a later
    call deals the regular damage)."""
    combat = state.combat
    if combat is None or not attackers(state):
        return
    assign = assign or {}
    in_combat_now = [c for c, _ in attackers(state)] + [b.card for b, _ in combat.blocks
                                                         if in_combat(state, b) and b.card in state.cards]
    if combat.damage_steps == 0:
        strikers = frozenset(state.ref(c) for c in in_combat_now if _strikes_first(state, c))
        if strikers:
            _enter_step(state, "combat damage", "combat damage step (first strike)")
            state.emit(EventKind.NOTHING, state.active, detail="a creature in combat has first strike or double "
                       "strike: only those assign damage in this first combat damage step",
                       citation=Citation("First Strike", "702.7b"))
            _deal(state, {r.card for r in strikers}, assign)
            _update(state, first_strikers=strikers, damage_steps=1)
            resolve_stack(state, choose)
            if only_first_strike:
                return
        else:
            _enter_step(state, "combat damage")
            _update(state, first_strikers=frozenset(), damage_steps=1)
            _deal(state, set(in_combat_now), assign)
            _update(state, damage_steps=2)
            resolve_stack(state, choose)
            return
    combat = state.combat
    if combat is None or combat.damage_steps >= 2:
        return
    first = combat.first_strikers or frozenset()
    in_combat_now = [c for c, _ in attackers(state)] + [b.card for b, _ in combat.blocks if in_combat(state, b)]
    second = {c for c in in_combat_now if state.ref(c) not in first or "Double Strike" in _keywords(state, c)}
    _enter_step(state, "combat damage", "combat damage step (second)")
    if any("Double Strike" in _keywords(state, c) for c in second):
        state.emit(EventKind.NOTHING, state.active, detail="creatures with double strike assign combat damage again",
                   citation=Citation("Double Strike", "702.4b"))
    _deal(state, second, assign)
    _update(state, damage_steps=2)
    resolve_stack(state, choose)


def enter_attacking(state: GameState, player: str, card: int, choose: Chooser = first_legal) -> None:
    """``card`` was put onto the battlefield attacking under ``player``'s control: its controller chooses a defending
    player or a planeswalker one controls for it to attack (Declare Attackers Step — CR 508.4); it is attacking but
    never "attacked", so no attack trigger. Out of combat or under a player who isn't attacking, it just enters
    (Combat Phase — CR 506.3b)."""
    from ..choices import Decision, Option, decide
    combat = state.combat
    name = state.cards[card].display_name
    if combat is None or player != state.active or "Creature" not in characteristics(state, card).types:
        state.emit(EventKind.NOTHING, player, (card,), detail=f"{name} enters, but it is never an attacking creature",
                   citation=_cite("506.3b"))
        return
    choices: list[ObjectRef | str] = []
    for opponent in state.opponents(player):
        if opponent.lost:
            continue
        choices.append(opponent.name)
        choices += [state.ref(c.id) for c in state.permanents() if c.controller == opponent.name
                    and "Planeswalker" in characteristics(state, c.id).types]
    if not choices:
        return
    attacked = choices[0] if len(choices) == 1 else decide(state, Decision.of(
        player, f"which does {name} attack", _cite("508.4"),
        [Option(f"attack {c if isinstance(c, str) else state.cards[c.card].display_name}", c) for c in choices]),
        choose).value
    what = attacked if isinstance(attacked, str) else state.cards[attacked.card].display_name
    state.set(state, "combat", Combat(combat.attackers + ((state.ref(card), attacked),), combat.blocks,
                                      combat.blockers_declared, combat.blocked, combat.first_strikers,
                                      combat.damage_steps))
    state.emit(EventKind.NOTHING, player, (card,), detail=f"{name} enters attacking {what}; it never attacked",
               citation=_cite("508.4"))


def _update(state: GameState, *, first_strikers: frozenset[ObjectRef] | None = None,
            damage_steps: int | None = None) -> None:
    combat = state.combat
    assert combat is not None
    state.set(state, "combat", Combat(combat.attackers, combat.blocks, combat.blockers_declared, combat.blocked,
                                      combat.first_strikers if first_strikers is None else first_strikers,
                                      combat.damage_steps if damage_steps is None else damage_steps))


def turn_based_actions(state: GameState, step: str, choose: Chooser = first_legal) -> bool:
    """What a combat step does when the turn passes through it (:func:`~executable_rules.engine.turn.pass_to`);
    True when it did the whole step. With no attackers the declare blockers and combat damage steps are skipped
    (Declare Attackers Step — CR 508.8); with attackers and no blockers declared yet, none are; combat damage is
    dealt; as the end of combat step ends every creature is removed from combat (End of Combat Step — CR 511.3)."""
    combat = state.combat
    if step in ("declare blockers", "combat damage") and (combat is None or not attackers(state)):
        state.set(state, "step", step)
        return True
    if step == "declare blockers" and combat is not None and not combat.blockers_declared:
        declare_blockers(state, [], choose)
        return True
    if step == "combat damage" and combat is not None and combat.damage_steps < 2:
        combat_damage(state, choose)
        return True
    if step == "end of combat" and combat is not None and combat.damage_steps == 1:
        combat_damage(state, choose)                  # the second combat damage step, after a first-strike one
        return False
    if step == "postcombat main" and combat is not None:
        state.set(state, "combat", None)
        state.emit(EventKind.NOTHING, state.active, detail="the combat phase is over: every creature is removed from "
                   "combat", citation=Citation("End of Combat Step", "511.3"))
    return False
