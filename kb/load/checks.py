"""Build step: the executable rules' checks and scenarios, linked to rules, cards and rulings.

Tables:

- ``checks`` — one row per action of ``executable_rules.actions``: its keyword
  (the link, by title), kind, module and function, Japanese names, the
  subrules it implements and those out of the model's reach (``out_of_reach``,
  letter → reason, as JSON), its number in the newest English release, and how
  many of its scenarios passed when the database was built.
- ``check_rules`` — check × release × language × rule number: the keyword
  resolved by title in every release (``rules.title`` of a numbered rule under
  701/702, or of a rule such as 121 "Drawing a Card", for English; ``title_en``
  for Japanese rows), then each declared subrule under it. Numbers move between
  releases; the title doesn't, so these links never go stale. A subrule letter
  is assumed to keep its meaning under its keyword; ``similarity`` (0–1, the
  English text against the newest release's) shows where it may not.
- ``scenarios`` — one row per scenario of ``data/scenarios/``: its source,
  setup, actions and expectations as JSON text, and the result of running it
  at build time (``passed``, ``failures``, ``trace``).
- ``scenario_rules`` — scenario × release × language × number, for the
  subrules it illustrates (by its keyword and subrule letter) and the rules it
  cites in ``also`` (by title).
- ``scenario_examples`` — a CR example scenario and the ``examples`` rows it
  quotes, in every release where the excerpt is found under the resolved rule.
- ``scenario_cards`` — the cards a scenario uses (``cards.id`` when that table has them).
- ``scenario_rulings`` / ``scenario_card_rulings`` — a wiki-ruling scenario and
  the ``rulings`` rows of that page with that exact text; a card-ruling scenario
  and the ``card_rulings`` rows with that date and text (any card: the same
  ruling printed on several cards is one scenario). Made only when those tables
  exist (the wiki and card steps create them); skipped quietly otherwise.

A link that can't be resolved (a rule number not under its keyword in the
newest release) becomes an ``ingest_problems`` row, not a failed build; a
scenario that fails is a warning. A scenario file that can't be read stops the
build (or, with ``--keep-going``, is a problem).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ingest.records import IngestProblem, SourceError

from ..build import BuildContext, insert_rows
from ..history import word_similarity

CHECK_TABLES: dict[str, dict] = {
    # The engine the scenarios' results were played with (kb.load.scenario_cache.engine_version): a server
    # running the same engine shows a scripted scenario's stored verdict instead of playing it twice.
    "scenario_engine": dict(columns={"version": str}, pk="version"),
    "checks": dict(
        columns={
            "keyword": str, "kind": str, "module": str, "function": str, "summary": str, "name_ja": str,
            "names_ja": str, "subrules": str, "out_of_reach": str, "newest_release": str, "newest_number": str, "scenarios": int,
            "passed": int,
        },
        pk="keyword",
    ),
    "check_rules": dict(
        columns={"keyword": str, "release": str, "lang": str, "number": str, "subrule": str, "how": str,
                 "similarity": float},
        pk=("keyword", "release", "lang", "number"),
        foreign_keys=[("keyword", "checks", "keyword")],
    ),
    "scenarios": dict(
        columns={
            "id": str, "keyword": str, "subrules": str, "rules": str, "title": str, "source_kind": str,
            "source_page": str, "source_card": str, "source_date": str, "source_rule": str, "source_seq": int,
            "source_text": str, "source_project": str, "source_file": str, "source_test": str, "also": str, "setup": str, "action": str, "decisions": str, "explore": int,
            "expect": str, "outcomes": str, "passed": int, "failures": str, "trace": str, "outcome_count": int,
            "file": str, "line": int,
        },
        pk="id",
        foreign_keys=[("keyword", "checks", "keyword")],
    ),
    "scenario_rules": dict(
        columns={"scenario_id": str, "release": str, "lang": str, "number": str, "how": str, "cited_as": str,
                 "similarity": float},
        pk=("scenario_id", "release", "lang", "number"),
        foreign_keys=[("scenario_id", "scenarios", "id")],
    ),
    "scenario_examples": dict(
        columns={"scenario_id": str, "example_id": int, "release": str, "rule_number": str, "seq": int},
        pk=("scenario_id", "example_id"),
        foreign_keys=[("scenario_id", "scenarios", "id"), ("example_id", "examples", "id")],
    ),
    "scenario_files": dict(
        columns={"path": str, "keyword": str, "text": str},
        pk="path",
    ),
    "engine_cards": dict(
        columns={"name": str, "name_ja": str, "layout": str, "record": str, "source": str},
        pk="name",
    ),
    "scenario_cards": dict(
        columns={"scenario_id": str, "card": str, "card_id": int, "role": str},
        pk=("scenario_id", "card", "role"),
        foreign_keys=[("scenario_id", "scenarios", "id")],
    ),
}
RULING_TABLES: dict[str, dict] = {
    "scenario_rulings": dict(
        columns={"scenario_id": str, "ruling_id": int},
        pk=("scenario_id", "ruling_id"),
        foreign_keys=[("scenario_id", "scenarios", "id"), ("ruling_id", "rulings", "id")],
    ),
    "scenario_card_rulings": dict(
        columns={"scenario_id": str, "card_ruling_id": int},
        pk=("scenario_id", "card_ruling_id"),
        foreign_keys=[("scenario_id", "scenarios", "id"), ("card_ruling_id", "card_rulings", "id")],
    ),
}


class _Releases:
    """Titles and numbers of every release in the database, for resolving a title to a number."""

    def __init__(self, db: Any):
        self.db = db
        # Numbers (from the primary-key index) and English texts are read a release, or a rule,
        # at a time when asked for, not all 280,000 rules with their text up front.
        self.numbers: dict[tuple[str, str], set[str]] = _ReleaseNumbers(db)
        self.texts: dict[tuple[str, str, str], str] = {}
        self._similar: dict[tuple[str, str], float] = {}
        self._similar_by_number: dict[tuple[str, str, str], float | None] = {}
        self._resolved: dict[tuple[tuple[str, str], str, str], str | None] = {}
        self.titled: dict[tuple[str, str], dict[str, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
        self.sections: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        self._keys = sorted({(r[0], r[1]) for r in db.execute("select distinct release, lang from rules")})
        for release, lang, number, kind, parent, title, title_en in db.execute(
            "select release, lang, number, kind, parent, title, title_en from rules"
            " where kind in ('rule', 'numbered') and (title is not null or title_en is not null)"
        ):
            key = (release, lang)
            name = title if lang == "en" else (title_en or (title.split("／")[-1] if title and "／" in title else None))
            if name:
                rank = "keyword" if kind == "numbered" and parent in ("701", "702") else kind
                self.titled[key][name].append((number, rank))
        if "sections" in db.table_names():
            for release, lang, number, title in db.execute("select release, lang, number, title from sections"):
                if title:
                    self.sections[(release, lang)][title.split("／")[-1]] = number
        english = [r for r, lang in self._keys if lang == "en"]
        self.newest = english[-1] if english else None

    def _text(self, release: str, number: str) -> str:
        key = (release, "en", number)
        if key not in self.texts:
            row = self.db.execute("select text from rules where release = ? and lang = 'en' and number = ?",
                                  [release, number]).fetchone()
            self.texts[key] = (row[0] if row else None) or ""
        return self.texts[key]

    def similarity(self, key: tuple[str, str], number: str, newest_number: str) -> float | None:
        """How alike an English rule's text is to the newest release's text of the rule it links to."""
        if key[1] != "en" or self.newest is None:
            return None
        asked = (key[0], number, newest_number)
        if asked not in self._similar_by_number:
            self._similar_by_number[asked] = self._similarity(key[0], number, newest_number)
        return self._similar_by_number[asked]

    def _similarity(self, release: str, number: str, newest_number: str) -> float | None:
        a = self._text(release, number)
        b = self._text(self.newest, newest_number)
        if a == b:
            return 1.0 if a else None
        pair = (a, b)
        if pair not in self._similar:
            self._similar[pair] = round(word_similarity(a, b), 2)  # the rule history's measure
        return self._similar[pair]

    def keys(self) -> list[tuple[str, str]]:
        return list(self._keys)

    def title_number(self, key: tuple[str, str], title: str, prefer: str | None = None) -> str | None:
        """The number titled ``title`` in that release: a keyword action/ability first, then a rule."""
        found = self.titled[key].get(title, [])
        for rank in ("keyword", "rule", "numbered"):
            numbers = [n for n, r in found if r == rank]
            if prefer in numbers:
                return prefer
            if numbers:
                return numbers[0]
        return None

    def resolve(self, key: tuple[str, str], title: str, newest_number: str) -> str | None:
        """``newest_number`` (a number under ``title`` in the newest release) as numbered in release ``key``."""
        asked = (key, title, newest_number)
        if asked not in self._resolved:  # scenarios of a keyword cite the same rules, in every release
            self._resolved[asked] = self._resolve(key, title, newest_number)
        return self._resolved[asked]

    def _resolve(self, key: tuple[str, str], title: str, newest_number: str) -> str | None:
        newest_key = (self.newest or "", "en")
        base = self.title_number(newest_key, title, prefer=_base(newest_number))
        if base is None or not newest_number.startswith(base):
            section = self.sections[newest_key].get(title)
            if section and newest_number.startswith(section):
                same_section = self.sections[key].get(title) == section
                return newest_number if same_section and newest_number in self.numbers[key] else None
            return None
        here = self.title_number(key, title, prefer=base)
        if here is None:
            return None
        number = here + newest_number[len(base):]
        return number if number in self.numbers[key] else None


class _ReleaseNumbers(dict):
    """(release, lang) → the set of its rule numbers, read from the primary-key index on first use."""

    def __init__(self, db: Any):
        super().__init__()
        self.db = db

    def __missing__(self, key: tuple[str, str]) -> set[str]:
        numbers = {r[0] for r in self.db.execute("select number from rules where release = ? and lang = ?", key)}
        self[key] = numbers
        return numbers


def _base(number: str) -> str:
    """The titled part of a number: 701.57 for 701.57a, 121 for 121.2."""
    if number.startswith(("701.", "702.")):
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
    return number.split(".")[0]


def _create(db: Any, tables: dict[str, dict]) -> None:
    for name, spec in tables.items():
        if name in db.table_names():
            db[name].drop()
        db[name].create(**spec)


def load_checks(ctx: BuildContext) -> None:
    """The build step: checks, scenarios run now, and their links."""
    from executable_rules.actions import ACTIONS, module_name
    from executable_rules.card_pool import card_record, load_card_pool
    from executable_rules.scenarios import SCENARIO_DIR, load_scenarios, scenario_files

    db = ctx.db
    try:
        pool = load_card_pool(ctx.corpus)
    except SourceError as e:  # a card file cut short or malformed: say so, not "unknown card" in a scenario
        ctx.source_failed(e)
        return
    for source, line, message in pool.warnings:
        ctx.problems.append(IngestProblem(source, line, "warning", "card-in-corpus", message))
    files = scenario_files(SCENARIO_DIR)
    pool.seen = set()      # the cards the scenarios use go into engine_cards, so `kb serve` needs no corpus
    try:
        scenarios = load_scenarios(SCENARIO_DIR, pool, files=files)
    except SourceError as e:
        ctx.source_failed(e)
        scenarios = []
    _create(db, CHECK_TABLES)
    releases = _Releases(db)
    problems = ctx.problems
    if releases.newest is None:
        problems.append(IngestProblem("kb/load/checks.py", None, "error", "no-cr",
                                      "no English CR release in the database: checks can't be linked to rules"))

    check_rows, check_rule_rows = [], []
    for module in ACTIONS:
        newest = releases.title_number((releases.newest or "", "en"), module.KEYWORD)
        if releases.newest and newest is None:
            problems.append(IngestProblem(
                f"executable_rules/actions/{module_name(module)}.py", None, "error", "unresolved-keyword",
                f"no rule titled {module.KEYWORD!r} in the {releases.newest} CR", releases.newest, "en"))
        for key in releases.keys():
            number = releases.title_number(key, module.KEYWORD, prefer=newest)
            if number is None:
                continue
            how = "title" if key[1] == "en" else "title_en"
            check_rule_rows.append({"keyword": module.KEYWORD, "release": key[0], "lang": key[1], "number": number,
                                    "subrule": "", "how": how, "similarity": None})
            for sub in module.SUBRULES:
                sub_number = number + sub if number.startswith(("701.", "702.")) else f"{number}.{sub}"
                newest_sub = (newest or "") + (sub if (newest or "").startswith(("701.", "702.")) else f".{sub}")
                if sub_number in releases.numbers[key]:
                    check_rule_rows.append({"keyword": module.KEYWORD, "release": key[0], "lang": key[1],
                                            "number": sub_number, "subrule": sub, "how": how,
                                            "similarity": releases.similarity(key, sub_number, newest_sub)})
        check_rows.append({
            "keyword": module.KEYWORD, "kind": module.KIND, "module": module.__name__,
            "function": module_name(module), "summary": module.SUMMARY, "name_ja": module.JAPANESE[0] if module.JAPANESE else None,
            "names_ja": json.dumps(list(module.JAPANESE), ensure_ascii=False),
            "subrules": json.dumps(list(module.SUBRULES)),
            "out_of_reach": json.dumps(dict(getattr(module, "OUT_OF_REACH", None) or {}), ensure_ascii=False),
            "newest_release": releases.newest,
            "newest_number": newest, "scenarios": 0, "passed": 0,
        })

    from .scenario_cache import ScenarioResults
    results = ScenarioResults(ctx, pool, files)   # runs each scenario, or reads its result from the cache
    scenario_rows, rule_rows, card_rows = [], [], []
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    with ctx.task("Playing scenarios", len(scenarios)) as advance:
        results.prefetch(ctx, scenarios, advance)   # those the cache lacks, in workers if idle cores pay
    with ctx.task("Executable rules", len(scenarios)) as advance:
        for s in scenarios:
            result = results.run(s)
            counts[s.keyword][0] += 1
            counts[s.keyword][1] += int(result.passed)
            if not result.passed:
                problems.append(IngestProblem(s.path, s.line, "warning", "scenario-failed",
                                              f"scenario {s.id!r} fails: {'; '.join(result.failures)[:300]}"))
            source = s.source
            scenario_rows.append({
                "id": s.id, "keyword": s.keyword,
                "subrules": json.dumps([r[len(_base(r)):] if r.startswith(("701.", "702.")) else r[3:] for r in s.rules]),
                "rules": json.dumps(list(s.rules)), "title": s.title, "source_kind": s.source_kind,
                "source_page": source.get("page"), "source_card": source.get("card"),
                "source_date": str(source["date"]) if "date" in source else None,
                "source_rule": source.get("rule"), "source_seq": source.get("seq"), "source_text": source.get("text"),
                "source_project": source.get("project"), "source_file": source.get("file"),
                "source_test": source.get("test"),
                "also": json.dumps([str(c) for c in s.also], ensure_ascii=False),
                "setup": json.dumps(s.setup, ensure_ascii=False), "action": json.dumps(s.actions, ensure_ascii=False),
                "decisions": json.dumps(s.decisions, ensure_ascii=False), "explore": int(s.explore),
                "expect": json.dumps(s.expect, ensure_ascii=False), "outcomes": json.dumps(s.outcomes, ensure_ascii=False),
                "passed": int(result.passed), "failures": json.dumps(result.failures, ensure_ascii=False),
                "trace": json.dumps(result.trace, ensure_ascii=False), "outcome_count": result.outcomes,
                "file": s.path, "line": s.line,
            })
            cited = [(s.keyword, number, "subrule") for number in s.rules]
            cited += [(c.keyword, c.number, "also") for c in s.also]
            for title, number, how in cited:
                found = False
                for key in releases.keys():
                    resolved = releases.resolve(key, title, number)
                    if resolved:
                        found = found or key == (releases.newest, "en")
                        rule_rows.append({"scenario_id": s.id, "release": key[0], "lang": key[1],
                                          "number": resolved, "how": how, "cited_as": f"{title} — CR {number}",
                                          "similarity": releases.similarity(key, resolved, number)})
                if releases.newest and not found:
                    problems.append(IngestProblem(
                        s.path, s.line_of("rule" if how == "subrule" else "also"), "error", "unresolved-rule",
                        f"scenario {s.id!r}: {title} — CR {number} is not a rule under {title!r} in the "
                        f"{releases.newest} CR", releases.newest, "en"))
            for name, role in _cards(s):
                card_rows.append({"scenario_id": s.id, "card": pool.find(name).name if name in pool else name,
                                  "card_id": None, "role": role})
            advance(1)
    from kb.plugin.resolution import FORM_CARDS
    for name in FORM_CARDS:
        if name in pool:
            pool.find(name)
    used, pool.seen = sorted(pool.seen or ()), None
    db["scenario_files"].insert_all(
        [{"path": path, "keyword": s_keyword(path), "text": text} for path, text in files])
    db["engine_cards"].insert_all(
        [{"name": name, "name_ja": pool.cards[name].name_ja, "layout": pool.cards[name].layout.value,
          "record": json.dumps(card_record(pool.cards[name]), ensure_ascii=False), "source": pool.cards[name].source}
         for name in used], batch_size=500)
    for row in check_rows:
        row["scenarios"], row["passed"] = counts[row["keyword"]]
    db["checks"].insert_all(check_rows)
    # 140,000 rows of one known shape: a plain executemany, not insert_all's per-value checks (4 s).
    for table, rows in (("check_rules", check_rule_rows), ("scenario_rules", rule_rows)):
        if rows:
            columns = list(rows[0])
            insert_rows(db, table, columns, ([row[c] for c in columns] for row in rows), ignore=True)
    db["scenarios"].insert_all(scenario_rows, batch_size=200)
    from .scenario_cache import engine_version
    db.execute("delete from scenario_engine")
    db.execute("insert into scenario_engine (version) values (?)", [engine_version()])
    db["scenario_cards"].insert_all(card_rows, batch_size=1000, ignore=True)
    _link_examples(db, scenarios, releases)
    _link_cards(db)
    _link_rulings(db, scenarios, problems)
    for table, columns in [("check_rules", ["release", "lang", "number"]), ("scenario_rules", ["release", "lang", "number"]),
                           ("scenarios", ["keyword"]), ("scenario_cards", ["card"])]:
        db[table].create_index(columns, if_not_exists=True)


def s_keyword(path: str) -> str:
    """The keyword of a scenario file (its first ``keyword = …`` line), or the file's stem."""
    from executable_rules.actions import UnknownAction, find_action
    try:
        return str(find_action(path.rsplit("/", 1)[-1].removesuffix(".toml")).KEYWORD)
    except UnknownAction:
        return path


