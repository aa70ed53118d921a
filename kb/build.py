"""Build the database from the corpus: all of it, or only what changed since the last build.

``build_database`` first compares the corpus and the code with what the
existing database was built from (its ``build_inputs`` and ``build_info``
tables):

- **nothing changed**: the database is left as it is;
- **only new CR files** (a new release of a language some load step has
  registered, :mod:`kb.languages`): the new releases are *added* to a copy of
  the database (``mode == "add"``), each step doing only what they need;
- **anything else**: a **full** build into a new file.

Either way the result is written to a temporary file beside the target and
renamed over it only when every step has succeeded, so a failed or
interrupted build leaves the previous database as it was; a temporary file
left by a killed build is removed by the next one. Parsed releases, release
matches and lineages are cached by content (:mod:`kb.cache`), so a full build
after a code change elsewhere repeats little work.

Each source has its own load step, listed in :func:`steps` in the order they
run. A step is a :class:`Step`: its name, the function doing it for a full
build (taking a :class:`BuildContext`) and what it does when releases are
added (``on_add``):

- ``SELF``: the function itself does only what is missing (the CR loaders
  load only files not yet loaded; history matches only pairs not yet
  matched);
- ``RERUN``: it depends on the releases as a whole and is cheap: its
  problems are deleted and it runs again, replacing its own tables;
- ``INDEPENDENT``: it doesn't read the CR releases (cards);
- a function ``(ctx) -> None`` doing the incremental work;
- ``None`` (the default, for a step that hasn't said): adding a release
  needs a full build, which ``kb build`` then does.

A new step is one line in :func:`steps`; to keep ``kb add`` incremental, give
it an ``on_add``, and cache its expensive part with ``ctx.cache.memo``.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import resource
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence, Union

import sqlite_utils
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ingest.records import IngestProblem, SourceError

from .cache import DEFAULT_MAX_BYTES, Cache, default_cache_dir

DEFAULT_DB = "kb.db"

SELF = "self"
RERUN = "rerun"
INDEPENDENT = "independent"
OnAdd = Union[str, Callable[["BuildContext"], None], None]


class BuildFailed(Exception):
    """The build stopped; the message names the file and line. The old database is untouched."""


class BuildInterrupted(BuildFailed):
    """The build was stopped by a signal (SIGTERM, SIGINT); nothing was written."""


class NeedsFullBuild(Exception):
    """Raised by a step that cannot add releases incrementally; the message says why."""


@dataclass(frozen=True)
class Step:
    """One load step: its name, the function doing it, and what it does when releases are added."""

    name: str
    run: Callable[["BuildContext"], None]
    on_add: OnAdd = None
    #: For a step that reads only corpus files and writes only tables of its own: what its result
    #: depends on (code versions, input digests); its tables are then cached (:mod:`kb.step_cache`).
    cache_inputs: Callable[["BuildContext"], list[str]] | None = None


@dataclass(frozen=True)
class AddedFile:
    """A CR file that is new in the corpus, to be added to an existing database."""

    lang: str
    relative: str


@dataclass
class BuildContext:
    """What a load step gets: the database being built, the corpus, progress, problems and caches.

    ``mode`` is ``"full"`` or ``"add"`` (``added`` lists the new files);
    ``path`` is the file being written, which worker processes may read.
    """

    db: sqlite_utils.Database
    corpus: Path
    keep_going: bool = False
    progress: Progress | None = None
    problems: list[IngestProblem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    cpu_timings: dict[str, float] = field(default_factory=dict)  # this process's CPU seconds by step
    cache: Cache = field(default_factory=Cache.disabled)
    mode: str = "full"
    added: list[AddedFile] = field(default_factory=list)
    path: Path | None = None
    step: str = ""
    problem_steps: list[str] = field(default_factory=list)
    rules_digests: dict[tuple[str, str], str] = field(default_factory=dict)
    memory: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    step_task: int | None = None  # the running step's own progress line
    inputs: dict[str, tuple[str, int]] = field(default_factory=dict)  # corpus file -> (digest, size)

    @contextlib.contextmanager
    def task(self, description: str, total: int | None) -> Iterator[Callable[[int], None]]:
        """A progress bar for one step; yields ``advance(n)``."""
        if self.progress is None:
            yield lambda n=1: None
            return
        if self.step_task is not None:  # the step shows bars of its own instead of its generic line
            self.progress.remove_task(self.step_task)
            self.step_task = None
        task_id = self.progress.add_task(description, total=total)
        try:
            yield lambda n=1: self.progress.advance(task_id, n)
        finally:
            # A step that could not say its size up front shows 1/1 when done, and its clock stops.
            self.progress.update(task_id, total=total or 1, completed=total or 1)
            self.progress.stop_task(task_id)

    def source_failed(self, error: SourceError) -> None:
        """An unreadable source: stop the build, or with ``keep_going`` keep it as a problem."""
        if not self.keep_going:
            raise BuildFailed(str(error)) from error
        self.problems.append(
            IngestProblem(error.path, error.line, "error", "unreadable", error.message)
        )

    def record_rules_digest(self, lang: str, release: str, digest: str) -> None:
        """A loader tells the history step what a release's rules are (:func:`kb.history.rules_digest`)."""
        self.rules_digests[(lang, release)] = digest

    def processes_for(self, seconds: float, env: str | None = None, idle: float | None = None) -> int:
        """How many processes pay off for ``seconds`` of work that splits evenly; see :func:`useful_processes`."""
        return useful_processes(seconds, env=env, idle=idle)


