"""Replacement effects (Replacement Effects — CR 614), read from the Oracle text of the cards involved.

- A permanent that "enters tapped" or "enters with N counters" enters that way: the effect modifies how it
  enters (614.1c, 614.1d, 614.12), so it is never untapped or without counters on the battlefield.
- "If ~ would be put into a graveyard from anywhere, reveal ~ and shuffle it into its owner's library
  instead." (Darksteel Colossus): the card never reaches the graveyard (614.1a), so "dies" abilities
  don't trigger.
- Dredge N replaces a draw (Dredge — CR 702.52a): :func:`draw_replacements` offers every card with dredge in
  the player's graveyard before each draw; :mod:`executable_rules.actions.dredge` carries it out.

A face-down permanent has no abilities (Face-Down Spells and Permanents — CR 708.2a); a card in a zone is read
as it is there.
"""

from __future__ import annotations

import re
from typing import Callable

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import Unimplemented
from ..model import EventKind, FaceDown, GameState, Zone, ZoneKind


def _has_static(state: GameState, card: int, template: str) -> bool:
    c = state.cards[card]
    return any(a.static == template for a in c.oracle.parsed.abilities)


def enter_battlefield(state: GameState, card: int, controller: str, *, tapped: bool = False, x: int = 0,
                      face_down: FaceDown | None = None, choose: Chooser = first_legal, detail: str = "",
                      kicked: bool = False, spent: tuple[str, ...] | None = None,
                      counters: dict[str, int] | None = None, kicks: tuple[str, ...] = (),
                      alternative: str = "") -> None:
    """Put ``card`` onto the battlefield under ``controller``'s control, with its own "enters tapped" and
    "enters with … counters" replacement effects applied as it enters (614.1c, 614.12). ``spent`` is the mana
    spent to cast it when it enters as a resolving spell (for Sunburst — CR 702.44b)."""
    from .selectors import amount_of, find
    c = state.cards[card]
    source = state.zone_of(card).label
    name = c.oracle.name
    state.move(card, state.battlefield, controller=controller, face_down=face_down)
    if alternative:                        # "if its evoke cost was paid" (Evoke — CR 702.74a), read as it enters
        state.designate(card, f"{alternative} cost paid")
    if spent is not None:                  # the mana spent to cast it, for "unless {W} was spent to cast it"
        state.set_item(state.spent_to_cast, (card, state.incarnation.get(card, 0)), tuple(spent))
    if kicked:
        state.mark_kicked(card, kicks)
    for kind, amount in (counters or {}).items():       # "return it … with a -1/-1 counter on it": it enters with it
        state.add_counters(card, kind, amount)
    printed = c.oracle.main.loyalty if face_down is None else None
    if printed and printed.isdigit() and "Planeswalker" in c.oracle.main.types:
        # A planeswalker enters with its printed loyalty in loyalty counters (Planeswalkers — CR 306.5b)
        state.add_counters(card, "loyalty", int(printed))
    notes = [detail] if detail else []
    if face_down is None:
        copied = _enter_as_copy(state, card, controller, choose)
        if copied:
            notes.append(copied)
    if tapped:
        state.set(c, "tapped", True)
        notes.append("tapped")
    if face_down is None:
        for ability in c.oracle.parsed.abilities:
            if ability.static == "enters_tapped" and ability.tree is not None and "unless" not in ability.text:
                state.set(c, "tapped", True)
                notes.append("tapped (it enters tapped: a replacement effect, Replacement Effects — CR 614.1c)")
            elif ability.static == "as_enters_or_tapped" and ability.tree is not None:
                if not _as_enters_may(state, card, controller, ability.text, choose):
                    state.set(c, "tapped", True)
                    notes.append("tapped (\"if you don't, it enters tapped\": Replacement Effects — CR 614.1c)")
            elif ability.static == "as_enters_sacrifice" and ability.tree is not None:
                _as_enters_sacrifice(state, card, controller, ability.text)
            elif ability.static == "as_enters_choose" and re.search(r"choose an? (nonland )?card name\.$", ability.text):
                notes.append(_choose_card_name(state, card, controller, ability.text, choose))
            elif ability.static == "enters_with_counters" and ability.tree is not None:
                kicks_each = "for each time it was kicked" in ability.text      # multikicker: Kicker — CR 702.33c
                if "for each" in ability.text and not kicks_each:
                    continue
                condition = (ability.text.split(" if ", 1)[1] if " if " in ability.text else
                             ability.text[3:].split(",", 1)[0] if ability.text.startswith("if ") else None)
                if condition and not condition_holds(state, controller, condition, card):
                    notes.append(f"no counters: {condition.rstrip('.')} is false")
                    continue
                amount_node = find(ability.tree, "counter_amount")
                words = ability.text.lower()      # "with X charge counters" (Astral Cornucopia prints a capital X)
                amount = x if amount_node is not None and " x " in f" {words} " and "with x" in words else \
                    amount_of(amount_node, x)
                if kicks_each:
                    from ..actions.kicker import times_kicked
                    amount *= times_kicked(state, card)
                kind = next((str(t) for t in ability.tree.scan_values(lambda v: getattr(v, "type", "") == "COUNTER")),
                            "+1/+1")
                if amount:
                    state.add_counters(card, kind, amount)
                notes.append(f"with {amount} {kind} counter(s) (Replacement Effects — CR 614.1c)")
        from ..actions import ACTIONS            # keyword abilities that say how it enters (Modular, Sunburst)
        for module in ACTIONS:
            if hasattr(module, "entering_counters"):
                for kind, amount, note in module.entering_counters(state, card, spent):
                    if amount:
                        state.add_counters(card, kind, amount)
                    notes.append(note)
    state.emit(EventKind.MOVE, controller, (card,), names=(state.cards[card].display_name if face_down else name,),
               source=source, destination="battlefield", detail="; ".join(notes))


