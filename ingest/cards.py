"""Card data: English→Japanese names, Oracle records with dated rulings, Forge scripts: ``parse_cards``.

Four kinds of source under ``cards/`` of the corpus, one parser each, one front door:

- ``jpname_*.json``: a JSON object of English name → Japanese name. Some
  values are the literal string ``"undefined"`` (the source's marker for "no
  Japanese name known"); they become ``name_ja=None`` with ``undefined=True``,
  never the word "undefined" as a name. A value that is not text (a number,
  ``null``, a list) is an error naming its line, and the name is kept as unknown.
- ``oracle_sets/MtgOracle_<SET>.txt`` (every printing of a set) and
  ``oracle_xml/*.txt`` (chosen records): XML-like ``<Card>`` records, one tag
  per line, values that may run over several lines (``CardText``,
  ``Rulings``, ``Flavor``). It is not a well-formed XML document (no root, no
  declaration) so it is read as tagged lines; every ``<Rulings>`` line
  ``YYYY/MM/DD: text`` becomes a :class:`CardRuling` dated ``YYYY-MM-DD``. A
  creature's ``Type`` ends with its P/T (``Creature — Merfolk Scout 2/1``) and
  a planeswalker's with ``(Loyalty: 4)``: both are split off. The halves of a
  split card are named ``Fire (Fire/Ice)``: the record's ``name`` is the half
  (``Fire``) and ``split_card`` the card (``Fire // Ice``).
- ``forge/*.txt``: Forge card scripts, ``Key:Value`` lines; ``ALTERNATE``
  starts the card's other face (an adventure, the back of a double-faced
  card) and ``AlternateMode:`` says which.

A file that ends inside a record (cut short) or is not UTF-8 where it should
be is reported with its line: :func:`parse_oracle_text` yields an
``oracle-truncated`` error problem (``oracle-no-cards`` for a file with no record at all, an HTML
page saved under its name), a Forge face without its ``Oracle:`` line a ``forge-no-oracle`` one,
:func:`read_card_text` raises :class:`SourceError` for bytes that are not UTF-8 in a UTF-8 file,
and a name list whose Japanese names have no Japanese character (saved as Windows-1252) is one.

>>> records = list(parse_oracle_text(ORACLE_SAMPLE, "sample.txt"))
>>> card = records[0]
>>> card.name, card.type_line, card.mana_cost, card.power, card.toughness, card.chinese_name
('Merfolk Branchwalker', 'Creature — Merfolk Scout', '{1}{G}', '2', '1', '枝生人鱼')
>>> card.legalities
(('vintage', 'Legal'), ('modern', 'Legal'))
>>> [(r.date, r.text, r.set_id) for r in records[1:]]
[('2018-01-19', 'If no card is revealed, the exploring creature receives a +1/+1 counter.', 'XLN')]
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Union

from .card_costs import mana_cost_from_forge, mana_value
from .decoding import DecodedSource, lost_characters, read_source
from .records import IngestProblem, SourceError

ORACLE_SAMPLE = """<Card>
<SetId>XLN</SetId>
<No>197</No>
<Name>Merfolk Branchwalker</Name>
<ChineseName>枝生人鱼</ChineseName>
<Type>Creature — Merfolk Scout 2/1</Type>
<ManaCost>{1}{G}</ManaCost>
<CardText>When Merfolk Branchwalker enters the battlefield, it explores.</CardText>
<Rulings>2018/01/19: If no card is revealed, the exploring creature receives a +1/+1 counter.</Rulings>
<Vintage>Legal</Vintage>
<Modern>Legal</Modern>
</Card>
"""


@dataclass(frozen=True)
class CardName:
    """One entry of the English→Japanese name list; ``name_ja`` is None where the list says "undefined"."""

    name_en: str
    name_ja: str | None
    source: str
    line: int
    undefined: bool = False


@dataclass(frozen=True)
class OracleCard:
    """One ``<Card>`` record (one face, one printing) with its Oracle text.

    The fields after ``line`` were added for the whole card database; they
    default to "not given" so older callers keep working.
    """

    name: str
    set_id: str | None
    number: str | None
    type_line: str | None
    mana_cost: str | None
    mana_value: int | float | None
    text: str | None
    power: str | None
    toughness: str | None
    loyalty: str | None
    other_part: str | None  # the other face of a double-faced or split card ("A ; B" for a meld result)
    source: str
    line: int  # the line of <Name>
    chinese_name: str | None = None  # Simplified Chinese, as printed ("碎骨巨人 // 一脚踩下" for both faces)
    color_indicator: str | None = None  # colour words, "Black Blue"
    legalities: tuple[tuple[str, str], ...] = ()  # (format, status): ("vintage", "Restricted")
    set_name: str | None = None
    rarity: str | None = None
    artist: str | None = None
    multiverse_id: str | None = None
    flavor: str | None = None
    flavor_zh: str | None = None
    watermark: str | None = None
    reserved: bool = False
    hand_size: str | None = None  # Vanguard
    starting_life: str | None = None  # Vanguard
    split_card: str | None = None  # "Fire // Ice" for the half "Fire (Fire/Ice)"
    record_line: int = 0  # the line of <Card>


@dataclass(frozen=True)
class CardRuling:
    """A dated ruling on a card: ``date`` is ``YYYY-MM-DD``; ``name`` is the face the record names."""

    name: str
    date: str
    text: str
    source: str
    line: int
    set_id: str | None = None  # the printing whose record carries it
    number: str | None = None


@dataclass(frozen=True)
class ForgeFace:
    """One face of a Forge card script; ``card`` names the whole card (its first face)."""

    card: str
    face: int  # 1 for the main face, 2 for the ALTERNATE face
    name: str
    mana_cost: str | None
    mana_value: int | float | None
    type_line: str | None
    text: str | None
    power: str | None
    toughness: str | None
    alternate_mode: str | None  # Adventure, Transform, Split, ... as Forge names it
    source: str
    line: int
    loyalty: str | None = None
    color_indicator: str | None = None  # Forge's Colors: line, as colour words ("Blue")


CardRecord = Union[CardName, OracleCard, CardRuling, ForgeFace, IngestProblem]


# ---------------------------------------------------------------- reading a card file


_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]{1,3}")


def read_card_text(path: str | Path, display_path: str | None = None) -> str:
    """A card file's text; see :func:`read_card_source`."""
    return read_card_source(path, display_path).text


