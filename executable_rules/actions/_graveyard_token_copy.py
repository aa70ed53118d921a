"""What embalm and eternalize share: from the graveyard, as a sorcery, pay the mana and exile the card,
then create a Zombie token that's a copy of it with the keyword's exceptions.

Embalm — CR 702.128a
Eternalize — CR 702.129a

Not a keyword module itself (the leading underscore keeps it out of :func:`executable_rules.actions.find_action`).

>>> from executable_rules.model import OracleCard
>>> wits = OracleCard.simple("Champion of Wits", "{2}{U}", "Creature", subtypes=("Naga", "Wizard"),
...                          power="2", toughness="1", text="Eternalize {5}{U}{U}")
>>> str(keyword_mana_cost(wits, "Eternalize")), keyword_mana_cost(wits, "Embalm")
('{5}{U}{U}', None)
>>> copy = zombie_token_copy(wits, "W")
>>> copy.main.power, copy.main.mana_cost, copy.main.subtypes, sorted(copy.colors), copy.is_token
('2', None, ('Naga', 'Wizard', 'Zombie'), ['W'], True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..choices import Chooser
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, OracleCard, ZoneKind


def keyword_mana_cost(oracle: OracleCard, keyword: str) -> ManaCost | None:
    """The card's "[keyword] [mana cost]"; None without one."""
    argument = oracle.parsed.keyword_argument(keyword)
    try:
        return ManaCost.parse(argument) if argument and argument.startswith("{") else None
    except ValueError:
        return None


def zombie_token_copy(oracle: OracleCard, color: str, **face_changes: str) -> OracleCard:
    """The token's copiable values: the card's, except ``color``, no mana cost, a Zombie in addition to its other
    types, and ``face_changes`` (eternalize's 4/4)."""
    face = oracle.main
    subtypes = face.subtypes if "Zombie" in face.subtypes else (*face.subtypes, "Zombie")
    token_face = dataclasses.replace(face, mana_cost=None, subtypes=subtypes, **face_changes)  # type: ignore[arg-type]
    return dataclasses.replace(oracle, faces=(token_face,), color_indicator=frozenset({color}), is_token=True)


def activate_from_graveyard(state: GameState, player: str, card: int, *, keyword: str, rule: str,
                            token_copy: Callable[[OracleCard], OracleCard], created: str, created_rule: str,
                            choose: Chooser, on_create: Callable[[int], object] | None = None) -> int:
    """``player`` activates ``card``'s ``keyword`` ability (rule ``rule``); return the token.

    Sorcery timing is checked (Timing and Priority — CR 117.1a), the mana is paid and the card exiled as costs
    (Activating Activated Abilities — CR 602.2b), and the ability resolves at once: the model doesn't put it on
    the stack, where in a scenario nothing would respond to it.
    """
    from ..engine.mana import pay_mana
    from .exile import exile
    word = keyword.lower()
    c = state.cards[card]
    name = c.oracle.name
    cost = keyword_mana_cost(c.oracle, keyword)
    if cost is None:
        raise IllegalChoice(f"{word} {name}", f"{name} has no {word} cost in mana", Citation(keyword, rule))
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"{word} {name}", f"{word} works only from its owner's graveyard; {name} is in "
                            f"{state.zone_of(card).label}", Citation(keyword, rule))
    if state.stack.cards or state.active != player or "main" not in state.step:
        raise IllegalChoice(f"{word} {name}", "activate only as a sorcery: in its controller's main phase with "
                            "an empty stack", Citation("Timing and Priority", "117.1a"))
    with state.action(f"{word} {name}"):
        pay_mana(state, player, cost, choose, f"{name}'s {word} ability")
        exile(state, player, card, detail=f"exiled from the graveyard: a cost of {word}")
        token = state.add_card(token_copy(c.oracle), player, ZoneKind.BATTLEFIELD)
        if on_create is not None:
            on_create(token)
        state.emit(EventKind.CREATE, player, (token,), names=(name,), destination="battlefield",
                   detail=created, citation=Citation(keyword, created_rule))
        state.emit(EventKind.MOVE, player, (token,), names=(name,), destination="battlefield",
                   detail="a token enters", citation=Citation("Tokens", "111.1"))
    return token
