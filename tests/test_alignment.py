"""English and Japanese CR 20260116 aligned rule by rule, example by example, term by term.

Every numbered item (section, rule, numbered rule, subrule) and every example
of the English 20260116 must have its Japanese counterpart by (release,
number) and by (rule number, example seq). The exceptions are listed here,
each with its reason; a new one fails the test until it is understood.
"""

from __future__ import annotations

import shutil

import pytest
import sqlite_utils

from ingest.cr import parse_cr
from ingest.cr_ja import parse_cr_ja
from ingest.records import Example, GlossaryEntry, Rule, Section

# English items without a Japanese counterpart of the same number.
MISSING_IN_JAPANESE = {
    "610.5": "new in the English 20260116 (static abilities that give spells an ability as they are cast); "
             "the Japanese 20260116.0 has no translation of it yet",
}
# Japanese items without an English counterpart of the same number.
ONLY_IN_JAPANESE = {
    "805.10g": "the Japanese still prints the damage assignment order rule (805.10f) that English removed "
               "in 20241108, so its 805.10g is the English 805.10f",
    ("712.9", 3): "the third example (Blackbloom Rogue and Moonmist) was dropped from the English in 20250919",
}
# Same number, different meaning: the numbers do not pair these; rule_alignment pairs them by the
# rule both cite (kb.alignment), and the bilingual view follows it.
SAME_NUMBER_DIFFERENT_RULE = {
    "805.10f": "English: combat damage assignment (cites 510.1); Japanese: damage assignment order, "
               "removed from English in 20241108; the Japanese 805.10g (cites 510.1) is the English 805.10f",
}
# English glossary entries the Japanese glossary does not have.
GLOSSARY_MISSING_IN_JAPANESE = {
    "Saddled": "702.171b defines 騎乗された状態／Saddled, but the Japanese glossary has no entry",
    "Speed": "the Japanese glossary has 最高速度／Max Speed but no entry for Speed",
}
# Japanese glossary entries whose English term is printed off (paired all the same, paired_by says how).
GLOSSARY_SLIPS = {
    "Staion Cards": ("Station Cards", "close spelling"),
    "Phyrexia Symbol": ("Phyrexian Symbol", "close spelling"),
    "Nonmodal": ("Nonmodal Double-Faced Card", "close spelling"),
    "Modal DoubleFaced Cards": ("Modal Double-Faced Cards", "spelling"),
    "Die": ("Dies", "spelling"),
    "Turn-Based Action": ("Turn-Based Actions", "spelling"),
    "Venture into Dungeon": ("Venture into the Dungeon", "spelling"),
    "Venture into Quality": ("Venture into [Quality]", "spelling"),
    "The City's Blessing": ("City’s Blessing", "spelling"),
    "Kicker": ("Kicker, Kicked", "first name"),
    "Partner": ("Partner, “Partner—[text],” “Partner with [name]”", "first name"),
}


@pytest.fixture(scope="module")
def english(corpus):
    return list(parse_cr(corpus / "cr/en/MagicCompRules_20260116.txt", "cr/en/MagicCompRules_20260116.txt"))


@pytest.fixture(scope="module")
def japanese(corpus):
    return list(parse_cr_ja(corpus / "cr/ja/JPN_CR_20260116.txt", "cr/ja/JPN_CR_20260116.txt"))


def items(records) -> dict:
    """Every numbered item and example, keyed as the alignment pairs them."""
    out = {}
    for r in records:
        if isinstance(r, Section):
            out[r.number] = ("section", r)
        elif isinstance(r, Rule):
            out[r.number] = (r.kind, r)
        elif isinstance(r, Example):
            out[(r.rule_number, r.seq)] = ("example", r)
    return out


def test_every_english_item_and_example_has_its_japanese_counterpart(english, japanese):
    en, ja = items(english), items(japanese)
    assert len(en) == 9 + 3260 + 276
    missing = {key for key in en if key not in ja}
    assert missing == set(MISSING_IN_JAPANESE), sorted(missing, key=str)
    assert {key for key in ja if key not in en} == set(ONLY_IN_JAPANESE)
    # A pair is of one kind: a subrule never pairs with a numbered rule.
    assert [key for key in en if key in ja and en[key][0] != ja[key][0]] == []
    assert {r.release for _, r in ja.values()} == {"20260116"}


def test_titled_rules_have_the_same_english_name(english, japanese):
    en = {r.number: r for r in english if isinstance(r, Rule) and r.kind == "numbered"}
    ja = {r.number: r for r in japanese if isinstance(r, Rule) and r.kind == "numbered"}
    named = {n: r.title_en for n, r in ja.items() if r.title_en}
    assert len(named) == 255  # the 日本語／English headings of 701 and 702
    differ = {n: (en[n].title, name) for n, name in named.items() if en[n].title != name}
    # The English heading "∞ (Infinity)" is named "Infinity" in the Japanese heading
    # "∞（インフィニティ）／Infinity"; every other name is the same in both.
    assert differ == {"702.186": ("∞ (Infinity)", "Infinity")}
    untitled = {n for n, r in en.items() if r.title and not ja[n].title}
    assert untitled == set()