def _cpu_jiffies() -> tuple[int, int] | None:
    """(idle, total) clock ticks of every core since boot (Linux ``/proc/stat``), or None."""
    try:
        with open("/proc/stat", "rb") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(fields) < 5:
        return None
    return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user … steal


class IdleCores:
    """The cores left idle between its creation and its call, measured (``/proc/stat``).

    Started before the first file or pair is worked on here, read once it is
    done: it says what the machine has spare *now*, where the one-minute load
    average remembers the last minute (a build started after an install, or
    after another build, sees a load of 1 to 2 on a machine with a core idle).
    None off Linux or over too short a time (the load average decides then).
    """

    def __init__(self) -> None:
        self.start = _cpu_jiffies()

    def __call__(self) -> float | None:
        end = _cpu_jiffies()
        if self.start is None or end is None:
            return None
        idle, total = end[0] - self.start[0], end[1] - self.start[1]
        if total < 10 * (os.cpu_count() or 1):  # under ~0.1 s of ticks: noise
            return None
        return (os.cpu_count() or 1) * idle / total


def useful_processes(seconds: float, *, env: str | None = None, startup: float = 0.3,
                     idle: float | None = None) -> int:
    """Processes worth starting for ``seconds`` of one-process work, measured against the machine.

    Another process gains only on a core nobody else is using, so this counts
    the idle cores and starts workers only when the time they would save
    exceeds what starting them costs. ``idle`` is the idle cores measured
    while the first item was worked on here (:class:`IdleCores`); without it,
    the cores minus the load average (which includes this process). Half a
    core idle counts as one. ``env`` names a variable that, when set, decides
    instead (``KB_MATCH_WORKERS=2``).

    >>> useful_processes(20.0, idle=0.0), useful_processes(0.5, idle=1.0)
    (1, 1)
    """
    if env and os.environ.get(env):
        value = os.environ[env]
        if not value.isdecimal() or int(value) < 1:
            raise BuildFailed(f"{env} must be a number of processes (1 or more), not {value!r}")
        return int(value)
    cores = os.cpu_count() or 1
    if idle is None:
        try:
            idle = cores - os.getloadavg()[0]
        except OSError:
            idle = 0.0
    usable = max(1, min(cores, 4, 1 + int(idle + 0.5)))
    if usable < 2:
        return 1
    saved = seconds * (1 - 1 / usable)
    return usable if saved > startup * usable + 0.5 else 1


