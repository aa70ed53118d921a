"""Wikitext read with mwparserfromhell: hand-made edge cases (a cut page, unknown sections and templates)."""

from __future__ import annotations

from pathlib import Path

from ingest.wiki import detect_form, parse_wiki_page
from ingest.records import IngestProblem
from ingest.wiki_records import CardMention, Ruling, WikiPage, WikiSection
from ingest.wiki_wikitext import parse_wikitext

WIKI = Path(__file__).parent / "fixtures" / "wiki"


def records(name):
    return list(parse_wiki_page(WIKI / name, name))


def test_cut_page_is_partial_and_keeps_its_rulings():
    found = records("truncated.wiki")
    page = next(r for r in found if isinstance(r, WikiPage))
    assert (page.title, page.name_en, page.partial) == ("刻印する", "Engrave", True)
    assert page.partial_reason == "an unclosed template ({{) at the end"
    rulings = [r for r in found if isinstance(r, Ruling)]
    assert [(r.depth, r.is_example, r.truncated) for r in rulings] == [(0, False, False), (1, True, False), (0, False, True)]
    assert rulings[0].text == "刻印カウンターはカウンターの一種である。"  # [[カウンター (目印)|カウンター]] → its label
    assert rulings[1].markup == "**例：[[ショック/Shock]]で破壊されたパーマネントの刻印カウンターは失われる。"


def test_unknown_sections_are_kept_but_their_bullets_are_not_rulings():
    found = records("unknown_sections.wiki")
    rulings = [r for r in found if isinstance(r, Ruling)]
    assert [(r.section, r.section_path, r.depth) for r in rulings] == [
        ("ルール", ("ルール",), 0), ("特殊な状況", ("ルール", "特殊な状況"), 0), ("特殊な状況", ("ルール", "特殊な状況"), 1)]
    sections = {s.heading: s for s in found if isinstance(s, WikiSection)}
    assert sections["背景"].text == "• この箇条書きは背景の説明であり、裁定ではない。"
    assert sections["トリビア"].level == 2


def test_unknown_template_is_a_problem_with_its_line_and_is_kept():
    found = records("unknown_sections.wiki")
    problems = [str(p) for p in found if isinstance(p, IngestProblem)]
    assert problems == ["unknown_sections.wiki:2: warning: template {{未知のテンプレート}} on a line of its own "
                        "is not one we read; it is kept as its markup"]
    lead = next(s for s in found if isinstance(s, WikiSection) and s.heading == "")
    assert "{{未知のテンプレート|値=1}}" in lead.text


def test_link_to_a_card_page_is_a_mention_in_its_ruling():
    found = records("unknown_sections.wiki")
    mention = next(m for m in found if isinstance(m, CardMention))
    assert (mention.name_en, mention.name_ja, mention.how, mention.ruling, mention.known) == (
        "Diabolic Tutor", "魔性の教示者", "link", 3, None)


def test_wikitext_is_detected_without_a_file_extension():
    text = (WIKI / "unknown_sections.wiki").read_text(encoding="utf-8")
    assert detect_form(text, "page.txt") == "wikitext"


def test_list_depth_comes_from_the_number_of_marks():
    doc = parse_wikitext("==ルール==\n*a\n**b\n***c\n*d\n#e\n", "x.wiki")
    assert [(b.text, b.depth, b.ordered) for b in doc.blocks[1:]] == [
        ("a", 0, False), ("b", 1, False), ("c", 2, False), ("d", 0, False), ("e", 0, True)]
    assert [b.line for b in doc.blocks] == [1, 2, 3, 4, 5, 6]
