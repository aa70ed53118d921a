"""Records the ingest parsers yield: small frozen values keyed by (release, lang, number).

Every record carries the file it came from and the line it starts on, so a
problem found later (in the build, in a test, in the stale-citation check) can
be reported as ``path:line:``.

>>> Rule(release="20260116", lang="en", number="701.57a", kind="subrule",
...      parent="701.57", title=None, text="...", position=1, source="x.txt", line=3)
Rule(release='20260116', lang='en', number='701.57a', kind='subrule', parent='701.57', title=None, text='...', position=1, source='x.txt', line=3, title_en=None)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, TypeVar

T = TypeVar("T")


class SourceError(ValueError):
    """A source file that cannot be read as what it claims to be.

    ``str()`` gives the ``path:line: message`` form terminals and editors link.

    >>> str(SourceError("cr/en/x.txt", 14, "no effective date found"))
    'cr/en/x.txt:14: no effective date found'
    """

    def __init__(self, path: str, line: int | None, message: str):
        self.path = path
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"

    def __reduce__(self) -> tuple[type["SourceError"], tuple[str, int | None, str]]:
        # Errors cross process boundaries (the build parses in a pool).
        return (SourceError, (self.path, self.line, self.message))


@dataclass(frozen=True)
class Release:
    """One document of the Comprehensive Rules: a release in one language.

    ``release`` is the effective date as ``YYYYMMDD`` (the version id);
    ``completeness`` is ``"whole"`` for a full document and ``"excerpt"`` for
    rules quoted elsewhere (a wiki page quoting a few rules of a release).
    """

    release: str
    lang: str
    effective_date: str
    source: str
    completeness: str = "whole"
    version_label: str | None = None  # as printed, e.g. "20260116.0" in Japanese


@dataclass(frozen=True)
class Section:
    """A section such as ``7. Additional Rules``."""

    release: str
    lang: str
    number: str
    title: str
    position: int
    source: str
    line: int


@dataclass(frozen=True)
class Rule:
    """A rule (``701``), numbered rule (``701.23``) or subrule (``701.23a``).

    ``kind`` is ``"rule"``, ``"numbered"`` or ``"subrule"``; ``parent`` is the
    section number for a rule, the rule for a numbered rule, the numbered rule
    for a subrule. ``title`` is the heading where the item has one, in the
    row's language (``Search``; ``探す`` for the Japanese ``701.23. 探す／Search``);
    ``title_en`` is its English name where the source gives one (``Search``).
    """

    release: str
    lang: str
    number: str
    kind: str
    parent: str
    title: str | None
    text: str
    position: int
    source: str
    line: int
    title_en: str | None = None


@dataclass(frozen=True)
class Example:
    """An ``Example:`` paragraph, attached to the (sub)rule it follows."""

    release: str
    lang: str
    rule_number: str
    seq: int
    text: str
    source: str
    line: int


@dataclass(frozen=True)
class GlossaryEntry:
    """A glossary entry: term, other names, definition and the rules it points to."""

    release: str
    lang: str
    term: str
    definition: str
    source: str
    line: int
    aliases: tuple[str, ...] = ()
    rule_refs: tuple[str, ...] = ()
    obsolete: bool = False
    reading: str | None = None  # Japanese reading (よみ)
    term_en: str | None = None  # the English term a Japanese entry translates


@dataclass(frozen=True)
class RuleRef:
    """A cross-reference found in text: ``from_number`` cites ``to_number``.

    ``from_kind`` says where the citing text is (``rule``, ``example``,
    ``glossary``); ``to_kind`` is ``rule`` or ``section``; ``cited`` is the
    text as printed (``rules 701.23a–c``).
    """

    release: str
    lang: str
    from_number: str
    from_kind: str
    to_number: str
    to_kind: str
    cited: str
    source: str
    line: int


@dataclass(frozen=True)
class IngestProblem:
    """Something the parser could not take as it is, kept instead of dropped.

    ``severity`` is ``"warning"`` (parsed, with a repair: a known typo) or
    ``"error"`` (the part, or the whole release, could not be parsed).
    """

    source: str
    line: int | None
    severity: str
    code: str
    message: str
    release: str | None = None
    lang: str | None = None
    details: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.severity}: {self.message}"


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for the frozen dataclass ``cls`` that fills ``__dict__`` at once.

    A frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``: three microseconds for a :class:`Rule`, a fifth of
    parsing a release. Parsers that make thousands of records use this
    instead; every field is given, in declaration order, and the record is
    the same in every way (equality, hash, repr, pickling).

    >>> make_ref = fast_constructor(RuleRef)
    >>> args = ("20260116", "en", "701.57b", "rule", "701.57a", "rule", "rule 701.57a", "x.txt", 9)
    >>> make_ref(*args) == RuleRef(*args), hash(make_ref(*args)) == hash(RuleRef(*args))
    (True, True)
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    args = ", ".join(f"_{i}" for i in range(len(names)))
    body = ", ".join(f"{name!r}: _{i}" for i, name in enumerate(names))
    namespace: dict[str, object] = {"new": object.__new__, "set": object.__setattr__, "cls": cls}
    exec(f"def make({args}):\n    obj = new(cls)\n    set(obj, '__dict__', {{{body}}})\n    return obj",
         namespace)
    return namespace["make"]  # type: ignore[return-value]
