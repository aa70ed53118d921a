"""Cast — CR 701.5 (701.5a–b): casting a card without paying its mana cost

This is enough of casting (Casting Spells — CR 601.2) for the actions that
let a player cast a card during their resolution (discover): the card moves
to the stack (601.2a); the player announces which face they cast
(Split Cards — CR 709.3, Adventurer Cards — CR 715.3, Omen Cards — CR 720.3,
Double-Faced Cards — CR 712.11b), X, and whether they pay optional
additional costs such as kicker (Casting Spells — CR 601.2b); chooses
targets (601.2c); and pays the mandatory additional costs (601.2h). Only the face cast is evaluated to see whether it
can be cast (709.3a, 715.3a, 720.3a, 712.11c). Casting without paying the
mana cost, the only legal X is 0 (Numbers and Symbols — CR 107.3b). A land
is played, not cast (Lands — CR 305.9). Spells stay on the stack: the model
doesn't resolve them.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> blaze = state.add_card(OracleCard.simple("Blaze", "{X}{R}", "Sorcery", target="any"),
...                        "Alice", ZoneKind.LIBRARY)
>>> spell = cast_without_paying(state, "Alice", blaze, x=0)
>>> spell.x, spell.mana_value, spell.targets, state.names(state.stack)
(0, 1, ('Alice',), ['Blaze'])
>>> state.undo()
'cast Blaze'
>>> cast_without_paying(state, "Alice", blaze, x=2)
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'X=2': casting without paying its mana cost, the only legal choice for X is 0 (Numbers and Symbols — CR 107.3b)
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import (
    EventKind,
    Face,
    FaceKind,
    GameState,
    Layout,
    ObjectRef,
    OracleCard,
    Spell,
    can_pay,
    pay,
)

KEYWORD = "Cast"
KIND = "keyword action"
JAPANESE = ("唱える",)
SUBRULES = ("a", "b")
SUMMARY = "Cast a card without paying its mana cost: choose its face, X = 0, targets and additional costs."
OUT_OF_REACH: dict[str, str] = {}

TARGET_KINDS = ("any", "creature", "artifact", "enchantment", "land", "planeswalker", "player",
                "opponent", "permanent", "spell", "card")


def spell_faces(oracle: OracleCard) -> list[Face]:
    """The faces a card can be cast as: either half of a split card, the normal
    characteristics or the Adventure/Omen, either face of a modal double-faced card."""
    if oracle.layout is Layout.NORMAL:
        return [oracle.main]
    return list(oracle.faces)


def legal_targets(state: GameState, controller: str, kind: str, *, exclude: int | None = None) -> list[ObjectRef | str]:
    """What a spell or ability controlled by ``controller`` could target as ``target <kind>``."""
    if kind not in TARGET_KINDS:
        raise ValueError(f"unknown target kind {kind!r}; use one of {', '.join(TARGET_KINDS)}")
    found: list[ObjectRef | str] = []
    if kind in ("any", "player"):
        found += [p.name for p in state.players]
    if kind == "opponent":
        found += [p.name for p in state.opponents(controller)]
    if kind == "spell":
        found += [state.ref(c) for c in state.stack.cards if c in state.spells and c != exclude]
    if kind == "card":
        found += [state.ref(c) for p in state.players for c in p.graveyard.cards]
    wanted = {"any": {"Creature", "Planeswalker", "Battle"}, "creature": {"Creature"}, "artifact": {"Artifact"},
              "enchantment": {"Enchantment"}, "land": {"Land"}, "planeswalker": {"Planeswalker"}}.get(kind)
    for card in state.permanents():
        if kind == "permanent" or (wanted and card.types & wanted):
            found.append(state.ref(card.id))
    return found


def target_label(state: GameState, target: ObjectRef | str) -> str:
    return target if isinstance(target, str) else state.cards[target.card].display_name


def why_not_castable(state: GameState, player: str, card: int, face: Face, *, max_mana_value: int | None = None,
                     limit: Citation | None = None) -> tuple[str, Citation] | None:
    """Why ``player`` can't cast ``card`` as ``face`` now (``None`` if they can)."""
    if face.is_land:
        return f"{face.name} is a land: it is played, not cast", Citation("Lands", "305.9")
    if max_mana_value is not None and face.mana_value > max_mana_value:
        what = "X is 0, so its" if face.mana_cost and face.mana_cost.has_x else "its"
        return (f"{what} mana value {face.mana_value} is greater than {max_mana_value}",
                limit or Citation(KEYWORD, "701.5a"))
    if face.target and not legal_targets(state, player, face.target, exclude=card):
        return f"no legal target for {face.name} (target {face.target})", Citation("Casting Spells", "601.2c")
    for cost in face.additional_costs:
        if cost.optional:
            continue
        if cost.kind == "sacrifice" and not any(cost.type in c.types for c in state.permanents(player)):
            return f"its additional cost can't be paid: {cost.description}", Citation("Casting Spells", "601.2h")
        if cost.kind == "discard" and not state.player(player).hand.cards:
            return f"its additional cost can't be paid: {cost.description}", Citation("Casting Spells", "601.2h")
    return None


