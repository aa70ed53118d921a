"""Scavenge — CR 702.97 (702.97a)

Scavenge is an activated ability that works only while its card is in a
graveyard: "Scavenge [cost]" means "[Cost], Exile this card from your
graveyard: Put a number of +1/+1 counters equal to the power of the card you
exiled on target creature. Activate only as a sorcery." (Scavenge — CR 702.97a).
Exiling the card is part of the cost, and the counters count its power as it
last existed in the graveyard.

The scavenge cost is only the variable part ([cost]); the activation cost is
that plus exiling the card (Keyword Abilities — CR 702.1a). Varolz, the
Scar-Striped's "Each creature card in your graveyard has scavenge. The
scavenge cost is equal to its mana cost." makes it the card's mana cost,
coloured symbols included (X is 0). Reductions of the cost to cast creature
spells don't apply to an activation.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> goliath = state.add_card(OracleCard.simple("Deadbridge Goliath", "{2}{G}{G}", "Creature", power="5", toughness="5",
...                          text="Scavenge {4}{G}{G}"), "you", ZoneKind.GRAVEYARD)
>>> [str(c) for c in scavenge_costs(state, "you", goliath)]
['{4}{G}{G}']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, ObjectRef, TriggeredAbility

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Scavenge"
KIND = "keyword ability"
JAPANESE = ("活用",)
SUBRULES = ("a",)
SUMMARY = "Pay its cost and exile the card from your graveyard: put +1/+1 counters equal to its power on target creature."
OUT_OF_REACH: dict[str, str] = {}

_VAROLZ = "each creature card in your graveyard has scavenge. the scavenge cost is equal to its mana cost."
READS_LINES = (re.compile(re.escape(_VAROLZ) + "$", re.IGNORECASE),)
"""Lines this module applies by reading their text (the grammar has no template): a run doesn't report them unread."""
STEP_KEYS = {"player", "card", "targets"}
"""The keys of the scenario step ``do = "scavenge"`` (``targets`` = [the creature])."""


def scavenge_costs(state: GameState, player: str, card: int) -> list[ManaCost]:
    """The scavenge costs of ``card`` in ``player``'s graveyard: each it prints, and its mana cost (X = 0) while
    a permanent of theirs grants creature cards in their graveyard scavenge for that (Varolz)."""
    c = state.cards[card]
    costs = [ManaCost.parse(arg.replace(" ", "")) for title, arg in c.oracle.parsed.keywords
             if title == KEYWORD and arg.startswith("{")]
    granted = any(_VAROLZ in p.oracle.text.lower().replace("’", "'") for p in state.permanents(player) if not p.face_down)
    if granted and "Creature" in c.oracle.types and state.zone_of(card) is state.player(player).graveyard:
        mana = c.oracle.mana_cost
        symbols = tuple(s for s in (mana.symbols if mana else ()) if s not in ("X", "Y", "Z"))
        costs.append(ManaCost(symbols or ("0",)))
    return costs


def scavenge(state: GameState, player: str, card: int, target: int, *, choose: Chooser = first_legal) -> None:
    """``player`` activates the scavenge ability of ``card`` targeting the creature ``target``: the cost is paid
    and the card exiled (the activation cost: Keyword Abilities — CR 702.1a), and the ability goes on the stack."""
    from ..engine.effects import _targetable
    from ..engine.layers import characteristics
    from ..engine.mana import pay_mana
    c = state.cards[card]
    name = c.oracle.name
    why = Citation(KEYWORD, "702.97a")
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"scavenge {name}", f"{name} isn't in {player}'s graveyard", why)
    costs = scavenge_costs(state, player, card)
    if not costs:
        raise IllegalChoice(f"scavenge {name}", f"{name} has no scavenge", why)
    if state.active != player or "main" not in state.step or state.stack.cards:
        raise IllegalChoice(f"scavenge {name}", "scavenge is activated only as a sorcery", why)
    if not (state.zone_of(target) is state.battlefield and "Creature" in characteristics(state, target).types
            and _targetable(state, player, target, card)):
        raise IllegalChoice(f"scavenge {name}", f"{state.cards[target].display_name} isn't a creature it can target", why)
    cost = costs[0]
    if len(costs) > 1:
        cost = decide(state, Decision.of(player, f"scavenge {name}: which scavenge ability", why,
                                         [Option(f"scavenge {c}", c) for c in costs]), choose).value
    with state.action(f"scavenge {name}"):
        power = c.oracle.main.power
        n = int(power) if power and power.lstrip("-").isdigit() else 0      # as it last existed in the graveyard
        pay_mana(state, player, cost, choose, f"{name}'s scavenge")
        graveyard = state.player(player).graveyard.label
        state.move(card, state.exile)
        state.emit(EventKind.EXILE, player, (card,), source=graveyard, destination="exile",
                   detail=f"scavenge cost {cost}; the activation cost is that and exiling it (Keyword Abilities — CR 702.1a)",
                   citation=why)
        ability_id = state.next_id
        state.set(state, "next_id", ability_id + 1)
        ability = TriggeredAbility(state.ref(card), name, player, f"scavenge: {n} +1/+1 counter(s) on target creature",
                                   state.events[-1], ability_id, (state.ref(target),), activated=True, x=n,
                                   keyword=KEYWORD)
        state.set_item(state.abilities, ability_id, ability)
        state.append(state.stack.cards, ability_id)
        state.emit(EventKind.TRIGGER, player, names=(ability.label,), destination="stack",
                   detail=f"activated: {ability.ability}", citation=Citation("Activating Activated Abilities", "602.2"))


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    """The scavenge ability resolves: +1/+1 counters equal to the exiled card's power on its target."""
    target = next((t for t in ability.targets if isinstance(t, ObjectRef)), None)
    if target is None or not state.is_current(target) or state.zone_of(target.card) is not state.battlefield:
        state.emit(EventKind.NOT_RESOLVED, ability.controller, names=(ability.label,),
                   detail="its target is illegal: it doesn't resolve",
                   citation=Citation("Resolving Spells and Abilities", "608.2b"))
        return
    if ability.x:
        state.add_counters(target.card, "+1/+1", ability.x)
    state.emit(EventKind.COUNTER, ability.controller, (target.card,), amount=ability.x,
               detail=f"{ability.x} +1/+1 counter(s), the scavenged card's power", citation=Citation(KEYWORD, "702.97a"))


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "scavenge", card = "Grizzly Bears", targets = ["Varolz, the Scar-Striped"] }``."""
    card = run.card(step["card"], zone=f"{player}.graveyard")
    targets = step.get("targets", [])
    if len(targets) != 1:
        raise run.fail("targets", "scavenge has one target: targets = [\"a creature\"]")
    scavenge(run.state, player, card, run.card(targets[0], "targets"), choose=choose)
