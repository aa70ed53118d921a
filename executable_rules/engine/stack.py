"""Casting spells, activating abilities, and resolving the top of the stack.

Casting (Casting Spells — CR 601.2): the card moves to the stack (601.2a); the player announces its face and
X (601.2b); chooses targets — the ``target …`` phrases of its text, or what its Enchant keyword says
(601.2c); the total cost is its mana cost with X, or nothing when cast without paying (601.2f); mana
abilities may be activated (601.2g) and the cost is paid (601.2h). A noninstant spell may be cast only in its
controller's main phase with the stack empty (Timing and Priority — CR 117.1a); a land is played, not cast
(Lands — CR 305.9).

Resolving (Resolving Spells and Abilities — CR 608): targets are checked again, and a spell or ability all of
whose targets are illegal doesn't resolve (608.2b); an illegal target isn't affected. The instructions are
followed in order (608.2c). A permanent spell enters the battlefield (608.3); an instant or sorcery goes to
its owner's graveyard last (608.2n).

Activating (Activating Activated Abilities — CR 602.2): costs are paid — mana, {T}, sacrificing, paying life —
and the ability goes on the stack; a mana ability resolves at once (Mana Abilities — CR 605.3a).
"""

from __future__ import annotations

import functools

from lark import Token, Tree

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice, Unimplemented
from ..model import AdditionalCost, Event, EventKind, Face, FaceKind, GameState, ManaCost, ObjectRef, Spell, TriggeredAbility, ZoneKind
from ..oracle import Ability, parse_card
from .keyword_abilities import abilities_of
from .effects import Context, choose_targets, legal_targets, run_body, still_legal, target_specs
from .layers import characteristics, text
from .mana import Spending, pay_mana
from .replacement import condition_holds, enter_battlefield, put_into_graveyard
from .triggers import ability_of


def spell_body(face: Face) -> list[Tree[Token]]:
    """The bodies of a spell's spell abilities (its lines that are instructions)."""
    from ..oracle import parse_card
    parsed = parse_card(face.name, face.text)
    bodies = []
    for a in parsed.abilities:
        if a.kind == "spell" and a.tree is not None:
            body = a.tree.children[0]
            if isinstance(body, Tree):
                bodies.append(body)
    return bodies


def choose_mode(state: GameState, player: str, face: Face, choose: Chooser) -> tuple[Face, ManaCost | None]:
    """A modal spell ("Choose one — • … • …"): its controller announces the mode as it is cast
    (Casting Spells — CR 601.2b); the spell is then the chosen mode's instruction, its targets that mode's.
    Only "choose one" is read; other modal spells need what the engine can't do yet. With its entwine cost paid,
    every mode is kept, in the order written (Entwine — CR 702.42b); the cost is returned, to add to the total."""
    from dataclasses import replace
    lines = face.text.split("\n")
    parsed = parse_card(face.name, face.text).abilities
    head = next((a for a in parsed if a.kind == "modal" and a.trigger is None), None)
    if head is None:
        return face, None
    if "choose one" not in head.text:
        raise Unimplemented(f"{face.name}: {head.text!r} (only \"choose one\" modal spells are read)")
    from .triggers import modes_of
    modes = modes_of(parsed, head)
    if not modes or any(not m.parsed for m in modes):
        raise Unimplemented(f"{face.name}: a mode of {head.text!r} isn't read")
    from ..actions.entwine import entwine
    entwined = entwine(state, player, face, choose)
    if entwined is not None:
        chosen = [m.line for m in modes]
    else:
        answer = decide(state, Decision.of(player, f"{face.name}: choose one", Citation("Casting Spells", "601.2b"),
                                           [Option(f"mode {i}: {m.text.lstrip('• ')}", m.line)
                                            for i, m in enumerate(modes, 1)]), choose)
        chosen = [int(answer.value)]
    first, last = head.line, modes[-1].line                  # Oracle lines are numbered from 1, blank ones skipped
    numbered = [i for i, line in enumerate(lines) if line.strip()]
    keep = [lines[numbered[k]] for k in range(len(numbered)) if not first <= k + 1 <= last]
    mode_lines = [lines[numbered[n - 1]].strip().lstrip("•").strip() for n in chosen]
    return replace(face, text="\n".join(keep[: first - 1] + mode_lines + keep[first - 1:])), entwined


def alternative_cost(state: GameState, player: str, face: Face) -> tuple[ManaCost, str] | None:
    """The cost of the face's "If …, you may pay {0} rather than pay this spell's mana cost" and its condition."""
    from ..oracle import parse_card
    for a in parse_card(face.name, face.text).abilities:
        if a.static == "alternative_cost" and a.tree is not None:
            cost = next(a.tree.find_data("mana_cost"))
            condition = a.text.removeprefix("if ").split(",", 1)[0]
            return ManaCost.parse("".join(str(t) for t in cost.children)), condition
    return None


def kicker_cost(face: Face) -> ManaCost | None:
    """The cost of the face's "Kicker [cost]" (Kicker — CR 702.33a), if it has one in mana."""
    from ..oracle import parse_card
    argument = parse_card(face.name, face.text).keyword_argument("Kicker")
    try:
        return ManaCost.parse(argument) if argument and argument.startswith("{") else None
    except ValueError:
        return None


