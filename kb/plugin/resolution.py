"""Resolution: run the executable rules in the browser, step by step.

Routes (each also as ``.json`` or ``?_format=json``):

- ``/-/scenarios`` — every scenario of ``data/scenarios/``, by keyword;
- ``/-/scenarios/<id>`` — run one: the zones before, each step (what moved,
  each decision and the options the rules forbid, the rule applied), the
  zones after, and whether it did what it expects; a scenario explored over
  every choice shows the tree of outcomes, one leaf per way through;
- ``/-/run/<action>`` — a form to run an action on a state the user edits
  (``/-/run/discover?n=3&library=Forest%0AShock``): every field is validated
  and a bad one is a 400 naming it.

Limits: a library of at most :data:`MAX_LIBRARY` cards, N from 0 to
:data:`MAX_N`, at most :data:`MAX_OUTCOMES` outcomes and
:data:`EXPLORE_SECONDS` seconds of exploring, and :data:`RUN_SECONDS` seconds
of CPU time for any run (the thread's own time: a busy machine makes a run
slower, not a failure; :data:`RUN_WALL_SECONDS` of waiting is the backstop); a
run over a limit stops with a 422 and a sentence saying which limit and what to do.

This module is the adapter between the pages and ``executable_rules``: a
scenario's state is built with ``executable_rules.scenarios.ScenarioSetup``,
its steps run with ``scenario_steps`` (decisions recorded by a
``RecordingChooser``), and the zones after each event are recorded by
wrapping the state's ``emit``. The scenarios and the cards they use come from
the served database (``scenario_files``, ``engine_cards``; other cards from
``cards``), read once per process: ``kb serve`` needs the database file and
nothing else. What the database holds is data — TOML scenarios, Oracle text —
read by the same loaders as the files; nothing from it is executed as code.

A scripted scenario's verdict (passed, failures) is the build's (``scenarios``) when the database
says it was played by the same engine as this server's (``scenario_engine``: every file of
``executable_rules/``, :func:`kb.load.scenario_cache.engine_version`): the engine is deterministic,
so playing it again for the verdict gave the same answer and cost half of a board view's first
visit. The traced run that draws the board is always this server's. Explored scenarios, and every
scenario of a database from another engine, are played for their verdict as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from datasette.utils.asgi import Response

from .fragments import render_resolution

MAX_LIBRARY = 40
MAX_N = 20
MAX_OPPONENT = 8
MAX_CHOICES = 12
MAX_LINE = 100
MAX_SEED = 999_999
MAX_OUTCOMES = 200
EXPLORE_SECONDS = 1.0
RUN_SECONDS = 3.0
RUN_WALL_SECONDS = 60.0
# Scenarios are our own files: they may explore more, but not without bound.
SCENARIO_OUTCOMES = 1000
SCENARIO_SECONDS = 2.0
MAX_BOARD_STEPS = 200   # steps of a run the board view can show (each keeps every card's state)

_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kb-resolve")
# Lazy, so that "<id>.json" leaves ".json" to the format.
_SCENARIO_ID = r"(?P<id>[A-Za-z0-9._-]{1,120}?)"


class BadParameter(ValueError):
    """A field of a request is wrong: the message names it and says what it accepts."""


class OverLimit(RuntimeError):
    """A run went over a time or size limit."""


class EngineLoading(OverLimit):
    """A fresh server is still loading the engine (answered 503: try again)."""


# ---------------------------------------------------------------- the scenarios and cards, once per process


@dataclass
class Library:
    """The card pool and the scenarios, loaded once; ``error`` says why not, if they couldn't be."""

    pool: Any = None
    scenarios: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    #: ``{id: (passed, failures, outcome_count)}`` of scripted scenarios, from the build (same engine only).
    verdicts: dict[str, tuple[bool, list[str], int]] = field(default_factory=dict)


_library: Library | None = None
_library_lock = threading.Lock()
_datasette: Any = None


def configure(datasette: Any) -> None:
    """Remember the Datasette instance whose database holds the card pool and the scenarios.

    One server is one instance. A process running several (the tests) keeps the one it has unless the new one
    serves the scenario tables too, so an instance over a database without them doesn't blank the pages of one
    with them."""
    global _datasette, _library
    if datasette is _datasette:
        return
    if datasette is not None and _datasette is not None and _has_tables(_datasette) and not _has_tables(datasette):
        return
    _datasette = datasette
    _library = None
    _RESOLVED.clear()


def _has_tables(datasette: Any) -> bool:
    return _instance_database(datasette) is not None


def _database_path() -> str | None:
    """The file of the first served database that has the executable rules' tables."""
    return _instance_database(_datasette) if _datasette is not None else None


def _instance_database(datasette: Any) -> str | None:
    for db in datasette.databases.values():
        path = getattr(db, "path", None)
        if not path:
            continue
        try:
            with _connect(path) as conn:
                if conn.execute("select 1 from sqlite_master where name = 'scenario_files'").fetchone():
                    return str(path)
        except Exception:
            continue
    return None


@contextlib.contextmanager
def _connect(path: str) -> Iterator[Any]:
    """A read-only connection to the served file, closed after use."""
    from kb.sqlite import sqlite3
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    try:
        yield conn
    finally:
        conn.close()


