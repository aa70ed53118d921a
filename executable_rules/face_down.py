"""Face-Down Spells and Permanents — CR 708: the steps manifest and cloak share.

:func:`put_onto_battlefield_face_down` turns a card face down and puts it onto
the battlefield as a 2/2 creature with no name, no subtypes and no mana cost
(with ward {2} when cloaked) — unless a rule or effect prohibits that face-down
object from entering the battlefield, in which case it stays where it was,
unchanged (Manifest — CR 701.40f, Cloak — CR 701.58f). Being face down before
it enters, its enters-the-battlefield abilities don't apply (708.3).

:func:`turn_face_up` is the special action of Manifest — CR 701.40b and
Cloak — CR 701.58b: show that the card is a creature card and its mana cost,
pay it, turn it face up (no stack: Special Actions — CR 116.2b). A card with
morph or disguise may instead be turned up for that cost (701.40c–d,
701.58c–d; Morph — CR 702.37e, Disguise — CR 702.168d). An instant or sorcery
that would turn face up (by an effect) is revealed and stays face down, and
"turned face up" abilities don't trigger (701.40g, 701.58g).

>>> from executable_rules.model import GameState, OracleCard, ZoneKind, FaceDown
>>> state = GameState.new(["Alice"])
>>> bears = state.add_card(OracleCard.simple("Grizzly Bears", "{1}{G}", "Creature", power="2", toughness="2"),
...                        "Alice", ZoneKind.LIBRARY)
>>> put_onto_battlefield_face_down(state, "Alice", bears, FaceDown.CLOAKED)
True
>>> str(state.cards[bears].ward)
'{2}'
>>> turn_face_up(state, "Alice", bears)
Traceback (most recent call last):
...
executable_rules.errors.IllegalChoice: illegal choice 'turn Grizzly Bears face up': Alice can't pay {1}{G} with no mana (Cloak — CR 701.58b)
>>> state.player("Alice").mana = ("G", "G")
>>> turn_face_up(state, "Alice", bears), state.cards[bears].name, state.player("Alice").mana
(True, 'Grizzly Bears', ())
"""

from __future__ import annotations

from typing import Literal, Sequence

from .engine import static
from .citation import Citation
from .errors import IllegalChoice
from .choices import first_legal
from .engine.mana import pay_mana
from .model import EventKind, FaceDown, GameState, ManaCost

RULES = {FaceDown.MANIFESTED: ("Manifest", "701.40"), FaceDown.CLOAKED: ("Cloak", "701.58"),
         FaceDown.MORPHED: ("Morph", "702.37")}


def put_onto_battlefield_face_down(state: GameState, player: str, card: int, kind: FaceDown) -> bool:
    """Turn ``card`` face down and put it onto the battlefield under ``player``'s control; False if prohibited."""
    keyword, number = RULES[kind]
    c = state.cards[card]
    source = state.zone_of(card).label
    blocker = static.entering_prohibited_by(state, c, face_down=True)
    if blocker:
        state.emit(EventKind.NOTHING, player, (card,), source=source,
                   detail=f"{blocker} prohibits the face-down 2/2 creature card from entering the battlefield: "
                   f"it isn't {kind.value} and stays where it is, unchanged", citation=Citation(keyword, f"{number}f"))
        return False
    state.move(card, state.battlefield, controller=player, face_down=kind)
    ward = ", ward {2}" if kind is FaceDown.CLOAKED else ""
    state.emit(EventKind.MANIFEST if kind is FaceDown.MANIFESTED else EventKind.CLOAK, player, (card,),
               source=source, destination="battlefield",
               detail=f"a face-down 2/2 creature with no name, no subtypes and no mana cost{ward}",
               citation=Citation(keyword, f"{number}a"))
    return True


def put_face_down_one_at_a_time(state: GameState, player: str, cards: Sequence[int] | None, count: int,
                                kind: FaceDown, citation: Citation) -> list[int]:
    """Put ``cards``, or the top ``count`` cards of ``player``'s library, onto the battlefield
    face down one at a time (manifest 701.40e, cloak 701.58e); return those that got there.

    Taking from the library stops when it is empty or a card may not be put face down
    (701.40f): the next card is not the one asked for.
    """
    done: list[int] = []
    library = state.player(player).library
    if cards is None:
        for _ in range(count):
            if not library.cards:
                state.emit(EventKind.NOTHING, player, source=library.label,
                           detail=f"no card left to {kind.value.lower().removesuffix('ed')}", citation=citation)
                break
            top = library.cards[0]
            if not put_onto_battlefield_face_down(state, player, top, kind):
                break
            done.append(top)
    else:
        done = [card for card in cards if put_onto_battlefield_face_down(state, player, card, kind)]
    return done


