"""Every kind of source, broken as files get broken, is read right or refused with its file and line.

Each case is a small copy of a real corpus file (a slice of its lines) damaged one way: emptied,
given a NUL, a Windows-1252 byte in UTF-8, cut inside a UTF-8 character, re-encoded as UTF-16
without a BOM. The parser must read it as the original or raise :class:`SourceError` naming the
file and the damaged line; never another exception, never silence. A translated CR cut short is
an error (``truncated``) at its last line, as the English and Japanese ones are (test_build_faults
covers those and the build keeping the previous database).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.cards import parse_forge_script, parse_jpname, parse_oracle_records
from ingest.cr import parse_cr
from ingest.cr_ja import parse_cr_ja
from ingest.cr_ko import parse_cr_ko
from ingest.cr_zh import parse_cr_zh
from ingest.glossary_ja import parse_glossary_ja
from ingest.records import IngestProblem, SourceError
from ingest.wiki import parse_wiki_page

# (kind, parser, corpus path, lines kept): a slice is enough to be damaged; whole where it is small.
SOURCES = [
    ("cr-en", parse_cr, "cr/en/MagicCompRules_20260116.txt", 400),
    ("cr-ja", parse_cr_ja, "cr/ja/JPN_CR_20260116.txt", 400),
    ("cr-zh", parse_cr_zh, "cr/zh/MagicCompRules_zh-Hans_20260417.txt", 400),
    ("cr-ko", parse_cr_ko, "cr/ko/MagicCompRules_KR_20211119.txt", 400),
    ("glossary-ja", parse_glossary_ja, "cr/ja/JPN_CR_20260116_glossary_dict.txt", 400),
    ("wiki-ja", parse_wiki_page, "wiki/ja/サーチ__rendered__excerpt.txt", None),
    ("wiki-ja-diff", parse_wiki_page, "wiki/ja/偽装__diff-wikitext__excerpt.txt", None),
    ("wiki-en", parse_wiki_page, "wiki/en/Dredge__rendered__excerpt.txt", None),
    ("oracle", parse_oracle_records, "cards/oracle_sets/MtgOracle_M21.txt", 400),
    ("forge", parse_forge_script, "cards/forge/missy.txt", None),
    ("jpname", parse_jpname, "cards/jpname_20250920.json", None),
]
IDS = [s[0] for s in SOURCES]


def _lines(corpus: Path, relative: str, keep: int | None) -> list[bytes]:
    lines = (corpus / relative).read_bytes().split(b"\n")
    return lines[:keep] if keep else lines


def _parse(parser, path: Path, shown: str) -> list:
    return list(parser(path, shown))


def _text_line(lines: list[bytes], at: float) -> int:
    """0-based index of a line with some text, about ``at`` of the way down (not the first line)."""
    start = max(1, int(len(lines) * at))
    return next(i for i in range(start, len(lines)) if len(lines[i].strip()) > 8)


@pytest.mark.parametrize("kind,parser,relative,keep", SOURCES, ids=IDS)
def test_an_empty_file_names_the_file(tmp_path, kind, parser, relative, keep):
    path = tmp_path / Path(relative).name
    path.write_bytes(b"")
    with pytest.raises(SourceError) as raised:
        _parse(parser, path, relative)
    assert str(raised.value) == f"{relative}: file is empty"


@pytest.mark.parametrize("kind,parser,relative,keep", SOURCES, ids=IDS)
def test_a_nul_byte_names_its_line(corpus, tmp_path, kind, parser, relative, keep):
    lines = _lines(corpus, relative, keep)
    at = _text_line(lines, 0.5)
    lines[at] = b"\x00" + lines[at]  # at the start of a line: no UTF-8 character is split
    path = tmp_path / Path(relative).name
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(SourceError) as raised:
        _parse(parser, path, relative)
    assert (raised.value.path, raised.value.line) == (relative, at + 1)
    assert "NUL" in raised.value.message


NON_ASCII = [s for s in SOURCES if s[0] not in ("wiki-en", "forge")]  # those two are pure ASCII: cp1252 is valid


@pytest.mark.parametrize("kind,parser,relative,keep", NON_ASCII, ids=[s[0] for s in NON_ASCII])
def test_a_windows_1252_byte_in_utf8_names_its_line(corpus, tmp_path, kind, parser, relative, keep):
    lines = _lines(corpus, relative, keep)
    if not any(b > 0x7F for line in lines for b in line):
        lines = _lines(corpus, relative, None)  # the slice is ASCII: the whole file has UTF-8 in it
    at = _text_line(lines, 0.6)
    lines[at] = "é ".encode("cp1252") + lines[at]
    path = tmp_path / Path(relative).name
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(SourceError) as raised:
        _parse(parser, path, relative)
    assert (raised.value.path, raised.value.line) == (relative, at + 1)
    assert "0xe9" in raised.value.message


MULTIBYTE = [s for s in SOURCES if s[0] in ("cr-ja", "cr-zh", "cr-ko", "glossary-ja", "wiki-ja", "jpname")]


@pytest.mark.parametrize("kind,parser,relative,keep", MULTIBYTE, ids=[s[0] for s in MULTIBYTE])
def test_a_file_cut_inside_a_character_says_it_was_cut_short(corpus, tmp_path, kind, parser, relative, keep):
    data = b"\n".join(_lines(corpus, relative, keep))
    last = max(i for i in range(len(data)) if 0xE0 <= data[i] <= 0xEF)  # a 3-byte character's first byte
    path = tmp_path / Path(relative).name
    path.write_bytes(data[: last + 1])
    with pytest.raises(SourceError) as raised:
        _parse(parser, path, relative)
    assert (raised.value.path, raised.value.line) == (relative, data[:last].count(b"\n") + 1)
    assert "cut short" in raised.value.message


WHOLE_CR = [s for s in SOURCES if s[0].startswith("cr-")]


@pytest.mark.parametrize("kind,parser,relative,keep", WHOLE_CR, ids=[s[0] for s in WHOLE_CR])
def test_utf16_without_a_bom_reads_as_the_original(corpus, tmp_path, kind, parser, relative, keep):
    original = corpus / relative
    path = tmp_path / Path(relative).name
    path.write_bytes(original.read_text(encoding="utf-8-sig").encode("utf-16-le"))
    assert len(_parse(parser, path, relative)) == len(_parse(parser, original, relative))


@pytest.mark.parametrize("kind,parser,relative,keep", WHOLE_CR, ids=[s[0] for s in WHOLE_CR])
def test_a_cr_cut_at_a_line_is_an_error_at_its_last_line(corpus, tmp_path, kind, parser, relative, keep):
    """Cut 60 % of the way down (in the rules, before the glossary): a ``truncated`` error, so the
    build refuses it, at the line the file now ends on."""
    lines = (corpus / relative).read_text(encoding="utf-8-sig").split("\n")
    cut = _text_line([line.encode() for line in lines], 0.6)
    path = tmp_path / Path(relative).name
    path.write_text("\n".join(lines[: cut + 1]), encoding="utf-8")
    problems = [r for r in _parse(parser, path, relative) if isinstance(r, IngestProblem)]
    truncated = [p for p in problems if p.code == "truncated"]
    assert [(p.severity, p.source, p.line) for p in truncated] == [("error", relative, cut + 1)]
    assert "stops before its end" in truncated[0].message


@pytest.mark.parametrize("kind,parser,relative,keep", WHOLE_CR, ids=[s[0] for s in WHOLE_CR])
def test_a_whole_cr_is_not_called_truncated(corpus, kind, parser, relative, keep):
    problems = [r for r in _parse(parser, corpus / relative, relative) if isinstance(r, IngestProblem)]
    assert not [p for p in problems if p.severity == "error"]


@pytest.mark.parametrize("path", ["cr/zh/MagicCompRules_zh-Hans_20231117.txt",
                                  "cr/zh/MagicCompRules_zh-Hans_20260116.txt"])
def test_every_whole_chinese_release_is_whole(corpus, path):
    problems = [r for r in parse_cr_zh(corpus / path, path) if isinstance(r, IngestProblem)]
    assert not [p for p in problems if p.code == "truncated"]


@pytest.mark.parametrize("kind,parser,relative,keep", WHOLE_CR, ids=[s[0] for s in WHOLE_CR])
def test_an_html_page_saved_as_txt_is_not_a_cr(tmp_path, kind, parser, relative, keep):
    path = tmp_path / Path(relative).name
    path.write_text("<!DOCTYPE html><html><head><title>Rules</title></head><body><p>x</p></body></html>\n")
    records = _parse(parser, path, relative)
    assert [(p.severity, p.code, p.source, p.line) for p in records] == [("error", "not-a-cr", relative, 1)]


def test_an_english_cr_appended_twice_reads_the_first_copy_and_says_so(corpus, tmp_path):
    """A download resumed twice leaves two whole copies: the rules are the first copy's, with a warning
    at the line where the second starts (not silently, and not as an error: nothing is missing)."""
    relative = "cr/en/MagicCompRules_20260116.txt"
    text = (corpus / relative).read_text(encoding="utf-8-sig")
    once = [r for r in parse_cr(corpus / relative, relative) if not isinstance(r, IngestProblem)]
    path = tmp_path / "MagicCompRules_20260116.txt"
    path.write_text(text + "\n" + text, encoding="utf-8")
    records = list(parse_cr(path, relative))
    repeated = [r for r in records if isinstance(r, IngestProblem) and r.code == "repeated-text"]
    second = len(text.split("\n")) + text.split("\n").index(
        next(line for line in text.split("\n") if line.startswith("100.1.")))
    assert [(p.severity, p.source, p.line) for p in repeated] == [("warning", relative, second + 1)]
    assert [r for r in records if not isinstance(r, IngestProblem)] == once
