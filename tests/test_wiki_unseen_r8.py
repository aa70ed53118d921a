"""Page forms of the MTG Wiki the corpus does not have (round 8), found in stored public copies of real pages.

Each case keeps the form of a real page's view (its header lines, hunk headers, section names, list
marks) with short rulings written here in other words (the stored copies may not be copied); the
page each form comes from is named. Before round 8, the first two gave no ruling and no warning:

- an English diff view flattened with ``|`` after each cell, ``Line 37: | Line 37: | ||``, then the
  rendered revision (https://mtg.wiki/index.php?diff=next&oldid=58200&title=Convoke): read as no diff
  at all, the page had no title and its Rulings section was lost;
- a Japanese ``diff=next`` view whose hunk starts inside the ルール section (``21行: 21行:``), the
  section named only by the edit summary ``(ルール)``
  (http://mobile.mtgwiki.com/index.php?diff=next&oldid=276541&title=%E8%AB%9C%E5%A0%B1): its rulings were
  list items under no heading, dropped silently. Now the summary names their section; a view whose
  summary names no ruling section gives a warning for each such item, naming its line.

And two forms that already worked, kept so that they keep working: the old skin's edit link before
the heading, ``[編集] ルール`` (http://mtgwiki.com/wiki/%E8%AA%BF%E6%9F%BB), and a mobile copy that glued
the ルール heading to the card box's last line, ``1/2ルール``
(http://mobile.mtgwiki.com/index.php?direction=next&oldid=342013&title=%E6%89%8B%E6%8E%9B%E3%81%8B%E3%82%8A).
"""

from __future__ import annotations

from ingest.records import IngestProblem
from ingest.wiki import detect_form, documents_from_text, records_from_document
from ingest.wiki_records import Ruling, WikiPage

EN_PIPES = """Convoke: Difference between revisions
>Editor One No edit summary |
>Editor Two No edit summary |
||
Line 37: | Line 37: | ||
==Cards that grant Convoke== | ==Cards that grant Convoke== | ||
*<c>Chief Engineer</c> (Artifact Spells) | *<c>Chief Engineer</c> (Artifact Spells) | ||
==References== | ==References== |
Revision as of 16:05, 27 December 2016
Convoke | |
---|---|
Keyword Ability | |
Type | Static |
Introduced | Ravnica: City of Guilds |
Convoke is a keyword ability associated with the Selesnya guild.
Description
It lets a player tap creatures rather than pay some of a spell's mana cost.
Rules
Rulings
- Only untapped creatures you control can be tapped for convoke.
- Convoke doesn't change a spell's mana cost or mana value.
"""

JA_MID_SECTION = """諜報

提供:MTG Wiki

(版間での差分)
移動: 案内, 検索
(ルール)
21行: 21行:
 
*諜報では、見たカードを全部墓地に置いてもよいし、全部ライブラリーの上に戻してもよい。
 
*諜報では、見たカードを全部墓地に置いてもよいし、全部ライブラリーの上に戻してもよい。
 +
*同じ処理をしても、諜報と書かれていないカードは諜報を行わない。
"""


def _records(text: str, source: str):
    return [r for d in documents_from_text(text, source) for r in records_from_document(d)]


def test_an_english_view_with_piped_line_hunks_is_a_diff_and_keeps_its_rulings():
    assert detect_form(EN_PIPES) == "diff"
    records = _records(EN_PIPES, "Convoke__diff-wikitext-with-render__excerpt.txt")
    # both revisions of the table and the rendered one after it
    assert len(documents_from_text(EN_PIPES, "Convoke__diff-wikitext-with-render__excerpt.txt")) == 3
    assert {r.title for r in records if isinstance(r, WikiPage)} == {"Convoke"}
    assert not [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-no-title"]
    assert [r.text for r in records if isinstance(r, Ruling)] == [
        "Only untapped creatures you control can be tapped for convoke.",
        "Convoke doesn't change a spell's mana cost or mana value."]


def test_a_hunk_inside_the_rulings_section_named_by_the_edit_summary():
    records = _records(JA_MID_SECTION, "諜報__diff-wikitext__excerpt.txt")
    rulings = [(r.revision, r.section, r.text) for r in records if isinstance(r, Ruling)]
    old = "諜報では、見たカードを全部墓地に置いてもよいし、全部ライブラリーの上に戻してもよい。"
    new = "同じ処理をしても、諜報と書かれていないカードは諜報を行わない。"
    assert [(s, t) for _, s, t in rulings] == [("ルール", old), ("ルール", old), ("ルール", new)]
    assert not [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"]


def test_a_hunk_under_an_unnamed_section_warns_for_each_item_at_its_line():
    text = JA_MID_SECTION.replace("(ルール)\n", "(誤字)\n")
    records = _records(text, "諜報__diff-wikitext__excerpt.txt")
    assert not [r for r in records if isinstance(r, Ruling)]
    lines = text.split("\n")
    # the context row is printed twice (its left and right cells, lines 10 and 12): one row, named by its first line
    items = [k + 1 for k, line in enumerate(lines) if line.startswith("*")]
    assert items == [10, 12, 14]
    warned = sorted({r.line for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"})
    assert warned == [10, 14]


def test_a_hunk_from_the_first_line_is_not_warned_about():
    text = JA_MID_SECTION.replace("(ルール)\n", "").replace("21行: 21行:", "1行: 1行:")
    records = _records(text, "諜報__diff-wikitext__excerpt.txt")
    assert not [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-list-no-section"]


def test_old_skin_edit_link_before_the_heading_and_a_heading_glued_to_a_card_box():
    old_skin = ("調査\n\n提供:MTG Wiki\n\n調査/Investigateとは、イニストラードを覆う影で登場したキーワード処理\n\n"
                "[編集] 定義\n\n調査を行うとは、手掛かりトークン1つを生成することである。\n\n[編集] ルール\n\n"
                "  • 対象を取る呪文で、解決時に対象がすべて不正になっていたなら、調査も行わない。\n")
    assert [r.text for r in _records(old_skin, "調査__rendered__excerpt.txt") if isinstance(r, Ruling)] == [
        "対象を取る呪文で、解決時に対象がすべて不正になっていたなら、調査も行わない。"]
    glued = ("手掛かり\n提供:MTG Wiki\n手掛かり/Clueはアーティファクト・タイプの1つである。\n"
             "クリーチャー — 人間(Human) 兵士(Soldier)\nこれが戦場に出たとき、調査を行う。\n1/2ルール\n"
             "手掛かり・トークンを生成するとは、「(2),これを生け贄に捧げる:カード1枚を引く。」を持つ無色のトークンを生成することである。\n"
             "解説\n初登場はイニストラードを覆う影。\n")
    assert [r.text for r in _records(glued, "手掛かり__rendered__excerpt.txt") if isinstance(r, Ruling)] == [
        "手掛かり・トークンを生成するとは、「(2),これを生け贄に捧げる:カード1枚を引く。」を持つ無色のトークンを生成することである。"]
