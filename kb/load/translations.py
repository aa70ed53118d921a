"""Load the Chinese and Korean Comprehensive Rules and align them with the English ones.

Build steps :func:`load_chinese_cr` (``cr/zh/MagicCompRules_zh-Hans_<date>.txt``,
:func:`ingest.cr_zh.parse_cr_zh`) and :func:`load_korean_cr`
(``cr/ko/MagicCompRules_KR_<date>.txt``, :func:`ingest.cr_ko.parse_cr_ko`). Each
file is inserted like any release, every row with its search form (the
language's segmenter, :mod:`kb.chinese` or :mod:`kb.korean`, in the column
``search_ja``, which holds the segmented search form of every non-English row),
with a ``releases`` and a ``release_sources`` row; headings as printed go to
``printed_headings``. Then, for each release:

- ``rule_alignment``: each translated rule and the English rule of the same
  release it translates (:func:`kb.alignment.align_rules`: by number, except
  where a numbered rule's subrules differ and their citations say otherwise);
- ``glossary_translations``: each glossary entry of the translation and its
  English entry. The Chinese glossary prints no English terms but keeps the
  English glossary's order, so entries pair in order, anchored on the rules
  they cite (difflib over the two sequences of citations); ``paired_by`` says
  ``order and citations`` or ``order``;
- ``keyword_translations``: English ↔ translated names of keyword actions and
  abilities (701, 702) and glossary terms, for cross-language search.

A translation is aligned with the English release of its own date only; a
release without one (no English file of that date) is loaded unaligned, and a
warning says so.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

from ingest.cr_ja import Heading
from ingest.decoding import lost_characters, read_source
from ingest.records import IngestProblem, Release, SourceError

from ..alignment import align_rules
from ..build import BuildContext, insert_rows
from .cr import RULE_COLUMNS, insert_record_rows, record_rows

TRANSLATION_TABLES: dict[str, dict] = {
    "rule_alignment": dict(
        columns={"release": str, "lang": str, "number": str, "number_en": str, "paired_by": str},
        pk=("release", "lang", "number"),
    ),
    "glossary_translations": dict(
        columns={
            "id": int, "release": str, "lang": str, "term_en": str, "term": str, "paired_by": str,
            "en_id": int, "translated_id": int, "definition_en": str, "definition": str,
        },
        pk="id",
    ),
    "keyword_translations": dict(
        columns={
            "id": int, "release": str, "lang": str, "source": str, "number": str, "name_en": str,
            "name": str, "key_en": str, "key": str, "match": str,
        },
        pk="id",
    ),
}

_PRINTED_HEADINGS = dict(
    columns={"release": str, "lang": str, "number": str, "printed": str, "source": str, "line": int},
    pk=("release", "lang", "number"),
)

def create_translation_tables(db) -> None:
    """Create the alignment tables (and ``printed_headings``) unless they exist."""
    for name, spec in TRANSLATION_TABLES.items():
        db.table(name).create(**spec, if_not_exists=True)
    # rules_bilingual looks English rules up by the number they translate: without this index its
    # table page (count and facets) took 1.3 s a query, past Datasette's time limit, once zh and ko
    # filled the table; 0.07 s with it.
    db["rule_alignment"].create_index(["release", "lang", "number_en"], if_not_exists=True)
    db.table("printed_headings").create(**_PRINTED_HEADINGS, if_not_exists=True)


def translation_files(corpus: Path, lang: str) -> list[Path]:
    """The CR files of one translation: ``cr/zh/MagicCompRules_zh-Hans_<date>.txt``, ``cr/ko/MagicCompRules_KR_<date>.txt``."""
    pattern = {"zh": "MagicCompRules_zh-Hans_*.txt", "ko": "MagicCompRules_KR_*.txt"}[lang]
    return sorted((corpus / "cr" / lang).glob(pattern))


class SearchFormCache:
    """Search forms already computed, by text, in ``~/.cache/mtg-rules-kb/search-forms/``.

    Keyed by the segmenter module and the version of its package
    (``kb.korean`` with kiwipiepy 0.24.1), so a new segmenter never reads old
    forms. Kiwi takes several seconds to load and about 3 ms a text; with every
    form cached a rebuild does not load it at all. Set ``KB_CACHE=off`` to skip.
    """

    def __init__(self, segmenter: ModuleType):
        self.segmenter = segmenter
        version = f"{segmenter.__name__}-{segmenter.SEGMENTER_VERSION}"
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mtg-rules-kb" / "search-forms"
        self.path = None if os.environ.get("KB_CACHE") == "off" else root / f"{version}.json"
        self.forms: dict[str, str] = {}
        self.added = 0
        if self.path and self.path.exists():
            try:
                self.forms = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.forms = {}  # a damaged cache is rebuilt, never trusted

    def __call__(self, text: str) -> str:
        key = hashlib.sha1(text.encode()).hexdigest()
        form = self.forms.get(key)
        if form is None:
            form = self.forms[key] = self.segmenter.search_form(text)
            self.added += 1
        return form

    def query(self, text: str) -> list[str]:
        """``segment_query`` of ``text``, cached as the search forms are."""
        key = "query:" + hashlib.sha1(text.encode()).hexdigest()
        found = self.forms.get(key)
        if found is None:
            found = self.forms[key] = "|".join(self.segmenter.segment_query(text))
            self.added += 1
        return found.split("|") if found else []

    def save(self) -> None:
        if not self.path or not self.added:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}")
            tmp.write_text(json.dumps(self.forms, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # a cache that cannot be written only costs time


def _with_search_forms(rows: dict[str, list[tuple]], form: Callable[[str], str]) -> dict[str, list[tuple]]:
    """The rows with their search form in ``search_ja`` (rules: title and text; glossary: term and definition)."""
    out = dict(rows)  # search_ja is the last column of rules, examples and glossary
    title_at, text_at = RULE_COLUMNS.index("title"), RULE_COLUMNS.index("text")
    out["rules"] = [row[:-1] + (form(" ".join(filter(None, [row[title_at], row[text_at]]))),)
                    for row in rows["rules"]]
    out["examples"] = [row[:-1] + (form(row[4]),) for row in rows["examples"]]
    out["glossary"] = [row[:-1] + (form(f"{row[2]} {row[6]}"),) for row in rows["glossary"]]
    return out


def load_translation(ctx: BuildContext, lang: str, parse_text: Callable[[str, str], Iterable],
                     segmenter: ModuleType, title: str) -> None:
    """Load every file of one translation and align each release with English."""
    db = ctx.db
    create_translation_tables(db)
    files = translation_files(ctx.corpus, lang)
    loaded: list[str] = []
    forms = SearchFormCache(segmenter)
    with ctx.task(title, len(files)) as advance:
        for path in files:
            relative = path.relative_to(ctx.corpus).as_posix()
            try:
                decoded = read_source(path, relative)
            except SourceError as e:
                ctx.source_failed(e)
                continue
            records = [*parse_text(decoded.text, relative), *filter(None, [lost_characters(decoded)])]
            release = next((r for r in records if isinstance(r, Release)), None)
            source_row = {"source": relative, "lang": lang, "encoding": decoded.encoding,
                          "line_endings": decoded.line_endings, "compressed": int(decoded.compressed)}
            problems = [p for p in records if isinstance(p, IngestProblem)]
            ctx.problems.extend(problems)
            advance(1)
            if release is None:
                db.table("release_sources").insert({**source_row, "used": 0, "note": f"not a {title}"})
                continue
            rows = _with_search_forms(record_rows(records), forms)
            counts = insert_record_rows(ctx, rows)
            db.table("printed_headings").insert_all(
                ({"release": h.release, "lang": h.lang, "number": h.number, "printed": h.printed,
                  "source": h.source, "line": h.line} for h in records if isinstance(h, Heading)),
                replace=True)
            db.table("releases").insert({
                "release": release.release, "lang": lang, "effective_date": release.effective_date,
                "source": release.source, "completeness": release.completeness,
                "version_label": release.version_label, "encoding": decoded.encoding,
                "line_endings": decoded.line_endings, "sections": counts["sections"],
                "rules": counts["rule"], "numbered_rules": counts["numbered"], "subrules": counts["subrule"],
                "examples": counts["examples"], "glossary_entries": counts["glossary"],
                "warnings": sum(p.severity == "warning" for p in problems),
                "errors": sum(p.severity == "error" for p in problems),
            })
            db.table("release_sources").insert({**source_row, "release": release.release, "used": 1,
                                                "same_as_used": 1})
            loaded.append(release.release)
    for release in loaded:
        if not db.execute("select 1 from releases where release = ? and lang = 'en'", [release]).fetchone():
            ctx.problems.append(IngestProblem(
                f"cr/{lang}", None, "warning", "no-english-release",
                f"{title} {release} has no English release of the same date: not aligned", release, lang))
            continue
        fill_rule_alignment(db, release, lang)
        fill_glossary_translations(db, release, lang)
    fill_keyword_translations(db, lang, forms)
    forms.save()


def load_chinese_cr(ctx: BuildContext) -> None:
    """The build step: every Simplified Chinese release."""
    from ingest.cr_zh import parse_cr_zh_text

    from .. import chinese

    load_translation(ctx, "zh", parse_cr_zh_text, chinese, "Chinese CR")


def load_korean_cr(ctx: BuildContext) -> None:
    """The build step: every Korean release."""
    from ingest.cr_ko import parse_cr_ko_text

    from .. import korean

    load_translation(ctx, "ko", parse_cr_ko_text, korean, "Korean CR")


def _citations(db, release: str, lang: str) -> dict[tuple[str, str], tuple[str, ...]]:
    """``{("en" | "tr", number): cited numbers}`` of the rules of one release in English and ``lang``."""
    out: dict[tuple[str, str], list[str]] = {}
    for row_lang, number, to in db.execute(
            "select lang, from_number, to_number from rule_references"
            " where release = ? and lang in ('en', ?) and from_kind = 'rule' order by id", [release, lang]):
        out.setdefault(("en" if row_lang == "en" else "tr", number), []).append(to)
    return {k: tuple(v) for k, v in out.items()}


def fill_rule_alignment(db, release: str, lang: str) -> None:
    """``rule_alignment`` rows of one translated release (see :mod:`kb.alignment`)."""
    def rows(of: str):
        return [(r[0], r[1], r[2] or "") for r in db.execute(
            "select number, kind, parent from rules where release = ? and lang = ? order by position",
            [release, of])]

    pairs = align_rules(rows("en"), rows(lang), _citations(db, release, lang))
    db.execute("delete from rule_alignment where release = ? and lang = ?", [release, lang])
    insert_rows(db, "rule_alignment", ["release", "lang", "number", "number_en", "paired_by"],
                ((release, lang, p.number, p.number_en, p.paired_by) for p in pairs))


def pair_glossary_in_order(english: list[dict], translated: list[dict]) -> list[tuple[dict | None, dict | None, str | None]]:
    """Pair two glossaries printed in the same order, anchored on the rules each entry cites.

    Runs of entries with the same citations in the same order pair one to one
    (``order and citations``); between two such runs, entries pair one to one
    when both sides have as many (``order``); the rest stay unpaired.

    >>> en = [{"rule_refs": '["701.33"]'}, {"rule_refs": '["113"]'}, {"rule_refs": '["702.64"]'}]
    >>> zh = [{"rule_refs": '["701.33"]'}, {"rule_refs": '["113", "6"]'}, {"rule_refs": '["702.64"]'}]
    >>> [(e is not None, t is not None, how) for e, t, how in pair_glossary_in_order(en, zh)]
    [(True, True, 'order and citations'), (True, True, 'order'), (True, True, 'order and citations')]
    """
    def signature(g: dict) -> str:
        return " ".join(json.loads(g["rule_refs"] or "[]")) or "-"

    matcher = difflib.SequenceMatcher(None, [signature(g) for g in english], [signature(g) for g in translated],
                                      autojunk=False)
    out: list[tuple[dict | None, dict | None, str | None]] = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            out.extend((english[a0 + k], translated[b0 + k], "order and citations") for k in range(a1 - a0))
        elif op == "replace" and a1 - a0 == b1 - b0:
            out.extend((english[a0 + k], translated[b0 + k], "order") for k in range(a1 - a0))
        else:
            out.extend((english[k], None, None) for k in range(a0, a1))
            out.extend((None, translated[k], None) for k in range(b0, b1))
    # Entries the translation sorts elsewhere (its terms are not the English ones): paired
    # when the rules they cite are cited by no other entry left over.
    left_en: dict[str, list[int]] = {}
    left_tr: dict[str, list[int]] = {}
    for i, (e, t, _) in enumerate(out):
        if e is not None and t is None:
            left_en.setdefault(signature(e), []).append(i)
        elif t is not None and e is None:
            left_tr.setdefault(signature(t), []).append(i)
    drop: set[int] = set()
    for sig, at_en in left_en.items():
        at_tr = left_tr.get(sig, [])
        if sig != "-" and len(at_en) == 1 and len(at_tr) == 1:
            out[at_en[0]] = (out[at_en[0]][0], out[at_tr[0]][1], "citations")
            drop.add(at_tr[0])
    return [pair for i, pair in enumerate(out) if i not in drop]


def fill_glossary_translations(db, release: str, lang: str) -> None:
    """``glossary_translations`` rows of one translated release (none when it has no glossary)."""
    query = "select id, term, definition, rule_refs from glossary where release = ? and lang = ? order by id"
    english = list(db.query(query, [release, "en"]))
    translated = list(db.query(query, [release, lang]))
    if not translated:
        return
    db.table("glossary_translations").insert_all(({
        "release": release, "lang": lang, "term_en": e["term"] if e else None, "term": t["term"] if t else None,
        "paired_by": how, "en_id": e["id"] if e else None, "translated_id": t["id"] if t else None,
        "definition_en": e["definition"] if e else None, "definition": t["definition"] if t else None,
    } for e, t, how in pair_glossary_in_order(english, translated)), batch_size=1000)


_EN_WORD = re.compile(r"[0-9a-z]+(?:['’][a-z]+)?")


def _english_key(name: str) -> str:
    return " ".join(_EN_WORD.findall(name.lower()))


def fill_keyword_translations(db, lang: str, forms: SearchFormCache) -> None:
    """``keyword_translations`` of ``lang``: the 701/702 headings (translated ↔ English, through
    ``rule_alignment``, or the English name the heading prints) and the paired glossary terms."""
    from .japanese import name_pairs

    sources = [
        ("rule", r["release"], r["number"], r["name_en"], r["name"]) for r in db.query(
            "select t.release, t.number, coalesce(en.title, t.title_en) as name_en, t.title as name"
            " from rules t left join rule_alignment a on a.release = t.release and a.lang = t.lang"
            "   and a.number = t.number"
            " left join rules en on en.release = t.release and en.lang = 'en' and en.number = a.number_en"
            " where t.lang = ? and t.kind = 'numbered' and t.parent in ('701', '702') and t.title is not null",
            [lang])
    ] + [
        ("glossary", g["release"], (json.loads(g["rule_refs"] or "[]") or [None])[0], g["term_en"], g["term"])
        for g in db.query("select p.release, p.term_en, p.term, t.rule_refs from glossary_translations p"
                          " join glossary t on t.id = p.translated_id where p.lang = ? and p.en_id is not null",
                          [lang])
    ]
    rows, seen = [], set()
    for source, release, number, name_en, name in sources:
        if not name_en or not name or name == name_en:
            continue
        for en, translated in name_pairs(name_en, name):
            if re.search(r"[\[［]", en + translated):
                continue  # "Partner with [name]": a pattern, not a name
            key_en, key = _english_key(en), forms(translated)
            if not key_en or not key or (release, source, key_en, key) in seen:
                continue
            seen.add((release, source, key_en, key))
            rows.append({"release": release, "lang": lang, "source": source, "number": number, "name_en": en,
                         "name": translated, "key_en": key_en, "key": key,
                         "match": "|".join(forms.query(translated))})
    db.table("keyword_translations").insert_all(rows, batch_size=1000)


# --- kb add --lang zh|ko ------------------------------------------------------------------

def _reader(lang: str):
    def read(path: Path, relative: str) -> list:
        from ingest.cr_ko import parse_cr_ko_text
        from ingest.cr_zh import parse_cr_zh_text

        parse = {"zh": parse_cr_zh_text, "ko": parse_cr_ko_text}[lang]
        decoded = read_source(path, relative)
        return [*parse(decoded.text, relative), *filter(None, [lost_characters(decoded)])]
    return read


def _files(lang: str):
    def files(corpus: Path) -> list:
        from ..corpus import CorpusFile

        return [CorpusFile(p, p.relative_to(corpus).as_posix()) for p in translation_files(corpus, lang)]
    return files


from ..languages import CRLanguage, register_language  # noqa: E402

register_language(CRLanguage("zh", "Simplified Chinese", "Chinese CR", _files("zh"), _reader("zh"),
                             lambda release: f"cr/zh/MagicCompRules_zh-Hans_{release}.txt"))
register_language(CRLanguage("ko", "Korean", "Korean CR", _files("ko"), _reader("ko"),
                             lambda release: f"cr/ko/MagicCompRules_KR_{release}.txt"))
