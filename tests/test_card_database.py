"""The whole card database: every set file assembled into cards, keywords linked to rules,
card pages and ``kb card``, and broken card files (cut short, mis-encoded, odd costs) reported
with their file and line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from ingest.card_identity import assemble_cards
from ingest.cards import parse_cards, parse_forge_text, parse_jpname, parse_oracle_records, read_card_text
from ingest.records import IngestProblem, SourceError
from kb.build import BuildContext, BuildFailed
from kb.cli import cli


# ---------------------------------------------------------------- the built database, real data


def test_every_set_file_and_card(kb_db, corpus):
    sets = sorted(p.stem.removeprefix("MtgOracle_") for p in (corpus / "cards" / "oracle_sets").glob("*.txt"))
    assert [r[0] for r in kb_db.execute("select set_id from card_sets order by set_id")] == sets
    printed = kb_db.execute("select sum(printings) from card_sets").fetchone()[0]
    assert printed == kb_db.execute("select count(*) from card_printings").fetchone()[0]
    # 43,020 set records: a printing of a card of two faces is one printing of two records.
    faces_records = kb_db.execute(
        "select count(*) from card_printings p join cards c on c.id = p.card_id"
        " where c.layout in ('transform', 'modal_dfc', 'adventure', 'flip', 'split', 'aftermath')").fetchone()[0]
    assert printed > 42000 and faces_records > 400
    assert kb_db.execute("select count(*) from cards").fetchone()[0] > 23800


def test_faces_and_halves_are_one_card(kb_db):
    rows = {r[0]: r[1:] for r in kb_db.execute(
        "select name_en, layout, full_name, mana_value, colors from cards where name_en in"
        " ('Fire // Ice', 'Delver of Secrets', 'Bonecrusher Giant', 'Bushi Tenderfoot', 'Valakut Awakening',"
        " 'Who // What // When // Where // Why', 'Gisela, the Broken Blade', 'Commit // Memory')")}
    assert rows["Fire // Ice"] == ("split", "Fire // Ice", 4, "UR")
    assert rows["Delver of Secrets"] == ("transform", "Delver of Secrets // Insectile Aberration", 1, "U")
    assert rows["Bonecrusher Giant"][:2] == ("adventure", "Bonecrusher Giant // Stomp")
    assert rows["Bushi Tenderfoot"][0] == "flip"
    assert rows["Valakut Awakening"][0] == "modal_dfc"
    assert rows["Who // What // When // Where // Why"][0] == "split"
    assert rows["Gisela, the Broken Blade"][0] == "meld"
    assert rows["Commit // Memory"][0] == "aftermath"
    # No face of a joined card is a card of its own.
    assert not kb_db.execute("select 1 from cards where name_en in ('Insectile Aberration', 'Stomp', 'Fire', 'Ice')").fetchall()
    faces = kb_db.execute("select f.name_en, f.kind, f.colors, f.name_zh from card_faces f join cards c on c.id = f.card_id"
                          " where c.name_en = 'Delver of Secrets' order by f.face").fetchall()
    assert faces == [("Delver of Secrets", "front", "U", "掘密师"), ("Insectile Aberration", "back", "U", "昆虫变体")]


def test_types_pt_loyalty_legalities_names(kb_db):
    row = kb_db.execute("select supertypes, types, subtypes, loyalty, legalities, name_ja, name_zh from cards"
                        " where name_en = 'Vraska, Relic Seeker'").fetchone()
    assert json.loads(row[0]) == ["Legendary"] and json.loads(row[1]) == ["Planeswalker"]
    assert json.loads(row[2]) == ["Vraska"] and row[3] == "6"
    assert json.loads(row[4])["vintage"] == "Legal"
    assert row[5] and row[6]
    assert kb_db.execute("select status from card_legalities where card = 'Black Lotus' and format = 'vintage'"
                         ).fetchone() == ("Restricted",)


def test_rulings_are_once_per_card_with_their_printings(kb_db):
    rows = kb_db.execute("select date, text, set_ids, printings from card_rulings where card = 'Fire // Ice'"
                         " order by date, text").fetchall()
    assert len(rows) == len({(d, t) for d, t, _, _ in rows}) == 9
    assert all(n == len(json.loads(s)) and n >= 1 for _, _, s, n in rows)
    # The same ruling on both halves of every printing is one row.
    assert kb_db.execute("select count(*) from card_rulings group by card_id, date, text having count(*) > 1").fetchall() == []


def test_ruling_ids_are_stable_digests(kb_db):
    from kb.load.cards import stable_id

    card, date, text, ruling_id = kb_db.execute(
        "select card, date, text, id from card_rulings where card = 'Lobotomy' order by date limit 1").fetchone()
    assert ruling_id == stable_id(card, date, text)


def test_newer_source_wins_and_the_choice_is_kept(kb_db):
    (source,) = kb_db.execute("select text_source from cards where name_en = 'Lobotomy'").fetchone()
    assert source.startswith("cards/oracle_xml/target_cards_oracle_en.xml.txt:")
    versions = kb_db.execute("select kind, used from card_versions v join cards c on c.id = v.card_id"
                             " where c.name_en = 'Lobotomy' order by used desc").fetchall()
    assert versions[0] == ("oracle", 1) and ("oracle_set", 0) in versions


def test_keywords_link_to_their_rules_by_lineage(kb_db):
    newest = kb_db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()[0]
    rows = {r[0]: r[1:] for r in kb_db.execute(
        "select k.keyword, k.number, k.release, k.matched from card_keywords k join cards c on c.id = k.card_id"
        " where c.name_en = 'Merfolk Branchwalker'")}
    explore = kb_db.execute("select number from rules where release = ? and lang = 'en' and title = 'Explore'",
                            [newest]).fetchone()[0]
    assert rows["Explore"][:2] == (explore, newest)
    # Search for Azcanta does not search: its own name is not its text.
    assert not kb_db.execute("select 1 from card_keywords k join cards c on c.id = k.card_id"
                             " where c.name_en = 'Search for Azcanta' and k.keyword = 'Search'").fetchall()
    # An old name (Totem armor) finds the rule by its lineage (Umbra Armor today).
    assert ("Umbra Armor", "Totem Armor") in kb_db.execute(
        "select keyword, found_as from card_keywords where card = 'Hyena Umbra'").fetchall()
    # "+1/+1 counter" is not the keyword action Counter.
    assert not kb_db.execute("select 1 from card_keywords where card = 'Travel Preparations' and keyword = 'Counter'"
                             ).fetchall()


def test_card_names_cover_three_languages(kb_db):
    for name, lang in (("Lightning Bolt", "en"), ("稲妻", "ja"), ("闪电击", "zh"), ("Insectile Aberration", "en")):
        assert kb_db.execute("select 1 from card_aliases where key = lower(?) and lang = ?", [name, lang]).fetchone(), name
    row = kb_db.execute("select name_ja, name_zh, card_id from card_names where name_en = 'Lightning Bolt'").fetchone()
    assert row[0] == "稲妻" and row[1] == "闪电击" and row[2]


# ---------------------------------------------------------------- kb card


@pytest.mark.parametrize("name", ["Lightning Bolt", "lightning bolt", "稲妻", "闪电击", "Lightnig Bolt"])
def test_kb_card_by_any_name(built_db, name):
    result = CliRunner().invoke(cli, ["card", name, "--db", str(built_db), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["card"]["name_en"] == "Lightning Bolt" and data["exact"] == (name != "Lightnig Bolt")
    assert data["names"] == {"en": "Lightning Bolt", "ja": "稲妻", "zh": "闪电击"}


@pytest.mark.parametrize("slip, card", [("塔莫耶失", "Tarmogoyf"), ("血染めの日", "Blood Moon")])
def test_kb_card_takes_a_japanese_or_chinese_name_one_character_off(built_db, slip, card):
    """塔莫耶夫 with one character wrong is a ratio of 75, under the redirect bar English names need."""
    result = CliRunner().invoke(cli, ["card", slip, "--db", str(built_db), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["card"]["name_en"] == card and data["exact"] is False


def test_kb_card_unknown_suggests(built_db):
    result = CliRunner().invoke(cli, ["card", "Lightning Bolts of Doom", "--db", str(built_db)])
    assert result.exit_code == 1
    assert "no card named 'Lightning Bolts of Doom'" in result.output


def test_kb_cards_by_keyword(built_db):
    result = CliRunner().invoke(cli, ["cards", "--keyword", "Explore", "--json", "--db", str(built_db)])
    data = json.loads(result.output)
    assert data["total"] >= 15 and any(c["name_en"] == "Merfolk Branchwalker" for c in data["cards"])


# ---------------------------------------------------------------- card pages


async def test_card_page_by_three_names(ds):
    for path in ("/-/cards/Lightning%20Bolt.json", "/-/cards/%E7%A8%B2%E5%A6%BB.json", "/-/cards/%E9%97%AA%E7%94%B5%E5%87%BB.json"):
        response = await ds.client.get(path)
        assert response.status_code == 200, path
        assert response.json()["card"]["name_en"] == "Lightning Bolt"


async def test_card_page_links_keywords_and_shows_faces(ds):
    response = await ds.client.get("/-/cards/Delver%20of%20Secrets")
    assert response.status_code == 200
    html = response.text
    assert "Insectile Aberration" in html and "掘密师" in html and "秘密を掘り下げる者" in html
    assert 'class="kb-keyword" href="/-/rules/702.9?release=' in html  # Flying


async def test_misspelling_redirects_with_did_you_mean(ds):
    response = await ds.client.get("/-/cards/Lightnig%20Bolt")
    assert response.status_code == 302
    assert response.headers["location"] == "/-/cards/Lightning%20Bolt?asked=Lightnig%20Bolt"
    page = await ds.client.get(response.headers["location"])
    assert "did you mean <strong>Lightning Bolt</strong>" in page.text


async def test_a_chinese_misspelling_redirects_too(ds):
    response = await ds.client.get("/-/cards/%E5%A1%94%E8%8E%AB%E8%80%B6%E5%A4%B1")  # 塔莫耶失 for 塔莫耶夫
    assert response.status_code == 302
    assert response.headers["location"].startswith("/-/cards/Tarmogoyf?asked=")


async def test_unknown_card_is_404_with_suggestions_and_long_name_400(ds):
    response = await ds.client.get("/-/cards/Qqqzzz%20Xyxyx.json")
    assert response.status_code == 404 and response.json()["ok"] is False
    assert (await ds.client.get("/-/cards/" + "a" * 300)).status_code == 400


async def test_keyword_page_counts_cards(ds):
    response = await ds.client.get("/-/keywords/explore")
    assert response.status_code == 200
    assert "cards in the card data use this keyword" in response.text


# ---------------------------------------------------------------- broken card files


def _mini_corpus(tmp_path: Path, corpus: Path, sets: list[str]) -> Path:
    root = tmp_path / "corpus"
    (root / "cards" / "oracle_sets").mkdir(parents=True)
    for name in sets:
        shutil.copy(corpus / "cards" / "oracle_sets" / f"MtgOracle_{name}.txt", root / "cards" / "oracle_sets")
    return root


def _load(root: Path, keep_going: bool = False) -> BuildContext:
    from kb.load.cards import load_cards

    ctx = BuildContext(db=sqlite_utils.Database(memory=True), corpus=root, keep_going=keep_going)
    load_cards(ctx)
    return ctx


def _tables(db) -> dict[str, list]:
    from kb.load.cards import _ROW_TABLES

    return {t: db.execute(f"select * from [{t}] order by rowid").fetchall() for t in _ROW_TABLES}


def test_card_rows_from_the_cache_are_the_rows_parsed(tmp_path, corpus):
    from kb.cache import Cache
    from kb.load.cards import load_cards

    root = _mini_corpus(tmp_path, corpus, ["XLN", "RIX"])
    shutil.copy(corpus / "cards" / "jpname_20250920.json", root / "cards")
    cache = Cache(tmp_path / "cache")

    def load():
        ctx = BuildContext(db=sqlite_utils.Database(memory=True), corpus=root, cache=cache)
        load_cards(ctx)
        return ctx

    first, second = load(), load()
    assert (cache.misses["cards"], cache.hits["cards"]) == (1, 1)
    parsed = _tables(_load(root).db)  # no cache at all
    assert _tables(first.db) == _tables(second.db) == parsed
    assert len(parsed["cards"]) > 400 and parsed["card_aliases"]
    assert [p.code for p in first.problems] == [p.code for p in second.problems]
    # A card file that changes is a miss; a build that kept going past a broken file is never cached.
    path = root / "cards" / "oracle_sets" / "MtgOracle_RIX.txt"
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"<Name>Jadelight Ranger</Name>") + 40])
    for _ in range(2):
        ctx = BuildContext(db=sqlite_utils.Database(memory=True), corpus=root, cache=cache, keep_going=True)
        load_cards(ctx)
        assert any(p.code == "unreadable" for p in ctx.problems)
    assert cache.misses["cards"] == 3 and cache.hits["cards"] == 1


def test_truncated_set_file_stops_the_build_with_its_line(tmp_path, corpus):
    root = _mini_corpus(tmp_path, corpus, ["XLN", "RIX"])
    path = root / "cards" / "oracle_sets" / "MtgOracle_RIX.txt"
    data = path.read_bytes()
    cut = data[: data.index(b"<Name>Jadelight Ranger</Name>") + 40]
    path.write_bytes(cut)
    start = cut[: cut.rindex(b"<Card>")].count(b"\n") + 1
    with pytest.raises(BuildFailed, match=rf"^cards/oracle_sets/MtgOracle_RIX\.txt:{start}: the file ends inside"):
        _load(root)
    ctx = _load(root, keep_going=True)  # kept as an error; the cards before the cut are there
    assert any(p.severity == "error" and p.line == start for p in ctx.problems)
    assert ctx.db.execute("select count(*) from cards where name_en = 'Merfolk Branchwalker'").fetchone()[0] == 1


def test_mis_encoded_set_file_names_the_byte_and_line(tmp_path, corpus):
    root = _mini_corpus(tmp_path, corpus, ["XLN"])
    path = root / "cards" / "oracle_sets" / "MtgOracle_XLN.txt"
    lines = path.read_bytes().split(b"\n")
    lines[99] = lines[99][:-1] + b"\x9d\r"  # one byte that is not UTF-8 in a UTF-8 file (line 100)
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(BuildFailed, match=r"^cards/oracle_sets/MtgOracle_XLN\.txt:100: byte 0x9d is not UTF-8"):
        _load(root)


def test_whole_file_in_another_encoding_is_read(tmp_path, corpus):
    root = _mini_corpus(tmp_path, corpus, ["XLN"])
    path = root / "cards" / "oracle_sets" / "MtgOracle_XLN.txt"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    records = list(parse_oracle_records(path, "x.txt"))
    assert sum(type(r).__name__ == "OracleCard" for r in records) == 299


def test_forge_cost_with_a_superscript_is_an_error_with_its_line():
    found = list(parse_forge_text("Name:Odd Card\nManaCost:²\nTypes:Instant\nOracle:Draw a card.\n", "odd.txt"))
    problem = next(r for r in found if isinstance(r, IngestProblem))
    assert (problem.source, problem.line, problem.severity) == ("odd.txt", 2, "error")
    assert next(r for r in found if not isinstance(r, IngestProblem)).mana_cost is None


def test_name_list_value_that_is_not_text_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "jpname.json"
    path.write_text('{\n  "Shock": "ショック",\n  "Odd": 5,\n  "Other": null\n}\n', encoding="utf-8")
    found = list(parse_jpname(path, "names.json"))
    problems = [str(p) for p in found if isinstance(p, IngestProblem)]
    assert problems[0].startswith("names.json:3: error: the Japanese name of 'Odd' is 5")
    assert problems[1].startswith("names.json:4: error: the Japanese name of 'Other' is null")


def test_card_pool_reports_a_cut_oracle_file_not_an_unknown_card(tmp_path, corpus):
    from executable_rules.card_pool import load_card_pool

    root = tmp_path / "corpus"
    shutil.copytree(corpus / "cards", root / "cards", ignore=shutil.ignore_patterns("oracle_sets"))
    path = root / "cards" / "oracle_xml" / "target_cards_oracle_en.xml.txt"
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"<Name>Lobotomy</Name>") + 30])
    with pytest.raises(SourceError, match=r"^cards/oracle_xml/target_cards_oracle_en\.xml\.txt:\d+: the file ends inside"):
        load_card_pool(root)


def test_assembly_of_the_keyword_subset_alone(corpus):
    records = list(parse_cards(corpus, kinds=["jpname", "oracle"]))
    cards = {c.name: c for c in assemble_cards(records)}
    assert cards["Jadelight Ranger"].name_ja and cards["Jadelight Ranger"].mana_value == 3
    assert read_card_text(corpus / "cards" / "oracle_xml" / "MtgOracle_XLN.txt").startswith("<Card>")