def _enter_as_copy(state: GameState, card: int, controller: str, choose: Chooser) -> str:
    """"You may have ~ enter the battlefield as a copy of any creature on the battlefield" (Clone): as it enters its
    controller chooses a creature or none; a copy has that object's copiable values — its printed characteristics
    with the copy effects applied to it, not counters, damage or other effects (Copying Objects — CR 707.2, 707.3) —
    and its own status; the enters replacement effects of what it copied apply (Replacement Effects — CR 614.12)."""
    from dataclasses import replace

    from .layers import matches
    c = state.cards[card]
    ability = next((a for a in c.oracle.parsed.abilities if a.static == "enter_as_copy" and a.tree is not None), None)
    if ability is None or ability.tree is None:
        return ""
    desc = next(ability.tree.find_data("obj_desc"))
    pool = [p.id for p in state.permanents() if p.id != card and not p.face_down
            and matches(state, controller, desc, p.id, card)]
    citation = Citation("Copying Objects", "707.2")
    options = [Option(f"copy {state.cards[p].display_name}", p) for p in pool] + [Option("don't copy", None)]
    answer = decide(state, Decision.of(controller, f"{c.oracle.name}: enter as a copy of which creature", citation,
                                       options), choose)
    if answer.value is None:
        return f"not as a copy (it enters as {c.oracle.name})"
    original = state.cards[answer.value]
    values = original.oracle if not original.oracle.is_token else replace(original.oracle, is_token=False)
    state.set(c, "printed", c.oracle)
    state.set(c, "oracle", values)
    return f"as a copy of {original.display_name} (Copying Objects — CR 707.2)"


