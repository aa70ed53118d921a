"""One card per Oracle identity, assembled from the records of every card file: ``assemble_cards``.

The Oracle files hold one record per face per printing: Delver of Secrets and
Insectile Aberration are two records of each printing, naming each other in
``OtherPart``; a split card's halves are ``Fire (Fire/Ice)`` and
``Ice (Fire/Ice)``. This module joins the faces of each printing (the layout
read from what the faces say: a split name, an ``Adventure`` subtype, a meld
reminder, a flip or transform instruction, a back face with its own mana
cost), then joins the printings of each card, and picks the Oracle text where
sources differ: **newer sources win** — a Forge script over the chosen
Oracle XML records over the set files — and every choice is kept in
:attr:`Card.versions`.

>>> from ingest.cards import parse_oracle_text
>>> text = '''<Card>\\n<SetId>ISD</SetId>\\n<No>51a</No>\\n<Name>Delver of Secrets</Name>
... <Type>Creature — Human Wizard 1/1</Type>\\n<ManaCost>{U}</ManaCost>
... <CardText>At the beginning of your upkeep, look at the top card of your library. You may reveal that card. If an instant or sorcery card is revealed this way, transform Delver of Secrets.</CardText>
... <Multiverseid>226749</Multiverseid>\\n<OtherPart>Insectile Aberration</OtherPart>\\n</Card>
... <Card>\\n<SetId>ISD</SetId>\\n<No>51b</No>\\n<Name>Insectile Aberration</Name>
... <Type>Creature — Human Insect 3/2</Type>\\n<ColorIndicator>Blue</ColorIndicator>\\n<CardText>Flying</CardText>
... <Multiverseid>226755</Multiverseid>\\n<OtherPart>Delver of Secrets</OtherPart>\\n</Card>
... '''
>>> [card] = assemble_cards(parse_oracle_text(text, "MtgOracle_ISD.txt"), kinds={"MtgOracle_ISD.txt": "oracle_set"})
>>> card.name, card.layout, [f.name for f in card.faces], card.faces[1].colors, card.colors
('Delver of Secrets', 'transform', ['Delver of Secrets', 'Insectile Aberration'], ('U',), ('U',))
>>> [(p.set_id, p.number) for p in card.printings]
[('ISD', '51a')]
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from .card_costs import mana_value
from .cards import CARD_TYPES, SUPERTYPES, CardName, CardRuling, ForgeFace, OracleCard
from .records import IngestProblem

COLOUR_ORDER = "WUBRG"
COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
#: How much newer a kind of source is: where two kinds give a card different text, the higher wins.
SOURCE_RANK = {"oracle_set": 1, "oracle": 2, "forge": 3}
ORACLE_FIELDS = ("name", "mana_cost", "type_line", "text", "power", "toughness", "loyalty")


@dataclass(frozen=True)
class TypeLine:
    """``Legendary Creature — Human Wizard`` read into its parts."""

    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]


def parse_type_line(type_line: str | None) -> TypeLine:
    """Supertypes, card types and subtypes of a printed type line.

    >>> parse_type_line("Legendary Snow Creature — Elf Druid")
    TypeLine(supertypes=('Legendary', 'Snow'), types=('Creature',), subtypes=('Elf', 'Druid'))
    >>> parse_type_line("Tribal Instant — Elf").types, parse_type_line("Land — Urza's Power-Plant").subtypes
    (('Tribal', 'Instant'), ("Urza's", 'Power-Plant'))
    """
    if not type_line:
        return TypeLine((), (), ())
    head, _, tail = type_line.partition("—")
    supertypes, types, other = [], [], []
    for word in head.split():
        if word in SUPERTYPES:
            supertypes.append(word)
        elif word in CARD_TYPES:
            types.append(word)
        else:
            other.append(word)  # an old or joke type word ("Summon", "Eaturecray"): kept as a type
    return TypeLine(tuple(supertypes), tuple(types + other), tuple(tail.split()))


_SYMBOL = re.compile(r"\{([^{}]+)\}")
_REMINDER = re.compile(r"\([^()]*\)")
_COLOUR_CDA = re.compile(
    r"^(?:CARDNAME|this card|this spell|this permanent) is (colorless|all colors|"
    r"(?:(?:white|blue|black|red|green)(?:, | and |, and )?)+)\.", re.IGNORECASE | re.MULTILINE)


def colours_of_symbols(text: str | None) -> set[str]:
    """The colours of the mana symbols in ``text`` (``{W/U}`` is white and blue; ``{2/B}`` black)."""
    found: set[str] = set()
    for symbol in _SYMBOL.findall(text or ""):
        found.update(c for c in symbol.upper() if c in COLOUR_ORDER)
    return found


def ordered(colours: Iterable[str]) -> tuple[str, ...]:
    """Colours in WUBRG order."""
    found = set(colours)
    return tuple(c for c in COLOUR_ORDER if c in found)


def face_colours(mana_cost: str | None, indicator: str | None, text: str | None, names: Iterable[str] = ()) -> tuple[str, ...]:
    """A face's colours: its mana cost's, its colour indicator's, or what its text says it is (CR 105.2, 204, 604.3).

    >>> face_colours("{2}{W/U}", None, None), face_colours(None, "Black Red", None)
    (('W', 'U'), ('B', 'R'))
    >>> face_colours("{1}{R}", None, "Ghostfire is colorless.\\nGhostfire deals 3 damage to any target.", ["Ghostfire"])
    ()
    """
    body = text or ""
    for name in names:
        if name:
            body = body.replace(name, "CARDNAME")
    m = _COLOUR_CDA.search(body)
    if m:
        said = m.group(1).lower()
        if said == "colorless":
            return ()
        if said == "all colors":
            return tuple(COLOUR_ORDER)
        return ordered(COLOUR_WORDS[w] for w in re.findall(r"white|blue|black|red|green", said))
    if indicator:
        return ordered(COLOUR_WORDS[w] for w in indicator.lower().split() if w in COLOUR_WORDS)
    return ordered(colours_of_symbols(mana_cost))


@dataclass(frozen=True)
class Face:
    """One face (or half) of an Oracle card."""

    name: str
    kind: str  # "main", "front", "back", "left", "right", "adventure", "flipped"
    mana_cost: str | None
    mana_value: int | float | None
    type_line: str | None
    types: TypeLine
    text: str | None
    power: str | None
    toughness: str | None
    loyalty: str | None
    colors: tuple[str, ...]
    color_indicator: tuple[str, ...]
    name_zh: str | None
    source: str
    line: int


@dataclass
class Printing:
    """One printing of a card: a set's record (the front face's, for a card of two faces)."""

    set_id: str | None
    set_name: str | None
    number: str | None
    rarity: str | None
    artist: str | None
    multiverse_id: str | None
    flavor: str | None
    flavor_zh: str | None
    watermark: str | None
    name_zh: str | None
    source: str
    line: int


@dataclass
class Ruling:
    """A dated ruling of a card, once however many printings carry it."""

    date: str
    text: str
    source: str
    line: int
    printings: list[str] = field(default_factory=list)  # set ids, in the order met
    sources: list[str] = field(default_factory=list)


@dataclass
class Version:
    """A source's version of a card's Oracle fields; ``used`` marks the one the card has."""

    kind: str
    source: str
    line: int
    printings: int
    used: bool = False
    differs: tuple[str, ...] = ()  # fields that differ from the version used


@dataclass
class Card:
    """An Oracle identity: its faces, printings, rulings, names and legalities."""

    name: str  # "Fire // Ice" for a split card, else the front face's name
    full_name: str  # every face: "Delver of Secrets // Insectile Aberration"
    layout: str  # normal, split, aftermath, adventure, flip, transform, modal_dfc, meld
    faces: tuple[Face, ...]
    other_face: str | None = None
    printings: list[Printing] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    legalities: tuple[tuple[str, str], ...] = ()
    reserved: bool = False
    hand_size: str | None = None
    starting_life: str | None = None
    versions: list[Version] = field(default_factory=list)
    name_ja: str | None = None
    face_names_ja: dict[str, str] = field(default_factory=dict)

    @property
    def main(self) -> Face:
        return self.faces[0]

    @property
    def mana_cost(self) -> str | None:
        if self.layout in ("split", "aftermath"):
            costs = [f.mana_cost for f in self.faces if f.mana_cost]
            return " // ".join(costs) if costs else None
        return self.main.mana_cost

    @property
    def mana_value(self) -> int | float | None:
        """CR 202.3: a split card's halves add up (709.4); other cards use their main face."""
        if self.layout in ("split", "aftermath"):
            values = [f.mana_value for f in self.faces if f.mana_value is not None]
            return sum(values) if values else None
        return self.main.mana_value

    @property
    def type_line(self) -> str | None:
        if self.layout in ("split", "aftermath"):
            return " // ".join(f.type_line or "" for f in self.faces)
        return self.main.type_line

    @property
    def text(self) -> str | None:
        if self.layout in ("split", "aftermath"):
            return "\n//\n".join(f.text or "" for f in self.faces)
        return self.main.text

    @property
    def colors(self) -> tuple[str, ...]:
        if self.layout in ("split", "aftermath"):
            return ordered(c for f in self.faces for c in f.colors)
        return self.main.colors

    @property
    def color_identity(self) -> tuple[str, ...]:
        """Mana symbols in every face's cost and rules text (not reminder text), and indicators (CR 903.4)."""
        found: set[str] = set()
        for f in self.faces:
            found |= colours_of_symbols(f.mana_cost) | colours_of_symbols(_REMINDER.sub("", f.text or ""))
            found |= set(f.color_indicator) | set(f.colors)
        return ordered(found)

    @property
    def name_zh(self) -> str | None:
        if self.layout in ("split", "aftermath") and all(f.name_zh for f in self.faces):
            return " // ".join(f.name_zh for f in self.faces if f.name_zh)
        return self.main.name_zh

    @property
    def source(self) -> tuple[str, int]:
        """Where the Oracle fields used come from."""
        used = next((v for v in self.versions if v.used), None)
        return (used.source, used.line) if used else (self.main.source, self.main.line)


