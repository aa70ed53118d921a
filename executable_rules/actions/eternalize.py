"""Eternalize — CR 702.129 (702.129a)

Eternalize is an activated ability that functions while its card is in a graveyard: "Eternalize [cost]" means
"[Cost], Exile this card from your graveyard: Create a token that's a copy of this card, except it's black, it's
4/4, it has no mana cost, and it's a Zombie in addition to its other types. Activate only as a sorcery"
(Eternalize — CR 702.129a). The token copies the card's copiable values with those exceptions
(Copying Objects — CR 707.9b), and it is a token (Tokens — CR 111.1): its own enters abilities trigger as it enters.

:func:`eternalize` activates it: sorcery timing is checked (Timing and Priority — CR 117.1a), the mana is paid and
the card exiled as costs (Activating Activated Abilities — CR 602.2b), and the ability resolves at once — the model
doesn't put it on the stack, where in a scenario nothing would respond to it. It is reached by its own step
(``do = "eternalize"``) and by ``do = "activate"`` with ``ability = "Eternalize"`` (:data:`ACTIVATE`), as XMage's
``activateAbility(…, "Eternalize")`` names it.

>>> from executable_rules.model import OracleCard
>>> wits = OracleCard.simple("Champion of Wits", "{2}{U}", "Creature", subtypes=("Naga", "Wizard"),
...                          power="2", toughness="1", text="Eternalize {5}{U}{U}")
>>> copy = eternalized(wits)
>>> copy.main.power, copy.main.toughness, copy.main.mana_cost, copy.main.subtypes, sorted(copy.colors), copy.is_token
('4', '4', None, ('Naga', 'Wizard', 'Zombie'), ['B'], True)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, OracleCard, ZoneKind

KEYWORD = "Eternalize"
KIND = "keyword ability"
JAPANESE = ("永遠",)
SUBRULES = ("a",)
SUMMARY = "From the graveyard, as a sorcery: pay the cost, exile the card, create a 4/4 black Zombie token copy of it."
OUT_OF_REACH: dict[str, str] = {}
STEP_KEYS = {"player", "card"}
"""``do = "eternalize"``: activate the eternalize ability of ``card`` in the player's graveyard."""


def eternalize_cost(oracle: OracleCard) -> ManaCost | None:
    """The card's "Eternalize [mana cost]"; None without one."""
    argument = oracle.parsed.keyword_argument(KEYWORD)
    try:
        return ManaCost.parse(argument) if argument and argument.startswith("{") else None
    except ValueError:
        return None


def eternalized(oracle: OracleCard) -> OracleCard:
    """The token's copiable values: the card's, except black, 4/4, no mana cost, and a Zombie too (702.129a)."""
    face = oracle.main
    subtypes = face.subtypes if "Zombie" in face.subtypes else (*face.subtypes, "Zombie")
    token_face = dataclasses.replace(face, mana_cost=None, power="4", toughness="4", subtypes=subtypes)
    return dataclasses.replace(oracle, faces=(token_face,), color_indicator=frozenset({"B"}), is_token=True)


def eternalize(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> int:
    """``player`` activates ``card``'s eternalize ability; return the token."""
    from ..engine.mana import pay_mana
    from .exile import exile
    c = state.cards[card]
    name = c.oracle.name
    cost = eternalize_cost(c.oracle)
    if cost is None:
        raise IllegalChoice(f"eternalize {name}", f"{name} has no eternalize cost in mana", Citation(KEYWORD, "702.129a"))
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"eternalize {name}", f"eternalize works only from its owner's graveyard; {name} is in "
                            f"{state.zone_of(card).label}", Citation(KEYWORD, "702.129a"))
    if state.stack.cards or state.active != player or "main" not in state.step:
        raise IllegalChoice(f"eternalize {name}", "activate only as a sorcery: in its controller's main phase with "
                            "an empty stack", Citation("Timing and Priority", "117.1a"))
    with state.action(f"eternalize {name}"):
        pay_mana(state, player, cost, choose, f"{name}'s eternalize ability")
        exile(state, player, card, detail="exiled from the graveyard: a cost of eternalize")
        token = state.add_card(eternalized(c.oracle), player, ZoneKind.BATTLEFIELD)
        state.emit(EventKind.CREATE, player, (token,), names=(name,), destination="battlefield",
                   detail="a token that's a copy of it, except it's a 4/4 black Zombie with no mana cost",
                   citation=Citation(KEYWORD, "702.129a"))
        state.emit(EventKind.MOVE, player, (token,), names=(name,), destination="battlefield",
                   detail="a token enters", citation=Citation("Tokens", "111.1"))
    return token


def activate_keyword(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``do = "activate"`` with ``ability = "Eternalize"``: the same as :func:`eternalize`."""
    eternalize(state, player, card, choose=choose)


ACTIVATE = activate_keyword
"""How the engine's activate path reaches this keyword's ability (it has no Oracle text the grammar reads)."""


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "eternalize", card = "Champion of Wits" }``."""
    eternalize(run.state, player, run.card(step["card"], zone=f"{player}.graveyard"), choose=choose)
