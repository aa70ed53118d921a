"""Mana: mana abilities of lands and other permanents, the mana pool, and paying mana costs.

A land with a basic land type has "{T}: Add [its mana]" (Lands — CR 305.6); other permanents have the mana
abilities their Oracle text prints ("{T}: Add {G}.", "{T}: Add {W} or {U}."). Mana abilities don't use the
stack (Mana Abilities — CR 605.3a). Casting a spell, the player may activate mana abilities before paying
(Casting Spells — CR 601.2g), then pays the total cost (601.2h) from their mana pool (Mana — CR 106.4).

:func:`pay_mana` pays a cost as a player who wants it paid would: mana already in the pool first, then
untapped sources it taps for the colours the cost needs (a search over the sources, so {W}{U} from a
Tranquil Cove and a Plains is found), and refuses with the rule when it can't be paid.

>>> from executable_rules.model import GameState, ManaCost, OracleCard, ZoneKind
>>> state = GameState.new(["you"])
>>> forest = OracleCard.simple("Forest", None, "Land", subtypes=("Forest",), supertypes=("Basic",))
>>> for _ in range(2):
...     _ = state.add_card(forest, "you", ZoneKind.BATTLEFIELD)
>>> mana_sources(state, "you")[0][1]
[('G',)]
>>> pay_mana(state, "you", ManaCost.parse("{1}{G}"), first_legal, "Grizzly Bears")
['Forest', 'Forest']
>>> [c.tapped for c in state.permanents()], state.player("you").mana
([True, True], ())
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from lark import Tree

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice, Unimplemented
from ..model import EventKind, GameState, ManaCost, pay
from .layers import text

BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

__all__ = ["BASIC_MANA", "Spending", "add_mana", "first_legal", "mana_choices", "mana_sources", "pay_mana",
           "spend_allowed"]

_RESTRICTIONS = ("sorcery_speed", "once_per_turn_activation", "your_turn_only", "activate_if")
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}


@dataclass(frozen=True)
class Spending:
    """What mana is being spent on, for restricted mana ("Spend this mana only …": Mana — CR 106.6): a spell
    (``kind="spell"``, the card on the stack, whether it is cast from a graveyard) or an activated ability
    (``kind="ability"``, its source)."""

    kind: str
    card: int
    from_graveyard: bool = False


_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_WORDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "instant": "Instant",
               "sorcery": "Sorcery", "planeswalker": "Planeswalker", "land": "Land", "battle": "Battle"}


def _described(state: GameState, card: int, words: list[str], from_graveyard: bool) -> bool | None:
    """Whether the spell or permanent ``card`` is what ``words`` describe ("colorless Eldrazi", "an instant or
    sorcery", "creature"); ``None`` for a word the model doesn't judge."""
    from .layers import characteristics
    ch = characteristics(state, card)
    words = [w for w in words if w not in ("a", "an")]
    types = [w for w in words if w in _TYPE_WORDS]
    ok = True
    if types:                                         # "instant or sorcery": either type
        ok = any(_TYPE_WORDS[w] in ch.types for w in types)
    rest = [w for w in words if w not in _TYPE_WORDS and w != "or"]
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "colorless":
            ok = ok and not ch.colors
        elif w == "colored":
            ok = ok and bool(ch.colors)
        elif w in _COLOR_WORDS:                        # "green creature spells"
            ok = ok and _COLOR_WORDS[w] in ch.colors
        elif w == "multicolored":                      # two or more colours (Colors — CR 105.4)
            ok = ok and len(ch.colors) >= 2
        elif rest[i:i + 2] == ["with", "flashback"]:       # Flashback — CR 702.34a: cast from a graveyard
            ok = ok and "Flashback" in ch.keywords
            i += 1
        elif rest[i:i + 3] == ["from", "a", "graveyard"] or rest[i:i + 2] == ["from", "graveyard"]:
            ok = ok and from_graveyard
            i += 2 if rest[i + 1] == "a" else 1
        elif w[:1].isupper() and w.isalpha():        # a subtype: "Eldrazi", "Myr", "Dragon"
            ok = ok and w in ch.subtypes
        else:
            return None
        i += 1
    return ok


def spend_allowed(state: GameState, restriction: str, spending: Spending | None) -> bool | None:
    """Whether mana with ``restriction`` ("spend this mana only to cast creature spells") may be spent on
    ``spending`` (Mana — CR 106.6); ``None`` when the description isn't one the model judges.

    >>> spend_allowed(GameState.new(["you"]), "spend this mana only to cast creature spells", None)   # a ward cost
    False
    """
    m = re.fullmatch(r"spend this mana only to (.+)", restriction.strip())
    if m is None:
        return None
    verdicts: list[bool | None] = []
    for alternative in re.split(r"(?:,| or) (?=cast |activate |foretell )", m.group(1)):
        alternative = alternative.strip().removeprefix("or ").strip()
        words = alternative.split()
        if words[0] == "foretell":             # foretelling isn't spending the model does (a spell or ability is)
            verdicts.append(False)
        elif words[0] == "activate" and words[1:2] == ["abilities"]:
            if spending is None or spending.kind != "ability":
                verdicts.append(False)
            elif len(words) == 2:
                verdicts.append(True)
            elif words[2] == "of":
                desc = [w for w in words[3:] if w not in ("creatures", "permanents")]
                verdicts.append(_described(state, spending.card, desc or ["permanent"], False)
                                if desc else True)
            else:
                verdicts.append(None)
        elif words[0] == "cast":
            if spending is None or spending.kind != "spell":
                verdicts.append(False)
                continue
            # "an Elemental spell or a Chandra planeswalker spell": either description
            for part in re.split(r" or (?=an? )", " ".join(words[1:])):
                desc = [w for w in part.split() if w not in ("spell", "spells")]
                verdicts.append(_described(state, spending.card, desc, spending.from_graveyard) if desc else True)
        else:
            verdicts.append(None)
    if any(v is True for v in verdicts):
        return True
    if any(v is None for v in verdicts):
        return None
    return False


def mana_choices(node: Tree) -> list[tuple[str, ...]]:  # type: ignore[type-arg]
    """The alternatives an "Add …" effect offers, each a tuple of mana symbols: ``{G}`` → [("G",)],
    ``{W} or {U}`` → [("W",), ("U",)], ``one mana of any color`` → the five colours."""
    words = text(node)
    m = re.search(r"add (\w+) mana (in any combination of colors|of any one color)", words)
    if m and m.group(1) in _NUMBERS:
        n = _NUMBERS[m.group(1)]
        if "combination" in m.group(2):       # "two mana in any combination of colors": each multiset of colours
            return [tuple(c) for c in itertools.combinations_with_replacement("WUBRG", n)]
        return [(c,) * n for c in "WUBRG"]
    if "any color" in words or "any one color" in words or "any type" in words:
        return [(c,) for c in "WUBRG"]
    lists = [c for c in node.children if isinstance(c, Tree) and c.data == "mana_list"]
    if not lists:
        return []
    choices = []
    for cost in lists[0].children:
        if isinstance(cost, Tree) and cost.data == "mana_cost":
            symbols: list[str] = []
            for token in cost.children:
                s = str(token).strip("{}")
                symbols += ["C"] * int(s) if s.isdigit() else [s]
            choices.append(tuple(symbols))
    return choices


def tap_mana_abilities(state: GameState, card_id: int) -> list[tuple[str, ...]]:
    """What the permanent's "{T}: Add …" abilities can make (basic land types included, 305.6), leaving out
    mana that can be spent only on some things (Mana — CR 106.6)."""
    return [made for made, restriction in tap_mana_options(state, card_id) if restriction is None]


def tap_mana_options(state: GameState, card_id: int) -> list[tuple[tuple[str, ...], str | None]]:
    """What the permanent's "{T}: Add …" abilities can make, each with its "Spend this mana only …" sentence
    (``None`` for mana without a restriction: Mana — CR 106.6)."""
    card = state.cards[card_id]
    if card.face_down:
        return []
    found: list[tuple[tuple[str, ...], str | None]] = [((BASIC_MANA[s],), None) for s in card.oracle.subtypes
                                                       if s in BASIC_MANA]
    for ability in card.oracle.parsed.abilities:
        if ability.kind != "activated" or ability.tree is None or "add_mana" not in ability.effects:
            continue
        costs = ability.tree.children[0]
        if not (isinstance(costs, Tree) and text(costs) == "{T}"):
            continue
        body = ability.tree.children[-1]
        if isinstance(body, Tree) and any(isinstance(r, Tree) and r.data in _RESTRICTIONS
                                          for r in body.iter_subtrees()):
            # "Activate only if you control seven or more lands": a mana ability's restriction too
            # (Activating Activated Abilities — CR 602.5), judged as the engine judges any ability's (an unjudged one stops)
            from .stack import _check_restrictions
            try:
                _check_restrictions(state, card.controller or card.owner, card_id, ability, costs, body, card.display_name)
            except IllegalChoice:
                continue
        add = next(ability.tree.find_data("add_mana"))
        spend = next(ability.tree.find_data("spend_only"), None)
        restriction = str(spend.children[0]) if spend is not None else None
        choices = mana_choices(add)
        words = text(add)
        if words.startswith("choose a color") and "for each" in words:
            # "Choose a color. Add one mana of that color for each charge counter on ~." (Mana — CR 106.1a)
            kind = next(str(t) for t in add.children if getattr(t, "type", "") == "COUNTER")
            n = card.counters.get(kind, 0)
            choices = [(color,) * n for color in "WUBRG"] if n else []
        for choice in choices:
            if (choice, restriction) not in found:
                found.append((choice, restriction))
    return found


def mana_sources(state: GameState, player: str, spending: Spending | None = None,
                 unjudged: list[str] | None = None) -> list[tuple[int, list[tuple[str, ...]]]]:
    """Untapped permanents ``player`` controls that tap for mana, with what each can make for ``spending``:
    restricted mana only where its restriction allows that spending (Mana — CR 106.6; with no ``spending``,
    none). A restriction the model can't judge is left out, and its text added to ``unjudged``."""
    from .layers import characteristics
    found = []
    from ..actions.detain import is_detained
    for card in state.permanents(player):
        if card.tapped or is_detained(state, card.id):     # a detained permanent's mana abilities too (Detain — CR 701.35a)
            continue
        made = []
        for choice, restriction in tap_mana_options(state, card.id):
            if restriction is not None:
                verdict = spend_allowed(state, restriction, spending)
                if verdict is None and unjudged is not None:
                    unjudged.append(f"{card.display_name}: {restriction}")
                if not verdict:
                    continue
            if choice not in made:
                made.append(choice)
        # A creature's {T} ability can't be activated the turn it came under its controller's control
        # (Creatures — CR 302.6); the model doesn't track that yet, so creatures tap freely.
        if made and characteristics(state, card.id).types:
            found.append((card.id, made))
    return found


def add_mana(state: GameState, player: str, choices: list[tuple[str, ...]], choose: Chooser, source: str) -> None:
    """Add one of ``choices`` to ``player``'s mana pool (asked when there are several)."""
    if not choices:
        return
    if len(choices) == 1:
        made = choices[0]
    else:
        answer = decide(state, Decision.of(player, f"{source}: which mana", Citation("Mana", "106.4"),
                                           [Option("add " + "".join(f"{{{s}}}" for s in c), c) for c in choices]), choose)
        made = answer.value
    p = state.player(player)
    state.set(p, "mana", p.mana + made)
    state.emit(EventKind.MANA, player, names=(source,), detail="adds " + "".join(f"{{{s}}}" for s in made),
               citation=Citation("Mana", "106.4"))


def _plan(pool: tuple[str, ...], sources: list[tuple[int, list[tuple[str, ...]]]], cost: ManaCost, x: int,
          ) -> list[tuple[int, tuple[str, ...]]] | None:
    """The fewest sources to tap (in battlefield order) so that pool + their mana pays ``cost``."""
    if pay(pool, cost, x) is not None:
        return []
    best: list[tuple[int, tuple[str, ...]]] | None = None

    def walk(i: int, mana: tuple[str, ...], chosen: list[tuple[int, tuple[str, ...]]]) -> None:
        nonlocal best
        if best is not None and len(chosen) >= len(best):
            return
        if pay(mana, cost, x) is not None:
            best = list(chosen)
            return
        if i == len(sources):
            return
        card, options = sources[i]
        for made in options:
            chosen.append((card, made))
            walk(i + 1, mana + made, chosen)
            chosen.pop()
        walk(i + 1, mana, chosen)

    walk(0, pool, [])
    return best


def pay_mana(state: GameState, player: str, cost: ManaCost, choose: Chooser, what: str, x: int = 0,
             spent: list[str] | None = None, spending: Spending | None = None) -> list[str]:
    """Pay ``cost`` (with X = ``x``): tap mana sources as needed (601.2g), then pay from the pool (601.2h).
    Return the names of the sources tapped (and add the mana spent to ``spent``); :class:`IllegalChoice` if it
    can't be paid. Restricted mana is tapped for only when ``spending`` is what it may be spent on
    (Mana — CR 106.6), and only when all of it is spent at once: what is left of it would stay in the pool restricted,
    which the model's pool doesn't keep (that stops with :class:`~executable_rules.errors.Unimplemented`)."""
    p = state.player(player)
    unjudged: list[str] = []
    sources = mana_sources(state, player, spending, unjudged)
    plan = _plan(p.mana, mana_sources(state, player), cost, x)        # unrestricted mana first
    if plan is None:
        plan = _plan(p.mana, sources, cost, x)
        if plan is not None:
            free = {(card, made) for card, made in
                    ((c, m) for c, ms in mana_sources(state, player) for m in ms)}
            pool = p.mana + tuple(m for _, made in plan for m in made)
            unspent = pay(pool, cost, x)
            if unspent is not None and len(unspent) > len(p.mana) and any(step not in free for step in plan):
                raise Unimplemented(f"restricted mana left in the pool after paying {cost} for {what} (Mana — CR 106.6)")
    if plan is None and unjudged:
        raise Unimplemented(f"a restriction on spending mana it can't judge: {'; '.join(unjudged)} (Mana — CR 106.6)")
    if plan is None:
        available = "".join(f"{{{m}}}" for m in p.mana) or "no mana in the pool"
        raise IllegalChoice(f"pay {cost}", f"{player} can't pay {cost}" + (f" (X={x})" if cost.has_x else "")
                            + f" for {what}: {available} and {len(mana_sources(state, player))} untapped mana source(s)",
                            Citation("Casting Spells", "601.2h"))
    from ..actions.tap_and_untap import tap_as_cost
    tapped = []
    for card, made in plan:
        c = state.cards[card]
        # The {T} cost of its mana ability: tapped by the Tap and Untap module (Tap and Untap — CR 701.26a).
        tap_as_cost(state, player, card, f"pay {cost}", detail="tapped for mana", citation=Citation("Tap and Untap", "701.26a"))
        state.set(p, "mana", p.mana + made)
        tapped.append(c.display_name)
        state.emit(EventKind.MANA, player, (card,), detail="taps for " + "".join(f"{{{s}}}" for s in made),
                   citation=Citation("Mana Abilities", "605.3a"))
    remaining = pay(p.mana, cost, x)
    assert remaining is not None
    if spent is not None:
        left = list(remaining)
        for m in p.mana:
            if m in left:
                left.remove(m)
            else:
                spent.append(m)
    state.set(p, "mana", remaining)
    state.emit(EventKind.PAY, player, names=(what,), detail=f"pays {cost}" + (f" with X={x}" if cost.has_x else ""),
               citation=Citation("Casting Spells", "601.2h"))
    return tapped
