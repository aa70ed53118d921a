"""State-based actions (State-Based Actions — CR 704), checked whenever a player would receive priority (704.3).

All applicable actions happen at once, then the check repeats until none applies (704.3):

- 704.5a a player with 0 or less life loses; 704.5b a player who drew from an empty library loses;
  704.5c ten or more poison counters;
- 704.5d a token in a zone other than the battlefield ceases to exist (Tokens — CR 111.7);
- 704.5e a copy of a spell in a zone other than the stack ceases to exist (Copying Objects — CR 707.10a);
- 704.5f a creature with toughness 0 or less is put into its owner's graveyard;
- 704.5g a creature with lethal damage marked on it is destroyed (not if indestructible: Indestructible — CR 702.12b);
- 704.5h a creature dealt damage by a source with deathtouch since the last check is destroyed (Deathtouch — CR 702.2b);
- 704.5i a planeswalker with 0 loyalty is put into its owner's graveyard;
- 704.5j the legend rule: of two or more legendary permanents with the same name, their controller keeps one;
- 704.5k the world rule: of two or more world permanents, only the newest stays (a tie: none);
- 704.5m an Aura attached to an illegal object or player, or to nothing, is put into its owner's graveyard;
- 704.5n an Equipment or Fortification attached to an illegal permanent or to a player becomes unattached;
- 704.5q a permanent with +1/+1 and -1/-1 counters loses N of each.
"""

from __future__ import annotations

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from .layers import characteristics
from .replacement import put_into_graveyard


def _cite(letter: str) -> Citation:
    return Citation("State-Based Actions", f"704.5{letter}")


def check_state_based_actions(state: GameState, choose: Chooser = first_legal) -> int:
    """Perform state-based actions until none applies; return how many were performed."""
    performed = 0
    while True:
        done = _once(state, choose)
        if not done:
            return performed
        performed += done


