"""Cumulative Upkeep — CR 702.24 (702.24a–b)

"Cumulative upkeep [cost]" is a triggered ability: "At the beginning of your
upkeep, if this permanent is on the battlefield, put an age counter on this
permanent. Then you may pay [cost] for each age counter on it. If you don't,
sacrifice it." (Cumulative Upkeep — CR 702.24a). A cost with a choice
("{W} or {U}") is chosen separately for each age counter; then the whole set
of costs is paid or none of it: partial payments aren't allowed. Sacrificing
"a creature" for each counter means that many different creatures (the
permanent itself among them, if its controller wishes).

Each instance triggers separately, and each counts every age counter on the
permanent as it resolves: the counters belong to no instance (702.24b).

The costs the model pays: mana (``{1}``, ``{G}{G}``, ``{W} or {U}``), "Pay N
life" and "Sacrifice a [type]". Other costs ("Put two cards from a single
graveyard on the bottom …") raise :class:`~executable_rules.errors.Unimplemented`.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> from executable_rules.choices import Scripted
>>> state = new_game(["you"])
>>> owl = state.add_card(OracleCard.simple("Owl", "{2}{W}", "Creature", power="3", toughness="3",
...                      text="Cumulative upkeep {W} or {U}"), "you", ZoneKind.BATTLEFIELD)
>>> state.cards[owl].counters = {"age": 2}
>>> state.player("you").mana = ("W", "U", "U")
>>> cumulative_upkeep(state, "you", owl, "{W} or {U}", choose=Scripted(["pay {W}{U}{U}"]))
True
>>> state.cards[owl].counters["age"], state.player("you").mana
(3, ())
"""

from __future__ import annotations

import itertools
from typing import Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import Unimplemented
from ..model import Card, Event, EventKind, GameState, ManaCost, TriggeredAbility

KEYWORD = "Cumulative Upkeep"
KIND = "keyword ability"
JAPANESE = ("累加アップキープ",)
SUBRULES = ("a",)
SUMMARY = "At the beginning of your upkeep, put an age counter on it; pay the cost once per age counter or sacrifice it."
_TWO_INSTANCES = ("a permanent with two instances of cumulative upkeep: no real card prints two, and the real cases "
                  "grant one — Gallowbraid or Morinfen enchanted with Decomposition (\"Enchanted creature has "
                  "'Cumulative upkeep—Pay 1 life.'\"), Breath of Dreams' quoted grant — need Auras (attachments, "
                  "another branch's work) or quoted granted abilities, which the model doesn't have; the module counts "
                  "every age counter on the permanent for each instance, but no real scenario can show it yet")
OUT_OF_REACH: dict[str, str] = {"b": _TWO_INSTANCES}
EXAMPLES_OUT_OF_REACH = {("702.24b", 1): _TWO_INSTANCES}


def instances(card: Card) -> list[tuple[int, str]]:
    """(line, cost) of each "Cumulative upkeep [cost]" of the card, read from its Oracle text by the grammar."""
    found = []
    for ability in card.oracle.parsed.abilities:
        for title, argument in ability.keywords:
            if title == KEYWORD:
                found.append((ability.line, argument.lstrip("— ").rstrip(".").replace("} {", "}{")))
    return found


def keyword_triggers(state: GameState, card: Card, event: Event) -> list[tuple[int, str]]:
    """Each instance triggers at the beginning of its controller's upkeep (702.24a; each separately, 702.24b)."""
    if (event.kind is not EventKind.STEP or not event.detail.startswith("upkeep")
            or state.zone_of(card.id) is not state.battlefield or card.controller != state.active):
        return []
    return [(line, f"cumulative upkeep {cost}") for line, cost in instances(card)]


def _payable(state: GameState, player: str, cost: ManaCost) -> bool:
    from ..engine.mana import _plan, mana_sources
    return _plan(state.player(player).mana, mana_sources(state, player), cost, 0) is not None


