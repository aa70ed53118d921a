"""Chinese and Korean in search, on rule pages and in the CLI, on the built database."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.search import search


def test_chinese_keyword_finds_its_rules_in_every_language(kb_db):
    hits = search(kb_db, "倾探", limit=20)
    found = {(h.lang, h.number) for h in hits if h.kind == "rule"}
    assert ("zh", "701.57") in found and ("en", "701.57") in found  # through keyword_translations
    zh = next(h for h in hits if h.lang == "zh" and h.kind == "rule")
    assert zh.lang_other == "en" and "[" not in zh.snippet


def test_english_and_japanese_keywords_find_chinese_and_korean_rules(kb_db):
    assert ("zh", "701.57") in {(h.lang, h.number) for h in search(kb_db, "discover", limit=20)}
    assert ("zh", "404") in {(h.lang, h.number) for h in search(kb_db, "墓地", lang="zh", limit=5)}  # as 坟墓场
    assert ("ko", "701.19") in {(h.lang, h.number) for h in search(kb_db, "search", lang="ko", limit=5)}


def test_korean_sentence_search_marks_the_printed_words(kb_db):
    hits = search(kb_db, "서고에서 카드를 찾", lang="ko", limit=5)
    assert hits and all(h.lang == "ko" and h.release == "20211119" for h in hits)
    assert any("\x02" in h.snippet for h in hits)  # matched words marked in the text as printed


def test_kb_rule_in_chinese_by_english_title(built_db):
    result = CliRunner().invoke(cli, ["rule", "Discover", "--lang", "zh", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    assert "701.57. 倾探" in result.output and "(release 20260417, zh)" in result.output


def test_kb_trace_follows_chinese_releases(built_db):
    result = CliRunner().invoke(cli, ["trace", "701.57", "--lang", "zh", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    assert "first in 20231117 as 701.55" in result.output


@pytest.mark.parametrize("url, status, present", [
    ("/-/rules/701.57?with=zh", 200, "倾探"),
    ("/-/rules/701.57?lang=zh&with=ja", 200, "発見"),
    ("/-/rules/701.19?release=20211119&with=ko", 200, "찾기"),
    ("/-/rules/701.57?with=xx", 400, "with must be one of"),
    ("/-/rules/701.57?lang=ja&with=ja", 400, "two different languages"),
])
async def test_rule_page_language_picker(ds, url, status, present):
    response = await ds.client.get(url)
    assert response.status_code == status
    assert present in response.text


async def test_rule_page_pairs_the_japanese_805_10g_with_the_english_805_10f(ds):
    data = (await ds.client.get("/-/rules/805.10.json?release=20260116")).json()
    pairs = [((r.get("en") or {}).get("number"), (r.get("ja") or {}).get("number")) for r in data["rows"]]
    assert ("805.10f", "805.10g") in pairs and (None, "805.10f") in pairs
