"""Embalm — CR 702.128 (702.128a, 702.128b)

Embalm is an activated ability that functions while its card is in a graveyard: "Embalm [cost]" means
"[Cost], Exile this card from your graveyard: Create a token that's a copy of this card, except it's white, it has no
mana cost, and it's a Zombie in addition to its other types. Activate only as a sorcery."
Embalm — CR 702.128a
A token is "embalmed" if it's created by a resolving embalm ability: the model marks it with the designation
"embalmed" (:mod:`executable_rules.designations`; ``designations = { "Sacred Cat" = ["embalmed"] }``).
Embalm — CR 702.128b

The token copies the card's copiable values with those exceptions (Copying Objects — CR 707.9b) and keeps its
power and toughness (unlike eternalize's 4/4); it is a token (Tokens — CR 111.1), so its own enters abilities trigger
as it enters. :func:`embalm` activates it: sorcery timing is checked (Timing and Priority — CR 117.1a), the mana is
paid and the card exiled as costs (Activating Activated Abilities — CR 602.2b), and the ability resolves at once —
the model doesn't put it on the stack, where in a scenario nothing would respond to it. It is reached by its own
step (``do = "embalm"``) and by ``do = "activate"`` with ``ability = "Embalm"`` (:data:`ACTIVATE`), as XMage's
``activateAbility(…, "Embalm")`` names it.

>>> from executable_rules.model import OracleCard
>>> cat = OracleCard.simple("Sacred Cat", "{W}", "Creature", subtypes=("Cat",), power="1", toughness="1",
...                         text="Lifelink\\nEmbalm {W}")
>>> str(embalm_cost(cat))
'{W}'
>>> copy = embalmed(cat)
>>> copy.main.power, copy.main.toughness, copy.main.mana_cost, copy.main.subtypes, sorted(copy.colors), copy.is_token
('1', '1', None, ('Cat', 'Zombie'), ['W'], True)
"""

from __future__ import annotations

from typing import Any

from ..choices import Chooser, first_legal
from ..designations import designate, has_designation
from ..model import GameState, ManaCost, OracleCard
from ._graveyard_token_copy import (
    activate_from_graveyard,
    keyword_mana_cost,
    zombie_token_copy,
)

KEYWORD = "Embalm"
KIND = "keyword ability"
JAPANESE = ("不朽",)
SUBRULES = ("a", "b")
SUMMARY = "From the graveyard, as a sorcery: pay the cost, exile the card, create a white Zombie token copy of it."
OUT_OF_REACH: dict[str, str] = {}
STEP_KEYS = {"player", "card"}
"""``do = "embalm"``: activate the embalm ability of ``card`` in the player's graveyard."""
EMBALMED = "embalmed"
"""The designation of a token created by a resolving embalm ability (702.128b)."""


def embalm_cost(oracle: OracleCard) -> ManaCost | None:
    """The card's "Embalm [mana cost]"; None without one."""
    return keyword_mana_cost(oracle, KEYWORD)


def embalmed(oracle: OracleCard) -> OracleCard:
    """The token's copiable values: the card's, except white, no mana cost, and a Zombie too (702.128a)."""
    return zombie_token_copy(oracle, "W")


def is_embalmed(state: GameState, permanent: int) -> bool:
    """Whether the permanent is a token created by a resolving embalm ability (702.128b)."""
    return has_designation(state, permanent, EMBALMED)


def embalm(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> int:
    """``player`` activates ``card``'s embalm ability; return the token."""
    return activate_from_graveyard(
        state, player, card, keyword=KEYWORD, rule="702.128a", token_copy=embalmed, choose=choose,
        created="an embalmed token that's a copy of it, except it's a white Zombie with no mana cost",
        created_rule="702.128b", on_create=lambda token: designate(state, token, EMBALMED))


def activate_keyword(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``do = "activate"`` with ``ability = "Embalm"``: the same as :func:`embalm`."""
    embalm(state, player, card, choose=choose)


ACTIVATE = activate_keyword
"""How the engine's activate path reaches this keyword's ability (it has no Oracle text the grammar reads)."""


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "embalm", card = "Sacred Cat" }``."""
    embalm(run.state, player, run.card(step["card"], zone=f"{player}.graveyard"), choose=choose)
