"""Search — CR 701.23 (701.23a–j)

To search a zone for a card is to look at all its cards, even in a hidden
zone, and find one that matches (701.23a). What a player must find depends on
the zone and on what is looked for:

- a hidden zone (library, hand) searched for cards with a stated quality
  ("a basic land card", "all cards named Shock"): finding some or all of them
  is optional, even if they are there (701.23b) — even if one of them is
  revealed, because the zone is still hidden (Zones — CR 400.2);
- a public zone (graveyard): matching cards must be found, as many as asked;
- a hidden zone searched for a quantity only ("a card", "three cards"): that
  many must be found, or as many as there are (701.23d);
- an undefined quality (the name of a card that wasn't chosen): the zone may
  be searched, but no card can be found (701.23c);
- outside the game: a card the player owns may be chosen (701.23j).

Found cards are revealed only when the instruction says so (701.23e). When a
search of a library is replaced by a search of its top cards (Aven
Mindcensor), it is still a search of that library: "whenever … searches"
abilities trigger and "then shuffle" shuffles the whole library (701.23f). A
player may choose to search even if what they'd do with the cards is illegal
or impossible (701.23g). Several "search for"s before one shuffle are one
search: the library is searched once, and with Aven Mindcensor the same top
four cards are seen throughout (701.23h). Players searching at once look at
the same time, then decide in APNAP order (701.23i).

"Players can't search libraries" (Mindlock Orb, Shadow of Doubt) stops the
search of a library, not the rest of the effect: "search … then shuffle"
still shuffles, but a player offered "you may search … if you do, shuffle"
can't choose to search, and doesn't shuffle.

>>> from executable_rules.model import GameState, OracleCard, ZoneKind
>>> state = GameState.new(["Alice"], seed=2)
>>> forest = OracleCard.simple("Forest", None, "Land", subtypes=("Forest",), supertypes=("Basic",))
>>> shock = OracleCard.simple("Shock", "{R}", "Instant")
>>> for o in (shock, forest, shock):
...     _ = state.add_card(o, "Alice", ZoneKind.LIBRARY)
>>> basic_land = CardQuery("basic land card", types=frozenset({"Land"}), supertypes=frozenset({"Basic"}))
>>> d = []
>>> result = search(state, "Alice", [Find(basic_land, put=ZoneKind.HAND)], shuffle=True,
...                 choose=lambda decision: d.append(decision) or next(decision.legal_choices()))
>>> [o.label for o in d[0].legal_choices()], [o.label for o in d[0].illegal]
(['find Forest', 'find nothing'], ['find Shock'])
>>> state.names(state.player("Alice").hand)
['Forest']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ..engine import static
from ..choices import Chooser, Decision, Option, decide, first_legal
from ..citation import Citation
from ..model import Card, EventKind, GameState, ZoneKind
from .reveal import reveal
from .shuffle import shuffle as shuffle_library

KEYWORD = "Search"
KIND = "keyword action"
JAPANESE = ("探す", "サーチ")
SUBRULES = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j")
SUMMARY = ("Look through a zone and find cards: optional for a quality in a hidden zone, required for a "
           "quantity or in a public zone, impossible for an undefined quality.")
OUT_OF_REACH: dict[str, str] = {}


def cite(letter: str) -> Citation:
    return Citation(KEYWORD, f"701.23{letter}")


@dataclass(frozen=True)
class CardQuery:
    """What a search looks for. With no quality at all it is a quantity: "a card" (701.23d).

    ``undefined`` is a quality that refers to something that doesn't exist,
    such as the name of a card that wasn't chosen (701.23c).

    >>> CardQuery("creature card", types=frozenset({"Creature"})).has_quality, CardQuery().has_quality
    (True, False)
    """

    description: str = "card"
    name: str | None = None
    types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    nonland: bool = False
    undefined: bool = False
    any_subtypes: frozenset[str] = frozenset()   # "a Swamp or Forest card": one of these
    any_types: frozenset[str] = frozenset()      # "a creature or land card": one of these

    @property
    def has_quality(self) -> bool:
        return bool(self.name or self.types or self.supertypes or self.subtypes or self.nonland or self.undefined
                    or self.any_subtypes or self.any_types)

    def matches(self, card: Card) -> bool:
        if self.undefined:
            return False
        from .changeling import changeling                                # every creature type: Changeling — CR 702.73a
        o = card.oracle
        return ((self.name is None or self.name in (o.name, *o.names))
                and self.types <= o.types and self.supertypes <= o.supertypes
                and all(changeling(o, s) for s in self.subtypes) and not (self.nonland and "Land" in o.types)
                and (not self.any_subtypes or any(changeling(o, s) for s in self.any_subtypes))
                and (not self.any_types or bool(self.any_types & o.types)))

    def why_not(self, card: Card) -> str:
        if self.undefined:
            return f"the card to look for is undefined ({self.description}): no card can be found"
        return f"{card.oracle.name} isn't a {self.description}"


@dataclass(frozen=True)
class Find:
    """One "for …" of a search: what, how many (``None``: all), and where found cards go.

    ``put`` is where the found cards go (``None``: they stay, for the caller).
    """

    query: CardQuery
    count: int | None = 1
    up_to: bool = False
    put: ZoneKind | None = None
    tapped: bool = False


@dataclass
class SearchResult:
    """Who searched which zones, and what each player found (per :class:`Find`)."""

    searched: dict[str, list[str]] = field(default_factory=dict)
    found: dict[str, list[list[int]]] = field(default_factory=dict)

    def all_found(self) -> list[int]:
        return [c for per_player in self.found.values() for cards in per_player for c in cards]


ZoneSpec = tuple[str | None, ZoneKind]
"""A zone to search: (owner, kind); owner ``None`` is the searching player's own."""


