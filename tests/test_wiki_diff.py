"""Diff and edit views: both revisions rebuilt from the two columns, in each of the three flattenings."""

from __future__ import annotations

import pytest

from ingest.decoding import read_source
from ingest.wiki import documents_from_text, parse_wiki_page
from ingest.wiki_diff import read_rows, rebuild_revisions
from ingest.wiki_records import CardBlock, CardMention, Ruling, WikiPage

SEARCH_DIFF = "seeds/004_2fc9a6b7c18d7b80.txt"


def view_of(corpus, relative):
    text = read_source(corpus / relative).text
    _, view = read_rows(text.split("\n"), relative)
    return view


def test_marked_cells_rebuild_both_revisions_whole(corpus):
    view = view_of(corpus, SEARCH_DIFF)
    assert (view.flavour, view.left_label, view.right_label, view.hunk_starts) == (
        "marked cells", "最新版", "編集中の文章", [(1, 1)])
    left, right = rebuild_revisions(view)
    left_lines, right_lines = left.text.split("\n"), right.text.split("\n")
    assert left_lines[0].startswith("'''探す'''/''Search''は、[[キーワード処理]]の1つ。")
    assert left_lines[-2:] == ["{{#cr:{{キーワード処理のCR番号|探す}}}}", "__NOTOC__"]
    assert right_lines[:3] == ["=探す/Search=", "", "{{#card:Untamed Wilds}}"]
    assert right_lines[-1] == "*[[ルーリング]]"
    assert (len(left_lines), len(right_lines)) == (47, 44)
    # a changed row split over two lines, and one on a single line
    assert "== 参考 ==" in left_lines and "==参考==" in right_lines
    assert left.line_map[0] == 5 and left.line_map[-1] == 83
    assert left.whole and right.whole


def test_diff_view_revisions_parse_as_pages(corpus):
    records = list(parse_wiki_page(corpus / SEARCH_DIFF, SEARCH_DIFF))
    pages = [r for r in records if isinstance(r, WikiPage)]
    assert [(p.title, p.revision, p.form, p.partial) for p in pages] == [
        ("探す", "最新版", "diff", False), ("探す", "編集中の文章", "diff", False)]
    right_cards = [b.name_en for b in records if isinstance(b, CardBlock) and b.revision == "編集中の文章"]
    assert right_cards == ["Untamed Wilds", "Diabolic Tutor"]
    # the older draft has no ルール section: its bullets are not rulings
    assert not [r for r in records if isinstance(r, Ruling) and r.revision == "編集中の文章"]
    left_rulings = [r for r in records if isinstance(r, Ruling) and r.revision == "最新版"]
    assert left_rulings[0].markup.startswith("*[[非公開領域]]から'''何らかの条件を満たすカード'''")
    assert left_rulings[0].line == 21  # the file line of the diff row


def test_left_column_links_give_every_listed_card(corpus):
    mentions = [m for m in parse_wiki_page(corpus / SEARCH_DIFF, SEARCH_DIFF)
                if isinstance(m, CardMention) and m.revision == "最新版" and m.section == "探すことを参照するカード"]
    assert [m.name_en for m in mentions][:3] == ["Panglacial Wurm", "Archive Trap", "Archivist of Oghma"]
    assert all(m.how == "link" for m in mentions)


def test_trailing_pipes_context_rows_with_pipes_inside(corpus):
    view = view_of(corpus, "wiki/ja/発掘__diff-cur-wikitext__excerpt.txt")
    assert view.flavour == "trailing pipes" and view.hunk_starts == [(1, 1), (14, 14)]
    left, right = rebuild_revisions(view)
    assert "|名前=発掘" in left.text.split("\n") and "|英名=Dredge" in right.text.split("\n")
    assert not left.whole and "2 separate parts" in left.partial_reason


