"""English MTG Wiki pages (wiki/en: mtg.wiki, Fandom, Wikia, Gamepedia; rendered, wikitext, diff) → the same records."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.wiki import parse_wiki_page
from ingest.wiki_records import CardBlock, QuotedRule, Ruling, WikiPage


def _records(corpus: Path, name: str) -> list:
    return list(parse_wiki_page(corpus / "wiki" / "en" / name, f"wiki/en/{name}", excerpt=True))


def _pages(records) -> list[WikiPage]:
    return [r for r in records if isinstance(r, WikiPage)]


def test_every_english_page_is_read_as_english(corpus):
    files = sorted((corpus / "wiki" / "en").glob("*.txt"))
    assert len(files) >= 20
    for path in files:
        pages = _pages(_records(corpus, path.name))
        assert pages and all(p.lang == "en" for p in pages), path.name
        assert all(p.partial for p in pages), path.name  # every file is an excerpt
        assert not any("Difference between revisions" in p.title for p in pages), path.name


@pytest.mark.parametrize("name, title, kind", [
    ("Search__gamepedia-rendered-2017__excerpt.txt", "Search", "keyword action"),  # Gamepedia banner first
    ("Scry__fandom-rendered__excerpt.txt", "Scry", "keyword action"),  # "MTG Wiki" first
    ("Dredge__rendered__excerpt.txt", "Dredge", "keyword ability"),  # infobox lines before the lead
    ("Dredge__fandom-category-rendered__excerpt.txt", "Dredge", "keyword ability"),  # "Category for Dredge"
    ("Manifest__wikia-rendered-2015__excerpt.txt", "Manifest", "keyword action"),  # starts with the lead
    ("Mill__rendered-infobox-table__excerpt.txt", "Mill", "keyword action"),  # infobox as a "|" table
    ("Face_a_Villainous_Choice__rendered-oldrev__excerpt.txt", "Face a Villainous Choice", "keyword action"),
    ("Investigate__diff-cur-wikitext__excerpt.txt", "Investigate", "keyword action"),  # "Line 1: Line 1:" diff
])
def test_name_and_kind_from_the_lead_not_the_site_chrome(corpus, name, title, kind):
    page = _pages(_records(corpus, name))[-1] if "diff" not in name else _pages(_records(corpus, name))[0]
    assert (page.title, page.kind) == (title, kind)
    assert page.name_en.lower() == title.lower() and page.name_ja is None


def test_a_list_page_is_no_keyword_page(corpus):
    page = _pages(_records(corpus, "Keyword_action__rendered-oldrev-2024__excerpt.txt"))[0]
    assert page.title == "Keyword action" and page.name_en is None and page.kind is None


def test_rulings_and_an_english_card_box(corpus):
    records = _records(corpus, "Face_a_Villainous_Choice__rendered-oldrev__excerpt.txt")
    rulings = [r.text for r in records if isinstance(r, Ruling)]
    assert len(rulings) == 2 and rulings[0].startswith("A player offered a villainous choice")
    assert "The Valeyard (repeat)" not in rulings  # a list of cards after the rulings is not a ruling
    boxes = [(b.name_en, b.type_line) for b in records if isinstance(b, CardBlock)]
    assert boxes == [("Missy", "Legendary Creature — Time Lord Rogue")]


def test_the_rendered_revision_after_a_diff_has_its_rulings(corpus):
    records = _records(corpus, "Dredge__diff-2014-wikitext-with-render__excerpt.txt")
    rendered = [p for p in _pages(records) if p.form == "rendered"]
    assert rendered and rendered[0].title == "Dredge"
    rulings = [r for r in records if isinstance(r, Ruling) and r.revision == rendered[0].revision]
    assert len(rulings) == 3 and rulings[0].text.startswith("Dredge lets you replace any card draw")


def test_the_quoted_english_cr(corpus):
    records = _records(corpus, "Search__gamepedia-rendered-2017__excerpt.txt")
    page = _pages(records)[0]
    quoted = [q for q in records if isinstance(q, QuotedRule)]
    assert page.quoted_release == "20170929" and page.quoted_keyword_rule == "701.17"
    assert [q.number for q in quoted][:3] == ["701.17", "701.17a", "701.17b"]
    assert {q.lang for q in quoted} == {"en"}


def test_keywords_link_the_english_and_japanese_pages(kb_db):
    rows = {name: (ja, en) for name, ja, en in kb_db.execute(
        "select name_en, page_title, page_en_title from keywords")}
    assert rows["Search"] == ("探す", "Search")
    assert rows["Dredge"] == ("発掘", "Dredge")
    assert rows["Villainous Choice"] == ("最悪の二択", "Face a Villainous Choice")
    assert rows["Scry"] == (None, "Scry")  # only the English wiki has a page for it here
    langs = dict(kb_db.execute("select lang, count(*) from rulings group by lang").fetchall())
    assert langs.get("en", 0) >= 5 and langs["ja"] >= 60


async def test_the_keyword_page_shows_both_pages(ds):
    data = (await ds.client.get("/-/keywords/search.json")).json()
    assert data["wiki"]["page_title"] == "探す"
    assert data["wiki"]["en_page"]["title"] == "Search"
    assert "Search is a keyword action" in data["wiki"]["en_page"]["definition"]
    page = await ds.client.get("/-/keywords/search")
    assert page.status_code == 200 and "Search is a keyword action" in page.text and "kb-wiki-en" in page.text
