"""kb.search.engine.answer on the built database: questions, numbers, typos, slang, both languages, bounds."""

from __future__ import annotations

import pytest

from kb.search.engine import SearchError, SearchTimeout, answer
from kb.search.query import MAX_TERMS, read_query
from kb.sqlite import sqlite3


@pytest.fixture(scope="module")
def conn(built_db):
    c = sqlite3.connect(f"{built_db.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    yield c
    c.close()


def numbers(result):
    return [g.number for g in result.groups]


def test_a_question_is_searched_for_its_content_words(conn):
    result = answer(conn, "what does hexproof stop", dense=False)
    assert result.plan.dropped == ["what", "does"]
    assert numbers(result)[0] == "702.11"
    japanese = answer(conn, "呪禁は何を防ぐ？", dense=False)
    assert "何" in japanese.plan.dropped and "呪禁" in [t.phrase for t in japanese.plan.terms]
    assert numbers(japanese)[0] == "702.11"


def test_words_do_not_all_have_to_match(conn):
    # "when", "can", "I" are in no rule with "instant": the rule is found all the same.
    assert "304.1" in numbers(answer(conn, "when can I cast an instant", dense=False))[:5] \
        or "117.1" in numbers(answer(conn, "when can I cast an instant", dense=False))[:5]


@pytest.mark.parametrize("query, number", [
    ("701.23", "701.23"), ("701.23a", "701.23"), ("rule 704.5a", "704.5"), ("CR 613.1", "613.1"),
    ("§702.11b", "702.11"), ("ルール510.1c", "510.1"), ("７０４．５ａ", "704.5"), ("704.5g.", "704.5"),
    ("総合ルール509.1a", "509.1"), ("§ 613", "613"),
])
def test_rule_numbers_in_any_spelling_go_straight_to_the_rule(conn, query, number):
    result = answer(conn, query)
    assert result.mode == "number" and numbers(result)[0] == number
    assert result.groups[0].via == ["number"]


def test_a_number_with_words_puts_the_rule_first_then_searches(conn):
    result = answer(conn, "rule 702.19 deathtouch", dense=False)
    assert numbers(result)[0] == "702.19" and "702.2" in numbers(result)


def test_typos_are_corrected_against_the_rules_words(conn):
    result = answer(conn, "hexprof", dense=False)
    assert result.plan.corrections == {"hexprof": "hexproof"}
    assert result.shown_as == "hexproof" and "showing results for “hexproof”" in result.notes
    assert numbers(result)[0] == "702.11"
    assert numbers(answer(conn, "ﾄﾗﾝﾌﾟﾙ", dense=False))[0] == "702.19"  # half-width katakana: NFKC


def test_a_keyword_name_misspelt_as_the_stemmer_reads_it_is_corrected(conn):
    # The stemmer reads "indestructable" as "indestructible", so the word was "known" and never
    # corrected, and the name was never matched: beside "creature", Banding came first.
    result = answer(conn, "indestructable creature", dense=False)
    assert result.plan.corrections == {"indestructable": "indestructible"}
    assert numbers(result)[0] == "702.12"
    # A name near in spelling but another word to the stemmer is left alone.
    assert "flashing" not in answer(conn, "flashing a creature", dense=False).plan.corrections


def test_real_words_are_not_corrected(conn):
    assert answer(conn, "blocking creatures", dense=False).plan.corrections == {}


def test_player_slang_finds_the_rules_words_in_both_languages(conn):
    plan = answer(conn, "how does tutoring a card work", dense=False).plan
    assert {"search your library", "ライブラリー"} <= {t.phrase for t in plan.terms}
    assert "701.23" in numbers(answer(conn, "サーチの処理", dense=False))[:3]
    assert "603.6" in numbers(answer(conn, "what is an ETB trigger", dense=False))[:3]


def test_draw_never_means_a_drawn_game(conn):
    terms = {t.phrase for t in answer(conn, "draw a card", dense=False).plan.terms}
    assert "引く" in terms and "引き分け" not in terms


def test_counters_on_permanents_are_not_countering_a_spell(conn):
    # "counters" (a noun, plural) is CR 122 (カウンター), "countered" is CR 701.6 (打ち消す): a
    # question names one sense, and the other's rule is no title match.
    nouns = answer(conn, "do creatures lose counters when they change zones", dense=False)
    terms = {t.phrase for t in nouns.plan.terms}
    assert "カウンター" in terms and "打つ 消す" not in terms
    assert "701.6" not in numbers(nouns)[:5]
    assert "122" in numbers(answer(conn, "+1/+1 counters", dense=False))[:3]
    verbs = answer(conn, "can a spell with split second be countered", dense=False)
    terms = {t.phrase for t in verbs.plan.terms}
    assert "打つ 消す" in terms and "カウンター" not in terms
    assert "701.6" in numbers(verbs)[:3]


def test_groups_show_both_languages_and_the_defining_subrule_first(conn):
    group = answer(conn, "villainous choice", dense=False).groups[0]
    assert group.en.title == "Face a Villainous Choice" and group.ja.title.startswith("最悪の二択")
    assert group.en.subrules[0]["number"].endswith("a")
    assert group.en.lang == "en" and group.ja.lang == "ja" and group.en.release >= group.ja.release


def test_a_renumbered_rule_is_one_group_through_its_lineage(conn):
    """Where the Japanese release is older than the English one and a rule moved, both languages
    of that rule still come as one group, each with its own number."""
    row = conn.execute(
        "select a.number, b.number from rule_lineage a join rule_lineage b on a.lineage_id = b.lineage_id"
        " join rules r on r.release = a.release and r.lang = 'en' and r.number = a.number and r.title is not null"
        " where a.lang = 'en' and a.release = (select max(release) from releases where lang = 'en' and completeness = 'whole')"
        " and b.lang = 'ja' and b.release = (select max(release) from releases where lang = 'ja' and completeness = 'whole')"
        " and a.number != b.number order by length(r.title) desc limit 1").fetchone()
    if row is None:
        pytest.skip("no titled keyword rule moved between the newest English and Japanese releases")
    en_number, ja_number = row
    title = conn.execute("select title from rules where lang = 'en' and number = ? and release ="
                         " (select max(release) from releases where lang = 'en' and completeness = 'whole')", [en_number]).fetchone()[0]
    group = next(g for g in answer(conn, title, dense=False).groups
                 if g.number == en_number or g.number.startswith(en_number + "."))
    assert group.ja is not None
    assert group.ja.number == group.number.replace(en_number, ja_number, 1)  # 723.5 in English is 722.5


def test_never_a_bare_no_hits(conn):
    only_stopwords = answer(conn, "what is the", dense=False)
    assert not only_stopwords.groups
    assert any("no word to search for: what, is, the" in n for n in only_stopwords.notes)
    unknown = answer(conn, "zqxjvbnm", dense=False)
    assert not unknown.groups and any("zqxjvbnm" in n for n in unknown.notes)


def test_fts_syntax_is_searched_not_run(conn):
    for query in ['"unbalanced', "AND OR NOT", "library*", "col:umn", "NEAR(a b)", "-", "「」"]:
        answer(conn, query, dense=False)  # no sqlite3.OperationalError


def test_work_is_bounded(conn):
    with pytest.raises(SearchError, match="at most 500 are accepted"):
        answer(conn, "x" * 501)
    plan = read_query(" ".join(f"word{i}" for i in range(40)))
    assert len(plan.words) == MAX_TERMS and plan.capped
    with pytest.raises(SearchTimeout, match="was stopped"):
        answer(conn, "creature player card damage spell ability", dense=False, time_limit=0.0)


def test_rulings_and_cards_come_beside_the_rules(conn):
    result = answer(conn, "Bramble Familiar", dense=False)
    assert any(o["kind"] == "card" and o["title"] == "Bramble Familiar" for o in result.others)


def test_a_segmenter_for_another_language_slots_in(monkeypatch):
    """A language with a segmenter of its own (issue 14: Chinese, Korean) plugs in by registering it."""
    import sys
    import types

    from kb.search import segmenters

    fake = types.ModuleType("fake_segmenter")
    fake.search_form = lambda text: " ".join(text)
    fake.segment_query = lambda q: [" ".join(q)]
    fake.content_words = lambda q: list(q)
    monkeypatch.setitem(sys.modules, "fake_segmenter", fake)
    monkeypatch.setitem(segmenters.SEGMENTERS, "ko", segmenters._Entry(
        "fake_segmenter", lambda text: any("\uac00" <= ch <= "\ud7a3" for ch in text)))
    plan = read_query("신속 haste")
    assert plan.languages == {"ko", "en"}
    assert {("신", "ko"), ("속", "ko"), ("신 속", "ko"), ("haste", "en")} <= {(t.phrase, t.lang) for t in plan.terms}


def _all_words(plan):
    return [w for t in plan.terms for w in t.phrase.split()]


def test_bare_numbers_are_no_search_words():
    """P/T figures and amounts (5/5, -2/-2, 3点) are in every other rule: not searched for."""
    from kb.search.query import Alias, AliasTable

    plan = read_query("can a 5/5 block a creature that got -2/-2")
    assert [t.phrase for t in plan.words] == ["block", "creature"], plan.terms
    assert {"5", "2"} <= set(plan.dropped)
    ja = read_query("5/5のクリーチャーに3点のダメージを与える？何点？")
    assert [t.phrase for t in ja.words] == ["クリーチャー", "ダメージ", "与える"]
    assert "何" not in _all_words(ja)
    assert "0" in [t.phrase for t in read_query("planeswalker with 0 loyalty").words]  # a threshold
    # Rule numbers and names that hold a number stay.
    assert read_query("rule 704.5a toughness 0").number == "704.5a"
    counter = AliasTable([Alias(("+1/+1 counter",), ("+1/+1 counter",), ("+1/+1カウンター",))])
    plan = read_query("+1/+1 counter on a 2/2", aliases=counter)
    assert ("+1/+1 counter", "alias") in {(t.phrase, t.origin) for t in plan.terms}
    assert "2" not in [t.phrase for t in plan.words]


def test_a_number_typed_before_japanese_is_read_with_its_counter():
    # 枚 and 体 after a digit are counters only when Sudachi sees the digit: read apart from it,
    # 枚 was a noun of its own (名詞-普通名詞) searched for, with phrases such as 「枚 出す」.
    plan = read_query("2枚出しているとき、コピーのトークンは2体出せる?")
    assert not {"枚", "体", "2"} & set(_all_words(plan)), plan.terms
    assert {"トークン", "コピー"} <= {t.phrase for t in plan.words}
    # Zero is no amount but the threshold the rules test for (0 life): it stays a word.
    assert "0" in [t.phrase for t in read_query("ライフが0になったらどうなる？").words]


def test_japanese_question_words_are_dropped_and_their_head_noun_kept():
    plan = read_query("何色のクリーチャーが何枚いつ誘発する？")
    words = _all_words(plan)
    assert not {"何色", "何", "枚", "いつ"} & set(words), plan.terms
    assert {"色", "クリーチャー", "誘発"} <= {t.phrase for t in plan.words}
    turns = read_query("何ターン続く？")
    assert "ターン" in [t.phrase for t in turns.words] and "何" not in _all_words(turns)


def test_japanese_boost_phrases_lose_their_leading_demonstrative():
    plan = read_query("このタップ状態のクリーチャーはそのクリーチャー・カードを追放する？")
    phrases = [t.phrase for t in plan.terms if t.origin == "phrase"]
    assert {"タップ 状態", "クリーチャー カード"} <= set(phrases), phrases
    assert not {"其の", "此の"} & set(_all_words(plan))


def test_a_japanese_run_of_question_words_alone_is_no_boost_phrase():
    # どうやって is どう (an adverb) and 遣る (a light verb): dropped as words, and no phrase either.
    plan = read_query("これってどうやって使うの? 誰か教えて!")
    phrases = [t.phrase for t in plan.terms if t.origin == "phrase"]
    assert "どう 遣る" not in phrases and not {"どう", "遣る"} & set(_all_words(plan)), plan.terms
    assert "使う" in [t.phrase for t in plan.words]


@pytest.mark.parametrize("query", ["which spell resolves first", "どちらが先に解決する？"])
def test_what_resolves_first_is_the_order_of_the_stack(conn, query):
    """Players ask the stack's order by what resolves first; the rules say "the top (last-added)
    spell or ability on the stack resolves" (405.5, 608.1) and "will resolve first" (117.7)."""
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.lang == "en" and t.phrase == "top of the stack" for t in result.plan.terms)
    assert {"405.5", "608.1", "117.7"} & set(numbers(result)[:3]), numbers(result)


