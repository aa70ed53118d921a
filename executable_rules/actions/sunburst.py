"""Sunburst — CR 702.44 (702.44a–c)

Sunburst is a static ability that works as its object enters the battlefield:
if it enters as a creature (type-changing effects ignored), it enters with a
+1/+1 counter for each colour of mana spent to cast it; otherwise with a
charge counter for each (Sunburst — CR 702.44a). It adds counters only if the
object enters from the stack as a resolving spell, and only for coloured mana
spent on its costs, additional and alternative costs included (702.44b):
colourless mana is no colour, and a permanent put onto the battlefield
otherwise gets none. Sunburst may also set the number of another ability, as
in "Modular—Sunburst" (702.44c): that number is the count of colours spent,
on a creature or noncreature spell alike (see :mod:`.modular`).

The mana spent is what :func:`~executable_rules.engine.mana.pay_mana` paid for
the spell (its ``spent`` record); :func:`entering_counters` is asked by
:func:`~executable_rules.engine.replacement.enter_battlefield`.

>>> sunburst(("W", "U", "U", "C"))
2
>>> sunburst(None)
0
"""

from __future__ import annotations

from typing import Any

from ..citation import Citation
from ..model import GameState

KEYWORD = "Sunburst"
KIND = "keyword ability"
JAPANESE = ("烈日",)
SUBRULES = ("a", "b", "c")
SUMMARY = "It enters with a +1/+1 counter (a charge counter if it isn't a creature) for each colour of mana spent to cast it."
OUT_OF_REACH = {
    "d": "no card in the corpus has sunburst twice and the model grants no sunburst, so several instances never meet",
}
"""Subrules the model doesn't run, each with the reason (the coverage test reads it)."""


def sunburst(spent: tuple[str, ...] | None) -> int:
    """The number of colours among the mana ``spent`` to cast it; 0 when it wasn't cast (702.44b)."""
    return len({m for m in spent or () if m in "WUBRG"})


def entering_counters(state: GameState, card: int, spent: tuple[str, ...] | None) -> list[tuple[str, int, str]]:
    """(counter kind, number, note) for a permanent with sunburst entering the battlefield (702.44a–b)."""
    oracle = state.cards[card].oracle
    if not oracle.parsed.has_keyword(KEYWORD):
        return []
    kind = "+1/+1" if "Creature" in oracle.types else "charge"
    n = sunburst(spent)
    why = ("it didn't enter as a resolving spell" if spent is None else
           f"{n} colour(s) of mana spent to cast it")
    return [(kind, n, f"sunburst: {n} {kind} counter(s), {why} ({Citation(KEYWORD, '702.44b' if spent is None else '702.44a')})")]


def counter_kinds(state: GameState, player: str | None, expected: Any) -> Any:
    """``counter_kinds = { "Engineered Explosives" = { charge = 2 } }``: the counters of each kind asked about."""
    found: dict[str, dict[str, int]] = {}
    for name, kinds in expected.items():
        cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
        counters = state.cards[cards[0]].counters if cards else {}
        found[name] = {k: counters.get(k, 0) for k in kinds}
    return found


EXPECT = {"counter_kinds": counter_kinds}
