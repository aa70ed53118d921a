"""What each action guarantees on any library: properties checked over random libraries and choices.

The scenarios check the rules case by case; these check that whatever the
cards and the choices, discover never leaves the card in exile, search never
fails to find "a card" while one is there, explore's counter follows 701.44a,
and dredge replaces only draws it may replace.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from executable_rules.actions.discover import discover
from executable_rules.actions.draw import draw
from executable_rules.actions.explore import explore as explore_action
from executable_rules.actions.search import CardQuery, Find, search
from executable_rules.card_pool import load_card_pool
from executable_rules.choices import RandomChooser, explore, first_legal
from executable_rules.model import EventKind, GameState, ZoneKind

CARDS = ["Forest", "Island", "Shock", "Grizzly Bears", "Fire // Ice", "Bramble Familiar", "Darksteel Colossus",
         "Blaze", "Murder", "Ancestral Vision", "Esika, God of the Tree // The Prismatic Bridge",
         "Halvar, God of Battle // Sword of the Realms", "Agadeem's Awakening // Agadeem, the Undercrypt",
         "Dirgur Island Dragon // Skimming Strike", "Golgari Grave-Troll", "Darkblast", "Life from the Loam", "Bone Splinters"]
libraries = st.lists(st.sampled_from(CARDS), max_size=15)
settings.register_profile("executable", max_examples=80, deadline=None)


@pytest.fixture(scope="module")
def pool(corpus):
    return load_card_pool(corpus)


def game(library, *, graveyard=(), seed=0, creature=True):
    from executable_rules.card_pool import shared_card_pool
    from kb.corpus import find_corpus
    pool = shared_card_pool(find_corpus())
    state = GameState.new(["you", "opponent"], seed=seed)
    for name in library:
        state.add_card(pool.find(name), "you", ZoneKind.LIBRARY)
    for name in graveyard:
        state.add_card(pool.find(name), "you", ZoneKind.GRAVEYARD)
    if creature:
        state.add_card(pool.find("Grizzly Bears"), "opponent", ZoneKind.BATTLEFIELD)
    return state


@settings(max_examples=80, deadline=None)
@given(library=libraries, n=st.integers(0, 8), seed=st.integers(0, 10_000))
def test_discover_properties(library, n, seed):
    state = game(library, seed=seed)
    cards_before = sorted(state.names(state.player("you").library))
    result = discover(state, "you", n, choose=RandomChooser(seed))
    you = state.player("you")
    assert state.exile.cards == []                                   # cast or into hand, never left in exile
    names_after = sorted(state.names(you.library) + state.names(you.hand) + state.names(state.stack)
                         + [state.cards[c].oracle.name for c in you.graveyard.cards])
    assert names_after == cards_before                               # (no creature of yours: nothing to sacrifice)
    if result.discovered is None:
        assert all(c.is_land or c.mana_value > n for c in (state.cards[i] for i in you.library.cards))
    else:
        card = state.cards[result.discovered]
        assert not card.is_land and card.mana_value <= n             # 701.57c
        assert (result.discovered in state.stack.cards) == result.cast
        assert result.cast or result.discovered in you.hand.cards
        if result.cast:
            assert state.spells[result.discovered].mana_value <= n  # 701.57a: the spell's mana value
    kinds = [e.kind for e in state.events]
    assert EventKind.SHUFFLE not in kinds                            # a random order is not a shuffle
    assert kinds[-1] is EventKind.DISCOVER                           # 701.57b: discovered, whatever happened
    assert state.problems() == []


@settings(max_examples=40, deadline=None)
@given(library=libraries, n=st.integers(0, 8))
def test_discover_explored_outcomes_always_cast_or_hand(library, n):
    state = game(library)
    for outcome in explore(lambda s, c: discover(s, "you", n, choose=c), state).outcomes:
        s = outcome.state
        assert s.exile.cards == []
        hit = outcome.result.discovered
        assert hit is None or hit in s.stack.cards or hit in s.player("you").hand.cards


@settings(max_examples=60, deadline=None)
@given(library=libraries, count=st.integers(1, 3))
def test_search_for_a_quantity_finds_as_many_as_possible(library, count):
    state = game(library)
    exploration = explore(lambda s, c: search(s, "you", [Find(CardQuery(), count=count, put=ZoneKind.HAND)], choose=c),
                          state)
    for outcome in exploration.outcomes:
        assert len(outcome.state.player("you").hand) == min(count, len(library))     # 701.23d


@settings(max_examples=60, deadline=None)
@given(library=libraries)
def test_search_for_a_quality_may_always_fail_to_find(library):
    state = game(library)
    query = CardQuery("basic land card", types=frozenset({"Land"}), supertypes=frozenset({"Basic"}))
    exploration = explore(lambda s, c: search(s, "you", [Find(query, put=ZoneKind.HAND)], choose=c), state)
    hands = [o.state.names(o.state.player("you").hand) for o in exploration.outcomes]
    assert [] in hands                                                                # 701.23b
    basics = {n for n in library if n in ("Forest", "Island")}
    assert {h[0] for h in hands if h} == basics


@settings(max_examples=60, deadline=None)
@given(library=libraries, leaves=st.booleans(), seed=st.integers(0, 100))
def test_explore_counter_follows_the_revealed_card(library, leaves, seed):
    state = game(library, creature=False)
    from executable_rules.card_pool import shared_card_pool
    from kb.corpus import find_corpus
    scout = state.add_card(shared_card_pool(find_corpus()).find("Merfolk Branchwalker"), "you", ZoneKind.BATTLEFIELD)
    ref = state.ref(scout)
    if leaves:
        state.move(scout, state.player("you").graveyard)
    top = state.cards[state.player("you").library.cards[0]] if library else None
    explore_action(state, ref, choose=RandomChooser(seed))
    land_revealed = top is not None and top.is_land
    counters = state.cards[scout].counters.get("+1/+1", 0)
    assert counters == (0 if leaves or land_revealed else 1)                          # 701.44a, 701.44c
    if land_revealed:
        assert top.id in state.player("you").hand.cards
    assert state.events[-1].kind is EventKind.EXPLORE                                 # 701.44b


@settings(max_examples=60, deadline=None)
@given(library=st.lists(st.sampled_from(["Forest", "Shock", "Darkblast"]), max_size=10),
       graveyard=st.lists(st.sampled_from(["Darkblast", "Golgari Grave-Troll", "Life from the Loam"]), max_size=3),
       count=st.integers(1, 3), seed=st.integers(0, 100))
def test_dredge_only_where_it_may(library, graveyard, count, seed):
    state = game(library, graveyard=graveyard, creature=False)
    offered = []

    class Watch(RandomChooser):
        def __call__(self, decision):
            offered.append((len(state.player("you").library), [o for o in decision.legal_choices()]))
            return super().__call__(decision)

    draw(state, "you", count, choose=Watch(seed))
    for library_size, options in offered:
        for option in options:
            if option.value is not None:
                assert state.cards[option.value].oracle.dredge <= library_size       # 702.52b
    dredges = sum(e.kind is EventKind.DREDGE for e in state.events)
    draws = sum(e.kind is EventKind.DRAW for e in state.events)
    assert dredges + draws == count                                                   # one replacement per draw
    assert state.problems() == []


def test_first_legal_is_deterministic(pool):
    a, b = game(["Forest", "Shock", "Island"]), game(["Forest", "Shock", "Island"])
    discover(a, "you", 2, choose=first_legal)
    discover(b, "you", 2, choose=first_legal)
    assert a.snapshot() == b.snapshot()


def test_aftermath_casts_its_half_from_the_graveyard_only(pool):
    """Aftermath — CR 702.127a: the half with aftermath is cast from a graveyard, never from a hand."""
    from executable_rules.actions.aftermath import aftermath
    from executable_rules.errors import IllegalChoice

    state = GameState.new(["you", "opponent"], seed=0)
    for _ in range(6):
        state.add_card(pool.find("Island"), "you", ZoneKind.BATTLEFIELD)
    in_graveyard = state.add_card(pool.find("Spring // Mind"), "you", ZoneKind.GRAVEYARD)
    in_hand = state.add_card(pool.find("Spring // Mind"), "you", ZoneKind.HAND)
    with pytest.raises(IllegalChoice, match="aftermath"):
        aftermath(state, "you", in_hand)
    spell = aftermath(state, "you", in_graveyard)
    assert state.zone_of(in_graveyard) is state.stack and spell is not None