def _as_enters_may(state: GameState, card: int, controller: str, text: str, choose: Chooser) -> bool:
    """"As ~ enters, you may reveal a Mountain or Forest card from your hand" / "you may pay 3 life": the
    controller decides as it enters (Replacement Effects — CR 614.12); return whether they did."""
    from ..choices import Decision, decide
    from .layers import TYPE_WORDS
    what = text.split("you may ", 1)[1].split(".", 1)[0]
    name = state.cards[card].oracle.name
    citation = Citation("Replacement Effects", "614.12")
    player = state.player(controller)
    options: list[Option] = []
    if what.startswith("reveal "):
        kinds = what.removeprefix("reveal ").removesuffix(" from your hand")
        kinds = kinds.removeprefix("a ").removeprefix("an ").removesuffix(" card")
        wanted = [k.strip() for k in kinds.split(" or ")]

        def fits(other: int) -> bool:
            o = state.cards[other].oracle
            return any(k in o.subtypes or TYPE_WORDS.get(k.lower()) in o.types for k in wanted)
        options = [Option(f"reveal {state.cards[h].oracle.name}", h) for h in player.hand.cards if fits(h)]
        none = Option("don't reveal", None)
    elif what.startswith("pay ") and what.endswith(" life"):
        amount = int(what.split()[1])
        options = [Option(f"pay {amount} life", amount, legal=player.life >= amount,
                          reason="a player can pay only life they have", citation=Citation("Life", "119.4"))]
        none = Option("don't pay", None)
    else:
        raise Unimplemented(f"{name}: {text!r}")
    answer = decide(state, Decision.of(controller, f"as {name} enters: you may {what}", citation, [*options, none]),
                    choose)
    if answer.value is None:
        return False
    if what.startswith("reveal "):
        state.emit(EventKind.REVEAL, controller, (answer.value,), names=(state.cards[answer.value].oracle.name,),
                   source=player.hand.label, detail=f"as {name} enters", citation=citation)
    else:
        from ..instructions import lose_life
        lose_life(state, controller, int(answer.value),
                  detail=f"pays {answer.value} life as {name} enters (Life — CR 119.4)")
    return True


def _choose_card_name(state: GameState, card: int, controller: str, text: str, choose: Chooser) -> str:
    """"As ~ enters, choose a card name." (Pithing Needle; "a nonland card name", Phyrexian Revoker): its controller
    names a card as it enters (Replacement Effects — CR 614.12), the name of a card, not of a token (Name — CR 201.4),
    with the characteristics asked for (201.4a). The names offered are those of the cards in the game: a scenario
    names what it needs, and exploring every choice stays finite. The name is kept on the permanent as
    ``chosen name: …`` (:func:`chosen_name`)."""
    nonland = "nonland card name" in text
    names = sorted({c.oracle.name for c in state.cards.values() if not c.oracle.is_token
                    and not (nonland and "Land" in c.oracle.types)})
    name = state.cards[card].oracle.name
    citation = Citation("Name", "201.4a" if nonland else "201.4")
    answer = decide(state, Decision.of(controller, f"as {name} enters: choose a {'nonland ' if nonland else ''}card name",
                                       citation, [Option(n, n) for n in names]), choose)
    state.designate(card, f"chosen name: {answer.value}")
    return f"the chosen name is {answer.value} (Name — CR 201.4)"


def chosen_name(state: GameState, card: int) -> str | None:
    """The card name chosen as ``card`` entered (:func:`_choose_card_name`), if any."""
    return next((name.removeprefix("chosen name: ") for c, incarnation, name in state.designations
                 if c == card and incarnation == state.incarnation.get(card, 0) and name.startswith("chosen name: ")),
                None)


def _as_enters_sacrifice(state: GameState, card: int, controller: str, text: str) -> None:
    """"As ~ enters, sacrifice all lands you control." (Replacement Effects — CR 614.1c): done as it enters."""
    from ..actions.sacrifice import sacrifice
    from .layers import TYPE_WORDS, characteristics
    plural = text.split("sacrifice all ", 1)[1].split(" you control", 1)[0]
    kind = TYPE_WORDS.get(plural.removesuffix("s"))
    if kind is None:
        raise Unimplemented(f"{state.cards[card].oracle.name}: {text!r}")
    doomed = [p.id for p in state.permanents(controller) if kind in characteristics(state, p.id).types]
    for other in doomed:
        sacrifice(state, controller, other, detail=f"sacrificed as {state.cards[card].oracle.name} enters "
                  "(Replacement Effects — CR 614.1c)")


