"""Read a source file as text: detect compression, encoding and line endings, never assume.

The Comprehensive Rules have been published as UTF-8 with and without a BOM,
UTF-16 (both byte orders, with a BOM), Windows-1252 and ASCII, with CRLF, LF,
bare CR or a mix of them; archives wrap some in gzip. ``read_source`` undoes all
of that and says what it found.

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

from .records import SourceError


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
            "the file is not UTF-8, UTF-16 or Windows-1252 text",
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
