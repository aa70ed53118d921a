"""Explore — CR 701.44 (701.44a–d)

To explore, a permanent's controller reveals the top card of their library.
A land card goes to their hand; otherwise they put a +1/+1 counter on the
exploring permanent and may put the revealed card into their graveyard, or
leave it on top (701.44a). An empty library reveals no land card, so the
permanent still gets its counter.

The permanent "explores" once this is done, even if some or all of it was
impossible (701.44b): "whenever a creature you control explores" abilities
trigger. If the permanent left the battlefield before exploring, its last
known information says who controlled it (701.44c): that player reveals and
chooses, and no counter is put on anything. A permanent whose controller
changed before it explores is explored by its new controller. When several
permanents explore at once, players in APNAP order each choose one of theirs
to explore next (701.44d).

Nothing can be done while a permanent explores: the process has no point at
which another player acts, so no one can remove the explorer between the
reveal and the counter (as the Ixalan explore cards' rulings say).

The function is named for the action; it is not
:func:`executable_rules.choices.explore`, which walks every choice.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> scout = state.add_card(OracleCard.simple("Scout", "{1}{G}", "Creature", power="2", toughness="1"),
...                        "Alice", ZoneKind.BATTLEFIELD)
>>> explore(state, state.ref(scout))         # an empty library: no land, so a counter
>>> state.cards[scout].counters, state.cards[scout].power
({'+1/+1': 1}, 3)
"""

from __future__ import annotations

from typing import Sequence

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState, ObjectRef

KEYWORD = "Explore"
KIND = "keyword action"
JAPANESE = ("探検", "探検を行う")
SUBRULES = ("a", "b", "c", "d")
SUMMARY = ("Reveal the top card: a land goes to hand; otherwise a +1/+1 counter on the explorer (if it's still "
           "there) and the card may go to the graveyard.")
OUT_OF_REACH: dict[str, str] = {}
"""Every lettered subrule is implemented."""


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.44{letter}")


def _controller(state: GameState, permanent: ObjectRef) -> str:
    """The current controller, or the last one if the permanent has left (701.44c)."""
    if state.is_current(permanent) and state.zone_of(permanent.card) is state.battlefield:
        return state.controller_of(permanent.card)
    known = state.last_known.get(permanent.card)
    if known is None:
        raise ValueError(f"{state.cards[permanent.card]!r} was never on the battlefield, so it can't explore")
    return known.controller


def _explore_one(state: GameState, permanent: ObjectRef, choose: Chooser) -> None:
    player = _controller(state, permanent)
    on_battlefield = state.is_current(permanent) and state.zone_of(permanent.card) is state.battlefield
    name = state.cards[permanent.card].display_name
    library = state.player(player).library
    top = library.cards[0] if library.cards else None
    if top is None:
        state.emit(EventKind.REVEAL, player, source=library.label,
                   detail="the library is empty: no card is revealed, so no land card is", citation=cite("a"))
    else:
        state.emit(EventKind.REVEAL, player, (top,), source=library.label, citation=cite("a"))
    if top is not None and state.cards[top].is_land:
        state.move(top, state.player(player).hand)
        state.emit(EventKind.MOVE, player, (top,), source=library.label, destination=state.player(player).hand.label,
                   detail="a land card: into the hand", citation=cite("a"))
    else:
        if on_battlefield:
            state.add_counters(permanent.card, "+1/+1", 1)
            state.emit(EventKind.COUNTER, player, (permanent.card,), detail="+1/+1 counter", citation=cite("a"))
        else:
            state.emit(EventKind.NOTHING, player, names=(name,),
                       detail="it has left the battlefield: no +1/+1 counter is put on anything", citation=cite("c"))
        if top is not None:
            top_name = state.cards[top].display_name
            answer = decide(state, Decision.of(player, f"put {top_name} into your graveyard?", cite("a"), [
                Option(f"put {top_name} into graveyard", True),
                Option(f"leave {top_name} on top", False),
            ]), choose)
            if answer.value:
                state.move(top, state.player(player).graveyard)
                state.emit(EventKind.MOVE, player, (top,), source=library.label,
                           destination=state.player(player).graveyard.label, citation=cite("a"))
    state.emit(EventKind.EXPLORE, player, (permanent.card,), names=(name,),
               detail=f"{name} has explored" + ("" if on_battlefield else " (last known information)"),
               citation=cite("b"))


def explore(state: GameState, permanents: ObjectRef | Sequence[ObjectRef], *, choose: Chooser = first_legal) -> None:
    """Each of ``permanents`` explores (several at once: in the order of 701.44d)."""
    remaining = [permanents] if isinstance(permanents, ObjectRef) else list(permanents)
    with state.action("explore"):
        while remaining:
            if len(remaining) == 1:
                _explore_one(state, remaining.pop(), choose)
                continue
            for p in state.apnap():                                      # 701.44d
                mine = [r for r in remaining if _controller(state, r) == p.name]
                if mine:
                    answer = decide(state, Decision.of(p.name, "which permanent explores next", cite("d"), [
                        Option(f"{state.cards[r.card].display_name} explores", r) for r in mine]), choose)
                    remaining.remove(answer.value)
                    _explore_one(state, answer.value, choose)
                    break