def condition_holds(state: GameState, controller: str, condition: str, card: int | None = None) -> bool:
    """A condition of an ability, as written; :class:`~executable_rules.engine.effects.Unimplemented` for one the
    engine can't judge."""
    condition = condition.strip().rstrip(".")
    if condition == "a permanent you controlled left the battlefield this turn":      # revolt
        return any(e.kind is EventKind.MOVE and e.source == "battlefield" and e.cards
                   and state.last_known.get(e.cards[0]) is not None
                   and state.last_known[e.cards[0]].controller == controller
                   for e in state.events[state.turn_started:])
    if condition in ("it was kicked", "~ was kicked") and card is not None:           # Kicker — CR 702.33d
        from ..actions.kicker import was_kicked
        return was_kicked(state, card)
    if condition.startswith("it was kicked with its ") and condition.endswith(" kicker") and card is not None:
        from ..actions.kicker import was_kicked                                     # Kicker — CR 702.33f
        return was_kicked(state, card, condition.removeprefix("it was kicked with its ").removesuffix(" kicker"))
    if condition in ("it had no -1/-1 counters on it", "it had no +1/+1 counters on it") and card is not None:
        from ..actions.persist import had_no_counters                             # Persist — CR 702.79a, Undying — CR 702.93a
        return had_no_counters(state, card, condition.split()[3])
    devoted = re.fullmatch(r"your devotion to (\w+)(?: and (\w+))? is less than (\w+)", condition)
    if devoted:                                    # devotion (General — CR 700.5): Theros's gods
        from .layers import WORD_COLORS, devotion
        from .selectors import number_value
        colors = frozenset(WORD_COLORS[w] for w in devoted.groups()[:2] if w)
        return devotion(state, controller, colors) < number_value(devoted.group(3), 0)
    if condition in ("it isn't renowned", "~ isn't renowned") and card is not None:  # Renown — CR 702.112a
        from ..actions.renown import is_renowned
        return not is_renowned(state, card)
    if condition == "~ is suspected" and card is not None:                           # Suspect — CR 701.60a
        from ..actions.suspect import is_suspected
        return is_suspected(state, card)
    if condition == "evidence was collected" and card is not None:                   # Collect Evidence — CR 701.59c
        from ..actions.collect_evidence import evidence_was_collected
        return evidence_was_collected(state, card)
    spent = re.fullmatch(r"(\{[WUBRGC]\}) was spent to cast (it|~)", condition)
    if spent and card is not None:                  # Court Hussar: the mana its spell was cast with (Casting Spells — CR 601.2h)
        return spent.group(1)[1] in state.spent_to_cast.get((card, state.incarnation.get(card, 0)), ())
    alt = re.fullmatch(r"its (\w+) cost was paid", condition)
    if alt and card is not None:                     # "if its evoke cost was paid" (Evoke — CR 702.74a)
        return state.has_designation(card, f"{alt.group(1)} cost paid")
    if condition == "an opponent was dealt damage this turn":                        # War Elemental
        return any(e.kind is EventKind.DAMAGE and e.amount > 0 and e.destination in
                   [p.name for p in state.players if p.name != controller] for e in state.events[state.turn_started:])
    if condition in ("a creature died this turn", "a creature you controlled died this turn"):    # morbid
        # "Dies" means put into a graveyard from the battlefield (General — CR 700.4): a creature exiled instead
        # (Leyline of the Void) didn't die.
        mine = "you controlled" in condition
        return any(e.kind is EventKind.MOVE and e.source == "battlefield" and e.cards
                   and (e.destination or "").endswith("graveyard")
                   and (known := state.last_known.get(e.cards[0])) is not None and "Creature" in known.types
                   and (not mine or known.controller == controller)
                   for e in state.events[state.turn_started:])
    if condition == "an opponent searched their library this turn":                 # Archive Trap
        return any(e.kind is EventKind.SEARCH and e.player is not None and e.player != controller
                   and e.source == state.player(e.player).library.label for e in state.events[state.turn_started:])
    if card is not None and state.zone_of(card).kind is ZoneKind.BATTLEFIELD:
        # "Activate only if you control seven or more lands": the conditions a permanent's static abilities use
        from .conditions import static_condition_holds
        return static_condition_holds(state, card, condition)
    raise Unimplemented(f"the condition {condition!r}")