def test_bilingual_view_pairs_by_release_and_number(bilingual_db):
    db = sqlite_utils.Database(bilingual_db)
    counts = dict(db.execute("select languages, count(*) from rules_bilingual group by languages").fetchall())
    assert counts == {"both": 3259, "en": 1, "ja": 1}
    only = dict(db.execute("select number, languages from rules_bilingual where languages != 'both'").fetchall())
    assert only == {"610.5": "en", "805.10f": "ja"}
    row = next(db.query("select * from rules_bilingual where number = '805.10g'"))
    assert (row["number_en"], row["paired_by"]) == ("805.10f", "citations")
    assert row["text_en"].startswith("As the combat damage step begins") and "rule 510.1" in row["text_ja"]
    row = next(db.query("select * from rules_bilingual where release = '20260116' and number = '701.23'"))
    assert (row["title_en"], row["title_ja"], row["line_en"], row["line_ja"]) == ("Search", "探す", 3450, 1878)
    row = next(db.query("select * from rules_bilingual where number = '702.186'"))
    assert (row["title_en"], row["title_ja"]) == ("∞ (Infinity)", "∞（インフィニティ）")
    examples = dict(db.execute("select languages, count(*) from examples_bilingual group by languages").fetchall())
    assert examples == {"both": 276, "ja": 1}
    pair = next(db.query("select * from examples_bilingual where rule_number = '701.23c' and seq = 1"))
    assert pair["text_en"].startswith("Lobotomy says") and pair["text_ja"].startswith("《ロボトミー》")


def test_never_pairs_across_releases(bilingual_db, tmp_path):
    # A Japanese rule quoted from another release (as wiki pages do) has no English partner
    # here, even though English 20260116 has a rule of that number.
    copy = tmp_path / "copy.db"
    shutil.copy(bilingual_db, copy)
    db = sqlite_utils.Database(copy)
    db["releases"].insert({"release": "20231117", "lang": "ja", "effective_date": "2023-11-17",
                           "source": "wiki", "completeness": "excerpt"})
    db["rules"].insert({"release": "20231117", "lang": "ja", "number": "701.55", "kind": "numbered",
                        "parent": "701", "title": "発見を行う", "title_en": "Discover", "text": ""})
    rows = list(db.query("select * from rules_bilingual where number = '701.55'"))
    by_release = {r["release"]: r for r in rows}
    assert by_release["20231117"]["languages"] == "ja" and by_release["20231117"]["text_en"] is None
    assert by_release["20231117"]["completeness_ja"] == "excerpt"
    assert by_release["20260116"]["title_en"] == "Face a Villainous Choice"
    assert by_release["20260116"]["title_ja"] == "最悪の二択を行う"


def test_glossary_pairs_by_english_term(bilingual_db):
    db = sqlite_utils.Database(bilingual_db)
    pairs = list(db.query("select * from glossary_pairs where release = '20260116'"))
    assert sum(p["ja_id"] is not None for p in pairs) == 728
    assert {p["term_en"] for p in pairs if p["ja_id"] is None} == set(GLOSSARY_MISSING_IN_JAPANESE)
    assert [p["term_ja"] for p in pairs if p["en_id"] is None] == []  # every Japanese entry pairs
    slips = {p["term_en_printed"]: (p["term_en"], p["paired_by"]) for p in pairs
             if p["paired_by"] not in (None, "term")}
    assert slips == GLOSSARY_SLIPS
    counter = {p["term_ja"] for p in pairs if p["term_en"] == "Counter"}
    assert counter == {"打ち消す", "カウンター"}  # Counter(v) and Counter(n)


def test_keyword_names_come_from_titles_and_glossary(bilingual_db):
    db = sqlite_utils.Database(bilingual_db)
    names = {(r["name_en"], r["name_ja"], r["source"]) for r in db.query("select * from keyword_names")}
    assert ("Discover", "発見を行う", "rule") in names
    assert ("Graveyard", "墓地", "glossary") in names
    assert ("Untap", "アンタップする", "rule") in names  # from タップする、アンタップする／Tap and Untap
    assert not any("[" in en for en, _, _ in names)  # patterns such as Partner with [name] are not names


def test_glossary_copy_is_recorded_as_identical(bilingual_db):
    db = sqlite_utils.Database(bilingual_db)
    row = next(db.query("select * from release_sources where source = 'cr/ja/JPN_CR_20260116_glossary_dict.txt'"))
    assert (row["used"], row["same_as_used"], row["release"]) == (0, 1, "20260116")
    release = next(db.query("select * from releases where lang = 'ja'"))
    assert (release["rules"], release["numbered_rules"], release["subrules"], release["examples"],
            release["glossary_entries"], release["version_label"]) == (146, 1156, 1958, 277, 728, "20260116.0")
    assert db.execute("select count(*) from rule_references where lang = 'ja' and resolved = 0").fetchone()[0] == 9


def test_glossary_entries_have_their_english_partner(english, japanese):
    en_terms = {g.term for g in english if isinstance(g, GlossaryEntry)}
    assert len(en_terms) == 725
    assert GLOSSARY_MISSING_IN_JAPANESE.keys() <= en_terms
