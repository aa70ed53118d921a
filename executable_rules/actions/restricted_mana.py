"""Mana — CR 106 (106.6): mana that can be spent only on some things

"Some spells or abilities that produce mana restrict how that mana can be spent" (Mana — CR 106.6): Eldrazi
Temple's "{T}: Add {C}{C}. Spend this mana only to cast colorless Eldrazi spells or activate abilities of colorless
Eldrazi", Pillar of the Paruns' "… only to cast a multicolored spell", Altar of the Lost's "… only to cast spells
with flashback from a graveyard". The grammar reads the sentence after a mana ability's "Add …" (``spend_only``);
paying a cost (:func:`~executable_rules.engine.mana.pay_mana`) taps a source for such mana only when what the
mana is spent on — the spell being cast, with its characteristics on the stack, or the activated ability and its
source — is what the sentence allows. A description the model doesn't judge ("a creature spell of the chosen
type", "costs that contain {X}") is never taken as allowed: a cost that only such mana could pay stops with
``needs what the engine can't do yet``. The model's pool keeps no restricted mana: a payment that would leave
some of it unspent stops the same way.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you"])
>>> bolt = state.add_card(OracleCard.simple("Lightning Bolt", "{R}", "Instant"), "you", ZoneKind.STACK)
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature"), "you", ZoneKind.STACK)
>>> only = "spend this mana only to cast instant or sorcery spells"
>>> restricted_mana(state, only, Spending("spell", bolt)), restricted_mana(state, only, Spending("spell", bears))
(True, False)
>>> restricted_mana(state, "spend this mana only to cast a creature spell of the chosen type", Spending("spell", bears))
"""

from __future__ import annotations

from ..engine.mana import Spending, spend_allowed
from ..model import GameState

KEYWORD = "Mana"
KIND = "rule"
JAPANESE = ("マナ",)
SUBRULES = ("6",)
SUMMARY = "Mana that can be spent only on some spells or abilities pays only for those."
OUT_OF_REACH = {
    "6a": "no replacement effect of the model increases the mana an ability produces (Doubling Cube, Mana Reflection "
          "aren't read), so there is no extra restricted mana to set up",
}

__all__ = ["KEYWORD", "Spending", "restricted_mana"]


def restricted_mana(state: GameState, restriction: str, spending: Spending | None) -> bool | None:
    """Whether mana with ``restriction`` may be spent on ``spending`` (Mana — CR 106.6); ``None`` when the model
    doesn't judge the description (it is then never spent)."""
    return spend_allowed(state, restriction, spending)