def put_into_graveyard(state: GameState, card: int, why: str, citation: Citation | None = None) -> bool:
    """Put ``card`` into its owner's graveyard (a replacement effect may send it elsewhere: see
    :func:`graveyard_replacement`); return whether it got there."""
    c = state.cards[card]
    owner = state.player(c.owner)
    source = state.zone_of(card).label
    name = c.display_name
    controller = c.controller or c.owner
    state.move(card, owner.graveyard)
    if state.zone_of(card) is not owner.graveyard:
        return False
    state.emit(EventKind.MOVE, controller, (card,), names=(name,), source=source,
               destination=owner.graveyard.label, detail=why, citation=citation)
    return True


def graveyard_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If ~ would be put into a graveyard from anywhere, reveal ~ and shuffle it into its owner's library
    instead": every move of such a card to a graveyard — destroyed, discarded, milled — goes to its owner's
    library instead (Replacement Effects — CR 614.1a), and the library is then shuffled."""
    c = state.cards[card]
    if to.kind is not ZoneKind.GRAVEYARD or c.face_down or not _has_static(state, card, "shuffle_instead"):
        return None
    owner = state.player(c.owner)
    source = state.zone_of(card).label

    def reveal_and_shuffle() -> None:
        from ..actions.shuffle import shuffle
        state.emit(EventKind.REVEAL, c.owner, (card,), names=(c.oracle.name,), source=source,
                   detail=f"it would be put into a graveyard: it is revealed and shuffled into {owner.library.label} "
                   "instead", citation=Citation("Replacement Effects", "614.1a"))
        # Cards put into a certain position of that library at the same time stay there: the library is shuffled
        # except for them (Shuffle — CR 701.24g).
        placed = [m for m in state.moving_at_once if m != card and state.zone_of(m) is owner.library]
        shuffle(state, c.owner, keep_on_top=placed, at_once=bool(placed))

    return owner.library, reveal_and_shuffle


def exile_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If a card or token would be put into a graveyard from anywhere, exile it instead." (Rest in Peace), "If a card
    would be put into an opponent's graveyard from anywhere, exile it instead." (Leyline of the Void): a static
    ability of a permanent on the battlefield that sends the card to exile instead, from any zone
    (Replacement Effects — CR 614.1a). "A card" isn't a token: a
    token put into the graveyard is there first, then ceases to exist (Tokens — CR 111.7)."""
    if to.kind is not ZoneKind.GRAVEYARD:
        return None
    c = state.cards[card]
    for source in state.permanents():
        if source.face_down or source.phased_out:
            continue
        for ability in source.oracle.parsed.abilities:
            if ability.static != "exile_instead" or ability.tree is None:
                continue
            words = ability.text
            if c.is_token and "or token" not in words:
                continue
            if "an opponent's graveyard" in words and c.owner == source.controller:
                continue
            if "your graveyard" in words and c.owner != source.controller:
                continue
            origin = state.zone_of(card).label
            name = c.display_name

            def note(source_name: str = source.oracle.name, origin: str = origin, name: str = name) -> None:
                state.emit(EventKind.EXILE, c.owner, (card,), names=(name,), source=origin, destination="exile",
                           detail=f"it would be put into a graveyard: {source_name} exiles it instead",
                           citation=Citation("Replacement Effects", "614.1a"))
            return state.exile, note
    return None


def die_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If ~ would die, put ~ on top of its owner's library instead." (Gravebane Zombie): a permanent going from the
    battlefield to a graveyard goes on top of its owner's library instead (Replacement Effects — CR 614.1a)."""
    c = state.cards[card]
    if (to.kind is not ZoneKind.GRAVEYARD or c.face_down or state.zone_of(card) is not state.battlefield
            or not _has_static(state, card, "die_to_top")):
        return None
    owner = state.player(c.owner)

    def note() -> None:
        state.emit(EventKind.MOVE, c.owner, (card,), names=(c.oracle.name,), source="battlefield",
                   destination=owner.library.label, detail="it would die: put on top of its owner's library instead",
                   citation=Citation("Replacement Effects", "614.1a"))

    return owner.library, note


def draw_replacements(state: GameState, player: str) -> list[Option]:
    """What may replace ``player``'s next draw: dredge (Dredge — CR 702.52a), from the cards' own text."""
    from ..actions.dredge import dredge_options
    return dredge_options(state, player)
