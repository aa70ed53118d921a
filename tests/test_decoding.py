"""Encodings and line endings are detected, never assumed; unreadable files say where."""

from __future__ import annotations

import gzip
import os

import pytest

from ingest.cr import parse_cr
from ingest.decoding import decode_bytes, read_source
from ingest.records import Rule, SourceError

RAW_COPIES = [
    # (original-bytes file, normalised copy, what the original is)
    ("MagicCompRules 20260116.txt", "MagicCompRules_20260116.txt", ("utf-8-sig", "mixed")),
    ("MagicCompRules 20250207.txt", "MagicCompRules_20250207.txt", ("utf-8-sig", "CRLF")),
    ("MagicCompRules 20221007.txt", "MagicCompRules_20221007.txt", ("cp1252", "CRLF")),
    ("MagicCompRules 20221118.txt.gz", "MagicCompRules_20221118.txt", ("utf-16-be", "mixed")),
]


@pytest.mark.parametrize("raw,normalised,expected", RAW_COPIES, ids=[r[0] for r in RAW_COPIES])
def test_original_bytes_parse_like_the_normalised_copy(corpus, raw, normalised, expected):
    decoded = read_source(corpus / "cr" / "en" / "raw" / raw)
    assert (decoded.encoding, decoded.line_endings) == expected
    assert "\r" not in decoded.text and not decoded.text.startswith("\ufeff")
    original = [(r.number, r.title, r.text) for r in parse_cr(corpus / "cr" / "en" / "raw" / raw) if isinstance(r, Rule)]
    copy = [(r.number, r.title, r.text) for r in parse_cr(corpus / "cr" / "en" / normalised) if isinstance(r, Rule)]
    assert len(original) > 2500
    assert original == copy


@pytest.mark.parametrize(
    "data,encoding,endings",
    [
        (b"Rule\r\ntext\r\n", "utf-8", "CRLF"),
        (b"Rule\rtext\r", "utf-8", "CR"),
        ("Rule\ntext’s".encode("utf-16-le"), "utf-16-le", "LF"),  # UTF-16 without a BOM
        (b"\xff\xfe" + "Rule\r\n".encode("utf-16-le"), "utf-16-le", "CRLF"),
        (b"\xfe\xff" + "Rule\r".encode("utf-16-be"), "utf-16-be", "CR"),
        ("Rule ™ “x”\r\n".encode("cp1252"), "cp1252", "CRLF"),
        (b"a\r\nb\rc\n", "utf-8", "mixed"),
    ],
)
def test_detects_encoding_and_line_endings(data, encoding, endings):
    decoded = decode_bytes(data, "x.txt")
    assert (decoded.encoding, decoded.line_endings) == (encoding, endings)
    assert "\r" not in decoded.text and decoded.text.startswith("Rule") or decoded.text.startswith("a")


def test_undecodable_bytes_name_the_file_and_line():
    # 0x81 is undefined in cp1252 and invalid in UTF-8: no encoding we know fits.
    with pytest.raises(SourceError) as e:
        decode_bytes(b"line one\nline two\nbad \x81 byte\n", "cr/en/bad.txt")
    assert str(e.value).startswith("cr/en/bad.txt:3: cannot decode byte 0x81")


def test_corrupt_gzip_names_the_file(tmp_path):
    path = tmp_path / "MagicCompRules_20990101.txt.gz"
    path.write_bytes(gzip.compress(os.urandom(4000))[:1000])
    with pytest.raises(SourceError) as e:
        read_source(path, "cr/en/archive/MagicCompRules_20990101.txt.gz")
    assert str(e.value).startswith("cr/en/archive/MagicCompRules_20990101.txt.gz: corrupt gzip data")


def test_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"\n\n")
    with pytest.raises(SourceError, match="empty.txt: file is empty"):
        read_source(path, "empty.txt")
