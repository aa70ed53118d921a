"""Buyback — CR 702.27 (702.27a)

Buyback appears on some instants and sorceries and is two static abilities that
work while the spell is on the stack: "Buyback [cost]" means "You may pay an
additional [cost] as you cast this spell" and "If the buyback cost was paid, put
this spell into its owner's hand instead of into that player's graveyard as it
resolves" (Buyback — CR 702.27a). Paying it follows the rules for additional
costs (Casting Spells — CR 601.2b, 601.2f–h): it is announced as the spell is
cast and added to the total cost. The card comes back only *as the spell
resolves*: a spell that is countered, or doesn't resolve because its targets
are illegal (Resolving Spells and Abilities — CR 608.2b), goes to the graveyard.

:func:`buyback` is what the engine asks as a spell is cast;
:func:`buyback_replacement` is the engine's move replacement that sends a
resolving spell whose buyback was paid to its owner's hand.

>>> from executable_rules.model import OracleCard
>>> str(buyback_cost(OracleCard.simple("Capsize", "{1}{U}{U}", "Instant",
...                                    text="Buyback {3}\\nReturn target permanent to its owner's hand.").main))
'{3}'
>>> buyback_cost(OracleCard.simple("Shock", "{R}", "Instant", text="Shock deals 2 damage to any target.").main) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import EventKind, Face, GameState, ManaCost, Zone, ZoneKind

KEYWORD = "Buyback"
KIND = "keyword ability"
JAPANESE = ("バイバック",)
SUBRULES = ("a",)
SUMMARY = "An additional cost paid as the spell is cast: if it was paid, the spell returns to its owner's hand as it resolves."
OUT_OF_REACH: dict[str, str] = {}
"""The one lettered subrule of buyback (702.27a) is implemented (mana buyback costs; "Buyback—[non-mana cost]"
lines such as Forbid's "Discard two cards" aren't offered: see :func:`buyback_cost`)."""

DESIGNATION = "buyback paid"
"""The mark a spell on the stack gets when its buyback cost is paid (it ends when the card leaves the stack, 400.7)."""

_LINE = re.compile(r"^buyback ((?:\{[^}]+\})+)\s*(?:\(|$)", re.IGNORECASE)


def buyback_cost(face: Face) -> ManaCost | None:
    """The face's mana buyback cost ("Buyback {4}"); None without one (a "Buyback—Discard two cards" line isn't read)."""
    for line in face.text.split("\n"):
        m = _LINE.match(line.strip())
        if m:
            return ManaCost.parse(m.group(1))
    return None


def buyback(state: GameState, player: str, card: int, face: Face, choose: Chooser) -> ManaCost | None:
    """Ask ``player`` whether they pay the buyback cost of the spell ``card`` (601.2b); return it if they do.

    The engine adds it to the total cost (601.2f) and the spell is marked, for :func:`buyback_replacement`."""
    cost = buyback_cost(face)
    if cost is None:
        return None
    answer = decide(state, Decision.of(player, f"pay buyback {cost}?", Citation(KEYWORD, "702.27a"),
                                       [Option(f"pay buyback {cost}", True), Option(f"don't pay buyback {cost}", False)]),
                    choose)
    if not answer.value:
        return None
    state.designate(card, DESIGNATION)
    state.emit(EventKind.NOTHING, player, (card,), detail=f"buyback {cost} announced: an additional cost",
               citation=Citation(KEYWORD, "702.27a"))
    return cost


def buyback_paid(state: GameState, card: int) -> bool:
    """Whether the spell ``card`` on the stack had its buyback cost paid (702.27a)."""
    return state.zone_of(card) is state.stack and state.has_designation(card, DESIGNATION)


def _resolving(state: GameState, card: int) -> bool:
    """Whether the spell ``card`` is resolving: its last cast/resolve event is that it resolves (608.2), not that it
    was cast (then it is being countered or otherwise removed) or that it didn't resolve (608.2b)."""
    kinds = (EventKind.CAST, EventKind.RESOLVE, EventKind.NOT_RESOLVED)
    last = next((e for e in reversed(state.events) if e.kind in kinds and card in e.cards), None)
    return last is not None and last.kind is EventKind.RESOLVE


def buyback_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If the buyback cost was paid, put this spell into its owner's hand instead of into that player's graveyard as
    it resolves" (702.27a): only while it resolves — countered or fizzled, it goes to the graveyard."""
    if to.kind is not ZoneKind.GRAVEYARD or not buyback_paid(state, card):
        return None
    if not _resolving(state, card):
        return None          # leaving the stack otherwise than by resolving (countered, 608.2b): no buyback
    c = state.cards[card]
    hand = state.player(c.owner).hand

    def note() -> None:
        state.emit(EventKind.MOVE, c.owner, (card,), names=(c.oracle.name,), source="stack", destination=hand.label,
                   detail="its buyback cost was paid: put into its owner's hand instead of the graveyard as it resolves",
                   citation=Citation(KEYWORD, "702.27a"))

    return hand, note
