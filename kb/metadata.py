"""Datasette metadata for the knowledge base: titles, descriptions, facets, labels, canned queries.

Built in Python rather than kept as a JSON file so that it follows the
database's name (Datasette names a database after its file) and so that
canned queries share their SQL with the library (:func:`kb.search.search_sql`).
"""

from __future__ import annotations

from .search import search_sql

TABLES = {
    "releases": {
        "title": "Releases",
        "description": "One row per Comprehensive Rules document: effective date (the release id, YYYYMMDD) and language, with counts of what was parsed.",
        "facets": ["lang", "completeness"],
        "sort_desc": "release",
    },
    "release_sources": {
        "title": "Release source files",
        "description": "Every CR file read, its encoding and line endings; copies of the same release (original bytes in cr/en/raw/) are compared with the one used.",
        "facets": ["lang", "encoding", "line_endings", "used"],
    },
    "sections": {
        "title": "Sections",
        "description": "Sections of each release, such as 7. Additional Rules.",
        "facets": ["release", "lang"],
        "label_column": "title",
    },
    "rules": {
        "title": "Rules",
        "description": "Rules (701), numbered rules (701.23) and subrules (701.23a) of every release, keyed by (release, lang, number). Search finds English and Japanese words.",
        "facets": ["release", "lang", "kind", "section"],
        "label_column": "title",
        "sort": "position",
        "fts_table": "rules_fts",
    },
    "examples": {
        "title": "Examples",
        "description": "Every Example: paragraph, attached to the (sub)rule it follows.",
        "facets": ["release", "lang"],
        "fts_table": "examples_fts",
    },
    "glossary": {
        "title": "Glossary",
        "description": "Glossary entries: term, other names, definition, the rules it points to, and whether the term is obsolete.",
        "facets": ["release", "lang", "obsolete"],
        "label_column": "term",
        "fts_table": "glossary_fts",
    },
    "rule_references": {
        "title": "Cross-references",
        "description": "Each rule number cited inside a rule, example or glossary entry, as (from, to) within one release; resolved = the target exists in that release.",
        "facets": ["release", "lang", "from_kind", "to_kind", "resolved"],
    },
    "ingest_problems": {
        "title": "Ingest problems",
        "description": "What the parsers could not take as it is: repaired typos (warnings) and sources that could not be parsed (errors), with file and line.",
        "facets": ["severity", "code", "lang"],
    },
    "rule_matches": {
        "title": "Rule matches between consecutive releases",
        "description": "Each rule of a release paired with its successor in the next release of the same language: same, changed (same number, other text), moved (other number, same text), moved_changed, removed, added; matched_by names how (number, title, text, children, siblings, similar). An excerpt (a wiki page's quote) is compared with the nearest whole release and never counts as a removal.",
        "facets": ["lang", "status", "matched_by", "new_release"],
        "sort_desc": "new_release",
    },
    "release_pairs": {
        "title": "Release pairs compared",
        "description": "One row per pair of releases compared, with how many rules stayed, changed, moved, were removed or added (bench/bench_history.py times the matching).",
        "facets": ["lang", "new_completeness"],
        "sort_desc": "new_release",
    },
    "rule_lineage": {
        "title": "Rule lineage",
        "description": "Every rule of every release with its lineage_id: one id follows a rule through all its numbers (Search: 701.14, 701.15, 701.17, 701.18, 701.19, 701.23). previous_release/previous_number/status say where it came from. Japanese rows share the lineage of the English rule of the same release and number.",
        "facets": ["lang", "status", "kind"],
    },
    "lineages": {
        "title": "Lineages",
        "description": "One row per lineage: the rule's first appearance, its last release and number, its number in the newest English release (newest_number, empty when removed) and every number it has had.",
        "facets": ["kind", "first_release"],
        "label_column": "title",
    },
    "rule_moves": {
        "title": "Rule moves",
        "description": "Every renumbering between consecutive releases, with the titles of both sides (a subrule shows its rule's title).",
        "facets": ["lang", "new_release", "status"],
    },
    "rule_history_runs": {
        "title": "Rule history runs",
        "description": "Each lineage's releases folded into runs (releases in a row with the same number and status): what a rule page's history shows, precomputed at build time.",
        "facets": ["lang", "status"],
    },
    "keyword_card_rulings": {
        "title": "Card rulings naming a keyword",
        "description": "For each keyword action or ability title (CR 701, 702, any release), the card rulings whose text names it: what a keyword page lists, precomputed at build time.",
    },
    "stale_citations": {
        "title": "Stale citations",
        "description": "Citations of a rule by a number that does not name what the citing text is about, in the release it was written for or today (wiki pages and their quoted CR blocks, rulings, card rulings, our own code), with the number to cite now. Also: kb stale.",
        "facets": ["source_kind", "reason", "about_from"],
    },
    "rules_bilingual": {
        "title": "Rules side by side (English and Japanese)",
        "description": "Every rule of a release that has a Japanese translation, with both texts, paired by (release, number) only: never across releases. languages says which exist (610.5 is new in English 20260116 and not yet translated; the Japanese 805.10g is a rule English removed).",
        "facets": ["release", "languages", "kind", "section"],
        "sort": "position",
        "label_column": "title_en",
    },
    "examples_bilingual": {
        "title": "Examples side by side (English and Japanese)",
        "description": "Every example of a release that has a Japanese translation, paired by (release, rule number, position among the rule's examples).",
        "facets": ["release", "languages"],
    },
    "glossary_pairs": {
        "title": "Glossary pairs (English ↔ Japanese)",
        "description": "Each English glossary entry with its Japanese one, paired by the English term the Japanese heading prints (用語（よみ）／English) within one release. paired_by names how: term, first name, spelling or close spelling (the Japanese glossary's slips: Staion Cards, Nonmodal); empty where one side has no partner.",
        "facets": ["release", "paired_by"],
        "label_column": "term_en",
    },
    "keyword_names": {
        "title": "Keyword names in both languages",
        "description": "English ↔ Japanese names from the 日本語／English titles of rules 701 and 702 and from the glossary; search uses them so that 発見 finds Discover and the reverse. key_en and key_ja are the forms compared (the Japanese one segmented).",
        "facets": ["source", "release"],
        "label_column": "name_en",
    },
    "rule_alignment": {
        "title": "Translated rules and the English rules they translate",
        "description": "Each Japanese, Chinese and Korean rule of a whole release and the English rule of the same release it translates (number_en). paired_by: number, or citations where a numbered rule's subrules differ between the languages and the rules they cite decide (the Japanese 805.10g is the English 805.10f); empty: no English counterpart.",
        "facets": ["lang", "release", "paired_by"],
        "label_column": "number",
    },
    "glossary_translations": {
        "title": "Glossary pairs (English ↔ Chinese)",
        "description": "Each glossary entry of a translation with its English entry of the same release. The Chinese glossary prints no English terms but keeps the English order: entries pair in order, anchored on the rules they cite (paired_by: order and citations, order, citations); empty where one side has no partner.",
        "facets": ["lang", "release", "paired_by"],
        "label_column": "term_en",
    },
    "keyword_translations": {
        "title": "Keyword names in Chinese and Korean",
        "description": "English ↔ Chinese and Korean names from the headings of rules 701 and 702 (paired through rule_alignment, or the English name a Korean heading prints) and from the glossary; search uses them so that 倾探 finds Discover and 찾기 Search. key and match are the segmented forms compared.",
        "facets": ["lang", "source", "release"],
        "label_column": "name_en",
    },
    "printed_headings": {
        "title": "Headings as printed",
        "description": "Section, rule and titled numbered-rule headings exactly as the source prints them (701.23. 探す／Search; 702.189. 702.189. 火の技／Firebending), with file and line.",
        "facets": ["release", "lang"],
        "label_column": "printed",
    },
    "wiki_pages": {
        "title": "MTG Wiki pages",
        "description": "One row per page revision found in a corpus file (seeds/, wiki/ja, wiki/en; lang = the wiki's language): rendered text, wikitext, a diff view's two revisions or saved HTML. name_en and kind (keyword action = キーワード処理, keyword ability = キーワード能力) come from the lead sentence or infobox; partial = the file holds only part of the page (partial_reason says how we know); preferred = the row to show first for its title. quoted_release is the CR the page quotes (引用：総合ルール); quoted_keyword_rule is set only when the quote is the page's own keyword rule.",
        "facets": ["lang", "form", "kind", "partial", "preferred", "quoted_release"],
        "label_column": "title",
    },
    "keywords": {
        "title": "Keywords (from the wiki)",
        "description": "Each keyword action or ability with a wiki page: English name, Japanese name, kind, its Japanese page (page_title) and its English MTG Wiki page (page_en_title), and the rule number its page quotes for it (with the release).",
        "facets": ["kind"],
        "label_column": "name_ja",
    },
    "rulings": {
        "title": "Wiki rulings",
        "description": "Every bullet of a ルール section (and its sub-sections) of every wiki page, as printed minus the bullet mark: depth, parent, whether it is an example (例：). Find a ruling by (page_title, text); preferred = 1 on the rows of each title's preferred page. Search finds Japanese words (segmented).",
        "facets": [{"array": "linked_rules"}, "link_how", "lang", "page_title", "keyword", "section", "is_example", "preferred"],
        "sort": "id",
        "fts_table": "rulings_fts",
    },
    "ruling_rules": {
        "title": "Wiki rulings → rules",
        "description": "The rules each wiki ruling applies (kb rulings 701.57a), found by the linker: how = cited (its text cites the number), template (a wording that restates one rule: 対象がすべて不正 is 608.2b), keyword+similarity (a rule of its page's keyword, the most similar), similarity (the most similar rule of the CR), parent (a nested ruling or example linked to nothing itself takes the links of the ruling it is under); score = the evidence's strength (similarity plus the keyword's weight; 1 for a citation). Each link has a row for the newest English release (role newest) and one for the release the ruling was written for (role written: the release its page quotes, or the one in force on the page's date); lineage_id ties them. A ruling linked to nothing is listed in ingest_problems (ruling-not-linked).",
        "facets": ["how", "role", "release", "number"],
    },
    "card_ruling_rules": {
        "title": "Card rulings → rules",
        "description": "The rules each dated card ruling applies, found by the linker: how = cited, template (a ruling wording that restates one rule: an illegal target … is 608.2b), keyword+similarity (a rule of a keyword the card has or the ruling names), topic+similarity (the most similar rule of a general topic the ruling names and, surer, the card's text has: targets, triggers, tokens, copies …), similarity; score as for wiki rulings. role newest = the newest English release; role written = the English release in force on the ruling's date. A ruling linked to nothing is listed in ingest_problems (ruling-not-linked).",
        "facets": ["how", "role", "release", "number"],
    },
    "wiki_sections": {
        "title": "Wiki page sections",
        "description": "The text of every section of every page (paragraphs and bullets, one per line), so nothing a page says is dropped.",
        "facets": ["heading"],
        "label_column": "heading",
    },
    "wiki_card_blocks": {
        "title": "Card boxes on wiki pages",
        "description": "Cards shown on a page: rendered card boxes, {{カードテキスト}} and {{#card:Name}} templates (how). Costs are printed (４)(赤) and converted ({4}{R}); a box without a name line is matched to a card by the name in its text when its type agrees (name_source = inferred from text).",
        "facets": ["how", "name_source", "truncated"],
        "label_column": "name_en",
    },
    "card_mentions": {
        "title": "Cards mentioned on wiki pages",
        "description": "Cards named in a page's prose, rulings or quoted CR: wiki links to card pages (link), 日本語/English pairs in flattened text (name pair), 《name》 (《》). ruling_id is set when the mention is in a ruling.",
        "facets": ["how", "section"],
        "label_column": "name_en",
    },
    "wiki_quoted_rules": {
        "title": "CR rules quoted by wiki pages",
        "description": "Which page quotes which rule of which release (the rules themselves are Japanese rows of that release in Rules, completeness excerpt). stored_from_here = this page's text is the stored one; same_as_stored = 0 when another page quotes the same rule with other text.",
        "facets": ["release", "same_as_stored"],
    },
    "card_names": {
        "title": "Card names (English → Japanese, Chinese)",
        "description": "Every English card name: the whole English→Japanese name list (ja_undefined = 1 where the list says \"undefined\") and the card and face names of the Oracle data, with the Chinese name and the card (card_id; face for a face's name).",
        "facets": ["ja_undefined"],
        "label_column": "name_en",
    },
    "cards": {
        "title": "Cards",
        "description": "One row per card (Oracle identity) of the set files, the chosen Oracle records, Forge scripts, and the cards wiki pages show or mention; a split card is \"Fire // Ice\", a card of two faces goes by its front face (full_name names both). Types, colours, colour identity, legalities, counts of printings and rulings, keywords, and text_source (the file and line its text comes from). English Oracle text with cost, mana value, type and P/T; Japanese name (name_ja_source: the name list or the wiki page) and Japanese printed text from a wiki card box. sources lists every file the card came from. Search finds English and Japanese words.",
        "facets": ["layout", "name_ja_source", "mana_value"],
        "label_column": "name_en",
        "fts_table": "cards_fts",
    },
    "card_faces": {
        "title": "Card faces",
        "description": "Both faces of a card with two (a Forge ALTERNATE face: an adventure such as Fetch Quest of Bramble Familiar).",
        "label_column": "name_en",
    },
    "search_current": {
        "title": "Search index (newest release)",
        "description": "What the default search reads: the rules, examples and glossary of the newest whole release of each language, the wiki rulings (kind ruling, Japanese), the cards (kind card, once per language) and the card rulings (kind card ruling). link is the rule page, or the row's path inside this database (rulings/12, cards/7). The /-/search page and the home page's box search it.",
        "facets": ["kind", "lang"],
        "fts_table": "search_current_fts",
        "label_column": "title",
    },
    "search_aliases": {
        "title": "Search: player words",
        "description": "Words players use and the rules don't (bounce, tutor, ETB, サーチ, 明滅), each with the rules' words in English and Japanese (search form) that search adds, the senses it never means (not_senses), the words it needs beside it when one word is not enough (with_words) and where players write it (source). From data/aliases.toml.",
    },
    "search_titles": {
        "title": "Search: titles",
        "description": "Titled rules and glossary terms of the default search by the words of their title as a query reads them (English stems, Japanese search form): a query whose phrase is a whole title ranks that rule high.",
    },
    "search_words_vocab": {
        "title": "Search: vocabulary",
        "description": "Every word of the default search, unstemmed, with the number of rows that have it (fts5vocab over search_words): what typos are corrected against.",
    },
    "search_vector_meta": {
        "title": "Search: sentence vectors",
        "description": "Which embedder made the vectors in search_vectors (a sqlite-vec vec0 table, rowid = search_current.id) and how many rows of the rules have one. kb serve embeds the rest in the background; see kb vectors status.",
    },
    "card_rulings": {
        "title": "Card rulings",
        "description": "Dated rulings on cards, each (card, date, text) once however many printings carry it: set_ids and printings say which; id is stable (a digest of card, date and text); text_id is shared by the same ruling on several cards. linked_rules = the rules (newest release) the ruling applies, as found by the linker (see Card rulings → rules).",
        "facets": [{"array": "linked_rules"}, "link_how", "date"],
        "sort_desc": "date",
    },
    "card_printings": {
        "title": "Card printings",
        "description": "Every set record of a card (the front face's for a card of two faces): set, collector number, rarity, artist, the Chinese name printed, flavor text, and the file and line.",
        "facets": ["set_id", "rarity"],
        "label_column": "card",
    },
    "card_sets": {
        "title": "Card sets",
        "description": "The sets of cards/oracle_sets/: how many printings, cards and rulings each has.",
        "label_column": "name",
    },
    "card_versions": {
        "title": "Card text versions",
        "description": "Where sources give a card's Oracle text, cost or type differently (or more than one source gives it): each version, the fields it differs in, and used = 1 for the one the card has. Newer sources win: Forge over the chosen Oracle XML records over the set files.",
        "facets": ["kind", "used"],
        "label_column": "card",
    },
    "card_aliases": {
        "title": "Card names for look-up",
        "description": "Every name a card is found by (English, Japanese, Chinese; the card's, a face's, a printed variant) with key, its normalised form (NFKC, case folded, accents off): card pages and search read it.",
        "facets": ["lang", "kind"],
        "label_column": "alias",
    },
    "card_keywords": {
        "title": "Cards × keywords",
        "description": "Each keyword action (701) and ability (702) a card's Oracle text uses, linked by the rule's title through its lineage (found_as is the title printed, such as Totem Armor; keyword the title today): its number in the newest release, the forms printed, and where in the text (spans: face, start, end).",
        "facets": ["keyword", "section"],
        "label_column": "card",
    },
    "card_legalities": {
        "title": "Card legalities",
        "description": "(card, format, status) from the cards' legalities: Legal, Restricted or Banned in vintage, legacy and modern.",
        "facets": ["format", "status"],
    },
}

