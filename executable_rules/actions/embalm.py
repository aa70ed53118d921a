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

import dataclasses
from typing import Any

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..designations import designate, has_designation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, OracleCard, ZoneKind

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
    argument = oracle.parsed.keyword_argument(KEYWORD)
    try:
        return ManaCost.parse(argument) if argument and argument.startswith("{") else None
    except ValueError:
        return None


def embalmed(oracle: OracleCard) -> OracleCard:
    """The token's copiable values: the card's, except white, no mana cost, and a Zombie too (702.128a)."""
    face = oracle.main
    subtypes = face.subtypes if "Zombie" in face.subtypes else (*face.subtypes, "Zombie")
    token_face = dataclasses.replace(face, mana_cost=None, subtypes=subtypes)
    return dataclasses.replace(oracle, faces=(token_face,), color_indicator=frozenset({"W"}), is_token=True)


def is_embalmed(state: GameState, permanent: int) -> bool:
    """Whether the permanent is a token created by a resolving embalm ability (702.128b)."""
    return has_designation(state, permanent, EMBALMED)


def embalm(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> int:
    """``player`` activates ``card``'s embalm ability; return the token."""
    from ..engine.mana import pay_mana
    from .exile import exile
    c = state.cards[card]
    name = c.oracle.name
    cost = embalm_cost(c.oracle)
    if cost is None:
        raise IllegalChoice(f"embalm {name}", f"{name} has no embalm cost in mana", Citation(KEYWORD, "702.128a"))
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"embalm {name}", f"embalm works only from its owner's graveyard; {name} is in "
                            f"{state.zone_of(card).label}", Citation(KEYWORD, "702.128a"))
    if state.stack.cards or state.active != player or "main" not in state.step:
        raise IllegalChoice(f"embalm {name}", "activate only as a sorcery: in its controller's main phase with "
                            "an empty stack", Citation("Timing and Priority", "117.1a"))
    with state.action(f"embalm {name}"):
        pay_mana(state, player, cost, choose, f"{name}'s embalm ability")
        exile(state, player, card, detail="exiled from the graveyard: a cost of embalm")
        token = state.add_card(embalmed(c.oracle), player, ZoneKind.BATTLEFIELD)
        designate(state, token, EMBALMED)
        state.emit(EventKind.CREATE, player, (token,), names=(name,), destination="battlefield",
                   detail="an embalmed token that's a copy of it, except it's a white Zombie with no mana cost",
                   citation=Citation(KEYWORD, "702.128b"))
        state.emit(EventKind.MOVE, player, (token,), names=(name,), destination="battlefield",
                   detail="a token enters", citation=Citation("Tokens", "111.1"))
    return token


def activate_keyword(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> None:
    """``do = "activate"`` with ``ability = "Embalm"``: the same as :func:`embalm`."""
    embalm(state, player, card, choose=choose)


ACTIVATE = activate_keyword
"""How the engine's activate path reaches this keyword's ability (it has no Oracle text the grammar reads)."""


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "embalm", card = "Sacred Cat" }``."""
    embalm(run.state, player, run.card(step["card"], zone=f"{player}.graveyard"), choose=choose)