def cost_modifiers(state: GameState, player: str, face: Face, cost: ManaCost) -> ManaCost:
    """The total cost with the cost increases and reductions of permanents applied ("Creature spells you cast
    cost {2} less to cast.", Casting Spells — CR 601.2f): the increases are added and the reductions taken off
    the total, which can't go below {0} (a {1} reduction and a {1} increase leave Lightning Bolt at {R}); a
    reduction lowers only the generic part."""
    from .layers import TYPE_WORDS
    generic = sum(int(s) for s in cost.symbols if s.isdigit())
    less = 0
    for permanent in state.permanents():
        if permanent.face_down:
            continue
        for a in permanent.oracle.parsed.abilities:
            if a.static != "cost_reduction" or a.tree is None:
                continue
            who = a.text.split(" cost ")[0].split()
            if "you" in who and permanent.controller != player or "opponents" in who and permanent.controller == player:
                continue
            wanted = {TYPE_WORDS[w.removesuffix("s")] for w in who if w.removesuffix("s") in TYPE_WORDS}
            unwanted = {TYPE_WORDS[w[3:]] for w in who if w.startswith("non") and w[3:] in TYPE_WORDS}
            either = "and" in who or "or" in who                        # "instant and sorcery spells"
            if wanted and not (wanted & face.types if either else wanted <= face.types):
                continue
            if unwanted & face.types:
                continue
            amount = sum(int(str(t).strip("{}")) for t in next(a.tree.find_data("mana_cost")).children
                         if str(t).strip("{}").isdigit())
            if " less " in a.text:
                less += amount
            else:
                generic += amount
            state.emit(EventKind.NOTHING, player, names=(face.name,), detail=f"{permanent.oracle.name}: {a.text}",
                       citation=Citation("Casting Spells", "601.2f"))
    less += _own_reduction(state, player, face)
    generic = max(0, generic - less)
    rest = tuple(s for s in cost.symbols if not s.isdigit())
    return ManaCost(((str(generic),) if generic or not rest else ()) + rest)


def _own_reduction(state: GameState, player: str, face: Face) -> int:
    """"~ costs {1} less to cast for each creature card in your graveyard": the spell's own reduction, counted as
    its total cost is determined (Casting Spells — CR 601.2f); a description the engine can't count stops the cast."""
    from ..oracle import parse_card, parse_line
    from .selectors import candidates, find
    total = 0
    for a in parse_card(face.name, face.text).abilities:
        if a.static != "self_cost_reduction" or a.tree is None:
            continue
        words = next(str(t) for t in a.tree.scan_values(lambda v: isinstance(v, Token) and v.type == "FOR_EACH")).strip()
        amount = sum(int(str(t).strip("{}")) for t in next(a.tree.find_data("mana_cost")).children
                     if str(t).strip("{}").isdigit())
        # The description is read by the grammar as the object of "destroy each …"; a subtype alone ("for each Gate
        # you control") names permanents of that subtype (Subtypes — CR 205.3).
        tree = parse_line(f"Destroy each {words}.", "?").tree
        desc = find(tree, "each_desc") if tree is not None else None
        if desc is None and len(words.split()) == 3 and words.endswith(" you control") and words[:1].isupper():
            tree = parse_line(f"Destroy each {words.replace(' you control', ' permanent you control')}.", "?").tree
            desc = find(tree, "each_desc") if tree is not None else None
        symbols = [str(t).strip("{}") for t in next(a.tree.find_data("mana_cost")).children]
        if desc is None or "this turn" in words or not all(s.isdigit() for s in symbols):
            # Khalni Hydra's "{G} less" takes off coloured mana, which cost_modifiers doesn't
            raise Unimplemented(f"{face.name}: {a.text!r}")
        n = len(candidates(state, player, desc, None))
        total += amount * n
        state.emit(EventKind.NOTHING, player, names=(face.name,), detail=f"{a.text}: {n} × {{{amount}}} less",
                   citation=Citation("Casting Spells", "601.2f"))
    return total


@functools.cache
def _cost_payers() -> tuple:  # type: ignore[type-arg]
    """``pay_part_of_cost`` of the keyword modules that pay part of a total cost otherwise than with mana
    (Convoke — CR 702.51a); looked up once."""
    from ..actions import ACTIONS
    return tuple(m.pay_part_of_cost for m in ACTIONS if hasattr(m, "pay_part_of_cost"))


def cast_permitted(state: GameState, player: str, card: int, face: Face) -> None:
    """Casting Spells — CR 601.3: a spell may be cast only if a rule or effect allows it and none prohibits it,
    judged by the characteristics it will have (601.3e): "Creature spells can't be cast." prohibits; a card in a
    library may be cast only from the top with "You may cast [creature] spells from the top of your library."."""
    from .layers import TYPE_WORDS

    def fits(words: list[str]) -> bool:
        wanted = {TYPE_WORDS[w] for w in words if w in TYPE_WORDS}
        return wanted <= face.types
    for permanent in state.permanents():
        if permanent.face_down:
            continue
        for a in permanent.oracle.parsed.abilities:
            if a.static == "cant_be_cast" and fits(a.text.split(" spells ")[0].split()):
                raise IllegalChoice(f"cast {face.name}", f"{permanent.oracle.name}: {a.text}",
                                    Citation("Casting Spells", "601.3"))
    library = state.player(state.cards[card].owner).library
    if state.zone_of(card) is library:
        allowed = library.cards[:1] == [card] and any(
            a.static == "may_look_top" and "cast" in a.text and fits(a.text.split(" spells ")[0].split()[3:])
            for p in state.permanents(player) if not p.face_down for a in p.oracle.parsed.abilities)
        if not allowed:
            raise IllegalChoice(f"cast {face.name}", f"no rule or effect allows {player} to cast {face.name} "
                                f"from {library.label}", Citation("Casting Spells", "601.3"))


_CANT_CAST_TYPES = {"creature": "Creature", "instant": "Instant", "sorcery": "Sorcery", "artifact": "Artifact",
                    "enchantment": "Enchantment", "planeswalker": "Planeswalker"}


def _spell_prohibited(ability_tree: Tree[Token], face: Face, colors: frozenset[str], mana_value: int) -> bool:
    """Whether a ``cant_cast`` line's spell description ("noncreature spells", "spells with even mana values",
    "instant and sorcery spells") takes in this spell."""
    from .layers import COLOR_LETTERS
    spells = next(ability_tree.find_data("cant_cast_spells"))
    words = [str(t) for t in spells.children if isinstance(t, Token) and t.type == "CANT_CAST_TYPE"]
    with_text = next((str(t) for t in spells.children if isinstance(t, Token) and t.type == "CANT_CAST_WITH"), "")
    kinds = [w for w in words if w not in ("and", "or")]
    # "instant and sorcery spells" is each of them, as "instant or sorcery spells" (a spell has one such type)
    fits = all(
        ("Creature" not in face.types) if k == "noncreature" else ("Artifact" not in face.types) if k == "nonartifact"
        else (len(colors) > 1) if k == "multicolored" else (not colors) if k == "colorless"
        else COLOR_LETTERS[k] in colors if k in COLOR_LETTERS else True
        for k in kinds if k not in _CANT_CAST_TYPES)
    typed = [_CANT_CAST_TYPES[k] for k in kinds if k in _CANT_CAST_TYPES]
    if typed and not any(t in face.types for t in typed):
        fits = False
    if with_text == "with even mana values":
        fits = fits and mana_value % 2 == 0
    elif with_text == "with odd mana values":
        fits = fits and mana_value % 2 == 1
    elif with_text:
        limit = int(with_text.split()[3])
        fits = fits and (mana_value >= limit if with_text.endswith("greater") else mana_value <= limit)
    return fits


