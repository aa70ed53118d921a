"""How much of the card pool's Oracle text the grammar reads: by card, by keyword and by template.

:func:`measure` parses every line of every card (each distinct normalised line once; lines already parsed by
this grammar are read from a cache under ``~/.cache/mtg-rules-kb/oracle-lines``, keyed by the grammar's hash,
so a changed grammar is never answered from an old cache) and says:

- how many cards have every line read (``complete``), and how many lines are read;
- for each keyword ability (Keyword Abilities — CR 702) printed on a keyword line, how many of those lines are read;
- the templates of the unread lines (numbers and costs generalised), most frequent first, each with a card;
- any line whose parsing raised something other than a parse error (``crashed``: always a bug).

>>> report = measure([("Grizzly Bears", ""), ("Serra Angel", "Flying, vigilance"), ("Nonsense", "Blorp.")],
...                  workers=1, cache=False)
>>> report.cards, report.complete, report.keywords["Flying"]
(3, 2, [1, 1])
>>> report.unread[0][0], report.unread[0][1]
('blorp.', 1)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .keywords import KEYWORD_ABILITIES
from .parser import GRAMMAR, normalise, parse_line, template_of

CACHE_DIR = Path(os.environ.get("KB_CACHE", Path.home() / ".cache" / "mtg-rules-kb")) / "oracle-lines"


@dataclass
class Coverage:
    """The figures of one run of :func:`measure`."""

    cards: int = 0
    complete: int = 0
    lines: int = 0
    read: int = 0
    keyword_lines: int = 0
    keyword_lines_read: int = 0
    #: keyword title → [lines with it, of those read]
    keywords: dict[str, list[int]] = field(default_factory=dict)
    #: kind → lines read of that kind
    kinds: Counter[str] = field(default_factory=Counter)
    #: (template, lines, an example card, the example's text) of unread lines, most frequent first
    unread: list[tuple[str, int, str, str]] = field(default_factory=list)
    crashed: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def complete_share(self) -> float:
        return self.complete / self.cards if self.cards else 0.0

    def as_json(self, limit: int = 50) -> dict[str, Any]:
        return {
            "cards": self.cards, "complete": self.complete, "complete_share": round(self.complete_share, 4),
            "lines": self.lines, "read": self.read, "keyword_lines": self.keyword_lines,
            "keyword_lines_read": self.keyword_lines_read,
            "keywords": {k: {"lines": v[0], "read": v[1]} for k, v in sorted(self.keywords.items())},
            "kinds": dict(self.kinds.most_common()),
            "unread_templates": [{"template": t, "lines": n, "example_card": c, "example": x}
                                 for t, n, c, x in self.unread[:limit]],
            "crashed": [{"card": c, "line": line, "error": e} for c, line, e in self.crashed],
        }


def grammar_version() -> str:
    """The hash of the grammar and its parser: the cache key."""
    h = hashlib.sha256(GRAMMAR.read_bytes())
    h.update(Path(__file__).with_name("parser.py").read_bytes())
    h.update(Path(__file__).with_name("keywords.py").read_bytes())
    return h.hexdigest()[:24]


def _summary(text: str) -> tuple[str, list[list[str]], str]:
    """(kind, keywords, error) of one normalised line; never raises."""
    try:
        ability = parse_line(text, "~")
    except Exception as e:  # a crash is a bug in the parser; it is counted, not hidden
        return "crashed", [], f"{type(e).__name__}: {e}"
    return ability.kind, [list(k) for k in ability.keywords], ability.error


def _summaries(lines: list[str]) -> list[tuple[str, list[list[str]], str]]:
    return [_summary(line) for line in lines]


def _load_cache(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


def _save_cache(path: Path, known: dict[str, Any]) -> None:
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".tmp-{os.getpid()}")
        temp.write_text(json.dumps(known, ensure_ascii=False), encoding="utf-8")
        temp.replace(path)
    except OSError:
        pass


BATCH = 1000
"""Distinct lines parsed between two writes of the cache."""


def measure(cards: Iterable[tuple[str, str]], *, workers: int | None = None, cache: bool = True,
            progress: Callable[[int, int], None] | None = None) -> Coverage:
    """Parse every line of every ``(name, Oracle text)``; see the module docstring. ``progress(done, todo)`` is
    called after each batch of lines not in the cache."""
    per_card: list[tuple[str, list[str], list[str]]] = []
    distinct: dict[str, None] = {}
    for name, text in cards:
        raw = [line for line in (text or "").split("\n") if line.strip()]
        normal = [normalise(line, name) for line in raw]
        per_card.append((name, raw, normal))
        for n in normal:
            distinct.setdefault(n, None)
    path = CACHE_DIR / f"{grammar_version()}.json"
    known: dict[str, Any] = _load_cache(path) if cache else {}
    todo = [line for line in distinct if line and line not in known]
    workers = workers or max(1, min(4, os.cpu_count() or 1))
    # In batches, the cache written after each: the whole corpus takes CPU-minutes, and a run that is stopped
    # (or another one started meanwhile) starts from what was done.
    for start in range(0, len(todo), BATCH):
        if cache and start:
            known = {**_load_cache(path), **known}         # lines another run wrote meanwhile aren't parsed again
        batch = [line for line in todo[start:start + BATCH] if line not in known]
        if workers == 1 or len(batch) < 200:
            results = _summaries(batch)
        else:
            chunks = [batch[i::workers * 8] for i in range(workers * 8)]
            with ProcessPoolExecutor(workers) as pool:
                parts = list(pool.map(_summaries, chunks))
            by_line = {line: result for chunk, part in zip(chunks, parts) for line, result in zip(chunk, part)}
            results = [by_line[line] for line in batch]
        for line, result in zip(batch, results):
            known[line] = result
        if cache and batch:
            _save_cache(path, {**_load_cache(path), **known})
        if progress is not None:
            progress(min(start + BATCH, len(todo)), len(todo))
    report = Coverage(keywords={k: [0, 0] for k in KEYWORD_ABILITIES})
    templates: Counter[str] = Counter()
    examples: dict[str, tuple[str, str]] = {}
    for name, raw, normal in per_card:
        report.cards += 1
        complete = True
        for original, line in zip(raw, normal):
            report.lines += 1
            kind, keywords, error = known.get(line, ("spell", [], "")) if line else ("keyword", [], "")
            if kind == "crashed":
                report.crashed.append((name, original, error))
            if kind in ("unparsed", "crashed"):
                complete = False
                template = template_of(line)
                templates[template] += 1
                examples.setdefault(template, (name, original))
                continue
            report.read += 1
            report.kinds[kind] += 1
            if kind == "keyword" and keywords:
                report.keyword_lines += 1
                report.keyword_lines_read += 1
                for title, _ in keywords:
                    report.keywords.setdefault(title, [0, 0])
                    report.keywords[title][0] += 1
                    report.keywords[title][1] += 1
        report.complete += complete
    # Keyword lines the grammar didn't read: count them under the keyword they start with.
    from .keywords import canonical_keyword
    for name, raw, normal in per_card:
        for line in normal:
            if known.get(line, ("",))[0] != "unparsed":
                continue
            head = line.split(",")[0].split(" {")[0].split(" —")[0].strip(" .")
            for words in (head, " ".join(head.split()[:2]), head.split()[0] if head.split() else ""):
                title = canonical_keyword(words) if words else None
                if title:
                    report.keyword_lines += 1
                    report.keywords.setdefault(title, [0, 0])
                    report.keywords[title][0] += 1
                    break
    report.unread = [(t, n, *examples[t]) for t, n in templates.most_common()]
    return report
