"""The cards the executable rules know: read from the corpus and from ``data/cards.toml``.

Sources, in order:

- ``cards/oracle_xml/*.txt`` in the corpus: XML-like ``<Card>`` records with
  ``<Name>``, ``<Type>`` (a creature's power/toughness at its end),
  ``<ManaCost>``, ``<CardText>`` and ``<Rulings>`` lines ``YYYY/MM/DD: text``;
- ``cards/forge/*.txt``: Forge card scripts (``Name:``, ``ManaCost:1 G``,
  ``Types:``, ``PT:``, ``Oracle:``; an ``ALTERNATE`` section is the second face,
  ``AlternateMode:Adventure`` says how the faces go together);
- ``data/cards.toml`` in the project: cards the corpus doesn't have (a split
  card, an omen, a modal double-faced card, dredge cards, …), written by hand:
  real cards newer than the corpus, their Oracle text as Forge gives it. An
  invented card would have to be marked ``test_card = true`` and named
  ``Test: …`` (the loader checks both); none is left.

Japanese names come from ``cards/jpname_20250920.json`` (its ``"undefined"``
values are left out). A few rules-relevant properties are read from the text
where the file doesn't give them: dredge N, morph and disguise costs, what an
instant or sorcery targets, mandatory additional costs and kicker.

>>> pool = load_card_pool(default_corpus())
>>> pool.find("Diabolic Tutor").mana_value
4
>>> pool.find("Bramble Familiar").faces[1].name, pool.find("Bramble Familiar").faces[1].mana_value
('Fetch Quest', 7)
>>> pool.find("木苺の使い魔").name
'Bramble Familiar'
>>> pool.find("Lightnig Bolt")
Traceback (most recent call last):
...
executable_rules.card_pool.UnknownCard: unknown card "Lightnig Bolt"; did you mean "Lightning Bolt"?
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
import pickle
import threading
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ingest.cards import PARSERS as CARD_PARSERS
from ingest.cards import CardName, ForgeFace, card_files
from ingest.cards import __file__ as ingest_cards_file
from ingest.cards import CardRuling as IngestRuling
from ingest.cards import OracleCard as IngestOracleCard
from ingest.records import IngestProblem, SourceError

from .model import (
    CARD_TYPES,
    SUPERTYPES,
    AdditionalCost,
    Face,
    FaceKind,
    Layout,
    ManaCost,
    OracleCard,
)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CARDS_TOML = PROJECT_ROOT / "data" / "cards.toml"

ACTION_WORDS = re.compile(
    r"\b(search(es|ed)?|discover(s|ed)?|explores?|manifest(s|ed)?|cloak(s|ed)?|villainous choice|dredge)\b",
    re.IGNORECASE,
)
"""Words of the actions ``executable_rules`` implements, as they appear in card text."""


class UnknownCard(LookupError):
    """No card by that name; the message suggests the nearest one."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class CardRuling:
    """A dated ruling of a card, as the card file has it (date as ``YYYY-MM-DD``)."""

    card: str
    date: str
    text: str
    source: str
    line: int


