"""The wiki and card build steps: tables, links, merged quoted CR, on the built database and on a tiny corpus."""

from __future__ import annotations

import json

import pytest
import sqlite_utils

from kb.build import BuildContext
from kb.load.wiki import excerpt_flags, load_wiki
from kb.schema import create_cr_tables

SEARCH_RULING = "効果によってプレイヤーがゲームの外部からカードを探す場合、そのプレイヤーはゲームの外部にあり自分が所有していて該当するカードを選ぶことができる。"

PAGE_A = """甲
甲/Alphaはキーワード処理の一種。
ルール
- rule 701.99a を参照する裁定。
引用：総合ルール 20300101.0
- 7 その他のルール
- 701 キーワード処理
- 701.99 甲を行う／Alpha
- 701.99a 甲を行うとは、何もしないことである。
"""
PAGE_B = """乙
乙/Betaはキーワード処理の一種。
ルール
- 乙の裁定。
引用：総合ルール 20300101.0
- 7 その他のルール
- 701 キーワード処理
- 701.99 甲を行う／Alpha
- 701.99a 甲を行うとは、何かをすることである。
"""


@pytest.fixture
def tiny_db(tmp_path):
    """A database with the CR tables and the wiki step run on two hand-made pages quoting the same release."""
    corpus = tmp_path / "corpus"
    (corpus / "seeds").mkdir(parents=True)
    (corpus / "seeds" / "a.txt").write_text(PAGE_A, encoding="utf-8")
    (corpus / "seeds" / "b.txt").write_text(PAGE_B, encoding="utf-8")
    db = sqlite_utils.Database(memory=True)
    create_cr_tables(db)
    ctx = BuildContext(db=db, corpus=corpus)
    load_wiki(ctx)
    return db, ctx


def test_same_release_quoted_by_two_pages_is_stored_once(tiny_db):
    db, ctx = tiny_db
    release = db.execute("select release, lang, effective_date, completeness, version_label, source, rules,"
                         " numbered_rules, subrules from releases").fetchall()
    assert release == [("20300101", "ja", "2030-01-01", "excerpt", "20300101.0", "seeds/a.txt", 1, 1, 1)]
    assert db.execute("select number, source from rules order by position").fetchall() == [
        ("701", "seeds/a.txt"), ("701.99", "seeds/a.txt"), ("701.99a", "seeds/a.txt")]
    assert db.execute("select number, title from sections").fetchall() == [("7", "その他のルール")]


def test_different_text_for_the_same_rule_is_a_problem(tiny_db):
    db, ctx = tiny_db
    differs = [str(p) for p in ctx.problems if p.code == "quoted-rule-differs"]
    assert differs == ["seeds/b.txt:9: warning: rule 701.99a of 総合ルール 20300101 is quoted here with other text "
                       "than in seeds/a.txt:9; the first is kept"]
    rows = db.execute("select p.source, q.number, q.stored_from_here, q.same_as_stored from wiki_quoted_rules q"
                      " join wiki_pages p on p.id = q.page_id where q.number = '701.99a' order by p.source").fetchall()
    assert rows == [("seeds/a.txt", "701.99a", 1, 1), ("seeds/b.txt", "701.99a", 0, 0)]


def test_rulings_keep_the_release_their_page_quotes(tiny_db):
    # linking them to rules is the "ruling links" step, after the history (tests/test_ruling_links.py)
    db, _ = tiny_db
    rows = db.execute("select page_title, keyword, quoted_release, text from rulings order by id").fetchall()
    assert rows == [("甲", "Alpha", "20300101", "rule 701.99a を参照する裁定。"),
                    ("乙", "Beta", "20300101", "乙の裁定。")]


def test_excerpt_flags_come_from_sources_md(corpus):
    flags = excerpt_flags(corpus)
    assert flags["seeds/000_2b231b6af2e09830.txt"] is False
    assert flags["wiki/ja/探す__rendered__excerpt.txt"] is True
    assert flags["wiki/en/Keyword_action__rendered-oldrev-2007__excerpt.txt"] is True  # "probably whole"