def read_card_source(path: str | Path, display_path: str | None = None) -> DecodedSource:
    """A card file's text (LF line endings), read as :func:`ingest.decoding.read_source` does, but a
    file that is UTF-8 except for some bytes is an error naming the first bad byte's line.

    The card files are UTF-8. ``read_source`` takes a file that is not UTF-8 as
    Windows-1252, which is right for a file saved in that code page and wrong
    for a UTF-8 file with a damaged byte: every Chinese name and dash in it
    would silently turn into mojibake.
    """
    shown = display_path or str(path)
    try:
        decoded = read_source(path, shown)
    except SourceError:
        _not_utf8(Path(path), shown)
        raise
    if decoded.encoding == "cp1252" and not decoded.compressed:
        _not_utf8(Path(path), shown)
    return decoded


def _not_utf8(path: Path, shown: str) -> None:
    """Raise :class:`SourceError` at the first byte that is not UTF-8 if the file is UTF-8 elsewhere."""
    try:
        data = path.read_bytes()
    except OSError:
        return
    if data[:2] == b"\x1f\x8b" or not _UTF8_MULTIBYTE.search(data):
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        head = data[: e.start]
        line = max(head.count(b"\n"), head.count(b"\r")) + 1
        if e.reason == "unexpected end of data":  # the last character is cut: the file was cut short
            raise SourceError(shown, line, f"byte 0x{data[e.start]:02x} is not UTF-8: the file ends inside "
                              "a character: it was cut short") from None
        raise SourceError(shown, line, f"byte 0x{data[e.start]:02x} is not UTF-8, in a file that is UTF-8 "
                          "elsewhere: the file is damaged or mis-encoded (save it as UTF-8)") from None


