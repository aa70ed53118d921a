"""The Oracle-text grammar: keyword abilities are those of the newest CR, real cards' lines are read into the
abilities the engine runs, unread lines are reported (never guessed), and the parser never crashes."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from executable_rules.card_pool import load_card_pool
from executable_rules.oracle import parse_card, parse_line
from executable_rules.oracle.coverage import measure
from executable_rules.oracle.keywords import KEYWORD_ABILITIES, canonical_keyword
from executable_rules.rules_index import newest_rules


@pytest.fixture(scope="module")
def pool(corpus):
    return load_card_pool(corpus)


def test_the_keyword_list_is_the_newest_crs():
    """A new CR release with a new keyword ability fails here: add it to oracle/keywords.py."""
    rules = newest_rules()
    titles = {r.title for n, r in rules.rules.items() if r.kind == "numbered" and r.parent == "702" and r.title}
    assert titles == set(KEYWORD_ABILITIES), (sorted(titles - set(KEYWORD_ABILITIES)),
                                             sorted(set(KEYWORD_ABILITIES) - titles))


@pytest.mark.parametrize("printed, title", [("Flying", "Flying"), ("first strike", "First Strike"),
                                             ("Swampwalk", "Landwalk"), ("Plainscycling", "Cycling"),
                                             ("Megamorph", "Morph"), ("Nightbound", "Daybound and Nightbound")])
def test_keyword_families(printed, title):
    assert canonical_keyword(printed) == title


@pytest.mark.parametrize("card, kinds", [
    ("Merfolk Branchwalker", [("triggered", "self_enters", None, ("explore",))]),
    ("Wildgrowth Walker", [("triggered", "explores", None, ("put_counters", "gain_life"))]),
    ("Sidisi, Brood Tyrant", [("triggered", "self_enters", None, ("mill",)),
                              ("triggered", "cards_to_graveyard", None, ("create_token",))]),
    ("Tranquil Cove", [("static", None, "enters_tapped", ()), ("triggered", "self_enters", None, ("gain_life",)),
                       ("activated", None, None, ("add_mana",))]),
    ("Darksteel Colossus", [("keyword", None, None, ()), ("static", None, "shuffle_instead", ())]),
    ("Mindlock Orb", [("static", None, "no_search", ())]),
    ("Aven Mindcensor", [("keyword", None, None, ()), ("keyword", None, None, ()),
                         ("static", None, "search_top_four", ())]),
    ("Untamed Wilds", [("spell", None, None, ("search", "shuffle"))]),
    ("Curator of Sun's Creation", [("triggered", "keyword_event", None, ("discover",))]),
])
def test_real_cards_read_into_abilities(pool, card, kinds):
    parsed = pool.find(card).parsed
    assert [(a.kind, a.trigger, a.static, a.effects) for a in parsed.abilities] == kinds
    assert parsed.complete


def test_dredge_and_once_each_turn_are_read(pool):
    assert pool.find("Stinkweed Imp").parsed.keyword_argument("Dredge") == "5"
    assert pool.find("Golgari Grave-Troll").parsed.keyword_argument("Dredge") == "6"
    assert pool.find("Curator of Sun's Creation").parsed.abilities[0].once_each_turn


def test_normalising_names_reminders_and_ability_words():
    ability = parse_line("Constellation — Whenever Doomwake Giant or another enchantment enters the battlefield under "
                         "your control, creatures your opponents control get -1/-1 until end of turn.", "Doomwake Giant")
    assert ability.kind == "triggered" and ability.text.startswith("whenever ~ or another enchantment")
    assert parse_line("Flying (This creature can't be blocked except by creatures with flying or reach.)",
                      "Serra Angel").keywords == (("Flying", ""),)
    legendary = parse_card("Sidisi, Brood Tyrant", "Whenever Sidisi enters the battlefield or attacks, mill three cards.")
    assert legendary.abilities[0].text.startswith("whenever ~ enters")


def test_unread_lines_are_reported_not_guessed():
    ability = parse_line("Blorp the flibber.", "Nonsense")
    assert ability.kind == "unparsed" and ability.tree is None and ability.error
    card = parse_card("Stranglehold", "Your opponents can't search libraries.\n"
                      "If an opponent would begin an extra turn, that player skips that turn instead.")
    assert [a.parsed for a in card.abilities] == [True, False] and not card.complete


def test_the_parser_never_crashes_on_a_sample_of_the_corpus(pool):
    """Seeded sample of all cards (the whole pool is `kb cards --unparsed`); every keyword line of it is read."""
    cards = sorted(pool.cards.values(), key=lambda c: c.name)
    sample = random.Random(11).sample(cards, 60)
    report = measure([(f.name, f.text) for c in sample for f in c.faces], workers=1, cache=False)
    assert report.crashed == []
    assert report.cards >= 60 and report.lines > 60
    assert report.keyword_lines_read == report.keyword_lines       # every keyword line of the sample is read
    assert report.complete >= report.cards // 5


def test_kb_cards_unparsed(corpus):
    from kb.cli.cards import cards_command
    result = CliRunner().invoke(cards_command, ["--unparsed", "--keyword", "Dredge", "--json", "--corpus", str(corpus)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["cards"] >= 10 and data["crashed"] == []
    assert data["keywords"]["Dredge"]["lines"] == data["keywords"]["Dredge"]["read"] >= 10
    result = CliRunner().invoke(cards_command, ["--corpus", str(corpus)])
    assert result.exit_code == 2 and "--unparsed" in result.output


def test_keyword_lists_of_old_and_un_cards():
    """Old Fogey's line lists nine keywords; "bands with other …" is Banding (702.22c), a name stops at its comma."""
    ability = parse_line("Phasing, cumulative upkeep {1}, echo {G}{G}, fading 3, bands with other Dinosaurs, "
                         "protection from Homarids, snow-covered plainswalk, flanking, rampage 2", "Old Fogey")
    assert [title for title, _ in ability.keywords] == [
        "Phasing", "Cumulative Upkeep", "Echo", "Fading", "Banding", "Protection", "Landwalk", "Flanking", "Rampage"]
    assert dict(ability.keywords)["Banding"] == "Dinosaurs"
    assert parse_line("Bands with other legendary creatures", "X").keywords == (("Banding", "legendary creatures"),)
    assert parse_line("Partner with Pir, Imaginative Rascal", "Toothy").keywords == (
        ("Partner", "Pir, Imaginative Rascal"),)
