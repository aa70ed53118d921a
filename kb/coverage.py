"""Coverage of the keyword actions (CR 701) and abilities (702) by the executable rules, from the database.

For every keyword of the newest English CR (701.2 onward and 702.2 onward,
titles read from the database, so a new release's keywords show by
themselves): the module that declares it (linked by title, never by number),
its Japanese title in the newest whole Japanese CR (paired by lineage), each
lettered subrule implemented / out of reach (with the reason) / missing, its
scenarios and how many pass, and each ``Example:`` with the scenario linked to
it (``scenario_examples``) or the reason it is out of reach.

The modules are read from the ``checks`` table (what was built), or given
(``modules=``, e.g. :func:`modules_from_code` for the code as it is now); the
scenarios and their results from ``scenarios``.

>>> from kb.database import open_db
>>> report = coverage(open_db())                                # doctest: +SKIP
>>> report.totals["actions"]["with_module"], report.totals["actions"]["all"]   # doctest: +SKIP
(15, 70)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from executable_rules.coverage import example_reason, partition, subrule_reasons

KINDS = {"701": "keyword action", "702": "keyword ability"}


@dataclass
class ModuleRecord:
    """What the coverage needs of an action module (a ``checks`` row, or the module itself)."""

    keyword: str
    kind: str
    name: str
    japanese: tuple[str, ...]
    subrules: tuple[str, ...]
    out_of_reach: dict[str, str]
    summary: str = ""

    # read by executable_rules.coverage as it reads a module
    @property
    def SUBRULES(self) -> tuple[str, ...]:  # noqa: N802 - the module attribute's name
        return self.subrules

    @property
    def OUT_OF_REACH(self) -> dict[str, str]:  # noqa: N802
        return self.out_of_reach


@dataclass
class SubruleCoverage:
    letter: str
    number: str
    status: str                      # implemented | out of reach | missing
    reason: str | None = None
    scenarios: list[str] = field(default_factory=list)
    passed: int = 0


@dataclass
class ExampleCoverage:
    number: str
    seq: int
    text: str
    status: str                      # covered | failing | out of reach | missing
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None


@dataclass
class KeywordCoverage:
    number: str
    title: str
    kind: str
    title_ja: str | None
    module: str | None
    japanese: list[str]
    summary: str | None
    subrules: list[SubruleCoverage]
    examples: list[ExampleCoverage]
    scenarios: list[dict[str, Any]]
    unknown_letters: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for s in self.scenarios if s["passed"])

    @property
    def url(self) -> str:
        from urllib.parse import quote
        return f"/-/keywords/{quote(self.title.lower())}"

    def count(self, status: str) -> int:
        return sum(1 for s in self.subrules if s.status == status)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "passed": self.passed, "url": self.url,
                "implemented": self.count("implemented"), "out_of_reach": self.count("out of reach"),
                "missing": self.count("missing")}


@dataclass
class Coverage:
    release: str | None
    release_ja: str | None
    keywords: list[KeywordCoverage]
    other_modules: list[dict[str, Any]]
    """Modules of rules that aren't keywords (Drawing a Card — CR 121), and modules whose keyword isn't in the CR."""
    source: str                      # "database" (the checks table) or "code"
    notes: list[str] = field(default_factory=list)
    general_examples: list[ExampleCoverage] = field(default_factory=list)
    """The examples of the general rules 701.1 and 702.1, under no keyword (no module's: shown apart)."""

    def of_kind(self, kind: str) -> list[KeywordCoverage]:
        return [k for k in self.keywords if k.kind == kind]

    @property
    def totals(self) -> dict[str, dict[str, int]]:
        out = {}
        for key, kind in (("actions", "keyword action"), ("abilities", "keyword ability")):
            rows = self.of_kind(kind)
            examples = [e for k in rows for e in k.examples]
            out[key] = {
                "all": len(rows), "with_module": sum(1 for k in rows if k.module),
                "subrules": sum(len(k.subrules) for k in rows),
                "implemented": sum(k.count("implemented") for k in rows),
                "out_of_reach": sum(k.count("out of reach") for k in rows),
                "missing_in_modules": sum(k.count("missing") for k in rows if k.module),
                "scenarios": sum(len(k.scenarios) for k in rows), "passed": sum(k.passed for k in rows),
                "examples": len(examples),
                "examples_covered": sum(1 for e in examples if e.status == "covered"),
                "examples_out_of_reach": sum(1 for e in examples if e.status == "out of reach"),
            }
        return out

    def find(self, title: str) -> KeywordCoverage | None:
        return next((k for k in self.keywords if k.title.casefold() == title.casefold()), None)

    def as_dict(self) -> dict[str, Any]:
        return {"release": self.release, "release_ja": self.release_ja, "source": self.source,
                "totals": self.totals, "keywords": [k.as_dict() for k in self.keywords],
                "general_examples": [asdict(e) for e in self.general_examples],
                "other_modules": self.other_modules, "notes": self.notes}


# ------------------------------------------------------------------ reading


def _tables(conn: Any) -> set[str]:
    return {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}


def _columns(conn: Any, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"pragma table_info([{table}])")}


