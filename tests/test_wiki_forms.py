"""One set of expected records, checked against every form a page comes in.

The cases are data (``tests/fixtures/wiki/cases.json``): for a page, the
records every form must yield (page name and kind, rulings with their section,
depth, parent and example flag, card boxes, card mentions inside rulings, the
quoted CR), and for each form the file (``corpus:`` for the real corpus,
``fixtures:`` for a hand-made file) and what that form cannot carry
(``lacks``: a wikitext page has only ``{{#cr:…}}`` where the rendered page
has the quoted rules; ``{{#card:Name}}`` has no cost or type line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.wiki import documents_from_text, parse_wiki_page, records_from_document
from ingest.wiki_records import CardBlock, CardMention, QuotedRule, Ruling, WikiPage

FIXTURES = Path(__file__).parent / "fixtures"

CASES = json.loads((FIXTURES / "wiki" / "cases.json").read_text(encoding="utf-8"))
PARAMS = [
    pytest.param(case, form, id=f"{case['case']}-{form['form']}")
    for case in CASES for form in case["forms"]
]


@pytest.fixture(scope="module")
def card_names(corpus):
    from ingest.cards import CardName, CardNameIndex, ForgeFace, OracleCard, parse_cards

    return CardNameIndex.from_records(
        r for r in parse_cards(corpus) if isinstance(r, (CardName, OracleCard, ForgeFace)))


def _records(form: dict, corpus, card_names) -> tuple[WikiPage, list]:
    where, _, relative = form["file"].partition(":")
    path = (corpus if where == "corpus" else FIXTURES) / relative
    records = list(parse_wiki_page(path, relative, card_names=card_names))
    revision = form.get("revision")
    page = next(r for r in records if isinstance(r, WikiPage) and (revision is None or r.revision == revision))
    assert page.form == form["form"]
    mine = [r for r in records if getattr(r, "revision", page.revision) == page.revision
            and getattr(r, "source", page.source) == page.source]
    return page, mine


@pytest.mark.parametrize("case, form", PARAMS)
def test_page_name_kind_and_definition(case, form, corpus, card_names):
    page, _ = _records(form, corpus, card_names)
    expected = case["expected"]["page"]
    assert (page.title, page.name_ja, page.reading, page.name_en, page.kind) == (
        expected["title"], expected["name_ja"], expected["reading"], expected["name_en"], expected["kind"])
    assert page.definition.split("\n")[0] == expected["definition_first_line"]
    assert not page.partial


@pytest.mark.parametrize("case, form", PARAMS)
def test_rulings(case, form, corpus, card_names):
    _, records = _records(form, corpus, card_names)
    found = [[r.section, r.depth, r.parent, r.is_example, r.text] for r in records if isinstance(r, Ruling)]
    assert found == case["expected"]["rulings"]


@pytest.mark.parametrize("case, form", PARAMS)
def test_card_blocks(case, form, corpus, card_names):
    _, records = _records(form, corpus, card_names)
    blocks = [b for b in records if isinstance(b, CardBlock)]
    if "card_details" in form["lacks"]:
        assert [b.name_en for b in blocks] == [c[0] for c in case["expected"]["cards"]]
        assert {b.how for b in blocks} == {"#card"}
    else:
        assert [[b.name_en, b.name_ja, b.mana_cost, b.type_line, b.pt] for b in blocks] == case["expected"]["cards"]


@pytest.mark.parametrize("case, form", PARAMS)
def test_card_mentions_in_rulings(case, form, corpus, card_names):
    _, records = _records(form, corpus, card_names)
    found = [[m.ruling, m.name_en, m.name_ja] for m in records if isinstance(m, CardMention) and m.ruling]
    assert found == case["expected"]["ruling_mentions"]


@pytest.mark.parametrize("case, form", PARAMS)
def test_quoted_cr(case, form, corpus, card_names):
    page, records = _records(form, corpus, card_names)
    quoted = [q.number for q in records if isinstance(q, QuotedRule)]
    if "quoted" in form["lacks"]:
        assert quoted == [] and page.quoted_release is None
    else:
        expected = case["expected"]["quoted"]
        assert (page.quoted_release, page.quoted_version, quoted) == (
            expected["release"], expected["version_label"], expected["numbers"])


@pytest.mark.parametrize("case, form", [p for p in PARAMS if p.values[0]["expected"]["sets"]])
def test_sets(case, form, corpus, card_names):
    page, _ = _records(form, corpus, card_names)
    if "sets" in form["lacks"]:
        # rendered text joins set names with spaces, and one name has a space: the split is a guess
        assert not page.sets_exact
        assert " ".join(page.sets) == " ".join(case["expected"]["sets"])
    else:
        assert page.sets_exact and list(page.sets) == case["expected"]["sets"]


# Garbage in, no crash: any text, read as any form, gives records (or problems), never an exception.

_PIECES = st.sampled_from([
    "\n", " ", "  • ", "- ", "*", "**", "==ルール==", "ルール", "[編集]", "{{", "}}", "[[", "]]", "|", "| − | ",
    "| + | ", "| | ", "1行： |", "1行: 1行:", "+", "引用：総合ルール 20260807.0", "701.23a ", "例：", "(４)(赤)",
    "Hit the Mother Lode / 金脈発見 ", "クリーチャー — 人間(Human)", "3/3", "<ul><li>", "</li></ul>", "<h2>",
    "発見/Discoverはキーワード処理の一種。", "《ショック》", "探す", "。",
])


@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=40).map("".join), st.sampled_from(["rendered", "wikitext", "diff", "html"]))
@settings(max_examples=300, deadline=None)
def test_any_text_in_any_form_gives_records_not_a_crash(text, form):
    for doc in documents_from_text(text, "fuzz.txt", form):
        list(records_from_document(doc))