def insert_rows(db: sqlite_utils.Database, table: str, columns: list[str], rows, *, ignore: bool = False) -> None:
    """Insert ``rows`` (tuples in the order of ``columns``) in one ``executemany`` and commit.

    The tables are created with sqlite-utils (:mod:`kb.schema` and each step's
    own); for the hundreds of thousands of rows of known shape the CR and the
    history have, a plain ``executemany`` of tuples is three times as fast as
    ``insert_all``, which checks and converts every row. ``ignore``: rows whose key is
    already there are skipped (``insert or ignore``).
    """
    sql = f"insert {'or ignore ' if ignore else ''}into [{table}] ({', '.join(f'[{c}]' for c in columns)}) values ({', '.join('?' for _ in columns)})"
    with db.conn:
        db.conn.executemany(sql, rows)


@dataclass
class BuildSummary:
    """What a build produced, for the CLI to print."""

    path: Path
    seconds: float
    counts: dict[str, int]
    warnings: int
    errors: int
    timings: dict[str, float]
    mode: str = "full"  # "full", "add", "unchanged" or "copied" (a database of the same inputs: kb.build_reuse)
    added: list[AddedFile] = field(default_factory=list)
    reason: str = ""  # why a full build was needed
    cache: str = ""
    peak_rss_mb: float = 0.0
    memory: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    cpu_timings: dict[str, float] = field(default_factory=dict)


def steps() -> list[Step]:
    """The load steps in the order they run.

    Sources that add CR rows (English, Japanese, rules quoted by wiki pages)
    come before "check releases" (a file cut short fails the build) and
    "finish CR", which builds the indexes and FTS of the CR tables; "search
    index" indexes ``search_current`` once every step has added its rows;
    executable rules and history read everything before them; ruling links
    read the history's lineages.
    """
    # Imported here so that a step's import errors name the step.
    from . import schema
    from .step_cache import inputs_of
    from .load import (cards, checks, cr, history, japanese, page_tables, release_checks, ruling_links_cache,
                       search_extra, search_index, translations, wiki)

    return [
        Step("schema", lambda ctx: schema.create_cr_tables(ctx.db), SELF),
        Step("English CR", cr.load_english_cr, SELF),
        Step("Japanese CR", japanese.load_japanese_cr, japanese.add_japanese_releases),
        Step("Chinese CR", translations.load_chinese_cr, release_checks.translation_on_add("zh")),
        Step("Korean CR", translations.load_korean_cr, release_checks.translation_on_add("ko")),
        Step("cards", cards.load_cards, INDEPENDENT, inputs_of(
            ("kb.load.cards", "ingest.cards", "ingest.card_identity", "ingest.card_costs", "ingest.decoding",
             "ingest.records", "kb.japanese", "kb.schema"), "cards")),
        # Wiki pages quote Japanese releases as excerpts; a new whole Japanese release of a quoted
        # release is a full build (the Japanese step says so), any other release leaves them as they are.
        Step("MTG Wiki", wiki.load_wiki, INDEPENDENT),
        Step("check releases", release_checks.check_releases, SELF),
        Step("finish CR", cr.finish_cr, SELF),
        Step("search extra", search_extra.load_search_extra, RERUN),
        Step("search index", lambda ctx: schema.finish_search_current(ctx.db), RERUN),
        Step("search vocabulary and vectors", search_index.load_search_index, RERUN),
        Step("executable rules", checks.load_checks, RERUN),
        Step("rule history", history.load_history, SELF),
        # card keywords before ruling links: a card's keyword abilities narrow its rulings' candidates
        Step("card keywords", cards.link_card_keywords, RERUN),
        Step("ruling links", ruling_links_cache.load_ruling_links, release_checks.ruling_links_on_add),
        # what the rule and keyword pages would otherwise work out on each first visit
        Step("page tables", page_tables.load_page_tables, RERUN),
    ]


# --- what the database was built from ------------------------------------------------

BUILD_TABLES: dict[str, dict] = {
    "build_inputs": dict(columns={"path": str, "digest": str, "size": int}, pk="path"),
    "build_info": dict(columns={"key": str, "value": str}, pk="key"),
}


