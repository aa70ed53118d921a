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
of wall-clock time for any run; a run over a limit stops with a 422 and a
sentence saying which limit and what to do.

This module is the adapter between the pages and ``executable_rules``: a
scenario's state is built with ``executable_rules.scenarios.ScenarioSetup``,
its steps run with ``scenario_steps`` (decisions recorded by a
``RecordingChooser``), and the zones after each event are recorded by
wrapping the state's ``emit``. Nothing from the
database is ever run: scenarios come from the project's files and the card
pool from the corpus, read once per process.
"""

from __future__ import annotations

import asyncio
import difflib
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from datasette.utils.asgi import Response

MAX_LIBRARY = 40
MAX_N = 20
MAX_OPPONENT = 8
MAX_CHOICES = 12
MAX_LINE = 100
MAX_SEED = 999_999
MAX_OUTCOMES = 200
EXPLORE_SECONDS = 1.0
RUN_SECONDS = 3.0
# Scenarios are our own files: they may explore more, but not without bound.
SCENARIO_OUTCOMES = 1000
SCENARIO_SECONDS = 2.0

_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kb-resolve")
# Lazy, so that "<id>.json" leaves ".json" to the format.
_SCENARIO_ID = r"(?P<id>[A-Za-z0-9._-]{1,120}?)"


class BadParameter(ValueError):
    """A field of a request is wrong: the message names it and says what it accepts."""


class OverLimit(RuntimeError):
    """A run went over a time or size limit."""


# ---------------------------------------------------------------- the scenarios and cards, once per process


@dataclass
class Library:
    """The card pool and the scenarios, loaded once; ``error`` says why not, if they couldn't be."""

    pool: Any = None
    scenarios: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


_library: Library | None = None
_library_lock = threading.Lock()


def library() -> Library:
    """The card pool (from the corpus) and the scenarios (from ``data/scenarios``), read once."""
    global _library
    if _library is not None:
        return _library
    with _library_lock:
        if _library is None:
            try:
                from executable_rules.card_pool import load_card_pool
                from executable_rules.scenarios import load_scenarios
                from kb.corpus import find_corpus

                pool = load_card_pool(find_corpus())
                scenarios = {s.id: s for s in load_scenarios(pool=pool)}
                _library = Library(pool, scenarios)
            except Exception as e:  # no corpus, a bad scenario file: the pages say so instead of failing
                _library = Library(error=f"the executable rules could not be loaded: {e}")
    return _library


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


def _zones(state) -> list:
    zones = [z for p in state.players for z in (p.library, p.hand, p.graveyard, p.outside)]
    return zones + [state.battlefield, state.stack, state.exile]


def zones_of(state) -> list[dict]:
    """Every zone with its cards (libraries top first), in a fixed order."""
    return [{"zone": z.label, "kind": z.kind.value, "cards": _card_names(state, z.cards)} for z in _zones(state)]


def _snapshot(state) -> tuple:
    return tuple((z.label, tuple(z.cards)) for z in _zones(state))


class Watcher:
    """Wraps ``state.emit`` to keep the zones after each event (keyed by the event object)."""

    def __init__(self, state):
        self.after: dict[int, tuple[Any, tuple]] = {}
        original = state.emit

        def emit(*args, **kwargs):
            event = original(*args, **kwargs)
            self.after[id(event)] = (event, _snapshot(state))
            return event

        state.emit = emit

    def zones_after(self, event) -> tuple | None:
        found = self.after.get(id(event))
        return found[1] if found and found[0] is event else None


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
            "changes": changes,
        })
    return steps


