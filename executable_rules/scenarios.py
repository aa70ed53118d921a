"""Scenarios as data: load them from ``data/scenarios/*.toml``, run them, and say what happened.

A scenario is a small game situation, an action with its decisions, and what
must come of it, with the rule it illustrates and where it comes from (a CR
example, a wiki ruling, a card ruling, or our own). The file format is
documented in ``data/scenarios/README.md``; :func:`load_scenarios` checks it
and raises :class:`ingest.records.SourceError` (``path:line: message``) for
anything wrong, card names included. :func:`run_scenario` builds the state,
runs the steps with the scripted decisions (or, with ``explore = true``,
every legal combination of them), checks the expectations and keeps a
readable trace: every card moved, every choice made and the options that were
illegal, with the rule that made them so.

>>> scenarios = {s.id: s for s in load_scenarios()}
>>> result = run_scenario(scenarios["discover-701.57a-split-card-total"])
>>> result.passed
True
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence

from ingest.records import SourceError

from .actions import ACTIONS, find_action, module_name, UnknownAction
from .actions.cast import cast_without_paying
from .actions.cloak import cloak
from .actions.discover import discover
from .actions.draw import draw
from .actions.dredge import dredge
from .actions.exile import exile
from .actions.explore import explore as explore_action
from .actions.manifest import manifest
from .actions.manifest_dread import manifest_dread
from .actions.mill import mill
from .actions.reveal import reveal
from .actions.search import CardQuery, Find, search
from .actions.villainous_choice import VillainousOption, face_villainous_choice
from .card_pool import PROJECT_ROOT, CardPool, UnknownCard, load_card_pool
from .choices import Chooser, Decision, Option, Scripted, decide, explore
from .citation import Citation
from .errors import ExplorationLimit, IllegalChoice, Unimplemented, UnknownOption
from .face_down import turn_face_up
from .tokens import predefined_token
from .instructions import VERBS, Instruction, is_possible, perform
from .engine import stack as engine_stack
from .engine import triggers as engine_triggers
from .engine import turn as engine_turn
from .engine.game import new_game
from .engine.layers import characteristics
from .model import Effect, EventKind, FaceDown, GameState, ObjectRef, ZoneKind

SCENARIO_DIR = PROJECT_ROOT / "data" / "scenarios"
OUT_OF_SCOPE = "out_of_scope.toml"
SOURCE_KINDS = {
    "cr-example": ("rule", "seq", "text"),
    "wiki-ruling": ("page", "text"),
    "card-ruling": ("card", "date", "text"),
    "engine-test": ("project", "file", "test"),
    "own": (),
}
ENGINE_PROJECTS = ("XMage", "Forge", "phase.rs")
SCENARIO_KEYS = {"id", "rule", "title", "source", "also", "seed", "explore", "decisions", "setup", "action",
                 "expect", "outcomes", "unread_ok"}
PLAYER_ZONES = {"library", "hand", "graveyard", "battlefield", "exile", "outside", "mana", "life", "poison"}
ZONE_NAMES = {"library": ZoneKind.LIBRARY, "hand": ZoneKind.HAND, "graveyard": ZoneKind.GRAVEYARD,
              "exile": ZoneKind.EXILE, "battlefield": ZoneKind.BATTLEFIELD, "outside": ZoneKind.OUTSIDE,
              "stack": ZoneKind.STACK}
RULE_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]?$")


# ------------------------------------------------------------------ the scenario record


@dataclass
class Scenario:
    """One scenario of a file, as loaded (values are still the TOML values)."""

    id: str
    keyword: str
    module: ModuleType
    rules: tuple[str, ...]
    title: str
    source: dict[str, Any]
    also: tuple[Citation, ...]
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    decisions: list[str]
    explore: bool
    expect: dict[str, Any]
    outcomes: list[dict[str, Any]]
    seed: int
    path: str
    line: int
    lines: tuple[str, ...] = field(repr=False, default=())
    end: int = 0
    # Lines of its permanents that the grammar doesn't read and that what the scenario claims doesn't depend on,
    # each with the reason: {"Card name: line N": "why"} (``unread_ok``; checked by :func:`_say_what_was_not_read`).
    unread_ok: dict[str, str] = field(default_factory=dict)

    def line_of(self, key: str) -> int:
        """The line of ``key`` inside this scenario, else the scenario's first line."""
        pattern = re.compile(rf"^\s*(\[\[?scenario\.)?{re.escape(key)}\b")
        for i in range(self.line - 1, min(self.end, len(self.lines))):
            if pattern.search(self.lines[i]) or f'"{key}"' in self.lines[i]:
                return i + 1
        return self.line

    def error(self, key: str, message: str) -> SourceError:
        return SourceError(self.path, self.line_of(key), f"scenario {self.id!r}: {message}")

    @property
    def source_kind(self) -> str:
        return str(self.source["kind"])


@dataclass
class ScenarioResult:
    """A scenario's run: pass or fail, why it failed, and the trace."""

    scenario: Scenario
    passed: bool
    failures: list[str]
    trace: list[str]
    outcomes: int = 1
    # Lines of its permanents' text the grammar doesn't read (:func:`unread_in_play`): a pass with some
    # may pass only because a line that matters was never applied. Those the scenario declares it doesn't
    # depend on (``unread_ok``) are in ``unread_declared`` instead.
    unread: list[str] = field(default_factory=list)
    unread_declared: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        s = self.scenario
        return {
            "id": s.id, "keyword": s.keyword, "rules": list(s.rules), "title": s.title, "source": s.source,
            "file": f"{s.path}:{s.line}", "passed": self.passed, "failures": self.failures,
            "outcomes": self.outcomes, "trace": self.trace, "unread": self.unread,
            "unread_declared": self.unread_declared,
        }


# ------------------------------------------------------------------ loading


def toml_error_line(error: tomllib.TOMLDecodeError) -> int | None:
    """The line tomllib names in its message ("… (at line 15, column 6)")."""
    m = re.search(r"at line (\d+)", str(error))
    return int(m.group(1)) if m else None