def code_digest() -> str:
    """What the build's code is: the source of ``ingest``, ``kb`` (but the web layer) and
    ``executable_rules``, the project's ``data/``, and the versions of the libraries whose output
    the database holds. A database built by other code is rebuilt in full."""
    from importlib import metadata

    from .cache import digest, file_digest
    from .corpus import PROJECT_ROOT
    from .sqlite import sqlite3

    parts: list[str] = [sys.version, sqlite3.sqlite_version]
    for package in ("sqlite-utils", "sudachipy", "sudachidict_core", "rapidfuzz", "mwparserfromhell",
                    "beautifulsoup4"):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} -")
    roots = [PROJECT_ROOT / "ingest", PROJECT_ROOT / "kb", PROJECT_ROOT / "executable_rules", PROJECT_ROOT / "data"]
    skip = {PROJECT_ROOT / "kb" / "plugin", PROJECT_ROOT / "kb" / "cli"}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if (not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".db")
                    or any(parent in skip for parent in path.parents)):
                continue
            parts += [path.relative_to(PROJECT_ROOT).as_posix(), file_digest(path)]
    return digest(*parts)


def corpus_inputs(corpus: Path) -> dict[str, tuple[str, int]]:
    """Every file of the corpus (symbolic links followed): relative path → (digest, size).
    Hidden files are not inputs."""
    from .cache import file_digest

    out: dict[str, tuple[str, int]] = {}
    for folder, dirs, names in os.walk(corpus, followlinks=True):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(folder) / name
            if path.is_file():
                out[path.relative_to(corpus).as_posix()] = (file_digest(path), path.stat().st_size)
    return dict(sorted(out.items()))


def _stored_inputs(target: Path) -> tuple[dict[str, tuple[str, int]], dict[str, str]] | None:
    """The inputs and info a database records, or None (no database, or one from before manifests)."""
    if not target.exists():
        return None
    from .sqlite import sqlite3

    try:
        conn = sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True)
        try:
            inputs = {p: (d, s) for p, d, s in conn.execute("select path, digest, size from build_inputs")}
            info = dict(conn.execute("select key, value from build_info"))
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return inputs, info


def plan_build(target: Path, corpus: Path, *, keep_going: bool, full: bool = False
               ) -> tuple[str, list[AddedFile], str, dict[str, tuple[str, int]], str]:
    """(mode, files to add, reason, corpus inputs, code digest): what :func:`build_database` will do."""
    from .languages import language_of

    inputs = corpus_inputs(corpus)
    code = code_digest()
    if full:
        return "full", [], "a full build was asked for", inputs, code
    stored = _stored_inputs(target)
    if stored is None:
        return "full", [], "no database built from a known corpus yet" if target.exists() else "no database yet", \
            inputs, code
    old_inputs, info = stored
    if info.get("code") != code:
        return "full", [], "the code or its data changed since the last build", inputs, code
    if info.get("keep_going") != str(int(keep_going)):
        return "full", [], "--keep-going differs from the last build", inputs, code
    if info.get("corpus") != str(corpus):
        return "full", [], f"the last build read another corpus ({info.get('corpus')})", inputs, code
    changed = [p for p in old_inputs if p not in inputs or inputs[p] != old_inputs[p]]
    new = [p for p in inputs if p not in old_inputs]
    if not changed and not new:
        return "unchanged", [], "nothing changed since the last build", inputs, code
    if changed:
        return "full", [], f"{len(changed)} files changed or went ({', '.join(changed[:3])})", inputs, code
    added = []
    for relative in new:
        lang = language_of(corpus, relative)
        if lang is None:
            return "full", [], f"new file {relative} is not a CR release", inputs, code
        added.append(AddedFile(lang, relative))
    return "add", added, "", inputs, code


def _write_manifest(db: sqlite_utils.Database, inputs: dict[str, tuple[str, int]], info: dict[str, str]) -> None:
    from .schema import create_tables

    create_tables(db, BUILD_TABLES)
    db.execute("delete from build_inputs")
    db.execute("delete from build_info")
    insert_rows(db, "build_inputs", ["path", "digest", "size"], ((p, d, s) for p, (d, s) in sorted(inputs.items())))
    insert_rows(db, "build_info", ["key", "value"], sorted(info.items()))


# --- running -------------------------------------------------------------------------


