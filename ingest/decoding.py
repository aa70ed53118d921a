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


def _detect_encoding(data: bytes, path: str) -> tuple[str, int]:
    """Return (encoding, bytes of BOM to skip)."""
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
    except UnicodeDecodeError:
        pass
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
        raise SourceError(
            path,
            _line_of_offset(body, e.start),
            f"cannot decode byte 0x{body[e.start]:02x} as {encoding}; "
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