def cast_prohibited(state: GameState, player: str, card: int, face: Face, x: int) -> None:
    """Casting Spells — CR 601.2e: the proposed spell, its X chosen, is checked against the statics that say who
    can't cast what ("Your opponents can't cast spells with even mana values": Blaze with X=3 has mana value 4,
    Mana Cost and Color — CR 202.3e); a prohibited spell is never cast (601.3)."""
    cost_colors = frozenset(c for s in (face.mana_cost.symbols if face.mana_cost else ()) for c in s.split("/")
                            if c in "WUBRG")
    oracle = state.cards[card].oracle
    colors = oracle.color_indicator if oracle.color_indicator is not None else cost_colors
    mana_value = face.mana_cost.mana_value_with_x(x) if face.mana_cost else 0
    for permanent in state.permanents():
        if permanent.face_down:
            continue
        controller = permanent.controller or permanent.owner
        for a in permanent.oracle.parsed.abilities:
            if a.static != "cant_cast" or a.tree is None:
                continue
            who = next(a.tree.find_data("cant_cast")).children
            if any(isinstance(c, Token) and c.type == "DURING_YOUR_TURN" for c in who) and state.active != controller:
                continue
            players = next(c for c in who if isinstance(c, Tree) and c.data in ("opponents", "everyone", "you")).data
            if (players == "opponents" and player == controller) or (players == "you" and player != controller):
                continue
            if _spell_prohibited(a.tree, face, colors, mana_value):
                raise IllegalChoice(f"cast {face.name}", f"{permanent.oracle.name}: {a.text}",
                                    Citation("Casting Spells", "601.2e"))


