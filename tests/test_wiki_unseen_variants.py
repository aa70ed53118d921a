"""Ruling sections in the variants of a page's forms the corpus does not have (round 6).

Each of these gave no ruling, or lost one, without a warning, before: a heading
printed with its edit link after it (``ルール[編集]``, as the rendered pages of
the site's current skin print them), the marks browsers print for nested lists
(``◦``, ``▪``) and the Japanese ``・``, and the longer names some pages give the
section (``主なルール``, ``ルール上の注意``). The same three rulings, nested the same
way, are expected from each.
"""

from __future__ import annotations

import pytest

from ingest.records import IngestProblem
from ingest.wiki import documents_from_text, records_from_document
from ingest.wiki_records import Ruling, WikiPage
from ingest.wiki_rendered import decorated_heading, is_ruling_heading

HEAD = "甲\n\n甲/Alphaはキーワード能力の一種。\n\n"
R1 = "甲は常在型能力であり、スタックに乗らない。"
R2 = "例：甲を2つ持つ場合、それぞれが機能する。"
R3 = "甲を行うことを選んだなら、それを途中でやめることはできない。"
NESTED = [(0, R1), (1, R2), (0, R3)]
FLAT = [(0, R1), (0, R2), (0, R3)]

JAPANESE = {
    "edit link after the heading": (HEAD + f"解説[編集]\n\nルール[編集]\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "edit link with a space": (HEAD + f"ルール [編集]\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "edit and edit-source links": (HEAD + f"ルール[編集 | ソースを編集]\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "nested mark ◦ with indentation": (HEAD + f"ルール\n\n• {R1}\n  ◦ {R2}\n• {R3}\n", NESTED),
    "nested mark ○ without indentation": (HEAD + f"ルール\n\n● {R1}\n○ {R2}\n● {R3}\n", NESTED),
    "Japanese ・ with no space": (HEAD + f"ルール\n\n・{R1}\n・{R2}\n・{R3}\n", FLAT),
    "section named 主なルール": (HEAD + f"主なルール\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "section named ルール上の注意": (HEAD + f"ルール上の注意\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    # round 7: a heading decorated (a colon after it, brackets, a mark, "=" signs kept in a rendered copy)
    "heading with a full-width colon ルール：": (HEAD + f"解説\n\n解説の文。\n\nルール：\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "heading with an ASCII colon ルール:": (HEAD + f"ルール:\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "heading in brackets 【ルール】": (HEAD + f"【ルール】\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "heading after a mark ■ルール": (HEAD + f"■ルール\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "heading with = signs in rendered text": (HEAD + f"== ルール ==\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "heading with a parenthesis ルール（2024年）": (HEAD + f"ルール（2024年）\n\n• {R1}\n  • {R2}\n• {R3}\n", NESTED),
    "wikitext, heading with a colon": ("'''甲'''/''Alpha''は[[キーワード能力]]の一種。\n==ルール：==\n*" + R1 + "\n**" + R2
                                       + "\n*" + R3 + "\n", NESTED),
    "HTML, heading with a colon": ((
        '<html><body><h1 id="firstHeading">甲</h1><div class="mw-parser-output"><p><b>甲</b>/<i>Alpha</i>は'
        f'キーワード能力の一種。</p><h2><span class="mw-headline">ルール：</span></h2><ul><li>{R1}<ul><li>{R2}</li></ul></li>'
        f"<li>{R3}</li></ul></div></body></html>"), NESTED),
    "wikitext, numbered": ("'''甲'''/''Alpha''は[[キーワード能力]]の一種。\n==ルール==\n#" + R1 + "\n##" + R2 + "\n#" + R3
                           + "\n", NESTED),
    "HTML, ルール under 解説 with its edit link": ((
        '<html><body><h1 id="firstHeading">甲</h1><div class="mw-parser-output"><p><b>甲</b>/<i>Alpha</i>は'
        "キーワード能力の一種。</p><h2>解説</h2><h3><span class=\"mw-headline\">ルール</span>"
        f'<span class="mw-editsection">[<a>編集</a>]</span></h3><ul><li>{R1}<ul><li>{R2}</li></ul></li>'
        f"<li>{R3}</li></ul></div></body></html>"), NESTED),
}

E1 = "Alpha is a static ability; it doesn't use the stack."
E2 = "Multiple instances of alpha each work."
E3 = "Once you choose to alpha, you can't stop part-way."
EN_HEAD = "Alpha\nFrom MTG Wiki\nJump to navigation Jump to search\nAlpha is a keyword ability.\n"
ENGLISH = {
    "nested mark ◦": (EN_HEAD + f"Rulings\n• {E1}\n  ◦ {E2}\n• {E3}\n", [(0, E1), (1, E2), (0, E3)]),
    "edit link": (EN_HEAD + f"Rulings[edit | edit source]\n- {E1}\n- {E2}\n- {E3}\n", [(0, E1), (0, E2), (0, E3)]),
    "heading with a colon": (EN_HEAD + f"Rulings:\n• {E1}\n  ◦ {E2}\n• {E3}\n", [(0, E1), (1, E2), (0, E3)]),
    "a longer name with a colon": (EN_HEAD + f"Notable rulings:\n• {E1}\n• {E2}\n• {E3}\n", [(0, E1), (0, E2), (0, E3)]),
    "en dashes as list marks": (EN_HEAD + f"Rulings\n– {E1}\n– {E2}\n– {E3}\n", [(0, E1), (0, E2), (0, E3)]),
    # a copy that kept no list marks: the section's paragraphs are its rulings (was: none, no warning)
    "every list mark lost": (EN_HEAD + f"Rulings\n{E1}\n{E2}\n{E3}\n", [(0, E1), (0, E2), (0, E3)]),
    "wikitext, heading with a colon": ("'''Alpha''' is a [[keyword ability]].\n==Rulings:==\n* " + E1 + "\n** " + E2
                                       + "\n* " + E3 + "\n", [(0, E1), (1, E2), (0, E3)]),
}


def _rulings(text: str):
    records = [r for d in documents_from_text(text, "variant.txt") for r in records_from_document(d)]
    return records, [(r.depth, r.text) for r in records if isinstance(r, Ruling)]


@pytest.mark.parametrize("case", sorted(JAPANESE))
def test_japanese_variant_gives_every_ruling(case):
    text, expected = JAPANESE[case]
    records, rulings = _rulings(text)
    assert rulings == expected
    page = next(r for r in records if isinstance(r, WikiPage))
    assert (page.title, page.name_en) == ("甲", "Alpha")


@pytest.mark.parametrize("case", sorted(ENGLISH))
def test_english_variant_gives_every_ruling(case):
    text, expected = ENGLISH[case]
    assert _rulings(text)[1] == expected


def test_ruling_headings_and_others():
    assert all(is_ruling_heading(h) for h in ("ルール", "裁定", "ルーリング", "主なルール", "ルール上の注意", "Rulings"))
    # the CR itself, explanations and the English wiki's notes hold no rulings
    assert not any(is_ruling_heading(h) for h in ("総合ルール", "解説", "その他", "Rules", "Notes", "ルール文章"))


def test_a_line_opening_with_a_circle_placeholder_stays_text():
    # "○○" is how pages write "any name" in prose; with no space after it, it is no list mark
    _, rulings = _rulings(HEAD + f"ルール\n\n• {R1}\n○○を行う効果は、甲の影響を受けない。\n")
    assert rulings[0] == (0, R1)
    assert all(not text.startswith(("を行う", "○を行う")) for _, text in rulings)


def test_decorated_headings_only_of_known_sections():
    assert [decorated_heading(h) for h in ("ルール：", "【ルール】", "== 解説 ==", "Rulings:", "■ルール")] == [
        "ルール", "ルール", "解説", "Rulings", "ルール"]
    # an undecorated heading is the ordinary rules' to read; a sentence or an unknown name is no heading
    assert [decorated_heading(h) for h in ("ルール", "以下のとおり：", "■注意", "解説（旧）", "例：")] == [None] * 5


def test_a_list_under_an_unread_colon_line_is_a_warning_naming_the_line():
    # a form of heading not seen yet: its list is kept as the section's text, and a warning says where
    text = HEAD + f"解説\n\n注意点：\n\n• {R1}\n• {R3}\n"
    records, rulings = _rulings(text)
    assert rulings == []
    problems = [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-heading-unread"]
    assert [(p.line, p.severity) for p in problems] == [(text.splitlines().index("注意点：") + 1, "warning")]
    assert "注意点：" in problems[0].message
    # a heading read as a ruling section gives no such warning
    records, rulings = _rulings(HEAD + f"ルール：\n\n• {R1}\n")
    assert rulings == [(0, R1)] and not [r for r in records if isinstance(r, IngestProblem)
                                         and r.code == "wiki-heading-unread"]
