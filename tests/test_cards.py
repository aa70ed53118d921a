"""Card data: the English→Japanese name list, Oracle records with dated rulings, Forge scripts, costs."""

from __future__ import annotations

import pytest

from ingest.card_costs import mana_cost_from_forge, mana_cost_from_japanese, mana_value
from ingest.cards import (
    CardName, CardRuling, ForgeFace, OracleCard, parse_cards, parse_forge_text, parse_jpname, parse_oracle_text,
)
from ingest.records import IngestProblem, SourceError


@pytest.fixture(scope="module")
def card_records(corpus):
    return list(parse_cards(corpus))


def test_name_list_keeps_undefined_as_unknown(card_records):
    names = {r.name_en: r for r in card_records if isinstance(r, CardName)}
    assert len(names) == 32924
    assert names["Future Sight"] == CardName("Future Sight", None, "cards/jpname_20250920.json",
                                             names["Future Sight"].line, undefined=True)
    assert names["Diabolic Tutor"].name_ja == "魔性の教示者" and not names["Diabolic Tutor"].undefined
    assert names["Nissa, Worldsoul Speaker"].line == 2
    assert names['Kongming, "Sleeping Dragon"'].line == 4346  # escaped quotes in the key


def test_oracle_records_crlf_whole_set(card_records):
    xln = [r for r in card_records if isinstance(r, OracleCard) and r.source == "cards/oracle_xml/MtgOracle_XLN.txt"]
    assert len(xln) == 299
    vraska = next(r for r in xln if r.name == "Vraska, Relic Seeker")
    assert (vraska.type_line, vraska.loyalty, vraska.mana_cost, vraska.mana_value) == (
        "Legendary Planeswalker — Vraska", "6", "{4}{B}{G}", 6)
    landing = next(r for r in xln if r.name == "Legion's Landing")
    assert landing.other_part == "Adanto, the First Fort"
    assert "\r" not in landing.text and landing.text.count("\n") == 1


def test_rulings_are_dated_and_keep_their_line(card_records):
    rulings = [r for r in card_records if isinstance(r, CardRuling) and r.name == "Untamed Wilds"
               and r.source == "cards/oracle_xml/target_cards_oracle_en.xml.txt"]
    assert [(r.date, r.line) for r in rulings] == [("2004-10-04", 27), ("2006-10-15", 28)]
    assert rulings[1].text == "Can fetch a snow land."


def test_forge_adventure_has_two_faces(card_records):
    faces = [r for r in card_records if isinstance(r, ForgeFace) and r.card == "Bramble Familiar"]
    assert [(f.face, f.name, f.mana_cost, f.type_line, f.alternate_mode, f.line) for f in faces] == [
        (1, "Bramble Familiar", "{1}{G}", "Creature — Elemental Raccoon", "Adventure", 1),
        (2, "Fetch Quest", "{5}{G}{G}", "Sorcery — Adventure", "Adventure", 13),
    ]
    assert faces[0].text == "{T}: Add {G}.\n{1}{G}, {T}, Discard a card: Return this creature to its owner's hand."


def test_no_problems_in_the_corpus_card_data(card_records):
    assert [str(p) for p in card_records if isinstance(p, IngestProblem)] == []


def test_cut_oracle_record_is_a_problem_not_a_card():
    text = "<Card>\n<Name>Shock</Name>\n<CardText>Shock deals 2 damage\n"
    found = list(parse_oracle_text(text, "cut.txt"))
    assert [str(p) for p in found] == [
        "cut.txt:1: error: the file ends inside the <Card> record that starts here (at line 3): "
        "the file is cut short; that record is skipped"]


def test_unclosed_tag_inside_a_closed_record_is_an_error():
    text = "<Card>\n<Name>Shock</Name>\n<CardText>Shock deals 2 damage\n</Card>\n"
    found = list(parse_oracle_text(text, "cut.txt"))
    assert str(found[0]) == "cut.txt:3: error: <CardText> is never closed; the file is cut or malformed"
    assert found[1].name == "Shock" and found[1].text is None


def test_ruling_without_date_is_a_problem():
    text = "<Card>\n<Name>X</Name>\n<Rulings>no date here</Rulings>\n</Card>\n"
    found = list(parse_oracle_text(text, "x.txt"))
    assert [type(r).__name__ for r in found] == ["OracleCard", "IngestProblem"]
    assert found[1].code == "ruling-without-date" and found[1].line == 3


def test_forge_script_without_name_is_a_source_error():
    with pytest.raises(SourceError, match=r"^x\.txt:1: Forge script without a Name: line$"):
        list(parse_forge_text("ManaCost:1 R\n", "x.txt"))


def test_name_list_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "jpname.json"
    path.write_text('{\n  "Shock": "ショック",\n  "Bad": \n}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"^names\.json:4: not valid JSON"):
        list(parse_jpname(path, "names.json"))


@pytest.mark.parametrize("printed, oracle, value", [
    ("(４)(赤)(赤)(赤)", "{4}{R}{R}{R}", 7),
    ("(２)(黒)(黒)", "{2}{B}{B}", 4),
    ("(1)(黒)", "{1}{B}", 2),
    ("(Ｘ)(緑)", "{X}{G}", 1),
    ("(１０)", "{10}", 10),
    ("(白/青)(２/黒)", "{W/U}{2/B}", 3),
    ("(◇)(赤/Φ)", "{C}{R/P}", 2),
])
def test_japanese_costs(printed, oracle, value):
    assert mana_cost_from_japanese(printed) == oracle
    assert mana_value(oracle) == value


def test_unknown_cost_symbol_says_what_it_accepts():
    with pytest.raises(ValueError, match=r"^unknown mana symbol '金' in '\(金\)'; expected a number, X, or one of \(白\)"):
        mana_cost_from_japanese("(金)")


def test_forge_costs():
    assert mana_cost_from_forge("4 R R R") == "{4}{R}{R}{R}"
    assert mana_cost_from_forge("2 W U") == "{2}{W}{U}"
    with pytest.raises(ValueError, match="unknown Forge mana symbol 'Q'"):
        mana_cost_from_forge("Q")
