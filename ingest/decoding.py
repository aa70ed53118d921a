"""Read a source file as text: detect compression, encoding and line endings, never assume.

The Comprehensive Rules have been published as UTF-8 with and without a BOM,
UTF-16 (both byte orders, with a BOM), Windows-1252 and ASCII, with CRLF, LF,
bare CR or a mix of them; archives wrap some in gzip. A Japanese file saved by a
Japanese Windows editor is Shift_JIS (read as its Microsoft form, cp932).
``read_source`` undoes all of that and says what it found.

>>> decode_bytes(b"\\xef\\xbb\\xbfA\\r\\nB\\rC", "x.txt").text
'A\\nB\\nC'
>>> decode_bytes("Magic’s".encode("cp1252"), "x.txt").encoding
'cp1252'
"""

from __future__ import annotations

import codecs
import gzip
import io
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from .records import IngestProblem, SourceError


@dataclass(frozen=True)
class DecodedSource:
    """A source's text with LF line endings, and what it was before."""

    path: str
    text: str
    encoding: str
    line_endings: str  # "LF", "CRLF", "CR" or "mixed"
    compressed: bool


_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


# A valid multi-byte UTF-8 sequence (RFC 3629): a file that has them is UTF-8, even if some byte is not.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)


def _mostly_utf8(data: bytes) -> bool:
    """More of the non-ASCII bytes form valid UTF-8 sequences than not (a UTF-8 file with a bad byte,
    not a Windows-1252 file, whose accented letters are single bytes)."""
    valid = sum(len(m) for m in _UTF8_SEQUENCE.findall(data))
    high = sum(1 for byte in data if byte >= 0x80)
    return valid > high - valid


# Full-width hiragana and katakana: Japanese text has many; Windows-1252 text read as cp932 has none
# (its accented letters become half-width katakana or kanji, never these).
_KANA = re.compile("[\u3041-\u30ff]")


def _is_shift_jis(data: bytes) -> bool:
    """The bytes are Shift_JIS Japanese: they decode as cp932 and a fifth of the non-ASCII characters are kana.

    >>> _is_shift_jis("探す（さがす）".encode("cp932")), _is_shift_jis("Rule ™ “x” é".encode("cp1252"))
    (True, False)
    """
    try:
        text = data.decode("cp932")
    except UnicodeDecodeError:
        return False
    non_ascii = sum(1 for c in text if ord(c) > 0x7F)
    return non_ascii > 0 and 5 * len(_KANA.findall(text)) >= non_ascii


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, byte within the line), both 1-based, of ``offset`` in ``data`` (LF, CRLF or CR endings)."""
    line = _line_of_offset(data, offset)
    start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    return line, offset - start + 1


def _detect_encoding(data: bytes, path: str) -> tuple[str, int]:
    """Return (encoding, bytes of BOM to skip).

    A file that is UTF-8 but for one bad byte is an error at that byte, not a
    Windows-1252 file (which would then fail, or worse succeed, elsewhere):

    >>> _detect_encoding("line one\\n“two”".encode() + b" \\x9d", "x.txt")
    Traceback (most recent call last):
    ...
    ingest.records.SourceError: x.txt:2: cannot decode byte 0x9d as UTF-8 (byte 11 of line 2, offset 19); the rest of the file is UTF-8
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    if data[:2000].count(b"\x00") > len(data[:2000]) // 4:
        # UTF-16 without a BOM: the zero bytes sit on the even or the odd side.
        evens = data[0:2000:2].count(b"\x00")
        odds = data[1:2000:2].count(b"\x00")
        return ("utf-16-be" if evens > odds else "utf-16-le"), 0
    try:
        data.decode("utf-8")
        return "utf-8", 0
    except UnicodeDecodeError as e:
        if _mostly_utf8(data):
            line, column = _position(data, e.start)
            # "unexpected end of data": the last character is cut, so the file was cut short.
            why = ("the file ends inside a character: it was cut short" if e.reason == "unexpected end of data"
                   else "the rest of the file is UTF-8")
            raise SourceError(
                path, line,
                f"cannot decode byte 0x{data[e.start]:02x} as UTF-8 (byte {column} of line {line}, "
                f"offset {e.start}); {why}",
            ) from None
    if _is_shift_jis(data):
        return "cp932", 0
    return "cp1252", 0


