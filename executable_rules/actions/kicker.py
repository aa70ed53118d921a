"""Kicker — CR 702.33 (702.33a–f)

"Kicker [cost]" means "You may pay an additional [cost] as you cast this spell"
(Kicker — CR 702.33a): the player announces it (Casting Spells — CR 601.2b) and
the total cost is the mana cost plus the kicker cost (601.2f); paying it makes
the spell "kicked" (702.33d). "Kicker [A] and/or [B]" is two kicker costs,
either or both of which may be paid (702.33b); "Multikicker [cost]" may be paid
any number of times, and the spell is kicked that many times (702.33c, 702.33d).
The card's "if it was kicked" abilities are linked to its kicker (702.33e): a
permanent spell that resolves remembers it, so "When this creature enters, if it
was kicked, …" and "If this creature was kicked, it enters with …" see it; with
two kicker costs, "if it was kicked with its [A] kicker" asks about that cost
(702.33f). Cast without paying its mana cost, a spell's kicker may still be paid
(601.2f).

>>> from executable_rules.model import OracleCard
>>> hawks = OracleCard.simple("Apex Hawks", "{2}{W}", "Creature", text="Multikicker {1}{W}\\nFlying")
>>> [(str(c), multi) for c, multi in kicker_costs(hawks.main)]
[('{1}{W}', True)]
>>> mage = OracleCard.simple("Sunscape Battlemage", "{2}{W}", "Creature", text="Kicker {1}{G} and/or {2}{U}")
>>> [str(c) for c, _ in kicker_costs(mage.main)]
['{1}{G}', '{2}{U}']
"""

from __future__ import annotations

import re

from ..choices import Chooser, Decision, Option, decide
from ..citation import Citation
from ..model import Face, GameState, ManaCost

KEYWORD = "Kicker"
KIND = "keyword ability"
JAPANESE = ("キッカー",)
SUBRULES = ("a", "b", "c", "d", "e", "f")
SUMMARY = "An additional cost that may be paid as the spell is cast; its other abilities ask whether it was kicked."
OUT_OF_REACH = {
    "g": "a kicked-only part of a spell with its own targets (\"if this spell was kicked, it also deals 2 damage to "
         "target …\") needs conditional spell text, which the grammar doesn't read",
    "h": "sticker kicker (tickets and stickers, Unfinity) is outside the model",
}
MULTIKICK_LIMIT = 10
"""How many times a scripted or explored multikicker may be paid at most (enough for any real mana pool here)."""

_LINE = re.compile(r"^(multikicker|kicker) ((?:\{[^}]+\})+)(?: and/or ((?:\{[^}]+\})+))?", re.IGNORECASE)


def kicker_costs(face: Face) -> list[tuple[ManaCost, bool]]:
    """The face's kicker costs in printed order, each with whether it is multikicker (702.33b, 702.33c)."""
    found = []
    for line in face.text.split("\n"):
        m = _LINE.match(line.strip())
        if m:
            multi = m.group(1).lower() == "multikicker"
            found += [(ManaCost.parse(cost), multi) for cost in m.groups()[1:] if cost]
    return found


def kicker(state: GameState, player: str, face: Face, choose: Chooser) -> tuple[str, ...]:
    """Announce which kicker costs ``player`` pays for ``face`` (601.2b); return them in order, a multikicker
    cost once per time it is paid. The engine adds them to the total cost (601.2f)."""
    paid: list[str] = []
    for cost, multi in kicker_costs(face):
        word = "multikicker" if multi else "kicker"
        for times in range(MULTIKICK_LIMIT if multi else 1):
            again = f" (paid {times} time{'s' if times != 1 else ''} so far)" if multi else ""
            answer = decide(state, Decision.of(player, f"pay {word} {cost}?{again}",
                                               Citation(KEYWORD, "702.33c" if multi else "702.33a"),
                                               [Option(f"pay {word} {cost}", True), Option(f"don't pay {word} {cost}", False)]),
                            choose)
            if not answer.value:
                break
            paid.append(str(cost))
    return tuple(paid)


def total(kicks: tuple[str, ...]) -> ManaCost | None:
    """The kicker costs paid, as one cost to add to the spell's (601.2f)."""
    costs = [ManaCost.parse(k) for k in kicks]
    if not costs:
        return None
    combined = costs[0]
    for cost in costs[1:]:
        combined = combined + cost
    return combined


def was_kicked(state: GameState, card: int, cost: str | None = None) -> bool:
    """Whether the permanent ``card`` came from a kicked spell (702.33d) — with its ``cost`` kicker, if given (702.33f)."""
    key = (card, state.incarnation.get(card, 0))
    if cost is None:
        return key in state.kicked
    return any(c == str(ManaCost.parse(cost)) for k, c in state.kicked_with.get(key, ()) if k)


def times_kicked(state: GameState, card: int) -> int:
    """How many times the permanent's spell was kicked (702.33d: multikicker may kick it several times)."""
    return len(state.kicked_with.get((card, state.incarnation.get(card, 0)), ()))