def cast_spell(state: GameState, player: str, card: int, *, face: str | None = None, x: int = 0,
               without_paying: bool = False, alternative: bool = False, bestowed: bool = False,
               pay_instead: tuple[ManaCost, str] | None = None, instead: ManaCost | None = None,
               instead_name: str = "", cascade: bool = False, choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card``, paying its costs; return the spell on the stack.

    ``alternative`` pays the face's alternative cost instead of its mana cost (Casting Spells — CR 601.2b,
    601.2f), when its condition holds; the spell's mana cost and mana value don't change
    (Mana Cost and Color — CR 202.3). ``pay_instead`` is (cost, why) for a cost an effect lets the player pay
    rather than the mana cost, such as airbend's {2} (Airbend — CR 701.65a)."""
    from ..actions.cast import spell_faces
    c = state.cards[card]
    faces = spell_faces(c.oracle)
    chosen = next((f for f in faces if face is None or f.name.casefold() == face.casefold()), None)
    if chosen is None:
        raise ValueError(f"{c.oracle.name} has no face {face!r}")
    if chosen.is_land:
        raise IllegalChoice(f"cast {chosen.name}", f"{chosen.name} is a land: it is played, not cast",
                            Citation("Lands", "305.9"))
    bestow_cost = None
    if bestowed:                                      # Bestow — CR 702.103a–b: an Aura spell, for its bestow cost
        from ..actions.bestow import bestowed_face
        chosen, bestow_cost = bestowed_face(chosen)
    cast_permitted(state, player, card, chosen)       # 601.3, with the bestowed characteristics (601.3e, 702.103d)
    from ..actions.aftermath import cast_from_zone_allowed, remember_cast
    # From a graveyard only with a permission: an alternative cost (flashback, escape), an effect, or aftermath.
    cast_from_zone_allowed(state, card, chosen, permitted=instead is not None or without_paying or cascade
                           or pay_instead is not None)
    from_graveyard = state.zone_of(card).kind is ZoneKind.GRAVEYARD
    from ..actions.flash import as_though_flash, flash
    instant = "Instant" in chosen.types or flash(c.oracle)                           # Flash — CR 702.8a
    if not instant and not cascade and (state.stack.cards or state.active != player or "main" not in state.step):
        instant = as_though_flash(state, player, card) is not None                   # Timing and Priority — CR 117.1a
    if not instant and not cascade and (state.stack.cards or state.active != player or "main" not in state.step):
        raise IllegalChoice(f"cast {chosen.name}", "a noninstant spell is cast only in its controller's main phase "
                            "with an empty stack", Citation("Timing and Priority", "117.1a"))
    if x and not (chosen.mana_cost and chosen.mana_cost.has_x):
        raise ValueError(f"{chosen.name} has no X in its mana cost")
    cast_prohibited(state, player, card, chosen, x)   # 601.2e: with X chosen ("… can't cast spells with even mana values")
    bodies = spell_body(chosen)
    specs = [s for body in bodies for s in target_specs(body)]
    if bestowed:
        from ..actions.bestow import aura_target
        specs = [aura_target()]                       # its enchant creature ability says what it targets (702.103b)
    elif "Aura" in chosen.subtypes:
        from ..actions.enchant import enchant_specs
        specs = enchant_specs(chosen)                 # an Aura spell targets what it can enchant (Enchant — CR 702.5a)
    face_text = chosen.text
    with state.action(f"cast {chosen.name}"):
        source = state.zone_of(card).label
        state.move(card, state.stack)                                                 # 601.2a
        remember_cast(state, card, chosen, from_graveyard)                            # Aftermath — CR 702.127a
        chosen, entwined = choose_mode(state, player, chosen, choose)                   # 601.2b: modes
        from ..actions.splice import splice_onto
        chosen, splice_costs, _ = splice_onto(state, player, card, chosen, choose=choose)   # 601.2b (Splice — CR 702.47a)
        if splice_costs or chosen.text != face_text:
            bodies = spell_body(chosen)
            specs = [s for body in bodies for s in target_specs(body)]
        targets: list[ObjectRef | str | None] = []
        if specs:                                                                     # 601.2c
            picked = choose_targets(state, player, specs, card, chosen.name, choose, Citation("Casting Spells", "601.2c"))
            if picked is None:
                raise IllegalChoice(f"cast {chosen.name}", f"no legal target for {chosen.name}",
                                    Citation("Casting Spells", "601.2c"))
            targets = picked
        paid: tuple[str, ...] = ()
        spent: list[str] = []
        from ..actions.kicker import kicker as announce_kicker, total
        kicks = announce_kicker(state, player, chosen, choose)                       # 601.2b: Kicker — CR 702.33a–c
        kicked = bool(kicks)
        kicker = total(kicks)
        from ..actions.buyback import buyback as announce_buyback
        buyback = announce_buyback(state, player, card, chosen, choose)              # 601.2b: Buyback — CR 702.27a
        from ..actions.collect_evidence import EVIDENCE, evidence_cost, may_collect_evidence
        evidence = evidence_cost(chosen)
        collected = evidence is not None and may_collect_evidence(state, player, evidence, choose=choose) is not None
        cost = bestow_cost if bestowed else chosen.mana_cost                           # 601.2f: bestow's alternative cost
        if alternative:
            found = alternative_cost(state, player, chosen)
            if found is None:
                raise IllegalChoice(f"cast {chosen.name} for an alternative cost", f"{chosen.name} has none",
                                    Citation("Casting Spells", "601.2b"))
            cost, condition = found
            if not condition_holds(state, player, condition):
                raise IllegalChoice(f"cast {chosen.name} for {cost}", f"its condition is false: {condition}",
                                    Citation("Casting Spells", "601.2b"))
        if pay_instead is not None:
            cost = pay_instead[0]
        if instead is not None:                   # an alternative cost from a keyword (Flashback — CR 702.34a): 601.2b
            cost = instead
        if (chosen.mana_cost is None and not bestowed and not alternative and pay_instead is None and instead is None
                and not without_paying and not cascade):        # Costs — CR 118.6: no mana cost is an unpayable cost
            raise IllegalChoice(f"cast {chosen.name}", f"{chosen.name} has no mana cost, an unpayable cost: it needs an "
                                "alternative cost or an effect that lets it be cast without paying its mana cost",
                                Citation("Costs", "118.6"))
        if kicked and kicker is not None:
            cost = kicker if cost is None or without_paying else cost + kicker        # 601.2f: the total cost
        if buyback is not None:                                   # an additional cost (Buyback — CR 702.27a)
            cost = buyback if cost is None or without_paying else cost + buyback
        from ..actions.reveal import reveal_or_pay
        reveal_cost = reveal_or_pay(state, player, card, chosen, choose)   # "reveal a Merfolk card … or pay {3}" (601.2b)
        if reveal_cost is not None:
            cost = reveal_cost if cost is None or without_paying else cost + reveal_cost
        if splice_costs and without_paying and not kicked and buyback is None:
            cost = None                         # without paying its mana cost, the additional costs are still paid
        for extra in splice_costs:                                                    # an additional cost (702.47a)
            cost = extra if cost is None else cost + extra
        if entwined is not None:                                  # an additional cost (Entwine — CR 702.42a)
            cost = entwined if cost is None else cost + entwined
        from ..actions.affinity import affinity
        if not without_paying and cost is not None:                                     # Affinity — CR 702.41a
            cost = affinity(state, player, c.oracle, cost)
        from ..actions.delve import delve, has_delve
        if (not without_paying or kicked) and cost is not None and has_delve(c.oracle):  # Delve — CR 702.66a–b
            cost = delve(state, player, cost, chosen.name, choose=choose)
        if (not without_paying or kicked or splice_costs or buyback is not None) and cost is not None:  # 601.2f–h
            cost = cost_modifiers(state, player, chosen, cost)
            pay_x = x
            for pay_part in _cost_payers():                       # convoke pays part: Casting Spells — CR 601.2g–h
                cost, pay_x = pay_part(state, player, card, chosen, cost, pay_x, choose)
            paid = tuple(pay_mana(state, player, cost, choose, chosen.name, pay_x, spent,
                                  spending=Spending("spell", card, from_graveyard)))
        for extra_cost in chosen.additional_costs:    # "As an additional cost …, sacrifice a creature": Casting Spells — CR 601.2h
            if not extra_cost.optional and extra_cost.kind in ("sacrifice", "discard"):
                paid += (_pay_additional_cost(state, player, card, chosen.name, extra_cost, choose),)
        if collected:                                                                 # Collect Evidence — CR 701.59c
            paid += (f"{EVIDENCE} {evidence}",)
        spell = Spell(card, player, chosen, x, without_paying, kicked, tuple(targets), paid, spent=tuple(spent),
                      kicks=kicks, alternative=instead_name if instead is not None else "")
        state.set_item(state.spells, card, spell)
        note = "without paying its mana cost" if without_paying else (f"paid by tapping {', '.join(paid)}" if paid
                                                                       else "no mana to pay")
        if alternative:
            note += f"; its alternative cost {cost} paid instead of its mana cost {chosen.mana_cost}"
        if pay_instead is not None:
            note += f"; {pay_instead[1]}"
        if instead is not None:
            note += f"; its {instead_name} cost {instead} paid rather than its mana cost {chosen.mana_cost}"
        state.emit(EventKind.CAST, player, (card,), names=(chosen.name,), source=source, destination="stack",
                   detail=note + (f"; X is {x}" if chosen.mana_cost and chosen.mana_cost.has_x else ""),
                   citation=Citation("Casting Spells", "601.2"))
        from ..actions.ward import targeted
        targeted(state, player, card, chosen.name, targets)                            # what ward triggers on
        return spell