# ---------------------------------------------------------------- faces of one printing


def _meld_result(record: OracleCard) -> bool:
    return bool(record.other_part and ";" in record.other_part)


def _melds(record: OracleCard) -> bool:
    return bool(record.text and "(Melds with" in record.text)


def _number_suffix(record: OracleCard) -> str:
    return (record.number or "")[-1:] if record.number and record.number[-1:] in "ab" else ""


def _layout(front: OracleCard, back: OracleCard) -> str:
    """The layout of two faces of one printing, from what they say."""
    if front.split_card:
        halves = [front.text or "", back.text or ""]
        return "aftermath" if any(h.lstrip().startswith("Aftermath") for h in halves) else "split"
    if "Adventure" in (back.type_line or "").split("—")[-1].split():
        return "adventure"
    same_card = front.multiverse_id is not None and front.multiverse_id == back.multiverse_id
    flip = re.search(r"\bflip (?:it|CARDNAME|" + re.escape(front.name) + r")\b", front.text or "")
    if flip or (same_card and not back.mana_cost and "Land" not in (back.type_line or "")
                and "transform" not in (front.text or "").lower()):
        return "flip"
    if back.mana_cost:
        return "modal_dfc"
    front_text = (front.text or "").lower()
    mentions = "transform" in front_text or "daybound" in front_text or "disturb" in front_text
    if not mentions and "Land" in (back.type_line or "") and not back.color_indicator:
        return "modal_dfc"  # a spell // land or land // land of Zendikar Rising
    return "transform"


