"""Flashback — CR 702.34 (702.34a)

Flashback appears on instants and sorceries and is two static abilities:
"You may cast this card from your graveyard if the resulting spell is an instant
or sorcery spell by paying [cost] rather than paying its mana cost", and "If the
flashback cost was paid, exile this card instead of putting it anywhere else any
time it would leave the stack" (Flashback — CR 702.34a). The flashback cost is
an alternative cost (Casting Spells — CR 601.2b, 601.2f–h): the spell's mana
cost and mana value don't change, its timing doesn't either (a sorcery is still
cast only in its controller's main phase with the stack empty), and kicker may
be paid on top. Resolved, countered or fizzled, the spell is exiled.

:func:`flashback` casts a card from its owner's graveyard that way;
:func:`flashback_replacement` is the engine's move replacement that exiles it.

>>> from executable_rules.model import OracleCard
>>> str(flashback_cost(OracleCard.simple("Think Twice", "{1}{U}", "Instant", text="Draw a card.\\nFlashback {2}{U}").main))
'{2}{U}'
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState, ManaCost, Spell, Zone, ZoneKind

KEYWORD = "Flashback"
KIND = "keyword ability"
JAPANESE = ("フラッシュバック",)
SUBRULES = ("a",)
SUMMARY = "Cast the instant or sorcery from your graveyard for its flashback cost; then it is exiled."
OUT_OF_REACH: dict[str, str] = {}
STEP_KEYS = {"player", "card", "targets", "face", "x"}
"""The keys of the scenario step ``do = "flashback"`` (``targets``, ``face`` and ``x`` as for ``cast_spell``)."""

_COST = re.compile(r"^flashback ((?:\{[^}]+\})+)\s*(?:\(|$)", re.IGNORECASE)
_DASH_COST = re.compile(r"^flashback\s*—\s*([^(]+?)\.?\s*(?:\(|$)", re.IGNORECASE)


def flashback_cost(face: Face) -> ManaCost | None:
    """The mana part of the flashback cost printed on the face (``Flashback {2}{U}``, ``Flashback—{1}{U}, Pay 3
    life``: ``{1}{U}``; ``Flashback—Sacrifice a Mountain``: no mana); None without flashback."""
    for line in face.text.split("\n"):
        m = _COST.match(line.strip())
        if m:
            return ManaCost.parse(m.group(1))
        if _DASH_COST.match(line.strip()):
            return flashback_costs(face.name, line.strip())[0]
    return None


def flashback_costs(name: str, line: str) -> tuple[ManaCost, list[Any]]:
    """A "Flashback—[cost]" line's cost, read by the grammar as an activated ability's costs are: its mana, and
    the other parts ("Pay 3 life", "Sacrifice a Mountain", "Discard a card") as cost nodes, paid with it
    (Flashback — CR 702.34a: the flashback cost is an alternative cost, paid in full as the spell is cast, 601.2h)."""
    from lark import Tree

    from ..errors import Unimplemented
    from ..oracle.parser import parse_line
    m = _DASH_COST.match(line)
    assert m is not None
    ability = parse_line(f"{m.group(1)}: Draw a card.", name)
    costs = next(ability.tree.find_data("costs"), None) if ability.tree is not None else None
    if costs is None:
        raise Unimplemented(f"{name}: the flashback cost {m.group(1)!r} isn't read by the grammar")
    mana = [str(s) for item in costs.children if isinstance(item, Tree) and item.data == "mana_cost"
            for s in item.children]
    others = [item for item in costs.children if isinstance(item, Tree) and item.data != "mana_cost"]
    return ManaCost.parse("".join(mana)) if mana else ManaCost(()), others


def _other_costs(face: Face) -> list[Any]:
    """The parts of the face's flashback cost that aren't mana (none for ``Flashback {2}{U}``)."""
    for line in face.text.split("\n"):
        if _DASH_COST.match(line.strip()):
            return flashback_costs(face.name, line.strip())[1]
    return []


def granted_flashback(state: GameState, card: int) -> str | None:
    """The name of the spell whose effect gave ``card`` flashback (Past in Flames, Recoup: "… gains flashback until
    end of turn. The flashback cost is equal to its mana cost."), while that effect lasts; None without one."""
    ref = state.ref(card)
    return next((e.source for e in state.continuous if "Flashback" in e.keywords and ref in e.affected), None)


def flashback_cost_of(state: GameState, card: int, face: str | None = None) -> ManaCost | None:
    """The card's flashback cost now: its own printed one, or, for flashback an effect gave it, its mana cost —
    in the graveyard a split card's combined cost, but the half's cost once that half is chosen to be cast
    (Keyword Abilities — CR 702.1b: the variable is reevaluated; Split Cards — CR 709.4)."""
    from .cast import spell_faces
    c = state.cards[card]
    printed = flashback_cost(c.oracle.main)
    if printed is not None or granted_flashback(state, card) is None:
        return printed
    if face is None:
        return c.oracle.mana_cost
    chosen = next((f for f in spell_faces(c.oracle) if f.name.casefold() == face.casefold()), None)
    return chosen.mana_cost if chosen is not None else None


def in_color_order(cost: ManaCost | None) -> str:
    """``{2}{U}{R}``: the cost with generic mana first, then its coloured symbols in WUBRG order, as the CR writes
    a split card's combined cost (``{1}{R}`` + ``{1}{U}`` is written ``{2}{U}{R}``, not ``{2}{R}{U}``)."""
    if cost is None:
        return ""
    order = "XYZ0123456789WUBRGC"
    return str(ManaCost(tuple(sorted(cost.symbols, key=lambda s: (order.find(s[0]) if s[0] in order else 99)))))


def grant_flashback(state: GameState, ctx: Any, node: Any, choose: Chooser) -> None:
    """"[Cards] gain flashback until end of turn. The flashback cost is equal to its mana cost.": the cards named
    as it resolves gain it (Continuous Effects — CR 611.2c), as an ability (layer 6), until the cleanup step."""
    from ..engine.effects import _duration, _object_child, objects
    from ..model import ContinuousEffect
    target = _object_child(node)
    cards = [c for c in (objects(state, ctx, target) if target is not None else [])
             if state.zone_of(c).kind is ZoneKind.GRAVEYARD and state.cards[c].oracle.types & {"Instant", "Sorcery"}]
    duration = _duration(node)
    state.append(state.continuous, ContinuousEffect(ctx.name, "6", tuple(state.ref(c) for c in cards), state.stamp(),
                                                    keywords=(KEYWORD,), duration=duration))
    for card in cards:
        state.emit(EventKind.EFFECT, ctx.controller, (card,), detail=f"gains flashback {duration}; the flashback cost "
                   f"is equal to its mana cost, {in_color_order(state.cards[card].oracle.mana_cost)}",
                   citation=Citation("Keyword Abilities", "702.1b"))


def flashback(state: GameState, player: str, card: int, *, face: str | None = None, x: int = 0,
              choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` (its ``face``, for a split card) from their graveyard, paying its flashback cost
    rather than its mana cost."""
    from ..engine.stack import cast_spell
    from .cast import spell_faces
    c = state.cards[card]
    faces = spell_faces(c.oracle)
    # The cost of the spell it becomes: the face chosen (the first, as cast_spell casts it, unless told).
    cost = flashback_cost_of(state, card, face if face is not None else faces[0].name)
    name = c.oracle.name
    if cost is None:
        raise IllegalChoice(f"flashback {name}", f"{name} has no flashback cost in mana", Citation(KEYWORD, "702.34a"))
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"flashback {name}", f"{name} is in {state.zone_of(card).label}, not "
                            f"{state.player(player).graveyard.label}", Citation(KEYWORD, "702.34a"))
    if not c.oracle.types & {"Instant", "Sorcery"}:
        raise IllegalChoice(f"flashback {name}", "the resulting spell must be an instant or sorcery spell",
                            Citation(KEYWORD, "702.34a"))
    others = _other_costs(c.oracle.main) if granted_flashback(state, card) is None else []
    with state.action(f"flashback {name}"):
        spell = cast_spell(state, player, card, face=face, x=x, instead=cost, instead_name="flashback", choose=choose)
        if others:
            _pay_other_costs(state, player, card, others, name, choose)
    state.append(state.flashback_cast, (card, state.incarnation.get(card, 0)))
    state.emit(EventKind.NOTHING, player, (card,), detail=f"cast with flashback: its flashback cost {cost} paid "
               f"rather than its mana cost; it will be exiled as it leaves the stack", citation=Citation(KEYWORD, "702.34a"))
    return spell


def _pay_other_costs(state: GameState, player: str, card: int, others: list[Any], name: str, choose: Chooser) -> None:
    """The parts of a flashback cost that aren't mana, paid with its mana (Casting Spells — CR 601.2h): life only a
    player who has that much can pay (Life — CR 119.4); a permanent to sacrifice must be there
    (Sacrifice — CR 701.21a). One that can't be paid makes the whole cast illegal, and it is undone."""
    from lark import Tree

    from ..engine.layers import text
    from ..engine.selectors import amount_of
    from ..engine.stack import _pay_costs
    for item in others:
        if item.data == "cost_life" and state.player(player).life < amount_of(item):
            raise IllegalChoice(f"flashback {name}", f"{player} has {state.player(player).life} life: "
                                f"{text(item)} can't be paid", Citation("Life", "119.4"))
    _pay_costs(state, player, card, Tree("costs", others), choose, name, 0)
    state.emit(EventKind.NOTHING, player, (card,), detail=f"the rest of its flashback cost paid: "
               f"{', '.join(text(i) for i in others)}", citation=Citation(KEYWORD, "702.34a"))


def flashback_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If the flashback cost was paid, exile this card instead of putting it anywhere else any time it would leave
    the stack" (702.34a)."""
    if to.kind is ZoneKind.EXILE or state.zone_of(card) is not state.stack:
        return None
    if (card, state.incarnation.get(card, 0)) not in state.flashback_cast:
        return None
    name = state.cards[card].oracle.name

    def note() -> None:
        state.emit(EventKind.EXILE, state.cards[card].owner, (card,), names=(name,), source="stack",
                   destination="exile", detail=f"its flashback cost was paid: exiled instead of going to {to.label}",
                   citation=Citation(KEYWORD, "702.34a"))

    return state.exile, note


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "flashback", card = "Think Twice", targets = [...] }``."""
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    flashback(run.state, player, run.card(step["card"]), face=step.get("face"), x=int(step.get("x", 0)), choose=choose)


def _flashback_costs(state: GameState, player: str | None, expected: Any) -> Any:
    found: dict[str, Any] = {}
    for name in expected:
        cards = [c for c in state.cards if state.cards[c].oracle.name == name
                 and state.zone_of(c).kind is ZoneKind.GRAVEYARD]
        cost = flashback_cost_of(state, cards[0]) if cards else None
        found[name] = in_color_order(cost) if cards else None
    return found


EXPECT = {"flashback_cost": _flashback_costs}
"""``flashback_cost = { "Fire // Ice" = "{2}{U}{R}" }``: the flashback cost the card in a graveyard has now (``""``
without flashback)."""
