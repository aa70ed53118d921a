"""Questions that name cards as players asked them (tests/data/card_questions.toml): the set is
what it says it is, and the search with card recognition answers them (lexical: the suite's database
embeds nothing; bench/bench_card_search.py measures the hybrid search, both halves, and the search
without card recognition in the same run)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from search_quality import first_rank  # noqa: E402

from kb.search.cards import card_names  # noqa: E402
from kb.search.engine import answer  # noqa: E402
from kb.sqlite import sqlite3  # noqa: E402

QUESTIONS = ROOT / "tests" / "data" / "card_questions.toml"
ROUND_6 = ROOT / "tests" / "data" / "card_questions_r6.toml"  # round 6's held-out set
ROUND_7 = ROOT / "tests" / "data" / "card_questions_r7.toml"  # round 7's held-out set
ROUND_8 = ROOT / "tests" / "data" / "card_questions_r8.toml"  # round 8's held-out set
ROUND_9 = ROOT / "tests" / "data" / "card_questions_r9.toml"  # round 9's held-out set
# Floors a little under what the lexical search measures over all 61 (README "Questions that name
# cards"): 54.1 % with card recognition, 21.3 % without, in the same run (round 5; 59.0 % and 21.3 %
# in round 6).
WITH_CARDS_FLOOR = 0.45
GAIN_FLOOR = 0.20


def _questions(path: Path = QUESTIONS) -> list[dict]:
    with open(path, "rb") as f:
        return tomllib.load(f)["query"]


@pytest.fixture(scope="module")
def conn(built_db):
    c = sqlite3.connect(f"{built_db.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    yield c
    c.close()


def test_the_set_is_players_questions_with_their_sources_split_in_halves():
    rows = _questions()
    assert len(rows) >= 50
    assert {r["lang"] for r in rows} == {"en", "ja"}
    assert all(r["source"].startswith("http") and r["cards"] and r["expect"] for r in rows)
    frozen = sum(r["part"] == "frozen" for r in rows)
    # The first 52 were split in halves by a seed; a later question gets its part by the sha256 rule
    # alone (tests/data/card_questions.toml), so the halves may drift apart a little.
    assert {r["part"] for r in rows} == {"tuning", "frozen"} and abs(2 * frozen - len(rows)) <= max(1, len(rows) // 10)
    assert len({r["q"] for r in rows}) == len(rows)
    with open(ROOT / "tests" / "data" / "search_eval.toml", "rb") as f:
        assert not {r["q"] for r in rows} & {c["q"] for c in tomllib.load(f)["query"]}


def test_round_6_is_a_new_held_out_set_split_by_its_seed():
    """41 questions from sources the other sets did not use, none of theirs; parts as the file's
    header says they were drawn: each language's indices shuffled with random.Random(20261206), the
    first half (rounded up) tuning."""
    import random

    rows = _questions(ROUND_6)
    assert len(rows) >= 40 and {r["lang"] for r in rows} == {"en", "ja"}
    assert all(r["source"].startswith("http") and r["cards"] and r["expect"] and len(r["q"]) <= 400 for r in rows)
    others = {r["q"] for r in _questions()}
    for name in ("search_eval.toml", "search_eval_players.toml", "search_eval_players2.toml"):
        with open(ROOT / "tests" / "data" / name, "rb") as f:
            others |= {c["q"] for c in tomllib.load(f)["query"]}
    assert not {r["q"] for r in rows} & others and len({r["q"] for r in rows}) == len(rows)
    used = {r["source"] for r in _questions()}
    assert not {r["source"] for r in rows} & used
    rng = random.Random(20261206)
    for lang in ("en", "ja"):
        idx = [i for i, r in enumerate(rows) if r["lang"] == lang]
        rng.shuffle(idx)
        tuning = set(idx[:(len(idx) + 1) // 2])
        assert all((rows[i]["part"] == "tuning") == (i in tuning) for i in idx)


def test_round_7_is_a_new_held_out_set_split_by_its_seed():
    """42 questions from sources no other set used, none of theirs; parts as the file's header says
    they were drawn: each language's indices shuffled with random.Random(20261207), the first half
    (rounded up) tuning."""
    import random

    rows = _questions(ROUND_7)
    assert len(rows) >= 40 and {r["lang"] for r in rows} == {"en", "ja"}
    assert all(r["source"].startswith("http") and r["cards"] and r["expect"] and len(r["q"]) <= 400 for r in rows)
    others = {r["q"] for r in _questions()} | {r["q"] for r in _questions(ROUND_6)}
    sources = {r["source"] for r in _questions()} | {r["source"] for r in _questions(ROUND_6)}
    for name in ("search_eval.toml", "search_eval_players.toml", "search_eval_players2.toml",
                 "search_eval_players3.toml"):
        text = (ROOT / "tests" / "data" / name).read_text(encoding="utf-8")
        with open(ROOT / "tests" / "data" / name, "rb") as f:
            others |= {c["q"] for c in tomllib.load(f)["query"]}
        assert not [r["source"] for r in rows if r["source"] in text], name  # their sources, named anywhere
    assert not {r["q"] for r in rows} & others and len({r["q"] for r in rows}) == len(rows)
    assert not {r["source"] for r in rows} & sources
    rng = random.Random(20261207)
    for lang in ("en", "ja"):
        idx = [i for i, r in enumerate(rows) if r["lang"] == lang]
        rng.shuffle(idx)
        tuning = set(idx[:(len(idx) + 1) // 2])
        assert all((rows[i]["part"] == "tuning") == (i in tuning) for i in idx)


@pytest.mark.parametrize("path,seed", [(ROUND_8, 20261208), (ROUND_9, 20261209)], ids=["r8", "r9"])
def test_a_round_is_a_new_held_out_set_split_by_its_seed(path, seed):
    """42 questions from pages and trackers no other set names, none of theirs; parts as the file's
    header says they were drawn: the indices in file order shuffled with random.Random(seed), the
    first half (rounded up) tuning."""
    import random

    rows = _questions(path)
    assert len(rows) >= 40 and {r["lang"] for r in rows} == {"en"}
    assert all(r["source"].startswith("http") and r["cards"] and r["expect"] and len(r["q"]) <= 400 for r in rows)
    others: set[str] = set()
    for name in sorted(p.name for p in (ROOT / "tests" / "data").glob("*.toml")):
        if name == path.name:
            continue
        text = (ROOT / "tests" / "data" / name).read_text(encoding="utf-8")
        with open(ROOT / "tests" / "data" / name, "rb") as f:
            others |= {c["q"] for c in tomllib.load(f).get("query", [])}
        assert not [r["source"] for r in rows if r["source"] in text], name  # their sources, named anywhere
    assert not {r["q"] for r in rows} & others and len({r["q"] for r in rows}) == len(rows)
    idx = list(range(len(rows)))
    random.Random(seed).shuffle(idx)
    tuning = set(idx[:(len(idx) + 1) // 2])
    assert all((rows[i]["part"] == "tuning") == (i in tuning) for i in idx)


@pytest.mark.parametrize("path", [QUESTIONS, ROUND_6, ROUND_7, ROUND_8, ROUND_9],
                         ids=["round 4-5", "round 6", "round 7", "round 8", "round 9"])
def test_every_card_named_is_a_card_and_every_expected_rule_is_in_the_newest_cr(conn, path):
    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    for r in _questions(path):
        for name in r["cards"]:
            assert conn.execute("select 1 from cards where name_en = ?", [name]).fetchone(), name
        for number in r["expect"]:
            assert conn.execute("select 1 from rules where lang = 'en' and release = ? and number = ?",
                                [newest, number]).fetchone(), (r["q"], number)


@pytest.mark.parametrize("path, misses", [
    (QUESTIONS, 1),  # Ovinize, typed as a verb ("Ovinizing it in response")
    (ROUND_6, 2),  # "Phyerxian Tyranny" (two letters swapped in a common-looking word), "Freyalise's +2"
    # "privileged position" and "blood sun" in lower case (names of two common words), and four of the
    # frozen half's, not looked at ("Kalitas", two Kalitas cards printed as often, is found since round 8).
    (ROUND_7, 6),
    # "goyf" and "lightning bolt" (a nickname, and a name of two common words in lower case), and four of
    # the frozen half's, not looked at.
    (ROUND_8, 5),
    # "Tezzeret's effect" (a word of many Tezzerets, the card named only in the question before), and two of
    # the frozen half's, not looked at ("drake haven" is found since round 9: the asker types names in lower case).
    (ROUND_9, 3),
], ids=["round 4-5", "round 6", "round 7", "round 8", "round 9"])
def test_the_search_recognises_the_cards_each_question_names(conn, path, misses):
    index = card_names(conn)
    missed = []
    for r in _questions(path):
        found = {m.name for m in index.find(r["q"])}
        if not set(r["cards"]) <= found:
            missed.append((r["q"], sorted(set(r["cards"]) - found)))
    assert len(missed) <= misses, missed


@pytest.mark.parametrize("path, floor, gain", [
    (QUESTIONS, WITH_CARDS_FLOOR, GAIN_FLOOR),
    # Round 6, all 41: 46.3 % with card recognition, 31.7 % without, lexical (README, round 6).
    (ROUND_6, 0.40, 0.10),
    # Round 7, all 42: 54.8 % with card recognition, 21.4 % without, lexical (README, round 7; 42.9 % and
    # 21.4 % before its changes).
    (ROUND_7, 0.45, 0.25),
    # Round 8, all 42: 52.4 % with card recognition, 21.4 % without, lexical (README, round 8; 45.2 % and
    # 21.4 % before its changes).
    (ROUND_8, 0.45, 0.25),
    # Round 9, all 42: 66.7 % with card recognition, 26.2 % without, lexical (README, round 9; 57.1 % and
    # 26.2 % before its changes).
    (ROUND_9, 0.60, 0.30),
], ids=["round 4-5", "round 6", "round 7", "round 8", "round 9"])
def test_card_recognition_answers_players_questions_and_beats_the_search_without_it(conn, path, floor, gain):
    rows = _questions(path)
    hits = {True: 0, False: 0}
    for r in rows:
        for cards in (True, False):
            groups = answer(conn, r["q"], dense=False, others=False, time_limit=10, cards=cards).groups
            rank = first_rank([g.number for g in groups], r["expect"])
            hits[cards] += bool(rank and rank <= 3)
    with_cards, without = hits[True] / len(rows), hits[False] / len(rows)
    assert with_cards >= floor, (with_cards, without)
    assert with_cards - without >= gain, (with_cards, without)


def test_a_capitalised_word_starting_a_sentence_is_no_card_name(conn):
    index = card_names(conn)
    found = [m.name for m in index.find("I took over Platinum Angel and I'm at 0 life now. What happens?")]
    assert found == ["Platinum Angel"]  # not Who // What // When // Where // Why


def test_a_name_of_common_words_counts_in_lower_case_beside_another_typed_so(conn):
    """Round 9: "compelling deterrance" (a name of several words, in lower case) says how this asker types
    names, so "drake haven" is the card too; alone, or beside a capitalised name, it is not."""
    index = card_names(conn)
    q = "When casting compelling deterrance targetting drake haven and controlling a zombie"
    assert [m.name for m in index.find(q)] == ["Compelling Deterrence", "Drake Haven"]
    assert [m.name for m in index.find("When casting Compelling Deterrence targetting drake haven")] == [
        "Compelling Deterrence"]
    assert [m.name for m in index.find("does a drake haven make drakes")] == []


def test_a_cards_last_word_refers_back_to_it(conn):
    index = card_names(conn)
    q = "I have an Unstable Shapeshifter out and my opponent plays Mogg Squad. Does the Shapeshifter die?"
    assert [m.name for m in index.find(q)] == ["Unstable Shapeshifter", "Mogg Squad"]


@pytest.mark.parametrize("card, rule", [
    ("Silent Arbiter", "508.1"),  # No more than one creature can attack each combat
    ("Geist of Saint Traft", "508.4"),  # a token that's tapped and attacking
    ("Thirst for Knowledge", "118.12"),  # discard two cards unless you discard an artifact card
    ("Spine of Ish Sah", "603.10"),  # When ~ is put into a graveyard from the battlefield
    ("Intet, the Dreamer", "305.2"),  # You may play that card
    ("Séance", "302.6"),  # create a token that's a copy of that card
    ("Shrine of Burning Rage", "601.2"),  # … or whenever you cast a red spell
    # Round 8: what a text's costs, layers and keywords point to.
    ("Burning Wish", "400.11"),  # a sorcery card you own from outside the game
    ("Goblin Electromancer", "118.7"),  # … cost {1} less to cast
    ("Skullcrack", "615.12"),  # Damage can't be prevented this turn
    ("Kitchen Finks", "107.4"),  # {1}{G/W}{G/W}: hybrid symbols in its mana cost
    ("Kitchen Finks", "400.7"),  # persist returns it as a new object
    ("Archetype of Courage", "613.1"),  # Creatures you control have first strike (no quotes: layer 6 still)
    ("Archetype of Courage", "613.7"),  # … and which of two such effects wins: timestamps
    ("Mogg Fanatic", "602.2"),  # Sacrifice Mogg Fanatic: … (an activated ability's cost)
    ("Darksteel Myr", "704.5"),  # indestructible: the lethal-damage state-based action it ignores
    # Round 9: counters of any kind, the opening hand, life-gain replacement, mana abilities' extra mana.
    ("Dust of Moments", "122.1"),  # Remove two time counters from each permanent …
    ("Gemstone Caverns", "103.6"),  # If Gemstone Caverns is in your opening hand …
    ("Angel of Vitality", "119.10"),  # If you would gain life, you gain that much life plus 1 instead.
    ("Nyxbloom Ancient", "106.6"),  # … it produces three times as much of that mana instead.
    ("Kinnan, Bonder Prodigy", "106.12"),  # Whenever you tap a nonland permanent for mana …
    ("Blood Sun", "614.12"),  # All lands lose all abilities …: an entering land's "As … enters" is gone
])
def test_a_cards_text_points_to_the_rule_players_ask_about(conn, card, rule):
    from kb.search.card_rules import card_rule_candidates

    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    card_id = conn.execute("select id from cards where name_en = ?", [card]).fetchone()[0]
    assert rule in [n for _, n, _ in card_rule_candidates(conn, [card_id], release=newest)]


def test_an_unasked_keyword_of_the_card_does_not_lead(conn):
    """Yasova's trample is her first rule; a question about her trigger's target is not about it."""
    from kb.search.card_rules import card_rule_candidates, card_rules
    from kb.search.query import read_query

    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    ids = [conn.execute("select id from cards where name_en = 'Yasova Dragonclaw'").fetchone()[0]]
    assert card_rule_candidates(conn, ids, release=newest)[0][1] == "702.19"  # Trample
    asked = card_rules(conn, ids, release=newest, plan=read_query("can I pump her power after the trigger"
                                                                  " is put on the stack to steal a bigger one"))
    assert asked[0][1] != "702.19"
    named = card_rules(conn, ids, release=newest, plan=read_query("does her trample damage go through"))
    assert named[0][1] == "702.19"


def test_a_mana_ability_is_no_activated_ability_asked_about(conn):
    from kb.search.card_rules import card_rule_candidates

    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    card_id = conn.execute("select id from cards where name_en = 'Llanowar Elves'").fetchone()[0]
    assert [n for _, n, _ in card_rule_candidates(conn, [card_id], release=newest)] == ["605.1"]


def _asked_rules(conn, card, question):
    from kb.search.card_rules import card_rules
    from kb.search.query import read_query

    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    ids = [conn.execute("select id from cards where name_en = ?", [card]).fetchone()[0]]
    return [n for _, n, _ in card_rules(conn, ids, release=newest, plan=read_query(question))]


def test_a_keyword_the_question_names_joins_the_cards_rules(conn):
    """Lightning Bolt's text names no protection; a question about bolting a creature with protection
    from red is about 702.16 first, beside the card's own rules."""
    assert "702.16" in _asked_rules(conn, "Lightning Bolt", "can I bolt a creature with protection from red")
    assert "702.16" not in _asked_rules(conn, "Lightning Bolt", "who is dealt the damage")