def modules_from_code() -> list[ModuleRecord]:
    """The action modules of ``executable_rules.actions`` as the code has them now."""
    from executable_rules.actions import ACTIONS, module_name

    return [ModuleRecord(m.KEYWORD, m.KIND, module_name(m), tuple(m.JAPANESE), tuple(m.SUBRULES),
                         dict(getattr(m, "OUT_OF_REACH", None) or {}), getattr(m, "SUMMARY", ""))
            for m in ACTIONS]


def modules_from_database(conn: Any) -> list[ModuleRecord]:
    """The action modules as the database was built with them (the ``checks`` table).

    A database built before ``checks.out_of_reach`` existed takes the reasons from the code's module."""
    if "checks" not in _tables(conn):
        return []
    columns = _columns(conn, "checks")
    reach = "out_of_reach" if "out_of_reach" in columns else "null"
    records = []
    for keyword, kind, function, names_ja, subrules, reasons, summary in conn.execute(
            f"select keyword, kind, function, names_ja, subrules, {reach}, summary from checks"):
        if reasons is None:
            reasons = json.dumps(_code_reasons(keyword))
        records.append(ModuleRecord(keyword, kind, function, tuple(json.loads(names_ja or "[]")),
                                    tuple(json.loads(subrules or "[]")), json.loads(reasons or "{}"), summary or ""))
    return records


def _code_reasons(keyword: str) -> dict[str, str]:
    try:
        from executable_rules.actions import UnknownAction, find_action
        try:
            return dict(getattr(find_action(keyword), "OUT_OF_REACH", None) or {})
        except UnknownAction:
            return {}
    except ImportError:  # pragma: no cover - the package is part of the project
        return {}


def newest_whole(conn: Any, lang: str, not_after: str | None = None) -> str | None:
    row = conn.execute("select max(release) from releases where lang = ? and completeness = 'whole'"
                       " and (? is null or release <= ?)", [lang, not_after, not_after]).fetchone()
    return row[0] if row else None


