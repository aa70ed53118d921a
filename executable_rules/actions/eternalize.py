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

from typing import Any

from ..choices import Chooser, first_legal
from ..model import GameState, ManaCost, OracleCard
from ._graveyard_token_copy import (
    activate_from_graveyard,
    keyword_mana_cost,
    zombie_token_copy,
)

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
    return keyword_mana_cost(oracle, KEYWORD)


def eternalized(oracle: OracleCard) -> OracleCard:
    """The token's copiable values: the card's, except black, 4/4, no mana cost, and a Zombie too (702.129a)."""
    return zombie_token_copy(oracle, "B", power="4", toughness="4")


def eternalize(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> int:
    """``player`` activates ``card``'s eternalize ability; return the token."""
    return activate_from_graveyard(
        state, player, card, keyword=KEYWORD, rule="702.129a", token_copy=eternalized, choose=choose,
        created="a token that's a copy of it, except it's a 4/4 black Zombie with no mana cost", created_rule="702.129a")


def activate_keyword(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``do = "activate"`` with ``ability = "Eternalize"``: the same as :func:`eternalize`."""
    eternalize(state, player, card, choose=choose)


ACTIVATE = activate_keyword
"""How the engine's activate path reaches this keyword's ability (it has no Oracle text the grammar reads)."""


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "eternalize", card = "Champion of Wits" }``."""
    eternalize(run.state, player, run.card(step["card"], zone=f"{player}.graveyard"), choose=choose)
