"""Counter — CR 701.6 (701.6a–b)

To counter a spell or ability is to cancel it, removing it from the stack: it
doesn't resolve and none of its effects happen; a countered spell is put into
its owner's graveyard (701.6a). Whoever cast or activated it gets no refund of
the costs they paid: mana spent stays spent, permanents tapped or sacrificed
to pay stay so (701.6b). A spell that doesn't resolve because all its targets
became illegal isn't countered (Resolving Spells and Abilities — CR 608.2b).

>>> from executable_rules.model import GameState, OracleCard, Spell, ZoneKind
>>> state = GameState.new(["Alice", "Bob"])
>>> bears = OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2")
>>> card = state.add_card(bears, "Bob", ZoneKind.HAND)
>>> state.move(card, state.stack); state.spells[card] = Spell(card, "Bob", bears.main)
>>> counter(state, "Alice", card)
True
>>> state.names(state.player("Bob").graveyard), state.spells
(['Grizzly Bears'], {})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ManaCost

if TYPE_CHECKING:
    from ..scenarios import ScenarioRun

KEYWORD = "Counter"
KIND = "keyword action"
JAPANESE = ("打ち消す", "打ち消し")
SUBRULES = ("a", "b")
SUMMARY = "Cancel a spell or ability on the stack: it doesn't resolve; a spell goes to its owner's graveyard."
OUT_OF_REACH: dict[str, str] = {}

STEP_KEYS = {"player", "card", "ability"}
"""``do = "counter"``: ``player`` counters the spell ``card``, or the ability on the stack whose source is
``ability`` (a card name)."""


def counter(state: GameState, player: str, item: int) -> bool:
    """``player``'s effect counters the spell or ability ``item`` on the stack; return whether it did."""
    from ..engine.replacement import put_into_graveyard
    if item not in state.stack.cards:
        return False
    if item in state.abilities:
        label = state.abilities[item].label
        state.replace_list(state.stack.cards, [c for c in state.stack.cards if c != item])
        state.delete_item(state.abilities, item)
        state.emit(EventKind.NOTHING, player, names=(label,), detail="countered: removed from the stack, none of its "
                   "effects happen", citation=Citation(KEYWORD, "701.6a"))
        return True
    spell = state.spells.get(item)
    paid = f"; nothing paid is refunded ({', '.join(spell.paid)})" if spell and spell.paid else ""
    state.delete_item(state.spells, item)
    put_into_graveyard(state, item, f"countered{paid}", Citation(KEYWORD, "701.6b" if paid else "701.6a"))
    return True


def counter_unless_paid(state: GameState, player: str, item: int, cost: str, *, choose: Chooser = first_legal) -> bool:
    """"Counter target spell unless its controller pays {3}" (Mana Leak): the spell's controller chooses whether to
    pay (they can only if their mana and untapped mana sources cover it); return whether it was countered."""
    from ..engine.mana import _plan, mana_sources, pay_mana
    if item not in state.spells:
        return False
    spell = state.spells[item]
    owes = ManaCost.parse(cost)
    p = state.player(spell.controller)
    able = _plan(p.mana, mana_sources(state, spell.controller), owes, 0) is not None
    answer = decide(state, Decision.of(spell.controller, f"pay {owes} or {spell.face.name} is countered",
                                       Citation(KEYWORD, "701.6a"),
                                       [Option(f"pay {owes}", True, able, "" if able else f"can't pay {owes}"),
                                        Option(f"don't pay {owes}", False)]), choose)
    if answer.value:
        pay_mana(state, spell.controller, owes, choose, f"{spell.face.name} (not to be countered)")
        return False
    return counter(state, player, item)


def run_step(run: "ScenarioRun", step: dict[str, Any], player: str, choose: Chooser) -> None:
    """``{ do = "counter", card = "Grizzly Bears" }`` or ``{ do = "counter", ability = "Drudge Skeletons" }``."""
    state = run.state
    if "ability" in step:
        source = run.setup.pool.find(str(step["ability"])).name
        found = [c for c in state.stack.cards if c in state.abilities and state.abilities[c].source_name == source]
        if not found:
            raise run.fail("ability", f"no ability of {source} on the stack")
        counter(state, player, found[-1])
        return
    counter(state, player, run.card(str(step["card"]), zone="stack"))
