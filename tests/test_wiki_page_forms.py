"""One page the parser has not met, in every form (rendered, printable, wikitext, diff, HTML): the same records.

The page has what broke on unseen pages: a 登場セット section written as a list
and as a table (not one flattened line), a card box that names its card only in
Japanese (《金脈発見》, which the card name list resolves), and nested rulings.
Each form is also cut off mid-sentence, and must then be stored as partial.
"""

from __future__ import annotations

import pytest

from ingest.cards import CardNameIndex
from ingest.wiki import documents_from_text, records_from_document
from ingest.wiki_records import CardBlock, Ruling, WikiPage

SETS = ["未来予知", "モダンホライゾン3", "Secret Lair x Horizon: Into the Forbidden West"]
RULINGS = [(0, "甲は常在型能力であり、スタックに乗らない。"), (1, "例：甲を2つ持つ場合、それぞれが機能する。"),
           (0, "甲を行うことを選んだなら、それを途中でやめることはできない。")]

RENDERED = """甲

甲/Alphaはキーワード能力の一種。

登場セット

• 未来予知
• モダンホライゾン3
• Secret Lair x Horizon: Into the Forbidden West

《金脈発見》 (４)(赤)(赤)(赤)
ソーサリー
発見10を行う。

ルール

• 甲は常在型能力であり、スタックに乗らない。
  • 例：甲を2つ持つ場合、それぞれが機能する。
• 甲を行うことを選んだなら、それを途中でやめることはできない。
"""

PRINTABLE = """甲
提供：MTG Wiki
甲/Alphaはキーワード能力の一種。
登場セット
セット | 略号 |
---|---|
未来予知 | FUT |
モダンホライゾン3 | MH3 |
Secret Lair x Horizon: Into the Forbidden West | SLX |
《金脈発見》 (４)(赤)(赤)(赤)
ソーサリー
発見10を行う。
ルール
- 甲は常在型能力であり、スタックに乗らない。
  - 例：甲を2つ持つ場合、それぞれが機能する。
- 甲を行うことを選んだなら、それを途中でやめることはできない。
"""

WIKITEXT = """'''甲'''/''Alpha''は[[キーワード能力]]の一種。
==登場セット==
{|
!セット!!略号
|-
|[[未来予知]]||FUT
|-
|[[モダンホライゾン3]]||MH3
|-
|[[Secret Lair x Horizon: Into the Forbidden West]]||SLX
|}
{{カードテキスト|カード名=《金脈発見》|コスト=(４)(赤)(赤)(赤)|タイプ=ソーサリー|カードテキスト=発見10を行う。}}
==ルール==
*甲は常在型能力であり、スタックに乗らない。
**例：甲を2つ持つ場合、それぞれが機能する。
*甲を行うことを選んだなら、それを途中でやめることはできない。
"""

HTML = """<!DOCTYPE html><html><body><h1 id="firstHeading">甲</h1>
<div class="mw-parser-output"><p><b>甲</b>/<i>Alpha</i>は<a href="/wiki/x" title="キーワード能力">キーワード能力</a>の一種。</p>
<h2><span class="mw-headline">登場セット</span><span class="mw-editsection">[編集]</span></h2>
<ul><li>未来予知</li><li>モダンホライゾン3</li><li>Secret Lair x Horizon: Into the Forbidden West</li></ul>
<div class="card"><b>《金脈発見》</b>(４)(赤)(赤)(赤)<br>ソーサリー<p>発見10を行う。</p></div>
<h2><span class="mw-headline">ルール</span></h2>
<ul><li>甲は常在型能力であり、スタックに乗らない。<ul><li>例：甲を2つ持つ場合、それぞれが機能する。</li></ul></li>
<li>甲を行うことを選んだなら、それを途中でやめることはできない。</li></ul>
</div></body></html>
"""


def _diff(wikitext: str) -> str:
    """The wikitext as a diff view that adds every line (trailing-pipes flavour)."""
    rows = ["甲", "1行: | 1行: | ||"] + [f"+ | {line} |" for line in wikitext.rstrip("\n").split("\n")]
    return "\n".join(rows) + "\n"


# A flattened diff cannot tell a table's "||" from its own cell separators: the diff holds the list form.
WIKITEXT_LIST = WIKITEXT.replace(WIKITEXT[WIKITEXT.index("{|"):WIKITEXT.index("|}") + 3],
                                 "".join(f"*[[{name}]]\n" for name in SETS))
FORMS = {"rendered": RENDERED, "printable": PRINTABLE, "wikitext": WIKITEXT, "wikitext-list": WIKITEXT_LIST,
         "diff": _diff(WIKITEXT_LIST), "html": HTML}
DETECTED = {"printable": "rendered", "wikitext-list": "wikitext"}


def _cut(text: str, form: str) -> str:
    """The form cut off inside its last ruling."""
    marker = "途中でやめる"
    return text[: text.rindex(marker) + 3]


@pytest.fixture(scope="module")
def names():
    return CardNameIndex({"Hit the Mother Lode": "金脈発見", "Shock": "ショック"})


def _page(text: str, form: str, names) -> tuple[WikiPage, list]:
    documents = documents_from_text(text, f"unseen-{form}.txt", DETECTED.get(form, form))
    records = [r for doc in documents if doc.blocks for r in records_from_document(doc, card_names=names)]
    pages = [r for r in records if isinstance(r, WikiPage) and r.name_en]
    assert pages, form
    page = pages[-1]
    mine = [r for r in records if getattr(r, "revision", page.revision) == page.revision]
    return page, mine