@pytest.mark.parametrize("query", ["what happens to my aura when the creature dies",
                                   "オーラがついたクリーチャーが破壊されたらオーラは？"])
def test_an_aura_whose_creature_leaves_is_the_state_based_action(conn, query):
    """An alias of two words ("aura" with "dies"): what happens to what was attached is 704.5m,
    which says neither word the player typed but "not attached"."""
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == "not attached" for t in result.plan.terms)
    assert "704.5" in numbers(result)[:3], numbers(result)


def test_a_paired_alias_needs_both_of_its_words(conn):
    for query in ("what does an aura do", "when does a creature die"):
        assert not any(t.origin == "alias" and t.phrase == "not attached"
                       for t in answer(conn, query, dense=False).plan.terms), query


@pytest.mark.parametrize("query, alias", [
    ("my life total is 0, did I lose", "0 or less life"), ("ライフが0になったら負け？", "0 or less life"),
    ("what if I draw from an empty library", "library with no cards"),
    ("デッキが0枚で引けなくなったら？", "library with no cards"),
])
def test_losing_at_0_life_or_from_an_empty_library_is_the_state_based_action(conn, query, alias):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == alias for t in result.plan.terms)
    assert "704.5" in numbers(result)[:3], numbers(result)


def test_who_goes_first_is_the_starting_player_only_with_who_or_draw(conn):
    # "goes first" is the starting player as often as the stack: read as the starting player only
    # beside who / decide / draw (103.1, 103.8), never alone ("which trigger goes first").
    for query in ("who goes first in a game of magic", "先攻はドローできる？"):
        result = answer(conn, query, dense=False)
        assert any(t.origin == "alias" and t.phrase == "starting player" for t in result.plan.terms), query
        assert {"103.1", "103.8"} & set(numbers(result)[:3]), (query, numbers(result))
    result = answer(conn, "which trigger goes first", dense=False)
    assert not any(t.origin == "alias" and t.phrase == "starting player" for t in result.plan.terms)


