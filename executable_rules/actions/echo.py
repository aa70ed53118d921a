"""Echo — CR 702.30 (702.30a)

"Echo [cost]" is a triggered ability: "At the beginning of your upkeep, if
this permanent came under your control since the beginning of your last
upkeep, sacrifice it unless you pay [cost]." (Echo — CR 702.30a). A cost with
a variable ("echo {X}, where X is your life total") is worked out as the
ability resolves (Keyword Abilities — CR 702.1b).

A permanent of a scenario's setup counts as having come under its
controller's control before any upkeep of the game, so it triggers at its
controller's first upkeep and not after.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.turn import pass_to
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> state.step = "untap"
>>> _ = state.add_card(OracleCard.simple("Goblin", "{R}", "Creature", power="1", toughness="1",
...                    text="Echo {R}"), "you", ZoneKind.BATTLEFIELD)
>>> pass_to(state, "upkeep")
>>> state.names(state.player("you").graveyard)
['Goblin']
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import Card, Event, EventKind, GameState, ManaCost, TriggeredAbility
from .keyword_abilities import keyword_abilities

KEYWORD = "Echo"
KIND = "keyword ability"
JAPANESE = ("エコー",)
SUBRULES = ("a",)
SUMMARY = "At the beginning of your upkeep, if it came under your control since your last upkeep, sacrifice it unless you pay its echo cost."
OUT_OF_REACH = {
    "b": "the Oracle errata of the Urza block echo costs are already in the corpus's Oracle text: nothing is left to run",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def _came_under_control_since_last_upkeep(state: GameState, card: Card) -> bool:
    controller = card.controller
    upkeeps = [i for i, e in enumerate(state.events) if e.kind is EventKind.STEP and e.player == controller
               and e.detail.startswith("upkeep")]
    if len(upkeeps) < 2:
        return True                  # no earlier upkeep of this player: it came under their control since
    last = upkeeps[-2]
    return any(i > last and card.id in e.cards and (e.kind is EventKind.CONTROL or
               e.kind is EventKind.MOVE and e.destination == "battlefield") for i, e in enumerate(state.events))


def keyword_triggers(state: GameState, card: Card, event: Event) -> list[tuple[int, str]]:
    """Echo's trigger: the beginning of its controller's upkeep, if it came under their control since the last."""
    if (event.kind is not EventKind.STEP or not event.detail.startswith("upkeep")
            or state.zone_of(card.id) is not state.battlefield or card.controller != state.active):
        return []
    lines = [line for title, _, line in keyword_abilities(state, card.id) if title == KEYWORD]
    if not lines or not _came_under_control_since_last_upkeep(state, card):
        return []
    return [(line, "echo") for line in lines]


def echo(state: GameState, player: str, card: int, line: int, *, choose: Chooser) -> bool:
    """The echo ability of ``card`` (its Oracle line ``line``) resolving: pay the cost as it is now, or sacrifice."""
    from ..engine.mana import _plan, mana_sources, pay_mana
    from ..engine.replacement import put_into_graveyard
    name = state.cards[card].display_name
    argument = next((a for t, a, n in keyword_abilities(state, card) if t == KEYWORD and n == line), "")
    cost = ManaCost.parse(argument)
    payable = _plan(state.player(player).mana, mana_sources(state, player), cost, 0) is not None
    state.emit(EventKind.NOTHING, player, (card,), detail=f"echo {cost} as it resolves",
               citation=Citation("Keyword Abilities", "702.1b"))
    answer = decide(state, Decision.of(player, f"echo of {name}: pay {cost}?", Citation(KEYWORD, "702.30a"),
                                       [Option(f"pay {cost}", True, payable, "" if payable else f"{player} can't pay {cost}",
                                               Citation(KEYWORD, "702.30a")),
                                        Option(f"don't pay: sacrifice {name}", False)]), choose)
    if answer.value:
        pay_mana(state, player, cost, choose, f"{name}'s echo")
        return True
    put_into_graveyard(state, card, "its echo cost wasn't paid: sacrificed", Citation(KEYWORD, "702.30a"))
    return False


def resolve_keyword_trigger(state: GameState, ability: TriggeredAbility, choose: Chooser) -> None:
    if not state.is_current(ability.source):
        state.emit(EventKind.NOTHING, ability.controller, names=(ability.label,),
                   detail="its permanent has left the battlefield: nothing happens", citation=Citation(KEYWORD, "702.30a"))
        return
    echo(state, ability.controller, ability.source.card, ability.line, choose=choose)
