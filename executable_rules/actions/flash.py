"""Flash — CR 702.8 (702.8a)

Flash is a static ability that works in any zone from which the card could be
played: "You may play this card any time you could cast an instant"
(Flash — CR 702.8a). Without it, a spell that isn't an instant is cast only in
its controller's main phase while the stack is empty
(Timing and Priority — CR 117.1a); with it, on any player's turn, in any step,
and in response to other spells. :func:`flash` is what
:func:`~executable_rules.engine.stack.cast_spell` asks before checking timing.

>>> from executable_rules.model import OracleCard
>>> flash(OracleCard.simple("Ambush Viper", "{1}{G}", "Creature", text="Flash\\nDeathtouch"))
True
>>> flash(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature"))
False
"""

from __future__ import annotations

from ..errors import Unimplemented
from ..model import GameState, OracleCard

KEYWORD = "Flash"
KIND = "keyword ability"
JAPANESE = ("瞬速",)
SUBRULES = ("a",)
SUMMARY = "The card may be cast any time its controller could cast an instant."
OUT_OF_REACH = {
    "b": "multiple instances of flash are redundant: no card of the corpus has flash twice or grants flash to a card "
         "that has it (the cards that look like it give \"as though it had flash\"), so there is nothing to set up",
}


def flash(card: OracleCard) -> bool:
    """Whether the card has flash (Flash — CR 702.8a): it may be cast any time you could cast an instant."""
    return card.parsed.has_keyword(KEYWORD)


def as_though_flash(state: GameState, player: str, card: int) -> str | None:
    """What lets ``player`` cast ``card`` as though it had flash, if anything: a static ability of a permanent they
    control ("You may cast green creature spells as though they had flash.": Yeva, Nature's Herald; only on the
    battlefield) or an effect ("Until end of turn, you may cast spells as though they had flash.": Alchemist's
    Refuge). Which spells is judged from the card's characteristics (Timing and Priority — CR 117.1a); a description
    the model doesn't judge stops with :class:`~executable_rules.errors.Unimplemented`."""
    from ..engine.mana import _described
    from ..engine.selectors import find
    found: list[tuple[str, str]] = []
    for permanent in state.permanents(player):
        if permanent.face_down:
            continue
        for ability in permanent.oracle.parsed.abilities:
            if ability.kind == "static" and ability.static == "cast_as_flash" and ability.tree is not None:
                node = find(ability.tree, "cast_as_flash")
                desc = next((str(t) for t in node.children if getattr(t, "type", "") == "FLASH_DESC"), "") if node else ""
                found.append((permanent.oracle.name, desc))
    for effect in state.continuous:
        if effect.player == player and effect.permission.startswith("cast as though flash:"):
            found.append((effect.source, effect.permission.removeprefix("cast as though flash:")))
    for source, desc in found:
        words = [w for w in desc.split() if w]
        verdict = _described(state, card, words, False) if words else True
        if verdict is None:
            raise Unimplemented(f"{source}: which spells 'you may cast {desc.strip()} spells as though they had flash' "
                                "means")
        if verdict:
            return source
    return None