def _line_of_offset(data: bytes, offset: int) -> int:
    head = data[:offset]
    return max(head.count(b"\n"), head.count(b"\r")) + 1


def decode_bytes(data: bytes, path: str, compressed: bool = False) -> DecodedSource:
    """Decode ``data`` (already decompressed) read from ``path``."""
    encoding, skip = _detect_encoding(data, path)
    body = data[skip:]
    try:
        text = body.decode(encoding.replace("-sig", ""))
    except UnicodeDecodeError as e:
        # cp1252 leaves five bytes undefined; a file that has them is not cp1252.
        line, column = _position(body, e.start)
        raise SourceError(
            path, line,
            f"cannot decode byte 0x{body[e.start]:02x} as {encoding} (byte {column} of line {line}); "
            "the file is not UTF-8, UTF-16, Shift_JIS or Windows-1252 text",
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise SourceError(path, line, "NUL character in text; the file is binary or mis-encoded")
    crlf = text.count("\r\n")
    bare_cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [name for name, n in (("CRLF", crlf), ("CR", bare_cr), ("LF", lf)) if n]
    line_endings = kinds[0] if len(kinds) == 1 else ("mixed" if kinds else "LF")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return DecodedSource(path, text, encoding, line_endings, compressed)


# A "?" where a question mark does not go: before a letter, digit or another "?", alone between spaces,
# or after a symbol. An editor saving text in an encoding that lacks a character writes "?" for it.
_LOST_MARK = re.compile(r"\?(?=[\w?])|(?<=\s)\?(?=\s|$)|(?<![\w\s\"'’”)\]?])\?|^\?", re.MULTILINE)
_LEGACY = {"cp1252": "Windows-1252", "cp932": "Shift_JIS"}


def lost_characters(decoded: DecodedSource) -> IngestProblem | None:
    """A warning when a file read from Windows-1252 or Shift_JIS has "?" marks where characters were lost.

    >>> str(lost_characters(decode_bytes("Rule’s 1: ∞ and −1 ok?".encode("cp1252", "replace"), "x.txt")))
    "x.txt:1: warning: the file is Windows-1252 text, not UTF-8, and has 2 '?' where no question mark goes (the first at line 1): characters that encoding lacks were replaced when it was saved; save it as UTF-8"
    >>> lost_characters(decode_bytes("Is it? Yes (really?).".encode("cp1252"), "x.txt")) is None
    True
    """
    if decoded.encoding not in _LEGACY:
        return None
    marks = [m.start() for m in _LOST_MARK.finditer(decoded.text)]
    if not marks:
        return None
    line = decoded.text.count("\n", 0, marks[0]) + 1
    return IngestProblem(
        decoded.path, line, "warning", "lost-characters",
        f"the file is {_LEGACY[decoded.encoding]} text, not UTF-8, and has {len(marks)} '?' where no question mark "
        f"goes (the first at line {line}): characters that encoding lacks were replaced when it was saved; "
        "save it as UTF-8")


def read_source(path: str | Path, display_path: str | None = None) -> DecodedSource:
    """Read ``path`` (gzip or plain) and decode it.

    ``display_path`` is the name used in errors (a path relative to the corpus).
    """
    path = Path(path)
    shown = display_path or str(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SourceError(shown, None, f"cannot read file: {e.strerror}") from None
    compressed = data[:2] == b"\x1f\x8b"
    if compressed:
        try:
            # GzipFile, unlike gzip.decompress, notices a truncated stream.
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
                data = stream.read()
        except (OSError, EOFError, zlib.error) as e:
            raise SourceError(shown, None, f"corrupt gzip data: {e}") from None
    if not data.strip():
        raise SourceError(shown, None, "file is empty")
    return decode_bytes(data, shown, compressed)