# ---------------------------------------------------------------- the built database


def test_pages_and_their_counts(kb_db):
    rows = {(r["source"], r["revision"]): r for r in kb_db["wiki_pages"].rows}
    counts = {source: (r["rulings"], r["card_blocks"], r["quoted_rules"]) for (source, _), r in rows.items()
              if source.startswith("seeds/00") and source != "seeds/004_2fc9a6b7c18d7b80.txt"}
    assert counts == {
        "seeds/000_2b231b6af2e09830.txt": (13, 2, 7),
        "seeds/001_c4cba18a4431fd9d.txt": (4, 2, 11),
        "seeds/002_462d5e9bc89289de.txt": (8, 1, 13),
        "seeds/003_4e220451db1f8278.txt": (11, None, 5),
    }
    assert rows[("seeds/004_2fc9a6b7c18d7b80.txt", "最新版")]["rulings"] == 8
    assert all(r["partial"] == 1 for (source, _), r in rows.items() if source.startswith("wiki/"))
    assert all(r["partial"] == 0 for (source, _), r in rows.items() if source.startswith("seeds/"))


def test_one_preferred_page_per_title(kb_db):
    per_title = kb_db.execute("select title, sum(preferred) from wiki_pages group by title").fetchall()
    assert all(total == 1 for _, total in per_title)
    preferred = kb_db.execute("select source from wiki_pages where title = '探す' and preferred = 1").fetchone()
    assert preferred == ("seeds/002_462d5e9bc89289de.txt",)


def test_a_ruling_is_found_by_page_title_and_exact_text(kb_db):
    rows = kb_db.execute("select r.id, r.keyword, r.quoted_release from rulings r"
                         " where r.page_title = '探す' and r.text = ? and r.preferred = 1", [SEARCH_RULING]).fetchall()
    assert len(rows) == 1 and rows[0][1:] == ("Search", "20260925")
    links = kb_db.execute("select number, how from ruling_rules where ruling_id = ? and role = 'newest'",
                          [rows[0][0]]).fetchall()
    assert links == [("701.23j", "keyword+similarity")]


def test_quoted_rules_are_japanese_excerpt_releases(kb_db):
    releases = kb_db.execute("select release, version_label, source from releases"
                             " where lang = 'ja' and completeness = 'excerpt' order by release").fetchall()
    assert releases == [("20231117", "20231117.0", "seeds/003_4e220451db1f8278.txt"),
                        ("20260807", "20260807.0", "seeds/000_2b231b6af2e09830.txt"),
                        ("20260925", "20260925.0", "seeds/002_462d5e9bc89289de.txt")]
    title = kb_db.execute("select title, title_en from rules where release = '20260807' and lang = 'ja'"
                          " and number = '701.55'").fetchone()
    assert title == ("最悪の二択を行う", "Face a Villainous Choice")
    both = kb_db.execute("select p.title from wiki_quoted_rules q join wiki_pages p on p.id = q.page_id"
                         " where q.release = '20260807' and q.number = '701' order by p.title").fetchall()
    assert both == [("探検",), ("発見",)]
    assert kb_db.execute("select count(*) from rules where release = '20260807' and lang = 'ja'"
                         " and number = '701'").fetchone() == (1,)


def test_keywords(kb_db):
    rows = {r["name_en"]: r for r in kb_db["keywords"].rows}
    assert {"Discover", "Explore", "Search", "Dredge"} <= set(rows)
    assert (rows["Dredge"]["name_ja"], rows["Dredge"]["kind"], rows["Dredge"]["cr_number"]) == (
        "発掘", "keyword ability", "702.52")
    assert rows["Discover"]["page_title"] == "発見" and rows["Discover"]["cr_number"] is None


