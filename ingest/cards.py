"""Card data: English→Japanese names, Oracle records with dated rulings, Forge scripts: ``parse_cards``.

Three sources under ``cards/`` of the corpus, one parser each, one front door:

- ``jpname_*.json``: a JSON object of English name → Japanese name. Some
  values are the literal string ``"undefined"`` (the source's marker for "no
  Japanese name known"); they become ``name_ja=None`` with ``undefined=True``,
  never the word "undefined" as a name.
- ``oracle_xml/*.txt``: XML-like ``<Card>`` records, one tag per line, values
  that may run over several lines (``CardText``, ``Rulings``). It is not a
  well-formed XML document (no root, no declaration) so it is read line by
  line; every ``<Rulings>`` line ``YYYY/MM/DD: text`` becomes a
  :class:`CardRuling` dated ``YYYY-MM-DD``. A creature's ``Type`` ends with
  its P/T (``Creature — Merfolk Scout 2/1``) and a planeswalker's with
  ``(Loyalty: 4)``: both are split off.
- ``forge/*.txt``: Forge card scripts, ``Key:Value`` lines; ``ALTERNATE``
  starts the card's other face (an adventure, the back of a double-faced
  card) and ``AlternateMode:`` says which.

>>> records = list(parse_oracle_text(ORACLE_SAMPLE, "sample.txt"))
>>> card = records[0]
>>> card.name, card.type_line, card.mana_cost, card.power, card.toughness
('Merfolk Branchwalker', 'Creature — Merfolk Scout', '{1}{G}', '2', '1')
>>> [(r.date, r.text) for r in records[1:]]
[('2018-01-19', 'If no card is revealed, the exploring creature receives a +1/+1 counter.')]
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Union

from .card_costs import mana_cost_from_forge, mana_value
from .decoding import read_source
from .records import IngestProblem, SourceError

ORACLE_SAMPLE = """<Card>
<SetId>XLN</SetId>
<No>197</No>
<Name>Merfolk Branchwalker</Name>
<Type>Creature — Merfolk Scout 2/1</Type>
<ManaCost>{1}{G}</ManaCost>
<CardText>When Merfolk Branchwalker enters the battlefield, it explores.</CardText>
<Rulings>2018/01/19: If no card is revealed, the exploring creature receives a +1/+1 counter.</Rulings>
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
    """One ``<Card>`` record (one face, one printing) with its Oracle text."""

    name: str
    set_id: str | None
    number: str | None
    type_line: str | None
    mana_cost: str | None
    mana_value: int | None
    text: str | None
    power: str | None
    toughness: str | None
    loyalty: str | None
    other_part: str | None  # the other face of a double-faced or split card
    source: str
    line: int


@dataclass(frozen=True)
class CardRuling:
    """A dated ruling on a card: ``date`` is ``YYYY-MM-DD``."""

    name: str
    date: str
    text: str
    source: str
    line: int


@dataclass(frozen=True)
class ForgeFace:
    """One face of a Forge card script; ``card`` names the whole card (its first face)."""

    card: str
    face: int  # 1 for the main face, 2 for the ALTERNATE face
    name: str
    mana_cost: str | None
    mana_value: int | None
    type_line: str | None
    text: str | None
    power: str | None
    toughness: str | None
    alternate_mode: str | None  # Adventure, Transform, Split, ... as Forge names it
    source: str
    line: int


CardRecord = Union[CardName, OracleCard, CardRuling, ForgeFace, IngestProblem]

# ---------------------------------------------------------------- jpname