def cast_options(state: GameState, player: str, card: int, *, max_mana_value: int | None = None,
                 limit: Citation | None = None) -> list[Option]:
    """One option per face, ``cast <face>``, legal or with the reason it isn't."""
    options = []
    for face in spell_faces(state.cards[card].oracle):
        why = why_not_castable(state, player, card, face, max_mana_value=max_mana_value, limit=limit)
        options.append(Option(f"cast {face.name}", face, why is None, why[0] if why else "", why[1] if why else None))
    return options


def cast_without_paying(state: GameState, player: str, card: int, *, face: str | None = None, x: int = 0,
                        max_mana_value: int | None = None, limit: Citation | None = None,
                        choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` from where it is without paying its mana cost; return the spell.

    ``face`` names the face to cast (asked when there is a choice);
    ``max_mana_value`` is a limit on the resulting spell's mana value, with
    ``limit`` the rule that sets it (for discover, Discover — CR 701.57a).
    Raises :class:`IllegalChoice` naming the rule when the card can't be cast so.
    """
    c = state.cards[card]
    if face is None:
        options = cast_options(state, player, card, max_mana_value=max_mana_value, limit=limit)
        if len(options) == 1:
            chosen = options[0]
        else:
            chosen = decide(state, Decision.of(player, f"cast {c.oracle.name} as which face", Citation(KEYWORD, "701.5a"),
                                               options), choose)
        spell_face: Face = chosen.value
    else:
        matches = [f for f in spell_faces(c.oracle) if f.name.casefold() == face.casefold()]
        if not matches:
            raise ValueError(f"{c.oracle.name} has no face {face!r}; its faces are "
                             f"{', '.join(f.name for f in spell_faces(c.oracle))}")
        spell_face = matches[0]
    why = why_not_castable(state, player, card, spell_face, max_mana_value=max_mana_value, limit=limit)
    if why:
        raise IllegalChoice(f"cast {spell_face.name}", why[0], why[1])
    if x:
        if not (spell_face.mana_cost and spell_face.mana_cost.has_x):
            raise ValueError(f"{spell_face.name} has no X in its mana cost")
        raise IllegalChoice(f"X={x}", "casting without paying its mana cost, the only legal choice for X is 0",
                            Citation("Numbers and Symbols", "107.3b"))
    with state.action(f"cast {spell_face.name}"):
        source = state.zone_of(card).label
        state.move(card, state.stack)                                    # 601.2a
        kicked = False
        paid: list[str] = []
        mana = state.player(player).mana
        for cost in spell_face.additional_costs:                         # 601.2b: optional costs announced
            if not (cost.optional and cost.mana):
                continue
            affordable = can_pay(mana, cost.mana)
            answer = decide(state, Decision.of(player, f"pay {cost.description}?", Citation("Casting Spells", "601.2b"), [
                Option(f"pay {cost.description}", True, affordable,
                       "" if affordable else f"not enough mana ({''.join(mana) or 'none'}) to pay {cost.mana}",
                       Citation("Casting Spells", "601.2h")),
                Option(f"don't pay {cost.description}", False),
            ]), choose)
            if answer.value:
                remaining = pay(mana, cost.mana)
                assert remaining is not None
                state.set(state.player(player), "mana", remaining)
                mana = remaining
                kicked = True
                paid.append(cost.description)
        targets: tuple[ObjectRef | str, ...] = ()
        if spell_face.target:                                            # 601.2c
            candidates = legal_targets(state, player, spell_face.target, exclude=card)
            answer = decide(state, Decision.of(player, f"target for {spell_face.name}", Citation("Casting Spells", "601.2c"),
                                               [Option(f"target {target_label(state, t)}", t) for t in candidates]), choose)
            targets = (answer.value,)
        for cost in spell_face.additional_costs:                         # 601.2h: mandatory costs paid
            if cost.optional:
                continue
            if cost.kind == "sacrifice":                             # Sacrifice — CR 701.21a
                pool = [p for p in state.permanents(player) if cost.type in p.types]
                answer = decide(state, Decision.of(player, cost.description, Citation("Casting Spells", "601.2h"),
                                                   [Option(f"sacrifice {p.display_name}", p.id) for p in pool]), choose)
                from .sacrifice import sacrifice
                sacrifice(state, player, answer.value, detail="sacrificed as an additional cost")
            else:                                                      # Discard — CR 701.9a
                hand = state.player(player).hand.cards
                answer = decide(state, Decision.of(player, cost.description, Citation("Casting Spells", "601.2h"),
                                                   [Option(f"discard {state.cards[h].display_name}", h) for h in hand]), choose)
                from .discard import discard
                discard(state, player, answer.value, detail="discarded as an additional cost")
            paid.append(f"{answer.label}")
        spell = Spell(card, player, spell_face, 0, True, kicked, targets, tuple(paid))
        state.set_item(state.spells, card, spell)
        as_face = f" as {spell_face.kind.value} {spell_face.name}" if spell_face.kind not in (FaceKind.NORMAL, FaceKind.FRONT) else ""
        x_note = "; X is 0" if spell_face.mana_cost and spell_face.mana_cost.has_x else ""
        state.emit(EventKind.CAST, player, (card,), names=(spell_face.name,), source=source, destination="stack",
                   detail=f"without paying its mana cost{as_face}{x_note}; mana value {spell.mana_value}",
                   citation=Citation(KEYWORD, "701.5a"))
        return spell