@pytest.mark.parametrize("query, alias, number", [
    ("can a token be returned to my hand", "ceases to exist", "111.7"),
    ("トークンを追放したらどうなる？", "ceases to exist", "111.7"),
    ("two abilities trigger at the same time: who orders them", "APNAP order", "603.3"),
    ("同時に誘発した2つの能力の順番は？", "APNAP order", "603.3"),
    ("my commander died, where does it go", "command zone", "903.9"),
    ("統率者が追放されたら？", "command zone", "903.9"),
])
def test_paired_aliases_find_the_rule_neither_word_names(conn, query, alias, number):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == alias for t in result.plan.terms)
    assert number in numbers(result)[:3], numbers(result)


@pytest.mark.parametrize("query, alias, number", [
    ("can the game end in a draw", "the game is a draw", "104.4"),
    ("we both lost at the same time, who wins", "the game is a draw", "104.4"),
    ("does damage wear off at the end of the turn", "damage marked on permanents", "514.2"),
    ("can my tapped creature still block", "must be untapped", "509.1"),
    ("two replacement effects apply: who chooses the order", "chooses one to apply", "616.1"),
])
def test_more_ideas_written_with_words_the_rules_do_not_use(conn, query, alias, number):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == alias for t in result.plan.terms)
    assert number in numbers(result)[:3], numbers(result)


