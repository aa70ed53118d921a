"""Escape — CR 702.138 (702.138a–c)

Escape works while its card is in a graveyard: "Escape [cost]" means "You may
cast this card from your graveyard by paying [cost] rather than paying its mana
cost" (Escape — CR 702.138a); the cost is usually mana and "exile N other cards
from your graveyard". It is an alternative cost (Casting Spells — CR 601.2b,
601.2f–h): timing doesn't change, and unlike flashback the card isn't exiled
afterwards — an instant or sorcery goes back to the graveyard and may escape
again. A spell cast this way, and the permanent it becomes, "escaped"
(702.138b); "[This permanent] escapes with [counters]" means "If this permanent
escaped, it enters with [those counters]" (702.138c).

>>> from executable_rules.model import OracleCard
>>> cost, n = escape_cost(OracleCard.simple("Fruit of Tizerus", "{B}", "Sorcery", text="Target player loses 2 life.\\n"
...                       "Escape—{3}{B}, Exile three other cards from your graveyard.").main)
>>> str(cost), n
('{3}{B}', 3)
"""

from __future__ import annotations

import re
from typing import Any

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState, ManaCost, Spell

KEYWORD = "Escape"
KIND = "keyword ability"
JAPANESE = ("脱出",)
SUBRULES = ("a", "b", "c")
SUMMARY = "Cast the card from your graveyard for its escape cost (mana and exiling other graveyard cards)."
OUT_OF_REACH = {
    "d": "\"escapes with [ability]\" isn't on a card the grammar reads (the corpus's escape cards escape with counters)",
}
STEP_KEYS = {"player", "card", "targets"}
"""The keys of the scenario step ``do = "escape"`` (the cards exiled are the scenario's decisions)."""

_COST = re.compile(r"^escape—((?:\{[^}]+\})+), exile (\w+) other cards? from your graveyard", re.IGNORECASE)
_WITH = re.compile(r"escapes with (\w+) ([+-]\d/[+-]\d) counters? on it", re.IGNORECASE)
READS_LINES = (re.compile(r"^~ escapes with (\w+) ([+-]\d/[+-]\d) counters? on it\.$", re.IGNORECASE),)
"""Lines this module applies by reading their text (the grammar has no template): a run doesn't report them unread."""
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def escape_cost(face: Face) -> tuple[ManaCost, int] | None:
    """(mana, how many other cards to exile) of the face's "Escape—[mana], Exile N other cards from your graveyard"."""
    for line in face.text.split("\n"):
        m = _COST.match(line.strip())
        if m:
            n = m.group(2).lower()
            return ManaCost.parse(m.group(1)), int(n) if n.isdigit() else _NUMBERS.get(n, 0)
    return None


def escape(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts ``card`` from their graveyard for its escape cost (702.138a)."""
    from ..engine.stack import cast_spell
    c = state.cards[card]
    name = c.oracle.name
    found = escape_cost(c.oracle.main)
    graveyard = state.player(player).graveyard
    if found is None:
        raise IllegalChoice(f"escape {name}", f"{name} has no escape cost the model reads", Citation(KEYWORD, "702.138a"))
    if state.zone_of(card) is not graveyard:
        raise IllegalChoice(f"escape {name}", f"{name} is in {state.zone_of(card).label}, not {graveyard.label}",
                            Citation(KEYWORD, "702.138a"))
    mana, n = found
    others = [x for x in graveyard.cards if x != card]
    if len(others) < n:
        raise IllegalChoice(f"escape {name}", f"its escape cost exiles {n} other cards from {graveyard.label}, which "
                            f"has {len(others)}", Citation(KEYWORD, "702.138a"))
    spell = cast_spell(state, player, card, instead=mana, instead_name="escape", choose=choose)
    for i in range(n):                                     # the rest of the cost (601.2h)
        pool = [x for x in graveyard.cards if x != card]
        answer = decide(state, Decision.of(player, f"escape {name}: exile another card from your graveyard "
                                           f"({i + 1} of {n})", Citation(KEYWORD, "702.138a"),
                                           [Option(f"exile {state.cards[x].display_name}", x) for x in pool]), choose)
        state.move(answer.value, state.exile)
        state.emit(EventKind.EXILE, player, (answer.value,), source=graveyard.label, destination="exile",
                   detail=f"part of {name}'s escape cost", citation=Citation(KEYWORD, "702.138a"))
    state.append(state.escaped, (card, state.incarnation.get(card, 0)))
    state.emit(EventKind.NOTHING, player, (card,), detail="it escaped (cast from the graveyard with escape)",
               citation=Citation(KEYWORD, "702.138b"))
    return spell


def escaped(state: GameState, card: int) -> bool:
    """Whether the spell ``card`` on the stack was cast with escape (702.138b)."""
    return (card, state.incarnation.get(card, 0)) in state.escaped


def escape_counters(state: GameState, card: int) -> dict[str, int]:
    """The counters a permanent spell that escaped enters with: "escapes with …" (702.138c); {} otherwise."""
    if not escaped(state, card):
        return {}
    found: dict[str, int] = {}
    for m in _WITH.finditer(state.cards[card].oracle.text):
        n = m.group(1).lower()
        found[m.group(2)] = found.get(m.group(2), 0) + (int(n) if n.isdigit() else _NUMBERS.get(n, 0))
    return found


def run_step(run: Any, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """The scenario step ``{ do = "escape", card = "Fruit of Tizerus", targets = ["opponent"] }``."""
    from ..scenarios import _Targets
    if "targets" in step:
        choose = _Targets(run, step["targets"], choose)
    escape(run.state, player, run.card(step["card"]), choose=choose)
