"""The game model: mana costs, cards, zones, players and the game state.

State is plain typed data. Every change goes through a method of
:class:`GameState` that records how to undo it, so a state can be rolled back
to a checkpoint (``rollback``) or the last action undone (``undo``), as
python-chess's ``Board.push``/``Board.pop`` do; ``copy()`` gives an
independent branch. Randomness comes from the state's seeded
``random.Random``, so every run is reproducible and undoing a shuffle restores
the generator too.

>>> state = GameState.new(["Alice", "Bob"], seed=1)
>>> bolt = OracleCard.simple("Lightning Bolt", "{R}", "Instant")
>>> forest = OracleCard.simple("Forest", None, "Land", subtypes=("Forest",), supertypes=("Basic",))
>>> ids = [state.add_card(o, "Alice", ZoneKind.LIBRARY) for o in (bolt, forest)]
>>> [state.cards[i].name for i in state.player("Alice").library.cards]   # top first
['Lightning Bolt', 'Forest']
>>> mark = state.checkpoint()
>>> state.move(ids[0], state.exile)
>>> state.names(state.exile)
['Lightning Bolt']
>>> state.rollback(mark)
>>> state.names(state.player("Alice").library)
['Lightning Bolt', 'Forest']
>>> state.cards[ids[0]].mana_value, state.cards[ids[1]].mana_value
(1, 0)
>>> state.problems()
[]
"""

from __future__ import annotations

import contextlib
import enum
import functools
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Literal, Sequence

from .citation import Citation
from .errors import ImpossibleState
from .oracle import ParsedCard, parse_card

# --------------------------------------------------------------------------- zones


class ZoneKind(enum.Enum):
    """A zone of the game (or outside it).

    Library and hand are hidden zones; graveyard, battlefield, stack and exile
    are public (Zones — CR 400.2). Outside the game is not a zone (Zones — CR 400.11)
    but is kept here as one, per player, for searches of a sideboard.
    """

    LIBRARY = "library"
    HAND = "hand"
    GRAVEYARD = "graveyard"
    EXILE = "exile"
    BATTLEFIELD = "battlefield"
    STACK = "stack"
    OUTSIDE = "outside the game"

    @property
    def is_hidden(self) -> bool:
        """Library and hand, even when every card in them is revealed."""
        return self in (ZoneKind.LIBRARY, ZoneKind.HAND)

    @property
    def is_public(self) -> bool:
        return self in (ZoneKind.GRAVEYARD, ZoneKind.EXILE, ZoneKind.BATTLEFIELD, ZoneKind.STACK)

    @property
    def is_per_player(self) -> bool:
        return self in (ZoneKind.LIBRARY, ZoneKind.HAND, ZoneKind.GRAVEYARD, ZoneKind.OUTSIDE)


@dataclass(eq=False)
class Zone:
    """A zone: its kind, its owner (for per-player zones) and its cards by id.

    A library is ordered top to bottom: ``cards[0]`` is the top card.
    """

    kind: ZoneKind
    owner: str | None
    cards: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        whose = f"{self.owner}'s " if self.owner else ""
        return f"<Zone {whose}{self.kind.value}: {len(self.cards)} cards>"

    @property
    def label(self) -> str:
        """``Alice's library``; a player named ``you`` (as in scenarios) has ``your library``."""
        if not self.owner:
            return self.kind.value
        return f"{'your' if self.owner == 'you' else self.owner + chr(39) + 's'} {self.kind.value}"

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[int]:
        return iter(self.cards)


# --------------------------------------------------------------------------- mana

_SYMBOL = re.compile(r"\{([^{}]+)\}")
_COLORS = frozenset("WUBRG")
_VALID_SYMBOL = re.compile(r"^(\d+|[WUBRGCSXYZ]|[WUBRG2]/[WUBRG]|[WUBRG]/P|[WUBRG]/[WUBRG]/P)$")


@dataclass(frozen=True)
class ManaCost:
    """A mana cost as its symbols, e.g. ``("2", "U", "R")`` for ``{2}{U}{R}``.

    >>> ManaCost.parse("{3}{U}{U}").mana_value      # Mana Cost and Color — CR 202.3
    5
    >>> ManaCost.parse("{X}{R}").mana_value         # X is 0 off the stack (202.3e)
    1
    >>> ManaCost.parse("{1}{W/U}{W/U}").mana_value  # the largest component of a hybrid symbol (202.3f)
    3
    >>> ManaCost.parse("{2/B}{2/B}{2/B}").mana_value
    6
    >>> ManaCost.parse("{1}{W/P}{W/P}").mana_value  # Phyrexian symbols count 1 (202.3g)
    3
    >>> str(ManaCost.parse("1 G G"))               # Forge's notation
    '{1}{G}{G}'
    >>> str(ManaCost.parse("{1}{R}") + ManaCost.parse("{1}{U}"))   # a split card's combined cost
    '{2}{R}{U}'
    """

    symbols: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        """Read ``{2}{U}`` (Oracle) or ``2 U`` (Forge); ``ValueError`` on anything else."""
        text = text.strip()
        if "{" in text:
            symbols = _SYMBOL.findall(text)
            if _SYMBOL.sub("", text).strip():
                raise ValueError(f"{text!r} is not a mana cost such as {{2}}{{U}}")
        else:
            symbols = text.split()
        symbols = [s.upper() for s in symbols]
        for s in symbols:
            if not _VALID_SYMBOL.match(s):
                raise ValueError(f"{text!r}: unknown mana symbol {{{s}}}")
        if not symbols:
            raise ValueError("an empty mana cost; write {0} for a zero cost, or leave the cost out for no mana cost")
        return cls(tuple(symbols))

    @property
    def mana_value(self) -> int:
        """Mana Cost and Color — CR 202.3, with X as 0 (202.3e)."""
        return self.mana_value_with_x(0)

    def mana_value_with_x(self, x: int) -> int:
        """The mana value with each X counting ``x`` (as for a spell on the stack, 202.3e)."""
        total = 0
        for s in self.symbols:
            if s.isdigit():
                total += int(s)
            elif s in ("X", "Y", "Z"):
                total += x
            elif "/" in s and not s.endswith("/P"):
                total += max(int(part) if part.isdigit() else 1 for part in s.split("/"))
            else:
                total += 1
        return total

    @property
    def has_x(self) -> bool:
        return any(s in ("X", "Y", "Z") for s in self.symbols)

    def __add__(self, other: ManaCost) -> ManaCost:
        generic = sum(int(s) for s in self.symbols + other.symbols if s.isdigit())
        rest = [s for s in self.symbols + other.symbols if not s.isdigit()]
        return ManaCost(((str(generic),) if generic else ()) + tuple(rest))

    def __str__(self) -> str:
        return "".join(f"{{{s}}}" for s in self.symbols)