def _write_problems(ctx: BuildContext) -> None:
    steps_of = ctx.problem_steps + [""] * (len(ctx.problems) - len(ctx.problem_steps))
    insert_rows(ctx.db, "ingest_problems", ["source", "line", "severity", "code", "message", "release", "lang", "step"], (
        (p.source, p.line, p.severity, p.code, p.message, p.release, p.lang, step)
        for p, step in zip(ctx.problems, steps_of)
    ))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _run_steps(ctx: BuildContext, selected: Sequence[Step]) -> None:
    for step in selected:
        _stop_if_interrupted()
        policy = step.on_add if ctx.mode == "add" else SELF
        if policy == INDEPENDENT:
            continue
        ctx.step = step.name
        before = len(ctx.problems)
        t0, cpu0 = time.perf_counter(), time.process_time()
        if ctx.progress is not None:
            # Every step shows a line while it runs; a step with bars of its own replaces it.
            ctx.step_task = ctx.progress.add_task(step.name, total=None)
        try:
            if policy == RERUN:
                if "ingest_problems" in ctx.db.table_names():
                    ctx.db.execute("delete from ingest_problems where step = ?", [step.name])
                    ctx.db.conn.commit()
                step.run(ctx)
            elif callable(policy):
                policy(ctx)
            elif step.cache_inputs is not None and ctx.cache.enabled and ctx.mode == "full":
                from .step_cache import run_cached

                run_cached(ctx, step)
            else:
                step.run(ctx)
        finally:
            if ctx.step_task is not None and ctx.progress is not None:
                if time.perf_counter() - t0 < 1.0:
                    ctx.progress.remove_task(ctx.step_task)  # a quick step leaves no line behind
                else:
                    ctx.progress.update(ctx.step_task, total=1, completed=1)
                    ctx.progress.stop_task(ctx.step_task)
            ctx.step_task = None
        ctx.problem_steps.extend([step.name] * (len(ctx.problems) - before))
        ctx.timings[step.name] = time.perf_counter() - t0
        ctx.cpu_timings[step.name] = time.process_time() - cpu0
        ctx.memory[step.name] = int(_peak_rss_mb())


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """SIGTERM (and SIGHUP) raise :class:`BuildInterrupted` in the build, so it cleans up as for Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum, _frame):
        # Remembered as well as raised: a signal landing in a callback whose exceptions Python ignores
        # (logging's at-fork lock release, as a worker is forked) loses the raise, and the build went on.
        _pending_signals.append(signum)
        raise BuildInterrupted(f"interrupted by {signal.Signals(signum).name}")

    previous = {s: signal.signal(s, interrupted) for s in (signal.SIGTERM, signal.SIGHUP)}
    _pending_signals.clear()
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _pending_signals.clear()


_pending_signals: list[int] = []


def _stop_if_interrupted() -> None:
    """Raise :class:`BuildInterrupted` for a signal whose raise was lost (checked before each step)."""
    if _pending_signals:
        raise BuildInterrupted(f"interrupted by {signal.Signals(_pending_signals[0]).name}")


def worker_initializer(build_pid: int | None = None) -> None:
    """Run in each worker process: die with the build (Linux ``PR_SET_PDEATHSIG``), leave Ctrl-C to it.

    Without this a worker whose build was killed lives on, holding the
    deleted temporary database open. ``build_pid`` is the build's pid, taken before the fork: a
    parent read here would already be the reaper if the build died in between.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid() if build_pid is None else build_pid
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the build died before prctl took effect
        os._exit(1)


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator:
    """A process pool whose workers die with the build, and are stopped at once if it fails."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                               initializer=worker_initializer, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        # Taken before shutdown(), which forgets the pool's processes. A signal can also land between
        # a worker's start and the pool recording it, so every child started since is stopped:
        # one left running would be joined at exit, and wait for work forever.
        started = set((getattr(pool, "_processes", None) or {}).values())
        started |= set(multiprocessing.active_children()) - before
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in started:
            process.terminate()
        for process in started:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)
        # The pool's manager thread joins the same workers: when it reaps one first, our waitpid() gets
        # ECHILD and is_alive() says True until that thread records the exit, so wait for it to end.
        if manager is not None and manager is not threading.current_thread():
            manager.join(5)
        raise
    else:
        pool.shutdown(wait=True)


def remove_stale_temp_files(target: Path) -> list[Path]:
    """Remove ``<target>.tmp-<pid>`` files whose build is gone (killed with SIGKILL, or the machine
    stopped); a build holds a lock on its temporary file, so a running one's is left alone."""
    removed = []
    for tmp in target.parent.glob(f"{target.name}.tmp-*"):
        try:
            fd = os.open(tmp, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a build is writing it
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{tmp}{suffix}").unlink(missing_ok=True)
            removed.append(tmp)
        finally:
            os.close(fd)
    return removed


def build_database(
    db_path: str | os.PathLike,
    corpus: Path,
    *,
    show_progress: bool = True,
    keep_going: bool = False,
    console: Console | None = None,
    cache_dir: Path | None | bool = True,
    full: bool = False,
) -> BuildSummary:
    """Build (or bring up to date) the database at ``db_path`` from ``corpus``; see the module docstring.

    ``cache_dir``: True for the default cache (:func:`kb.cache.default_cache_dir`), a path, or
    False/None for none. ``full`` rebuilds everything even when nothing changed.
    """
    target = Path(db_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    cache = Cache(default_cache_dir() if cache_dir is True else (Path(cache_dir) if cache_dir else None))
    # Parsed Oracle lines live in the same cache directory (and none with --no-cache).
    from executable_rules.oracle import parse_cache

    with parse_cache.using(cache.root):
        return _build_database(target, corpus, cache, started, keep_going=keep_going, full=full,
                               show_progress=show_progress, console=console)


def _build_database(target: Path, corpus: Path, cache: Cache, started: float, *, keep_going: bool, full: bool,
                    show_progress: bool, console: Console | None) -> BuildSummary:
    removed = remove_stale_temp_files(target)
    mode, added, reason, inputs, code = plan_build(target, corpus, keep_going=keep_going, full=full)
    notes = [f"removed {p.name}, left by a build that was killed" for p in removed]
    if mode == "unchanged":
        db = sqlite_utils.Database(target)
        try:
            from .search.dense import load_sqlite_vec

            load_sqlite_vec(db.conn)   # search_vectors is a sqlite-vec table: counting it needs the module
            counts = _counts(db)
            warnings, errors = (db.execute(
                "select coalesce(sum(severity = 'warning'), 0), coalesce(sum(severity = 'error'), 0)"
                " from ingest_problems").fetchone())
        finally:
            db.close()
        return BuildSummary(target, time.perf_counter() - started, counts, warnings, errors, {}, "unchanged",
                            reason=reason, notes=notes)
    if mode == "add":
        try:
            summary = _build(target, corpus, "add", added, inputs, code, cache, show_progress, keep_going,
                             console, started, notes)
        except NeedsFullBuild as e:
            reason = str(e)
        else:
            if cache.enabled:
                from . import build_reuse

                build_reuse.remember(cache, build_reuse.key(cache, code, corpus, keep_going, inputs), target)
            return summary
    from . import build_reuse

    build_key = build_reuse.key(cache, code, corpus, keep_going, inputs) if cache.enabled else ""
    if cache.enabled and not full:
        copied = _copy_built(target, cache, build_key, code, corpus, keep_going, inputs, started, notes)
        if copied is not None:
            return copied
    summary = _build(target, corpus, "full", [], inputs, code, cache, show_progress, keep_going, console,
                     started, notes)
    summary.reason = reason
    if cache.enabled:
        build_reuse.remember(cache, build_key, target)
    return summary


def _copy_built(target: Path, cache: Cache, build_key: str, code: str, corpus: Path, keep_going: bool,
                inputs: dict[str, tuple[str, int]], started: float, notes: list[str]) -> BuildSummary | None:
    """A database built from the same inputs, copied into place (:mod:`kb.build_reuse`), or None."""
    from . import build_reuse

    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    lock = os.open(tmp, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(lock, fcntl.LOCK_EX)  # see remove_stale_temp_files
    try:
        with _signals_raise():
            source = build_reuse.copy_into(cache, build_key, tmp, code, corpus, keep_going, inputs)
            if source is None or source == target.resolve():
                tmp.unlink(missing_ok=True)
                return None
            db = sqlite_utils.Database(tmp)
            try:
                from .search.dense import load_sqlite_vec

                load_sqlite_vec(db.conn)   # search_vectors is a sqlite-vec table: counting it needs the module
                build_reuse.restamp(db, str(source))
                counts = _counts(db)
                warnings, errors = db.execute(
                    "select coalesce(sum(severity = 'warning'), 0), coalesce(sum(severity = 'error'), 0)"
                    " from ingest_problems").fetchone()
            finally:
                db.close()
            os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(lock)
    build_reuse.remember(cache, build_key, target)
    return BuildSummary(target, time.perf_counter() - started, counts, warnings, errors, {}, "copied",
                        reason=f"copied {source}, built from the same code, corpus and options", notes=notes,
                        cache=cache.summary(), peak_rss_mb=_peak_rss_mb())


def _build(target: Path, corpus: Path, mode: str, added: list[AddedFile], inputs, code: str, cache: Cache,
           show_progress: bool, keep_going: bool, console: Console | None, started: float,
           notes: list[str]) -> BuildSummary:
    selected = steps()
    if mode == "add":
        unready = [s.name for s in selected if s.on_add is None]
        if unready:
            raise NeedsFullBuild(f"step {unready[0]!r} has no way to add a release; a full build adds it")
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    for suffix in ("", "-journal"):
        Path(f"{tmp}{suffix}").unlink(missing_ok=True)
    progress = (
        Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=console or Console(stderr=True), transient=False,
        )
        if show_progress
        else None
    )
    if mode == "add":
        shutil.copyfile(target, tmp)
    lock = os.open(tmp, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(lock, fcntl.LOCK_EX)  # see remove_stale_temp_files
    db = sqlite_utils.Database(tmp)
    # A build is written by one process to a private file: no journal needed.
    db.execute("pragma journal_mode = off")
    db.execute("pragma synchronous = off")
    ctx = BuildContext(db=db, corpus=corpus, keep_going=keep_going, progress=progress, cache=cache, mode=mode,
                       added=added, path=tmp, notes=notes, inputs=inputs)
    try:
        with _signals_raise(), progress or contextlib.nullcontext():
            _run_steps(ctx, selected)
            _write_problems(ctx)
            _write_manifest(db, inputs, {
                "code": code, "corpus": str(corpus), "keep_going": str(int(keep_going)), "mode": mode,
                "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cache": cache.summary(),
                "added": " ".join(f.relative for f in added),
            })
            counts = _counts(db)
            # Statistics for the query planner from a sample of each index: a full ANALYZE reads 300 MB.
            db.execute("pragma analysis_limit = 1000")
            db.execute("analyze")
            # A sample of an index on a column of few values (the rule's kind, its section) reads as
            # a thousand rows a value; the planner then prefers it to the right index ("kind = 'numbered'"
            # matches most rules). Those two are small: read them whole.
            db.execute("pragma analysis_limit = 0")
            for index in ("idx_rules_kind", "idx_rules_section"):
                if db.execute("select 1 from sqlite_master where type = 'index' and name = ?", [index]).fetchone():
                    db.execute(f"analyze [{index}]")
        db.close()
        os.replace(tmp, target)
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(lock)
    if cache.enabled:
        cache.prune(DEFAULT_MAX_BYTES)
    problems = ctx.problems
    if mode == "add":
        db = sqlite_utils.Database(target)
        warnings, errors = db.execute(
            "select coalesce(sum(severity = 'warning'), 0), coalesce(sum(severity = 'error'), 0)"
            " from ingest_problems").fetchone()
        db.close()
    else:
        warnings = sum(p.severity == "warning" for p in problems)
        errors = sum(p.severity == "error" for p in problems)
    return BuildSummary(
        path=target, seconds=time.perf_counter() - started, counts=counts, warnings=warnings, errors=errors,
        timings=ctx.timings, mode=mode, added=added, cache=cache.summary(), peak_rss_mb=_peak_rss_mb(),
        memory=ctx.memory, notes=ctx.notes + cache.errors, cpu_timings=ctx.cpu_timings,
    )


def _counts(db: sqlite_utils.Database) -> dict[str, int]:
    return {name: db[name].count for name in db.table_names() if not _is_internal(name)}


def _is_internal(table: str) -> bool:
    return table.startswith("sqlite_") or "_fts" in table or table in BUILD_TABLES