def test_diff_followed_by_the_rendered_revision(corpus):
    relative = "wiki/ja/発掘__diff-cur-with-render__excerpt.txt"
    documents = documents_from_text(read_source(corpus / relative).text, relative)
    assert [(d.form, d.revision) for d in documents] == [
        ("diff", "left"), ("diff", "right"), ("rendered", "2024年6月4日 (火) 14:24時点における最新版")]
    rendered = [p for p in parse_wiki_page(corpus / relative, relative) if isinstance(p, WikiPage)][2]
    assert rendered.sets == ("ラヴニカ:ギルドの都", "未来予知", "モダンホライゾン", "モダンホライゾン3")
    assert rendered.line == 20


def test_interleaved_rows(corpus):
    view = view_of(corpus, "wiki/ja/増殖__diff-wikitext__excerpt.txt")
    left, right = rebuild_revisions(view)
    assert view.flavour == "interleaved"
    assert "{{#card:Contagion Clasp}}" in left.text and "{{#card:Contagion Clasp}}" not in right.text
    assert "{{#card:Contentious Plan}}" in right.text and "{{#card:Contentious Plan}}" not in left.text
    assert left.text.split("\n").count("==定義==") == 1


def test_sandbox_diff_and_sandbox_rendered_show_the_same_cards(corpus):
    """Two views of the same draft (oldid 342228), wikitext in a diff and rendered text: the card boxes agree."""
    def cards(relative):
        return [(b.name_en, b.name_ja, b.mana_cost, b.type_line, b.pt) for b in parse_wiki_page(corpus / relative, relative)
                if isinstance(b, CardBlock)]
    diff = cards("wiki/ja/利用者_Yoidome_sandbox__diff-wikitext__excerpt.txt")
    rendered = cards("wiki/ja/発見__sandbox-rendered__excerpt.txt")
    assert diff == rendered == [
        ("Hit the Mother Lode", "金脈発見", "{4}{R}{R}{R}", "ソーサリー", None),
        ("Curator of Sun's Creation", "太陽の創造物の管理者", "{3}{R}", "クリーチャー ― 人間(Human) 工匠(Artificer)", "3/3"),
    ]


def test_commented_out_card_templates_are_not_on_the_page(corpus):
    relative = "wiki/ja/利用者_Yoidome_sandbox__diff-wikitext__excerpt.txt"
    hows = [b.how for b in parse_wiki_page(corpus / relative, relative) if isinstance(b, CardBlock)]
    assert hows == ["カードテキスト", "カードテキスト"]  # <!-- {{#card:Hit the Mother Lode}} … --> is skipped


@pytest.mark.parametrize("lines, expected", [
    (["| − | old", "| |"], [("deleted", "old", None)]),
    (["| − |", "| |"], [("deleted", "", None)]),
    (["| − | old", "| + | new |"], [("changed", "old", "new")]),
    (["| − | a | b | + | new |"], [("changed", "a | b", "new")]),
    (["| | + | |"], [("added", None, "")]),
    (["| | x | y | | x | y |"], [("context", "x | y", "x | y")]),
])
def test_marked_cell_rows(lines, expected):
    rows, view = read_rows(["| 1行： |", "1行： |", *lines], "x.txt")
    assert [(r.kind, r.old, r.new) for r in rows] == expected
    assert view.problems == []


def test_unreadable_row_is_a_problem_with_its_line():
    _, view = read_rows(["| 1行： |", "1行： |", "| | a | | b |"], "x.txt")
    assert [str(p) for p in view.problems] == [
        "x.txt:3: warning: a context row whose two sides differ; the left side is used for both"]


def test_a_revision_that_may_go_on_is_partial():
    _, view = read_rows(["| 1行： |", "1行： |", "| − | a", "| + | b |", "| | c | | c |", "| | d | | d |"], "x.txt")
    left, _ = rebuild_revisions(view)
    assert not left.whole and left.partial_reason == "2 unchanged lines end the diff; the page may go on after them"