def can_pay(available: Sequence[str], cost: ManaCost, x: int = 0) -> bool:
    """Whether mana ``available`` (symbols like ``"R"``, ``"C"``) pays ``cost``.

    Colored symbols need that color, generic and X any mana, a hybrid symbol
    either half (a ``2/B`` half as two mana), a Phyrexian symbol its color.

    >>> can_pay(["R", "G"], ManaCost.parse("{1}{G}{G}"))
    False
    >>> can_pay(["R", "G", "G"], ManaCost.parse("{1}{G}{G}"))
    True
    """
    return pay(available, cost, x) is not None


def pay(available: Sequence[str], cost: ManaCost, x: int = 0) -> tuple[str, ...] | None:
    """The mana left after paying ``cost`` from ``available``, or ``None`` if it can't be paid.

    >>> pay(["R", "G", "G", "U"], ManaCost.parse("{1}{G}{G}"))
    ('U',)
    """
    pool = list(available)

    def take(color: str) -> bool:
        if color in pool:
            pool.remove(color)
            return True
        return False

    generic = 0
    hybrids: list[list[str]] = []
    for s in cost.symbols:
        if s.isdigit():
            generic += int(s)
        elif s in ("X", "Y", "Z"):
            generic += x
        elif s.endswith("/P"):
            if not take(s[0]):
                return None
        elif "/" in s:
            hybrids.append(s.split("/"))
        elif not take(s):
            return None
    for halves in hybrids:
        for half in halves:
            if half.isdigit():
                if len(pool) >= int(half):
                    del pool[: int(half)]
                    break
            elif take(half):
                break
        else:
            return None
    if len(pool) < generic:
        return None
    # Generic mana takes colorless first, then the colors least needed: the pool's order.
    pool.sort(key=lambda m: m != "C")
    return tuple(pool[generic:])


# --------------------------------------------------------------------------- cards

CARD_TYPES = (
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
    "Planeswalker", "Sorcery", "Tribal",
)
SUPERTYPES = ("Basic", "Legendary", "Ongoing", "Snow", "World")
PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})


class Layout(enum.Enum):
    """How a card's faces go together."""

    NORMAL = "normal"
    SPLIT = "split"            # Split Cards — CR 709
    ADVENTURE = "adventure"    # Adventurer Cards — CR 715
    OMEN = "omen"              # Omen Cards — CR 720
    MODAL_DFC = "modal_dfc"    # Double-Faced Cards — CR 712


class FaceKind(enum.Enum):
    NORMAL = "normal"
    LEFT = "left half"
    RIGHT = "right half"
    ADVENTURE = "Adventure"
    OMEN = "Omen"
    FRONT = "front face"
    BACK = "back face"


@dataclass(frozen=True)
class AdditionalCost:
    """An additional cost of a spell: ``sacrifice`` a permanent of a type, ``discard`` a card, or ``mana``.

    ``optional`` costs (kicker) may be paid; mandatory ones must be
    (Casting Spells — CR 601.2b, 601.2h).
    """

    kind: Literal["sacrifice", "discard", "mana"]
    description: str
    optional: bool = False
    type: str | None = None
    mana: ManaCost | None = None


@dataclass(frozen=True)
class Face:
    """One set of characteristics of a card: a whole normal card, a split half,
    an Adventure or Omen, or a face of a modal double-faced card."""

    name: str
    mana_cost: ManaCost | None
    types: frozenset[str]
    subtypes: tuple[str, ...] = ()
    supertypes: frozenset[str] = frozenset()
    power: str | None = None
    toughness: str | None = None
    text: str = ""
    kind: FaceKind = FaceKind.NORMAL
    target: str | None = None
    additional_costs: tuple[AdditionalCost, ...] = ()
    loyalty: str | None = None            # a planeswalker's printed loyalty (Planeswalkers — CR 306.5b)

    @property
    def mana_value(self) -> int:
        """No mana cost counts 0 (Mana Cost and Color — CR 202.3a), X counts 0 (202.3e)."""
        return self.mana_cost.mana_value if self.mana_cost else 0

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def type_line(self) -> str:
        left = " ".join([*sorted(self.supertypes), *sorted(self.types, key=CARD_TYPES.index)])
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left


@dataclass(frozen=True)
class OracleCard:
    """A card as printed (its Oracle text), shared by every copy in a game.

    Split cards have their halves' combined characteristics off the stack
    (Split Cards — CR 709.4); adventurer, omen and modal double-faced cards
    have only their normal or front face's (Adventurer Cards — CR 715.4,
    Omen Cards — CR 720.4, Double-Faced Cards — CR 712.8a).

    >>> fire_ice = OracleCard(
    ...     "Fire // Ice", Layout.SPLIT,
    ...     (Face("Fire", ManaCost.parse("{1}{R}"), frozenset({"Instant"}), kind=FaceKind.LEFT),
    ...      Face("Ice", ManaCost.parse("{1}{U}"), frozenset({"Instant"}), kind=FaceKind.RIGHT)))
    >>> fire_ice.mana_value, str(fire_ice.mana_cost), fire_ice.names
    (4, '{2}{R}{U}', ('Fire', 'Ice'))
    """

    name: str
    layout: Layout
    faces: tuple[Face, ...]
    name_ja: str | None = None
    dredge: int | None = None
    morph: ManaCost | None = None
    disguise: ManaCost | None = None
    indestructible: bool = False
    source: str = ""
    line: int = 0
    color_indicator: frozenset[str] | None = None
    is_token: bool = False

    @classmethod
    def simple(
        cls, name: str, mana_cost: str | None, types: str, *, subtypes: Sequence[str] = (),
        supertypes: Sequence[str] = (), power: str | None = None, toughness: str | None = None,
        text: str = "", target: str | None = None, additional_costs: Sequence[AdditionalCost] = (), **extra: Any,
    ) -> OracleCard:
        """A one-faced card, for examples and tests."""
        face = Face(
            name, ManaCost.parse(mana_cost) if mana_cost else None, frozenset(types.split()),
            tuple(subtypes), frozenset(supertypes), power, toughness, text, FaceKind.NORMAL, target,
            tuple(additional_costs),
        )
        return cls(name, Layout.NORMAL, (face,), **extra)

    @property
    def main(self) -> Face:
        return self.faces[0]

    @property
    def names(self) -> tuple[str, ...]:
        """Both names of a split card (709.4a); otherwise the one name it has off the stack."""
        if self.layout is Layout.SPLIT:
            return tuple(f.name for f in self.faces)
        return (self.main.name,)

    @property
    def mana_cost(self) -> ManaCost | None:
        if self.layout is Layout.SPLIT:
            costs = [f.mana_cost for f in self.faces if f.mana_cost]
            if not costs:
                return None
            total = costs[0]
            for c in costs[1:]:
                total = total + c
            return total
        return self.main.mana_cost

    @property
    def mana_value(self) -> int:
        """A split card's halves add up (709.4b); X and no cost count 0 (202.3a, 202.3e)."""
        if self.layout is Layout.SPLIT:
            return sum(f.mana_value for f in self.faces)
        return self.main.mana_value

    @property
    def types(self) -> frozenset[str]:
        if self.layout is Layout.SPLIT:
            return frozenset().union(*(f.types for f in self.faces))
        return self.main.types

    @property
    def subtypes(self) -> tuple[str, ...]:
        if self.layout is Layout.SPLIT:
            return tuple(dict.fromkeys(s for f in self.faces for s in f.subtypes))
        return self.main.subtypes

    @property
    def supertypes(self) -> frozenset[str]:
        return self.main.supertypes

    @property
    def text(self) -> str:
        return "\n//\n".join(f.text for f in self.faces)

    @functools.cached_property
    def parsed(self) -> ParsedCard:
        """The abilities of its main face, read from its Oracle text by the grammar (:mod:`executable_rules.oracle`)."""
        return parse_card(self.main.name, self.main.text)

    @functools.cached_property
    def colors(self) -> frozenset[str]:
        """Its colours from its mana cost (Colors — CR 105.2, Mana Cost and Color — CR 202.2), or its colour indicator
        (the printed card never changes: computed once)."""
        if self.color_indicator is not None:
            return self.color_indicator
        cost = self.mana_cost
        return frozenset(c for s in (cost.symbols if cost else ()) for c in s.split("/") if c in _COLORS)