@dataclass
class CardPool:
    """Cards by name (English, a split card's half, or Japanese) and their rulings."""

    cards: dict[str, OracleCard]
    rulings: list[CardRuling]
    aliases: dict[str, str]
    #: (source, line, message) for each hand-written card that yielded to the corpus's record of it.
    warnings: list[tuple[str, int, str]] = field(default_factory=list)
    #: Where to look for a card the pool doesn't hold (the served database's ``cards`` table), or None.
    fallback: Callable[[str], OracleCard | None] | None = field(default=None, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    #: While not None, the name of every card :meth:`find` returned (what a set of scenarios uses).
    seen: set[str] | None = field(default=None, repr=False, compare=False)

    def find(self, name: str) -> OracleCard:
        """The card called ``name``; :class:`UnknownCard` with a suggestion if there is none."""
        key = self.aliases.get(name.casefold())
        if key is not None:
            if self.seen is not None:
                self.seen.add(key)
            return self.cards[key]
        if self._fetch(name):
            return self.find(name)
        near = difflib.get_close_matches(name, list(self.cards), n=1, cutoff=0.6)
        hint = f'; did you mean "{near[0]}"?' if near else "; add it to data/cards.toml"
        raise UnknownCard(f'unknown card "{name}"{hint}')

    def __contains__(self, name: str) -> bool:
        return name.casefold() in self.aliases or self._fetch(name)

    def _fetch(self, name: str) -> bool:
        """Ask the fallback for ``name`` and keep what it gives."""
        if self.fallback is None:
            return False
        card = self.fallback(name)
        if card is None:
            return False
        with self._lock:
            self.cards.setdefault(card.name, card)
            self.aliases.setdefault(card.name.casefold(), card.name)
            self.aliases.setdefault(name.casefold(), card.name)
            if card.name_ja:
                self.aliases.setdefault(card.name_ja.casefold(), card.name)
        return True

    @property
    def curated(self) -> list[OracleCard]:
        """The cards of the corpus's curated subsets (``cards/oracle_xml``, ``cards/forge``) and ``data/cards.toml``:
        the cards chosen for the keyword pages and scenarios, as opposed to the whole Oracle database."""
        return [c for c in self.cards.values() if not c.source.startswith("cards/oracle_sets/")]

    def uses_actions(self, card: OracleCard) -> bool:
        """Whether the card's text uses one of the actions (its own name and other cards' names aside).

        >>> pool = load_card_pool(default_corpus())
        >>> pool.uses_actions(pool.find("Untamed Wilds")), pool.uses_actions(pool.find("Search for Azcanta"))
        (True, False)
        """
        text = card.text
        for name in self._named_like_actions():
            if name in text:
                text = text.replace(name, "CARDNAME")
        return bool(ACTION_WORDS.search(text))

    @functools.cached_property
    def _action_names(self) -> list[str]:
        return sorted((n for n in self.cards if ACTION_WORDS.search(n)), key=len, reverse=True)

    def _named_like_actions(self) -> list[str]:
        """Card names that contain an action word ("Search for Azcanta"), longest first."""
        return self._action_names

    def rulings_about_actions(self) -> list[CardRuling]:
        """The rulings, in the curated card files, of every curated card whose text uses one of the actions."""
        curated = {c.name for c in self.curated}
        return [r for r in self.rulings if r.card in curated and r.card in self.cards
                and not r.source.startswith("cards/oracle_sets/") and self.uses_actions(self.cards[r.card])]


# ---------------------------------------------------------------- reading text into faces

_PT = re.compile(r"\s+(\*|[-+]?\d+\*?|\d+\+\*)/(\*|[-+]?\d+\*?|\d+\+\*)$")


def split_type_line(type_line: str) -> tuple[frozenset[str], tuple[str, ...], frozenset[str], str | None, str | None]:
    """Types, subtypes, supertypes, power and toughness from ``Creature — Merfolk Scout 2/1``.

    >>> split_type_line("Legendary Creature — Elf Druid 1/2")
    (frozenset({'Creature'}), ('Elf', 'Druid'), frozenset({'Legendary'}), '1', '2')
    >>> split_type_line("Creature Human Artificer")[:2]   # Forge writes no dash
    (frozenset({'Creature'}), ('Human', 'Artificer'))
    """
    power = toughness = None
    m = _PT.search(type_line)
    if m:
        power, toughness = m.group(1), m.group(2)
        type_line = type_line[: m.start()]
    words = type_line.replace("—", " — ").split()
    types: set[str] = set()
    supertypes: set[str] = set()
    subtypes: list[str] = []
    for word in words:
        if word == "—":
            continue
        if word in CARD_TYPES:
            types.add(word)
        elif word in SUPERTYPES:
            supertypes.add(word)
        else:
            subtypes.append(word)
    return frozenset(types), tuple(subtypes), frozenset(supertypes), power, toughness


_TARGET = re.compile(
    r"\b(any target|one or two targets|target (?:nonland |nonbasic |attacking |tapped |untapped )?"
    r"(creature|artifact|enchantment|land|planeswalker|player|opponent|permanent|spell|card))",
    re.IGNORECASE,
)
_OPTIONAL_TARGET = re.compile(r"\b(up to \w+|any number of) $", re.IGNORECASE)
_ADDITIONAL = re.compile(
    r"As an additional cost to cast this spell, (sacrifice|discard) an? ([a-z]+)", re.IGNORECASE
)
_KICKER = re.compile(r"^Kicker ((?:\{[^}]+\})+)", re.MULTILINE)


def spell_properties(text: str, types: frozenset[str]) -> tuple[str | None, tuple[AdditionalCost, ...]]:
    """What an instant or sorcery targets, and its additional costs, read from its text.

    >>> spell_properties("As an additional cost to cast this spell, sacrifice a creature.\\nDestroy target creature.",
    ...                  frozenset({"Sorcery"}))
    ('creature', (AdditionalCost(kind='sacrifice', description='sacrifice a creature', optional=False, type='Creature', mana=None),))
    """
    if not types & {"Instant", "Sorcery"}:
        return None, ()
    target = None
    body = text.split("\n(")[0]
    for m in _TARGET.finditer(body):
        if _OPTIONAL_TARGET.search(body[:m.start()]):
            continue            # "up to one target creature" (Skimming Strike): zero targets is a legal choice (601.2c)
        target = "any" if m.group(1).lower() in ("any target", "one or two targets") else m.group(2).lower()
        break
    costs = []
    for kind, what in _ADDITIONAL.findall(text):
        kind = kind.lower()
        costs.append(AdditionalCost("sacrifice" if kind == "sacrifice" else "discard", f"{kind} a {what.lower()}",
                                    False, what.capitalize() if kind == "sacrifice" else None))
    for cost in _KICKER.findall(text):
        costs.append(AdditionalCost("mana", f"kicker {cost}", True, None, ManaCost.parse(cost)))
    return target, tuple(costs)


def _keyword_cost(text: str, keyword: str) -> ManaCost | None:
    m = re.search(rf"^{keyword} ((?:\{{[^}}]+\}})+)", text, re.MULTILINE)
    return ManaCost.parse(m.group(1)) if m else None


def _face(name: str, mana_cost: str | None, type_line: str, text: str, kind: FaceKind,
          power: str | None = None, toughness: str | None = None, loyalty: str | None = None) -> Face:
    types, subtypes, supertypes, p, t = split_type_line(type_line)
    target, costs = spell_properties(text, types)
    return Face(name, ManaCost.parse(mana_cost) if mana_cost else None, types, subtypes, supertypes,
                power or p, toughness or t, text, kind, target, costs, loyalty or None)


def _card(name: str, layout: Layout, faces: tuple[Face, ...], source: str, line: int) -> OracleCard:
    text = "\n".join(f.text for f in faces)
    m = re.search(r"\bDredge (\d+)", text)
    return OracleCard(
        name, layout, faces, dredge=int(m.group(1)) if m else None,
        morph=_keyword_cost(text, "Morph") or _keyword_cost(text, "Megamorph"), disguise=_keyword_cost(text, "Disguise"),
        indestructible=bool(re.search(r"^Indestructible\b", text, re.MULTILINE)),
        source=source, line=line,
    )


# ---------------------------------------------------------------- the corpus, through ingest.cards


def corpus_card_files(corpus: Path) -> list[tuple[str, Path]]:
    """The card files ``ingest.cards`` reads: the curated Oracle records before the set files (the first
    record of a name wins here), then Forge scripts and the Japanese names."""
    order = {"oracle": 0, "oracle_set": 1, "forge": 2, "jpname": 3}
    return sorted(card_files(corpus), key=lambda kp: order.get(kp[0], 9))


_HALVES = re.compile(r"^(?P<half>.+?) \((?P<left>.+?)/(?P<right>.+?)\)$")


def cards_from_records(records: Iterable[object]) -> tuple[dict[str, OracleCard], list[CardRuling], dict[str, str],
                                                            list[IngestProblem]]:
    """Engine cards from ``ingest.cards`` records: Oracle records (the first of a name wins; the two halves of a
    split card, ``OtherPart: Dawn (Dusk/Dawn)``, are joined), Forge scripts (a script with an ``ALTERNATE`` face is
    the card with both its faces, as the Oracle records don't join adventures), rulings and Japanese names."""
    oracle: dict[str, IngestOracleCard] = {}
    forge: dict[str, list[ForgeFace]] = {}
    rulings: dict[tuple[str, str, str], CardRuling] = {}
    japanese: dict[str, str] = {}
    problems: list[IngestProblem] = []
    for r in records:
        if isinstance(r, IngestOracleCard):
            oracle.setdefault(r.name, r)
        elif isinstance(r, ForgeFace):
            forge.setdefault(r.card, []).append(r)
        elif isinstance(r, IngestRuling):
            rulings.setdefault((r.name, r.date, r.text), CardRuling(r.name, r.date, r.text, r.source, r.line))
        elif isinstance(r, CardName) and r.name_ja:
            japanese.setdefault(r.name_en, r.name_ja)
        elif isinstance(r, IngestProblem):
            problems.append(r)
    cards: dict[str, OracleCard] = {}
    joined: set[str] = set()

    def face_of(r: IngestOracleCard, name: str, kind: FaceKind) -> Face:
        return _face(name, r.mana_cost, r.type_line or "", r.text or "", kind, r.power, r.toughness,
                     getattr(r, "loyalty", None))

    for name, r in oracle.items():
        if name in joined:
            continue
        matched = _HALVES.match(name)
        halves: dict[str, str] | None = matched.groupdict() if matched else None
        back = oracle.get(r.other_part or "")
        split = getattr(r, "split_card", None)
        if split and not halves:
            # ingest.cards names a half "Fire" and its card split_card = "Fire // Ice" (it was "Fire (Fire/Ice)").
            left, _, right_name = split.partition(" // ")
            halves = {"half": name, "left": left, "right": right_name}
        try:
            if halves and halves["half"] == halves["left"]:
                # A split card's halves are two records, "Dusk (Dusk/Dawn)" and "Dawn (Dusk/Dawn)" (Split Cards — CR 709).
                right = oracle.get(f"{halves['right']} ({halves['left']}/{halves['right']})") \
                    or (oracle.get(halves["right"]) if split else None)
                if right is None:
                    continue
                card = _card(f"{halves['left']} // {halves['right']}", Layout.SPLIT,
                             (face_of(r, halves["left"], FaceKind.LEFT), face_of(right, halves["right"], FaceKind.RIGHT)),
                             r.source, r.line)
                joined |= {name, right.name}
            elif halves:
                continue                      # the right half: joined with its left half
            elif back is not None and back.other_part == name and "Adventure" in (back.type_line or ""):
                # An adventurer card: a creature and its Adventure, an instant or sorcery (Adventurer Cards — CR 715).
                card = _card(name, Layout.ADVENTURE,
                             (face_of(r, name, FaceKind.NORMAL), face_of(back, back.name, FaceKind.ADVENTURE)),
                             r.source, r.line)
                joined |= {name, back.name}
            elif back is not None and back.other_part == name and back.mana_cost and r.mana_cost is not None \
                    or back is not None and back.other_part == name and back.mana_cost and "Land" in (r.type_line or ""):
                # Both faces castable or playable: a modal double-faced card (Double-Faced Cards — CR 712).
                card = _card(f"{name} // {back.name}", Layout.MODAL_DFC,
                             (face_of(r, name, FaceKind.FRONT), face_of(back, back.name, FaceKind.BACK)), r.source, r.line)
                joined |= {name, back.name}
            else:
                card = _card(name, Layout.NORMAL, (face_of(r, name, FaceKind.NORMAL),), r.source, r.line)
        except ValueError as e:
            problems.append(IngestProblem(r.source, r.line, "warning", "engine-card", f"{name}: {e}; left out"))
            continue
        cards[card.name] = card
    for name, scripts in forge.items():
        mode = (scripts[0].alternate_mode or "").lower()
        layout = {"": Layout.NORMAL, "adventure": Layout.ADVENTURE, "omen": Layout.OMEN, "modal": Layout.MODAL_DFC,
                  "split": Layout.SPLIT}.get(mode)
        if layout is None or (name in cards and layout is Layout.NORMAL):
            continue
        kinds = {Layout.NORMAL: [FaceKind.NORMAL], Layout.ADVENTURE: [FaceKind.NORMAL, FaceKind.ADVENTURE],
                 Layout.OMEN: [FaceKind.NORMAL, FaceKind.OMEN], Layout.MODAL_DFC: [FaceKind.FRONT, FaceKind.BACK],
                 Layout.SPLIT: [FaceKind.LEFT, FaceKind.RIGHT]}[layout]
        built = tuple(_face(f.name, f.mana_cost, f.type_line or "", f.text or "", kind, f.power, f.toughness,
                            getattr(f, "loyalty", None))
                      for f, kind in zip(scripts, kinds))
        full = " // ".join(f.name for f in built) if layout is Layout.SPLIT else built[0].name
        cards[full] = _card(full, layout, built, scripts[0].source, scripts[0].line)
    return cards, sorted(rulings.values(), key=lambda x: (x.card, x.date, x.text)), japanese, problems


def _toml_line(text: str, name: str) -> int:
    needle = f'name = "{name}"'
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else 0


def read_cards_toml(path: Path, display: str = "data/cards.toml") -> Iterator[OracleCard]:
    """Hand-written cards: ``[[card]]`` with ``name``, ``mana_cost``, ``type``, ``text`` … or ``[[card.face]]``s."""
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        raise SourceError(display, int(m.group(1)) if m else None, f"not valid TOML: {e}") from None
    for entry in data.get("card", []):
        name = entry.get("name")
        line = _toml_line(text, name) if name else 0
        if not name:
            raise SourceError(display, None, "a [[card]] without a name")
        if bool(entry.get("test_card")) != name.startswith("Test:"):
            raise SourceError(display, line, f'"{name}": an invented card has test_card = true and a name '
                              'starting with "Test:", and only an invented card has them')
        try:
            layout = Layout(entry.get("layout", "normal"))
        except ValueError:
            raise SourceError(display, line, f"unknown layout {entry.get('layout')!r}; use one of "
                              f"{', '.join(lay.value for lay in Layout)}") from None
        raw_faces: list[dict[str, Any]] = entry.get("face") or [entry]
        kinds = {Layout.NORMAL: [FaceKind.NORMAL], Layout.ADVENTURE: [FaceKind.NORMAL, FaceKind.ADVENTURE],
                 Layout.OMEN: [FaceKind.NORMAL, FaceKind.OMEN], Layout.MODAL_DFC: [FaceKind.FRONT, FaceKind.BACK],
                 Layout.SPLIT: [FaceKind.LEFT, FaceKind.RIGHT]}[layout]
        if len(raw_faces) != len(kinds):
            raise SourceError(display, line, f"{name}: a {layout.value} card has {len(kinds)} face(s), "
                              f"found {len(raw_faces)}")
        faces = []
        for raw, kind in zip(raw_faces, kinds):
            for key in ("name", "type"):
                if key not in raw:
                    raise SourceError(display, _toml_line(text, raw.get("name", name)), f"{name}: a face needs {key!r}")
            try:
                face = _face(raw["name"], raw.get("mana_cost"), raw["type"], raw.get("text", ""), kind,
                             raw.get("power"), raw.get("toughness"))
            except ValueError as e:
                raise SourceError(display, _toml_line(text, raw["name"]), f"{raw['name']}: {e}") from None
            if "target" in raw:
                face = replace(face, target=raw["target"] or None)
            faces.append(face)
        card = _card(name, layout, tuple(faces), display, line)
        if "name_ja" in entry:
            card = replace(card, name_ja=entry["name_ja"])
        yield card


# ---------------------------------------------------------------- cards as plain records (the database's engine_cards)


def card_record(card: OracleCard) -> dict[str, Any]:
    """A card as plain data (JSON-able), enough to rebuild it with :func:`card_from_record`."""
    return {
        "name": card.name, "layout": card.layout.value, "name_ja": card.name_ja, "source": card.source,
        "line": card.line, "color_indicator": sorted(card.color_indicator) if card.color_indicator is not None else None,
        "faces": [{"name": f.name, "mana_cost": str(f.mana_cost) if f.mana_cost else None, "type_line": f.type_line,
                   "text": f.text, "power": f.power, "toughness": f.toughness, "kind": f.kind.name,
                   "target": f.target, "loyalty": f.loyalty} for f in card.faces],
    }


def card_from_record(record: dict[str, Any]) -> OracleCard:
    """The card :func:`card_record` described; ``ValueError`` for a record that isn't one."""
    try:
        faces = tuple(replace(_face(f["name"], f.get("mana_cost"), f.get("type_line") or "", f.get("text") or "",
                                    FaceKind[f.get("kind", "NORMAL")], f.get("power"), f.get("toughness"),
                                    f.get("loyalty")),
                              target=f.get("target"))
                      for f in record["faces"])
        card = _card(record["name"], Layout(record.get("layout", "normal")), faces, record.get("source", ""),
                     int(record.get("line") or 0))
    except (KeyError, TypeError) as e:
        raise ValueError(f"not a card record: {e}") from None
    indicator = record.get("color_indicator")
    return replace(card, name_ja=record.get("name_ja"),
                   color_indicator=frozenset(indicator) if indicator is not None else None)


def card_from_row(row: dict[str, Any], faces: list[dict[str, Any]] | None = None) -> OracleCard:
    """A card from a row of the database's ``cards`` table (``name_en``, ``mana_cost``, ``type_line``, ``text``,
    ``power``, ``toughness``, ``layout``) and its ``card_faces`` rows, if any."""
    name = row["name_en"]
    if faces and len(faces) > 1:
        layout = {"adventure": Layout.ADVENTURE, "omen": Layout.OMEN, "modal": Layout.MODAL_DFC,
                  "split": Layout.SPLIT}.get((row.get("layout") or "").lower(), Layout.NORMAL)
        if layout is not Layout.NORMAL:
            kinds = {Layout.ADVENTURE: [FaceKind.NORMAL, FaceKind.ADVENTURE], Layout.OMEN: [FaceKind.NORMAL, FaceKind.OMEN],
                     Layout.MODAL_DFC: [FaceKind.FRONT, FaceKind.BACK], Layout.SPLIT: [FaceKind.LEFT, FaceKind.RIGHT]}[layout]
            built = tuple(_face(f["name_en"], f.get("mana_cost"), f.get("type_line") or "", f.get("text") or "", kind,
                                f.get("power"), f.get("toughness")) for f, kind in zip(faces, kinds))
            return replace(_card(name, layout, built, "cards table", 0), name_ja=row.get("name_ja"))
    face = _face(name, row.get("mana_cost"), row.get("type_line") or "", row.get("text") or "", FaceKind.NORMAL,
                 row.get("power"), row.get("toughness"))
    return replace(_card(name, Layout.NORMAL, (face,), "cards table", 0), name_ja=row.get("name_ja"))


def pool_from_records(records: Iterable[dict[str, Any]],
                      fallback: Callable[[str], OracleCard | None] | None = None) -> CardPool:
    """A pool of the cards :func:`card_record` wrote (the served database's ``engine_cards``), with a fallback."""
    cards = {}
    for record in records:
        card = card_from_record(record)
        cards[card.name] = card
    pool = build_pool(cards, [], {}, None)
    pool.fallback = fallback
    return pool


def corpus_records(corpus: Path) -> Iterator[object]:
    """Every card record of the corpus, read by ``ingest.cards``."""
    for kind, path in corpus_card_files(corpus):
        yield from CARD_PARSERS[kind](path, path.relative_to(corpus).as_posix())


CACHE_DIR = Path(os.environ.get("KB_CACHE", Path.home() / ".cache" / "mtg-rules-kb")) / "card-pool"


def _cache_key(corpus: Path) -> str:
    """The card files (path, size, mtime) and this code's source: a cache from other files or code is never read."""
    h = hashlib.sha256()
    for kind, path in corpus_card_files(corpus):
        stat = path.stat()
        h.update(f"{kind}:{path.relative_to(corpus)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    for module in (__file__, Path(__file__).with_name("model.py"), Path(ingest_cards_file)):
        h.update(Path(module).read_bytes())
    return h.hexdigest()[:32]


def _read_corpus_cards(corpus: Path) -> tuple[dict[str, OracleCard], list[CardRuling], dict[str, str]]:
    """:func:`cards_from_records` of the corpus, from a cache under ``~/.cache/mtg-rules-kb`` when it is current
    (reading the 24,000 cards of ``oracle_sets`` takes seconds; the cache, a fraction of one)."""
    path = CACHE_DIR / f"{_cache_key(corpus)}.pickle"
    try:
        with path.open("rb") as f:
            cached: tuple[dict[str, OracleCard], list[CardRuling], dict[str, str]] = pickle.load(f)
        return cached
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        pass
    cards, rulings, japanese, problems = cards_from_records(corpus_records(corpus))
    # ingest.cards is the one reader of card files: a file cut short or a cost no card can have is that
    # file's path:line, reported before any scenario is blamed for the card it could not find.
    for problem in problems:
        if problem.severity == "error":
            raise SourceError(problem.source, problem.line, problem.message)
    plain = {name: replace(card) for name, card in cards.items()}    # no parsed abilities in the cache
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".tmp-{os.getpid()}")
        with temp.open("wb") as f:
            pickle.dump((plain, rulings, japanese), f, protocol=pickle.HIGHEST_PROTOCOL)
        temp.replace(path)
    except OSError:
        pass    # a read-only home: no cache, just slower
    return plain, rulings, japanese


@functools.lru_cache(maxsize=4)
def default_corpus() -> Path:
    """The corpus when none is given: ``KB_CORPUS``, else ``../shared/corpus`` beside the project or the working
    directory — the places ``kb`` looks (``kb.corpus.find_corpus``, which this package doesn't import: imports flow
    from ``kb`` to ``executable_rules``, never back)."""
    if os.environ.get("KB_CORPUS"):
        where = Path(os.environ["KB_CORPUS"])
    else:
        candidates = [Path(__file__).resolve().parent.parent.parent / "shared" / "corpus",
                      Path.cwd().parent / "shared" / "corpus"]
        where = next((c for c in candidates if c.is_dir()), candidates[0])
    if not (where / "cr" / "en").is_dir():
        raise FileNotFoundError(f"no corpus at {where} (no cr/en/ there): set KB_CORPUS to the corpus directory")
    return where.resolve()


def load_card_pool(corpus: Path, cards_toml: Path = CARDS_TOML) -> CardPool:
    """Every card of the corpus and ``data/cards.toml``, with Japanese names and rulings."""
    cards, rulings, japanese = _read_corpus_cards(corpus)
    return build_pool(dict(cards), rulings, japanese, cards_toml)


def shared_card_pool(corpus: Path | None = None) -> CardPool:
    """:func:`load_card_pool` read once per process: reading the pool costs seconds, and a caller that
    asks many times (``kb check`` by each name, every scenario run without a pool) must not pay them each
    time. It is read again when a card folder gains or loses a file or ``data/cards.toml`` changes (the
    folders' and the file's mtimes, a few ``stat`` calls; the full key of :func:`_cache_key` stats and
    hashes every file, a fifth of a second). Callers share the pool: treat it as read-only."""
    corpus = (corpus or default_corpus()).resolve()
    cards = corpus / "cards"
    quick = tuple(d.stat().st_mtime_ns if d.is_dir() else 0
                  for d in (cards, cards / "oracle_sets", cards / "oracle_xml", cards / "forge"))
    quick += (CARDS_TOML.stat().st_mtime_ns if CARDS_TOML.exists() else 0,)
    with _SHARED_LOCK:
        held = _SHARED.get(corpus)
        if held is None or held[0] != quick:
            held = (quick, load_card_pool(corpus))
            _SHARED[corpus] = held
        return held[1]


_SHARED: dict[Path, tuple[tuple[int, ...], CardPool]] = {}
_SHARED_LOCK = threading.Lock()


def build_pool(cards: dict[str, OracleCard], rulings: list[CardRuling], japanese: dict[str, str],
               cards_toml: Path | None = CARDS_TOML) -> CardPool:
    """A pool from cards already read, the hand-written cards of ``cards_toml`` added where the corpus lacks them."""
    warnings: list[tuple[str, int, str]] = []
    if cards_toml is not None and cards_toml.exists():
        display = cards_toml.relative_to(PROJECT_ROOT).as_posix() if cards_toml.is_relative_to(PROJECT_ROOT) else str(cards_toml)
        for card in read_cards_toml(cards_toml, display):
            if card.name in cards:
                # Real data wins: the corpus grew to hold a card we had written by hand.
                warnings.append((display, card.line, f'"{card.name}" is in the corpus '
                                 f"({cards[card.name].source}); the corpus record is used, "
                                 f"remove it from {display}"))
                continue
            cards[card.name] = card
    aliases: dict[str, str] = {}
    for name, card in list(cards.items()):
        ja = card.name_ja or japanese.get(name)
        if card.layout is Layout.SPLIT and not ja:
            halves = [japanese.get(f.name) for f in card.faces]
            ja = "//".join(h for h in halves if h) if all(halves) else None
        if ja and ja != card.name_ja:
            card = replace(card, name_ja=ja)
            cards[name] = card
        aliases[name.casefold()] = name
        if ja:
            aliases.setdefault(ja.casefold(), name)
        if card.layout in (Layout.SPLIT, Layout.MODAL_DFC):
            for face in card.faces:
                aliases.setdefault(face.name.casefold(), name)
    return CardPool(cards, rulings, aliases, warnings)
