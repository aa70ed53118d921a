"""Pair a translation's rules with the English rules of the same release: ``align_rules``.

A translated rule pairs with the English rule of the same release and
number: the translations keep the English numbering. Where a translation lags
behind (the Japanese 20260116 still prints the damage-assignment-order rule
805.10f that English removed in 20241108, so its 805.10g is the English
805.10f), the numbers of one numbered rule's subrules no longer say which is
which. So under each numbered rule whose subrules differ between the two
(one side has a letter the other has not), the subrules are aligned again as
two sequences, scored by the rules each cites (the citations are numbers,
the same in every language), and the better of that alignment and the one by
number is kept. ``paired_by`` says which: ``number`` or ``citations``.

Never across releases, and never by guessing from text: two languages share
nothing else a program can compare.

>>> en = [("805.10e", ()), ("805.10f", ("510.1",))]
>>> ja = [("805.10e", ()), ("805.10f", ()), ("805.10g", ("510.1",))]
>>> [(p.number, p.number_en, p.paired_by) for p in align_children(en, ja)]
[('805.10e', '805.10e', 'number'), ('805.10f', None, None), ('805.10g', '805.10f', 'citations')]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

# Scores of a pair of subrules by what they cite, and of a subrule left unpaired.
SAME_CITATIONS = 2.0
NO_CITATIONS = 0.5  # neither cites anything: weak evidence, but no contradiction
DIFFERENT_CITATIONS = -1.0
UNPAIRED = -0.6


@dataclass(frozen=True)
class Pairing:
    """A translated rule (``number``) and its English counterpart (``number_en``; None: none)."""

    number: str
    number_en: str | None
    paired_by: str | None


def _score(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    if not a and not b:
        return NO_CITATIONS
    return SAME_CITATIONS if set(a) == set(b) else DIFFERENT_CITATIONS


def align_children(english: Sequence[tuple[str, tuple[str, ...]]],
                   translated: Sequence[tuple[str, tuple[str, ...]]]) -> list[Pairing]:
    """Pair the subrules of one numbered rule, each given as (number, cited numbers) in order.

    By number, unless an alignment by citations (in order, gaps allowed) scores higher.
    """
    by_number = {n for n, _ in english}
    cites_en = dict(english)
    number_pairs = [Pairing(n, n if n in by_number else None, "number" if n in by_number else None)
                    for n, _ in translated]
    paired = sum(p.number_en is not None for p in number_pairs)
    number_score = sum(_score(cites_en[p.number_en], c) for p, (_, c) in zip(number_pairs, translated)
                       if p.number_en) + UNPAIRED * ((len(english) - paired) + (len(translated) - paired))
    # Needleman-Wunsch over the two sequences.
    n, m = len(english), len(translated)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    step = [[""] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        best[i][0], step[i][0] = best[i - 1][0] + UNPAIRED, "up"
    for j in range(1, m + 1):
        best[0][j], step[0][j] = best[0][j - 1] + UNPAIRED, "left"
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [(best[i - 1][j - 1] + _score(english[i - 1][1], translated[j - 1][1]), "diag"),
                       (best[i - 1][j] + UNPAIRED, "up"), (best[i][j - 1] + UNPAIRED, "left")]
            best[i][j], step[i][j] = max(options)
    if best[n][m] <= number_score + 1e-9:
        return number_pairs
    found: dict[str, str | None] = {}
    i, j = n, m
    while i > 0 or j > 0:
        move = step[i][j]
        if move == "diag":
            found[translated[j - 1][0]] = english[i - 1][0]
            i, j = i - 1, j - 1
        elif move == "up":
            i -= 1
        else:
            found[translated[j - 1][0]] = None
            j -= 1
    return [Pairing(t, found.get(t), None if found.get(t) is None else
                    ("number" if found.get(t) == t else "citations")) for t, _ in translated]


def align_rules(english: Iterable[tuple[str, str, str]], translated: Iterable[tuple[str, str, str]],
                citations: dict[tuple[str, str], tuple[str, ...]]) -> list[Pairing]:
    """Pair every translated rule of one release, given (number, kind, parent) rows of both
    languages in document order and ``citations[(lang, number)]``.

    Rules and numbered rules pair by number; subrules as :func:`align_children` says.
    """
    english = list(english)
    translated = list(translated)
    en_numbers = {n for n, _, _ in english}
    children_en: dict[str, list[str]] = defaultdict(list)
    children_tr: dict[str, list[str]] = defaultdict(list)
    for number, kind, parent in english:
        if kind == "subrule":
            children_en[parent].append(number)
    for number, kind, parent in translated:
        if kind == "subrule":
            children_tr[parent].append(number)
    realigned: dict[str, Pairing] = {}
    for parent, numbers in children_tr.items():
        theirs = children_en.get(parent, [])
        if set(numbers) == set(theirs):
            continue
        for p in align_children([(n, citations.get(("en", n), ())) for n in theirs],
                                [(n, citations.get(("tr", n), ())) for n in numbers]):
            realigned[p.number] = p
    out = []
    for number, kind, _parent in translated:
        if number in realigned:
            out.append(realigned[number])
        elif number in en_numbers:
            out.append(Pairing(number, number, "number"))
        else:
            out.append(Pairing(number, None, None))
    return out
