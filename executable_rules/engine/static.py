"""Static abilities the actions ask about, read from the parsed Oracle text of permanents (not by card name).

Each question looks for a static ability of one template on the battlefield
(or a lasting effect of a resolved spell):

- "Players can't search libraries." (``no_search``; Shadow of Doubt's "… this turn" as an effect);
- "If an opponent would search a library, that player searches the top four cards of that library instead."
  (``search_top_four``, a replacement effect: Replacement Effects — CR 614.1a);
- "Creature cards in graveyards and libraries can't enter the battlefield." (``cage``);
- "Play with the top card of your library revealed." (``reveal_top_static``);
- "If an opponent would face a villainous choice, they face that choice an additional time." — no corpus card
  prints it; the hand-written ``Test: Echo of Villainy`` is read by its text.

A face-down permanent has no abilities (Face-Down Spells and Permanents — CR 708.2a), so it answers nothing.
"""

from __future__ import annotations

import re

from ..model import Card, GameState, ZoneKind


def statics(card: Card) -> list[str]:
    """The static-ability templates a permanent has (none face down)."""
    if card.face_down:
        return []
    return [a.static for a in card.oracle.parsed.abilities if a.kind == "static" and a.static]


def _with_static(state: GameState, template: str, text: str = "") -> list[Card]:
    return [c for c in state.permanents() if template in statics(c)
            and (not text or any(text in a.text for a in c.oracle.parsed.abilities))]


def search_prohibited_by(state: GameState, player: str | None = None) -> str | None:
    """The card whose "players can't search libraries" (or "your opponents can't …", for ``player`` an opponent of
    its controller) applies now, if any: a permanent's static ability or the lasting effect of a resolved spell
    (its ``description`` is the spell's Oracle text)."""
    for card in _with_static(state, "no_search"):
        opponents_only = any(a.static == "no_search" and a.text.startswith("your opponents")
                             for a in card.oracle.parsed.abilities)
        if not opponents_only or (player is not None and player != card.controller):
            return card.oracle.name
    for effect in state.effects:
        if "can't search libraries" in effect.description:
            return effect.name
    return None


def library_search_limit(state: GameState, searcher: str) -> tuple[int, str] | None:
    """"… that player searches the top four cards of that library instead": (4, card name) when it applies."""
    for card in _with_static(state, "search_top_four"):
        if card.controller != searcher:
            return 4, card.oracle.name
    return None


def entering_prohibited_by(state: GameState, card: Card, face_down: bool = False) -> str | None:
    """"Creature cards in graveyards and libraries can't enter the battlefield."

    A card to be manifested or cloaked is checked as the face-down 2/2
    creature card it would be (Manifest — CR 701.40a, 701.40f).
    """
    zone = state.zone_of(card.id).kind
    is_creature_card = face_down or "Creature" in card.oracle.types
    if zone in (ZoneKind.GRAVEYARD, ZoneKind.LIBRARY) and is_creature_card:
        for permanent in _with_static(state, "cage", "can't enter the battlefield"):
            return permanent.oracle.name
    return None


def top_card_revealed_by(state: GameState, player: str) -> str | None:
    """"Play with the top card of your library revealed." """
    for card in _with_static(state, "reveal_top_static", "revealed"):
        if card.controller == player:
            return card.oracle.name
    return None


def activation_forbidden(state: GameState, card: int, mana_ability: bool) -> str | None:
    """The permanent whose "Activated abilities of sources with the chosen name can't be activated [unless they're
    mana abilities]" (Pithing Needle, Phyrexian Revoker) forbids activating an ability of ``card`` now, or ``None``.
    A source is any object with the name, in any zone (a card in hand cycling too); a face-down object has no
    name (Face-Down Spells and Permanents — CR 708.2a), and a face-down Needle no ability.
    (Activating Activated Abilities — CR 602.5: a prohibited ability can't begin to be activated.)"""
    from .replacement import chosen_name
    name = state.cards[card].name
    if name is None:
        return None
    for p in state.permanents():
        if p.face_down:
            continue
        for ability in p.oracle.parsed.abilities:
            if ability.static != "no_activate_named":
                continue
            if mana_ability and "unless they're mana abilities" in ability.text:
                continue
            if chosen_name(state, p.id) == name:
                return p.oracle.name
    return None


READS_LINES = (re.compile(r"^if an opponent would face a villainous choice, they face that choice an additional time\.$",
                          re.IGNORECASE),)
"""Lines applied here by reading their text (the grammar has no template): a run doesn't report them unread."""


def additional_villainous_choices(state: GameState, player: str) -> list[str]:
    """One entry per permanent an opponent of ``player`` controls with "If an opponent would face a villainous
    choice, they face that choice an additional time." (read from its text: the grammar has no template for it)."""
    return [c.display_name for c in state.permanents()
            if c.controller != player and not c.face_down
            and "would face a villainous choice, they face that choice an additional time" in c.oracle.text]
