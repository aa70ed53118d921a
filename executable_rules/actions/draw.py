"""Drawing a Card — CR 121 (121.1, 121.2, 121.4, 121.6b)

A player draws a card by putting the top card of their library into their
hand (121.1). Cards are drawn one at a time: an instruction to draw several is
that many single draws (121.2), and each can be replaced on its own, the
replacement finishing before the next draw (121.6b). A player who draws from
an empty library loses the next time state-based actions are checked (121.4):
the model marks them, it doesn't end the game. Before each draw the drawing
player may replace it with dredge (Dredge — CR 702.52a).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"])
>>> _ = state.add_card(OracleCard.simple("Shock", "{R}", "Instant"), "Alice", ZoneKind.LIBRARY)
>>> [state.cards[c].name for c in draw(state, "Alice", 2)]
['Shock']
>>> state.player("Alice").drew_from_empty_library
True
"""

from __future__ import annotations

from ..choices import Chooser, Decision, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from ..engine.replacement import draw_replacements
from .dredge import dredge

KEYWORD = "Drawing a Card"
KIND = "rule"
JAPANESE = ("カードを引くこと", "引く")
SUBRULES = ("1", "2", "4", "6b")
SUMMARY = "Draw cards one at a time from the top of the library; each draw may be replaced (dredge)."


def draw(state: GameState, player: str, count: int = 1, *, choose: Chooser = first_legal) -> list[int]:
    """``player`` draws ``count`` cards, one at a time; return the cards drawn (not those dredged)."""
    drawn: list[int] = []
    p = state.player(player)
    with state.action(f"draw {count}"):
        for i in range(count):                                       # 121.2: one draw at a time
            options = draw_replacements(state, player)
            if options:
                answer = decide(state, Decision.of(
                    player, f"draw {i + 1} of {count}: replace it with dredge?", Citation("Dredge", "702.52a"), options),
                    choose)
                if answer.value is not None:
                    dredge(state, player, answer.value)             # 121.6b: finished before the next draw
                    continue
            if not p.library.cards:                                  # 121.4
                state.set(p, "drew_from_empty_library", True)
                state.emit(EventKind.DRAW, player, source=p.library.label,
                           detail="no card to draw: this player loses the next time state-based actions are checked",
                           citation=Citation(KEYWORD, "121.4"))
                continue
            card = p.library.cards[0]
            name = state.cards[card].display_name
            state.move(card, p.hand)
            drawn.append(card)
            state.emit(EventKind.DRAW, player, (card,), names=(name,), source=p.library.label, destination=p.hand.label,
                       detail=f"draw {i + 1} of {count}" if count > 1 else "", citation=Citation(KEYWORD, "121.1"))
    return drawn