# ---------------------------------------------------------------- jpname


_JSON_ENTRY = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*:')


def parse_jpname(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Yield a :class:`CardName` per entry of an English→Japanese name list, with its line.

    The file is read as JSON (so a malformed file is an error naming its
    line); line numbers come from matching each ``"key":`` line.
    """
    shown = display_path or str(path)
    decoded = read_card_source(path, shown)
    text = decoded.text
    yield from filter(None, [lost_characters(decoded)])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SourceError(shown, e.lineno, f"not valid JSON: {e.msg} (column {e.colno})") from None
    if not isinstance(data, dict):
        raise SourceError(shown, 1, "expected a JSON object of English name → Japanese name")
    lines: dict[str, int] = {}
    for number, raw in enumerate(text.split("\n"), 1):
        m = _JSON_ENTRY.match(raw)
        if m:
            try:
                lines.setdefault(json.loads(m.group(1)), number)
            except json.JSONDecodeError:
                continue
    _check_japanese_names(data, lines, shown)
    for name_en, name_ja in data.items():
        line = lines.get(name_en, 0)
        if not isinstance(name_ja, str) or not name_ja.strip():
            yield IngestProblem(shown, line or None, "error", "card-name-not-text",
                                f"the Japanese name of {name_en!r} is {json.dumps(name_ja, ensure_ascii=False)}, "
                                "not text; the card is kept without a Japanese name")
            yield CardName(name_en, None, shown, line, undefined=True)
        elif name_ja == "undefined":
            yield CardName(name_en, None, shown, line, undefined=True)
        else:
            if "?" in name_ja:
                yield IngestProblem(shown, line or None, "warning", "card-name-replaced",
                                    f"the Japanese name of {name_en!r} is {name_ja!r}: '?' stands for a character the "
                                    "file's encoding lacked (save it as UTF-8)")
            yield CardName(name_en, name_ja, shown, line)


_JAPANESE_CHAR = re.compile("[\u3041-\u30ff\u3400-\u9fff\uff01-\uff5e]")


def _check_japanese_names(data: dict, lines: dict[str, int], shown: str) -> None:
    """Raise :class:`SourceError` when most names have no Japanese character: the file was saved in an
    encoding without Japanese (Windows-1252 writes ``?`` for each), and every name is lost."""
    names = [(en, ja) for en, ja in data.items() if isinstance(ja, str) and ja not in ("", "undefined")]
    lost = [(en, ja) for en, ja in names if not _JAPANESE_CHAR.search(ja)]
    if len(lost) >= 10 and 2 * len(lost) > len(names):
        en, ja = lost[0]
        raise SourceError(shown, lines.get(en) or None,
                          f"{len(lost)} of {len(names)} Japanese names have no Japanese character (first: {en!r}: "
                          f"{ja!r}): the file was saved in an encoding without Japanese; save it as UTF-8")


# ---------------------------------------------------------------- Oracle XML-like records

_TAG_OPEN = re.compile(r"^<(?P<tag>[A-Za-z]+)>(?P<rest>.*)$")
_RULING = re.compile(r"^(?P<y>\d{4})/(?P<m>\d\d)/(?P<d>\d\d):\s*(?P<text>.*)$")
_TYPE_PT = re.compile(r"^(?P<type>.*?)\s+(?P<p>[-+]?[\d*X?∞.½]+(?:[+-][\d*X]+)?)/(?P<t>[-+]?[\d*X?∞.½]+(?:[+-][\d*X]+)?)$")
_TYPE_LOYALTY = re.compile(r"^(?P<type>.*?)\s+\(Loyalty:\s*(?P<loyalty>[^)]+)\)$")
_SPLIT_NAME = re.compile(r"^(?P<half>.+?) \((?P<halves>[^()]+/[^()]+)\)$")
# One token of a well-formed file: a record's start or end, or one whole <Tag>value</Tag>.
_TOKEN = re.compile(r"^(?:<Card>|</Card>|<([A-Za-z]+)>(.*?)</\1>)$", re.M | re.S)

LEGALITY_TAGS = {"Vintage": "vintage", "Legacy": "legacy", "Modern": "modern", "Standard": "standard",
                 "Pioneer": "pioneer", "Pauper": "pauper", "Commander": "commander", "Historic": "historic",
                 "Brawl": "brawl", "Penny": "penny", "Future": "future", "Oldschool": "oldschool",
                 "Duel": "duel", "Premodern": "premodern", "Alchemy": "alchemy", "Explorer": "explorer",
                 "Timeless": "timeless", "Gladiator": "gladiator", "Oathbreaker": "oathbreaker"}
KNOWN_TAGS = {"SetId", "No", "Name", "ChineseName", "Type", "ManaCost", "CardText", "Flavor", "ChineseFlavor",
              "Artist", "Multiverseid", "Rulings", "Set", "Rarity", "OtherPart", "ColorIndicator", "Watermark",
              "Reserved", "HandSize", "StartingLife", *LEGALITY_TAGS}

Fields = dict[str, tuple[str, int]]


def _scan_fast(text: str) -> list[tuple[int, Fields]] | None:
    """``(line of <Card>, fields)`` per record of a well-formed file in one regular-expression pass;
    ``None`` as soon as anything is out of place (the careful line parser then says what and where).

    Lines are counted per record, and inside a record only for the fields whose line is kept.
    """
    records: list[tuple[int, Fields]] = []
    current: Fields | None = None
    line, counted, card_start = 1, 0, 0
    count = text.count
    previous = 0
    for m in _TOKEN.finditer(text):
        start = m.start()
        if start != previous and not text[previous:start].isspace():
            return None
        tag = m.group(1)
        if tag is None:
            if text[start + 1] == "C":  # <Card>
                if current is not None:
                    return None
                line += count("\n", counted, start)
                counted = card_start = start
                current = {}
                records.append((line, current))
            else:  # </Card>
                if current is None:
                    return None
                current = None
        else:
            value = m.group(2)
            if current is None or ("\n" in value and ("<Card>" in value or "</Card>" in value)):
                return None
            current[tag] = (value, line + count("\n", card_start, start) if tag in _LINE_KEPT else line)
        previous = m.end()
    if current is not None or (previous < len(text) and not text[previous:].isspace()):
        return None
    return records


# The fields whose own line a record keeps (the others carry the record's line).
_LINE_KEPT = frozenset({"Name", "Rulings", "ManaCost", "Type"})


def _oracle_fields(lines: list[tuple[int, str]], shown: str) -> Iterator[tuple[str, str, int] | IngestProblem]:
    """(tag, value, line) for each ``<Tag>value</Tag>`` of one card, values over several lines joined."""
    tag = None
    value: list[str] = []
    start = 0
    for number, raw in lines:
        if tag is None:
            m = _TAG_OPEN.match(raw)
            if not m:
                if raw.strip():
                    yield IngestProblem(shown, number, "warning", "oracle-stray-text",
                                        f"text outside any tag skipped: {raw[:60]!r}")
                continue
            tag, rest, start = m.group("tag"), m.group("rest"), number
            value = []
        else:
            rest = raw
        close = f"</{tag}>"
        if rest.endswith(close):
            value.append(rest[: -len(close)])
            yield tag, "\n".join(value), start
            tag = None
        else:
            value.append(rest)
    if tag is not None:
        yield IngestProblem(shown, start, "error", "oracle-unclosed-tag",
                            f"<{tag}> is never closed; the file is cut or malformed")


def _scan_careful(text: str, source: str) -> Iterator[tuple[int, Fields] | IngestProblem]:
    """Records and problems, line by line: the parser for files the fast scan refuses."""
    card_lines: list[tuple[int, str]] | None = None
    card_start = 0

    def finish(lines: list[tuple[int, str]], start: int) -> Iterator[tuple[int, Fields] | IngestProblem]:
        fields: Fields = {}
        for item in _oracle_fields(lines, source):
            if isinstance(item, IngestProblem):
                yield item
            else:
                fields[item[0]] = (item[1], item[2])
        yield start, fields

    for number, raw in enumerate(text.split("\n"), 1):
        stripped = raw.strip()
        if stripped == "<Card>":
            if card_lines is not None:
                yield IngestProblem(source, card_start, "error", "oracle-unclosed-card",
                                    "<Card> without </Card> before the next <Card>; that record is skipped")
            card_lines, card_start = [], number
        elif stripped == "</Card>":
            if card_lines is None:
                yield IngestProblem(source, number, "warning", "oracle-stray-close", "</Card> without <Card>")
                continue
            yield from finish(card_lines, card_start)
            card_lines = None
        elif card_lines is not None:
            card_lines.append((number, raw))
        elif stripped:
            yield IngestProblem(source, number, "warning", "oracle-stray-text",
                                f"text outside any <Card> skipped: {stripped[:60]!r}")
    if card_lines is not None:
        last = max((n for n, raw in card_lines if raw.strip()), default=card_start)
        yield IngestProblem(source, card_start, "error", "oracle-truncated",
                            f"the file ends inside the <Card> record that starts here (at line {last}): "
                            "the file is cut short; that record is skipped")


def parse_oracle_text(text: str, source: str) -> Iterator[CardRecord]:
    """Yield an :class:`OracleCard` and its :class:`CardRuling`\\ s for every ``<Card>`` record."""
    fast = _scan_fast(text)
    scanned: Iterable[tuple[int, Fields] | IngestProblem] = fast if fast is not None else _scan_careful(text, source)
    unknown: dict[str, int] = {}
    records = 0
    for item in scanned:
        if isinstance(item, IngestProblem):
            yield item
            continue
        start, fields = item
        records += 1
        for tag, (_, line) in fields.items():
            if tag not in KNOWN_TAGS:
                unknown.setdefault(tag, line)
        yield from _oracle_card(fields, start, source)
    for tag, line in unknown.items():
        yield IngestProblem(source, line, "warning", "oracle-unknown-tag",
                            f"<{tag}> is not a field the card parser knows; its values are ignored")
    if not records and "<Card>" not in text:
        # An HTML error page or another file saved under the name: its cards are missing, not none.
        first = next((line.strip() for line in text.split("\n") if line.strip()), "")
        yield IngestProblem(source, 1, "error", "oracle-no-cards",
                            f"no <Card> record in the file (it starts {first[:40]!r}): not an Oracle records file")


def _value(fields: Fields, tag: str) -> str | None:
    found = fields.get(tag)
    return found[0] if found is not None else None


def _oracle_card(fields: Fields, start: int, source: str) -> Iterator[CardRecord]:
    if "Name" not in fields:
        yield IngestProblem(source, start, "error", "oracle-no-name", "<Card> record without <Name>; skipped")
        return
    name = fields["Name"][0].strip()
    split_card = None
    other_part = _value(fields, "OtherPart")
    m = _SPLIT_NAME.match(name)
    if m:
        halves = [h.strip() for h in m.group("halves").split("/")]
        if m.group("half") in halves:
            name, split_card = m.group("half"), " // ".join(halves)
            if other_part:
                other = _SPLIT_NAME.match(other_part.strip())
                other_part = other.group("half") if other else other_part
    type_line = _value(fields, "Type")
    power = toughness = loyalty = None
    if type_line:
        type_line = type_line.strip()
        pt = _TYPE_PT.match(type_line)
        if pt and re.search(r"Creature|Vehicle", pt.group("type")):
            type_line, power, toughness = pt.group("type"), pt.group("p"), pt.group("t")
        lm = _TYPE_LOYALTY.match(type_line)
        if lm:
            type_line, loyalty = lm.group("type"), lm.group("loyalty")
    cost = _value(fields, "ManaCost") or None
    try:
        value = mana_value(cost)
    except ValueError as e:
        yield IngestProblem(source, fields["ManaCost"][1], "error", "oracle-cost", f"{name}: {e}; mana value left empty")
        value = None
    set_id = _value(fields, "SetId")
    number = _value(fields, "No")
    yield OracleCard(
        name=name, set_id=set_id, number=number, type_line=type_line, mana_cost=cost, mana_value=value,
        text=_value(fields, "CardText"), power=power, toughness=toughness, loyalty=loyalty,
        other_part=other_part, source=source, line=fields["Name"][1],
        chinese_name=(_value(fields, "ChineseName") or "").strip() or None,
        color_indicator=_value(fields, "ColorIndicator"),
        legalities=tuple((LEGALITY_TAGS[tag], v.strip()) for tag, (v, _) in fields.items() if tag in LEGALITY_TAGS),
        set_name=_value(fields, "Set"), rarity=_value(fields, "Rarity"), artist=_value(fields, "Artist"),
        multiverse_id=_value(fields, "Multiverseid"), flavor=_value(fields, "Flavor"),
        flavor_zh=_value(fields, "ChineseFlavor"), watermark=_value(fields, "Watermark"),
        reserved=(_value(fields, "Reserved") or "").strip().lower() in {"true", "1", "yes", "reserved"},
        hand_size=_value(fields, "HandSize"), starting_life=_value(fields, "StartingLife"),
        split_card=split_card, record_line=start,
    )
    if "Rulings" in fields:
        text, line = fields["Rulings"]
        current: list[Any] | None = None
        for offset, raw in enumerate(text.split("\n")):
            rm = _RULING.match(raw)
            if rm:
                if current:
                    yield CardRuling(name, current[0], current[1], source, current[2], set_id, number)
                current = [f"{rm['y']}-{rm['m']}-{rm['d']}", rm["text"], line + offset]
            elif current:
                current[1] += "\n" + raw
            elif raw.strip():
                yield IngestProblem(source, line + offset, "warning", "ruling-without-date",
                                    f"ruling of {name} without a YYYY/MM/DD date skipped: {raw[:60]!r}")
        if current:
            yield CardRuling(name, current[0], current[1], source, current[2], set_id, number)


def parse_oracle_records(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Read an Oracle records file (UTF-8, CRLF or LF; see :func:`read_card_text`) and parse it."""
    shown = display_path or str(path)
    decoded = read_card_source(path, shown)
    yield from filter(None, [lost_characters(decoded)])
    yield from parse_oracle_text(decoded.text, shown)


# ---------------------------------------------------------------- Forge scripts

# Card types in the order the type line prints them; what follows the last one is a subtype.
CARD_TYPES = (
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Land", "Planeswalker",
    "Sorcery", "Kindred", "Tribal", "Conspiracy", "Dungeon", "Phenomenon", "Plane", "Scheme",
    "Vanguard",
)
SUPERTYPES = ("Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host")


def type_line_from_words(words: list[str]) -> str:
    """Forge's flat ``Types:`` list as a printed type line.

    >>> type_line_from_words("Creature Human Artificer".split())
    'Creature — Human Artificer'
    >>> type_line_from_words("Legendary Artifact".split())
    'Legendary Artifact'
    """
    last = max((i for i, w in enumerate(words) if w in CARD_TYPES or w in SUPERTYPES), default=-1)
    head, sub = words[: last + 1], words[last + 1:]
    return " ".join(head) + (" — " + " ".join(sub) if sub else "")


_FORGE_COLOURS = {"white": "White", "blue": "Blue", "black": "Black", "red": "Red", "green": "Green"}


def parse_forge_text(text: str, source: str) -> Iterator[CardRecord]:
    """Yield a :class:`ForgeFace` per face of a Forge card script.

    A cost Forge cannot mean (``ManaCost:²``) is an error naming its line; the face is kept without a cost.

    >>> [str(r) if isinstance(r, IngestProblem) else r.mana_cost for r in parse_forge_text(
    ...     "Name:Odd\\nManaCost:²\\nTypes:Instant\\nOracle:\\n", "odd.txt")]
    ["odd.txt:2: error: unknown Forge mana symbol '²' in '²'; the face is kept without a mana cost", None]
    """
    faces: list[dict[str, Any]] = [{"line": 1}]
    for number, raw in enumerate(text.split("\n"), 1):
        stripped = raw.strip()
        if stripped == "ALTERNATE":
            faces.append({"line": number + 1})
            continue
        if ":" not in stripped:
            if stripped:
                yield IngestProblem(source, number, "warning", "forge-stray-line",
                                    f"line without Key: skipped: {stripped[:60]!r}")
            continue
        key, given = stripped.split(":", 1)
        face = faces[-1]
        if key not in face:
            face[key] = (given, number)
    mode = faces[0].get("AlternateMode", (None, 0))[0]
    card = faces[0].get("Name", (None, 0))[0]
    if card is None:
        raise SourceError(source, 1, "Forge script without a Name: line")
    for index, face in enumerate(faces, 1):
        if "Name" not in face:
            yield IngestProblem(source, face["line"], "error", "forge-face-no-name",
                                f"face {index} of {card} has no Name: line; skipped")
            continue
        name, line = face["Name"]
        cost_value, cost_line = face.get("ManaCost", ("", line))
        cost: str | None
        value: int | float | None
        try:
            cost = mana_cost_from_forge(cost_value)
            value = mana_value(cost)
        except ValueError as e:
            yield IngestProblem(source, cost_line, "error", "forge-cost",
                                f"{e}; the face is kept without a mana cost")
            cost = value = None
        pt = face.get("PT", (None, 0))[0]
        power, toughness = pt.split("/", 1) if pt and "/" in pt else (None, None)
        types = face.get("Types", ("", 0))[0].split()
        if "Oracle" not in face:
            # Every Forge card script has an Oracle: line (empty for a vanilla card), after the abilities.
            yield IngestProblem(source, face["line"], "error", "forge-no-oracle",
                                f"face {index} ({name}) has no Oracle: line: the script is cut short")
        oracle = face.get("Oracle", (None, 0))[0]
        colours = face.get("Colors", (None, 0))[0]
        indicator = " ".join(_FORGE_COLOURS[c] for c in (colours or "").lower().split(",") if c in _FORGE_COLOURS)
        yield ForgeFace(
            card=card, face=index, name=name, mana_cost=cost, mana_value=value,
            type_line=type_line_from_words(types) if types else None,
            text=oracle.replace("\\n", "\n") if oracle is not None else None,
            power=power, toughness=toughness, alternate_mode=mode if len(faces) > 1 else None,
            source=source, line=line, loyalty=face.get("Loyalty", (None, 0))[0],
            color_indicator=indicator or None,
        )


def parse_forge_script(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Read a Forge card script and parse it."""
    shown = display_path or str(path)
    decoded = read_card_source(path, shown)
    yield from filter(None, [lost_characters(decoded)])
    yield from parse_forge_text(decoded.text, shown)


# ---------------------------------------------------------------- front door

#: Kinds of card file, oldest source first: where two give the same card, the later kind wins.
CARD_FILE_KINDS = ("jpname", "oracle_set", "oracle", "forge")


def card_files(corpus: Path, kinds: Iterable[str] = CARD_FILE_KINDS) -> list[tuple[str, Path]]:
    """``(kind, path)`` of every card-data file: ``jpname``, ``oracle_set`` (``oracle_sets/``),
    ``oracle`` (``oracle_xml/``) or ``forge``."""
    cards = Path(corpus) / "cards"
    folders = {"jpname": (cards, "jpname*.json"), "oracle_set": (cards / "oracle_sets", "*.txt"),
               "oracle": (cards / "oracle_xml", "*.txt"), "forge": (cards / "forge", "*.txt")}
    found = []
    for kind in kinds:
        folder, pattern = folders[kind]
        found += [(kind, p) for p in sorted(folder.glob(pattern)) if p.is_file()]
    return found


PARSERS = {"jpname": parse_jpname, "oracle_set": parse_oracle_records, "oracle": parse_oracle_records,
           "forge": parse_forge_script}


def parse_card_file(kind: str, path: Path, corpus: Path) -> list[CardRecord]:
    """Every record of one card file (its name relative to ``corpus``); :class:`SourceError` if unreadable."""
    return list(PARSERS[kind](path, path.relative_to(corpus).as_posix()))


def parse_cards(corpus: str | Path, kinds: Iterable[str] = CARD_FILE_KINDS) -> Iterator[CardRecord]:
    """Yield every card record of the corpus's ``cards/`` folder (or of the ``kinds`` of file asked for).

    An unreadable file raises :class:`SourceError`; problems inside a file are
    yielded as :class:`IngestProblem`.
    """
    corpus = Path(corpus)
    for kind, path in card_files(corpus, kinds):
        yield from PARSERS[kind](path, path.relative_to(corpus).as_posix())


# ---------------------------------------------------------------- name index for the wiki parser


class CardNameIndex:
    """English and Japanese card names, to recognise card mentions in wiki text.

    >>> index = CardNameIndex.from_records([CardName("Shock", "ショック", "x", 1),
    ...                                     CardName("Future Sight", None, "x", 2, True)])
    >>> index.is_card("Future Sight"), index.ja_for("Shock"), index.en_for("ショック")
    (True, 'ショック', 'Shock')
    >>> index.ja_for("Future Sight") is None
    True
    """

    def __init__(self, ja_by_en: dict[str, str | None]):
        self.ja_by_en = dict(ja_by_en)
        self._en_by_ja: dict[str, list[str]] = defaultdict(list)
        for en, ja in self.ja_by_en.items():
            if ja:
                self._en_by_ja[ja].append(en)
        self._en_lower = {en.lower(): en for en in self.ja_by_en}

    @classmethod
    def from_records(cls, records: Iterable[object]) -> "CardNameIndex":
        """From :class:`CardName`, :class:`OracleCard` and :class:`ForgeFace` records."""
        names: dict[str, str | None] = {}
        for r in records:
            if isinstance(r, CardName):
                if r.name_ja or r.name_en not in names:
                    names[r.name_en] = r.name_ja
            elif isinstance(r, (OracleCard, ForgeFace)):
                names.setdefault(r.name, None)
                if isinstance(r, OracleCard) and r.split_card:
                    names.setdefault(r.split_card, None)
        return cls(names)

    def is_card(self, name_en: str) -> bool:
        return name_en in self.ja_by_en

    def canonical_en(self, name_en: str) -> str | None:
        """The English name as the card data spells it (case-insensitive match)."""
        if name_en in self.ja_by_en:
            return name_en
        return self._en_lower.get(name_en.lower())

    def ja_for(self, name_en: str) -> str | None:
        return self.ja_by_en.get(name_en)

    def en_for(self, name_ja: str) -> str | None:
        """The English name of a Japanese name, when exactly one card has it."""
        found = self._en_by_ja.get(name_ja, [])
        return found[0] if len(found) == 1 else None

    def english_names_for(self, name_ja: str) -> list[str]:
        return list(self._en_by_ja.get(name_ja, []))

    def __len__(self) -> int:
        return len(self.ja_by_en)
