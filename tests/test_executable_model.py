"""The game model: invariants, undo and copy, determinism, decisions and the exploration walk."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from executable_rules.actions import ACTIONS, UnknownAction, find_action, module_name
from executable_rules.actions.discover import discover
from executable_rules.actions.draw import draw
from executable_rules.actions.explore import explore as explore_action
from executable_rules.actions.manifest import manifest
from executable_rules.actions.manifest_dread import manifest_dread
from executable_rules.actions.mill import mill
from executable_rules.actions.search import CardQuery, Find, search
from executable_rules.actions.shuffle import shuffle
from executable_rules.card_pool import load_card_pool
from executable_rules.choices import (
    Decision,
    Option,
    RandomChooser,
    Scripted,
    decide,
    explore,
    first_legal,
)
from executable_rules.errors import ExplorationLimit, IllegalChoice, UnknownOption
from executable_rules.model import EventKind, FaceDown, GameState, ManaCost, ZoneKind

NAMES = ["Forest", "Island", "Shock", "Grizzly Bears", "Fire // Ice", "Bramble Familiar", "Darksteel Colossus",
         "Blaze", "Golgari Grave-Troll", "Lightning Bolt", "Esika, God of the Tree // The Prismatic Bridge",
         "Life from the Loam", "Murder", "Ancestral Vision"]
BASIC_LAND = CardQuery("basic land card", types=frozenset({"Land"}), supertypes=frozenset({"Basic"}))


@pytest.fixture(scope="module")
def pool(corpus):
    return load_card_pool(corpus)


def game(pool, library, *, graveyard=(), battlefield=(), seed=0):
    state = GameState.new(["Alice", "Bob"], seed=seed)
    for name in library:
        state.add_card(pool.find(name), "Alice", ZoneKind.LIBRARY)
    for name in graveyard:
        state.add_card(pool.find(name), "Alice", ZoneKind.GRAVEYARD)
    for name in battlefield:
        state.add_card(pool.find(name), "Alice", ZoneKind.BATTLEFIELD)
    state._undo.clear()
    return state


# ---------------------------------------------------------------- mana value (Mana Cost and Color — CR 202.3)

@pytest.mark.parametrize("cost,value", [
    ("{3}{U}{U}", 5), ("{1}{W/U}{W/U}", 3), ("{2/B}{2/B}{2/B}", 6), ("{1}{W/P}{W/P}", 3), ("{X}{R}", 1),
    ("{X}{X}", 0), ("{0}", 0), ("{C}{C}", 2),
])
def test_mana_value(cost, value):
    assert ManaCost.parse(cost).mana_value == value


def test_mana_value_of_cards(pool):
    assert pool.find("Fire // Ice").mana_value == 4                    # halves add up (709.4b)
    assert pool.find("Bramble Familiar").mana_value == 2               # the adventurer's normal face (715.4)
    assert pool.find("Esika, God of the Tree // The Prismatic Bridge").mana_value == 3   # front face {1}{G}{G} (712.8a)
    assert pool.find("Ancestral Vision").mana_value == 0               # no mana cost (202.3a)
    assert pool.find("Walking Ballista").mana_value == 0               # X is 0 (202.3e)


@pytest.mark.parametrize("text,message", [
    ("{Q}", "'{Q}': unknown mana symbol {Q}"),
    ("{2}U", "'{2}U' is not a mana cost such as {2}{U}"),
    ("", "an empty mana cost; write {0} for a zero cost, or leave the cost out for no mana cost"),
])
def test_bad_mana_costs(text, message):
    with pytest.raises(ValueError) as e:
        ManaCost.parse(text)
    assert str(e.value) == message


# ---------------------------------------------------------------- undo, copy, problems


ACTIONS_TO_TRY = ["discover 0", "discover 3", "discover 7", "search a card", "search basic land", "explore",
                  "mill 3", "draw 2", "shuffle", "manifest", "manifest dread"]


def run(state, action, choose):
    if action.startswith("discover"):
        discover(state, "Alice", int(action.split()[1]), choose=choose)
    elif action == "search a card":
        search(state, "Alice", [Find(CardQuery(), put=ZoneKind.HAND)], shuffle=True, choose=choose)
    elif action == "search basic land":
        search(state, "Alice", [Find(BASIC_LAND, count=2, up_to=True, put=ZoneKind.BATTLEFIELD)], shuffle=True,
               choose=choose)
    elif action == "explore":
        creatures = [c for c in state.battlefield.cards if state.cards[c].is_creature]
        if creatures:
            explore_action(state, state.ref(creatures[0]), choose=choose)
    elif action == "mill 3":
        mill(state, "Alice", 3)
    elif action == "draw 2":
        draw(state, "Alice", 2, choose=choose)
    elif action == "shuffle":
        shuffle(state, "Alice")
    elif action == "manifest":
        manifest(state, "Alice")
    elif action == "manifest dread":
        manifest_dread(state, "Alice", choose=choose)


@settings(max_examples=60, deadline=None)
@given(library=st.lists(st.sampled_from(NAMES), max_size=12), graveyard=st.lists(st.sampled_from(NAMES), max_size=3),
       actions=st.lists(st.sampled_from(ACTIONS_TO_TRY), min_size=1, max_size=5), seed=st.integers(0, 1000))
def test_every_action_keeps_the_state_possible_and_undoes(pool, library, graveyard, actions, seed):
    # One pool for every example (reading it is seconds; a fresh one per example made this test minutes).
    state = game(pool, library, graveyard=graveyard, battlefield=["Merfolk Branchwalker"], seed=seed)
    choose = RandomChooser(seed)
    before = []
    for action in actions:
        before.append(state.snapshot())
        try:
            run(state, action, choose)
        except IllegalChoice:   # a random choice may be refused; the state must be as before
            assert state.snapshot() == before[-1]
            before.pop()
            continue
        assert state.problems() == [], action
    while state.history:
        state.undo()
    assert state.snapshot() == (before[0] if before else state.snapshot())


def test_copy_is_independent(pool):
    state = game(pool, ["Forest", "Shock", "Island"])
    before = state.snapshot()
    branch = state.copy()
    discover(branch, "Alice", 2, choose=first_legal)
    mill(branch, "Alice", 1)
    assert state.snapshot() == before
    assert branch.problems() == []
    assert branch.names(branch.stack) == ["Shock"]


def test_problems_reports_an_impossible_state(pool):
    state = game(pool, ["Forest"])
    card = state.player("Alice").library.cards[0]
    state.battlefield.cards.append(card)                   # the same card in two zones
    state.cards[card].counters = {"+1/+1": 1}               # counters on a card in a library
    problems = state.problems()
    assert any("is in both battlefield and Alice's library" in p for p in problems)
    assert any("has a permanent's status" in p for p in problems)


def test_same_seed_same_game(pool):
    library = ["Forest", "Island", "Darksteel Colossus", "Murder", "Shock", "Lightning Bolt"] * 3
    a, b = game(pool, library, seed=5), game(pool, library, seed=5)
    for state in (a, b):
        discover(state, "Alice", 1, choose=first_legal)
        shuffle(state, "Alice")
    assert a.snapshot() == b.snapshot()
    c = game(pool, library, seed=6)
    discover(c, "Alice", 1, choose=first_legal)
    shuffle(c, "Alice")
    assert c.names(c.player("Alice").library) != a.names(a.player("Alice").library)


def test_an_illegal_choice_leaves_the_state_as_it_was(pool):
    state = game(pool, ["Forest", "Bramble Familiar"])
    before = state.snapshot()
    with pytest.raises(IllegalChoice) as e:
        discover(state, "Alice", 3, choose=Scripted(["cast Fetch Quest"]))
    assert str(e.value) == ("illegal choice 'cast Fetch Quest': its mana value 7 is greater than 3 "
                            "(Discover — CR 701.57a)")
    assert e.value.citation.number == "701.57a"
    assert state.snapshot() == before
    assert [ev.kind for ev in state.rolled_back_events][:2] == [EventKind.EXILE, EventKind.EXILE]


def test_face_down_characteristics(pool):
    state = game(pool, ["Grizzly Bears"])
    [bears] = manifest(state, "Alice")
    card = state.cards[bears]
    assert (card.name, card.mana_cost, card.mana_value, card.subtypes, card.power, card.toughness) == \
        (None, None, 0, (), 2, 2)
    assert card.face_down is FaceDown.MANIFESTED and card.ward is None


# ---------------------------------------------------------------- decisions and exploring


def test_decide_takes_the_only_legal_option_without_asking():
    state = GameState.new(["Alice"])
    asked = []
    d = Decision.of("Alice", "pick", None, [Option("a", 1), Option("b", 2, legal=False, reason="no")])
    assert decide(state, d, lambda dec: asked.append(dec) or first_legal(dec)).value == 1
    assert asked == []
    assert state.events[-1].describe() == "Alice: choice a — pick; the only legal choice [illegal: 'b': no]"


def test_scripted_unknown_label():
    d = Decision.of("Alice", "find", None, [Option("find Forest"), Option("find nothing")])
    with pytest.raises(UnknownOption) as e:
        Scripted(["find Forrest"])(d)
    assert str(e.value) == ("no option 'find Forrest' for Alice's decision 'find'; did you mean 'find Forest'? "
                            "(legal: 'find Forest', 'find nothing')")


def test_explore_walks_every_choice_and_restores_the_state(pool):
    library = ["Forest", "Island", "Shock", "Grizzly Bears", "Forest"]
    state = game(pool, library)
    before = state.snapshot()
    exploration = explore(lambda s, c: search(s, "Alice", [Find(CardQuery(), put=ZoneKind.HAND)], choose=c), state)
    assert state.snapshot() == before
    assert len(exploration.outcomes) == 5
    assert sorted(o.state.names(o.state.player("Alice").hand)[0] for o in exploration.outcomes) == sorted(library)
    assert sum(exploration.by_first_choice.values()) == 5


def test_explore_is_bounded(pool):
    state = game(pool, ["Forest"] * 30 + ["Shock"] * 30)
    with pytest.raises(ExplorationLimit) as e:
        explore(lambda s, c: search(s, "Alice", [Find(BASIC_LAND, count=None, put=ZoneKind.HAND)], choose=c), state,
                max_outcomes=1000)
    assert str(e.value) == ("Alice's decision 'search for all basic land cards' has more than 1000 options; "
                            "narrow the action or raise max_outcomes")
    with pytest.raises(ExplorationLimit) as e:
        explore(lambda s, c: search(s, "Alice", [Find(BASIC_LAND, count=3, up_to=True, put=ZoneKind.HAND)], choose=c),
                state, max_outcomes=4000)     # 4525 ways to find up to three of thirty Forests
    assert str(e.value).startswith("Alice's decision 'search for up to 3 basic land cards' has more than 4000 options")
    with pytest.raises(ExplorationLimit) as e:
        explore(lambda s, c: search(s, "Alice", [Find(BASIC_LAND, count=2, up_to=True, put=ZoneKind.HAND)], choose=c),
                state, max_seconds=0.001)
    assert str(e.value).startswith("exploring took longer than 0.001 s after ")
    assert state.problems() == []


def test_explore_counts_discover_choices(pool):
    state = game(pool, ["Island", "Fire // Ice", "Forest"])
    state.add_card(pool.find("Grizzly Bears"), "Bob", ZoneKind.BATTLEFIELD)
    exploration = explore(lambda s, c: discover(s, "Alice", 4, choose=c), state)
    # cast Fire (4 targets: 2 players, 1 creature … any target) / cast Ice (1 permanent) / hand
    assert exploration.by_first_choice == {"cast Fire": 3, "cast Ice": 1, "put Fire // Ice into hand": 1}


# ---------------------------------------------------------------- the registry


@pytest.mark.parametrize("module", ACTIONS, ids=module_name)
def test_every_action_is_found_by_every_name(module):
    for alias in (module_name(module), module.KEYWORD, module.KEYWORD.upper(), *module.JAPANESE):
        assert find_action(alias) is module
    assert callable(getattr(module, module_name(module), None)) or module_name(module) in ("cast", "villainous_choice")


def test_unknown_action():
    with pytest.raises(UnknownAction) as e:
        find_action("serch")
    assert str(e.value).startswith("no action 'serch'; did you mean 'search'? Actions: ")
    listed = str(e.value).split("Actions: ", 1)[1].split(", ")
    assert {"cast", "cloak", "discover", "search"} <= set(listed) and listed == sorted(listed)