def japanese_titles(conn: Any, release: str, release_ja: str | None, number: str | None = None) -> dict[str, str]:
    """English number (701.22, in ``release``) → title of the same rule in Japanese ``release_ja``.

    Paired by lineage (the rule's identity across releases and languages) where the database has it,
    else by the Japanese rule's English title; never by the bare number, which moves between releases.
    ``number``: only that rule's title (a keyword page)."""
    if not release_ja:
        return {}
    out: dict[str, str] = {}
    tables = _tables(conn)
    if "rule_lineage" in tables and number is not None:
        row = conn.execute("""
                select ja.title from rule_lineage le
                join rule_lineage lj on lj.lineage_id = le.lineage_id and lj.lang = 'ja' and lj.release = :ja
                join rules ja on ja.release = lj.release and ja.lang = 'ja' and ja.number = lj.number
                where le.lang = 'en' and le.release = :en and le.number = :number""",
                           {"en": release, "ja": release_ja, "number": number}).fetchone()
        if row and row[0]:
            return {number: row[0]}
    elif "rule_lineage" in tables:
        for found, title in conn.execute("""
                select le.number, ja.title from rules ja
                join rule_lineage lj on lj.lang = 'ja' and lj.release = ja.release and lj.number = ja.number
                join rule_lineage le on le.lineage_id = lj.lineage_id and le.lang = 'en' and le.release = :en
                where ja.release = :ja and ja.lang = 'ja' and ja.parent in ('701', '702') and ja.kind = 'numbered'
                  and le.kind = 'numbered' and (le.number like '701.%' or le.number like '702.%')""",
                {"en": release, "ja": release_ja}):
            if title:
                out[found] = title
    english = {t: n for n, t in conn.execute(
        "select number, title from rules where release = ? and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702')", [release])}
    for title_en, title in conn.execute(
            "select title_en, title from rules where release = ? and lang = 'ja' and kind = 'numbered'"
            " and parent in ('701', '702') and title_en is not null", [release_ja]):
        paired = english.get(title_en)
        if paired and paired not in out and title and number in (None, paired):
            out[paired] = title
    return out


def keyword_for_name(conn: Any, name: str) -> tuple[str, str] | None:
    """``(English title, number)`` in the newest English CR of the keyword action or ability called ``name``
    in Japanese (the CR's title, ``占術を行う``, or its short form, ``占術``; a glossary term), Chinese or Korean,
    or in English; None if no keyword is called so. A name of an older release is followed by lineage.

    >>> from kb.database import open_db
    >>> keyword_for_name(open_db(), "飛行")                   # doctest: +SKIP
    ('Flying', '702.9')
    """
    tables = _tables(conn)
    if "rules" not in tables or "releases" not in tables:
        return None
    release = newest_whole(conn, "en")
    if release is None:
        return None
    wanted = " ".join(name.split())
    newest = {t.casefold(): (t, n) for n, t in conn.execute(
        "select number, title from rules where release = ? and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title is not null", [release])}
    if wanted.casefold() in newest:
        return newest[wanted.casefold()]
    # (release, lang, number) of a rule so named in another language, newest first
    found: list[tuple[str, str, str]] = []
    found += conn.execute(
        "select release, lang, number from rules where lang != 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title in (?, ? || 'を行う', ? || 'する') order by release desc",
        [wanted, wanted, wanted]).fetchall()
    if "keyword_names" in tables:
        found += conn.execute(
            "select release, 'ja', number from keyword_names where name_ja = ? or match_ja = ?"
            " order by source = 'rule' desc, release desc", [wanted, wanted]).fetchall()
    if "keyword_translations" in tables:
        found += conn.execute("select release, lang, number from keyword_translations where name = ?"
                              " order by source = 'rule' desc, release desc", [wanted]).fetchall()
    for other_release, lang, number in found:
        if "rule_lineage" in tables:
            row = conn.execute(
                "select en.title, en.number from rule_lineage lo"
                " join rule_lineage le on le.lineage_id = lo.lineage_id and le.lang = 'en' and le.release = ?"
                " join rules en on en.release = le.release and en.lang = 'en' and en.number = le.number"
                " where lo.lang = ? and lo.release = ? and lo.number = ?",
                [release, lang, other_release, number]).fetchone()
            if row and row[0] and row[0].casefold() in newest:
                return newest[row[0].casefold()]
        row = conn.execute("select title_en from rules where release = ? and lang = ? and number = ?",
                           [other_release, lang, number]).fetchone()
        if row and row[0] and row[0].casefold() in newest:
            return newest[row[0].casefold()]
    return None


def scenarios_run_now(corpus: Any = None, keyword: str | None = None) -> list[dict[str, Any]]:
    """Every scenario of ``data/scenarios/`` (of ``keyword`` only, if given), run now, as :func:`coverage`
    takes them (no build needed)."""
    from executable_rules.card_pool import shared_card_pool
    from executable_rules.scenarios import load_scenarios, run_scenario

    from .corpus import find_corpus

    pool = shared_card_pool(corpus or find_corpus())
    out = []
    for s in load_scenarios(pool=pool):
        if keyword is not None and s.keyword != keyword:
            continue
        example = (s.source["rule"], int(s.source["seq"])) if s.source_kind == "cr-example" else None
        out.append({"id": s.id, "keyword": s.keyword, "rules": list(s.rules), "passed": run_scenario(s, pool).passed,
                    "title": s.title, "source_kind": s.source_kind, "example": example})
    return out


