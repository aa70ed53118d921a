"""Rendered MTG Wiki pages (seeds/000–003, wiki/ja/*): the quirks of each view, on the real files."""

from __future__ import annotations

import pytest

from ingest.records import Example, IngestProblem, Release, Rule, Section
from ingest.wiki import parse_wiki_page
from ingest.wiki_records import CardBlock, CardMention, QuotedRule, Ruling, WikiPage, WikiSection
from ingest.wiki_rendered import parse_card_name_line, parse_rendered, split_rendered_sets

DISCOVER = "seeds/000_2b231b6af2e09830.txt"
EXPLORE = "seeds/001_c4cba18a4431fd9d.txt"
SEARCH = "seeds/002_462d5e9bc89289de.txt"
DREDGE = "seeds/003_4e220451db1f8278.txt"


@pytest.fixture(scope="module")
def card_names(corpus):
    from ingest.cards import CardName, CardNameIndex, ForgeFace, OracleCard, parse_cards

    return CardNameIndex.from_records(
        r for r in parse_cards(corpus) if isinstance(r, (CardName, OracleCard, ForgeFace)))


@pytest.fixture(scope="module")
def parsed(corpus, card_names):
    cache = {}

    def parse(relative, **options):
        key = (relative, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = list(parse_wiki_page(corpus / relative, relative, card_names=card_names, **options))
        return cache[key]

    return parse


def of(records, kind):
    return [r for r in records if isinstance(r, kind)]


def test_discover_quote_is_a_japanese_excerpt_release_as_quoted(parsed):
    records = parsed(DISCOVER)
    assert of(records, Release) == [Release(release="20260807", lang="ja", effective_date="2026-08-07",
                                            source=DISCOVER, completeness="excerpt", version_label="20260807.0")]
    rules = {r.number: r for r in of(records, Rule)}
    # the page quotes 701.55, the number Discover had: kept exactly as printed
    assert (rules["701.55"].title, rules["701.55"].title_en) == ("最悪の二択を行う", "Face a Villainous Choice")
    assert rules["701.55"].title_en == "Face a Villainous Choice"
    assert rules["701.55a"].text.startswith("「[プレイヤー]は「[選択肢A]」か「[選択肢B]」かの最悪の二択を行う")
    assert of(records, Section) == [Section("20260807", "ja", "7", "その他のルール", 1, DISCOVER, 84)]
    problem = next(p for p in of(records, IngestProblem) if p.code == "quote-other-keyword")
    assert (problem.source, problem.line, problem.release) == (DISCOVER, 82, "20260807")
    assert of(records, WikiPage)[0].quoted_keyword_rule is None


def test_search_quote_is_its_own_keyword_rule_with_examples(parsed):
    records = parsed(SEARCH)
    page = of(records, WikiPage)[0]
    assert (page.quoted_release, page.quoted_keyword_rule) == ("20260925", "701.23")
    assert not [p for p in of(records, IngestProblem) if p.code == "quote-other-keyword"]
    examples = of(records, Example)
    assert [(e.rule_number, e.seq, e.line) for e in examples] == [("701.23b", 1, 48), ("701.23c", 1, 50), ("701.23f", 1, 54)]
    assert examples[1].text.startswith("《ロボトミー》は「プレイヤー1人を対象とする。")  # 例： removed, as in English


def test_explore_quote_repeated_closing_lines_are_not_duplicated(parsed):
    quoted = [q.number for q in of(parsed(EXPLORE), QuotedRule)]
    assert quoted == ["7", "701", "701.40"] + [f"701.40{c}" for c in "abcdefgh"]
    assert len(set(quoted)) == len(quoted)


def test_explore_edit_markers_and_flat_bullets(parsed):
    records = parsed(EXPLORE)
    rulings = of(records, Ruling)
    assert [r.line for r in rulings] == [16, 17, 18, 19]
    assert rulings[0].text.startswith("探検を行う能力の解決前に")  # "[編集]- " removed
    assert all("[編集]" not in s.text for s in of(records, WikiSection))
    page = of(records, WikiPage)[0]
    assert (page.name_en, page.reading, page.kind) == ("Explore", "たんけん", "keyword action")
    assert page.definition.startswith("パーマネントが探検を行うとは")


def test_explore_card_boxes_without_name_lines(parsed):
    blocks = of(parsed(EXPLORE), CardBlock)
    assert [(b.name_en, b.name_ja, b.type_line, b.pt, b.line) for b in blocks] == [
        (None, None, "クリーチャー — マーフォーク(Merfolk) スカウト(Scout)", "2/1", 3),
        (None, None, "エンチャント", None, 6),
    ]
    assert blocks[0].text.startswith("マーフォークの枝渡りが戦場に出たとき")


def test_search_top_level_bullet_marks_lost(parsed):
    rulings = of(parsed(SEARCH), Ruling)
    assert [(r.depth, r.parent, r.is_example) for r in rulings] == [
        (0, None, False), (1, 1, False), (2, 2, True), (0, None, False), (1, 4, False),
        (0, None, False), (0, None, False), (0, None, False)]
    # the unbulleted paragraphs of その他 are not rulings
    assert {r.section for r in rulings} == {"ルール"}


def test_dredge_disambiguation_reading_and_examples(parsed):
    records = parsed(DREDGE)
    page = of(records, WikiPage)[0]
    assert page.note.startswith("この項目ではキーワード能力について記述しています。")
    assert (page.name_ja, page.reading, page.name_en, page.kind, page.kind_ja) == (
        "発掘", "はっくつ", "Dredge", "keyword ability", "キーワード能力")
    assert all("提供" not in s.text for s in of(records, WikiSection))
    assert [r.position for r in of(records, Ruling) if r.is_example] == [9, 10, 11]
    assert of(records, WikiPage)[0].quoted_keyword_rule == "702.52"


def test_mentions_take_the_japanese_name_from_the_text_when_the_name_list_has_none(parsed):
    mentions = {(m.name_en, m.name_ja) for m in of(parsed(SEARCH), CardMention)}
    assert ("Future Sight", "未来予知") in mentions  # the name list says "undefined"
    assert ("Lobotomy", "ロボトミー") in mentions and ("Veteran Explorer", "老練の探険者") in mentions  # 《》
    dredge = {(m.name_en, m.name_ja) for m in of(parsed(DREDGE), CardMention)}
    assert ("Dredge", "底ざらい") in dredge and ("Unearth", "発掘") in dredge
    # the page's own name (発掘 Ｎ/Dredge N in its definition) is not a card mention
    assert not [m for m in of(parsed(DREDGE), CardMention) if m.section == "定義"]


def test_mentions_without_card_data_are_unchecked_candidates(corpus):
    mentions = of(parse_wiki_page(corpus / SEARCH, SEARCH), CardMention)
    assert {m.known for m in mentions} == {None}
    assert ("Future Sight", "未来予知") in {(m.name_en, m.name_ja) for m in mentions}


@pytest.mark.parametrize("relative, reason", [
    ("wiki/ja/サーチ__rendered__excerpt.txt", "ends mid-sentence"),
    ("wiki/ja/最悪の二択__rendered-oldrev__excerpt.txt", "ends with an empty bullet"),
    ("wiki/ja/探検__rendered-oldrev__excerpt.txt", "ends with the heading"),
    ("wiki/ja/切り直す__printable__excerpt.txt", "ends mid-sentence"),
])
def test_cut_pages_are_partial_even_without_being_told(parsed, relative, reason):
    page = of(parsed(relative), WikiPage)[0]
    assert page.partial and page.partial_reason.startswith(reason)


def test_an_excerpt_is_partial_when_the_caller_says_so(parsed):
    told = of(parsed("wiki/ja/キーワード処理__rendered__excerpt.txt", excerpt=True), WikiPage)[0]
    assert told.partial and told.partial_reason == "the file is an excerpt of the page"
    assert told.redirected_from == "キーワード行動"


def test_last_ruling_of_a_cut_page_is_marked_truncated(parsed):
    rulings = of(parsed("wiki/ja/切り直す__printable__excerpt.txt"), Ruling)
    assert [r.truncated for r in rulings] == [False, False, False, False, True]
    assert rulings[1].depth == 1 and rulings[1].parent == 1  # "  • " and "    • " nesting


def test_mobile_views_glued_lines_and_repeated_type_lines(parsed):
    manifest = of(parsed("wiki/ja/予示__rendered-oldrev__excerpt.txt"), CardBlock)
    assert [(b.name_en, b.mana_cost, b.type_line, b.pt) for b in manifest] == [
        ("Sultai Emissary", "{1}{B}", "クリーチャー — ゾンビ(Zombie) 戦士(Warrior)", "1/1"),
        ("Ethereal Ambush", "{3}{G}{U}", "インスタント", None),
    ]
    choice = of(parsed("wiki/ja/最悪の二択__rendered-oldrev__excerpt.txt"), CardBlock)
    assert choice[1].type_line == "伝説のクリーチャー ― タイムロード(Time Lord) 貴族(Noble)"  # glued to the cost
    assert choice[1].text.endswith("投票中、あなたは追加で1回投票してもよい。")  # the ※ note is not card text


def test_flattened_infobox_gives_name_and_sets(parsed):
    page = of(parsed("wiki/ja/続唱__rendered-oldrev__excerpt.txt"), WikiPage)[0]
    assert (page.name_en, page.kind, page.sets, page.sets_exact) == (
        "Cascade", "keyword ability", ("アラーラ再誕", "プレインチェイス2012"), False)


def test_every_corpus_page_parses_without_special_cases(corpus, card_names):
    from kb.load.wiki import wiki_files

    files = wiki_files(corpus)
    assert len(files) >= 20
    for f in files:
        records = list(parse_wiki_page(f.path, f.relative, card_names=card_names))
        pages = of(records, WikiPage)
        assert pages, f.relative
        assert all(p.title and p.source == f.relative for p in pages)
        assert not [p for p in of(records, IngestProblem) if p.severity == "error"], f.relative


def test_card_name_line_variants():
    assert parse_card_name_line("Diabolic Tutor / 魔性の教示者 (２)(黒)(黒)").cost == "(２)(黒)(黒)"
    assert parse_card_name_line("The Lost Caverns of Ixalan Release Notes/『イクサラン』") is None
    assert parse_card_name_line("発見/Discoverはキーワード処理の一種。") is None


def test_set_list_split_keeps_english_names_whole():
    assert split_rendered_sets("未来予知 Modern Horizons 3 モダンホライゾン") == ("未来予知", "Modern Horizons 3", "モダンホライゾン")


def test_rendered_page_with_only_a_title_is_partial():
    doc = parse_rendered("発見\n", "x.txt")
    assert (doc.title, doc.truncated, doc.truncated_reason) == ("発見", True, "no content after the title")