def cumulative_upkeep(state: GameState, player: str, card: int, cost: str, *, choose: Chooser = first_legal) -> bool:
    """One cumulative upkeep ability of ``card`` resolving: an age counter, then pay ``cost`` for each age counter
    or sacrifice it (702.24a); return whether it was paid."""
    from ..engine.layers import matches
    from ..engine.mana import pay_mana
    from ..engine.replacement import put_into_graveyard
    from ..instructions import lose_life
    c = state.cards[card]
    name = c.display_name
    if state.zone_of(card) is not state.battlefield:
        state.emit(EventKind.NOTHING, player, names=(name,), detail="it isn't on the battlefield: nothing happens",
                   citation=Citation(KEYWORD, "702.24a"))
        return False
    state.add_counters(card, "age", 1)
    n = c.counters.get("age", 0)
    state.emit(EventKind.COUNTER, player, (card,), amount=1,
               detail=f"an age counter: {n} age counter(s) on it, each counted (Cumulative Upkeep — CR 702.24b)",
               citation=Citation(KEYWORD, "702.24a"))
    decline = Option(f"don't pay: sacrifice {name}", None)
    why = Citation(KEYWORD, "702.24a")
    lowered = cost.lower()
    if cost.startswith("{"):
        alternatives = [ManaCost.parse(part.strip()) for part in cost.split(" or ")]
        options = []
        for combo in itertools.combinations_with_replacement(alternatives, n):
            total = combo[0]
            for more in combo[1:]:
                total = total + more
            label = f"pay {total}"
            payable = _payable(state, player, total)
            options.append(Option(label, total, payable, "" if payable else f"{player} can't pay {total}", why))
        answer = decide(state, Decision.of(player, f"cumulative upkeep of {name}: pay {cost} x{n}?", why,
                                           options + [decline]), choose)
        if answer.value is not None:
            pay_mana(state, player, answer.value, choose, f"{name}'s cumulative upkeep")
            return True
    elif lowered.startswith("pay ") and lowered.endswith(" life"):
        each = int(lowered.split()[1])
        life = state.player(player).life
        can = life >= each * n
        pay = Option(f"pay {each * n} life", True, can, "" if can else f"{player} has {life} life",
                     Citation("Life", "119.4"))
        answer = decide(state, Decision.of(player, f"cumulative upkeep of {name}: pay {each} life x{n}?", why,
                                           [pay, decline]), choose)
        if answer.value:
            lose_life(state, player, each * n, detail=f"{name}'s cumulative upkeep, paid")
            return True
    elif lowered.startswith("sacrifice "):
        from ..oracle import parse_line
        # The grammar reads "a creature" as the object of a sacrifice cost: parse it as one.
        tree = parse_line(f"Sacrifice {lowered[len('sacrifice '):]}: draw a card.", "?").tree
        desc = next(tree.find_data("object_desc"), None) if tree is not None else None
        if desc is None:
            raise Unimplemented(f"the cumulative upkeep cost {cost!r}")
        pool = [p.id for p in state.permanents(player) if matches(state, player, desc, p.id, card)]
        enough = len(pool) >= n
        pay = Option(f"sacrifice {n} different {cost[len('sacrifice '):].removeprefix('a ').removeprefix('an ')}(s)",
                     True, enough, "" if enough else f"{player} controls {len(pool)}, fewer than {n}", why)
        answer = decide(state, Decision.of(player, f"cumulative upkeep of {name}: {lowered} x{n}?", why,
                                           [pay, decline]), choose)
        if answer.value:
            chosen: list[int] = []
            for i in range(n):
                options = [Option(f"sacrifice {state.cards[p].display_name}", p) for p in pool if p not in chosen]
                options += [Option(f"sacrifice {state.cards[p].display_name} again", p, False,
                                   "the same creature can't be sacrificed twice", why) for p in chosen]
                pick = decide(state, Decision.of(player, f"cumulative upkeep of {name}: sacrifice which ({i + 1} of {n})",
                                                 why, options), choose)
                chosen.append(pick.value)
            for p in chosen:
                put_into_graveyard(state, p, f"sacrificed for {name}'s cumulative upkeep", Citation("Sacrifice", "701.21a"))
            return True
    else:
        raise Unimplemented(f"the cumulative upkeep cost {cost!r}")
    if state.zone_of(card) is state.battlefield:
        put_into_graveyard(state, card, "its cumulative upkeep wasn't paid: sacrificed", why)
    return False


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """The triggered ability resolves (702.24a), if its permanent is still the object it was."""
    card = ability.source.card
    if not state.is_current(ability.source):
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="its permanent has left the battlefield: nothing happens", citation=Citation(KEYWORD, "702.24a"))
        return
    cumulative_upkeep(state, ability.controller, card, ability.ability.removeprefix("cumulative upkeep "), choose=choose)


def age_counters(state: GameState, player: str | None, expected: Any) -> Any:
    """``age_counters = { "Name" = n }``: age counters on the permanent of that name (0 if none is there)."""
    found = {}
    for name in expected:
        cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
        found[name] = state.cards[cards[0]].counters.get("age", 0) if cards else 0
    return found


EXPECT = {"age_counters": age_counters}