def _closest(word: str, words: Sequence[str]) -> str:
    near = difflib.get_close_matches(word, list(words), n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return str(path)


def load_scenario_file(path: Path, pool: CardPool | None = None) -> list[Scenario]:
    """The scenarios of one file; the file's name is the action (``discover.toml``)."""
    return load_scenario_text(path.read_text(encoding="utf-8"), _display(path), pool)


def load_scenario_text(text: str, display: str, pool: CardPool | None = None) -> list[Scenario]:
    """The scenarios of one file's text (as the database's ``scenario_files`` keeps it); ``display`` is its path."""
    path = Path(display)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SourceError(display, toml_error_line(e), f"not valid TOML: {e}") from None
    try:
        module = find_action(path.stem)
    except UnknownAction as e:
        raise SourceError(display, None, f"the file name names no action: {e}") from None
    unknown_top = set(data) - {"scenario", "keyword"}
    if unknown_top:
        raise SourceError(display, 1, f"unknown key(s) {sorted(unknown_top)}; a scenario file holds keyword = "
                          f"{module.KEYWORD!r} and [[scenario]] tables")
    if data.get("keyword", module.KEYWORD) != module.KEYWORD:
        line = next((i + 1 for i, t in enumerate(text.splitlines()) if t.startswith("keyword")), None)
        raise SourceError(display, line, f"keyword = {data['keyword']!r}, but {path.name} holds the scenarios of "
                          f"{module.KEYWORD!r}")
    lines = tuple(text.splitlines())
    starts = [i + 1 for i, line in enumerate(lines) if line.strip() == "[[scenario]]"]
    raw_scenarios = data.get("scenario", [])
    if len(starts) != len(raw_scenarios):
        raise SourceError(display, None, "write each scenario as a [[scenario]] table on a line of its own")
    scenarios = []
    pool = pool if pool is not None else _default_pool()
    for index, (raw, line) in enumerate(zip(raw_scenarios, starts)):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(lines)
        scenarios.append(_scenario(raw, module, display, line, end, lines, pool))
    return scenarios


def _default_pool() -> CardPool:
    """The corpus's pool, read once per process (:func:`~executable_rules.card_pool.shared_card_pool`): each
    scenario run without a pool used to read it again, and parse its cards again."""
    from .card_pool import shared_card_pool
    return shared_card_pool()


def _scenario(raw: dict[str, Any], module: ModuleType, path: str, line: int, end: int, lines: tuple[str, ...],
              pool: CardPool) -> Scenario:
    def fail(message: str, key: str | None = None) -> SourceError:
        where = line
        if key:
            for i in range(line - 1, end):
                if re.match(rf"^\s*{re.escape(key)}\b", lines[i]):
                    where = i + 1
                    break
        sid = raw.get("id", "?")
        return SourceError(path, where, f"scenario {sid!r}: {message}")

    for key in ("id", "rule", "title", "source"):
        if key not in raw:
            raise fail(f"missing {key!r}")
    unknown = set(raw) - SCENARIO_KEYS
    for key in sorted(unknown):
        raise fail(f"unknown key {key!r}{_closest(key, sorted(SCENARIO_KEYS))}", key)
    rules = raw["rule"] if isinstance(raw["rule"], list) else [raw["rule"]]
    for rule in rules:
        if not isinstance(rule, str) or not RULE_NUMBER.match(rule):
            raise fail(f"rule {rule!r} is not a rule number such as 701.57a", "rule")
    source = raw["source"]
    if not isinstance(source, dict) or source.get("kind") not in SOURCE_KINDS:
        raise fail(f"source needs kind = one of {', '.join(SOURCE_KINDS)}", "source")
    for key in SOURCE_KINDS[source["kind"]]:
        if key not in source:
            raise fail(f"a {source['kind']} source needs {key!r}", "source")
    if source["kind"] == "engine-test" and source["project"] not in ENGINE_PROJECTS:
        raise fail(f"engine-test project {source['project']!r}: one of {', '.join(ENGINE_PROJECTS)}", "source")
    if source["kind"] == "card-ruling":
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(source["date"])):
            raise fail(f"card ruling date {source['date']!r} is not YYYY-MM-DD", "source")
        _check_card(pool, source["card"], fail, "source")
    also = []
    for citation in raw.get("also", []):
        try:
            also.append(Citation.parse(citation))
        except ValueError as e:
            raise fail(str(e), "also") from None
    actions = raw.get("action", [])
    if not actions:
        raise fail("no [[scenario.action]]: say what happens")
    if raw.get("explore") and raw.get("decisions"):
        raise fail("explore = true walks every choice: leave out decisions", "decisions")
    if raw.get("outcomes") and not raw.get("explore"):
        raise fail("[[scenario.outcomes]] needs explore = true", "outcomes")
    unread_ok: dict[str, str] = {}
    for entry in raw.get("unread_ok", []):
        if not (isinstance(entry, dict) and set(entry) == {"card", "line", "why"} and isinstance(entry["line"], int)
                and str(entry["why"]).strip()):
            raise fail("unread_ok holds { card, line, why } tables: a line of a permanent the grammar doesn't read, "
                       "and why what the scenario claims doesn't depend on it", "unread_ok")
        _check_card(pool, entry["card"], fail, "unread_ok")
        unread_ok[f"{entry['card']}: line {entry['line']}"] = str(entry["why"])
    scenario = Scenario(
        id=raw["id"], keyword=module.KEYWORD, module=module, rules=tuple(rules), title=raw["title"],
        source=source, also=tuple(also), setup=raw.get("setup", {}), actions=actions,
        decisions=list(raw.get("decisions", [])), explore=bool(raw.get("explore", False)),
        expect=raw.get("expect", {}), outcomes=raw.get("outcomes", []), seed=int(raw.get("seed", 0)),
        path=path, line=line, lines=lines, end=end, unread_ok=unread_ok,
    )
    _check_names(scenario, pool, fail)
    return scenario


def _check_card(pool: CardPool, name: str, fail: Callable[[str, str | None], SourceError], key: str) -> None:
    base = name.split("#")[0]
    if predefined_token(base) or (base.endswith(" Token") and base not in pool):   # a token, made in setup or by a step
        return
    if base not in pool:
        try:
            pool.find(base)
        except UnknownCard as e:
            raise fail(str(e), key) from None


def _check_names(scenario: Scenario, pool: CardPool, fail: Callable[..., SourceError]) -> None:
    """Every card named in setup, actions and expectations exists."""
    setup = scenario.setup
    for player, zones in setup.items():
        if not isinstance(zones, dict):
            continue
        for zone, entries in zones.items():
            if zone not in PLAYER_ZONES:
                raise fail(f"unknown zone {zone!r} for {player}{_closest(zone, sorted(PLAYER_ZONES))}", f"{player}.{zone}")
            if zone in ("mana", "life", "poison"):
                continue
            for entry in entries:
                name = entry["card"] if isinstance(entry, dict) else entry
                _check_card(pool, name, fail, f"{player}.{zone}")
    for step in scenario.actions:
        for key in ("card", "permanent", "source"):
            if isinstance(step.get(key), str):
                _check_card(pool, step[key], fail, key)
        for key in ("cards", "permanents"):
            for name in step.get(key, []):
                _check_card(pool, name, fail, key)