def turn_face_up(state: GameState, player: str, card: int,
                 via: Literal["mana cost", "morph", "disguise", "effect"] = "mana cost") -> bool:
    """Turn a manifested or cloaked permanent face up; return whether it is now face up.

    ``via`` is how: its mana cost (if it's a creature card), its morph or
    disguise cost, or an effect that turns it face up.
    """
    c = state.cards[card]
    if state.zone_of(card) is not state.battlefield or c.face_down is None:
        raise ValueError(f"{c.oracle.name} is not a face-down permanent")
    keyword, number = RULES[c.face_down]
    name = c.oracle.name
    if via != "effect" and c.controller != player:
        raise IllegalChoice(f"turn {name} face up", f"{player} doesn't control it", Citation(keyword, f"{number}b"))
    cost: ManaCost | None = None
    if c.face_down is FaceDown.MORPHED and via != "effect":
        # Cast face down with morph, it is turned face up for its morph cost only (Morph — CR 702.37e).
        if via != "morph" or c.oracle.morph is None:
            raise IllegalChoice(f"turn {name} face up for its {via}", "a permanent cast face down with morph is turned "
                                "face up by paying its morph cost", Citation("Morph", "702.37e"))
        cost, rule = c.oracle.morph, Citation("Morph", "702.37e")
    elif via == "mana cost":
        if "Creature" not in c.oracle.types:
            raise IllegalChoice(f"turn {name} face up for its mana cost", f"{name} isn't a creature card",
                                Citation(keyword, f"{number}b"))
        if c.oracle.mana_cost is None:
            raise IllegalChoice(f"turn {name} face up for its mana cost", f"{name} has no mana cost",
                                Citation(keyword, f"{number}b"))
        cost, rule = c.oracle.mana_cost, Citation(keyword, f"{number}b")
    elif via in ("morph", "disguise"):
        cost = c.oracle.morph if via == "morph" else c.oracle.disguise
        letter = "c" if via == "morph" else "d"
        if cost is None:
            raise IllegalChoice(f"turn {name} face up for its {via} cost", f"{name} has no {via}",
                                Citation(keyword, f"{number}{letter}"))
        rule = Citation(keyword, f"{number}{letter}")
    else:
        rule = Citation(keyword, f"{number}g")
    if {"Instant", "Sorcery"} & c.oracle.types:
        state.emit(EventKind.REVEAL, c.controller, (card,), names=(name,),
                   detail="an instant or sorcery card: revealed and left face down; nothing triggers",
                   citation=Citation(keyword, f"{number}g"))
        return False
    with state.action(f"turn {name} face up"):
        if cost is not None:
            try:
                pay_mana(state, player, cost, first_legal, f"turning {name} face up")
            except IllegalChoice:
                mana = state.player(player).mana
                raise IllegalChoice(f"turn {name} face up", f"{player} can't pay {cost} with {''.join(mana) or 'no mana'}",
                                    rule) from None
        state.set(c, "face_down", None)
        if via == "morph" and c.oracle.parsed.has_keyword("Morph") and any(
                a.text.startswith("megamorph") for a in c.oracle.parsed.abilities):
            # Megamorph: "as this permanent is turned face up, put a +1/+1 counter on it if its megamorph cost was
            # paid to turn it face up" (Morph — CR 702.37b).
            state.add_counters(card, "+1/+1", 1)
            state.emit(EventKind.COUNTER, c.controller, (card,), detail="+1/+1 counter: its megamorph cost was paid",
                       citation=Citation("Morph", "702.37b"))
        paid = f"paid {cost}; " if cost is not None else ""
        state.emit(EventKind.TURN_FACE_UP, c.controller, (card,), names=(name,),
                   detail=f"{paid}a special action: it doesn't use the stack", citation=rule)
    return True
