"""Time to parse one CR release, against a naive regex parser in the same run.

    python bench/bench_parse.py [RELEASE_FILE]

For the newest-style release 20260116 (or the file given) and a hard-wrapped
2003 release, prints the best of 15 runs of:

- reading and decoding the file (a floor);
- the naive baseline: three regexes that keep the same rules, examples and
  glossary entries of a modern release, with no repairs, no citations, no
  warnings (it cannot read the 2003 file);
- :func:`ingest.cr.parse_cr_text`, which also repairs typos, finds citations
  and keeps every warning.

Target: the parser within 3× the naive baseline. Runs alternate, so both see
the same machine. On a busy machine the best of 15 runs still drifts (a
longer function is preempted more often): ``--instructions`` also counts the
instructions each executes under valgrind (callgrind), which does not depend
on the load (slow: about a minute).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.cr import parse_cr_text  # noqa: E402
from ingest.decoding import read_source  # noqa: E402
from ingest.records import Example, GlossaryEntry, Rule  # noqa: E402
from kb.corpus import find_corpus  # noqa: E402

_NAIVE_ITEM = re.compile(r"(\d{3})(?:\.(\d+)([a-z]?))?\.? (.*)")


def naive_parse(text: str, source: str = "x") -> list:
    """Rules, examples and glossary of a modern CR with three regexes: no repairs, citations or warnings."""
    lines = text.split("\n")
    body = next(i for i, line in enumerate(lines) if line.startswith("100.1. ")) - 2
    glossary = next(i for i in range(body, len(lines)) if lines[i].strip() == "Glossary")
    credits = next(i for i in range(glossary, len(lines)) if lines[i].strip() == "Credits")
    records, rule, seq = [], None, 0
    for n, line in enumerate(lines[body:glossary], body + 1):
        m = _NAIVE_ITEM.match(line)
        if m:
            number = m[1] if m[2] is None else f"{m[1]}.{m[2]}{m[3]}"
            kind = "rule" if m[2] is None else ("subrule" if m[3] else "numbered")
            rule, seq = Rule("r", "en", number, kind, "", None, m[4], n, source, n), 0
            records.append(rule)
        elif line.startswith("Example: ") and rule is not None:
            seq += 1
            records.append(Example("r", "en", rule.number, seq, line[9:], source, n))
    term = definition = None
    for n, line in enumerate(lines[glossary + 1:credits + 1], glossary + 2):
        if not line.strip() or n == credits + 1:
            if term and definition:
                records.append(GlossaryEntry("r", "en", term, "\n".join(definition), source, n))
            term = definition = None
        elif term is None:
            term, definition = line.strip(), []
        else:
            definition.append(line.strip())
    return records


def best(fns: dict, runs: int = 15) -> dict[str, float]:
    """Best time (ms) of each function, the runs interleaved."""
    out = {name: float("inf") for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            out[name] = min(out[name], (time.perf_counter() - t0) * 1000)
    return out


def instructions(which: str, path: Path, runs: int = 2) -> float:
    """Millions of instructions one run of ``which`` ("naive" or "parse") executes, start-up subtracted."""
    import shutil
    import subprocess

    if not shutil.which("valgrind"):
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    calls = {"naive": "naive_parse(t)", "parse": "list(parse_cr_text(t, 'x'))", "none": "None"}

    def count(call: str, times: int) -> int:
        code = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                "from bench.bench_parse import naive_parse, parse_cr_text, read_source\n"
                f"t = read_source({str(path)!r}).text\n"
                f"for _ in range({times}): {call}\n")
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                              "-c", code], capture_output=True, text=True)
        return int(re.search(r"Collected : (\d+)", out.stderr).group(1))

    return (count(calls[which], runs) - count(calls["none"], 1)) / runs / 1e6


def main() -> None:
    corpus = find_corpus()
    counting = "--instructions" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--instructions"]
    files = [Path(args[0])] if args else [
        corpus / "cr/en/MagicCompRules_20260116.txt",
        corpus / "cr/en/archive/MagicCompRules_20031001.txt.gz",
    ]
    print(f"{'file':<36}{'read+decode':>12}{'naive':>10}{'parse_cr':>10}{'× naive':>9}{'records':>9}  kinds (parse / naive)")
    for path in files:
        text = read_source(path).text
        fns = {"read": lambda: read_source(path), "parse": lambda: list(parse_cr_text(text, path.name))}
        try:
            naive = naive_parse(text)
            fns["naive"] = lambda: naive_parse(text)
        except StopIteration:  # a hard-wrapped 2003 file: the naive parser finds no "100.1. " line
            naive = None
        times = best(fns)
        records = list(parse_cr_text(text, path.name))
        kinds = [sum(isinstance(r, k) for r in records) for k in (Rule, Example, GlossaryEntry)]
        naive_kinds = [sum(isinstance(r, k) for r in naive) for k in (Rule, Example, GlossaryEntry)] if naive else None
        ratio = f"{times['parse'] / times['naive']:8.2f}×" if naive else f"{'-':>9}"
        naive_ms = f"{times['naive']:8.1f}ms" if naive else f"{'-':>10}"
        print(f"{path.name:<36}{times['read']:10.1f}ms{naive_ms}{times['parse']:8.1f}ms{ratio}{len(records):>9}  "
              f"{kinds} / {naive_kinds or '-'}")
    print("(target: parse_cr within 3× the naive parser; it also repairs typos, finds citations, keeps warnings)")
    if counting:
        path = files[0]
        naive, parse = instructions("naive", path), instructions("parse", path)
        print(f"instructions, {path.name}: naive {naive:.0f} M, parse_cr {parse:.0f} M: {parse / naive:.2f}×")


if __name__ == "__main__":
    main()
