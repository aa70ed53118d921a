"""Keyword abilities that stand for a triggered or activated ability, written out as their rule defines them.

Many keyword abilities (Keyword Abilities — CR 702) are defined as another ability in words: "Prowess"
means "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn"
(Prowess — CR 702.108a); "Cycling [cost]" means "[Cost], Discard this card: Draw a card"
(Cycling — CR 702.29a). The keyword's module in :mod:`executable_rules.actions` states that meaning as
``MEANS`` (with ``{cost}`` or ``{n}`` for the keyword's argument); :func:`abilities_of` gives a card's
printed abilities followed by the written-out ability of each such keyword it has, read by the same grammar
as any Oracle line, so the engine triggers, activates and resolves it as it would the printed text.

Each instance of a keyword is its own ability (so two instances of prowess trigger separately,
Prowess — CR 702.108b): a written-out ability's ``line`` is ``1000 × the keyword line + its place``.

>>> from executable_rules.model import OracleCard
>>> monk = OracleCard.simple("Jeskai Student", "{1}{W}", "Creature", text="Prowess", power="1", toughness="3")
>>> [(a.kind, a.trigger, a.line) for a in abilities_of(monk)]
[('keyword', None, 1), ('triggered', 'cast', 1001)]
"""

from __future__ import annotations

import functools
from typing import Callable

from ..model import OracleCard, ZoneKind
from ..oracle import Ability
from ..oracle.parser import parse_line

WRITTEN_OUT = 1000
"""A written-out ability's line is ``WRITTEN_OUT × keyword line + place``: no printed card has 1000 lines."""


@functools.lru_cache(maxsize=1)
def meanings() -> dict[str, Callable[[str], str]]:
    """``{keyword title: argument → ability text}`` of every action module that writes its keyword out: its
    ``written_out(argument)``, or its ``MEANS`` with ``{cost}``/``{n}`` filled in."""
    from ..actions import ACTIONS
    found: dict[str, Callable[[str], str]] = {}
    for m in ACTIONS:
        if callable(getattr(m, "written_out", None)):
            found[m.KEYWORD] = m.written_out
        elif isinstance(getattr(m, "MEANS", None), str):
            found[m.KEYWORD] = functools.partial(lambda means, argument: means.format(cost=argument, n=argument),
                                                 m.MEANS)
    return found


@functools.lru_cache(maxsize=1)
def active_zones() -> dict[str, ZoneKind]:
    """``{keyword title: the zone its written-out ability works in}`` (``ACTIVE_ZONE``: cycling's is the hand)."""
    from ..actions import ACTIONS
    return {m.KEYWORD: m.ACTIVE_ZONE for m in ACTIONS if isinstance(getattr(m, "ACTIVE_ZONE", None), ZoneKind)}


@functools.lru_cache(maxsize=1)
def activations() -> dict[str, Callable[..., None]]:
    """``{keyword title: activate(state, player, card, choose=…)}`` of every action module whose keyword's ability
    the grammar can't read written out (``ACTIVATE``: embalm), so ``activate`` with the keyword's name reaches it."""
    from ..actions import ACTIONS
    return {m.KEYWORD: m.ACTIVATE for m in ACTIONS if callable(getattr(m, "ACTIVATE", None))}


@functools.lru_cache(maxsize=8192)
def _written_out(name: str, text: str) -> tuple[Ability, ...]:
    from ..oracle import parse_card
    found: list[Ability] = []
    means = meanings()
    for ability in parse_card(name, text).abilities:
        for place, (title, argument) in enumerate(ability.keywords, 1):
            if title not in means:
                continue
            found.append(parse_line(means[title](argument), name, WRITTEN_OUT * ability.line + place))
    return tuple(found)


def abilities_of(oracle: OracleCard) -> tuple[Ability, ...]:
    """The card's printed abilities, then the written-out ability of each keyword that stands for one."""
    return oracle.parsed.abilities + _written_out(oracle.name, oracle.text)


def keyword_of(ability: Ability) -> int | None:
    """The printed keyword line a written-out ability comes from (None for a printed ability)."""
    return ability.line // WRITTEN_OUT if ability.line >= WRITTEN_OUT else None


def keyword_title(oracle: OracleCard, ability: Ability) -> str | None:
    """The 702 title of the keyword a written-out ability stands for (None for a printed ability)."""
    line = keyword_of(ability)
    if line is None:
        return None
    printed = next((a for a in oracle.parsed.abilities if a.line == line), None)
    place = ability.line - WRITTEN_OUT * line
    return printed.keywords[place - 1][0] if printed is not None and len(printed.keywords) >= place else None


def printed_text(oracle: OracleCard, ability: Ability) -> str:
    """The printed keyword line a written-out ability comes from ("cycling {3}{B}{B}"), or the ability's own text."""
    line = keyword_of(ability)
    printed = next((a for a in oracle.parsed.abilities if a.line == line), None) if line is not None else None
    return printed.text if printed is not None else ability.text