_FACE_KINDS = {"split": ("left", "right"), "aftermath": ("left", "right"), "adventure": ("main", "adventure"),
               "flip": ("main", "flipped"), "transform": ("front", "back"), "modal_dfc": ("front", "back")}


def _order(a: OracleCard, b: OracleCard, layout: str) -> tuple[OracleCard, OracleCard]:
    if layout in ("split", "aftermath") and a.split_card:
        halves = a.split_card.split(" // ")
        return (a, b) if halves.index(a.name) <= (halves.index(b.name) if b.name in halves else 1) else (b, a)
    if layout == "adventure":
        return (b, a) if "Adventure" in (a.type_line or "") else (a, b)
    sa, sb = _number_suffix(a), _number_suffix(b)
    if sa and sb and sa != sb:
        return (a, b) if sa < sb else (b, a)
    return (a, b)


def _pair_faces(records: list[OracleCard]) -> list[tuple[OracleCard, ...]]:
    """The records of one file grouped into the faces of each printing, front first.

    Two faces name each other in ``OtherPart``; the halves of a split card
    (two, or five for Who // What // When // Where // Why) share their split
    name. A meld card names its meld result, whose ``OtherPart`` lists both
    halves (``A ; B``): each of the three stays a card of its own.
    """
    groups: list[tuple[OracleCard, ...]] = []
    used = [False] * len(records)
    by_name: dict[str, list[int]] = defaultdict(list)
    meld_results = set()
    for i, r in enumerate(records):
        by_name[r.name].append(i)
        if _meld_result(r):
            meld_results.add(r.name)
    for i, r in enumerate(records):
        if used[i]:
            continue
        used[i] = True
        if r.split_card:
            halves = r.split_card.split(" // ")
            group = [r]
            for half in halves:
                if half == r.name:
                    continue
                j = next((j for j in sorted(by_name.get(half, []), key=lambda j: abs(j - i))
                          if not used[j] and records[j].split_card == r.split_card), None)
                if j is not None:
                    used[j] = True
                    group.append(records[j])
            groups.append(tuple(sorted(group, key=lambda g: halves.index(g.name) if g.name in halves else 99)))
            continue
        other = (r.other_part or "").strip()
        if not other or _meld_result(r) or _melds(r) or other in meld_results:
            groups.append((r,))
            continue
        # The partner names this record back; the nearest one not yet taken (a set may print a card twice).
        partner = None
        for j in sorted(by_name.get(other, []), key=lambda j: abs(j - i)):
            if not used[j] and (records[j].other_part or "").strip() == r.name:
                partner = j
                break
        if partner is None:
            groups.append((r,))
            continue
        used[partner] = True
        groups.append((r, records[partner]))
    return groups