def outcome_tree(outcomes: list[dict]) -> dict:
    """The outcomes as a tree of choices: each node a choice, each leaf an outcome (by index).

    >>> tree = outcome_tree([{"choices": ["cast Shock", "target opponent"], "prompts": ["cast?", "target?"]},
    ...                      {"choices": ["put Shock into hand"], "prompts": ["cast?"]}])
    >>> [(c["choice"], c["outcome"], [g["choice"] for g in c["children"]]) for c in tree["children"]]
    [('cast Shock', None, ['target opponent']), ('put Shock into hand', 1, [])]
    """
    root: dict = {"choice": None, "prompt": None, "children": [], "outcome": None}
    for index, outcome in enumerate(outcomes):
        if not outcome["choices"]:
            root["children"].append({"choice": "(no choice)", "prompt": None, "children": [], "outcome": index})
            continue
        node = root
        for depth, label in enumerate(outcome["choices"]):
            prompt = outcome["prompts"][depth] if depth < len(outcome["prompts"]) else None
            child = next((c for c in node["children"] if c["choice"] == label), None)
            if child is None:
                child = {"choice": label, "prompt": prompt, "children": [], "outcome": None}
                node["children"].append(child)
            node = child
        node["outcome"] = index
    return root


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
    result: dict[str, Any] = {"before": zones_of(state), "explore": explore, "error": None}
    watcher = Watcher(state)
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
        result["outcomes"] = outcomes
        result["tree"] = outcome_tree(outcomes)
        result["by_first_choice"] = dict(exploration.by_first_choice)
    result["seconds"] = round(time.perf_counter() - started, 4)
    return result


# ---------------------------------------------------------------- scenarios


def resolve_scenario(scenario_id: str) -> dict:
    """Run the scenario ``scenario_id``: its verdict and its traced resolution. ``KeyError`` if unknown."""
    from executable_rules import scenarios as sc

    lib = library()
    scenario = lib.scenarios[scenario_id]
    verdict = sc.run_scenario(scenario, lib.pool, max_outcomes=SCENARIO_OUTCOMES, max_seconds=SCENARIO_SECONDS)
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
        "passed": verdict.passed, "failures": verdict.failures, "outcome_count": verdict.outcomes,
        "expects_error": bool(scenario.expect.get("error")), **traced,
    }


async def _in_thread(fn: Callable[[], Any]) -> Any:
    loop = asyncio.get_running_loop()
    try:
        return await asyncio.wait_for(loop.run_in_executor(_EXECUTOR, fn), timeout=RUN_SECONDS)
    except TimeoutError:
        raise OverLimit(f"the run took longer than {RUN_SECONDS:g} s and was stopped; "
                        "try a smaller library or fewer cards on the battlefield") from None


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
        data = await _in_thread(lambda: resolve_scenario(scenario_id))
    except OverLimit as e:
        return await _error(datasette, request, as_json, 422, str(e), "Scenario")
    if as_json:
        return Response.json(data)
    row_url = None
    try:
        db = datasette.get_database()
        if await db.table_exists("scenarios"):  # the build's row: its result when the database was built
            row_url = datasette.urls.row(db.name, "scenarios", scenario_id)
    except KeyError:
        pass
    return Response.html(await datasette.render_template(
        "kb_scenario.html", {"r": data, "tree_limit": MAX_OUTCOMES, "row_url": row_url}, request=request))


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
    for item in items:
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
    except BadParameter as e:
        status, context["error"] = 400, str(e)
    except OverLimit as e:
        status, context["error"] = 422, str(e)
    if as_json:
        if status != 200:
            return Response.json({"ok": False, "error": context["error"]}, status=status)
        return Response.json(context["r"])
    return Response.html(await datasette.render_template("kb_run.html", context, request=request), status=status)


def warm() -> None:
    """Load the card pool and scenarios now (the ``startup`` hook calls this in a thread)."""
    library()


ROUTES = [
    (r"^/-/scenarios(?:\.(?P<format>json))?$", scenarios_view),
    (rf"^/-/scenarios/{_SCENARIO_ID}(?:\.(?P<format>json))?$", scenario_view),
    (r"^/-/run/(?P<action>[^/.]{1,40})(?:\.(?P<format>json))?$", run_view),
]
