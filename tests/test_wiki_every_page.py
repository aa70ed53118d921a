"""Every wiki page of the corpus, whatever its form: no ruling dropped silently, every ruling linked.

The same expectations run over each file of ``wiki/ja`` and ``wiki/en`` (rendered, mobile,
printable, wikitext, diff, diff followed by the rendered revision): a line under a ruling
heading (ルール, ``[編集] ルール``, ``==ルール==``, Rulings) that carries a bullet is either a
:class:`~ingest.wiki_records.Ruling` with that text or an ingest problem naming that line. The
lines are found here by a plain scan of the file, not by the parser's own reading.
"""

from __future__ import annotations

import re

import pytest
from rapidfuzz import fuzz

from ingest.records import IngestProblem
from ingest.wiki import documents_from_text, parse_wiki_page, records_from_document
from ingest.wiki_records import Ruling
from kb.corpus import CorpusNotFound, find_corpus

try:
    CORPUS = find_corpus()
except CorpusNotFound:  # pragma: no cover - the corpus fixture then fails clearly
    CORPUS = None
PAGES = sorted(str(p.relative_to(CORPUS)) for p in (CORPUS / "wiki").glob("*/*.txt")) if CORPUS else []
# A ruling heading as each form prints it; diff views prefix "+", "−", "|" or a no-break space.
_PREFIX = r"^[\s\u00a0+−|-]*?"
_RULING_HEADING = re.compile(_PREFIX + r"(?:\[編集\]\s*)?(?:=+\s*)?(?:ルール|Rulings)(?:\s*=+)?\s*(?:\[編集\])?\s*\|*\s*$")
# Any other heading ends the section: a line of a few words without sentence punctuation, or ==x==.
_OTHER_HEADING = re.compile(_PREFIX + r"(?:\[編集\]\s*\S.*|=+[^=]+=+\s*\|*|[^\s•*#。、.,:：()（）-][^。.,:：]{0,24}|[A-Z][A-Za-z ,'-]{0,60})$")
_BULLET = re.compile(_PREFIX + r"(?:[•*#]+|-\s)\s*(?P<text>\S.*)$")


def _plain(text: str) -> str:
    text = re.sub(r"\[\[(?:[^|\]]*\|)?([^\]]*)\]\]", r"\1", text)
    return re.sub(r"'{2,}|\|+\s*$", "", text).strip()


def scanned_rulings(text: str) -> list[tuple[int, str]]:
    """(line, text) of each bulleted line under a ruling heading, by a plain scan.

    >>> scanned_rulings("解説\\n• x\\nルール\\n• 甲は乙である。\\n  • 例：丙。\\nその他\\n• 丁")
    [(4, '甲は乙である。'), (5, '例：丙。')]
    """
    out, inside = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if _RULING_HEADING.match(line):
            inside = True
        elif inside and (m := _BULLET.match(line)):
            out.append((n, _plain(m["text"])))
        elif inside and _OTHER_HEADING.match(line):
            inside = False
    return out


@pytest.fixture(scope="module")
def card_names(corpus):
    from ingest.cards import CardName, CardNameIndex, ForgeFace, OracleCard, parse_cards

    return CardNameIndex.from_records(
        r for r in parse_cards(corpus) if isinstance(r, (CardName, OracleCard, ForgeFace)))


@pytest.mark.parametrize("relative", PAGES, ids=str)
def test_every_ruling_bullet_is_a_ruling_or_a_problem_at_its_line(corpus, card_names, relative):
    assert PAGES
    path = corpus / relative
    records = list(parse_wiki_page(path, str(relative), card_names=card_names))
    rulings = [r for r in records if isinstance(r, Ruling)]
    problem_lines = {r.line for r in records if isinstance(r, IngestProblem)}
    lost = []
    for line, text in scanned_rulings(path.read_text(encoding="utf-8")):
        if len(text) < 8 or line in problem_lines:
            continue
        if not any(fuzz.partial_ratio(text[:40], r.text) >= 85 for r in rulings):
            lost.append((line, text[:60]))
    assert lost == [], f"{relative}: ruling lines with neither a ruling nor a problem"


def test_the_scan_finds_rulings_in_many_page_forms():
    """The scan above is no empty check: it finds rulings in rendered, printable, diff and English pages."""
    found = {p: len(scanned_rulings((CORPUS / p).read_text(encoding="utf-8"))) for p in PAGES}
    with_rulings = [p for p, n in found.items() if n]
    assert len(with_rulings) >= 6, found
    assert any("printable" in p for p in with_rulings) and any("/en/" in p for p in with_rulings)
    assert any("diff" in p for p in with_rulings)


def test_a_ruling_section_that_lost_its_bullets_gives_rulings(corpus, card_names):
    """宝物's old revision prints its ルール section as a paragraph: that paragraph is its ruling."""
    records = list(parse_wiki_page(corpus / "wiki/ja/宝物__rendered-oldrev__excerpt.txt", card_names=card_names))
    rulings = [r for r in records if isinstance(r, Ruling)]
    assert [(r.section, r.line, r.depth) for r in rulings] == [("ルール", 10, 0)]
    assert "無色の宝物・アーティファクト・トークン" in rulings[0].text


def test_paragraphs_beside_bullets_in_a_ruling_section_stay_paragraphs():
    doc = documents_from_text("甲\n\n甲/Alphaはキーワード処理の一種。\n\nルール\n\n以下は注意。\n\n• 甲は乙である。\n", "x.txt")[0]
    rulings = [r for r in records_from_document(doc) if isinstance(r, Ruling)]
    assert [r.text for r in rulings] == ["甲は乙である。"]


def test_an_empty_bullet_where_the_page_is_cut_is_a_warning_at_its_line(corpus, card_names):
    records = list(parse_wiki_page(corpus / "wiki/ja/最悪の二択__rendered-oldrev__excerpt.txt", card_names=card_names))
    problems = [r for r in records if isinstance(r, IngestProblem) and r.code == "wiki-empty-ruling"]
    assert [(p.line, "cut" in p.message) for p in problems] == [(18, True)]


def test_every_stored_wiki_ruling_is_linked(kb_db):
    """Every wiki ruling of the corpus (keyword pages and others, every form) gets a rule, or a
    problem saying it has none; at least two in three are linked (a keyword page's ruling far
    nearer another subrule than the keyword's definition gets no link rather than the definition)."""
    rows = kb_db.execute("select id, page_title, source, linked_rules from rulings where source like 'wiki/%'"
                         " or source like 'seeds/%'").fetchall()
    assert len(rows) >= 40
    unlinked = [r for r in rows if not r[3]]
    assert len(unlinked) <= len(rows) // 3, unlinked
    listed = {(s, l) for s, l in kb_db.execute(
        "select source, line from ingest_problems where code = 'ruling-not-linked'")}
    lines = dict(kb_db.execute("select id, line from rulings").fetchall())
    assert all((r[2], lines[r[0]]) in listed for r in unlinked)
    treasure = kb_db.execute("select linked_rules from rulings where page_title = '宝物'").fetchall()
    assert treasure == [('["111.10a"]',)]


def test_every_page_with_rulings_has_linked_rulings(kb_db):
    """Whatever a page's form and language, its rulings are linked: no page with rulings is left
    with none linked (round 1 linked none on pages it had not met)."""
    rows = kb_db.execute("select source, count(*), count(linked_rules) from rulings group by source").fetchall()
    assert len(rows) >= 10 and any("/en/" in s for s, _, _ in rows) and any("diff" in s for s, _, _ in rows)
    assert [s for s, n, linked in rows if not linked] == []