# ---------------------------------------------------------------- faces and cards


def _face(record: OracleCard | ForgeFace, kind: str, names: list[str], name_zh: str | None) -> Face:
    indicator_words = record.color_indicator or ""
    indicator = ordered(COLOUR_WORDS[w] for w in indicator_words.lower().split() if w in COLOUR_WORDS)
    return Face(
        name=record.name, kind=kind, mana_cost=record.mana_cost, mana_value=record.mana_value,
        type_line=record.type_line, types=parse_type_line(record.type_line), text=record.text,
        power=record.power, toughness=record.toughness, loyalty=getattr(record, "loyalty", None),
        colors=face_colours(record.mana_cost, record.color_indicator, record.text, names),
        color_indicator=indicator, name_zh=name_zh, source=record.source, line=record.line,
    )


def _face_signature(face: Face) -> tuple:
    return tuple(getattr(face, f) for f in ORACLE_FIELDS)


def _chinese_names(group: tuple[OracleCard, ...]) -> list[str | None]:
    """Each face's Chinese name: a name printed for both faces ("碎骨巨人 // 一脚踩下") is split between them."""
    names = [r.chinese_name for r in group]
    if len(group) > 1 and names[0] and " // " in names[0] and names.count(names[0]) == len(names):
        parts = [p.strip() for p in names[0].split(" // ")]
        if len(parts) == len(group):
            return list(parts)
    return list(names)