def _row_lookup(path: str) -> Callable[[str], Any]:
    """A card the scenarios don't use, from the database's ``cards`` (and ``card_faces``) tables, by English or
    Japanese name; None if it has none. Only data is read: a row becomes a card through its Oracle text."""
    from executable_rules.card_pool import card_from_row

    def lookup(name: str):
        try:
            with _connect(path) as conn:
                conn.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
                tables = {r["name"] for r in conn.execute("select name from sqlite_master where type = 'table'")}
                if "cards" not in tables:
                    return None
                # The exact name first, through the indexes; a case-insensitive match reads the whole table.
                row = (conn.execute("select * from cards where name_en = ? limit 1", [name]).fetchone()
                       or conn.execute("select * from cards where name_ja = ? limit 1", [name]).fetchone()
                       or conn.execute("select * from cards where name_en = ? collate nocase limit 1",
                                       [name]).fetchone())
                if row is None:
                    return None
                faces = []
                if "card_faces" in tables:
                    faces = conn.execute("select * from card_faces where card_id = ? order by face", [row["id"]]).fetchall()
                return card_from_row(row, faces)
        except Exception:
            return None

    return lookup


def library() -> Library:
    """The card pool and the scenarios, read once from the served database's tables (``engine_cards``,
    ``scenario_files``): the server needs the database file and nothing else."""
    global _library
    if _library is not None:
        return _library
    with _library_lock:
        if _library is None:
            try:
                from executable_rules.card_pool import pool_from_records
                from executable_rules.scenarios import load_scenarios

                path = _database_path()
                if path is None:
                    raise LookupError("the database has no scenario_files table; rebuild it with `kb build`")
                with _connect(path) as conn:
                    records = [json.loads(r[0]) for r in conn.execute("select record from engine_cards")]
                    files = [(p, t) for p, t in conn.execute("select path, text from scenario_files order by path")]
                    verdicts = built_verdicts(conn)
                pool = pool_from_records(records, _row_lookup(path))
                scenarios = {s.id: s for s in load_scenarios(pool=pool, files=files)}
                _library = Library(pool, scenarios, verdicts=verdicts)
            except Exception as e:  # an old database, a bad scenario file: the pages say so instead of failing
                _library = Library(error=f"the executable rules could not be loaded: {e}")
    return _library


def built_verdicts(conn) -> dict[str, tuple[bool, list[str], int]]:
    """The build's verdicts of the scripted scenarios when it played them with this server's engine, else {}."""
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    if not {"scenario_engine", "scenarios"} <= tables:
        return {}
    row = conn.execute("select version from scenario_engine").fetchone()
    try:
        from kb.load.scenario_cache import engine_version

        same = row is not None and row[0] == engine_version()
    except Exception:  # noqa: BLE001 - no project tree to digest (an installed copy): play every scenario
        same = False
    if not same:
        return {}
    return {sid: (bool(passed), json.loads(failures or "[]"), count) for sid, passed, failures, count in conn.execute(
        "select id, passed, failures, outcome_count from scenarios where explore = 0")}


def executable_rules_available() -> bool:
    return library().error is None


def _setup_names(scenario) -> list[str]:
    names = []
    for value in scenario.setup.values():
        if isinstance(value, dict):
            for entries in value.values():
                if isinstance(entries, list):
                    names += [(e["card"] if isinstance(e, dict) else str(e)).split("#")[0] for e in entries]
    return list(dict.fromkeys(names))


def scenario_summary(scenario) -> dict:
    """What a list of scenarios shows of one (plain data)."""
    lib = library()
    cards = []
    for name in _setup_names(scenario):
        try:
            cards.append(lib.pool.find(name).name)
        except Exception:
            cards.append(name)
    return {
        "id": scenario.id, "title": scenario.title, "keyword": scenario.keyword, "rules": list(scenario.rules),
        "also": [{"title": c.keyword, "number": c.number} for c in scenario.also],
        "explore": scenario.explore, "source": dict(scenario.source), "file": f"{scenario.path}:{scenario.line}",
        "cards": list(dict.fromkeys(cards)), "url": f"/-/scenarios/{scenario.id}",
    }


def with_links(datasette, items: list[dict]) -> list[dict]:
    """Scenario summaries as the pages list them: the scenario page's URL (the Run button's action too)
    and a link for each rule number."""
    from .links import rule_url

    return [{**sc, "page_url": datasette.urls.path(sc["url"]),
             "rule_links": [(n, rule_url(datasette, n)) for n in sc["rules"]]} for sc in items]


def scenarios_for_rules(numbers: list[str]) -> list[dict]:
    """Scenarios of these rules (numbers of the newest CR) or of subrules under them."""
    lib = library()
    if lib.error:
        return []
    from executable_rules.scenarios import select_scenarios

    found: dict[str, Any] = {}
    for number in numbers:
        if re.fullmatch(r"\d{3}(?:\.\d+[a-z]?)?", number):
            for s in select_scenarios(list(lib.scenarios.values()), number):
                found.setdefault(s.id, s)
    return [scenario_summary(s) for s in found.values()]