def _pay_additional_cost(state: GameState, player: str, card: int, name: str, cost: AdditionalCost,
                         choose: Chooser) -> str:
    """Pay a spell's mandatory sacrifice or discard cost (Casting Spells — CR 601.2h); one that can't be paid makes the
    cast illegal, and the whole cast is undone (601.2h, Handling Illegal Actions)."""
    if cost.kind == "sacrifice":                                         # Sacrifice — CR 701.21a
        pool = [p.id for p in state.permanents(player) if cost.type in characteristics(state, p.id).types]
        options = [Option(f"sacrifice {state.cards[p].display_name}", p) for p in pool]
    else:                                                                # Discard — CR 701.9a
        pool = [h for h in state.player(player).hand.cards if h != card]
        options = [Option(f"discard {state.cards[h].display_name}", h) for h in pool]
    if not options:
        raise IllegalChoice(f"cast {name}", f"its additional cost can't be paid: {cost.description}",
                            Citation("Casting Spells", "601.2h"))
    answer = decide(state, Decision.of(player, f"{name}: {cost.description}", Citation("Casting Spells", "601.2h"),
                                       options), choose)
    if cost.kind == "sacrifice":
        from ..actions.sacrifice import sacrifice
        sacrifice(state, player, answer.value, detail="sacrificed as an additional cost")
    else:
        from ..actions.discard import discard
        discard(state, player, answer.value, detail="discarded as an additional cost")
    return answer.label


def resolve_top(state: GameState, choose: Chooser = first_legal) -> None:
    """Resolve the spell or ability on top of the stack (608)."""
    if not state.stack.cards:
        raise ValueError("the stack is empty: there is nothing to resolve")
    top = state.stack.cards[-1]
    if top in state.abilities:
        _resolve_ability(state, state.abilities[top], choose)
        return
    spell = state.spells[top]
    card = state.cards[top]
    name = spell.face.name
    with state.action(f"resolve {name}"):
        bodies = spell_body(spell.face)
        specs = [s for body in bodies for s in target_specs(body)]
        if "Aura" in spell.face.subtypes:
            from ..actions.enchant import enchant_specs
            specs = enchant_specs(spell.face)          # its target is checked again (608.2b, Enchant — CR 702.5a)
        targets = list(spell.targets)
        # 608.2b applies to a spell with targets: one whose "up to" targets were all left unchosen still resolves.
        if specs and any(t is not None for t in targets) and not any(
                t is not None and still_legal(state, spell.controller, s, t, top) for s, t in zip(specs, targets)):
            state.delete_item(state.spells, top)
            state.emit(EventKind.NOT_RESOLVED, spell.controller, (top,), names=(name,),
                       detail="every target is illegal: it doesn't resolve",
                       citation=Citation("Resolving Spells and Abilities", "608.2b"))
            put_into_graveyard(state, top, "it didn't resolve", Citation("Resolving Spells and Abilities", "608.2b"))
            return
        state.emit(EventKind.RESOLVE, spell.controller, (top,), names=(name,),
                   citation=Citation("Resolving Spells and Abilities", "608.2"))
        if "Aura" in spell.face.subtypes and "Aura" not in card.oracle.subtypes:
            raise Unimplemented(f"{name}: a bestowed Aura spell resolving (Bestow — CR 702.103e) isn't modelled")
        if "Aura" in spell.face.subtypes:              # it enters attached to its target (Enchantments — CR 303.4a)
            from ..actions.attach import enters_attached
            state.delete_item(state.spells, top)
            target = next(t for t in targets if t is not None)
            enter_battlefield(state, top, spell.controller, x=spell.x, choose=choose,
                              detail="an Aura spell resolves (608.3)", spent=spell.spent)
            enters_attached(state, top, target if isinstance(target, str) else target.card,
                            Citation("Enchantments", "303.4a"))
            return
        if spell.face.types & {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}:
            from ..actions.escape import escape_counters
            counters = escape_counters(state, top)                                    # Escape — CR 702.138c
            state.delete_item(state.spells, top)
            if spell.kicked:
                # The permanent remembers its spell was kicked for "if it was kicked" (Kicker — CR 702.33d).
                enter_battlefield(state, top, spell.controller, x=spell.x, choose=choose,
                                  detail="a kicked permanent spell resolves (608.3)", kicked=True, kicks=spell.kicks,
                                  counters=counters, spent=spell.spent, alternative=spell.alternative)
                return
            enter_battlefield(state, top, spell.controller, x=spell.x, choose=choose,
                              detail="a permanent spell resolves (608.3)", face_down=card.face_down,   # Morph — CR 702.37a
                              counters=counters, spent=spell.spent, alternative=spell.alternative)
            return
        unread = [a for a in parse_card(spell.face.name, spell.face.text).abilities if not a.parsed]
        if unread:
                    raise Unimplemented(f"{name}: line {unread[0].line} of its text isn't read by the grammar: {unread[0].text!r}")
        ctx = Context(top, spell.controller, name, specs, targets, x=spell.x)
        for body in bodies:
            run_body(state, ctx, body, choose)
        if state.zone_of(top) is state.stack:
            state.delete_item(state.spells, top)
            put_into_graveyard(state, top, "an instant or sorcery goes to the graveyard as it finishes resolving",
                               Citation("Resolving Spells and Abilities", "608.2n"))
        del card


def _ability_context(state: GameState, ability: TriggeredAbility, parsed: Ability) -> tuple[Context, Tree[Token]]:
    tree = parsed.tree
    assert tree is not None
    body = tree.children[-1]
    assert isinstance(body, Tree)
    specs = target_specs(body)
    it = None
    event = ability.event
    trigger = parsed.trigger
    if trigger in ("explores", "enters", "dies", "turned_face_up", "attacks", "blocks") and event.cards:
        it = event.cards[0]
    ctx = Context(ability.source.card, ability.controller, ability.label, specs, list(ability.targets), event,
                  x=ability.x, it=it, trigger=trigger, amount=event.amount)
    if ability.spell is not None:
        ctx.memory["spell"] = ability.spell
    if ability.delayed is not None:
        # "Return that card", "sacrifice them": the objects it was created about, if they are still those objects
        # (Handling Triggered Abilities — CR 603.7c; a card that changed zones since is a new object, Zones — CR 400.7).
        ctx.them = [r.card for r in ability.delayed.refers if state.is_current(r)]
        ctx.it = ctx.them[0] if ctx.them else None
    return ctx, body