@dataclass
class _Looked:
    """What one player sees in one zone during the search."""

    owner: str
    kind: ZoneKind
    visible: list[int]
    hidden_rest: list[int]
    limited_by: str | None = None


def _look(state: GameState, player: str, zones: Sequence[ZoneSpec]) -> tuple[list[_Looked], list[str]]:
    looked: list[_Looked] = []
    notes: list[str] = []
    for owner, kind in zones:
        owner = owner or player
        if kind is ZoneKind.OUTSIDE and owner != player:
            raise ValueError(f"{player} can search outside the game only for cards they own (701.23j)")
        zone = state.zone(kind, owner)
        if kind is ZoneKind.LIBRARY:
            blocker = static.search_prohibited_by(state, player)
            if blocker:
                notes.append(f"{player} can't search {zone.label} ({blocker}: players can't search libraries)")
                state.emit(EventKind.NOTHING, player, source=zone.label,
                           detail=f"{blocker}: players can't search libraries; nothing can be found there")
                continue
            limit = static.library_search_limit(state, player)
            if limit:
                n, source = limit
                looked.append(_Looked(owner, kind, list(zone.cards[:n]), list(zone.cards[n:]), source))
                state.emit(EventKind.SEARCH, player, source=zone.label,
                           detail=f"only the top {n} cards ({source}); it is still a search of that library",
                           citation=cite("f"))
                continue
        looked.append(_Looked(owner, kind, list(zone.cards), []))
        if kind is ZoneKind.OUTSIDE:
            how = "cards they own outside the game may be chosen"
            rule = "j"
        elif kind.is_hidden:
            how = "a hidden zone (Zones — CR 400.2)"
            revealer = static.top_card_revealed_by(state, owner) if kind is ZoneKind.LIBRARY else None
            if revealer and zone.cards:
                how += f", even though its top card is revealed ({revealer})"
            rule = "a"
        else:
            how = "a public zone"
            rule = "a"
        state.emit(EventKind.SEARCH, player, source=zone.label, detail=how, citation=cite(rule))
    return looked, notes


def _selections(candidates: list[tuple[int, _Looked]], count: int | None, low: int, forced: set[int],
                must_take_forced: bool) -> Iterator[tuple[int, ...]]:
    high = len(candidates) if count is None else min(count, len(candidates))
    ids = [c for c, _ in candidates]
    for size in range(high, low - 1, -1):
        for combo in itertools.combinations(ids, size):
            chosen = set(combo)
            if (must_take_forced or size < high) and not forced <= chosen:
                continue
            yield combo


def _label(state: GameState, cards: Sequence[int], multi_zone: bool, where: dict[int, str]) -> str:
    if not cards:
        return "find nothing"
    names = [state.cards[c].oracle.name + (f" ({where[c]})" if multi_zone else "") for c in cards]
    return "find " + " + ".join(names)