def scenarios_by_id(ids: list[str]) -> list[dict]:
    """The scenarios with these ids (from the ``scenario_rules`` table), in the order of their files;
    an id the files no longer have is left out."""
    lib = library()
    wanted = set(ids)
    return [scenario_summary(s) for s in lib.scenarios.values() if s.id in wanted]


def scenarios_for_keyword(title: str) -> list[dict]:
    """Scenarios of the action module for keyword ``title`` (any of its names)."""
    lib = library()
    if lib.error:
        return []
    from executable_rules.actions import UnknownAction, find_action

    try:
        module = find_action(title)
    except UnknownAction:
        return []
    return [scenario_summary(s) for s in lib.scenarios.values() if s.module is module]


# ---------------------------------------------------------------- watching a run


def _card_names(state, ids) -> list[dict]:
    out = []
    for c in ids:
        if c in state.cards:
            card = state.cards[c]
            if c in state.spells:
                name = state.spells[c].face.name
            else:
                name = card.display_name
            name_ja = None if card.face_down else getattr(card.oracle, "name_ja", None)
            out.append({"name": name, "name_ja": name_ja})
        elif c in state.abilities:
            out.append({"name": state.abilities[c].label, "name_ja": None})
        else:
            out.append({"name": f"#{c}", "name_ja": None})
    return out


def _chip(state, c: int) -> dict:
    """One card as the board shows it: both names, and what a judge looks at on the table."""
    card = state.cards.get(c)
    if card is None:
        return _card_names(state, [c])[0]
    chip = _card_names(state, [c])[0]
    chip.update({"face_down": bool(card.face_down), "tapped": card.tapped, "token": bool(card.is_token),
                 "counters": {k: v for k, v in card.counters.items() if v}, "damage": card.damage})
    if c in state.battlefield.cards:
        try:
            from executable_rules.engine.layers import characteristics

            ch = characteristics(state, c)
            chip["colors"] = ch.color_names
            if ch.power is not None and ch.toughness is not None:
                chip["pt"] = f"{ch.power}/{ch.toughness}"
        except Exception:  # a board is a view: a card the layers can't read still shows by name
            pass
    return chip


def board_of(state) -> list[dict]:
    """Every zone with its cards as chips (libraries top first), in the order of :func:`zones_of`."""
    return [{"zone": z.label, "kind": z.kind.value, "cards": [_chip(state, c) for c in z.cards]}
            for z in _zones(state)]


def _zones(state) -> list:
    zones = [z for p in state.players for z in (p.library, p.hand, p.graveyard, p.outside)]
    return zones + [state.battlefield, state.stack, state.exile]


def zones_of(state) -> list[dict]:
    """Every zone with its cards (libraries top first), in a fixed order."""
    return [{"zone": z.label, "kind": z.kind.value, "cards": _card_names(state, z.cards)} for z in _zones(state)]


def _snapshot(state) -> tuple:
    return tuple((z.label, tuple(z.cards)) for z in _zones(state))


class Watcher:
    """Wraps ``state.emit`` to keep the zones after each event (keyed by the event object), and the
    board (every card's state) for up to ``boards`` events: the board view steps through them."""

    def __init__(self, state, boards: int = 0):
        self.after: dict[int, tuple[Any, tuple, list | None]] = {}
        self.boards = boards
        original = state.emit

        def emit(*args, **kwargs):
            event = original(*args, **kwargs)
            board = None
            if self.boards > 0:
                self.boards -= 1
                board = board_of(state)
            self.after[id(event)] = (event, _snapshot(state), board)
            return event

        state.emit = emit

    def zones_after(self, event) -> tuple | None:
        found = self.after.get(id(event))
        return found[1] if found and found[0] is event else None

    def board_after(self, event) -> list | None:
        found = self.after.get(id(event))
        return found[2] if found and found[0] is event else None


def describe_steps(state, events, watcher: Watcher | None, before: tuple) -> list[dict]:
    """Each event as a step: what happened, by whom, the rule, and the zones it changed."""
    steps = []
    previous = dict(before)
    for i, event in enumerate(events, 1):
        after = watcher.zones_after(event) if watcher else None
        changes = []
        if after is not None:
            for label, cards in after:
                if previous.get(label, ()) != cards:
                    changes.append({"zone": label, "before": _card_names(state, previous.get(label, ())),
                                    "after": _card_names(state, cards)})
            previous = dict(after)
        citation = event.citation
        text = event.describe()
        if citation and text.endswith(f" ({citation})"):
            text = text[: -len(f" ({citation})")]  # the rule is shown as a link of its own
        steps.append({
            "n": i, "kind": event.kind.value, "player": event.player, "text": text,
            "names": list(event.names), "detail": event.detail, "choice": event.kind.value == "choice",
            "rule": {"title": citation.keyword, "number": citation.number} if citation else None,
            "changes": changes, "board": watcher.board_after(event) if watcher else None,
        })
    return steps