def _cards(s: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for value in s.setup.values():
        if isinstance(value, dict):
            for zone, entries in value.items():
                if isinstance(entries, list):
                    found += [((e["card"] if isinstance(e, dict) else e).split("#")[0], "setup") for e in entries]
    for step in s.actions:
        for key in ("card", "permanent"):
            if isinstance(step.get(key), str):
                found.append((step[key].split("#")[0], "action"))
        for key in ("permanents",):
            found += [(n.split("#")[0], "action") for n in step.get(key, [])]
    if s.source_kind == "card-ruling":
        found.append((s.source["card"], "source"))
    return list(dict.fromkeys(found))


def _link_examples(db: Any, scenarios: list[Any], releases: _Releases) -> None:
    if "examples" not in db.table_names():
        return
    rows = []
    for s in scenarios:
        if s.source_kind != "cr-example":
            continue
        for key in releases.keys():
            number = releases.resolve(key, s.keyword, s.source["rule"])
            if not number:
                continue
            for example_id, text in db.execute(
                "select id, text from examples where release = ? and lang = ? and rule_number = ? and seq = ?",
                [key[0], key[1], number, s.source["seq"]],
            ):
                if key[1] != "en" or s.source["text"] in text:
                    rows.append({"scenario_id": s.id, "example_id": example_id, "release": key[0],
                                 "rule_number": number, "seq": s.source["seq"]})
    db["scenario_examples"].insert_all(rows, ignore=True)


def _link_cards(db: Any) -> None:
    if "cards" not in db.table_names():
        return
    db.execute("""
        update scenario_cards set card_id = (select cards.id from cards where cards.name_en = scenario_cards.card)
    """)


def _link_rulings(db: Any, scenarios: list[Any], problems: list[IngestProblem]) -> None:
    tables = set(db.table_names())
    if "rulings" in tables and {"page_title", "text"} <= set(db["rulings"].columns_dict):
        _create(db, {"scenario_rulings": RULING_TABLES["scenario_rulings"]})
        rows = []
        for s in scenarios:
            if s.source_kind != "wiki-ruling":
                continue
            ids = [r[0] for r in db.execute("select id from rulings where page_title = ? and text = ?",
                                            [s.source["page"], s.source["text"]])]
            if not ids:
                problems.append(IngestProblem(s.path, s.line, "warning", "unlinked-ruling",
                                              f"scenario {s.id!r}: no ruling of {s.source['page']} with its text"))
            rows += [{"scenario_id": s.id, "ruling_id": i} for i in ids]
        db["scenario_rulings"].insert_all(rows, ignore=True)
    if "card_rulings" in tables and {"date", "text"} <= set(db["card_rulings"].columns_dict):
        _create(db, {"scenario_card_rulings": RULING_TABLES["scenario_card_rulings"]})
        rows = []
        for s in scenarios:
            if s.source_kind != "card-ruling":
                continue
            ids = [r[0] for r in db.execute("select id from card_rulings where date = ? and text = ?",
                                            [str(s.source["date"]), s.source["text"]])]
            if not ids:
                problems.append(IngestProblem(s.path, s.line, "warning", "unlinked-ruling",
                                              f"scenario {s.id!r}: no card ruling of {s.source['date']} with its text"))
            rows += [{"scenario_id": s.id, "card_ruling_id": i} for i in ids]
        db["scenario_card_rulings"].insert_all(rows, ignore=True)