class FaceDown(enum.Enum):
    """Why a permanent is face down, which decides its face-down characteristics."""

    MANIFESTED = "manifested"   # Manifest — CR 701.40a
    CLOAKED = "cloaked"         # Cloak — CR 701.58a
    MORPHED = "morphed"         # cast face down with morph: Morph — CR 702.37a
    FORETOLD = "foretold"       # exiled face down with foretell: Foretell — CR 702.143a


@dataclass(eq=False)
class Card:
    """A physical card in a game: its id, owner and Oracle card, and its status.

    The status (controller, counters, face-down state, tapped, types added by
    effects) belongs to the card as a permanent and is reset when it changes
    zones (Counters — CR 122.2). Characteristics read here are the card's off
    the stack; a face-down card has only its face-down characteristics: a 2/2
    creature with no name, no subtypes and no mana cost
    (Face-Down Spells and Permanents — CR 708.2a), with ward {2} if it is
    cloaked (Cloak — CR 701.58a).
    """

    id: int
    owner: str
    oracle: OracleCard
    controller: str | None = None
    counters: dict[str, int] = field(default_factory=dict)
    face_down: FaceDown | None = None
    tapped: bool = False
    added_types: frozenset[str] = frozenset()
    damage: int = 0
    timestamp: int = 0
    phased_out: bool = False      # treated as though it doesn't exist (Phasing — CR 702.26b)
    attached_to: ObjectRef | str | None = None   # the object or player it is attached to (Attach — CR 701.3a)
    printed: OracleCard | None = None   # its own card while it is a copy of another (``oracle`` then holds the
                                        # copiable values it copied: Copying Objects — CR 707.2)

    def __repr__(self) -> str:
        return f"<Card #{self.id} {self.oracle.name} ({self.owner})>"

    @property
    def name(self) -> str | None:
        return None if self.face_down else self.oracle.name

    @property
    def display_name(self) -> str:
        """The name for traces: a face-down card shows as such, with its real name in brackets."""
        if self.face_down:
            return f"face-down card [{self.oracle.name}]"
        return self.oracle.name

    @property
    def mana_cost(self) -> ManaCost | None:
        return None if self.face_down else self.oracle.mana_cost

    @property
    def mana_value(self) -> int:
        return 0 if self.face_down else self.oracle.mana_value

    @property
    def types(self) -> frozenset[str]:
        if self.face_down:
            return frozenset({"Creature"}) | self.added_types
        return self.oracle.types | self.added_types

    @property
    def subtypes(self) -> tuple[str, ...]:
        return () if self.face_down else self.oracle.subtypes

    @property
    def supertypes(self) -> frozenset[str]:
        return frozenset() if self.face_down else self.oracle.supertypes

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def ward(self) -> ManaCost | None:
        return ManaCost(("2",)) if self.face_down is FaceDown.CLOAKED else None

    def _printed(self, value: str | None) -> int | None:
        if value is None:
            return None
        return int(value) if value.lstrip("-").isdigit() else 0

    @property
    def power(self) -> int | None:
        base = 2 if self.face_down else self._printed(self.oracle.main.power)
        if base is None:
            return None
        return base + self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0)

    @property
    def toughness(self) -> int | None:
        base = 2 if self.face_down else self._printed(self.oracle.main.toughness)
        if base is None:
            return None
        return base + self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0)

    @property
    def is_token(self) -> bool:
        return self.oracle.is_token

    def status(self) -> tuple[Any, ...]:
        return (self.controller, tuple(sorted(self.counters.items())), self.face_down,
                self.tapped, self.added_types, self.damage, self.timestamp) + ((True,) if self.phased_out else ()) + (
                    (("attached to", self.attached_to),) if self.attached_to is not None else ()) + (
                    (("a copy of", self.oracle.name),) if self.printed is not None else ())


# --------------------------------------------------------------------------- stack objects and events


@dataclass(frozen=True)
class ObjectRef:
    """An object: a card in the zone it was in when referred to.

    A card that changes zones becomes a new object (Zones — CR 400.7); its
    ``incarnation`` counts its zone changes, so a reference to a permanent that
    has since left the battlefield no longer matches.
    """

    card: int
    incarnation: int