@dataclass
class _Building:
    name: str
    layout: str
    other_face: str | None
    candidates: list[tuple[int, str, tuple[Face, ...], OracleCard | ForgeFace]] = field(default_factory=list)
    printings: list[Printing] = field(default_factory=list)
    chinese: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    rulings: dict[tuple[str, str], Ruling] = field(default_factory=dict)
    legalities: Counter = field(default_factory=Counter)
    reserved: bool = False
    hand_size: str | None = None
    starting_life: str | None = None


def assemble_cards(records: Iterable, *, kinds: dict[str, str] | None = None,
                   problems: list[IngestProblem] | None = None) -> list[Card]:
    """Cards from parsed card records (:mod:`ingest.cards`), sorted by name.

    ``kinds`` maps a record's source to its kind of file (``oracle_set``,
    ``oracle``, ``forge``; see :data:`ingest.cards.CARD_FILE_KINDS`); a source
    not in it is taken from its path (``oracle_sets/`` → ``oracle_set``).
    Japanese names come from the :class:`CardName` records. ``problems``
    receives a warning for each record that cannot be placed.
    """
    kinds = kinds or {}
    problems = problems if problems is not None else []

    def kind_of(source: str) -> str:
        if source in kinds:
            return kinds[source]
        if "oracle_sets/" in source or "MtgOracle_" in source and "oracle_xml" not in source:
            return "oracle_set"
        return "forge" if "forge/" in source else "oracle"

    oracle_by_file: dict[str, list[OracleCard]] = defaultdict(list)
    rulings_by_file: dict[str, list[CardRuling]] = defaultdict(list)
    forge_by_card: dict[tuple[str, str], list[ForgeFace]] = defaultdict(list)
    japanese: dict[str, str | None] = {}
    for r in records:
        if isinstance(r, OracleCard):
            oracle_by_file[r.source].append(r)
        elif isinstance(r, CardRuling):
            rulings_by_file[r.source].append(r)
        elif isinstance(r, ForgeFace):
            forge_by_card[(r.source, r.card)].append(r)
        elif isinstance(r, CardName):
            japanese.setdefault(r.name_en, r.name_ja)

    cards: dict[str, _Building] = {}
    face_to_card: dict[str, str] = {}
    pending: list[tuple[str, OracleCard]] = []  # lone faces of two-faced cards, placed when every pair is known

    def building(name: str, layout: str, other: str | None) -> _Building:
        b = cards.get(name)
        if b is None:
            b = cards[name] = _Building(name, layout, other)
        elif b.layout in ("normal", "unknown") and layout not in ("normal", "unknown"):
            b.layout, b.other_face = layout, other
        return b

    face_cache: dict[tuple, tuple[Face, ...]] = {}

    def faces_of(group: tuple[OracleCard, ...], layout: str) -> tuple[tuple, tuple[Face, ...]]:
        # Printings of one card share their Oracle fields: each distinct version is read once.
        key = (layout, tuple((r.name, r.mana_cost, r.type_line, r.text, r.power, r.toughness, r.loyalty,
                              r.color_indicator, r.split_card) for r in group))
        faces = face_cache.get(key)
        if faces is None:
            names = [r.name for r in group] + ([group[0].split_card] if group[0].split_card else [])
            face_kinds = _FACE_KINDS.get(layout, ("main",) * len(group))
            faces = face_cache[key] = tuple(
                _face(r, face_kinds[i] if i < len(face_kinds) else "half", names, None) for i, r in enumerate(group))
        return key, faces

    def add_printing(b: _Building, kind: str, group: tuple[OracleCard, ...], layout: str) -> None:
        key, faces = faces_of(group, layout)
        front = group[0]
        b.candidates.append((SOURCE_RANK.get(kind, 0), kind, faces, front))
        if front.chinese_name:
            for face, name in zip(faces, _chinese_names(group)):
                if name:
                    b.chinese[face.name][name] += 1
        if kind == "oracle_set":
            b.printings.append(Printing(
                front.set_id, front.set_name, front.number, front.rarity, front.artist, front.multiverse_id,
                front.flavor, front.flavor_zh, front.watermark, front.chinese_name, front.source, front.line))
        if front.legalities:
            b.legalities[front.legalities] += SOURCE_RANK.get(kind, 0) * 100000 + 1
        if front.reserved or front.hand_size or front.starting_life:
            b.reserved = b.reserved or any(r.reserved for r in group)
            b.hand_size = b.hand_size or front.hand_size
            b.starting_life = b.starting_life or front.starting_life

    for source, file_records in oracle_by_file.items():
        kind = kind_of(source)
        meld_results = {r.name for r in file_records if _meld_result(r)}
        for group in _pair_faces(file_records):
            if len(group) > 2:
                layout = "split"
            elif len(group) == 2:
                layout = _layout(group[0], group[1])
                group = _order(group[0], group[1], layout)
            if len(group) >= 2:
                name = group[0].split_card or group[0].name
                b = building(name, layout, group[1].name)
                for r in group:
                    face_to_card[r.name] = name
                add_printing(b, kind, group, layout)
                continue
            r = group[0]
            melds = _meld_result(r) or _melds(r) or (r.other_part or "").strip() in meld_results
            if (r.other_part or r.split_card) and not melds:
                pending.append((kind, r))
                continue
            layout = "meld" if melds else "normal"
            b = building(r.name, layout, r.other_part.strip() if r.other_part else None)
            face_to_card.setdefault(r.name, r.name)
            add_printing(b, kind, (r,), layout)
    for kind, r in pending:
        name = face_to_card.get(r.name)
        if name is None:
            # Only this face is in the corpus: the card goes by it until its other face turns up.
            b = building(r.split_card or r.name, "unknown", r.other_part)
            face_to_card[r.name] = b.name
            add_printing(b, kind, (r,), "normal")
            continue
        b = cards[name]
        # One face of a card whose faces another file pairs: it speaks for that face only.
        main = next((c for c in b.candidates if any(f.name == r.name for f in c[2])), None)
        if main is None:
            continue
        faces = tuple(_face(r, f.kind, [r.name, name], f.name_zh) if f.name == r.name else f for f in main[2])
        b.candidates.append((SOURCE_RANK.get(kind, 0), kind, faces, r))
        if r.legalities:
            b.legalities[r.legalities] += SOURCE_RANK.get(kind, 0) * 100000 + 1

    forge_layouts = {"adventure": "adventure", "transform": "transform", "modal": "modal_dfc", "split": "split",
                     "flip": "flip", "meld": "meld", "omen": "omen"}
    for (source, card), faces in forge_by_card.items():
        mode = (faces[0].alternate_mode or "").lower()
        layout = forge_layouts.get(mode, "normal") if len(faces) > 1 else "normal"
        name = " // ".join(f.name for f in faces) if layout == "split" else faces[0].name
        name = face_to_card.get(faces[0].name, name) if layout != "split" else name
        b = building(name, layout, faces[1].name if len(faces) > 1 else None)
        face_kinds = _FACE_KINDS.get(layout, ("main", "adventure" if layout == "omen" else "back"))
        names = [f.name for f in faces] + [name]
        built = tuple(_face(f, face_kinds[i] if i < len(face_kinds) else "main", names, None)
                      for i, f in enumerate(faces))
        for f in faces:
            face_to_card.setdefault(f.name, name)
        b.candidates.append((SOURCE_RANK["forge"], "forge", built, faces[0]))

    for source, file_rulings in rulings_by_file.items():
        for r in file_rulings:
            name = face_to_card.get(r.name, r.name)
            b = cards.get(name)
            if b is None:
                problems.append(IngestProblem(r.source, r.line, "warning", "ruling-without-card",
                                              f"a ruling of {r.name!r}, a card no record defines; skipped"))
                continue
            found = b.rulings.get((r.date, r.text))
            if found is None:
                found = b.rulings[(r.date, r.text)] = Ruling(r.date, r.text, r.source, r.line)
            if r.set_id and r.set_id not in found.printings:
                found.printings.append(r.set_id)
            if r.source not in found.sources:
                found.sources.append(r.source)

    out = [_finish(b, japanese) for b in cards.values()]
    return sorted(out, key=lambda c: c.name)