def outcome_tree(outcomes: list[dict]) -> dict:
    """The outcomes as a tree of choices: each node a choice, each leaf an outcome (by index).

    Two options may read the same ("find Howling Mine" in two libraries): their outcomes end at one
    node, so a node keeps every outcome that ends there (``outcomes``; ``outcome`` is the first).

    >>> tree = outcome_tree([{"choices": ["cast Shock", "target opponent"], "prompts": ["cast?", "target?"]},
    ...                      {"choices": ["put Shock into hand"], "prompts": ["cast?"]}])
    >>> [(c["choice"], c["outcome"], [g["choice"] for g in c["children"]]) for c in tree["children"]]
    [('cast Shock', None, ['target opponent']), ('put Shock into hand', 1, [])]
    >>> same = outcome_tree([{"choices": ["find Mine"], "prompts": ["?"]}, {"choices": ["find Mine"], "prompts": ["?"]}])
    >>> [(c["choice"], c["outcomes"]) for c in same["children"]]
    [('find Mine', [0, 1])]
    """
    root: dict = {"choice": None, "prompt": None, "children": [], "outcome": None, "outcomes": []}
    for index, outcome in enumerate(outcomes):
        if not outcome["choices"]:
            root["children"].append({"choice": "(no choice)", "prompt": None, "children": [], "outcome": index,
                                     "outcomes": [index]})
            continue
        node = root
        for depth, label in enumerate(outcome["choices"]):
            prompt = outcome["prompts"][depth] if depth < len(outcome["prompts"]) else None
            child = next((c for c in node["children"] if c["choice"] == label), None)
            if child is None:
                child = {"choice": label, "prompt": prompt, "children": [], "outcome": None, "outcomes": []}
                node["children"].append(child)
            node = child
        if node["outcome"] is None:
            node["outcome"] = index
        node["outcomes"].append(index)
    return root


def outcome_differences(outcomes: list[dict]) -> list[list[dict]]:
    """For each outcome, what sets it apart: the zones whose cards are not the same in every outcome
    (with this outcome's cards there), and how it ended when not every outcome ended alike.

    >>> a = {"termination": "completed", "after": [{"zone": "hand", "cards": [{"name": "Shock"}]},
    ...                                            {"zone": "library", "cards": [{"name": "Forest"}]}]}
    >>> b = {"termination": "completed", "after": [{"zone": "hand", "cards": []},
    ...                                            {"zone": "library", "cards": [{"name": "Forest"}]}]}
    >>> outcome_differences([a, b])
    [[{'zone': 'hand', 'cards': ['Shock']}], [{'zone': 'hand', 'cards': []}]]
    """
    def zones(o: dict) -> dict[str, list[str]]:
        return {z["zone"]: [c["name"] for c in z["cards"]] for z in o["after"]}

    tables = [zones(o) for o in outcomes]
    labels = list(dict.fromkeys(label for t in tables for label in t))
    differing = [label for label in labels if len({tuple(t.get(label, [])) for t in tables}) > 1]
    endings = {o["termination"] for o in outcomes}
    found = []
    for o, table in zip(outcomes, tables):
        items = [{"zone": label, "cards": table.get(label, [])} for label in differing]
        if len(endings) > 1:
            items.insert(0, {"zone": "ended", "cards": [o["termination"]]})
        found.append(items)
    return found


def _prompts(events) -> list[str]:
    return [e.detail.split(" [illegal:")[0].replace("; the only legal choice", "")
            for e in events if e.kind.value == "choice"]


def run_traced(state, action: Callable[[Any, Any], Any], *, explore: bool, choose=None,
               max_outcomes: int | None = None, max_seconds: float | None = None) -> dict:
    """Run ``action(state, choose)`` once with ``choose``, or over every choice; say what happened.

    Exploring stops at ``max_outcomes`` outcomes or ``max_seconds`` (default: :data:`MAX_OUTCOMES`,
    :data:`EXPLORE_SECONDS`) with :class:`OverLimit`.
    """
    max_outcomes = MAX_OUTCOMES if max_outcomes is None else max_outcomes
    max_seconds = EXPLORE_SECONDS if max_seconds is None else max_seconds
    from executable_rules.choices import explore as explore_choices
    from executable_rules.errors import ExplorationLimit, IllegalChoice

    started = time.perf_counter()
    before_snapshot = _snapshot(state)
    result: dict[str, Any] = {"before": zones_of(state), "before_board": board_of(state), "explore": explore,
                              "error": None}
    # Boards for the steps a page shows: the run's, or the first outcome's when exploring.
    watcher = Watcher(state, boards=MAX_BOARD_STEPS)
    if not explore:
        error = None
        try:
            action(state, choose)
        except IllegalChoice as e:
            error = {"kind": "illegal choice", "message": str(e),
                     "rule": {"title": e.citation.keyword, "number": e.citation.number} if e.citation else None}
        events = state.rolled_back_events if error and state.rolled_back_events else state.events
        result["steps"] = describe_steps(state, events, watcher, before_snapshot)
        result["error"] = error
        if error:
            result["note"] = "The action was rolled back: the state is as it was before it."
        result["after"] = zones_of(state)
        result["outcomes"], result["tree"] = [], None
    else:
        try:
            exploration = explore_choices(action, state, max_outcomes=max_outcomes, max_seconds=max_seconds)
        except ExplorationLimit as e:
            raise OverLimit(f"exploring every choice stopped at the limit of {max_outcomes} outcomes and "
                            f"{max_seconds:g} s: give a smaller library or fewer cards on the battlefield, or "
                            f"run with mode=choices ({e})") from None
        outcomes = []
        for o in exploration.outcomes:
            events = o.state.events
            outcomes.append({
                "choices": list(o.choices), "prompts": _prompts(events), "termination": o.termination.value,
                "steps": describe_steps(o.state, events, watcher, before_snapshot),
                "after": zones_of(o.state),
            })
        result["steps"] = outcomes[0]["steps"] if outcomes else []
        result["after"] = outcomes[0]["after"] if outcomes else result["before"]
        for o, differs in zip(outcomes, outcome_differences(outcomes)):
            o["differs"] = differs
        result["outcomes"] = outcomes
        result["tree"] = outcome_tree(outcomes)
        result["by_first_choice"] = dict(exploration.by_first_choice)
    for other in result.get("outcomes", [])[1:]:
        for step in other["steps"]:
            step.pop("board", None)
    result["board"] = board_frames(result.pop("before_board"), result["steps"])
    result["seconds"] = round(time.perf_counter() - started, 4)
    return result


