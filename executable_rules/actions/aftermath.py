"""Aftermath — CR 702.127 (702.127a)

Aftermath is found on the second half of some split cards (Split Cards — CR 709) and is three static abilities:
"You may cast this half of this split card from your graveyard", "This half of this split card can't be cast from
any zone other than a graveyard", and "If this spell was cast from a graveyard, exile it instead of putting it
anywhere else any time it would leave the stack" (Aftermath — CR 702.127a). A spell may be cast from a graveyard
only if a rule or effect allows it (Casting Spells — CR 601.3): the engine's ``cast_spell`` asks
:func:`cast_from_zone_allowed`, and :func:`aftermath_replacement` is its move replacement that exiles the spell.

>>> from executable_rules.model import Face, FaceKind, ManaCost
>>> mind = Face("Mind", ManaCost.parse("{4}{U}{U}"), frozenset({"Instant"}), text="Aftermath (Cast this spell only "
...             "from your graveyard. Then exile it.)\\nDraw two cards.", kind=FaceKind.RIGHT)
>>> has_aftermath(mind)
True
"""

from __future__ import annotations

from typing import Callable

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, Face, GameState, Spell, Zone, ZoneKind

KEYWORD = "Aftermath"
KIND = "keyword ability"
JAPANESE = ("余波",)
SUBRULES = ("a",)
SUMMARY = "The aftermath half of a split card is cast only from a graveyard, and is exiled as it leaves the stack."
OUT_OF_REACH: dict[str, str] = {}


def has_aftermath(face: Face) -> bool:
    """The face's text has the keyword Aftermath (its reminder text aside)."""
    from ..oracle import parse_card
    return parse_card(face.name, face.text).has_keyword(KEYWORD)


def aftermath(state: GameState, player: str, card: int, *, choose: Chooser = first_legal) -> Spell:
    """``player`` casts the half of ``card`` that has aftermath, from the graveyard it is in (Aftermath — CR
    702.127a): the same cast as ``cast_spell(..., face=...)``, which checks where the card is."""
    from ..engine.stack import cast_spell
    oracle = state.cards[card].oracle
    half = next((f for f in oracle.faces if has_aftermath(f)), None)
    if half is None:
        raise IllegalChoice(f"cast {oracle.name} with aftermath", f"no half of {oracle.name} has aftermath",
                            Citation(KEYWORD, "702.127a"))
    return cast_spell(state, player, card, face=half.name, choose=choose)


def cast_from_zone_allowed(state: GameState, card: int, face: Face, *, permitted: bool) -> None:
    """Refuse casting ``face`` of ``card`` from where it is when aftermath (or the lack of a permission) forbids it:
    an aftermath half only from a graveyard (702.127a); any other spell from a graveyard only with a permission
    (``permitted``: an alternative cost such as flashback or escape, or an effect casting it):
    Casting Spells — CR 601.3."""
    zone = state.zone_of(card)
    in_graveyard = zone.kind is ZoneKind.GRAVEYARD
    if has_aftermath(face):
        if not in_graveyard:
            raise IllegalChoice(f"cast {face.name}", f"{face.name} has aftermath: it can't be cast from any zone other "
                                f"than a graveyard ({state.cards[card].oracle.name} is in {zone.label})",
                                Citation(KEYWORD, "702.127a"))
        return
    if in_graveyard and not permitted:
        raise IllegalChoice(f"cast {face.name}", f"no rule or effect allows casting {face.name} from {zone.label}",
                            Citation("Casting Spells", "601.3"))


def remember_cast(state: GameState, card: int, face: Face, from_graveyard: bool) -> None:
    """Note, once the spell is on the stack, that an aftermath half was cast from a graveyard (what the exile
    replacement asks)."""
    if from_graveyard and has_aftermath(face):
        state.append(state.aftermath_cast, (card, state.incarnation.get(card, 0)))


def aftermath_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If this spell was cast from a graveyard, exile it instead of putting it anywhere else any time it would
    leave the stack" (702.127a)."""
    if to.kind is ZoneKind.EXILE or state.zone_of(card) is not state.stack:
        return None
    if (card, state.incarnation.get(card, 0)) not in state.aftermath_cast:
        return None
    name = state.cards[card].oracle.name

    def note() -> None:
        state.emit(EventKind.EXILE, state.cards[card].owner, (card,), names=(name,), source="stack",
                   destination="exile", detail=f"cast from a graveyard with aftermath: exiled instead of going to "
                   f"{to.label}", citation=Citation(KEYWORD, "702.127a"))

    return state.exile, note
