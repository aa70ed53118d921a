"""Modular — CR 702.43 (702.43a)

"Modular N" is a static ability and a triggered ability: "This permanent
enters with N +1/+1 counters on it" and "When this permanent is put into a
graveyard from the battlefield, you may put a +1/+1 counter on target artifact
creature for each +1/+1 counter on this permanent" (Modular — CR 702.43a). The
counters counted are those on it as it last existed on the battlefield, and
they all go onto the one target. "Modular—Sunburst" takes its N from sunburst:
the number of colours of mana spent to cast it (Sunburst — CR 702.44c).

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> worker = state.add_card(OracleCard.simple("Arcbound Worker", "{1}", "Artifact Creature", power="0",
...                         toughness="0", text="Modular 1"), "you", ZoneKind.HAND)
>>> modular(state, worker, None), entering_counters(state, worker, ())[0][:2]
(1, ('+1/+1', 1))
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import Card, Event, EventKind, GameState, ObjectRef, TriggeredAbility
from .sunburst import sunburst

KEYWORD = "Modular"
KIND = "keyword ability"
JAPANESE = ("接合",)
SUBRULES = ("a",)
SUMMARY = "It enters with N +1/+1 counters; when it dies, you may put its +1/+1 counters on target artifact creature."
OUT_OF_REACH = {
    "b": "no card in the corpus has modular twice and the model grants no modular, so several instances never meet",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def _argument(card: Card) -> tuple[int, str] | None:
    for ability in card.oracle.parsed.abilities:
        for title, argument in ability.keywords:
            if title == KEYWORD:
                return ability.line, argument
    return None


def modular(state: GameState, card: int, spent: tuple[str, ...] | None) -> int | None:
    """N of the card's modular: its number, or for "Modular—Sunburst" the colours of mana spent (Sunburst — CR 702.44c)."""
    found = _argument(state.cards[card])
    if found is None:
        return None
    argument = found[1].lstrip("— ").strip()
    if argument.lower() == "sunburst":
        return sunburst(spent)
    return int(argument) if argument.isdigit() else None


def entering_counters(state: GameState, card: int, spent: tuple[str, ...] | None) -> list[tuple[str, int, str]]:
    """"This permanent enters with N +1/+1 counters on it" (702.43a)."""
    n = modular(state, card, spent)
    if n is None:
        return []
    sun = _argument(state.cards[card])
    how = (f"modular—sunburst: {n} colour(s) of mana spent to cast it ({Citation('Sunburst', '702.44c')})"
           if sun and "sunburst" in sun[1].lower() else f"modular {n}")
    return [("+1/+1", n, f"{how}: {n} +1/+1 counter(s) ({Citation(KEYWORD, '702.43a')})")]


def keyword_triggers(state: GameState, card: Card, event: Event) -> list[tuple[int, str]]:
    """"When this permanent is put into a graveyard from the battlefield" (702.43a)."""
    found = _argument(card)
    if (found is None or event.kind is not EventKind.MOVE or event.source != "battlefield"
            or not (event.destination or "").endswith("graveyard") or card.id not in event.cards
            or state.zone_of(card.id).kind.value != "graveyard"):
        return []
    return [(found[0], "modular: +1/+1 counters onto target artifact creature")]


def _legal(state: GameState, controller: str, source: int) -> list[int]:
    from ..engine.effects import _targetable
    from ..engine.layers import characteristics
    return [c.id for c in state.permanents() if {"Artifact", "Creature"} <= characteristics(state, c.id).types
            and _targetable(state, controller, c.id, source)]


def keyword_targets(state: GameState, ability: TriggeredAbility, choose: Chooser) -> list[ObjectRef | str] | None:
    """Its one target, an artifact creature (Handling Triggered Abilities — CR 603.3d): none, and it is removed."""
    legal = _legal(state, ability.controller, ability.source.card)
    if not legal:
        return None
    answer = decide(state, Decision.of(ability.controller, f"target for {ability.label} (target artifact creature)",
                                       Citation(KEYWORD, "702.43a"),
                                       [Option(f"target {state.cards[c].display_name}", c) for c in legal]), choose)
    return [state.ref(answer.value)]


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """You may put a +1/+1 counter on the target for each +1/+1 counter it had as it left (702.43a)."""
    target = next((t for t in ability.targets if isinstance(t, ObjectRef)), None)
    known = state.last_known.get(ability.source.card)
    n = dict(known.counters).get("+1/+1", 0) if known else 0
    if target is None or not state.is_current(target) or target.card not in _legal(state, ability.controller,
                                                                                 ability.source.card):
        state.emit(EventKind.NOT_RESOLVED, ability.controller, names=(ability.label,),
                   detail="its target is illegal: it doesn't resolve",
                   citation=Citation("Resolving Spells and Abilities", "608.2b"))
        return
    name = state.cards[target.card].display_name
    answer = decide(state, Decision.of(ability.controller, f"{ability.label}: put {n} +1/+1 counter(s) on {name}?",
                                       Citation(KEYWORD, "702.43a"), [Option("yes", True), Option("no", False)]), choose)
    if answer.value and n:
        state.add_counters(target.card, "+1/+1", n)
        state.emit(EventKind.COUNTER, ability.controller, (target.card,), amount=n,
                   detail=f"{n} +1/+1 counter(s), one for each on {ability.source_name} as it left the battlefield",
                   citation=Citation(KEYWORD, "702.43a"))