TABLES.update({
    "checks": {
        "title": "Executable checks",
        "description": "One per action of executable_rules/actions: the keyword it implements (linked by title, never by number), its module and function, the subrules it covers, its number in the newest release, and how many of its scenarios pass.",
        "label_column": "keyword",
    },
    "check_rules": {
        "title": "Checks × rules",
        "description": "Each check's keyword title resolved to its rule and subrule numbers in every release (English, and Japanese by title_en), so links never go stale when the CR renumbers; similarity shows where an old release's letter meant something else.",
        "facets": ["keyword", "lang"],
    },
    "scenarios": {
        "title": "Scenarios",
        "description": "Runnable rule examples (data/scenarios/*.toml): setup, action, decisions, expected outcome or set of outcomes, source (a CR example, a wiki ruling, a card ruling, our own), and the result and trace of running it at build time. Open one at /-/scenarios/<id>.",
        "facets": ["keyword", "source_kind", "passed", "explore"],
        "label_column": "title",
    },
    "scenario_rules": {
        "title": "Scenarios × rules",
        "description": "The rule numbers a scenario illustrates, in every release, resolved by keyword title.",
        "facets": ["release", "lang"],
    },
    "scenario_engine": {"title": "Scenario engine", "description": "A digest of the executable rules (every file of executable_rules/) that played the scenarios' results: a server running the same engine shows a scripted scenario's verdict from the scenarios table instead of playing it again."},
    "scenario_examples": {"title": "Scenarios × CR examples", "description": "The CR Example: paragraph a scenario runs, in each release that has it."},
    "scenario_cards": {"title": "Scenarios × cards", "description": "Cards a scenario uses."},
    "scenario_rulings": {"title": "Scenarios × wiki rulings", "description": "The wiki ruling a scenario runs (by page and exact text)."},
    "scenario_card_rulings": {"title": "Scenarios × card rulings", "description": "The dated card ruling a scenario runs."},
})