@dataclass(frozen=True)
class Spell:
    """How a card on the stack was cast: which face, X, kicker, targets, and whether its cost was paid."""

    card: int
    controller: str
    face: Face
    x: int = 0
    without_paying: bool = False
    kicked: bool = False
    targets: tuple[ObjectRef | str | None, ...] = ()   # one per target phrase; None: an "up to" target not chosen
    paid: tuple[str, ...] = ()
    spent: tuple[str, ...] = ()   # the mana spent on its costs, by symbol (Sunburst — CR 702.44a counts its colours)
    kicks: tuple[str, ...] = ()      # the kicker costs paid, a multikicker cost once per time (Kicker — CR 702.33d)
    alternative: str = ""            # Casting Spells — CR 601.2b: the alternative cost paid, by its keyword's name

    @property
    def mana_value(self) -> int:
        """The spell's mana value: its face's cost with X as announced (202.3e)."""
        return self.face.mana_cost.mana_value_with_x(self.x) if self.face.mana_cost else 0


@dataclass(frozen=True)
class TriggeredAbility:
    """A triggered ability waiting to be put on the stack, or on it (then ``id`` is set)."""

    source: ObjectRef
    source_name: str
    controller: str
    ability: str
    event: Event
    id: int = 0
    targets: tuple[ObjectRef | str, ...] = ()
    line: int = 0                 # the line of the source's Oracle text this ability is
    activated: bool = False       # an activated ability (Activating Activated Abilities — CR 602) rather than triggered
    x: int = 0
    keyword: str = ""             # a keyword ability's trigger (Cumulative Upkeep): its module resolves it
    delayed: DelayedTrigger | None = None   # a delayed triggered ability (603.7): what it does and refers to
    spell: Spell | None = None    # the spell whose casting triggered it, as cast (storm copies it even if countered)
    mode: int = 0                 # a modal ability's chosen mode: the line of its bullet (603.3c)

    @property
    def label(self) -> str:
        return f"{self.source_name}'s ability"


@dataclass(frozen=True)
class DelayedTrigger:
    """A delayed triggered ability a resolving spell or ability created ("… at the beginning of the next end step":
    Handling Triggered Abilities — CR 603.7a). It triggers once, the next time its step begins (603.7b–c); ``refers``
    are the objects its "it", "that card" or "them" mean (the ones the effect that created it affected: a card that
    has since changed zones is a new object it can't find, Zones — CR 400.7); ``body`` is the parse tree of its
    effect, read from the creating ability's text."""

    source: ObjectRef
    source_name: str
    controller: str
    step: str                     # the model's step name: "end step", "upkeep", "cleanup"
    own_turn: bool                # "your next upkeep": only at the beginning of its controller's turn's step
    ability: str                  # its text, for traces
    refers: tuple[ObjectRef, ...]
    body: Any = field(compare=False, repr=False)
    after_turn: int = 0           # "the next turn's upkeep": not this turn's


@dataclass(frozen=True)
class PreventionShield:
    """"The next time a red source of your choice would deal damage to you this turn, prevent that damage": a shield
    that prevents the next damage ``source`` would deal to ``player`` this ``turn``, if it still has ``quality``
    then (Prevention Effects — CR 615.8, 615.9)."""

    player: str
    source: ObjectRef
    quality: str          # a colour word ("red"), or "" for any source
    turn: int
    name: str             # what made it, for traces


@dataclass(frozen=True)
class Effect:
    """A lasting effect of a spell that has resolved, such as Shadow of Doubt's for this turn."""

    name: str
    controller: str
    description: str = ""


class EventKind(str, enum.Enum):
    """What happened; the value is the word used in traces and in scenario expectations."""

    MOVE = "move"
    REVEAL = "reveal"
    LOOK = "look"
    SHUFFLE = "shuffle"
    RANDOM_ORDER = "random order"
    COUNTER = "counter"
    CAST = "cast"
    CHOICE = "choice"
    SEARCH = "search"
    FIND = "find"
    DISCOVER = "discover"
    EXPLORE = "explore"
    MANIFEST = "manifest"
    CLOAK = "cloak"
    MANIFEST_DREAD = "manifest dread"
    COLLECT_EVIDENCE = "collect evidence"
    DRAW = "draw"
    DREDGE = "dredge"
    MILL = "mill"
    EXILE = "exile"
    TRIGGER = "trigger"
    RESOLVE = "resolve"
    NOT_RESOLVED = "not resolved"
    LIFE = "life"
    VILLAINOUS_CHOICE = "villainous choice"
    TURN_FACE_UP = "turn face up"
    CONTROL = "control"
    NOTHING = "nothing"
    DAMAGE = "damage"
    ATTACK = "attack"
    BLOCK = "block"
    TAP = "tap"
    UNTAP = "untap"
    MANA = "mana"
    CREATE = "create"
    STEP = "step"
    STATE_BASED = "state-based action"
    SCRY = "scry"
    PROLIFERATE = "proliferate"
    CONNIVE = "connive"
    AMASS = "amass"
    CLASH = "clash"
    VOTE = "vote"
    SURVEIL = "surveil"
    INVESTIGATE = "investigate"
    FIGHT = "fight"
    GOAD = "goad"
    EFFECT = "effect"
    LOSE = "lose"
    PAY = "pay"
    CYCLE = "cycle"
    ATTACH = "attach"           # an Aura, Equipment or Fortification attached or unattached (Attach — CR 701.3)
    TARGET = "target"           # a permanent became the target of a spell or ability (ward triggers: Ward — CR 702.21a)
    DEALT_DAMAGE = "dealt damage"   # a player was dealt damage: one event for all the damage dealt to them at once


@dataclass(frozen=True)
class Event:
    """One thing that happened, for the trace and for triggered abilities."""

    kind: EventKind
    player: str | None = None
    cards: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    source: str | None = None
    destination: str | None = None
    detail: str = ""
    citation: Citation | None = None
    amount: int = 0

    def describe(self) -> str:
        """A line of the trace, e.g. ``Alice: exile Shock from Alice's library to exile (Exile — CR 701.13a)``."""
        parts = [f"{self.player}:" if self.player else "", "note" if self.kind is EventKind.NOTHING else self.kind.value]
        if self.names:
            parts.append(", ".join(self.names))
        if self.source:
            parts.append(f"from {self.source}" if self.names else self.source)
        if self.destination:
            parts.append(f"to {self.destination}")
        text = " ".join(p for p in parts if p)
        if self.detail:
            text += f" — {self.detail}"
        if self.citation:
            text += f" ({self.citation})"
        return text


@dataclass(frozen=True)
class LastKnown:
    """Last known information about a permanent that left the battlefield."""

    controller: str
    name: str | None
    types: frozenset[str]
    incarnation: int
    face_down: bool = False
    counters: tuple[tuple[str, int], ...] = ()   # as it last existed (persist, undying: Persist — CR 702.79a)
    attached_to: ObjectRef | str | None = None   # what it was attached to ("enchanted creature" after it left)


# --------------------------------------------------------------------------- players and the game state