def test_a_keyword_in_a_cards_name_is_not_named_by_the_question(conn):
    """Possibility Storm's "storm" is its name's, not the storm keyword (702.40)."""
    assert "702.40" not in _asked_rules(conn, "Possibility Storm", "what happens with Possibility Storm out")


def test_an_unnamed_keyword_counts_when_the_question_asks_what_it_defines(conn):
    """Sigarda's hexproof is not named, but "can still be targeted" is hexproof's own rule."""
    assert "702.11" in _asked_rules(conn, "Sigarda, Heron's Grace", "You can still be targeted by an opponent")[:3]



def test_a_keyword_action_the_card_does_leads_though_the_question_doesnt_name_it(conn):
    """Hero's Downfall's text is its destroy (701.8): a question about casting it on Elspeth, which never
    says "destroy", still gets that rule beside hers (unnamed keyword abilities weigh less; actions don't),
    and her loyalty abilities are no activated abilities of 602.2."""
    from kb.search.card_rules import card_rules
    from kb.search.query import read_query

    newest = conn.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'"
                          ).fetchone()[0]
    ids = [conn.execute("select id from cards where name_en = ?", [n]).fetchone()[0]
           for n in ("Hero's Downfall", "Elspeth, Sun's Champion")]
    rules = [n for _, n, _ in card_rules(conn, ids, release=newest, plan=read_query("I cast it on her. What happens?"))]
    assert "701.8" in rules[:2] and "602.2" not in rules


def test_a_rule_the_text_only_invites_needs_the_questions_words_to_rise(conn):
    """Loxodon Smiter's own rule is its replacement (614.1); "discard it" matches the order of replacement
    effects (616.1, what such text invites) only weakly, so it doesn't pass the card's own rules."""
    rules = _asked_rules(conn, "Loxodon Smiter", "what if my opponent makes me discard it")
    assert rules.index("614.1") < rules.index("616.1") if "616.1" in rules else "614.1" in rules