_JSON_ENTRY = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def parse_jpname(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Yield a :class:`CardName` per entry of an English→Japanese name list, with its line.

    The file is read as JSON (so a malformed file is an error naming its
    line); line numbers come from matching each ``"key": "value"`` line.
    """
    shown = display_path or str(path)
    text = read_source(path, shown).text
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
            lines.setdefault(json.loads(m.group(1)), number)
    for name_en, name_ja in data.items():
        line = lines.get(name_en, 0)
        if not isinstance(name_ja, str) or not name_ja.strip():
            yield IngestProblem(shown, line or None, "warning", "card-name-not-text",
                                f"Japanese name of {name_en!r} is {name_ja!r}, not text; kept as unknown")
            yield CardName(name_en, None, shown, line, undefined=True)
        elif name_ja == "undefined":
            yield CardName(name_en, None, shown, line, undefined=True)
        else:
            yield CardName(name_en, name_ja, shown, line)


# ---------------------------------------------------------------- Oracle XML-like records

_TAG_OPEN = re.compile(r"^<(?P<tag>[A-Za-z]+)>(?P<rest>.*)$")
_RULING = re.compile(r"^(?P<y>\d{4})/(?P<m>\d\d)/(?P<d>\d\d):\s*(?P<text>.*)$")
_TYPE_PT = re.compile(r"^(?P<type>.*?)\s+(?P<p>[-+]?[\d*X]+(?:[+-][\d*X]+)?)/(?P<t>[-+]?[\d*X]+(?:[+-][\d*X]+)?)$")
_TYPE_LOYALTY = re.compile(r"^(?P<type>.*?)\s+\(Loyalty:\s*(?P<loyalty>[^)]+)\)$")


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


def parse_oracle_text(text: str, source: str) -> Iterator[CardRecord]:
    """Yield an :class:`OracleCard` and its :class:`CardRuling`\\ s for every ``<Card>`` record."""
    card_lines: list[tuple[int, str]] | None = None
    card_start = 0
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
            yield from _oracle_card(card_lines, card_start, source)
            card_lines = None
        elif card_lines is not None:
            card_lines.append((number, raw))
        elif stripped:
            yield IngestProblem(source, number, "warning", "oracle-stray-text",
                                f"text outside any <Card> skipped: {stripped[:60]!r}")
    if card_lines is not None:
        yield IngestProblem(source, card_start, "error", "oracle-unclosed-card",
                            "the file ends inside a <Card> record; that record is skipped")


def _oracle_card(lines: list[tuple[int, str]], start: int, source: str) -> Iterator[CardRecord]:
    fields: dict[str, tuple[str, int]] = {}
    for item in _oracle_fields(lines, source):
        if isinstance(item, IngestProblem):
            yield item
        else:
            tag, value, line = item
            fields[tag] = (value, line)
    if "Name" not in fields:
        yield IngestProblem(source, start, "error", "oracle-no-name", "<Card> record without <Name>; skipped")
        return
    name = fields["Name"][0].strip()
    type_line = fields.get("Type", (None, 0))[0]
    power = toughness = loyalty = None
    if type_line:
        m = _TYPE_PT.match(type_line)
        if m and re.search(r"Creature|Vehicle", m.group("type")):
            type_line, power, toughness = m.group("type"), m.group("p"), m.group("t")
        m = _TYPE_LOYALTY.match(type_line)
        if m:
            type_line, loyalty = m.group("type"), m.group("loyalty")
    cost = fields.get("ManaCost", (None, 0))[0] or None
    yield OracleCard(
        name=name, set_id=fields.get("SetId", (None, 0))[0], number=fields.get("No", (None, 0))[0],
        type_line=type_line, mana_cost=cost, mana_value=mana_value(cost),
        text=fields.get("CardText", (None, 0))[0], power=power, toughness=toughness,
        loyalty=loyalty, other_part=fields.get("OtherPart", (None, 0))[0],
        source=source, line=fields["Name"][1],
    )
    if "Rulings" in fields:
        value, line = fields["Rulings"]
        current: list | None = None
        for offset, raw in enumerate(value.split("\n")):
            m = _RULING.match(raw)
            if m:
                if current:
                    yield CardRuling(name, *current[:2], source, current[2])
                current = [f"{m['y']}-{m['m']}-{m['d']}", m["text"], line + offset]
            elif current:
                current[1] += "\n" + raw
            elif raw.strip():
                yield IngestProblem(source, line + offset, "warning", "ruling-without-date",
                                    f"ruling of {name} without a YYYY/MM/DD date skipped: {raw[:60]!r}")
        if current:
            yield CardRuling(name, *current[:2], source, current[2])


def parse_oracle_records(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Read an Oracle records file (any encoding, CRLF or LF) and parse it."""
    shown = display_path or str(path)
    yield from parse_oracle_text(read_source(path, shown).text, shown)


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


def parse_forge_text(text: str, source: str) -> Iterator[CardRecord]:
    """Yield a :class:`ForgeFace` per face of a Forge card script."""
    faces: list[dict] = [{"line": 1}]
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
        key, value = stripped.split(":", 1)
        face = faces[-1]
        if key not in face:
            face[key] = (value, number)
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
        try:
            cost = mana_cost_from_forge(face.get("ManaCost", ("", 0))[0])
        except ValueError as e:
            yield IngestProblem(source, face.get("ManaCost", ("", line))[1], "warning",
                                "forge-cost", f"{e}; cost left empty")
            cost = None
        pt = face.get("PT", (None, 0))[0]
        power, toughness = pt.split("/", 1) if pt and "/" in pt else (None, None)
        types = face.get("Types", ("", 0))[0].split()
        oracle = face.get("Oracle", (None, 0))[0]
        yield ForgeFace(
            card=card, face=index, name=name, mana_cost=cost, mana_value=mana_value(cost),
            type_line=type_line_from_words(types) if types else None,
            text=oracle.replace("\\n", "\n") if oracle is not None else None,
            power=power, toughness=toughness, alternate_mode=mode if len(faces) > 1 else None,
            source=source, line=line,
        )


def parse_forge_script(path: str | Path, display_path: str | None = None) -> Iterator[CardRecord]:
    """Read a Forge card script and parse it."""
    shown = display_path or str(path)
    yield from parse_forge_text(read_source(path, shown).text, shown)


# ---------------------------------------------------------------- front door


def card_files(corpus: Path) -> list[tuple[str, Path]]:
    """``(kind, path)`` of every card-data file: ``jpname``, ``oracle`` or ``forge``."""
    cards = corpus / "cards"
    found = [("jpname", p) for p in sorted(cards.glob("jpname*.json"))]
    found += [("oracle", p) for p in sorted((cards / "oracle_xml").glob("*.txt"))]
    found += [("forge", p) for p in sorted((cards / "forge").glob("*.txt"))]
    return found


def parse_cards(corpus: str | Path) -> Iterator[CardRecord]:
    """Yield every card record of the corpus's ``cards/`` folder.

    An unreadable file raises :class:`SourceError`; problems inside a file are
    yielded as :class:`IngestProblem`.
    """
    corpus = Path(corpus)
    parsers = {"jpname": parse_jpname, "oracle": parse_oracle_records, "forge": parse_forge_script}
    for kind, path in card_files(corpus):
        yield from parsers[kind](path, path.relative_to(corpus).as_posix())


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
    def from_records(cls, records: Iterable) -> "CardNameIndex":
        """From :class:`CardName`, :class:`OracleCard` and :class:`ForgeFace` records."""
        names: dict[str, str | None] = {}
        for r in records:
            if isinstance(r, CardName):
                if r.name_ja or r.name_en not in names:
                    names[r.name_en] = r.name_ja
            elif isinstance(r, (OracleCard, ForgeFace)):
                names.setdefault(r.name, None)
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