def board_frames(before: list[dict], steps: list[dict]) -> dict:
    """The board view of a run: a frame before the first step and after each step that kept its board,
    with the zones that hold a card in any frame as the columns (the same columns in every frame).

    >>> zone = lambda name, *cards: {"zone": name, "kind": "hand", "cards": [{"name": c} for c in cards]}
    >>> b = board_frames([zone("hand", "Shock"), zone("exile")],
    ...                  [{"n": 1, "text": "exile Shock", "rule": None, "board": [zone("hand"), zone("exile", "Shock")]}])
    >>> b["columns"], [f["zones"]["exile"] for f in b["frames"]]
    (['hand', 'exile'], [[], [{'name': 'Shock'}]])
    """
    frames = [{"n": 0, "text": "before the first step", "rule": None, "player": None,
               "zones": {z["zone"]: z["cards"] for z in before}}]
    for step in steps:
        board = step.pop("board", None)
        if board is not None:
            frames.append({"n": step["n"], "text": step["text"], "rule": step["rule"], "player": step.get("player"),
                           "zones": {z["zone"]: z["cards"] for z in board}})
    columns = [z["zone"] for z in before if any(f["zones"].get(z["zone"]) for f in frames)]
    return {"columns": columns, "frames": frames, "total_steps": len(steps)}


# ---------------------------------------------------------------- scenarios


def resolve_scenario(scenario_id: str) -> dict:
    """Run the scenario ``scenario_id``: its verdict and its traced resolution. ``KeyError`` if unknown."""
    from executable_rules import scenarios as sc

    lib = library()
    scenario = lib.scenarios[scenario_id]
    built = None if scenario.explore else lib.verdicts.get(scenario_id)
    if built is not None:
        passed, failures, outcome_count = built
    else:
        verdict = sc.run_scenario(scenario, lib.pool, max_outcomes=SCENARIO_OUTCOMES, max_seconds=SCENARIO_SECONDS)
        passed, failures, outcome_count = verdict.passed, verdict.failures, verdict.outcomes
    setup = sc.ScenarioSetup(scenario, lib.pool)
    steps = sc.scenario_steps(sc.ScenarioRun(setup))
    try:
        if scenario.explore:
            traced = run_traced(setup.state, steps, explore=True, max_outcomes=SCENARIO_OUTCOMES,
                                max_seconds=SCENARIO_SECONDS)
        else:
            recorder = sc.RecordingChooser(sc.Scripted(scenario.decisions))
            traced = run_traced(setup.state, lambda s, c: steps(s, recorder), explore=False)
    except OverLimit:
        raise
    except Exception as e:  # a scenario that fails to run is a FAIL the verdict explains
        traced = {"before": zones_of(setup.state), "steps": [], "after": zones_of(setup.state),
                  "outcomes": [], "tree": None, "explore": scenario.explore,
                  "error": {"kind": "did not run", "message": f"{type(e).__name__}: {e}", "rule": None}}
    return {
        "ok": True, **scenario_summary(scenario), "decisions": list(scenario.decisions),
        "passed": passed, "failures": list(failures), "outcome_count": outcome_count,
        "expects_error": bool(scenario.expect.get("error")), **traced,
    }


class _Kept:
    """A small LRU of resolved scenarios: a scenario is data from the served (immutable) file and the
    engine is deterministic, so its resolution is the same each time it is asked for within a process."""

    def __init__(self, size: int):
        from collections import OrderedDict

        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_RESOLVED = _Kept(128)