def test_a_drawn_game_is_not_drawing_a_card(conn):
    result = answer(conn, "can the game end in a draw", dense=False)
    assert "引き分け" in [t.phrase for t in result.plan.terms]
    assert "引き分け" not in result.plan.excluded


@pytest.mark.parametrize("query, alias, number", [
    ("can I cast a sorcery on my opponent's turn", "main phase of their turn when the stack is empty", "307.1"),
    ("ソーサリーはいつ唱えられる？", "main phase of their turn when the stack is empty", "307.1"),
    ("can I use a planeswalker twice in one turn", "no player has previously activated a loyalty ability of that permanent that turn", "606.3"),
    ("does a bounced creature keep its counters", "new object with no memory of", "400.7"),
])
def test_timing_and_zone_change_questions_find_their_rule(conn, query, alias, number):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == alias for t in result.plan.terms)
    assert number in numbers(result)[:3], numbers(result)


@pytest.mark.parametrize("query", ["one card says I can, another says I can't: which wins",
                                   "「できない」と「できる」ではどちらが優先？"])
def test_cant_beats_can(conn, query):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == "takes precedence" for t in result.plan.terms)
    assert "101.2" in numbers(result)[:3], numbers(result)


def test_a_paired_alias_is_an_idea_ranked_on_its_own(conn):
    """The rules' words of a paired alias are also a ranking of their own in the fusion (one
    idea, one rule); a plain alias (slang for a rules word) is not."""
    paired = answer(conn, "what happens to my aura when the creature dies", dense=False)
    assert "not attached" in paired.plan.ideas
    assert "704.5" in numbers(paired)[:3]
    plain = answer(conn, "can you respond to a counterspell", dense=False)
    assert plain.plan.ideas == [] and any(t.origin == "alias" for t in plain.plan.terms)


