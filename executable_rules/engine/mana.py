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

from lark import Tree

from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..errors import IllegalChoice
from ..model import EventKind, GameState, ManaCost, pay
from .layers import text

BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

__all__ = ["BASIC_MANA", "add_mana", "first_legal", "mana_choices", "mana_sources", "pay_mana"]


def mana_choices(node: Tree) -> list[tuple[str, ...]]:  # type: ignore[type-arg]
    """The alternatives an "Add …" effect offers, each a tuple of mana symbols: ``{G}`` → [("G",)],
    ``{W} or {U}`` → [("W",), ("U",)], ``one mana of any color`` → the five colours."""
    words = text(node)
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
    """What the permanent's "{T}: Add …" abilities can make (basic land types included, 305.6)."""
    card = state.cards[card_id]
    if card.face_down:
        return []
    found: list[tuple[str, ...]] = [(BASIC_MANA[s],) for s in card.oracle.subtypes if s in BASIC_MANA]
    for ability in card.oracle.parsed.abilities:
        if ability.kind != "activated" or ability.tree is None or "add_mana" not in ability.effects:
            continue
        costs = ability.tree.children[0]
        if not (isinstance(costs, Tree) and text(costs) == "{T}"):
            continue
        add = next(ability.tree.find_data("add_mana"))
        choices = mana_choices(add)
        words = text(add)
        if words.startswith("choose a color") and "for each" in words:
            # "Choose a color. Add one mana of that color for each charge counter on ~." (Mana — CR 106.1a)
            kind = next(str(t) for t in add.children if getattr(t, "type", "") == "COUNTER")
            n = card.counters.get(kind, 0)
            choices = [(color,) * n for color in "WUBRG"] if n else []
        for choice in choices:
            if choice not in found:
                found.append(choice)
    return found


def mana_sources(state: GameState, player: str) -> list[tuple[int, list[tuple[str, ...]]]]:
    """Untapped permanents ``player`` controls that tap for mana, with what each can make."""
    from .layers import characteristics
    found = []
    from ..actions.detain import is_detained
    for card in state.permanents(player):
        if card.tapped or is_detained(state, card.id):     # a detained permanent's mana abilities too (Detain — CR 701.35a)
            continue
        made = tap_mana_abilities(state, card.id)
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
             spent: list[str] | None = None) -> list[str]:
    """Pay ``cost`` (with X = ``x``): tap mana sources as needed (601.2g), then pay from the pool (601.2h).
    Return the names of the sources tapped (and add the mana spent to ``spent``); :class:`IllegalChoice` if it
    can't be paid."""
    p = state.player(player)
    plan = _plan(p.mana, mana_sources(state, player), cost, x)
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