def _once(state: GameState, choose: Chooser) -> int:
    done = 0
    for p in state.players:
        if p.lost:
            continue
        reason = None
        if p.life <= 0:
            reason = ("a", f"has {p.life} life")
        elif p.drew_from_empty_library:
            reason = ("b", "attempted to draw from an empty library")
        elif p.poison >= 10:
            reason = ("c", f"has {p.poison} poison counters")
        if reason:
            state.set(p, "lost", True)
            state.emit(EventKind.LOSE, p.name, detail=f"loses the game: {reason[1]}", citation=_cite(reason[0]))
            done += 1
    # Only tokens can cease to exist: look at them, not at every card of every zone (this runs before each priority).
    for card in [c for c, obj in state.cards.items() if obj.oracle.is_token]:
        zone = state.zone_of(card)
        if zone is not state.battlefield and card not in state.spells:
            name = state.cards[card].display_name
            spell_copy = state.cards[card].oracle.source == "a copy of a spell"
            state.cease_to_exist(card)
            state.emit(EventKind.STATE_BASED, None, names=(name,), source=zone.label,
                       detail="a copy of a spell outside the stack ceases to exist" if spell_copy else
                       "a token outside the battlefield ceases to exist", citation=_cite("e" if spell_copy else "d"))
            done += 1
    dying: list[tuple[int, str, str]] = []
    legends: list[tuple[int, str | None, str | None]] = []
    worlds: list[tuple[int, int]] = []
    for permanent in state.permanents():
        ch = characteristics(state, permanent.id)
        if "Legendary" in ch.supertypes:
            legends.append((permanent.id, permanent.controller, ch.name))
        if "World" in ch.supertypes:
            worlds.append((permanent.timestamp, permanent.id))
        if "Creature" in ch.types and ch.toughness is not None:
            if ch.toughness <= 0:
                dying.append((permanent.id, "f", f"toughness {ch.toughness}: put into its owner's graveyard"))
            elif permanent.damage >= ch.toughness and "Indestructible" not in ch.keywords:
                dying.append((permanent.id, "g", f"{permanent.damage} damage marked, toughness {ch.toughness}: destroyed"))
            elif state.ref(permanent.id) in state.deathtouched and "Indestructible" not in ch.keywords:
                dying.append((permanent.id, "h", "dealt damage by a source with deathtouch: destroyed"))
        if "Planeswalker" in ch.types and permanent.counters.get("loyalty", 0) <= 0 and "Creature" not in ch.types:
            dying.append((permanent.id, "i", "0 loyalty: put into its owner's graveyard"))
        plus, minus = permanent.counters.get("+1/+1", 0), permanent.counters.get("-1/-1", 0)
        # State-based actions happen at once (704.3): a permanent dying in this check leaves with its counters
        # (so persist sees its -1/-1 counter: Persist — CR 702.79a).
        if plus and minus and not any(d[0] == permanent.id for d in dying):
            n = min(plus, minus)
            state.add_counters(permanent.id, "+1/+1", -n)
            state.add_counters(permanent.id, "-1/-1", -n)
            state.emit(EventKind.STATE_BASED, permanent.controller, (permanent.id,),
                       detail=f"{n} +1/+1 and {n} -1/-1 counters removed", citation=_cite("q"))
            done += 1
    from ..actions.attach import illegally_attached, unattach
    for permanent in state.permanents():
        wrong = illegally_attached(state, permanent.id)
        if wrong is not None and wrong[0] == "Aura" and not any(d[0] == permanent.id for d in dying):
            dying.append((permanent.id, "m", f"an Aura {wrong[1]}: put into its owner's graveyard"))
        elif wrong is not None and wrong[0] != "Aura":
            unattach(state, None, permanent.id, detail=f"{wrong[1]}: it becomes unattached and stays on the "
                     "battlefield", citation=_cite("n"))
            done += 1
    if state.deathtouched:      # "since the last time state-based actions were checked" (704.5h)
        state.set(state, "deathtouched", frozenset())
    by_name: dict[tuple[str, str], list[int]] = {}
    for legend, who, legend_name in legends:      # read in the loop above: counters change neither name nor controller
        if legend_name and who:
            by_name.setdefault((who, legend_name), []).append(legend)
    for (controller, name), cards in by_name.items():
        if len(cards) > 1:
            answer = decide(state, Decision.of(controller, f"legend rule: keep which {name}", _cite("j"),
                                               [Option(f"keep {name} #{i + 1}", c) for i, c in enumerate(cards)]), choose)
            for card in cards:
                if card != answer.value:
                    dying.append((card, "j", "the legend rule: put into its owner's graveyard"))
    if len(worlds) > 1:
        # The world rule: only the one that has had the world supertype for the shortest time stays; a tie, none
        # (704.5k). The model's world permanents have it printed, so that is the one that entered last.
        newest = max(stamp for stamp, _ in worlds)
        kept = [card for stamp, card in worlds if stamp == newest]
        for stamp, card in worlds:
            if len(kept) > 1 or card not in kept:
                dying.append((card, "k", "the world rule: another world permanent has been one for a shorter time"
                              if card not in kept else "the world rule: a tie for the shortest time, all go"))
    # They all happen at once (704.3): a shuffle one of them causes leaves where they are the others put in a
    # certain position of that library (Shuffle — CR 701.24g).
    if dying:
        state.set(state, "moving_at_once", tuple(d[0] for d in dying))
    for card, letter, why in dying:
        if state.zone_of(card) is state.battlefield:
            if letter == "g":                  # lethal damage destroys: regeneration may replace it (Destroy — CR 701.8b)
                from ..actions.destroy import destroy
                destroy(state, None, card, detail=why, citation=_cite(letter))
            else:
                put_into_graveyard(state, card, why, _cite(letter))
            done += 1
    if dying:
        state.set(state, "moving_at_once", ())
    return done