async def _in_thread(fn: Callable[[], Any]) -> Any:
    loop = asyncio.get_running_loop()
    # The engine loading (a fresh server) is waited for outside the run's time limit.
    if not await loop.run_in_executor(None, wait_until_warm):
        raise EngineLoading("the executable rules are still loading; try again in a moment")
    worker: dict[str, Any] = {}

    def measured() -> Any:
        clock = time.pthread_getcpuclockid(threading.get_ident())
        worker["start"] = time.clock_gettime(clock)      # the pool's thread has run other work before
        worker["clock"] = clock
        return fn()

    future = loop.run_in_executor(_EXECUTOR, measured)
    started = time.monotonic()
    while True:
        done, _ = await asyncio.wait({future}, timeout=0.05)
        if done:
            return future.result()
        clock = worker.get("clock")
        used = time.clock_gettime(clock) - worker["start"] if clock is not None else 0.0
        if used > RUN_SECONDS or time.monotonic() - started > RUN_WALL_SECONDS:
            future.cancel()
            raise OverLimit(f"the run took longer than {RUN_SECONDS:g} s and was stopped; "
                            "try a smaller library or fewer cards on the battlefield")


def _wants_json(request) -> bool:
    return request.url_vars.get("format") == "json" or request.args.get("_format") == "json"


async def _error(datasette, request, as_json, status, message, title="Error"):
    if as_json:
        return Response.json({"ok": False, "error": message}, status=status)
    html = await datasette.render_template(
        "kb_error.html", {"title": title, "message": message, "status": status}, request=request)
    return Response.html(html, status=status)