def _resolve_ability(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    if ability.keyword:                           # a keyword ability's trigger: its module resolves it
        from ..actions import find_action
        with state.action(f"resolve {ability.label}"):
            state.replace_list(state.stack.cards, state.stack.cards[:-1])
            state.delete_item(state.abilities, ability.id)
            state.emit(EventKind.RESOLVE, ability.controller, names=(ability.label,), detail=ability.ability,
                       citation=Citation("Resolving Spells and Abilities", "608.2"))
            find_action(ability.keyword).resolve_keyword_trigger(state, ability, choose)
        return
    parsed = ability_of(state, ability)
    with state.action(f"resolve {ability.label}"):
        state.replace_list(state.stack.cards, state.stack.cards[:-1])
        state.delete_item(state.abilities, ability.id)
        ctx, body = _ability_context(state, ability, parsed)
        if ctx.specs and ctx.targets and not any(t is not None and still_legal(state, ability.controller, s, t, ctx.source)
                                                 for s, t in zip(ctx.specs, ctx.targets)):
            state.emit(EventKind.NOT_RESOLVED, ability.controller, names=(ability.label,),
                       detail="every target is illegal: it doesn't resolve",
                       citation=Citation("Resolving Spells and Abilities", "608.2b"))
            return
        state.emit(EventKind.RESOLVE, ability.controller, names=(ability.label,), detail=ability.ability,
                   citation=Citation("Resolving Spells and Abilities", "608.2"))
        run_body(state, ctx, body, choose)


# ---------------------------------------------------------------- activated abilities


def activated_abilities(state: GameState, card: int) -> list[Ability]:
    c = state.cards[card]
    if c.face_down:
        return []
    return [a for a in abilities_of(c.oracle) if a.kind == "activated" and a.tree is not None]


def activate(state: GameState, player: str, card: int, which: str = "", *, x: int = 0,
             choose: Chooser = first_legal) -> None:
    """``player`` activates the ability of ``card`` whose text starts with ``which`` (its cost, e.g. ``{T}``)."""
    c = state.cards[card]
    if state.controller_of(card) != player:
        # Only an object's controller (its owner, if it has none) can activate its abilities (Activate — CR 701.2a).
        raise IllegalChoice(f"activate {c.display_name}'s ability", f"only its controller, {state.controller_of(card)}, "
                            "can activate its activated abilities", Citation("Activate", "701.2a"))
    wanted = which.casefold()
    from .keyword_abilities import active_zones, keyword_title, printed_text
    found = [a for a in activated_abilities(state, card) if a.text.casefold().startswith(wanted)]
    found = found or [a for a in activated_abilities(state, card)      # "Cycling {2}": the keyword as printed
                      if printed_text(c.oracle, a).casefold().startswith(wanted) and keyword_title(c.oracle, a)]
    if not found:
        from .keyword_abilities import activations
        keyword_ability = next((run for title, run in activations().items()
                                if title.casefold() == wanted.strip() and c.oracle.parsed.has_keyword(title)), None)
        if keyword_ability is not None:          # "Embalm": a keyword ability its module activates itself
            keyword_ability(state, player, card, choose=choose)
            return
        raise ValueError(f"{c.oracle.name} has no activated ability {which!r}; it has "
                         f"{[a.text for a in activated_abilities(state, card)]}")
    ability = found[0]
    from ..actions.detain import is_detained
    if is_detained(state, card):
        raise IllegalChoice(f"activate {c.oracle.name}'s ability", "it is detained: its activated abilities can't be "
                            "activated", Citation("Detain", "701.35a"))
    keyword = keyword_title(c.oracle, ability)
    if ability.tree is not None and next(ability.tree.find_data("sorcery_speed"), None) is not None and (
            state.stack.cards or state.active != player or "main" not in state.step):
        raise IllegalChoice(f"activate {c.oracle.name}'s ability", "activate only as a sorcery: in its controller's "
                            "main phase with an empty stack", Citation("Activating Activated Abilities", "602.5d"))
    zone = active_zones().get(keyword or "")
    if zone is not None and state.zone_of(card).kind is not zone:         # cycling works only in hand (Cycling — CR 702.29a)
        raise IllegalChoice(f"activate {keyword}", f"{c.oracle.name} is in {state.zone_of(card).label}: {keyword} works "
                            f"only while the card is in a player's {zone.value}", Citation(keyword or "", "702.29a"))
    tree = ability.tree
    assert tree is not None
    costs, body = tree.children[0], tree.children[-1]
    assert isinstance(costs, Tree) and isinstance(body, Tree)
    name = f"{c.oracle.name}'s ability"
    from .static import activation_forbidden
    mana_ability = ("add_mana" in ability.effects or "double_mana" in ability.effects) and not target_specs(body)
    forbidding = activation_forbidden(state, card, mana_ability)
    if forbidding is not None:
        raise IllegalChoice(f"activate {name}", f"{forbidding} names {c.oracle.name}: activated abilities of sources "
                            "with the chosen name can't be activated" + ("" if mana_ability else
                                                                         " (this one isn't a mana ability)"),
                            Citation("Activating Activated Abilities", "602.5"))
    _check_restrictions(state, player, card, ability, costs, body, name)
    with state.action(f"activate {name}"):
        specs = target_specs(body)
        targets: list[ObjectRef | str | None] = []
        if specs:
            picked = choose_targets(state, player, specs, card, name, choose,
                                    Citation("Activating Activated Abilities", "602.2b"))
            if picked is None:
                raise IllegalChoice(f"activate {name}", "no legal target",
                                    Citation("Activating Activated Abilities", "602.2b"))
            targets = picked
        _pay_costs(state, player, card, costs, choose, name, x)
        _mark_activated(state, card, ability, costs, body)
        if keyword == "Cycling":             # "when you cycle this card" triggers on this discard (Cycling — CR 702.29c)
            state.emit(EventKind.CYCLE, player, (card,), detail="discarded to pay a cycling cost",
                       citation=Citation("Cycling", "702.29c"))
        event = Event(EventKind.NOTHING, player, (card,))
        on_stack = TriggeredAbility(state.ref(card), c.oracle.name, player, ability.text, event, line=ability.line,
                                    activated=True, x=x, targets=tuple(t for t in targets if t is not None))
        if ("add_mana" in ability.effects or "double_mana" in ability.effects) and not specs:   # a mana ability: no stack (605.3a)
            ctx = Context(card, player, name, [], [], event, x=x)
            run_body(state, ctx, body, choose)
            return
        ability_id = state.next_id
        state.set(state, "next_id", ability_id + 1)
        from dataclasses import replace
        on_stack = replace(on_stack, id=ability_id)
        state.set_item(state.abilities, ability_id, on_stack)
        state.append(state.stack.cards, ability_id)
        state.emit(EventKind.TRIGGER, player, names=(name,), destination="stack", detail=f"activated: {ability.text}",
                   citation=Citation("Activating Activated Abilities", "602.2"))
        from ..actions.ward import targeted
        targeted(state, player, ability_id, name, targets)                             # what ward triggers on


def _main_phase_empty_stack(state: GameState, player: str) -> bool:
    """A main phase of ``player``'s turn with an empty stack: when a sorcery could be cast (Sorceries — CR 307.1)."""
    return state.active == player and state.step in ("precombat main", "postcombat main") and not state.stack.cards


def _check_restrictions(state: GameState, player: str, card: int, ability: Ability, costs: Tree[Token],
                        body: Tree[Token], name: str) -> None:
    """Refuse an activation its rules or its own text forbid now (Activating Activated Abilities — CR 602.5): a loyalty
    ability (606.3), "Activate only as a sorcery" (602.5d), "… only once each turn", "… only during your turn"; a
    restriction the engine can't judge stops it rather than being ignored."""
    if any(isinstance(i, Tree) and i.data == "cost_loyalty" for i in costs.children):
        if not _main_phase_empty_stack(state, player):
            raise IllegalChoice(f"activate {name}", "a loyalty ability is activated only in a main phase of your turn "
                                "with an empty stack", Citation("Loyalty Abilities", "606.3"))
        if (card, "loyalty ability") in state.once_each_turn:
            raise IllegalChoice(f"activate {name}", "a loyalty ability of this permanent was already activated this "
                                "turn", Citation("Loyalty Abilities", "606.3"))
    for sentence in body.children:
        if not (isinstance(sentence, Tree) and sentence.data == "sentence"):
            continue
        for restriction in (r for r in sentence.children if isinstance(r, Tree) and r.data != "effect_chain"):
            kind = str(restriction.data)
            if kind == "sorcery_speed" and not _main_phase_empty_stack(state, player):
                raise IllegalChoice(f"activate {name}", "activate only as a sorcery: a main phase of your turn, the "
                                    "stack empty", Citation("Activating Activated Abilities", "602.5d"))
            if kind == "once_per_turn_activation" and (card, ability.text) in state.once_each_turn:
                raise IllegalChoice(f"activate {name}", "activate only once each turn: it was activated this turn",
                                    Citation("Activating Activated Abilities", "602.5b"))
            if kind == "your_turn_only" and state.active != player:
                raise IllegalChoice(f"activate {name}", "activate only during your turn",
                                    Citation("Activating Activated Abilities", "602.5"))
            if kind == "activate_if":
                condition = next(str(t) for t in restriction.children if isinstance(t, Token) and t.type == "CONDITION")
                if not condition_holds(state, player, condition, card):
                    raise IllegalChoice(f"activate {name}", f"activate only if {condition.strip()}",
                                        Citation("Activating Activated Abilities", "602.5"))


def _mark_activated(state: GameState, card: int, ability: Ability, costs: Tree[Token], body: Tree[Token]) -> None:
    """Remember what "once each turn" restrictions need (cleared as a turn begins)."""
    if any(isinstance(i, Tree) and i.data == "cost_loyalty" for i in costs.children):
        state.mark_once((card, "loyalty ability"))
    if any(isinstance(r, Tree) and r.data == "once_per_turn_activation" for r in body.iter_subtrees()):
        state.mark_once((card, ability.text))


def _pay_costs(state: GameState, player: str, card: int, costs: Tree[Token], choose: Chooser, name: str,
               x: int) -> None:
    from ..model import ManaCost
    c = state.cards[card]
    for item in costs.children:
        if not isinstance(item, Tree):
            continue
        words = text(item)
        if item.data == "mana_cost":
            symbols = [s for s in (str(t) for t in item.children) if s not in ("{T}", "{Q}")]
            if "{T}" in words:
                from ..actions.tap_and_untap import tap_as_cost
                tap_as_cost(state, player, card, f"activate {name}", detail="{T}: a cost")
            if symbols:
                pay_mana(state, player, ManaCost.parse("".join(symbols)), choose, name, x,
                         spending=Spending("ability", card))
        elif item.data == "cost_sacrifice":
            obj = next((ch for ch in item.children if isinstance(ch, Tree)), None)
            from ..actions.sacrifice import sacrifice, sacrifice_one
            if obj is not None and text(obj) == "~":
                sacrifice(state, player, card, detail="sacrificed as a cost")
                continue
            from .layers import matches
            desc = next(obj.find_data("object_desc"), None) if obj is not None else None
            if desc is None:
                desc = next(obj.find_data("obj_desc"), None) if obj is not None else None
            if not any(desc is not None and matches(state, player, desc, p.id, card)
                       and not ("another" in words and p.id == card) for p in state.permanents(player)):
                raise IllegalChoice(f"activate {name}", f"nothing to sacrifice ({words})",
                                    Citation("Activating Activated Abilities", "602.2b"))
            sacrifice_one(state, player, lambda p: desc is not None and matches(state, player, desc, p, card),
                          words.removeprefix("sacrifice ").removeprefix("Sacrifice "), choose=choose,
                          detail="sacrificed as a cost", citation=Citation("Activating Activated Abilities", "602.2b"),
                          exclude=[card] if "another" in words else [])
        elif item.data == "cost_sacrifice_subtype":
            # "Sacrifice a Mountain": any permanent of that subtype they control, chosen as the cost is paid; none,
            # and the cost can't be paid (Costs — CR 118.3).
            from ..actions.sacrifice import sacrifice_one
            from .layers import characteristics
            subtype = next(str(t) for t in item.children if isinstance(t, Token) and t.type == "SACRIFICED_SUBTYPE")

            def has_subtype(p: int, subtype: str = subtype) -> bool:
                return subtype in characteristics(state, p, statics=False).subtypes

            if not any(has_subtype(p.id) for p in state.permanents(player)):
                raise IllegalChoice(f"activate {name}", f"no {subtype} to sacrifice ({words})",
                                    Citation("Costs", "118.3"))
            sacrifice_one(state, player, has_subtype, f"a {subtype}", choose=choose, detail="sacrificed as a cost",
                          citation=Citation("Costs", "118.3"))
        elif item.data == "cost_discard" and text(item) in ("discard ~", "Discard ~"):
            owner = state.player(c.owner)
            source = state.zone_of(card).label
            state.move(card, owner.graveyard)
            state.emit(EventKind.MOVE, player, (card,), names=(c.oracle.name,), source=source,
                       destination=owner.graveyard.label, detail="discarded as a cost",
                       citation=Citation("Discard", "701.9a"))
        elif item.data == "cost_discard" and any(True for _ in item.find_pred(lambda t: t.data in ("one", "n"))):
            # "Discard a card:", "Discard two cards:": the player chooses them as the cost is paid; without enough
            # cards in hand it can't be paid. Activating Activated Abilities — CR 602.2b; Costs — CR 118.3
            from ..actions.discard import discard
            from .selectors import amount_of
            count = amount_of(next(item.find_data("n"), None), x)
            for paid in range(count):
                pool = [h for h in state.player(player).hand.cards if h != card]
                if not pool:
                    raise IllegalChoice(f"activate {name}", f"{player} has no card left in hand to discard ({words})",
                                        Citation("Costs", "118.3"))
                answer = decide(state, Decision.of(player, f"{name}: {words} ({paid + 1} of {count})",
                                                   Citation("Activating Activated Abilities", "602.2b"),
                                                   [Option(f"discard {state.cards[h].display_name}", h) for h in pool]),
                                choose)
                discard(state, player, answer.value, detail="discarded as a cost")
        elif item.data == "cost_loyalty":
            # Put on or remove loyalty counters (Loyalty Abilities — CR 606.4); a negative cost needs that many (606.6).
            amount = str(item.children[0]).strip("[]")
            n = x if amount.lstrip("+-") == "X" else int(amount.lstrip("+-"))
            n = -n if amount.startswith("-") else n
            have = c.counters.get("loyalty", 0)
            if n < 0 and have < -n:
                raise IllegalChoice(f"activate {name}", f"it has {have} loyalty counter(s): a cost of {amount} can't be "
                                    "paid", Citation("Loyalty Abilities", "606.6"))
            state.add_counters(card, "loyalty", n)
            state.emit(EventKind.COUNTER, player, (card,), amount=n, detail=f"[{amount}]: {abs(n)} loyalty counter(s) "
                       f"{'put on it' if n >= 0 else 'removed'}", citation=Citation("Loyalty Abilities", "606.4"))
        elif item.data == "cost_life":
            from ..instructions import lose_life
            from .selectors import amount_of
            lose_life(state, player, amount_of(item), detail="paid as a cost")
        else:
                    raise Unimplemented(f"the cost {words!r}")


__all__ = ["activate", "cast_spell", "legal_targets", "resolve_top", "FaceKind", "ZoneKind"]


# ---------------------------------------------------------------- copies of spells


COPY_SOURCE = "a copy of a spell"
"""The ``source`` of a copy's Oracle record: a copy of a spell isn't a card (it ceases to exist off the stack)."""


def copy_spell(state: GameState, controller: str, spell: Spell, choose: Chooser, *, new_targets: bool) -> int:
    """Put a copy of ``spell`` onto the stack under ``controller``'s control; return it. The copy has the spell's
    characteristics and every decision made for it — targets, X, kicker (Copying Objects — CR 707.10); it isn't
    cast, so nothing that triggers on casting sees it. With ``new_targets`` its controller may change any of its
    targets to other legal ones, or keep them (707.10c)."""
    from dataclasses import replace
    original = state.cards.get(spell.card)
    oracle = original.printed or original.oracle if original is not None else None
    if oracle is None:
        raise Unimplemented("copying a spell whose card no longer exists")
    copy = state.add_card(replace(oracle, is_token=True, source=COPY_SOURCE), controller, ZoneKind.STACK)
    targets = list(spell.targets)
    if new_targets and any(t is not None for t in targets):
        specs = [s for body in spell_body(spell.face) for s in target_specs(body)]
        citation = Citation("Copying Objects", "707.10c")
        for i, (spec, target) in enumerate(zip(specs, targets)):
            if target is None:
                continue
            others = [t for t in legal_targets(state, controller, spec, copy) if t != target]
            kept = f"keep {target if isinstance(target, str) else state.cards[target.card].display_name}" \
                if (isinstance(target, str) or target.card in state.cards) else "keep the target"
            options = [Option(kept, target)] + [
                Option(f"target {t if isinstance(t, str) else state.cards[t.card].display_name}", t) for t in others]
            answer = decide(state, Decision.of(controller, f"new target for the copy of {spell.face.name}?", citation,
                                               options), choose)
            targets[i] = answer.value
    state.set_item(state.spells, copy, replace(spell, card=copy, controller=controller, targets=tuple(targets),
                                               paid=(), without_paying=True))
    state.emit(EventKind.EFFECT, controller, (copy,), names=(spell.face.name,), destination="stack",
               detail=f"a copy of {spell.face.name} is put onto the stack (it isn't cast)",
               citation=Citation("Copying Objects", "707.10"))
    return copy