def _finish(b: _Building, japanese: dict[str, str | None]) -> Card:
    # Versions: the distinct Oracle fields each kind of source gives, newest kind first, then most printings.
    versions: dict[tuple, list] = {}
    for rank, kind, faces, record in b.candidates:
        key = (kind, id(faces))  # faces are shared by every printing of one version (see faces_of)
        found = versions.get(key)
        if found is None:
            found = versions[key] = [rank, kind, faces, record, 0]
        found[4] += 1
    ordered_versions = sorted(versions.values(), key=lambda v: (-v[0], -len(v[2]), -v[4], v[3].source, v[3].line))
    chosen = ordered_versions[0]
    faces = chosen[2]
    if len(faces) < max(len(v[2]) for v in ordered_versions):
        # A newer source with fewer faces (a Forge script of one face) keeps the older source's other faces.
        fuller = next(v for v in ordered_versions if len(v[2]) > len(faces))
        by_name = {f.name: f for f in faces}
        faces = tuple(by_name.get(f.name, f) for f in fuller[2])
    # Chinese names: the one most printings give, for each face.
    faces = tuple(
        f if not b.chinese.get(f.name) else _with(f, name_zh=b.chinese[f.name].most_common(1)[0][0])
        for f in faces)
    used_sig = tuple(_face_signature(f) for f in chosen[2])
    version_rows = []
    for version in ordered_versions:
        rank, kind, vfaces, record, count = version
        differs: list[str] = []
        if version is not chosen:
            sig = tuple(_face_signature(f) for f in vfaces)
            differs = sorted({ORACLE_FIELDS[i] for a, c in zip(sig, used_sig)
                              for i, (x, y) in enumerate(zip(a, c)) if x != y})
            if len(sig) != len(used_sig):
                differs.append("faces")
        version_rows.append(Version(kind, record.source, record.line, count, used=version is chosen,
                                    differs=tuple(differs)))
    layout = b.layout if b.layout != "unknown" else ("normal" if len(faces) == 1 and not b.other_face else "unknown")
    full_name = b.name if layout in ("split", "aftermath") or len(faces) == 1 else " // ".join(f.name for f in faces)
    legalities = b.legalities.most_common(1)[0][0] if b.legalities else ()
    name_ja = japanese.get(b.name) or None
    face_ja = {f.name: japanese[f.name] for f in faces if japanese.get(f.name)}
    if name_ja is None and layout in ("split", "aftermath") and len(face_ja) == len(faces):
        name_ja = "//".join(face_ja[f.name] for f in faces)
    rulings = sorted(b.rulings.values(), key=lambda r: (r.date, r.text))
    return Card(
        name=b.name, full_name=full_name, layout=layout, faces=faces,
        other_face=b.other_face if layout != "normal" else None, printings=b.printings, rulings=rulings,
        legalities=legalities, reserved=b.reserved, hand_size=b.hand_size, starting_life=b.starting_life,
        versions=version_rows, name_ja=name_ja, face_names_ja=face_ja,
    )


def _with(face: Face, **changes) -> Face:
    from dataclasses import replace

    return replace(face, **changes)


def mana_value_of(cost: str | None) -> int | float | None:
    """:func:`ingest.card_costs.mana_value`, ``None`` for a cost it cannot read."""
    try:
        return mana_value(cost)
    except ValueError:
        return None