def _scenarios(conn: Any) -> list[dict[str, Any]]:
    if "scenarios" not in _tables(conn):
        return []
    return [{"id": i, "keyword": k, "rules": json.loads(r or "[]"), "passed": bool(p), "title": t, "source_kind": sk}
            for i, k, r, p, t, sk in conn.execute(
                "select id, keyword, rules, passed, title, source_kind from scenarios order by file, line")]


def coverage(conn: Any, modules: Iterable[ModuleRecord] | None = None,
             scenarios: list[dict[str, Any]] | None = None, *, title: str | None = None) -> Coverage:
    """The coverage of every keyword of the newest English CR in the database ``conn``.

    ``modules``: the modules to measure (default: the ``checks`` table); ``scenarios``: dicts with
    ``id``, ``keyword``, ``rules`` (newest numbers), ``passed`` (default: the ``scenarios`` table);
    ``title``: only that keyword (a keyword page)."""
    source = "database" if modules is None else "code"
    tables = _tables(conn)
    notes: list[str] = []
    if "rules" not in tables or "releases" not in tables:
        return Coverage(None, None, [], [], source, ["the database has no rules: build it with `kb build`"])
    release = newest_whole(conn, "en")
    if release is None:
        return Coverage(None, None, [], [], source, ["the database has no English CR"])
    release_ja = newest_whole(conn, "ja", not_after=release) or newest_whole(conn, "ja")
    modules = list(modules_from_database(conn) if modules is None else modules)
    if source == "database" and "checks" not in tables:
        notes.append("the database has no checks table: the executable rules were not built into it")
    by_keyword = {m.keyword: m for m in modules}
    scenario_rows = _scenarios(conn) if scenarios is None else scenarios
    by_scenario_keyword: dict[str, list[dict[str, Any]]] = {}
    for s in scenario_rows:
        by_scenario_keyword.setdefault(s["keyword"], []).append(s)
    rules = conn.execute(
        "select number, title, parent from rules where release = :release and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title is not null and (:title is null or title = :title)"
        " order by position", {"release": release, "title": title}).fetchall()
    # One keyword (a keyword page) reads only its own rule's subrules and examples.
    one = rules[0][0] if title is not None and rules else None
    titles_ja = japanese_titles(conn, release, release_ja, one)
    letters: dict[str, list[str]] = {}
    for number, parent in conn.execute(
            "select number, parent from rules where release = :release and lang = 'en' and kind = 'subrule'"
            " and (:one is null and (parent like '701.%' or parent like '702.%') or parent = :one)"
            " order by position", {"release": release, "one": one}):
        letters.setdefault(parent, []).append(number[len(parent):])
    examples: dict[str, list[tuple[int, str, int, str]]] = {}
    for example_id, number, seq, text in conn.execute(
            "select id, rule_number, seq, text from examples where release = :release and lang = 'en'"
            " and (:one is null and (rule_number like '701.%' or rule_number like '702.%')"
            "      or rule_number >= :one and rule_number < :one || '{')"
            " order by id", {"release": release, "one": one}):
        if one is not None and number.rstrip("abcdefghijklmnopqrstuvwxyz") != one:
            continue
        base = number.rstrip("abcdefghijklmnopqrstuvwxyz")
        examples.setdefault(base, []).append((example_id, number, seq, text))
    linked: dict[int, list[str]] = {}
    if scenarios is not None:
        # Scenarios given (run now, not built): a cr-example scenario names its example by number and seq.
        ids_by_example = {(number, seq): example_id for rows in examples.values() for example_id, number, seq, _ in rows}
        for s in scenarios:
            example_id = ids_by_example.get(tuple(s.get("example") or ()))
            if example_id is not None:
                linked.setdefault(example_id, []).append(s["id"])
    elif "scenario_examples" in tables:
        for scenario_id, example_id in conn.execute(
                "select scenario_id, example_id from scenario_examples where release = ?", [release]):
            linked.setdefault(example_id, []).append(scenario_id)
    passed_by_id = {s["id"]: s["passed"] for s in scenario_rows}

    keywords = []
    seen_modules = set()
    for number, name, parent in rules:
        module = by_keyword.get(name)
        if module:
            seen_modules.add(module.keyword)
        own = by_scenario_keyword.get(name, []) if module else []
        subs = []
        split = partition(module, letters.get(number, [])) if module else None
        reasons = subrule_reasons(module) if module else {}
        for letter in letters.get(number, []):
            sub_number = number + letter
            ids = [s["id"] for s in own if sub_number in s["rules"]]
            if split and letter in split.implemented:
                status, reason = "implemented", None
            elif split and letter in split.out_of_reach:
                status, reason = "out of reach", reasons[letter]
            else:
                status, reason = "missing", None
            subs.append(SubruleCoverage(letter, sub_number, status, reason, ids,
                                        sum(1 for i in ids if passed_by_id.get(i))))
        example_rows = []
        for example_id, ex_number, seq, text in examples.get(number, []):
            ids = linked.get(example_id, [])
            letter = ex_number[len(number):]
            linked_scenarios = [{"id": i, "passed": bool(passed_by_id.get(i))} for i in ids]
            reason = example_reason(module, letter, seq) if module else None
            if any(s["passed"] for s in linked_scenarios):
                status = "covered"
            elif linked_scenarios:
                status = "failing"
            elif reason:
                status = "out of reach"
            else:
                status = "missing"
            example_rows.append(ExampleCoverage(ex_number, seq, text, status, linked_scenarios,
                                                reason if status == "out of reach" else None))
        keywords.append(KeywordCoverage(
            number=number, title=name, kind=KINDS[parent], title_ja=titles_ja.get(number),
            module=module.name if module else None, japanese=list(module.japanese) if module else [],
            summary=module.summary if module else None, subrules=subs, examples=example_rows,
            scenarios=[{"id": s["id"], "passed": s["passed"], "title": s.get("title"), "rules": s["rules"]}
                       for s in own],
            unknown_letters=list(split.unknown) if split else []))
    others = []
    for m in modules:
        if m.keyword in seen_modules or title is not None:
            continue
        own = by_scenario_keyword.get(m.keyword, [])
        found = conn.execute("select number from rules where release = ? and lang = 'en' and title = ?"
                             " and kind in ('rule', 'numbered') limit 1", [release, m.keyword]).fetchone()
        others.append({"keyword": m.keyword, "kind": m.kind, "module": m.name, "japanese": list(m.japanese),
                       "number": found[0] if found else None, "subrules": list(m.subrules),
                       "scenarios": len(own), "passed": sum(1 for s in own if s["passed"]),
                       "in_newest_cr": found is not None})
    general = []
    for base in ("701.1", "702.1") if title is None else ():
        for example_id, ex_number, seq, text in examples.get(base, []):
            linked_scenarios = [{"id": i, "passed": bool(passed_by_id.get(i))} for i in linked.get(example_id, [])]
            status = ("covered" if any(x["passed"] for x in linked_scenarios) else
                      "failing" if linked_scenarios else "missing")
            general.append(ExampleCoverage(ex_number, seq, text, status, linked_scenarios))
    return Coverage(release, release_ja, keywords, others, source, notes, general)


def keyword_coverage(conn: Any, title: str) -> dict[str, Any] | None:
    """One keyword's coverage as plain data (its page shows it); None if the newest CR has no such keyword."""
    found = coverage(conn, title=title).find(title)
    return found.as_dict() if found else None


def home_summary(conn: Any) -> dict[str, Any] | None:
    """The figures the home page shows: actions and abilities with a module, subrules and examples covered."""
    report = coverage(conn)
    if report.release is None:
        return None
    return {"release": report.release, **report.totals}