def _find_decision(state: GameState, player: str, find: Find, looked: list[_Looked], taken: set[int],
                   citation_hint: str) -> Decision:
    where = {c: lk.kind.value for lk in looked for c in lk.visible + lk.hidden_rest}
    multi_zone = len(looked) > 1
    candidates = [(c, lk) for lk in looked for c in lk.visible
                  if c not in taken and find.query.matches(state.cards[c])]
    forced: set[int] = set()
    for c, lk in candidates:
        if lk.kind.is_public:
            forced.add(c)                                 # public zone: must find
        elif lk.kind.is_hidden and not find.query.has_quality:
            forced.add(c)                                 # 701.23d: a quantity must be found
    count = find.count
    high = len(candidates) if count is None else min(count, len(candidates))
    low = 0 if find.up_to else min(high, len(forced))
    must_take_forced = count is None and not find.up_to
    illegal: list[Option] = []
    if low > 0:
        quantity = not find.query.has_quality
        why = ("searching a hidden zone for a quantity of cards, that many must be found" if quantity else
               "matching cards in a public zone must be found: only in a hidden zone may they be left (701.23b)")
        illegal.append(Option("find nothing", (), False, why, cite("d" if quantity else "a")))
    seen_names: set[str] = set()
    for lk in looked:
        for c in lk.visible:
            card = state.cards[c]
            if c in taken or find.query.matches(card) or card.oracle.name in seen_names:
                continue
            seen_names.add(card.oracle.name)
            illegal.append(Option(_label(state, [c], multi_zone, where), (c,), False, find.query.why_not(card),
                                  cite("c" if find.query.undefined else "a")))
        for c in lk.hidden_rest:
            card = state.cards[c]
            if find.query.matches(card) and card.oracle.name not in seen_names:
                seen_names.add(card.oracle.name)
                illegal.append(Option(_label(state, [c], multi_zone, where), (c,), False,
                                      f"not among the cards {player} may look at ({lk.limited_by})", cite("f")))

    def generate() -> Iterator[Option]:
        for combo in _selections(candidates, count, low, forced, must_take_forced):
            yield Option(_label(state, combo, multi_zone, where), combo)

    how_many = "all" if count is None else ("up to " if find.up_to else "") + str(count)
    what = find.query.description
    if count != 1:
        what = re.sub(r"\bcard\b", "cards", what, count=1)
    return Decision(player, f"search for {how_many} {what}{citation_hint}", cite("a"),
                    generate, tuple(illegal))


def search(state: GameState, players: str | Sequence[str], finds: Sequence[Find], *,
           zones: Sequence[ZoneSpec] = ((None, ZoneKind.LIBRARY),), reveal_found: bool = False,
           optional: bool = False, shuffle: bool = False, choose: Chooser = first_legal) -> SearchResult:
    """Each of ``players`` searches ``zones`` for ``finds``, then puts what they found where each says.

    ``players`` search at the same time when there are several (701.23i);
    ``optional`` is "may search" (the player chooses first whether to search);
    ``shuffle`` shuffles each library searched or to be searched ("then
    shuffle"), except for a player who chose not to search.
    """
    names = [players] if isinstance(players, str) else list(players)
    order = [p.name for p in state.apnap() if p.name in names]
    result = SearchResult()
    with state.action("search"):
        searching: list[str] = []
        for player in order:
            if optional:
                blocker = static.search_prohibited_by(state, player)
                impossible = blocker and all(kind is ZoneKind.LIBRARY for _, kind in zones)
                answer = decide(state, Decision.of(player, "search?", cite("g"), [
                    Option("search", True, not impossible,
                           f"{blocker}: players can't search libraries, so searching is impossible" if impossible else ""),
                    Option("don't search", False),
                ]), choose)
                if not answer.value:
                    continue
            searching.append(player)
        looked: dict[str, list[_Looked]] = {}
        for player in searching:                                           # 701.23i: all look at once
            looked[player], _ = _look(state, player, zones)
            result.searched[player] = [state.zone(lk.kind, lk.owner).label for lk in looked[player]]
        for player in searching:                                           # …then decide in APNAP order
            taken: set[int] = set()
            result.found[player] = []
            hint = "" if len(finds) == 1 else " (one search for several cards, 701.23h)"
            for find in finds:
                answer = decide(state, _find_decision(state, player, find, looked[player], taken, hint), choose)
                cards = list(answer.value)
                taken.update(cards)
                result.found[player].append(cards)
                if cards:
                    state.emit(EventKind.FIND, player, cards, detail="" if reveal_found else "not revealed",
                               citation=cite("e") if not reveal_found else None)
                if reveal_found and cards:
                    reveal(state, player, cards, detail="the instruction says to reveal them (701.23e)")
        for player in searching:
            for find, cards in zip(finds, result.found[player]):
                for card in cards:
                    _put(state, player, card, find)
        if shuffle:
            to_shuffle = searching if optional else order
            for player in to_shuffle:
                for owner in dict.fromkeys(owner or player for owner, kind in zones if kind is ZoneKind.LIBRARY):
                    shuffle_library(state, owner)
    return result


def _put(state: GameState, player: str, card: int, find: Find) -> None:
    if find.put is None:
        return
    c = state.cards[card]
    source = state.zone_of(card).label
    if find.put is ZoneKind.BATTLEFIELD:
        blocker = static.entering_prohibited_by(state, c)
        if blocker:
            state.emit(EventKind.NOTHING, player, (card,), source=source,
                       detail=f"{blocker}: it can't enter the battlefield and stays where it is", citation=cite("g"))
            return
        state.move(card, state.battlefield, controller=player)
        if find.tapped:
            state.set(c, "tapped", True)
    else:
        state.move(card, state.zone(find.put, c.owner), position="top")
    state.emit(EventKind.MOVE, player, (card,), source=source, destination=state.zone_of(card).label)