@pytest.mark.parametrize("query", ["can my opponent respond when I play a land", "土地のプレイに対応できる？",
                                   "does tapping a land for mana go on the stack"])
def test_responding_to_what_does_not_use_the_stack(conn, query):
    """Responding to a land play or a mana ability, or asking whether they use the stack, is the
    rule that they don't (116.2a, 305.1, 605.3b, 701.18a); a trigger is not read so."""
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == "doesn't use the stack" for t in result.plan.terms)
    assert {"116.2", "305.1", "605.3", "701.18"} & set(numbers(result)[:3]), numbers(result)
    trigger = answer(conn, "can I respond to a triggered ability", dense=False)
    assert not any(t.phrase == "doesn't use the stack" for t in trigger.plan.terms)


@pytest.mark.parametrize("query, alias, number", [
    ("can I play lands on my opponent's turn", "main phase of their turn when the stack is empty", "305.1"),
    ("when do state-based actions happen", "whenever a player would get priority", "704.3"),
    ("状況起因処理のチェックのタイミングは？", "whenever a player would get priority", "704.3"),
    ("in which order do spells on the stack resolve", "last-added", "405.5"),
    ("what happens to my cards when I'm eliminated from a multiplayer game", "owned by that player leave the game",
     "800.4"),
    ("when does an until end of turn effect end", "this turn effects end", "514.2"),
])
def test_round_7_ideas_find_their_rule(conn, query, alias, number):
    result = answer(conn, query, dense=False)
    assert any(t.origin == "alias" and t.phrase == alias for t in result.plan.terms)
    assert number in numbers(result)[:3], numbers(result)


@pytest.mark.parametrize("query, number", [("range of influence", "801"), ("影響範囲", "801"),
                                           ("APNAP順", "101.4")])
def test_a_glossary_term_that_points_to_another_stands_for_its_rule(conn, query, number):
    """'Range of Influence: See Limited Range of Influence.' has no number of its own: typed whole,
    it is the rule of the term it points to (search_titles, kb.load.search_index._redirect)."""
    assert numbers(answer(conn, query, dense=False))[0] == number


def test_a_section_heading_comes_after_its_numbered_rules():
    """The numbered rules answer, the heading only says where: 120 goes after the numbered rules
    of it among the first ten, or after the first found when none is among them."""
    from types import SimpleNamespace

    from kb.search.engine import _specific_first

    def by(*numbers):
        return {n: SimpleNamespace(number=n) for n in numbers}

    keys = by("120", "120.1", "702.19", "120.3", "613.4")
    assert _specific_first(list(keys), keys) == ["120.1", "702.19", "120.3", "120", "613.4"]
    far = ["120"] + [f"70{i}.1" for i in range(10)] + ["120.3"]
    assert _specific_first(far, by(*far))[-2:] == ["120.3", "120"]


def test_a_question_gets_no_boost_from_a_section_titled_by_a_common_word(conn):
    """The glossary names common words (Damage, Player): in a question they are no title match for
    a whole section (120 Damage, 508), while a keyword-shaped query keeps it (graveyard → 404)."""
    damage = numbers(answer(conn, "what does damage do to a planeswalker", dense=False, others=False))
    assert "120.3" in damage[:3] and "120" not in damage[:5], damage
    attack = numbers(answer(conn, "can I attack a planeswalker instead of the player", dense=False, others=False))
    assert "508" not in attack[:5] and "508.1" in attack[:3], attack
    assert "404" in numbers(answer(conn, "graveyard order", dense=False, others=False))[:5]
