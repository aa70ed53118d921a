"""Flashback — CR 702.34 (702.34a)

Flashback appears on instants and sorceries and is two static abilities:
"You may cast this card from your graveyard if the resulting spell is an instant
or sorcery spell by paying [cost] rather than paying its mana cost", and "If the
flashback cost was paid, exile this card instead of putting it anywhere else any
time it would leave the stack" (Flashback — CR 702.34a). The flashback cost is
an alternative cost (Casting Spells — CR 601.2b, 601.2f–h): the spell's mana
cost and mana value don't change, its timing doesn't either (a sorcery is still
cast only in its controller's main phase with the stack empty), and kicker may
be paid on top. Resolved, countered or fizzled, the spell is exiled.

:func:`flashback` casts a card from its owner's graveyard that way;
:func:`flashback_replacement` is the engine's move replacement that exiles it.

>>> from executable_rules.model import OracleCard
>>> str(flashback_cost(OracleCard.simple("Think Twice", "{1}{U}", "Instant", text="Draw a card.\\nFlashback {2}{U}").main))
'{2}{U}'
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState, ManaCost, Spell, Zone, ZoneKind

KEYWORD = "Flashback"
KIND = "keyword ability"
JAPANESE = ("フラッシュバック",)
SUBRULES = ("a",)
SUMMARY = "Cast the instant or sorcery from your graveyard for its flashback cost; then it is exiled."
OUT_OF_REACH: dict[str, str] = {}
STEP_KEYS = {"player", "card", "targets"}
"""The keys of the scenario step ``do = "flashback"`` (``targets`` as for ``cast_spell``)."""

_COST = re.compile(r"^flashback ((?:\{[^}]+\})+)\s*(?:\(|$)", re.IGNORECASE)


def flashback_cost(face: Face) -> ManaCost | None:
    """The mana flashback cost printed on the face (``Flashback {2}{U}``); None without one, or for a cost that
    isn't only mana (``Flashback—{1}{U}, Pay 3 life``, which the model doesn't pay)."""
    for line in face.text.split("\n"):
        m = _COST.match(line.strip())
        if m:
            return ManaCost.parse(m.group(1))
    return None


def flashback(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` from their graveyard, paying its flashback cost rather than its mana cost."""
    from ..engine.stack import cast_spell
    c = state.cards[card]
    cost = flashback_cost(c.oracle.main)
    name = c.oracle.name
    if cost is None:
        raise IllegalChoice(f"flashback {name}", f"{name} has no flashback cost in mana", Citation(KEYWORD, "702.34a"))
    if state.zone_of(card) is not state.player(player).graveyard:
        raise IllegalChoice(f"flashback {name}", f"{name} is in {state.zone_of(card).label}, not "
                            f"{state.player(player).graveyard.label}", Citation(KEYWORD, "702.34a"))
    if not c.oracle.types & {"Instant", "Sorcery"}:
        raise IllegalChoice(f"flashback {name}", "the resulting spell must be an instant or sorcery spell",
                            Citation(KEYWORD, "702.34a"))
    spell = cast_spell(state, player, card, instead=cost, instead_name="flashback", choose=choose)
    state.append(state.flashback_cast, (card, state.incarnation.get(card, 0)))
    state.emit(EventKind.NOTHING, player, (card,), detail=f"cast with flashback: its flashback cost {cost} paid "
               f"rather than its mana cost; it will be exiled as it leaves the stack", citation=Citation(KEYWORD, "702.34a"))
    return spell


def flashback_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If the flashback cost was paid, exile this card instead of putting it anywhere else any time it would leave
    the stack" (702.34a)."""
    if to.kind is ZoneKind.EXILE or state.zone_of(card) is not state.stack:
        return None
    if (card, state.incarnation.get(card, 0)) not in state.flashback_cast:
        return None
    name = state.cards[card].oracle.name

    def note() -> None:
        state.emit(EventKind.EXILE, state.cards[card].owner, (card,), names=(name,), source="stack",
                   destination="exile", detail=f"its flashback cost was paid: exiled instead of going to {to.label}",
                   citation=Citation(KEYWORD, "702.34a"))

    return state.exile, note


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "flashback", card = "Think Twice", targets = [...] }``."""
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    flashback(run.state, player, run.card(step["card"]), choose=choose)