def scenario_files(directory: Path = SCENARIO_DIR) -> list[tuple[str, str]]:
    """(display path, text) of every scenario file of ``directory``, in order."""
    return [(_display(p), p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.toml"))
            if p.name != OUT_OF_SCOPE]


def load_scenarios(directory: Path = SCENARIO_DIR, pool: CardPool | None = None,
                   files: Sequence[tuple[str, str]] | None = None) -> list[Scenario]:
    """Every scenario of every ``*.toml`` in ``directory`` (but ``out_of_scope.toml``), or of ``files``
    ((path, text) pairs, as the database keeps them); ids are unique."""
    scenarios: list[Scenario] = []
    seen: dict[str, Scenario] = {}
    pool = pool if pool is not None else _default_pool()
    for display, text in (files if files is not None else scenario_files(directory)):
        for s in load_scenario_text(text, display, pool):
            if s.id in seen:
                first = seen[s.id]
                raise SourceError(s.path, s.line, f"scenario id {s.id!r} is already used at {first.path}:{first.line}")
            seen[s.id] = s
            scenarios.append(s)
    return scenarios


def select_scenarios(scenarios: Sequence[Scenario], query: str | None) -> list[Scenario]:
    """Scenarios for a rule number, a keyword in any language, or an id.

    A number takes the rules under it: ``701.57`` (Discover — CR 701.57) selects
    the scenarios of 701.57a, 701.57b and 701.57c.
    """
    if not query:
        return list(scenarios)
    q = query.strip()
    if re.match(r"^\d{3}(\.\d+[a-z]?)?$", q):
        return [s for s in scenarios
                if any(r == q or (r.startswith(q) and not r[len(q):len(q) + 1].isdigit()) for r in s.rules)
                or any(c.number == q or c.number.startswith(q + ".") for c in s.also)]
    try:
        module = find_action(q)
        return [s for s in scenarios if s.module is module]
    except UnknownAction:
        return [s for s in scenarios if s.id == q]


# ------------------------------------------------------------------ building the state


class ScenarioSetup:
    """A state built from a scenario's setup, and the cards it named."""

    def __init__(self, scenario: Scenario, pool: CardPool):
        self.scenario = scenario
        self.pool = pool
        setup = scenario.setup
        players = setup.get("players", ["you", "opponent"])
        self.state = new_game(players, seed=scenario.seed, active=setup.get("active"))
        if "turn" in setup:
            self.state.turn = int(setup["turn"])
        if "step" in setup:
            try:
                self.state.step = engine_turn.step_name(str(setup["step"]))
            except ValueError as e:
                raise scenario.error("step", str(e)) from None
        self.names: dict[str, list[int]] = {}
        self.setup_zone: dict[int, Any] = {}
        attachments: list[tuple[int, str]] = []       # a battlefield card's ``attached_to``, once every card is there
        for player in players:
            zones = setup.get(player, {})
            if "poison" in zones:
                self.state.player(player).poison = int(zones["poison"])
            for zone in ("library", "hand", "graveyard", "exile", "outside", "battlefield"):
                for entry in _repeated(zones.get(zone, [])):
                    card = self._add(player, zone, entry)
                    if isinstance(entry, dict) and "attached_to" in entry:
                        attachments.append((card, str(entry["attached_to"])))
            if "mana" in zones:
                self.state.player(player).mana = _parse_mana(zones["mana"])
            if "life" in zones:
                self.state.player(player).life = int(zones["life"])
        for card, to in attachments:                   # Attach — CR 701.3a: onto a card (by name) or a player
            if to not in players and not self.names.get(to.split("#")[0]):
                raise scenario.error("attached_to", f"no card {to!r} in the setup to attach to")
            target = to if to in players else self.names[to.split("#")[0]][int(to.split("#")[1]) - 1 if "#" in to else 0]
            self.state.cards[card].attached_to = target if isinstance(target, str) else self.state.ref(target)
        unknown_players = {k for k, v in setup.items() if isinstance(v, dict)} - set(players)
        if unknown_players:
            raise scenario.error(sorted(unknown_players)[0], f"{sorted(unknown_players)} aren't players ({players})")
        for effect in setup.get("effects", []):
            name = effect if isinstance(effect, str) else effect["name"]
            controller = "you" if isinstance(effect, str) else effect.get("controller", "you")
            self.state.effects.append(Effect(name, controller, self.pool.find(name).text if name in self.pool else ""))
        self.state._undo.clear()
        self.refs = {name: [self.state.ref(c) for c in ids] for name, ids in self.names.items()}

    def _add(self, player: str, zone: str, entry: str | dict[str, Any]) -> int:
        spec = entry if isinstance(entry, dict) else {"card": entry}
        oracle = predefined_token(spec["card"].split("#")[0]) or self.pool.find(spec["card"].split("#")[0])
        if spec.get("token"):
            # A token that's a copy of the card: the card's copiable values, and a token (Tokens — CR 111.1).
            oracle = dataclasses.replace(oracle, is_token=True)
        owner = spec.get("owner", player)
        kind = ZONE_NAMES[zone]
        card = self.state.add_card(oracle, owner, kind, controller=spec.get("controller", player))
        c = self.state.cards[card]
        if kind is ZoneKind.BATTLEFIELD:
            if spec.get("counters"):
                c.counters = _setup_counters(spec["counters"])
            if spec.get("face_down"):
                c.face_down = FaceDown(spec["face_down"])
            c.tapped = bool(spec.get("tapped", False))
            c.added_types = frozenset(spec.get("types", []))
            if spec.get("damage"):
                c.damage = int(spec["damage"])
            if spec.get("loyalty"):          # a planeswalker's loyalty counters (its printed loyalty as it enters)
                c.counters = {**c.counters, "loyalty": int(spec["loyalty"])}
            c.phased_out = bool(spec.get("phased_out", False))
            if spec.get("chosen_name"):      # the card name chosen as it entered (Pithing Needle: Name — CR 201.4)
                self.state.designate(card, f"chosen name: {spec['chosen_name']}")
        elif kind is ZoneKind.EXILE and spec.get("counters"):     # a suspended card's time counters (Suspend — CR 702.62b)
            c.counters = _setup_counters(spec["counters"])
        self.names.setdefault(oracle.name, []).append(card)
        self.setup_zone[card] = self.state.zone_of(card)
        return card


def _repeated(entries: Sequence[Any]) -> list[Any]:
    """A zone's entries with ``{ card = "Mountain", count = 71 }`` written out as 71 entries (XMage's test deck)."""
    out: list[Any] = []
    for entry in entries:
        if isinstance(entry, dict) and "count" in entry:
            one = {k: v for k, v in entry.items() if k != "count"}
            out += [one if len(one) > 1 else one["card"]] * int(entry["count"])
        else:
            out.append(entry)
    return out


def _setup_counters(value: Any) -> dict[str, int]:
    """``counters = 2`` (+1/+1 counters) or ``counters = { time = 3, "-1/-1" = 1 }``."""
    return {"+1/+1": int(value)} if isinstance(value, int) else {str(k): int(v) for k, v in value.items()}


def _parse_mana(text: str) -> tuple[str, ...]:
    symbols = re.findall(r"\{([^}]+)\}", text)
    pool: list[str] = []
    for s in symbols:
        pool += ["C"] * int(s) if s.isdigit() else [s]
    return tuple(pool)


# ------------------------------------------------------------------ running steps


class ScenarioRun:
    """The running context of a scenario: the state, its named cards, values steps remember."""

    def __init__(self, setup: ScenarioSetup):
        self.setup = setup
        self.state = setup.state
        self.scenario = setup.scenario
        self.memory: dict[str, Any] = {}

    def fail(self, key: str, message: str) -> SourceError:
        return self.scenario.error(key, message)

    def player(self, step: dict[str, Any], key: str = "player") -> str:
        name = step.get(key, "you")
        if name not in [p.name for p in self.state.players]:
            raise self.fail(key, f"no player {name!r}; players are {[p.name for p in self.state.players]}")
        return str(name)

    def card(self, name: str, key: str = "card", zone: str | None = None) -> int:
        """A card named in the scenario (``Name#2`` is the second of that name in setup order)."""
        base, _, nth = name.partition("#")
        if base not in self.setup.pool or base.endswith(" Token"):
            # A token created during the scenario ("Incubator Token", "Clue Token#2"): by name, on the battlefield.
            made = [c for c in self.state.battlefield.cards
                    if base in (self.state.cards[c].display_name, self.state.cards[c].oracle.name)]
            if len(made) >= int(nth or 1):
                return made[int(nth or 1) - 1]
            if base.endswith(" Token") and base not in self.setup.pool:
                raise self.fail(key, f"there is no {name!r} on the battlefield")
        oracle = self.setup.pool.find(base)
        ids = self.setup.names.get(oracle.name, [])
        if nth:
            if int(nth) > len(ids):
                raise self.fail(key, f"there is no {name!r}: the setup has {len(ids)} {oracle.name}")
            return ids[int(nth) - 1]
        if zone:
            wanted = self.zone(zone, key)
            ids = [c for c in ids if self.state.zone_of(c) is wanted]
        else:
            on_battlefield = [c for c in ids if self.state.zone_of(c) is self.state.battlefield]
            ids = on_battlefield or ids
        if not ids:
            raise self.fail(key, f"the setup has no {oracle.name}" + (f" in {zone}" if zone else ""))
        return ids[0]

    def ref(self, name: str, key: str) -> ObjectRef:
        """The object a name meant when the scenario began (so a permanent that left is a new object)."""
        card = self.card(name, key)
        for ref in self.setup.refs.get(self.state.cards[card].oracle.name, []):
            if ref.card == card:
                return ref
        return self.state.ref(card)

    def zone(self, spec: str, key: str, default_owner: str = "you") -> Any:
        owner, _, kind = spec.rpartition(".")
        if kind not in ZONE_NAMES:
            raise self.fail(key, f"unknown zone {spec!r}{_closest(kind, sorted(ZONE_NAMES))}")
        zone_kind = ZONE_NAMES[kind]
        return self.state.zone(zone_kind, owner or default_owner if zone_kind.is_per_player else None)


def _query(run: ScenarioRun, spec: str | dict[str, Any]) -> CardQuery:
    if spec == "card" or spec == "a card":
        return CardQuery()
    if isinstance(spec, str):
        raise run.fail("for", f"'for' is \"card\" or a table such as {{ type = \"basic land\" }}, not {spec!r}")
    allowed = {"name", "type", "types", "supertypes", "subtypes", "nonland", "same_name_as", "description"}
    for key in spec:
        if key not in allowed:
            raise run.fail("for", f"unknown key {key!r} in 'for'{_closest(key, sorted(allowed))}")
    types = set(spec.get("types", []))
    supertypes = set(spec.get("supertypes", []))
    if "type" in spec:
        for word in str(spec["type"]).split():
            (supertypes if word.capitalize() in ("Basic", "Snow", "Legendary") else types).add(word.capitalize())
    name = spec.get("name")
    undefined = False
    description = spec.get("description")
    if "same_name_as" in spec:
        remembered = run.memory.get(spec["same_name_as"])
        if remembered is None:
            undefined = True
            description = description or f"card with the same name as the {spec['same_name_as']} card (none was chosen)"
        else:
            name = remembered
    if name and not undefined:
        name = run.setup.pool.find(name).name if name in run.setup.pool else name
    if not description:
        words = [*sorted(s.lower() for s in supertypes), *sorted(t.lower() for t in types)]
        description = (f"card named {name}" if name else " ".join(words + ["card"]))
    return CardQuery(description, name, frozenset(types), frozenset(supertypes), frozenset(spec.get("subtypes", [])),
                     bool(spec.get("nonland", False)), undefined)


def _find(run: ScenarioRun, spec: dict[str, Any]) -> Find:
    count = spec.get("count", 1)
    put = spec.get("put")
    if put is not None and put not in ZONE_NAMES:
        raise run.fail("put", f"put = {put!r}: use one of {', '.join(ZONE_NAMES)}")
    return Find(_query(run, spec.get("for", "card")), None if count == "all" else int(count),
                bool(spec.get("up_to", False)), ZONE_NAMES[put] if put else None, bool(spec.get("tapped", False)))


def _zone_specs(run: ScenarioRun, names: Sequence[str]) -> list[tuple[str | None, ZoneKind]]:
    specs = []
    for spec in names:
        owner, _, kind = spec.rpartition(".")
        if kind not in ZONE_NAMES:
            raise run.fail("zones", f"unknown zone {spec!r}{_closest(kind, sorted(ZONE_NAMES))}")
        specs.append((owner or None, ZONE_NAMES[kind]))
    return specs


def _instructions(run: ScenarioRun, entries: Sequence[dict[str, Any]]) -> tuple[Instruction, ...]:
    found = []
    for entry in entries:
        verb = entry.get("do", "")
        if verb not in VERBS:
            raise run.fail("do", f"unknown instruction {verb!r}{_closest(verb, VERBS)}; use one of {', '.join(VERBS)}")
        found.append(Instruction(verb, int(entry.get("amount", 1)), entry.get("type"), entry.get("player")))
    return tuple(found)


STEP_KEYS: dict[str, set[str]] = {
    "search": {"player", "players", "zones", "for", "count", "up_to", "put", "tapped", "finds", "reveal", "optional",
               "shuffle"},
    "discover": {"player", "n"}, "explore": {"permanent", "permanents"}, "manifest": {"player", "count", "card", "zone"},
    "cloak": {"player", "count", "card", "zone"}, "manifest_dread": {"player"},
    "villainous_choice": {"players", "player", "a", "b"}, "dredge": {"player", "card"}, "draw": {"player", "count"},
    "mill": {"player", "count"}, "reveal": {"player", "zone", "top", "card"},
    "exile": {"player", "card", "zone"}, "cast": {"player", "card", "face", "x", "zone"},
    "turn_face_up": {"player", "card", "via"}, "move": {"card", "to", "player", "zone", "position"},
    "gain_control": {"card", "player"}, "put_triggers": set(), "resolve": set(),
    "resolve_ability": {"name", "player", "targets", "effect"}, "exile_targets": set(),
    "choose_card": {"player", "zone", "remember", "not", "type"}, "choose_option": {"player", "options"},
    "effect": {"name", "player"},
    "cast_spell": {"player", "card", "face", "x", "zone", "targets", "without_paying", "alternative", "bestowed"},
    "activate": {"player", "card", "ability", "x", "targets"},
    "play_land": {"player", "card"},
    "resolve_stack": set(), "pass_to": {"step", "turn"}, "tap": {"card", "player"}, "priority": set(),
}


def _module_steps() -> dict[str, ModuleType]:
    """Action modules that bring their own scenario step: ``STEP_KEYS`` (the keys it takes) and
    ``run_step(run, step, player, choose)``; the step is named for the module (``do = "scry"``)."""
    found = {}
    for module in ACTIONS:
        if hasattr(module, "run_step"):
            name = module_name(module)
            if name in STEP_KEYS:
                raise RuntimeError(f"{module.__name__}: the scenario step {name!r} is already the scenario reader's")
            found[name] = module
    return found


MODULE_STEPS = _module_steps()
STEP_KEYS.update({name: set(m.STEP_KEYS) for name, m in MODULE_STEPS.items()})


def _module_expectations() -> dict[str, Callable[[GameState, str | None, Any], Any]]:
    """Expectations an action module adds: ``EXPECT = {key: observe(state, player, expected)}``;
    ``player`` is the player's name for a per-player key (``you.key``), None for a shared one."""
    found: dict[str, Callable[[GameState, str | None, Any], Any]] = {}
    for module in ACTIONS:
        for key, observe in getattr(module, "EXPECT", {}).items():
            if key in found:
                raise RuntimeError(f"{module.__name__}: the expectation {key!r} is already another module's")
            found[key] = observe
    return found


def _run_step(run: ScenarioRun, step: dict[str, Any], choose: Chooser) -> None:
    do = step.get("do")
    if do not in STEP_KEYS:
        raise run.fail("do", f"unknown action {do!r}{_closest(str(do), sorted(STEP_KEYS))}")
    extra = set(step) - STEP_KEYS[do] - {"do"}
    for key in sorted(extra):
        raise run.fail(key, f"unknown key {key!r} for do = {do!r}{_closest(key, sorted(STEP_KEYS[do]))}")
    state = run.state
    player = run.player(step) if do not in ("explore", "put_triggers", "resolve", "exile_targets", "resolve_stack",
                                            "pass_to", "priority") else "you"
    if "targets" in step and do in ("cast_spell", "activate"):
        choose = _Targets(run, step["targets"], choose)
    if do in MODULE_STEPS:
        MODULE_STEPS[do].run_step(run, step, player, choose)
    elif do == "search":
        players = step.get("players", [player])
        finds = [_find(run, f) for f in step["finds"]] if "finds" in step else [_find(run, step)]
        search(state, players, finds, zones=_zone_specs(run, step.get("zones", ["library"])),
               reveal_found=bool(step.get("reveal", False)), optional=bool(step.get("optional", False)),
               shuffle=bool(step.get("shuffle", False)), choose=choose)
    elif do == "discover":
        discover(state, player, int(step["n"]), choose=choose)
    elif do == "explore":
        names = step.get("permanents") or [step["permanent"]]
        refs = [run.ref(n, "permanent") for n in names]
        explore_action(state, refs if len(refs) > 1 else refs[0], choose=choose)
    elif do in ("manifest", "cloak"):
        action = manifest if do == "manifest" else cloak
        cards = [run.card(step["card"], zone=step.get("zone"))] if "card" in step else None
        action(state, player, cards, count=int(step.get("count", 1)))
    elif do == "manifest_dread":
        manifest_dread(state, player, choose=choose)
    elif do == "villainous_choice":
        a, b = step["a"], step["b"]
        face_villainous_choice(state, step.get("players", [player]),
                               VillainousOption(a["label"], _instructions(run, a["do"])),
                               VillainousOption(b["label"], _instructions(run, b["do"])), choose=choose)
    elif do == "dredge":
        dredge(state, player, run.card(step["card"]))
    elif do == "draw":
        draw(state, player, int(step.get("count", 1)), choose=choose)
    elif do == "mill":
        mill(state, player, int(step.get("count", 1)))
    elif do == "reveal":
        if "card" in step:
            cards = [run.card(step["card"])]
        else:
            zone = run.zone(step.get("zone", "library"), "zone", player)
            cards = list(zone.cards[: int(step["top"])]) if "top" in step else list(zone.cards)
        if cards:
            reveal(state, player, cards)
        else:
            state.emit(EventKind.REVEAL, player, detail="nothing to reveal")
    elif do == "exile":
        exile(state, player, run.card(step["card"], zone=step.get("zone")))
    elif do == "cast":
        cast_without_paying(state, player, run.card(step["card"], zone=step.get("zone")), face=step.get("face"),
                            x=int(step.get("x", 0)), choose=choose)
    elif do == "turn_face_up":
        turn_face_up(state, player, run.card(step["card"]), step.get("via", "mana cost"))
    elif do == "move":
        card = run.card(step["card"], zone=step.get("zone"))
        owner = state.cards[card].owner
        to = run.zone(step["to"] if "." in step["to"] else f"{owner}.{step['to']}", "to")
        source = state.zone_of(card).label
        name = state.cards[card].display_name
        state.move(card, to, controller=step.get("player"), position=step.get("position", "top"))
        state.emit(EventKind.MOVE, owner, (card,), names=(name,), source=source, destination=to.label)
    elif do == "gain_control":
        card = run.card(step["card"])
        state.set(state.cards[card], "controller", player)
        state.emit(EventKind.CONTROL, player, (card,), detail=f"{player} gains control of it (the same object)")
    elif do == "put_triggers":
        engine_triggers.put_triggers_on_stack(state, choose)
    elif do == "resolve":
        engine_turn.priority(state, choose)
        engine_stack.resolve_top(state, choose)
    elif do == "cast_spell":
        engine_stack.cast_spell(state, player, run.card(step["card"], zone=step.get("zone", f"{player}.hand")),
                                face=step.get("face"), x=int(step.get("x", 0)),
                                without_paying=bool(step.get("without_paying", False)),
                                alternative=bool(step.get("alternative", False)),
                                bestowed=bool(step.get("bestowed", False)), choose=choose)
    elif do == "activate":
        engine_stack.activate(state, player, run.card(step["card"]), str(step.get("ability", "")),
                              x=int(step.get("x", 0)), choose=choose)
    elif do == "play_land":
        from .actions.play import play_land
        play_land(state, player, run.card(step["card"], zone=f"{player}.hand"), choose=choose)
    elif do == "tap":
        from .actions.tap_and_untap import tap_as_cost
        card = run.card(step["card"])
        tap_as_cost(state, player, card, f"tap {state.cards[card].display_name}")
    elif do == "resolve_stack":
        engine_turn.resolve_stack(state, choose)
    elif do == "priority":          # as a player would receive priority: state-based actions, then triggers (117.5)
        engine_turn.priority(state, choose)
    elif do == "pass_to":
        try:
            engine_turn.pass_to(state, str(step["step"]), int(step["turn"]) if "turn" in step else None, choose)
        except ValueError as e:
            raise run.fail("step", str(e)) from None
    elif do == "resolve_ability":
        _resolve_ability(run, step, player, choose)
    elif do == "exile_targets":
        for target in run.memory.get("legal targets", []):
            exile(state, player, target)
    elif do == "choose_card":
        zone = run.zone(step["zone"], "zone", player)
        pool = [c for c in zone.cards
                if not (step.get("not") == "basic land" and {"Basic"} <= state.cards[c].supertypes
                        and state.cards[c].is_land)]
        remember = step.get("remember", "chosen")
        if not pool:
            state.emit(EventKind.NOTHING, player, source=zone.label, detail=f"no card to choose: the {remember} card is undefined")
            run.memory[remember] = None
        else:
            answer = decide(state, Decision.of(player, f"choose a card from {zone.label}", None,
                                               [Option(f"choose {state.cards[c].display_name}", c) for c in pool]), choose)
            run.memory[remember] = state.cards[answer.value].oracle.name
    elif do == "choose_option":
        options = []
        for entry in step["options"]:
            instructions = _instructions(run, entry["do"])
            possible = all(is_possible(state, player, i) for i in instructions)
            options.append(Option(entry["label"], instructions, possible, "" if possible else
                                  "impossible: a player can't choose an option that's illegal or impossible",
                                  Citation("Resolving Spells and Abilities", "608.2d")))
        answer = decide(state, Decision.of(player, "choose one", Citation("Resolving Spells and Abilities", "608.2d"),
                                           options), choose)
        for instruction in answer.value:
            perform(state, player, instruction, choose)
    elif do == "effect":
        name = step["name"]
        state.append(state.effects, Effect(name, player, run.setup.pool.find(name).text if name in run.setup.pool else ""))


class _Targets:
    """Answer "target for …" decisions from a step's ``targets`` (card names or player names), in order;
    every other decision goes to the scenario's chooser."""

    def __init__(self, run: ScenarioRun, names: Sequence[str], choose: Chooser):
        self.names = list(names)
        self.choose = choose
        self.run = run

    def __call__(self, decision: Decision) -> Option:
        if decision.prompt.startswith("target for") and self.names:
            name = self.names.pop(0)
            label = f"target {self.run.setup.pool.find(name).name if name in self.run.setup.pool else name}"
            option = decision.find(label)
            if option is None:
                raise UnknownOption(f"no target {name!r} for {decision.prompt!r}; the options are "
                                    f"{[o.label for o in decision.legal_choices()] + [o.label for o in decision.illegal]}")
            if not option.legal:
                raise IllegalChoice(label, option.reason, option.citation)
            return option
        return self.choose(decision)

    def observe(self, decision: Decision) -> None:
        observe = getattr(self.choose, "observe", None)
        if observe is not None:
            observe(decision)

    def forced(self, decision: Decision, only: Option) -> Option:
        if decision.prompt.startswith("target for") and self.names:
            self.names.pop(0)
            return only
        inner = getattr(self.choose, "forced", None)
        return inner(decision, only) if inner is not None else only


def _resolve_ability(run: ScenarioRun, step: dict[str, Any], player: str, choose: Chooser) -> None:
    """An ability (or spell) resolving with targets: nothing happens if every target is illegal (608.2b)."""
    state = run.state
    targets = []
    for spec in step.get("targets", []):
        zone = run.zone(spec["zone"], "targets", player)
        name = run.setup.pool.find(spec["card"].split("#")[0]).name
        ids = [c for c in run.setup.names.get(name, []) if run.setup.setup_zone[c] is zone]
        if "#" in spec["card"] or not ids:
            ids = [run.card(spec["card"], "targets")]
        ref = next(r for r in run.setup.refs[name] if r.card == ids[0])
        targets.append((ref, zone))
    legal = [ref.card for ref, zone in targets if state.is_current(ref) and state.zone_of(ref.card) is zone]
    source = step.get("name", "the ability")
    if targets and not legal:
        state.emit(EventKind.NOT_RESOLVED, player, names=(source,), detail="every target is illegal: it doesn't resolve",
                   citation=Citation("Resolving Spells and Abilities", "608.2b"))
        return
    if len(legal) < len(targets):
        state.emit(EventKind.NOTHING, player, names=(source,),
                   detail=f"{len(targets) - len(legal)} target(s) illegal: they aren't affected; the rest of the effect happens",
                   citation=Citation("Resolving Spells and Abilities", "608.2b"))
    state.emit(EventKind.RESOLVE, player, names=(source,))
    run.memory["legal targets"] = legal
    for sub in step.get("effect", []):
        _run_step(run, sub, choose)


# ------------------------------------------------------------------ expectations

_PLAYER_KEYS = {"hand", "library", "library_top", "library_bottom", "graveyard", "outside", "life", "mana",
                "drew_from_empty_library", "battlefield", "lost", "poison", "library_count", "permanents"}
_KEYS = {"battlefield", "exile", "stack", "counters", "face_down", "events", "no_events", "decisions_by", "spell",
         "error", "termination", "decisions", "offered", "pending_triggers", "ward", "leaves", "tapped", "pt",
         "colors", "triggered", "damage", "turn", "step", "untapped", "unimplemented"}
MODULE_EXPECT = _module_expectations()
_PLAYER_KEYS |= set(MODULE_EXPECT)
_KEYS |= set(MODULE_EXPECT)


def _names(state: GameState, cards: Sequence[int]) -> list[str]:
    return [state.cards[c].display_name if c in state.cards else state.abilities[c].label for c in cards]


def _observe(state: GameState, key: str, player: str | None, expected: Any) -> Any:
    """The value of expectation ``key`` in ``state``, in the form ``expected`` is written."""
    if key in MODULE_EXPECT:
        return MODULE_EXPECT[key](state, player, expected)
    if player is not None:
        p = state.player(player)
        if key == "hand":
            return sorted(_names(state, p.hand.cards))
        if key == "library":
            return _names(state, p.library.cards)
        if key == "library_top":
            return _names(state, p.library.cards[: len(expected)])
        if key == "library_bottom":
            return sorted(_names(state, p.library.cards[len(p.library.cards) - len(expected):])) if expected else []
        if key == "graveyard":
            return sorted(_names(state, p.graveyard.cards))
        if key == "outside":
            return sorted(_names(state, p.outside.cards))
        if key == "life":
            return p.life
        if key == "mana":
            return "".join(f"{{{m}}}" for m in p.mana)
        if key == "drew_from_empty_library":
            return p.drew_from_empty_library
        if key == "battlefield":
            return sorted(_names(state, [c.id for c in state.permanents(player)]))
        if key == "lost":
            return p.lost
        if key == "poison":
            return p.poison
        if key == "library_count":
            return len(p.library.cards)
        if key == "permanents":
            names = _names(state, [c.id for c in state.permanents(player)])
            return {name: names.count(name) for name in expected}
    if key == "battlefield":
        return sorted(_names(state, state.battlefield.cards))
    if key == "exile":
        return sorted(_names(state, state.exile.cards))
    if key == "stack":
        return [state.spells[c].face.name if c in state.spells else state.abilities[c].label for c in state.stack.cards]
    if key == "counters":
        found: dict[str, Any] = {}
        for name in expected:
            cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
            found[name] = state.cards[cards[0]].counters.get("+1/+1", 0) if cards else 0
        return found
    if key == "face_down":
        return sorted(state.cards[c].oracle.name for c in state.battlefield.cards if state.cards[c].face_down)
    if key == "tapped":
        return sorted(state.cards[c].display_name for c in state.battlefield.cards if state.cards[c].tapped)
    if key == "ward":
        found = {}
        for name in expected:
            cards = [c for c in state.battlefield.cards if state.cards[c].oracle.name == name]
            ward = state.cards[cards[0]].ward if cards else None
            found[name] = str(ward) if ward else ""
        return found
    if key == "pending_triggers":
        return [t.label for t in state.pending_triggers]
    if key in ("pt", "colors", "damage"):
        found = {}
        for name in expected:
            cards = [c for c in state.battlefield.cards if state.cards[c].display_name == name
                     or (state.cards[c].oracle.name == name and not state.cards[c].face_down)]
            # a copy is also found by its own card's name ("Clone", a copy of Craw Wurm: Copying Objects — CR 707.2)
            cards += [c for c in state.battlefield.cards
                      if c not in cards and getattr(state.cards[c].printed, "name", None) == name]
            if not cards:
                found[name] = None
                continue
            ch = characteristics(state, cards[0])
            found[name] = (f"{ch.power}/{ch.toughness}" if key == "pt" else ch.color_names if key == "colors"
                           else state.cards[cards[0]].damage)
        return found
    if key == "triggered":
        return [e.names[0] for e in state.events if e.kind is EventKind.TRIGGER and e.names]
    if key == "turn":
        return state.turn
    if key == "step":
        return state.step
    if key == "untapped":
        return sorted(state.cards[c].display_name for c in state.battlefield.cards if not state.cards[c].tapped)
    if key == "spell":
        casts = [e for e in state.events if e.kind is EventKind.CAST]
        if not casts:
            return {}
        spell = state.spells.get(casts[-1].cards[0])
        if spell is None:
            return {"name": casts[-1].names[0], "on_stack": False}
        value = {"name": spell.face.name, "mana_value": spell.mana_value, "x": spell.x, "kicked": spell.kicked,
                 "face": spell.face.kind.value, "without_paying": spell.without_paying,
                 "targets": [t if isinstance(t, str) else state.cards[t.card].display_name for t in spell.targets if t is not None],
                 "paid": list(spell.paid), "on_stack": True}
        return {k: value[k] for k in expected} if isinstance(expected, dict) else value
    raise KeyError(key)


def _event_matches(event_text: str, pattern: str) -> bool:
    return pattern.casefold() in event_text.casefold()


def _check_events(events: list[str], expected: Sequence[str]) -> str | None:
    """``expected`` patterns appear in the event lines in this order."""
    i = 0
    for pattern in expected:
        while i < len(events) and not _event_matches(events[i], pattern):
            i += 1
        if i == len(events):
            return f"no event {pattern!r} (in order) among: " + " | ".join(events)
    return None


def _normalise(value: Any) -> Any:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return value


def _check_state(run_state: GameState, expect: dict[str, Any], pool: CardPool, decisions: "RecordingChooser",
                 scenario: Scenario) -> list[str]:
    failures = []
    lines = [e.describe() for e in run_state.events]
    for key, expected in expect.items():
        if key in ("error", "leaves", "decisions"):
            continue
        if isinstance(expected, dict) and key in {p.name for p in run_state.players}:
            for sub, value in expected.items():
                if sub not in _PLAYER_KEYS:
                    failures.append(f"unknown expectation {key}.{sub}{_closest(sub, sorted(_PLAYER_KEYS))}")
                    continue
                want = _canonical(pool, sub, value)
                got = _observe(run_state, sub, key, want)
                if got != want:
                    failures.append(f"{key}.{sub}: expected {want!r}, got {got!r}")
            continue
        if key == "events":
            problem = _check_events(lines, expected)
            if problem:
                failures.append(problem)
        elif key == "no_events":
            for pattern in expected:
                hits = [line for line in lines if _event_matches(line, pattern)]
                if hits:
                    failures.append(f"unexpected event {pattern!r}: {hits[0]}")
        elif key == "decisions_by":
            players = sorted({d.player for d in decisions.seen})
            if not set(players) <= set(expected):
                failures.append(f"decisions_by: expected only {expected}, got {players}")
        elif key == "offered":
            failures += decisions.check_offered(expected)
        elif key == "termination":
            ended = "not resolved" if any(e.kind is EventKind.NOT_RESOLVED for e in run_state.events) else "completed"
            if ended != expected:
                failures.append(f"termination: expected {expected!r}, got {ended!r}")
        elif key in _KEYS:
            want = _canonical(pool, key, expected)
            got = _observe(run_state, key, None, want)
            if got != want:
                failures.append(f"{key}: expected {want!r}, got {got!r}")
        else:
            failures.append(f"unknown expectation {key!r}{_closest(key, sorted(_KEYS | _PLAYER_KEYS))}")
    return failures


def _canonical(pool: CardPool, key: str, value: Any) -> Any:
    """Expected card names in English and, for unordered zones, sorted."""
    def name(n: str) -> str:
        if n.startswith("face-down card [") or n.endswith("'s ability") or n not in pool:
            return n
        return pool.find(n).name

    if key in ("hand", "graveyard", "outside", "battlefield", "exile", "library_bottom", "face_down", "tapped",
               "untapped"):
        return sorted(name(n) for n in value)
    if key in ("pt", "colors", "damage", "permanents"):
        return {name(k): v for k, v in value.items()}
    if key in ("library", "library_top"):
        return [name(n) for n in value]
    if key in ("counters", "ward"):
        return {name(k): v for k, v in value.items()}
    return value


class RecordingChooser:
    """Wrap a chooser to see every decision, forced ones included."""

    def __init__(self, choose: Chooser):
        self.choose = choose
        self.seen: list[Decision] = []

    def __call__(self, decision: Decision) -> Option:
        return self.choose(decision)

    def observe(self, decision: Decision) -> None:
        self.seen.append(decision)

    def forced(self, decision: Decision, only: Option) -> Option:
        inner = getattr(self.choose, "forced", None)
        return inner(decision, only) if inner is not None else only

    def check_offered(self, expected: dict[str, Any]) -> list[str]:
        """``offered = { prompt = "...", legal = [...], illegal = [...] }``: the first decision whose prompt
        contains ``prompt`` offered exactly ``legal`` and at least ``illegal``."""
        failures = []
        for spec in expected if isinstance(expected, list) else [expected]:
            matches = [d for d in self.seen if spec.get("prompt", "").casefold() in d.prompt.casefold()]
            if not matches:
                failures.append(f"offered: no decision {spec.get('prompt')!r} among "
                                f"{[d.prompt for d in self.seen]}")
                continue
            d = matches[0]
            legal = [o.label for o in d.legal_choices()]
            if "legal" in spec and sorted(legal) != sorted(spec["legal"]):
                failures.append(f"offered {d.prompt!r}: expected legal {sorted(spec['legal'])}, got {sorted(legal)}")
            illegal = [o.label for o in d.illegal]
            for label in spec.get("illegal", []):
                if label not in illegal:
                    failures.append(f"offered {d.prompt!r}: {label!r} isn't among the illegal options {illegal}")
        return failures


# ------------------------------------------------------------------ running a scenario


def scenario_steps(run: ScenarioRun) -> Callable[[GameState, Chooser], None]:
    def go(state: GameState, choose: Chooser) -> None:
        run.memory.clear()
        for step in run.scenario.actions:
            _run_step(run, step, choose)
    return go


def _setup_trace(setup: ScenarioSetup) -> list[str]:
    state = setup.state
    lines = []
    for p in state.players:
        for zone in (p.library, p.hand, p.graveyard, p.outside):
            if zone.cards:
                lines.append(f"setup: {zone.label}: {', '.join(_names(state, zone.cards))}"
                             + (" (top first)" if zone is p.library else ""))
        if p.mana:
            lines.append(f"setup: {p.name}'s mana: {''.join('{' + m + '}' for m in p.mana)}")
    for zone in (state.battlefield, state.exile):
        if zone.cards:
            lines.append(f"setup: {zone.label}: " + ", ".join(
                f"{state.cards[c].display_name} ({state.cards[c].controller})" if zone is state.battlefield
                else state.cards[c].display_name for c in zone.cards))
    for effect in state.effects:
        lines.append(f"setup: effect {effect.name} ({effect.controller})")
    return lines


def _describe_decisions(trace: list[str], recorder: RecordingChooser) -> None:
    seen = set()
    for d in recorder.seen:
        illegal = "; ".join(f"{o.label!r}: {o.reason}" + (f" ({o.citation})" if o.citation else "") for o in d.illegal)
        line = f"  illegal options for {d.player} at {d.prompt!r}: {illegal}"
        if illegal and line not in seen:
            seen.add(line)
            trace.append(line)


def run_scenario(scenario: Scenario, pool: CardPool | None = None, *, max_outcomes: int = 5000,
                 max_seconds: float = 10.0) -> ScenarioResult:
    """Run ``scenario`` and check what it expects; never raises for a rules failure (it is a FAIL)."""
    pool = pool if pool is not None else _default_pool()
    setup = ScenarioSetup(scenario, pool)
    run = ScenarioRun(setup)
    trace = _setup_trace(setup)
    failures: list[str] = []
    expected_error = scenario.expect.get("error")
    if scenario.explore:
        recorder = RecordingChooser(lambda d: next(d.legal_choices()))
        try:
            exploration = explore(lambda s, c: scenario_steps(run)(s, _Wrap(c, recorder)), setup.state,
                                  max_outcomes=max_outcomes, max_seconds=max_seconds)
        except (IllegalChoice, UnknownOption, ExplorationLimit, Unimplemented) as e:
            # Exploring stops at the first run the model can't finish: a FAIL saying why, not a crash.
            return ScenarioResult(scenario, False, [f"{type(e).__name__}: {e}"], trace)
        first = exploration.outcomes[0].state
        trace += [e.describe() for e in first.events]
        _describe_decisions(trace, recorder)
        for o in exploration.outcomes:
            failures += [f"outcome {' / '.join(o.choices) or '(no choice)'}: {f}"
                         for f in _check_state(o.state, scenario.expect, pool, recorder, scenario)]
            failures += [f"impossible state (our bug): {p}" for p in o.state.problems()]
        failures += _check_outcomes(scenario, exploration.outcomes, pool)
        if "leaves" in scenario.expect and len(exploration.outcomes) != scenario.expect["leaves"]:
            failures.append(f"leaves: expected {scenario.expect['leaves']} outcomes, got {len(exploration.outcomes)}")
        trace.append(f"explored {len(exploration.outcomes)} outcomes: "
                     + ", ".join(f"{k}: {v}" for k, v in exploration.by_first_choice.items()))
        for o in exploration.outcomes:
            trace.append(f"  outcome [{' / '.join(o.choices) or 'no choice'}]: " + _summary(o.state))
        unread, declared = _say_what_was_not_read(first, failures, trace, scenario)
        return ScenarioResult(scenario, not failures, _dedupe(failures), trace, len(exploration.outcomes), unread,
                              declared)
    scripted = Scripted(scenario.decisions)
    recorder = RecordingChooser(scripted)
    state = setup.state
    raised: Exception | None = None
    try:
        scenario_steps(run)(state, recorder)
    except IllegalChoice as e:
        raised = e
    except UnknownOption as e:
        failures.append(f"{scenario.path}:{scenario.line_of('decisions')}: {e}")
    except SourceError as e:
        failures.append(str(e))
    except Unimplemented as e:
        failures.append(f"needs what the engine can't do yet: {e}")
    except Exception as e:  # a bad scenario or our bug: a FAIL with the reason, not a crash
        failures.append(f"{type(e).__name__}: {e}")
    if raised is not None and state.rolled_back_events:
        trace += [e.describe() for e in state.rolled_back_events]
        trace.append("(the action was rolled back: the state is as it was before it)")
    else:
        trace += [e.describe() for e in state.events]
    _describe_decisions(trace, recorder)
    if raised is not None:
        trace.append(f"IllegalChoice: {raised}")
        if not expected_error:
            failures.append(f"unexpected IllegalChoice: {raised}")
        else:
            if isinstance(raised, IllegalChoice) and expected_error.get("rule") and (
                    raised.citation is None or raised.citation.number != expected_error["rule"]):
                failures.append(f"error: expected rule {expected_error['rule']}, got {raised.citation}")
            if expected_error.get("message", "") not in str(raised):
                failures.append(f"error: expected a message containing {expected_error['message']!r}, got {str(raised)!r}")
    elif expected_error:
        failures.append(f"expected IllegalChoice ({expected_error.get('rule', '')}), but the action completed")
    if scripted.unused and raised is None:
        failures.append(f"decisions never asked for: {scripted.unused}")
    failures += _check_state(state, scenario.expect, pool, recorder, scenario)
    failures += [f"impossible state (our bug): {p}" for p in state.problems()]
    trace.append("result: " + _summary(state))
    unread, declared = _say_what_was_not_read(state, failures, trace, scenario)
    return ScenarioResult(scenario, not failures, failures, trace, unread=unread, unread_declared=declared)


def unread_in_play(state: GameState) -> list[str]:
    """The lines of text of the permanents of a run (on the battlefield at its end, or entering or leaving it
    on the way) that the grammar doesn't read: the run went on without them.

    A spell with such a line stops as it resolves; a permanent can't, since most of its lines matter only now
    and then, so a run reports them instead (:func:`_say_what_was_not_read`).
    """
    ids = set(state.battlefield.cards)
    for event in state.events:
        if event.kind is EventKind.MOVE and "battlefield" in f"{event.source or ''} {event.destination or ''}":
            ids.update(event.cards)
    # A face-down permanent has no text (Face-Down Spells and Permanents — CR 708.2a): a card that was on the
    # battlefield only face down (manifested, cloaked, cast face down and never turned up) never had these lines.
    turned_up = {i for e in state.events if e.kind is EventKind.TURN_FACE_UP for i in e.cards}
    def only_face_down(i: int) -> bool:
        if i in turned_up:
            return False
        if i in state.battlefield.cards:
            return state.cards[i].face_down is not None
        known = state.last_known.get(i)
        return known is not None and known.face_down
    out: list[str] = []
    for name, oracle in sorted({(state.cards[i].oracle.name, state.cards[i].oracle) for i in ids
                                if i in state.cards and not only_face_down(i)}, key=lambda item: item[0]):
        for ability in oracle.parsed.abilities:
            if not ability.parsed and not _read_by_a_module(ability.text):
                out.append(f"{name}: line {ability.line} {ability.text!r}")
    return list(dict.fromkeys(out))


def _module_line_patterns() -> list[re.Pattern[str]]:
    """The lines modules apply by reading their text, where the grammar has no template (``READS_LINES`` of an
    action module, of ``engine.static`` and of ``engine.combat``): Parallel Lives' doubling, Varolz's scavenge …"""
    from .engine import combat, static
    return [p for m in (*ACTIONS, static, combat) for p in getattr(m, "READS_LINES", ())]


def _read_by_a_module(text: str) -> bool:
    return any(p.search(text) for p in _module_line_patterns())


def line_key(line: str) -> str:
    """``Pithing Needle: line 2`` of an :func:`unread_in_play` entry."""
    m = re.match(r"^(.*?: line \d+) ", line)
    return m.group(1) if m else line


def _say_what_was_not_read(state: GameState, failures: list[str], trace: list[str],
                           scenario: Scenario) -> tuple[list[str], list[str]]:
    """A run whose permanents have lines the grammar doesn't read says so: a failing one first of all (the
    missing line is the likely reason, not the engine's rules), a passing one in its trace. The lines the
    scenario declares (``unread_ok``: what it claims doesn't depend on them, and why) are set apart; a
    declared line that the run doesn't have unread (the grammar reads it now, or the card never was a
    permanent) fails the run, so a declaration never outlives its reason."""
    lines = unread_in_play(state)
    declared = [line for line in lines if line_key(line) in scenario.unread_ok]
    unread = [line for line in lines if line not in declared]
    seen = {line_key(line) for line in declared}
    for key in scenario.unread_ok:
        if key not in seen:
            failures.append(f"unread_ok declares {key}, but the run has no such unread line (the grammar reads it "
                            "now, or it never was a permanent's): take the declaration out")
    if declared:
        trace.append("not read by the grammar, and declared not needed by the scenario: "
                     + "; ".join(f"{line} ({scenario.unread_ok[line_key(line)]})" for line in declared))
    if not unread:
        return unread, declared
    trace.append("not read by the grammar: " + "; ".join(unread))
    if failures:
        failures.insert(0, "needs what the engine can't do yet: a permanent's line isn't read by the grammar: "
                        + "; ".join(unread))
    return unread, declared


class _Wrap:
    """A chooser that also tells the recorder about every decision."""

    def __init__(self, choose: Chooser, recorder: RecordingChooser):
        self.choose = choose
        self.recorder = recorder

    def __call__(self, decision: Decision) -> Option:
        return self.choose(decision)

    def observe(self, decision: Decision) -> None:
        self.recorder.observe(decision)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _summary(state: GameState) -> str:
    parts = []
    for p in state.players:
        for zone in (p.hand, p.graveyard):
            if zone.cards:
                parts.append(f"{zone.label}: {', '.join(_names(state, zone.cards))}")
        parts.append(f"{p.library.label}: {', '.join(_names(state, p.library.cards)) or 'empty'}")
        if p.life != 20:
            parts.append(f"life ({p.name}): {p.life}")
    for zone in (state.battlefield, state.exile):
        if zone.cards:
            parts.append(f"{zone.label}: " + ", ".join(
                _names(state, [c])[0] + (f" (+1/+1 x{state.cards[c].counters['+1/+1']})"
                                         if state.cards[c].counters.get("+1/+1") else "") for c in zone.cards))
    if state.stack.cards:
        parts.append("stack: " + ", ".join(
            state.spells[c].face.name if c in state.spells else state.abilities[c].label for c in state.stack.cards))
    return "; ".join(parts)


def _projection(state: GameState, table: dict[str, Any], pool: CardPool) -> tuple[Any, ...]:
    values = []
    for key in sorted(table):
        value = table[key]
        if isinstance(value, dict) and key in {p.name for p in state.players}:
            for sub in sorted(value):
                want = _canonical(pool, sub, value[sub])
                values.append((f"{key}.{sub}", repr(_observe(state, sub, key, want))))
        else:
            want = _canonical(pool, key, value)
            values.append((key, repr(_observe(state, key, None, want))))
    return tuple(values)


def _check_outcomes(scenario: Scenario, outcomes: Sequence[Any], pool: CardPool) -> list[str]:
    """The distinct outcomes, seen through the keys the listed outcomes use, are exactly those listed."""
    if not scenario.outcomes:
        return []
    keys = {k for table in scenario.outcomes for k in _flat_keys(table)}
    for table in scenario.outcomes:
        if set(_flat_keys(table)) != keys:
            raise scenario.error("outcomes", "every [[scenario.outcomes]] must use the same keys "
                                 f"({sorted(keys)})")
    listed = []
    for table in scenario.outcomes:
        listed.append(tuple(sorted((k, repr(_canonical(pool, k.split('.')[-1], v))) for k, v in _flat_items(table))))
    reached = Counter(_projection(o.state, scenario.outcomes[0], pool) for o in outcomes)
    reached_set = {tuple(sorted(r)) for r in reached}
    failures = []
    for item in listed:
        if item not in reached_set:
            failures.append(f"listed outcome never reached: {dict(item)}")
    for item in reached_set:
        if item not in listed:
            failures.append(f"reached an outcome not listed: {dict(item)}")
    return failures


def _flat_keys(table: dict[str, Any]) -> list[str]:
    return [k for k, _ in _flat_items(table)]


def _flat_items(table: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in table.items():
        if isinstance(value, dict) and key not in ("counters", "ward", "spell"):
            for sub, v in value.items():
                yield f"{key}.{sub}", v
        else:
            yield key, value


def run_scenarios(scenarios: Sequence[Scenario], pool: CardPool | None = None) -> list[ScenarioResult]:
    return [run_scenario(s, pool) for s in scenarios]