@dataclass(eq=False)
class Player:
    """A player, their own zones, life and the mana they have available."""

    name: str
    library: Zone
    hand: Zone
    graveyard: Zone
    outside: Zone
    life: int = 20
    mana: tuple[str, ...] = ()
    drew_from_empty_library: bool = False
    poison: int = 0
    lost: bool = False
    lands_played: int = 0
    land_plays: int = 1       # lands this player may play this turn (Lands — CR 305.2)

    def zone(self, kind: ZoneKind) -> Zone:
        return {
            ZoneKind.LIBRARY: self.library, ZoneKind.HAND: self.hand,
            ZoneKind.GRAVEYARD: self.graveyard, ZoneKind.OUTSIDE: self.outside,
        }[kind]


_MISSING = object()


Watcher = Callable[["GameState", Event], None]
"""Called with every event as it happens: how the engine notes triggered abilities (engine/triggers.py)."""

MoveReplacement = Callable[["GameState", int, "Zone"], "tuple[Zone, Callable[[], None]] | None"]
"""Asked before a card moves to a zone: ``None``, or the zone it goes to instead and what to do once it is there
(replacement effects such as "shuffle it into its owner's library instead", engine/replacement.py)."""


@dataclass(frozen=True)
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (Continuous Effects — CR 611.2).

    ``layer`` is where it applies (Interaction of Continuous Effects — CR 613.1:
    ``4`` type, ``5`` colour, ``6`` abilities, ``7b`` setting P/T, ``7c``
    modifying it, ``7d`` switching); it affects the objects in ``affected``
    (references, so a card that changes zones is no longer affected, Zones — CR 400.7);
    ``duration`` is ``until end of turn`` (ends in the cleanup step, Cleanup Step — CR 514.2),
    ``until your next turn`` (ends as the next turn of ``until_turn_of`` — the player whose "your" it is —
    begins, not at any turn change: Continuous Effects — CR 611.2a) or ``indefinitely``.
    """

    source: str
    layer: str
    affected: tuple[ObjectRef, ...]
    timestamp: int
    power: int = 0
    toughness: int = 0
    colors: frozenset[str] | None = None
    types: frozenset[str] = frozenset()
    keywords: tuple[str, ...] = ()
    duration: str = "until end of turn"
    subtypes: tuple[str, ...] = ()     # layer 4: subtypes added ("it becomes a Zombie in addition", Amass — CR 701.47a)
    until_turn_of: str = ""            # "until your next turn": whose next turn ends it
    player: str = ""                   # a permission's player ("you may cast spells as though they had flash")
    permission: str = ""               # what it permits: "cast as though flash: <spells described>" (no layer)


@dataclass(frozen=True)
class Combat:
    """Who is attacking what and who blocks whom this combat (Combat Phase — CR 506), kept as references so a
    permanent that leaves the battlefield is no longer in combat (506.4). Replaced whole (undoable) as it changes.

    ``attackers`` pairs each attacking creature with what it attacks: a player's name or a planeswalker;
    ``blocks`` pairs each blocking creature with an attacker it blocks; ``blocked`` are the attackers that became
    blocked (Declare Blockers Step — CR 509.1h: they stay blocked when their blockers leave);
    ``first_strikers`` the creatures that had first strike or double strike as the first-strike combat damage
    step began (Combat Damage Step — CR 510.4); ``damage_steps`` how many combat damage steps are over.
    """

    attackers: tuple[tuple[ObjectRef, ObjectRef | str], ...] = ()
    blocks: tuple[tuple[ObjectRef, ObjectRef], ...] = ()
    blockers_declared: bool = False
    blocked: frozenset[ObjectRef] = frozenset()
    first_strikers: frozenset[ObjectRef] | None = None
    damage_steps: int = 0


@dataclass(eq=False)
class GameState:
    """Players in turn order, the shared zones, every card, the stack's objects and the log.

    Use :meth:`new` to make one. ``events`` is the log of what happened, in
    order; ``history`` names each action with the checkpoint before it, so
    :meth:`undo` can take the last one back.
    """

    players: list[Player]
    battlefield: Zone
    stack: Zone
    exile: Zone
    rng: random.Random
    active: str
    cards: dict[int, Card] = field(default_factory=dict)
    spells: dict[int, Spell] = field(default_factory=dict)
    abilities: dict[int, TriggeredAbility] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pending_triggers: list[TriggeredAbility] = field(default_factory=list)
    delayed_triggers: list[DelayedTrigger] = field(default_factory=list)   # created, not yet triggered (603.7)
    prevention_shields: list[PreventionShield] = field(default_factory=list)   # not yet used (615.8)
    last_known: dict[int, LastKnown] = field(default_factory=dict)
    incarnation: dict[int, int] = field(default_factory=dict)
    once_each_turn: set[tuple[int, str]] = field(default_factory=set)
    continuous: list[ContinuousEffect] = field(default_factory=list)
    turn: int = 1
    step: str = "precombat main"
    turn_started: int = 0        # index in ``events`` where this turn began
    kicked: set[tuple[int, int]] = field(default_factory=set)   # (card, incarnation) of permanents whose spell was kicked
    combat: Combat | None = None  # attackers and blockers during the combat phase (Combat Phase — CR 506)
    deathtouched: frozenset[ObjectRef] = frozenset()  # dealt damage by a deathtouch source since SBAs were last checked
    designations: set[tuple[int, int, str]] = field(default_factory=set)   # (card, incarnation, name): monstrous, exerted, …
    kicked_with: dict[tuple[int, int], tuple[tuple[bool, str], ...]] = field(default_factory=dict)   # their kicker costs
    flashback_cast: list[tuple[int, int]] = field(default_factory=list)   # (card, incarnation) of spells cast with flashback
    escaped: list[tuple[int, int]] = field(default_factory=list)          # … and of spells cast with escape
    aftermath_cast: list[tuple[int, int]] = field(default_factory=list)   # … and of aftermath halves cast from a graveyard
    spent_to_cast: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)   # permanent → mana cast with
    exiled_until: list[tuple[ObjectRef, ObjectRef]] = field(default_factory=list)  # (permanent, card exiled until it leaves)
    moving_at_once: tuple[int, ...] = ()   # cards an event is moving simultaneously (state-based actions: 704.3)
    watchers: list[Watcher] = field(default_factory=list)
    move_replacements: list[MoveReplacement] = field(default_factory=list)
    history: list[tuple[str, int]] = field(default_factory=list)
    next_id: int = 1
    next_timestamp: int = 0
    _depth: int = 0
    rolled_back_events: list[Event] = field(default_factory=list, repr=False)
    _where: dict[int, Zone] = field(default_factory=dict)
    _undo: list[tuple[Any, ...]] = field(default_factory=list)

    @classmethod
    def new(cls, player_names: Sequence[str], *, seed: int = 0, active: str | None = None) -> GameState:
        """A game with these players in turn order; the first is active unless ``active`` says."""
        if len(set(player_names)) != len(player_names) or not player_names:
            raise ValueError(f"players need distinct names, got {list(player_names)}")
        players = [
            Player(n, Zone(ZoneKind.LIBRARY, n), Zone(ZoneKind.HAND, n), Zone(ZoneKind.GRAVEYARD, n),
                   Zone(ZoneKind.OUTSIDE, n))
            for n in player_names
        ]
        active = active or player_names[0]
        if active not in player_names:
            raise ValueError(f"active player {active!r} is not one of {list(player_names)}")
        return cls(players, Zone(ZoneKind.BATTLEFIELD, None), Zone(ZoneKind.STACK, None),
                   Zone(ZoneKind.EXILE, None), random.Random(seed), active)

    # ---- looking things up

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(f"no player {name!r}; players are {[p.name for p in self.players]}")

    def apnap(self) -> list[Player]:
        """Players in APNAP order: the active player, then the others in turn order (The Magic Golden Rules — CR 101.4)."""
        i = next(i for i, p in enumerate(self.players) if p.name == self.active)
        return self.players[i:] + self.players[:i]

    def opponents(self, name: str) -> list[Player]:
        return [p for p in self.players if p.name != name]

    def zone(self, kind: ZoneKind, owner: str | None = None) -> Zone:
        if kind.is_per_player:
            if owner is None:
                raise ValueError(f"say whose {kind.value}")
            return self.player(owner).zone(kind)
        return {ZoneKind.BATTLEFIELD: self.battlefield, ZoneKind.STACK: self.stack,
                ZoneKind.EXILE: self.exile}[kind]

    def zone_of(self, card: int) -> Zone:
        return self._where[card]

    def names(self, zone: Zone) -> list[str]:
        """The cards of a zone by name (a face-down card as such), in the zone's order."""
        return [self.cards[c].display_name if c in self.cards else self.abilities[c].label for c in zone.cards]

    def controller_of(self, card: int) -> str:
        """A permanent's or spell's controller, else the card's owner."""
        c = self.cards[card]
        if c.controller:
            return c.controller
        if card in self.spells:
            return self.spells[card].controller
        return c.owner

    def ref(self, card: int) -> ObjectRef:
        """The object this card is now."""
        return ObjectRef(card, self.incarnation.get(card, 0))

    def is_current(self, ref: ObjectRef) -> bool:
        """Whether ``ref`` still is the object it was (the card hasn't changed zones since)."""
        return ref.card in self.cards and self.incarnation.get(ref.card, 0) == ref.incarnation

    def permanents(self, controller: str | None = None) -> list[Card]:
        """The permanents (of ``controller``); a phased-out one is treated as though it doesn't exist
        (Phasing — CR 702.26b)."""
        return [self.cards[c] for c in self.battlefield.cards
                if (controller is None or self.cards[c].controller == controller) and not self.cards[c].phased_out]

    # ---- the undo log

    def checkpoint(self) -> int:
        """A mark to :meth:`rollback` to."""
        return len(self._undo)

    def rollback(self, mark: int) -> None:
        """Undo every change made since ``checkpoint()`` returned ``mark``."""
        while self.history and self.history[-1][1] >= mark:
            self.history.pop()
        log = self._undo
        while len(log) > mark:
            entry = log.pop()
            op = entry[0]
            if op == "attr":
                setattr(entry[1], entry[2], entry[3])
            elif op == "item":
                if entry[3] is _MISSING:
                    del entry[1][entry[2]]
                else:
                    entry[1][entry[2]] = entry[3]
            elif op == "insert":
                entry[1].insert(entry[2], entry[3])
            elif op == "pop":
                entry[1].pop(entry[2])
            elif op == "list":
                entry[1][:] = entry[2]
            elif op == "rng":
                self.rng.setstate(entry[1])
            elif op == "discard":
                entry[1].discard(entry[2])
            elif op == "restore set":
                entry[1].clear()
                entry[1].update(entry[2])
            else:  # pragma: no cover - every op is handled above
                raise ImpossibleState(f"unknown undo entry {op!r}")

    @contextlib.contextmanager
    def action(self, name: str) -> Iterator[None]:
        """Bracket an action, so :meth:`undo` can take it back whole.

        Actions nest (discover casts a spell): only the outermost is recorded.
        An action that raises (an illegal choice) is rolled back whole, so the
        state is as it was before it began.
        """
        outer = self._depth == 0
        mark = len(self._undo)
        if outer:
            self.history.append((name, mark))
        self._depth += 1
        try:
            yield
        except BaseException:
            if outer:
                # Kept for the trace of what led to the error; not part of the state.
                self.rolled_back_events = [e for e in self.events]
                self.rollback(mark)
            raise
        finally:
            self._depth -= 1

    def undo(self) -> str:
        """Take back the last action (see :meth:`action`); return its name."""
        if not self.history:
            raise IndexError("nothing to undo")
        action, mark = self.history.pop()
        self.rollback(mark)
        return action

    def set(self, obj: object, attr: str, value: object) -> None:
        """Set an attribute of a card or player, recording the old value."""
        self._undo.append(("attr", obj, attr, getattr(obj, attr)))
        setattr(obj, attr, value)

    def set_item(self, mapping: dict[Any, Any], key: object, value: object) -> None:
        self._undo.append(("item", mapping, key, mapping.get(key, _MISSING)))
        mapping[key] = value

    def delete_item(self, mapping: dict[Any, Any], key: object) -> None:
        if key in mapping:
            self._undo.append(("item", mapping, key, mapping[key]))
            del mapping[key]

    def append(self, items: list[Any], item: object) -> None:
        items.append(item)
        self._undo.append(("pop", items, len(items) - 1))

    def replace_list(self, items: list[Any], new: Iterable[Any]) -> None:
        self._undo.append(("list", items, list(items)))
        items[:] = list(new)

    def mark_once(self, key: tuple[int, str]) -> None:
        self.once_each_turn.add(key)
        self._undo.append(("discard", self.once_each_turn, key))

    def mark_kicked(self, card: int, kicks: tuple[str, ...] = ()) -> None:
        """The permanent ``card`` now is entered from a kicked spell (Kicker — CR 702.33d), kicked with ``kicks``."""
        key = (card, self.incarnation.get(card, 0))
        self.kicked.add(key)
        self._undo.append(("discard", self.kicked, key))
        if kicks:
            self.set_item(self.kicked_with, key, tuple((True, k) for k in kicks))

    def designate(self, card: int, name: str) -> None:
        """The permanent ``card`` now has the designation ``name`` ("monstrous": Monstrosity — CR 701.37b;
        "exerted", "detained by Alice"); it is keyed by the object, so it ends when the card changes zones (400.7)."""
        key = (card, self.incarnation.get(card, 0), name)
        if key not in self.designations:
            self.designations.add(key)
            self._undo.append(("discard", self.designations, key))

    def undesignate(self, card: int, name: str) -> None:
        key = (card, self.incarnation.get(card, 0), name)
        if key in self.designations:
            self._undo.append(("restore set", self.designations, set(self.designations)))
            self.designations.discard(key)

    def has_designation(self, card: int, name: str) -> bool:
        return (card, self.incarnation.get(card, 0), name) in self.designations

    def clear_once_each_turn(self) -> None:
        """A new turn: "only once each turn" abilities may trigger again."""
        self._undo.append(("restore set", self.once_each_turn, set(self.once_each_turn)))
        self.once_each_turn.clear()

    def cease_to_exist(self, card: int) -> None:
        """A token leaves the game for good (Tokens — CR 111.7)."""
        zone = self._where[card]
        index = zone.cards.index(card)
        zone.cards.pop(index)
        self._undo.append(("insert", zone.cards, index, card))
        self.delete_item(self._where, card)
        self.delete_item(self.cards, card)

    def random_order(self, items: list[int]) -> list[int]:
        """``items`` in a random order from the seeded generator (undoable)."""
        self._undo.append(("rng", self.rng.getstate()))
        shuffled = list(items)
        self.rng.shuffle(shuffled)
        return shuffled

    # ---- changing the game

    def add_card(self, oracle: OracleCard, owner: str, zone: ZoneKind, *, controller: str | None = None,
                 position: Literal["top", "bottom"] = "bottom") -> int:
        """Put a new card into a zone during setup (library cards go to the bottom, so a list reads top first)."""
        card_id = self.next_id
        self.set(self, "next_id", card_id + 1)
        card = Card(card_id, owner, oracle)
        self.set_item(self.cards, card_id, card)
        target = self.zone(zone, owner)
        index = 0 if position == "top" else len(target.cards)
        target.cards.insert(index, card_id)
        self._undo.append(("pop", target.cards, index))
        self.set_item(self._where, card_id, target)
        if zone is ZoneKind.BATTLEFIELD:
            self.set(card, "controller", controller or owner)
            self.set(card, "timestamp", self.stamp())
        return card_id

    def move(self, card: int, to: Zone, *, position: Literal["top", "bottom"] | int = "top",
             controller: str | None = None, face_down: FaceDown | None = None) -> None:
        """Move a card to a zone (the top of a library unless ``position`` says).

        Cards go to their owner's library, hand and graveyard (Zones — CR 400.3).
        A card that changes zones is a new object (400.7): its counters,
        controller and other status end (Counters — CR 122.2), and a face-down
        permanent leaving the battlefield is revealed
        (Face-Down Spells and Permanents — CR 708.9).
        """
        c = self.cards[card]
        after: Callable[[], None] | None = None
        for replacement in self.move_replacements:
            instead = replacement(self, card, to)
            if instead is not None:
                to, after = instead
                break
        if to.kind.is_per_player and to.owner != c.owner:
            raise ImpossibleState(f"{c.oracle.name} belongs in {c.owner}'s {to.kind.value}, not {to.label}")
        src = self._where[card]
        index = src.cards.index(card)
        src.cards.pop(index)
        self._undo.append(("insert", src.cards, index, card))
        if src.kind is ZoneKind.BATTLEFIELD:
            self.set_item(self.last_known, card, LastKnown(
                c.controller or c.owner, c.name, c.types, self.incarnation.get(card, 0), c.face_down is not None,
                tuple(sorted((k, n) for k, n in c.counters.items() if n)), c.attached_to))
            if c.face_down:
                self.emit(EventKind.REVEAL, c.owner, (card,), source=src.label, detail="a face-down permanent leaving the battlefield is revealed",
                          citation=Citation("Face-Down Spells and Permanents", "708.9"))
        if src.kind is ZoneKind.STACK:
            self.delete_item(self.spells, card)
        if c.printed is not None:          # a copy effect ends as it leaves: it is its own card again (707.2, 400.7)
            self.set(c, "oracle", c.printed)
            self.set(c, "printed", None)
        for attr, fresh in (("controller", None), ("counters", {}), ("face_down", None),
                            ("tapped", False), ("added_types", frozenset()), ("damage", 0), ("timestamp", 0),
                            ("phased_out", False), ("attached_to", None)):
            if getattr(c, attr) != fresh:
                self.set(c, attr, fresh if attr != "counters" else {})
        if to.kind is ZoneKind.BATTLEFIELD:
            self.set(c, "controller", controller or c.owner)
            self.set(c, "timestamp", self.stamp())
            if face_down:
                self.set(c, "face_down", face_down)
        self.set_item(self.incarnation, card, self.incarnation.get(card, 0) + 1)
        if position == "top":
            index = 0 if to.kind is ZoneKind.LIBRARY else len(to.cards)
        elif position == "bottom":
            index = len(to.cards) if to.kind is ZoneKind.LIBRARY else 0
        else:
            index = position
        to.cards.insert(index, card)
        self._undo.append(("pop", to.cards, index))
        self.set_item(self._where, card, to)
        if after is not None:
            after()

    def add_counters(self, card: int, kind: str, amount: int) -> None:
        c = self.cards[card]
        counters = dict(c.counters)
        counters[kind] = counters.get(kind, 0) + amount
        self.set(c, "counters", counters)

    def emit(self, kind: EventKind, player: str | None = None, cards: Sequence[int] = (), *,
             source: str | None = None, destination: str | None = None, detail: str = "",
             citation: Citation | None = None, amount: int = 0, names: Sequence[str] | None = None) -> Event:
        """Log an event and note the triggered abilities it triggers."""
        event = Event(kind, player, tuple(cards),
                      tuple(names) if names is not None else tuple(self.cards[c].display_name for c in cards),
                      source, destination, detail, citation, amount)
        self.append(self.events, event)
        for watcher in self.watchers:
            watcher(self, event)
        return event

    def stamp(self) -> int:
        """The next timestamp (Interaction of Continuous Effects — CR 613.7)."""
        self.set(self, "next_timestamp", self.next_timestamp + 1)
        return self.next_timestamp

    # ---- copies, snapshots and consistency

    def copy(self) -> GameState:
        """An independent copy (cards, zones and the random generator), with empty history."""
        new = GameState.new([p.name for p in self.players], active=self.active)
        new.rng.setstate(self.rng.getstate())
        for p, q in zip(self.players, new.players):
            q.life, q.mana, q.drew_from_empty_library = p.life, p.mana, p.drew_from_empty_library
            q.poison, q.lost, q.lands_played, q.land_plays = p.poison, p.lost, p.lands_played, p.land_plays
        zones = {id(self.battlefield): new.battlefield, id(self.stack): new.stack, id(self.exile): new.exile}
        for p, q in zip(self.players, new.players):
            for kind in (ZoneKind.LIBRARY, ZoneKind.HAND, ZoneKind.GRAVEYARD, ZoneKind.OUTSIDE):
                zones[id(p.zone(kind))] = q.zone(kind)
        for card_id, card in self.cards.items():
            new.cards[card_id] = Card(card.id, card.owner, card.oracle, card.controller, dict(card.counters),
                                      card.face_down, card.tapped, card.added_types, card.damage, card.timestamp,
                                      card.phased_out, card.attached_to)
        for zone_src in [self.battlefield, self.stack, self.exile] + [
            p.zone(k) for p in self.players for k in (ZoneKind.LIBRARY, ZoneKind.HAND, ZoneKind.GRAVEYARD, ZoneKind.OUTSIDE)
        ]:
            target = zones[id(zone_src)]
            target.cards = list(zone_src.cards)
            for c in target.cards:
                if c in new.cards:
                    new._where[c] = target
        new.spells = dict(self.spells)
        new.abilities = dict(self.abilities)
        new.effects = list(self.effects)
        new.events = list(self.events)
        new.pending_triggers = list(self.pending_triggers)
        new.delayed_triggers = list(self.delayed_triggers)
        new.prevention_shields = list(self.prevention_shields)
        new.last_known = dict(self.last_known)
        new.incarnation = dict(self.incarnation)
        new.once_each_turn = set(self.once_each_turn)
        new.continuous = list(self.continuous)
        new.turn, new.step, new.watchers = self.turn, self.step, list(self.watchers)
        new.move_replacements = list(self.move_replacements)
        new.turn_started = self.turn_started
        new.kicked = set(self.kicked)
        new.combat, new.deathtouched = self.combat, self.deathtouched
        new.designations = set(self.designations)
        new.kicked_with = dict(self.kicked_with)
        new.flashback_cast = list(self.flashback_cast)
        new.escaped = list(self.escaped)
        new.aftermath_cast = list(self.aftermath_cast)
        new.exiled_until = list(self.exiled_until)
        new.spent_to_cast = dict(self.spent_to_cast)
        new.next_id = self.next_id
        new.next_timestamp = self.next_timestamp
        return new

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes this state what it is, as a hashable value (ids included)."""
        zones = [self.battlefield, self.stack, self.exile] + [
            p.zone(k) for p in self.players for k in (ZoneKind.LIBRARY, ZoneKind.HAND, ZoneKind.GRAVEYARD, ZoneKind.OUTSIDE)
        ]
        return (
            tuple((p.name, p.life, p.mana, p.drew_from_empty_library, p.poison, p.lost, p.lands_played, p.land_plays)
                  for p in self.players),
            tuple((z.label, tuple(z.cards)) for z in zones),
            tuple((c.id, c.status()) for c in self.cards.values()),
            tuple(sorted(self.spells.items())), tuple(sorted(self.abilities.items())),
            tuple(self.effects), tuple(self.events), tuple(self.pending_triggers), tuple(self.delayed_triggers),
            tuple(self.prevention_shields),
            tuple(sorted(self.last_known.items())), tuple(sorted(self.incarnation.items())),
            tuple(sorted(self.once_each_turn)), tuple(self.continuous), self.turn, self.step, self.rng.getstate(),
            self.combat, tuple(sorted(self.deathtouched, key=lambda r: (r.card, r.incarnation))),
            tuple(sorted(self.designations)),
        )

    def problems(self) -> list[str]:
        """What is impossible about this state (an empty list when all is well).

        Each card is in exactly one zone, and it is the zone the state thinks;
        cards in a library, hand or graveyard are their owner's; only permanents
        have a controller, counters, a face-down state or added types (a
        face-down card may also be a face-down spell, which we don't model);
        the stack's objects all have their record; counters aren't negative.
        """
        found: list[str] = []
        seen: dict[int, str] = {}
        zones = [self.battlefield, self.stack, self.exile] + [
            p.zone(k) for p in self.players for k in (ZoneKind.LIBRARY, ZoneKind.HAND, ZoneKind.GRAVEYARD, ZoneKind.OUTSIDE)
        ]
        for z in zones:
            for c in z.cards:
                if c in seen:
                    found.append(f"card #{c} is in both {seen[c]} and {z.label}")
                seen[c] = z.label
                if c in self.abilities:
                    if z is not self.stack:
                        found.append(f"ability #{c} is in {z.label}, not on the stack")
                    continue
                if c not in self.cards:
                    found.append(f"{z.label} holds #{c}, which is no card")
                    continue
                card = self.cards[c]
                if self._where.get(c) is not z:
                    found.append(f"{card!r} is in {z.label} but recorded elsewhere")
                if z.kind.is_per_player and z.owner != card.owner:
                    found.append(f"{card!r} is in {z.label}, not its owner's {z.kind.value}")
                if z is not self.battlefield:
                    # Cards in exile may have counters: a suspended card's time counters (Suspend — CR 702.62a).
                    counters = card.counters if z is not self.exile else {}
                    # … and a foretold card is face down there (Foretell — CR 702.143a).
                    face_down = card.face_down if not (z is self.exile and card.face_down is FaceDown.FORETOLD) else None
                    if (card.controller or counters or face_down or card.added_types or card.tapped or card.damage
                            or card.attached_to is not None):
                        found.append(f"{card!r} in {z.label} has a permanent's status {card.status()}")
                else:
                    if not card.controller:
                        found.append(f"{card!r} is on the battlefield with no controller")
                if z is self.stack and c not in self.spells:
                    found.append(f"{card!r} is on the stack with no record of how it was cast")
                if any(n < 0 for n in card.counters.values()):
                    found.append(f"{card!r} has a negative number of counters")
        for c in self.cards:
            if c not in seen:
                found.append(f"{self.cards[c]!r} is in no zone")
        for s in self.spells:
            if s not in self.stack.cards:
                found.append(f"spell record for #{s} but the card is not on the stack")
        return found
