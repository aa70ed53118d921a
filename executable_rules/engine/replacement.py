"""Replacement effects (Replacement Effects — CR 614), read from the Oracle text of the cards involved.

- A permanent that "enters tapped" or "enters with N counters" enters that way: the effect modifies how it
  enters (614.1c, 614.1d, 614.12), so it is never untapped or without counters on the battlefield.
- "If ~ would be put into a graveyard from anywhere, reveal ~ and shuffle it into its owner's library
  instead." (Darksteel Colossus): the card never reaches the graveyard (614.1a), so "dies" abilities
  don't trigger.
- Dredge N replaces a draw (Dredge — CR 702.52a): :func:`draw_replacements` offers every card with dredge in
  the player's graveyard before each draw; :mod:`executable_rules.actions.dredge` carries it out.

A face-down permanent has no abilities (Face-Down Spells and Permanents — CR 708.2a); a card in a zone is read
as it is there.
"""

from __future__ import annotations

from typing import Callable

from ..choices import Chooser, Option, first_legal
from ..citation import Citation
from ..errors import Unimplemented
from ..model import EventKind, FaceDown, GameState, Zone, ZoneKind


def _has_static(state: GameState, card: int, template: str) -> bool:
    c = state.cards[card]
    return any(a.static == template for a in c.oracle.parsed.abilities)


def enter_battlefield(state: GameState, card: int, controller: str, *, tapped: bool = False, x: int = 0,
                      face_down: FaceDown | None = None, choose: Chooser = first_legal, detail: str = "",
                      kicked: bool = False) -> None:
    """Put ``card`` onto the battlefield under ``controller``'s control, with its own "enters tapped" and
    "enters with … counters" replacement effects applied as it enters (614.1c, 614.12)."""
    from .selectors import amount_of, find
    c = state.cards[card]
    source = state.zone_of(card).label
    name = c.oracle.name
    state.move(card, state.battlefield, controller=controller, face_down=face_down)
    if kicked:
        state.mark_kicked(card)
    notes = [detail] if detail else []
    if tapped:
        state.set(c, "tapped", True)
        notes.append("tapped")
    if face_down is None:
        for ability in c.oracle.parsed.abilities:
            if ability.static == "enters_tapped" and ability.tree is not None and "unless" not in ability.text:
                state.set(c, "tapped", True)
                notes.append("tapped (it enters tapped: a replacement effect, Replacement Effects — CR 614.1c)")
            elif ability.static == "enters_with_counters" and ability.tree is not None:
                if "for each" in ability.text:
                    continue
                if " if " in ability.text and not condition_holds(state, controller, ability.text.split(" if ", 1)[1]):
                    notes.append(f"no counters: {ability.text.split(' if ', 1)[1].rstrip('.')} is false")
                    continue
                amount_node = find(ability.tree, "counter_amount")
                words = ability.text
                amount = x if amount_node is not None and " x " in f" {words} " and "with x" in words else \
                    amount_of(amount_node, x)
                kind = next((str(t) for t in ability.tree.scan_values(lambda v: getattr(v, "type", "") == "COUNTER")),
                            "+1/+1")
                if amount:
                    state.add_counters(card, kind, amount)
                notes.append(f"with {amount} {kind} counter(s) (Replacement Effects — CR 614.1c)")
    state.emit(EventKind.MOVE, controller, (card,), names=(state.cards[card].display_name if face_down else name,),
               source=source, destination="battlefield", detail="; ".join(notes))


def condition_holds(state: GameState, controller: str, condition: str, card: int | None = None) -> bool:
    """A condition of an ability, as written; :class:`~executable_rules.engine.effects.Unimplemented` for one the
    engine can't judge."""
    condition = condition.strip().rstrip(".")
    if condition == "a permanent you controlled left the battlefield this turn":      # revolt
        return any(e.kind is EventKind.MOVE and e.source == "battlefield" and e.cards
                   and state.last_known.get(e.cards[0]) is not None
                   and state.last_known[e.cards[0]].controller == controller
                   for e in state.events[state.turn_started:])
    if condition in ("it was kicked", "~ was kicked") and card is not None:           # Kicker — CR 702.33d
        return (card, state.incarnation.get(card, 0)) in state.kicked
    if condition == "~ is suspected" and card is not None:                           # Suspect — CR 701.60a
        from ..actions.suspect import is_suspected
        return is_suspected(state, card)
    if condition == "evidence was collected" and card is not None:                   # Collect Evidence — CR 701.59c
        from ..actions.collect_evidence import evidence_was_collected
        return evidence_was_collected(state, card)
    if condition == "an opponent searched their library this turn":                 # Archive Trap
        return any(e.kind is EventKind.SEARCH and e.player is not None and e.player != controller
                   and e.source == state.player(e.player).library.label for e in state.events[state.turn_started:])
    raise Unimplemented(f"the condition {condition!r}")


def put_into_graveyard(state: GameState, card: int, why: str, citation: Citation | None = None) -> bool:
    """Put ``card`` into its owner's graveyard (a replacement effect may send it elsewhere: see
    :func:`graveyard_replacement`); return whether it got there."""
    c = state.cards[card]
    owner = state.player(c.owner)
    source = state.zone_of(card).label
    name = c.display_name
    controller = c.controller or c.owner
    state.move(card, owner.graveyard)
    if state.zone_of(card) is not owner.graveyard:
        return False
    state.emit(EventKind.MOVE, controller, (card,), names=(name,), source=source,
               destination=owner.graveyard.label, detail=why, citation=citation)
    return True


def graveyard_replacement(state: GameState, card: int, to: Zone) -> tuple[Zone, Callable[[], None]] | None:
    """"If ~ would be put into a graveyard from anywhere, reveal ~ and shuffle it into its owner's library
    instead": every move of such a card to a graveyard — destroyed, discarded, milled — goes to its owner's
    library instead (Replacement Effects — CR 614.1a), and the library is then shuffled."""
    c = state.cards[card]
    if to.kind is not ZoneKind.GRAVEYARD or c.face_down or not _has_static(state, card, "shuffle_instead"):
        return None
    owner = state.player(c.owner)
    source = state.zone_of(card).label

    def reveal_and_shuffle() -> None:
        from ..actions.shuffle import shuffle
        state.emit(EventKind.REVEAL, c.owner, (card,), names=(c.oracle.name,), source=source,
                   detail=f"it would be put into a graveyard: it is revealed and shuffled into {owner.library.label} "
                   "instead", citation=Citation("Replacement Effects", "614.1a"))
        shuffle(state, c.owner)

    return owner.library, reveal_and_shuffle


def draw_replacements(state: GameState, player: str) -> list[Option]:
    """What may replace ``player``'s next draw: dredge (Dredge — CR 702.52a), from the cards' own text."""
    from ..actions.dredge import dredge_options
    return dredge_options(state, player)