async def scenario_view(datasette, request):
    as_json = _wants_json(request)
    scenario_id = request.url_vars["id"]
    unknown = sorted(set(request.args) - {"_format"})
    if unknown:
        return await _error(datasette, request, as_json, 400,
                            f"unknown parameter {unknown[0]!r}; a scenario page takes no parameters but _format")
    lib = library()
    if lib.error:
        return await _error(datasette, request, as_json, 503, lib.error, "Scenarios")
    if scenario_id not in lib.scenarios:
        near = difflib.get_close_matches(scenario_id, list(lib.scenarios), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else "; see /-/scenarios for the list"
        return await _error(datasette, request, as_json, 404, f"no scenario {scenario_id!r}{hint}", "Scenario")
    try:
        data = _RESOLVED.get(scenario_id)
        if data is None:
            data = await _in_thread(lambda: resolve_scenario(scenario_id))
            if len(data.get("outcomes") or ()) <= MAX_OUTCOMES:
                _RESOLVED.put(scenario_id, data)
    except OverLimit as e:
        return await _error(datasette, request, as_json, 503 if isinstance(e, EngineLoading) else 422, str(e),
                            "Scenario")
    if as_json:
        return Response.json(data)
    from .rule_page import HTML, HtmlCache

    try:
        html_key = HtmlCache.key(datasette.get_database(), request, "scenario", id(data))
    except KeyError:
        html_key = None
    html = HTML.get(html_key)
    if html is not None:
        return Response.html(html)
    row_url = None
    translations: list[dict] = []
    try:
        db = datasette.get_database()
        if await db.table_exists("scenarios"):  # the build's row: its result when the database was built
            row_url = datasette.urls.row(db.name, "scenarios", scenario_id)
        translations = await example_translations(db, data.get("source") or {})
    except KeyError:
        pass
    html = await datasette.render_template(
        "kb_scenario.html", {"r": data, "resolution_html": render_resolution(datasette, data, MAX_OUTCOMES),
                             "row_url": row_url, "translations": translations}, request=request)
    HTML.put(html_key, html)
    return Response.html(html)


LANGUAGE_NAMES = {"ja": "日本語", "zh": "简体中文", "ko": "한국어"}


async def example_translations(db, source: dict) -> list[dict]:
    """The CR example a scenario runs, in every other language the database has it in (the newest
    release of each), found through the rule alignment (the translation's number for the English one)."""
    if source.get("kind") != "cr-example" or not await db.table_exists("rule_alignment"):
        return []
    rule, seq = str(source.get("rule", "")), source.get("seq")
    if not re.fullmatch(r"\d{3}\.\d+[a-z]?", rule) or not isinstance(seq, int):
        return []
    # A translation of the newest English release is numbered as it is; an older one, through the alignment.
    rows = await db.execute(
        "select lang, release, rule_number, text, 0 as via from examples where lang != 'en' and rule_number = ?"
        " and seq = ? and release = (select max(release) from releases where lang = 'en')"
        " union all "
        "select e.lang, e.release, e.rule_number, e.text, 1 from rule_alignment a join examples e"
        " on e.release = a.release and e.lang = a.lang and e.rule_number = a.number"
        " where a.number_en = ? and e.seq = ? and a.lang != 'en' order by 1, 5, 2 desc", [rule, seq, rule, seq])
    found: dict[str, dict] = {}
    for r in rows:
        found.setdefault(r["lang"], {"lang": r["lang"], "language": LANGUAGE_NAMES.get(r["lang"], r["lang"]),
                                     "release": r["release"], "number": r["rule_number"], "text": r["text"]})
    return list(found.values())


async def scenarios_view(datasette, request):
    as_json = _wants_json(request)
    unknown = sorted(set(request.args) - {"_format", "keyword"})
    if unknown:
        return await _error(datasette, request, as_json, 400,
                            f"unknown parameter {unknown[0]!r}; the scenario list takes keyword and _format")
    lib = library()
    if lib.error:
        return await _error(datasette, request, as_json, 503, lib.error, "Scenarios")
    keyword = (request.args.get("keyword") or "").strip()
    scenarios = list(lib.scenarios.values())
    if keyword:
        from executable_rules.actions import UnknownAction, find_action

        try:
            module = find_action(keyword)
        except UnknownAction as e:
            return await _error(datasette, request, as_json, 400, f"keyword: {e}", "Scenarios")
        scenarios = [s for s in scenarios if s.module is module]
    items = [scenario_summary(s) for s in scenarios]
    if as_json:
        return Response.json({"ok": True, "scenarios": items})
    groups: dict[str, list[dict]] = {}
    for item in with_links(datasette, items):
        groups.setdefault(item["keyword"], []).append(item)
    return Response.html(await datasette.render_template(
        "kb_scenarios.html", {"groups": groups, "keyword": keyword, "forms": sorted(FORMS)}, request=request))


# ---------------------------------------------------------------- the form: an action on a state the user edits


def _lines(args, name: str, limit: int, what: str) -> list[tuple[int, str]]:
    raw = args.get(name) or ""
    lines = [(i, line.strip()) for i, line in enumerate(raw.replace("\r\n", "\n").split("\n"), 1) if line.strip()]
    for i, line in lines:
        if len(line) > MAX_LINE:
            raise BadParameter(f"{name} line {i} is {len(line)} characters long; at most {MAX_LINE} are accepted")
    if len(lines) > limit:
        raise BadParameter(f"{name} has {len(lines)} {what}; at most {limit} are accepted")
    return lines


def _whole(args, name: str, low: int, high: int, default: int | None) -> int:
    raw = (args.get(name) or "").strip()
    if not raw:
        if default is None:
            raise BadParameter(f"{name} is required: a whole number from {low} to {high}")
        return default
    if not re.fullmatch(r"[0-9]{1,9}", raw) or not low <= int(raw) <= high:  # isdigit() takes ² and ①
        raise BadParameter(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)


def find_card(pool, name: str, field_name: str, line: int):
    """The card called ``name`` (English or Japanese); :class:`BadParameter` naming the field and line."""
    if name in pool:
        return pool.find(name)
    names = list(pool.cards) + [c.name_ja for c in pool.cards.values() if getattr(c, "name_ja", None)]
    near = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f'; did you mean "{near[0]}"?' if near else "; use an English or Japanese name from the cards table"
    raise BadParameter(f'{field_name} line {line}: unknown card "{name}"{hint}')


class FormChooser:
    """Answer decisions from the form's ``choices`` lines, in order; a wrong or missing line is a 400."""

    def __init__(self, labels: list[tuple[int, str]]):
        self.labels = labels
        self.used = 0

    @staticmethod
    def _options(decision) -> str:
        return ", ".join(repr(o.label) for o in decision.legal_choices())

    def __call__(self, decision):
        if self.used >= len(self.labels):
            raise BadParameter(f"choices: {decision.player} must decide {decision.prompt!r}; add a line with one of "
                               f"{self._options(decision)}")
        line, label = self.labels[self.used]
        self.used += 1
        option = decision.find(label)
        if option is None:
            raise BadParameter(f"choices line {line}: {label!r} is not an option of {decision.prompt!r}; "
                               f"the options are {self._options(decision)}")
        return option

    def forced(self, decision, only):
        if self.used < len(self.labels):
            option = decision.find(self.labels[self.used][1])
            if option is not None and (option.label == only.label or not option.legal):
                self.used += 1
                return option
        return only


class DiscoverForm:
    """Discover N over a library the user lists (Discover — CR 701.57)."""

    action = "discover"
    title = "Discover N"
    title_ja = "発見N"
    rule = "701.57"
    fields = ("n", "library", "opponent", "mode", "choices", "seed")
    example = {"n": "3", "library": "Forest\nDarksteel Colossus\nShock\nIsland\nGrizzly Bears",
               "opponent": "Grizzly Bears", "mode": "explore", "choices": "", "seed": "0"}

    @staticmethod
    def parse(args, pool) -> dict:
        """Validate every field; raise :class:`BadParameter` naming the first bad one."""
        unknown = sorted(set(args) - set(DiscoverForm.fields) - {"_format"})
        if unknown:
            raise BadParameter(f"unknown parameter {unknown[0]!r}; the discover form takes "
                               + ", ".join(DiscoverForm.fields))
        n = _whole(args, "n", 0, MAX_N, None)
        library_lines = _lines(args, "library", MAX_LIBRARY, "cards")
        if not library_lines:
            raise BadParameter("library is empty: list the cards of the library, one name per line, top first")
        opponent_lines = _lines(args, "opponent", MAX_OPPONENT, "cards")
        mode = (args.get("mode") or "explore").strip()
        if mode not in ("explore", "choices"):
            raise BadParameter(f"mode must be explore or choices, not {mode!r}")
        choice_lines = _lines(args, "choices", MAX_CHOICES, "lines")
        if choice_lines and mode != "choices":
            raise BadParameter("choices are only read with mode=choices; with mode=explore every choice is walked")
        seed = _whole(args, "seed", 0, MAX_SEED, 0)
        return {
            "n": n, "seed": seed, "mode": mode, "choices": choice_lines,
            "library": [find_card(pool, name, "library", i) for i, name in library_lines],
            "opponent": [find_card(pool, name, "opponent", i) for i, name in opponent_lines],
        }

    @staticmethod
    def run(params: dict) -> dict:
        from executable_rules.actions.discover import discover
        from executable_rules.model import GameState, ZoneKind

        state = GameState.new(["you", "opponent"], seed=params["seed"])
        for card in params["library"]:
            state.add_card(card, "you", ZoneKind.LIBRARY)
        for card in params["opponent"]:
            state.add_card(card, "opponent", ZoneKind.BATTLEFIELD)
        n = params["n"]
        if params["mode"] == "explore":
            return run_traced(state, lambda s, c: discover(s, "you", n, choose=c), explore=True)
        chooser = FormChooser(params["choices"])
        traced = run_traced(state, lambda s, c: discover(s, "you", n, choose=c), explore=False, choose=chooser)
        if chooser.used < len(chooser.labels):
            line, label = chooser.labels[chooser.used]
            raise BadParameter(f"choices line {line}: {label!r} was never asked for; the run needed "
                               f"{chooser.used} choice(s)")
        return traced


FORMS = {"discover": DiscoverForm}


async def run_view(datasette, request):
    as_json = _wants_json(request)
    from urllib.parse import unquote

    from executable_rules.actions import UnknownAction, find_action, module_name

    name = unquote(request.url_vars["action"])  # routes match the raw path: /-/run/%E7%99%BA%E8%A6%8B is 発見

    try:
        module = find_action(name)
    except UnknownAction as e:
        return await _error(datasette, request, as_json, 404, str(e), "Run an action")
    form = FORMS.get(module_name(module))
    if form is None:
        return await _error(datasette, request, as_json, 404,
                            f"no form for {module.KEYWORD} yet; forms: {', '.join(sorted(FORMS))}", "Run an action")
    lib = library()
    if lib.error:
        return await _error(datasette, request, as_json, 503, lib.error, "Run an action")
    submitted = any(k in request.args for k in form.fields)
    values = {k: request.args.get(k) or "" for k in form.fields} if submitted else dict(form.example)
    context = {"form": form, "values": values, "r": None, "error": None, "tree_limit": MAX_OUTCOMES,
               "limits": {"library": MAX_LIBRARY, "n": MAX_N, "opponent": MAX_OPPONENT, "choices": MAX_CHOICES,
                          "outcomes": MAX_OUTCOMES, "seconds": EXPLORE_SECONDS, "run_seconds": RUN_SECONDS}}
    if not submitted:
        if as_json:
            return await _error(datasette, request, True, 400,
                                f"give the form's fields: {', '.join(form.fields)} (n and library are required)")
        return Response.html(await datasette.render_template("kb_run.html", context, request=request))
    status = 200
    try:
        params = form.parse(request.args, lib.pool)
        data = await _in_thread(lambda: form.run(params))
        context["r"] = {"ok": True, "action": form.action, "n": params["n"], "mode": params["mode"],
                        "seed": params["seed"], **data}
        context["resolution_html"] = render_resolution(datasette, context["r"], MAX_OUTCOMES)
    except BadParameter as e:
        status, context["error"] = 400, str(e)
    except OverLimit as e:
        status, context["error"] = 503 if isinstance(e, EngineLoading) else 422, str(e)
    if as_json:
        if status != 200:
            return Response.json({"ok": False, "error": context["error"]}, status=status)
        return Response.json(context["r"])
    return Response.html(await datasette.render_template("kb_run.html", context, request=request), status=status)


_warmed = threading.Event()
WARM_SECONDS = 120.0   # how long a run waits for the engine to load before answering 503


def warm(datasette: Any = None) -> None:
    """Load the card pool and scenarios, then build the Oracle grammar (the ``startup`` hook calls this in a
    thread): building it takes seconds, which must not count against a run's time limit. Cards are parsed
    by the runs that use them (a few lines each): parsing them all here would hold the interpreter for
    seconds while the first pages are asked for."""
    if datasette is not None:
        configure(datasette)
    _warming_started.set()
    try:
        lib = library()
        if lib.pool is not None:
            from executable_rules.oracle.parser import parse_line
            parse_line("Flying", "warm-up")
    finally:
        _warmed.set()


def wait_until_warm(timeout: float = WARM_SECONDS) -> bool:
    """Whether the engine finished loading (waiting up to ``timeout``); without a warm-up (a library
    used outside ``kb serve``) the first run loads what it needs itself."""
    if _warming_started.is_set():
        return _warmed.wait(timeout)
    return True


_warming_started = threading.Event()


FORM_CARDS = tuple(dict.fromkeys(DiscoverForm.example["library"].split("\n") + DiscoverForm.example["opponent"].split("\n")))
"""The cards the forms' examples use: the build puts them into ``engine_cards`` too."""


ROUTES = [
    (r"^/-/scenarios(?:\.(?P<format>json))?$", scenarios_view),
    (rf"^/-/scenarios/{_SCENARIO_ID}(?:\.(?P<format>json))?$", scenario_view),
    (r"^/-/run/(?P<action>[^/.]{1,40})(?:\.(?P<format>json))?$", run_view),
]
