"""The cards the executable rules know: read from the corpus and from ``data/cards.toml``.

Sources, in order:

- ``cards/oracle_xml/*.txt`` in the corpus: XML-like ``<Card>`` records with
  ``<Name>``, ``<Type>`` (a creature's power/toughness at its end),
  ``<ManaCost>``, ``<CardText>`` and ``<Rulings>`` lines ``YYYY/MM/DD: text``;
- ``cards/forge/*.txt``: Forge card scripts (``Name:``, ``ManaCost:1 G``,
  ``Types:``, ``PT:``, ``Oracle:``; an ``ALTERNATE`` section is the second face,
  ``AlternateMode:Adventure`` says how the faces go together);
- ``data/cards.toml`` in the project: cards the corpus doesn't have (a split
  card, an omen, a modal double-faced card, dredge cards, …), written by hand.
  Entries marked ``test_card = true`` are invented for a rule no real card in
  the corpus shows; their names start with ``Test:``.

Japanese names come from ``cards/jpname_20250920.json`` (its ``"undefined"``
values are left out). A few rules-relevant properties are read from the text
where the file doesn't give them: dredge N, morph and disguise costs, what an
instant or sorcery targets, mandatory additional costs and kicker.

>>> from kb.corpus import find_corpus
>>> pool = load_card_pool(find_corpus())
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
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

from ingest.cards import CardRuling as IngestRuling
from ingest.cards import CardName, ForgeFace, parse_forge_script, parse_jpname, parse_oracle_records
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

    def find(self, name: str) -> OracleCard:
        """The card called ``name``; :class:`UnknownCard` with a suggestion if there is none."""
        key = self.aliases.get(name.casefold())
        if key is not None:
            return self.cards[key]
        near = difflib.get_close_matches(name, list(self.cards), n=1, cutoff=0.6)
        hint = f'; did you mean "{near[0]}"?' if near else "; add it to data/cards.toml"
        raise UnknownCard(f'unknown card "{name}"{hint}')

    def __contains__(self, name: str) -> bool:
        return name.casefold() in self.aliases

    def uses_actions(self, card: OracleCard) -> bool:
        """Whether the card's text uses one of the actions (its own name and other cards' names aside).

        >>> from kb.corpus import find_corpus
        >>> pool = load_card_pool(find_corpus())
        >>> pool.uses_actions(pool.find("Untamed Wilds")), pool.uses_actions(pool.find("Search for Azcanta"))
        (True, False)
        """
        text = card.text
        for name in sorted(self.cards, key=len, reverse=True):
            if name in text:
                text = text.replace(name, "CARDNAME")
        return bool(ACTION_WORDS.search(text))

    def rulings_about_actions(self) -> list[CardRuling]:
        """The rulings of every card whose text uses one of the actions."""
        return [r for r in self.rulings if self.uses_actions(self.cards[r.card])]


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
    r"\b(any target|target (?:nonland |nonbasic |attacking |tapped |untapped )?"
    r"(creature|artifact|enchantment|land|planeswalker|player|opponent|permanent|spell|card))",
    re.IGNORECASE,
)
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
    m = _TARGET.search(text.split("\n(")[0])
    if m:
        target = "any" if m.group(1).lower() == "any target" else m.group(2).lower()
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
          power: str | None = None, toughness: str | None = None) -> Face:
    types, subtypes, supertypes, p, t = split_type_line(type_line)
    target, costs = spell_properties(text, types)
    return Face(name, ManaCost.parse(mana_cost) if mana_cost else None, types, subtypes, supertypes,
                power or p, toughness or t, text, kind, target, costs)


def _card(name: str, layout: Layout, faces: tuple[Face, ...], source: str, line: int) -> OracleCard:
    text = "\n".join(f.text for f in faces)
    m = re.search(r"\bDredge (\d+)", text)
    return OracleCard(
        name, layout, faces, dredge=int(m.group(1)) if m else None,
        morph=_keyword_cost(text, "Morph"), disguise=_keyword_cost(text, "Disguise"),
        indestructible=bool(re.search(r"^Indestructible\b", text, re.MULTILINE)),
        source=source, line=line,
    )


# ---------------------------------------------------------------- the three sources

def _records(parse: Any, path: Path, display: str) -> list[Any]:
    """The records ``ingest.cards`` reads from a card file; the first error in it as :class:`SourceError`.

    ``ingest.cards`` is the one reader of card files (the build's card tables
    come from it too), so a file cut short or a cost no card can have is
    reported as that file's ``path:line:``, before any scenario is blamed for
    the card it could not find.
    """
    records = list(parse(path, display))
    for r in records:
        if isinstance(r, IngestProblem) and r.severity == "error":
            raise SourceError(r.source, r.line, r.message)
    return records


def iter_oracle_records(path: Path, display: str) -> Iterator[tuple[OracleCard, list[CardRuling]]]:
    """Cards and their rulings from an XML-like oracle file (read by :func:`ingest.cards.parse_oracle_records`)."""
    records = _records(parse_oracle_records, path, display)
    rulings: dict[str, list[CardRuling]] = {}
    for r in records:
        if isinstance(r, IngestRuling):
            rulings.setdefault(r.name, []).append(CardRuling(r.name, r.date, r.text, r.source, r.line))
    for r in records:
        if not isinstance(r, IngestOracleCard):
            continue
        if r.type_line is None:
            raise SourceError(display, r.record_line or r.line, "a <Card> record without <Name> or <Type>")
        card = _card(r.name, Layout.NORMAL, (_face(r.name, r.mana_cost, r.type_line, r.text or "", FaceKind.NORMAL,
                                                   r.power, r.toughness),), display, r.record_line or r.line)
        yield card, rulings.get(r.name, [])


def read_forge_script(path: Path, display: str) -> OracleCard:
    """A card from a Forge script (read by :func:`ingest.cards.parse_forge_script`); ``ALTERNATE`` starts
    the second face."""
    faces_read = [r for r in _records(parse_forge_script, path, display) if isinstance(r, ForgeFace)]
    if not faces_read:
        raise SourceError(display, None, "a Forge script without a face")
    mode = (faces_read[0].alternate_mode or "").lower()
    layout = {"": Layout.NORMAL, "adventure": Layout.ADVENTURE, "omen": Layout.OMEN,
              "modal": Layout.MODAL_DFC, "split": Layout.SPLIT}.get(mode)
    if layout is None:
        raise SourceError(display, None, f"AlternateMode:{mode} is not a layout the model knows")
    kinds = {Layout.NORMAL: [FaceKind.NORMAL], Layout.ADVENTURE: [FaceKind.NORMAL, FaceKind.ADVENTURE],
             Layout.OMEN: [FaceKind.NORMAL, FaceKind.OMEN], Layout.MODAL_DFC: [FaceKind.FRONT, FaceKind.BACK],
             Layout.SPLIT: [FaceKind.LEFT, FaceKind.RIGHT]}[layout]
    faces = []
    for f, kind in zip(faces_read, kinds):
        if f.type_line is None:
            raise SourceError(display, f.line, "a Forge script section without Name: or Types:")
        faces.append(_face(f.name, f.mana_cost, f.type_line, f.text or "", kind, f.power, f.toughness))
    name = " // ".join(f.name for f in faces) if layout is Layout.SPLIT else faces[0].name
    return _card(name, layout, tuple(faces), display, 1)


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


@functools.lru_cache(maxsize=4)
def load_card_pool(corpus: Path, cards_toml: Path = CARDS_TOML) -> CardPool:
    """Every card from the corpus and ``data/cards.toml``, with Japanese names and rulings."""
    cards: dict[str, OracleCard] = {}
    rulings: dict[tuple[str, str, str], CardRuling] = {}
    warnings: list[tuple[str, int, str]] = []
    for path in sorted((corpus / "cards" / "oracle_xml").glob("*.txt")):
        display = path.relative_to(corpus).as_posix()
        for card, card_rulings in iter_oracle_records(path, display):
            cards.setdefault(card.name, card)
            for r in card_rulings:
                rulings.setdefault((r.card, r.date, r.text), r)
    for path in sorted((corpus / "cards" / "forge").glob("*.txt")):
        card = read_forge_script(path, path.relative_to(corpus).as_posix())
        cards.setdefault(card.name, card)
    if cards_toml.exists():
        display = cards_toml.relative_to(PROJECT_ROOT).as_posix() if cards_toml.is_relative_to(PROJECT_ROOT) else str(cards_toml)
        for card in read_cards_toml(cards_toml, display):
            if card.name in cards:
                # Real data wins: the corpus grew to hold a card we had written by hand.
                warnings.append((display, card.line, f'"{card.name}" is in the corpus '
                                 f"({cards[card.name].source}); the corpus record is used, "
                                 f"remove it from {display}"))
                continue
            cards[card.name] = card
    japanese: dict[str, str] = {}
    for names_file in sorted((corpus / "cards").glob("jpname*.json")):
        for entry in parse_jpname(names_file, names_file.relative_to(corpus).as_posix()):
            if isinstance(entry, IngestProblem):
                warnings.append((entry.source, entry.line or 0, entry.message))
            elif isinstance(entry, CardName) and entry.name_ja:
                japanese.setdefault(entry.name_en, entry.name_ja)
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
    return CardPool(cards, sorted(rulings.values(), key=lambda r: (r.card, r.date, r.text)), aliases, warnings)
