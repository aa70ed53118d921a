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

from ..model import OracleCard
from ..oracle import Ability
from ..oracle.parser import parse_line

WRITTEN_OUT = 1000
"""A written-out ability's line is ``WRITTEN_OUT × keyword line + place``: no printed card has 1000 lines."""


@functools.lru_cache(maxsize=1)
def meanings() -> dict[str, str]:
    """``{keyword title: MEANS}`` of every action module that writes its keyword out."""
    from ..actions import ACTIONS
    return {m.KEYWORD: m.MEANS for m in ACTIONS if isinstance(getattr(m, "MEANS", None), str)}


@functools.lru_cache(maxsize=8192)
def _written_out(name: str, text: str) -> tuple[Ability, ...]:
    from ..oracle import parse_card
    found: list[Ability] = []
    means = meanings()
    for ability in parse_card(name, text).abilities:
        for place, (title, argument) in enumerate(ability.keywords, 1):
            if title not in means:
                continue
            line = means[title].format(cost=argument, n=argument)
            found.append(parse_line(line, name, WRITTEN_OUT * ability.line + place))
    return tuple(found)


def abilities_of(oracle: OracleCard) -> tuple[Ability, ...]:
    """The card's printed abilities, then the written-out ability of each keyword that stands for one."""
    return oracle.parsed.abilities + _written_out(oracle.name, oracle.text)


def keyword_of(ability: Ability) -> int | None:
    """The printed keyword line a written-out ability comes from (None for a printed ability)."""
    return ability.line // WRITTEN_OUT if ability.line >= WRITTEN_OUT else None