QUERIES = {
    "keyword_actions_newest": {
        "title": "Keyword actions in the newest release",
        "description": "Every numbered rule under 701 of the newest English release, with its Japanese title where the Japanese CR of that release has it.",
        "sql": (
            "select number, title, title_ja from keyword_actions"
            " where release = (select release from newest_release) order by position"
        ),
    },
    "rule_across_releases": {
        "title": "A rule across releases",
        "description": "One rule number, or a keyword title such as Discover, in every English release that has it, oldest first. Numbers move: search by title to follow a keyword.",
        "sql": (
            "select release, number, kind, title, text from rules"
            " where lang = 'en' and (number = :rule or (kind = 'numbered' and lower(title) = lower(:rule)))"
            " order by release"
        ),
    },
    "search_everything": {
        "title": "Search rules, examples and glossary",
        "description": "Full-text search in both languages (Japanese words are segmented), newest release of each language unless a release is given.",
        "sql": search_sql().replace(":query", "kb_fts_query(:q)")
        .replace(":release", "nullif(:release, '')")
        .replace(":lang", "nullif(:lang, '')")
        .replace(":section", "nullif(:section, '')")
        .replace(":limit", "50"),
    },
}


def metadata_for(database: str) -> dict:
    """Datasette metadata with our tables and queries under the database named ``database``."""
    return {
        "title": "MTG Rules Knowledge Base",
        "description": "Magic: The Gathering Comprehensive Rules, every release 1999–2026, English and Japanese, with rulings and runnable rule checks.",
        "source": "Comprehensive Rules (Wizards of the Coast), MTG Wiki (Japanese)",
        "databases": {
            database: {
                "title": "Comprehensive Rules",
                "tables": TABLES,
                "queries": QUERIES,
            }
        },
    }
