"""Ward — CR 702.21 (702.21a)

Ward is a triggered ability: "Ward [cost]" means "Whenever this permanent
becomes the target of a spell or ability an opponent controls, counter that
spell or ability unless that player pays [cost]" (Ward — CR 702.21a). It
triggers as the spell is cast or the ability put on the stack (a target is
chosen: Casting Spells — CR 601.2c), goes on the stack above it and resolves
first; the spell's or ability's controller then pays or sees it countered
(Counter — CR 701.6a). Its controller's own spells don't trigger it.

The engine writes ward out as that sentence (:func:`written_out`) and reads it
with the Oracle grammar (:mod:`executable_rules.engine.keyword_abilities`);
:func:`targeted` notes the "becomes the target" event and :func:`ward` carries
out "counter … unless that player pays …".

>>> written_out("{2}")
'Whenever this permanent becomes the target of a spell or ability an opponent controls, counter that spell or ability unless that player pays {2}.'
>>> written_out("— pay 3 life")
'Whenever this permanent becomes the target of a spell or ability an opponent controls, counter that spell or ability unless that player pays 3 life.'
"""

from __future__ import annotations

import re

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import Event, EventKind, GameState, ManaCost, ObjectRef

KEYWORD = "Ward"
KIND = "keyword ability"
JAPANESE = ("護法",)
SUBRULES = ("a",)
SUMMARY = "Whenever it becomes the target of an opponent's spell or ability, counter that unless its controller pays."
OUT_OF_REACH = {
    "b": "ward with X in its cost (\"ward {X}, where X is …\") is on no card of the corpus the grammar reads, so the "
         "value of X as the ability resolves has nothing to be shown with",
}


def written_out(argument: str) -> str:
    """The triggered ability "Ward [cost]" stands for (702.21a); "Ward—Pay 3 life" pays 3 life."""
    cost = argument.strip().lstrip("—-").strip().rstrip(".")
    cost = re.sub(r"^pay\s+", "", cost, flags=re.IGNORECASE)
    cost = "".join(cost.split()) if cost.startswith("{") else cost
    return ("Whenever this permanent becomes the target of a spell or ability an opponent controls, counter that "
            f"spell or ability unless that player pays {cost}.")


def targeted(state: GameState, controller: str, source: int, source_name: str,
             targets: list[ObjectRef | str | None]) -> None:
    """Note that each permanent among ``targets`` became the target of ``source`` (a spell's card or an ability's
    id on the stack), controlled by ``controller``: the event ward triggers on."""
    for target in targets:
        if isinstance(target, ObjectRef) and state.zone_of(target.card) is state.battlefield:
            state.emit(EventKind.TARGET, controller, (target.card,), names=(state.cards[target.card].display_name,),
                       source=source_name, amount=source, detail=f"becomes the target of {source_name}",
                       citation=Citation("Casting Spells", "601.2c"))


def triggers(event: Event, card: int, controller: str) -> bool:
    """"Whenever this permanent becomes the target of a spell or ability an opponent controls" (702.21a)."""
    return event.kind is EventKind.TARGET and card in event.cards and event.player != controller


def ward(state: GameState, event: Event, cost: str, choose: Chooser) -> None:
    """"Counter that spell or ability unless that player pays [cost]": the player who controls the spell or
    ability ``event`` is about pays, or it is countered (it may already have left the stack: then nothing happens)."""
    from ..engine.mana import _plan, mana_sources, pay_mana
    from ..engine.replacement import put_into_graveyard
    from ..instructions import lose_life
    stack_object = event.amount
    player = event.player or ""
    name = event.source or "it"
    if stack_object not in state.stack.cards:
        state.emit(EventKind.NOTHING, player, names=(name,), detail="it has left the stack: there is nothing to counter",
                   citation=Citation(KEYWORD, "702.21a"))
        return
    life = re.fullmatch(r"(\d+) life", cost.strip())
    mana = None if life else ManaCost.parse(cost)
    p = state.player(player)
    affordable = (p.life >= int(life.group(1))) if life else (
        mana is not None and _plan(p.mana, mana_sources(state, player), mana, 0) is not None)
    answer = decide(state, Decision.of(player, f"ward: pay {cost} or {name} is countered", Citation(KEYWORD, "702.21a"),
                                       [Option(f"pay {cost}", True, affordable,
                                               "" if affordable else f"{player} can't pay {cost}"),
                                        Option(f"don't pay {cost}", False)]), choose)
    if answer.value:
        try:
            if life:
                lose_life(state, player, int(life.group(1)), detail="paid for ward")
            else:
                assert mana is not None
                pay_mana(state, player, mana, choose, f"ward {cost}")
            return
        except IllegalChoice:
            state.emit(EventKind.NOTHING, player, detail=f"{player} can't pay {cost}", citation=Citation(KEYWORD, "702.21a"))
    if stack_object in state.spells:
        state.delete_item(state.spells, stack_object)
        put_into_graveyard(state, stack_object, f"countered by ward: {cost} wasn't paid", Citation("Counter", "701.6a"))
    elif stack_object in state.abilities:
        state.replace_list(state.stack.cards, [c for c in state.stack.cards if c != stack_object])
        state.delete_item(state.abilities, stack_object)
        state.emit(EventKind.NOTHING, player, names=(name,), detail=f"countered by ward: {cost} wasn't paid",
                   citation=Citation("Counter", "701.6a"))
