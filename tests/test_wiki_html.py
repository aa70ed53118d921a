"""Saved MediaWiki HTML: a hand-made reduced 発見 page (``tests/fixtures/wiki/discover_reduced.html``)
with MediaWiki's real markup, and a copy of it cut off part-way."""

from __future__ import annotations

from pathlib import Path

from ingest.wiki import detect_form, parse_wiki_page
from ingest.wiki_html import parse_html
from ingest.wiki_records import CardBlock, CardBox, Heading, ListItem, QuoteLine, Ruling, WikiPage, WikiSection

WIKI = Path(__file__).parent / "fixtures" / "wiki"
PAGE = WIKI / "discover_reduced.html"


def test_form_is_detected_from_the_markup():
    assert detect_form(PAGE.read_text(encoding="utf-8"), "page.txt") == "html"


def test_edit_links_and_table_of_contents_are_dropped():
    doc = parse_html(PAGE.read_text(encoding="utf-8"), "p.html")
    headings = [(b.text, b.level) for b in doc.blocks if isinstance(b, Heading)]
    assert headings == [("定義", 2), ("ルール", 2), ("カードの追放について", 3),
                        ("カードを唱える・手札に加えることについて", 3), ("追放されたカードを戻すことについて", 3), ("参考", 2)]
    items = [b.text for b in doc.blocks if isinstance(b, ListItem)]
    assert "定義" not in items and "1 定義" not in items  # the table of contents is not a list of the page


def test_card_box_from_the_card_template_markup():
    doc = parse_html(PAGE.read_text(encoding="utf-8"), "p.html")
    boxes = [b for b in doc.blocks if isinstance(b, CardBox)]
    assert [(b.name_en, b.name_ja, b.cost, b.type_line, b.pt, b.how) for b in boxes] == [
        ("Hit the Mother Lode", "金脈発見", "(４)(赤)(赤)(赤)", "ソーサリー", None, "html"),
        ("Curator of Sun's Creation", "太陽の創造物の管理者", "(３)(赤)", "クリーチャー — 人間(Human) 工匠(Artificer)", "3/3", "html"),
    ]


def test_quote_lines_follow_the_quote_paragraph():
    doc = parse_html(PAGE.read_text(encoding="utf-8"), "p.html")
    quoted = [b.text for b in doc.blocks if isinstance(b, QuoteLine)]
    assert quoted[:3] == ["7 その他のルール", "701 キーワード処理", "701.55 最悪の二択を行う／Face a Villainous Choice"]
    assert len(quoted) == 7


def test_lines_point_into_the_html_file():
    lines = PAGE.read_text(encoding="utf-8").split("\n")
    rulings = [r for r in parse_wiki_page(PAGE, "p.html") if isinstance(r, Ruling)]
    for ruling in rulings:
        assert ruling.text[:6] in lines[ruling.line - 1], ruling


def test_a_cut_html_page_is_partial_and_keeps_what_is_there():
    path = WIKI / "discover_cut.html"
    records = list(parse_wiki_page(path, "discover_cut.html"))
    page = next(r for r in records if isinstance(r, WikiPage))
    assert page.partial and page.partial_reason == "the HTML ends before </html>"
    rulings = [r for r in records if isinstance(r, Ruling)]
    assert [r.truncated for r in rulings] == [False, False, True]
    assert rulings[-1].text == "発見を行わせる呪文や能力には、対象を取るものがある。解決時に"
    assert len([b for b in records if isinstance(b, CardBlock)]) == 2


def test_unknown_element_is_kept_as_a_problem_and_its_text():
    html = ('<h1 id="firstHeading">X</h1><div class="mw-parser-output"><p>X/Yはキーワード処理の一種。</p>'
            '<h2><span class="mw-headline">ルール</span></h2><ul><li>A</li></ul>'
            '<figure>図の説明</figure></div></html>')
    records = list(parse_wiki_page_from_text(html))
    problems = [r for r in records if type(r).__name__ == "IngestProblem"]
    assert [p.code for p in problems] == ["html-unknown-element"]
    assert "図の説明" in next(s for s in records if isinstance(s, WikiSection) and s.heading == "ルール").text


def parse_wiki_page_from_text(html: str):
    from ingest.wiki import records_from_document

    return records_from_document(parse_html(html, "x.html"))