def test_cards_merge_name_list_oracle_forge_and_wiki(kb_db):
    def card(name):
        return next(kb_db["cards"].rows_where("name_en = ?", [name]))

    future = card("Future Sight")
    assert (future["name_ja"], future["name_ja_source"]) == ("未来予知", "seeds/002_462d5e9bc89289de.txt:19")
    mother_lode = card("Hit the Mother Lode")
    assert (mother_lode["mana_cost"], mother_lode["cost_printed_ja"], mother_lode["type_line_ja"]) == (
        "{4}{R}{R}{R}", "(４)(赤)(赤)(赤)", "ソーサリー")
    assert "cards/forge/hit_the_mother_lode.txt" in json.loads(mother_lode["sources"])
    branchwalker = card("Merfolk Branchwalker")
    assert len(list(kb_db["card_rulings"].rows_where("card_id = ?", [branchwalker["id"]]))) == 3  # two files, once
    block = kb_db.execute("select name_source from wiki_card_blocks where card_id = ? and source like 'seeds/001%'",
                          [branchwalker["id"]]).fetchone()
    assert block == ("inferred from text",)
    assert kb_db.execute("select name_ja from card_faces where name_en = 'Fetch Quest'").fetchone() == ("初めてのお使い",)


def test_mentions_link_to_cards_and_rulings(kb_db):
    rows = kb_db.execute(
        "select c.name_en, m.name_ja, m.how, r.position from card_mentions m join cards c on c.id = m.card_id"
        " join rulings r on r.id = m.ruling_id where m.source = 'seeds/002_462d5e9bc89289de.txt'"
        " order by m.id").fetchall()
    assert rows == [("Future Sight", "未来予知", "name pair", 3), ("Shock", "ショック", "name pair", 3),
                    ("Cranial Extraction", "頭蓋の摘出", "name pair", 3), ("Lobotomy", "ロボトミー", "name pair", 5)]
    assert kb_db.execute("select count(*) from card_mentions where card_id is null").fetchone() == (0,)


def test_search_finds_japanese_words_in_rulings_and_cards(kb_db):
    hits = kb_db.execute("select r.page_title from rulings_fts f join rulings r on r.id = f.rowid"
                         " where rulings_fts match '\"ロボトミー\"'").fetchall()
    assert ("探す",) in hits
    cards = kb_db.execute("select c.name_en from cards_fts f join cards c on c.id = f.rowid"
                          " where cards_fts match '\"金脈\"'").fetchall()
    assert ("Hit the Mother Lode",) in cards
    english = kb_db.execute("select c.name_en from cards_fts f join cards c on c.id = f.rowid"
                            " where cards_fts match 'discover'").fetchall()
    assert ("Curator of Sun's Creation",) in english


def test_unidentified_card_boxes_are_problems(kb_db):
    rows = kb_db.execute("select source, line from ingest_problems where code = 'card-block-without-name'"
                         " order by source, line").fetchall()
    assert ("seeds/001_c4cba18a4431fd9d.txt", 6) in rows  # the enchantment whose text names no card
    assert ("seeds/001_c4cba18a4431fd9d.txt", 3) not in rows  # マーフォークの枝渡り, identified


# ---------------------------------------------------------------- Datasette

WIKI_TABLES = ["wiki_pages", "keywords", "rulings", "ruling_rules", "card_ruling_rules", "wiki_sections", "wiki_card_blocks",
               "card_mentions", "wiki_quoted_rules", "card_names", "cards", "card_faces", "card_rulings"]


@pytest.mark.parametrize("table", WIKI_TABLES)
async def test_tables_are_browsable_with_their_facets(ds, db_name, table):
    from kb.metadata import TABLES

    response = await ds.client.get(f"/{db_name}/{table}.json?_size=1")
    assert response.status_code == 200
    data = response.json()
    assert data["rows"], table
    # a facet is a column name or {"array": column} (facet by each value of a JSON array)
    facets = {f if isinstance(f, str) else next(iter(f.values())) for f in TABLES[table].get("facets", [])}
    assert facets <= set(data["facet_results"])


async def test_rulings_search_box_finds_japanese(ds, db_name):
    from kb.japanese import search_form

    response = await ds.client.get(f"/{db_name}/rulings.json", params={"_search": search_form("ロボトミー"),
                                                                        "_shape": "array"})
    assert response.status_code == 200
    assert {row["page_title"] for row in response.json()} == {"探す"}