@pytest.mark.parametrize("form", FORMS)
def test_name_kind_and_sets(form, names):
    page, _ = _page(FORMS[form], form, names)
    assert (page.title, page.name_en, page.kind) == ("甲", "Alpha", "keyword ability")
    assert list(page.sets) == SETS
    assert page.sets_exact  # a list or a table says where each name ends
    assert not page.partial, page.partial_reason


@pytest.mark.parametrize("form", FORMS)
def test_rulings_nest_the_same_way(form, names):
    _, records = _page(FORMS[form], form, names)
    assert [(r.depth, r.text) for r in records if isinstance(r, Ruling)] == RULINGS


@pytest.mark.parametrize("form", FORMS)
def test_a_card_box_named_only_in_japanese(form, names):
    _, records = _page(FORMS[form], form, names)
    boxes = [(b.name_en, b.name_ja, b.mana_cost, b.type_line) for b in records if isinstance(b, CardBlock)]
    assert boxes == [(None, "金脈発見", "{4}{R}{R}{R}", "ソーサリー")]
    assert names.english_names_for("金脈発見") == ["Hit the Mother Lode"]  # what the build step resolves it by


@pytest.mark.parametrize("form", [f for f in FORMS if f != "html"])
def test_a_page_cut_mid_sentence_is_partial(form, names):
    page, records = _page(_cut(FORMS[form], form), form, names)
    assert page.partial and page.partial_reason
    last = [r for r in records if isinstance(r, Ruling)][-1]
    assert last.text.endswith("途中で")


def test_html_cut_before_its_end_is_partial(names):
    page, _ = _page(HTML[: HTML.index("</div></body>")], "html", names)
    assert page.partial and "</html>" in page.partial_reason


# The same cases on real corpus pages, each in the form it was copied in.

def _real(corpus, relative):
    from ingest.wiki import parse_wiki_page

    return list(parse_wiki_page(corpus / relative, relative))


@pytest.mark.parametrize("relative, sets", [
    ("wiki/ja/偽装__rendered-oldrev__excerpt.txt", ("カルロフ邸殺人事件", "カルロフ邸殺人事件統率者デッキ", "アサシンクリード")),
    ("wiki/ja/戦慄予示__printable__excerpt.txt", ("ダスクモーン:戦慄の館", "ダスクモーン:戦慄の館統率者デッキ")),
    ("wiki/ja/証拠収集__printable-oldrev__excerpt.txt", ("カルロフ邸殺人事件", "Ravnica: Cluedo Edition", "モダンホライゾン3")),
])
def test_real_sets_as_a_one_column_table(corpus, relative, sets):
    """``登場セット |`` / ``---|`` / ``A B C |``: every set, and the lead sentence after it is not swallowed."""
    from ingest.wiki_records import WikiSection

    records = _real(corpus, relative)
    page = [r for r in records if isinstance(r, WikiPage)][0]
    assert page.sets == sets
    assert not page.sets_exact  # one flattened row: split on spaces
    assert page.kind == "keyword action"  # read from the lead sentence after the table
    lead = [s for s in records if isinstance(s, WikiSection) and s.heading == ""]
    assert lead and "キーワード処理の一種" in lead[0].text


def test_real_sets_on_one_line_of_the_lead(corpus):
    page = [r for r in _real(corpus, "wiki/ja/護法__rendered__excerpt.txt") if isinstance(r, WikiPage)][0]
    assert (page.name_en, page.sets) == ("Ward", ("多数",))


def test_real_diff_with_no_break_space_context_cells(corpus):
    """An interleaved diff whose lone context cells are no-break spaces (&nbsp; copied): each context
    line once on each side, and the infobox cut above its first line still gives the sets."""
    from ingest.decoding import read_source
    from ingest.wiki_diff import read_rows, rebuild_revisions

    relative = "wiki/ja/変装__diff-cur-wikitext__excerpt.txt"
    _, view = read_rows(read_source(corpus / relative).text.split("\n"), relative)
    left, right = rebuild_revisions(view)
    assert view.flavour == "interleaved"
    assert left.text.count("|英名=Disguise") == 1 and right.text.count("|英名=Disguise") == 1
    assert "{{#card:Defenestrated Phantom}}" in right.text
    pages = [r for r in _real(corpus, relative) if isinstance(r, WikiPage)]
    assert [(p.name_en, p.sets) for p in pages] == [
        ("Disguise", ("カルロフ邸殺人事件", "カルロフ邸殺人事件統率者デッキ")),
        ("Disguise", ("カルロフ邸殺人事件", "カルロフ邸殺人事件統率者デッキ", "アサシンクリード"))]
    assert all(p.partial and "line 3" in p.partial_reason for p in pages)


@pytest.mark.parametrize("relative, left, right", [
    ("wiki/ja/果敢__diff-cur-wikitext__excerpt.txt", ("タルキール覇王譚",), ("多数",)),
    ("wiki/ja/続唱__diff-cur-wikitext__excerpt.txt", ("アラーラ再誕", "プレインチェイス2012"), ("多数",)),
])
def test_real_diff_infobox_cut_above_its_first_line(corpus, relative, left, right):
    pages = [r for r in _real(corpus, relative) if isinstance(r, WikiPage)]
    assert [p.sets for p in pages] == [left, right]

