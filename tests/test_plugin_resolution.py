"""Running the executable rules from the web: scenarios, explored outcome trees, the discover form."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from bs4 import BeautifulSoup

from kb.plugin import resolution


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def scenario_ids() -> list[str]:
    """The scenarios of data/scenarios (the pages read them from the database the build put them in)."""
    from executable_rules.scenarios import load_scenarios
    return sorted(s.id for s in load_scenarios())


async def test_the_server_needs_only_the_database(ds, built_db, tmp_path, monkeypatch):
    """A copy of the built database served with KB_CORPUS pointing nowhere and from another folder: the card
    pool and the scenarios come from its tables (engine_cards, scenario_files), never from the corpus."""
    import shutil

    from datasette.app import Datasette

    expected = len(scenario_ids())
    copy = tmp_path / "served.db"
    shutil.copy(built_db, copy)
    monkeypatch.setenv("KB_CORPUS", str(tmp_path / "no-corpus-here"))
    monkeypatch.chdir(tmp_path)
    import executable_rules.card_pool as card_pool
    monkeypatch.setattr(card_pool, "load_card_pool", lambda *a, **k: pytest.fail("the server read the corpus"))
    await ds.invoke_startup()             # the session's server, to go back to afterwards
    served = Datasette([str(copy)], immutables=[])
    await served.invoke_startup()
    assert resolution.library().error is None      # loaded here, not inside a request's time limit
    try:
        listed = (await served.client.get("/-/scenarios.json")).json()
        assert listed["ok"] and len(listed["scenarios"]) == expected
        run = (await served.client.get("/-/scenarios/explore-701.44a-xmage-target.json")).json()
        assert run.get("passed") and any(s["kind"] == "cast" for s in run["steps"]), run
        form = await served.client.get("/-/run/discover.json?" + urlencode(
            {"n": "3", "library": "Forest\nShock\nIsland", "mode": "explore"}))
        assert form.status_code == 200 and form.json()["outcomes"]
    finally:
        resolution.configure(ds)


async def test_a_database_without_the_tables_says_so(ds, tmp_path):
    from datasette.app import Datasette
    import sqlite3

    empty = tmp_path / "old.db"
    sqlite3.connect(empty).execute("create table rules (number text)").connection.commit()
    await ds.invoke_startup()
    resolution.configure(None)            # a server of its own: no other instance to fall back on
    old = Datasette([str(empty)], immutables=[])
    await old.invoke_startup()
    try:
        response = await old.client.get("/-/scenarios.json")
        assert response.status_code == 503
        assert "no scenario_files table; rebuild it with `kb build`" in response.json()["error"]
    finally:
        resolution.configure(ds)


# --- scenarios ---------------------------------------------------------------------------------

async def test_scenario_page_shows_each_step(ds):
    page = await ds.client.get("/-/scenarios/discover-701.57a-cast-first-fit")
    assert page.status_code == 200
    html = soup(page)
    assert html.select_one(".kb-verdict").text.startswith("PASS")
    before = {row.th.text.split(" (")[0]: row.td.text for row in html.select(".kb-zones")[0].select("tr")}
    assert before["your library"].startswith("Forest")
    steps = html.select("ol.kb-steps > li")
    kinds = [s.select_one(".kb-step-kind").text for s in steps]
    assert kinds == ["exile", "exile", "exile", "decision", "decision", "cast", "random order", "discover"]
    decision = steps[3]
    assert "cast Shock" in decision.select_one(".kb-step-text").text
    assert decision.select_one("a.kb-step-rule")["href"] == "/-/rules/701.57a#701.57a"
    moved = steps[0].select(".kb-changes li")
    assert [li.strong.text for li in moved] == ["your library", "exile"]
    after = {row.th.text.split(" (")[0]: row.td.text for row in html.select(".kb-zones")[1].select("tr")}
    assert after["stack"].startswith("Shock")


@pytest.mark.parametrize("scenario_id", ["discover-701.57a-cast-first-fit", "search-701.23b-splinter-howling-mine",
                                         "renown-702.112a-xmage-rhox-maulers"])   # 18,205 chips, 9 distinct
async def test_the_board_drawn_synchronously_is_what_datasette_draws(ds, scenario_id):
    from kb.plugin.fragments import environment, render_resolution

    await ds.invoke_startup()
    data = (await ds.client.get(f"/-/scenarios/{scenario_id}.json")).json()
    fast = render_resolution(ds, data, resolution.MAX_OUTCOMES)
    template = ds.jinja_env.get_template("_kb_resolution_fragment.html")     # Datasette's async environment
    slow = await template.render_async(r=data, tree_limit=resolution.MAX_OUTCOMES, urls=ds.urls)
    assert environment(ds) is environment(ds) and environment(ds) is not ds.jinja_env
    assert str(fast) == slow
    html = BeautifulSoup(str(fast), "html.parser")
    assert html.select_one("#kb-resolution .kb-verdict-pass")
    # The page draws it in place: one resolution, inside the page's content.
    page = BeautifulSoup((await ds.client.get(f"/-/scenarios/{scenario_id}")).text, "html.parser")
    assert len(page.select("#kb-resolution")) == 1 and page.select_one("section.content #kb-resolution")


async def test_scenario_json_by_suffix_and_by_format(ds):
    by_suffix = await ds.client.get("/-/scenarios/discover-701.57a-cast-or-hand-never-neither.json")
    by_format = await ds.client.get("/-/scenarios/discover-701.57a-cast-or-hand-never-neither?_format=json")
    data = by_suffix.json()
    assert by_format.json()["outcomes"] == data["outcomes"]
    assert data["passed"] and data["explore"]
    assert [o["choices"] for o in data["outcomes"]] == [["cast Grizzly Bears"], ["put Grizzly Bears into hand"]]
    assert [c["choice"] for c in data["tree"]["children"]] == ["cast Grizzly Bears", "put Grizzly Bears into hand"]
    assert data["by_first_choice"] == {"cast Grizzly Bears": 1, "put Grizzly Bears into hand": 1}
    hands = [next(z for z in o["after"] if z["zone"] == "your hand")["cards"] for o in data["outcomes"]]
    assert hands == [[], [{"name": "Grizzly Bears", "name_ja": "灰色熊"}]]


async def test_explored_scenario_shows_the_tree(ds):
    html = soup(await ds.client.get("/-/scenarios/discover-701.57a-cast-or-hand-never-neither"))
    leaves = html.select("ul.kb-tree > li")
    assert [li.select_one(".kb-choice").text for li in leaves] == ["cast Grizzly Bears", "put Grizzly Bears into hand"]
    # Each leaf says what sets its outcome apart: the spell on the stack, or the card in the hand.
    first, second = (li.select_one("details.kb-outcome summary").text for li in leaves)
    assert first == "Outcome 1: your hand: empty; stack: Grizzly Bears"
    assert second == "Outcome 2: your hand: Grizzly Bears; stack: empty"


async def test_scenario_refused_by_the_rules_shows_the_rule(ds):
    data = (await ds.client.get("/-/scenarios/discover-701.57a-mdfc-only-the-face-that-fits.json")).json()
    assert data["passed"] and data["expects_error"]
    assert data["error"]["kind"] == "illegal choice" and data["error"]["rule"]["number"] == "701.57a"
    html = soup(await ds.client.get("/-/scenarios/discover-701.57a-mdfc-only-the-face-that-fits"))
    assert "mana value 5 is greater than 3" in html.select_one(".kb-illegal").text


@pytest.mark.parametrize("scenario_id", scenario_ids())
async def test_every_scenario_resolves_on_the_web_as_in_the_tests(ds, scenario_id):
    response = await ds.client.get(f"/-/scenarios/{scenario_id}.json")
    assert response.status_code == 200
    data = response.json()
    assert data["passed"], data["failures"]
    # Steps to watch, or an illegal choice; or a run in which nothing happens (devoid's "Barrage Tyrant is
    # colourless": a priority pass, the zones before as after), which has no step.
    assert data["steps"] or data["error"] or data["before"] == data["after"]


async def test_scenario_not_found_and_bad_parameters(ds):
    response = await ds.client.get("/-/scenarios/discover-701.57a-cast-first-fits.json")
    assert response.status_code == 404
    assert response.json()["error"] == ("no scenario 'discover-701.57a-cast-first-fits'; "
                                        "did you mean 'discover-701.57a-cast-first-fit'?")
    response = await ds.client.get("/-/scenarios/discover-701.57a-cast-first-fit.json?seed=3")
    assert response.status_code == 400
    assert response.json()["error"] == "unknown parameter 'seed'; a scenario page takes no parameters but _format"


async def test_scenario_list(ds):
    data = (await ds.client.get("/-/scenarios.json?keyword=%E7%99%BA%E8%A6%8B")).json()  # 発見
    assert data["scenarios"] and {s["keyword"] for s in data["scenarios"]} == {"Discover"}
    bad = await ds.client.get("/-/scenarios.json?keyword=discovr")
    assert bad.status_code == 400 and bad.json()["error"].startswith("keyword: no action 'discovr'; did you mean")
    html = soup(await ds.client.get("/-/scenarios"))
    items = html.select("li.kb-scenario")
    assert len(items) == len(scenario_ids())
    # Each entry links to its page, and its Run button asks that page (a blank href or action is the list itself).
    for li in items:
        sid = li["id"].removeprefix("scenario-")
        assert li.select_one("a.kb-scenario-title")["href"] == f"/-/scenarios/{sid}"
        assert li.select_one("form.kb-run-form")["action"] == f"/-/scenarios/{sid}"
        assert all(a["href"] for a in li.select("a"))
    first = items[0].select_one("a.kb-scenario-title")["href"]
    assert (await ds.client.get(first)).status_code == 200


# --- the discover form -------------------------------------------------------------------------

LIBRARY = "Forest\nDarksteel Colossus\nShock\nIsland"


def run_url(fmt: str = "", **fields) -> str:
    return f"/-/run/discover{fmt}?" + urlencode(fields)


async def test_form_without_fields_is_an_empty_form(ds):
    page = await ds.client.get("/-/run/discover")
    assert page.status_code == 200
    html = soup(page)
    assert {i["name"] for i in html.select("form.kb-run [name]")} == {"n", "seed", "mode", "library", "opponent", "choices"}
    assert html.select_one("form.kb-run")["method"] == "get"
    assert not html.select(".kb-resolution")
    # The same form by the action's Japanese name.
    assert (await ds.client.get("/-/run/%E7%99%BA%E8%A6%8B")).status_code == 200


async def test_form_explores_every_choice(ds):
    data = (await ds.client.get(run_url(".json", n=3, library=LIBRARY, opponent="Grizzly Bears"))).json()
    assert data["ok"] and data["mode"] == "explore"
    # Cast Shock at one of three targets (you, the opponent, Grizzly Bears) or put it into the hand.
    assert data["by_first_choice"] == {"cast Shock": 3, "put Shock into hand": 1}
    assert len(data["outcomes"]) == 4
    targets = sorted(o["choices"][1] for o in data["outcomes"] if o["choices"][0] == "cast Shock")
    assert targets == ["target Grizzly Bears", "target opponent", "target you"]
    for outcome in data["outcomes"]:
        library = next(z for z in outcome["after"] if z["zone"] == "your library")
        assert [c["name"] for c in library["cards"]][0] == "Island"  # the rest went to the bottom
    html = soup(await ds.client.get(run_url(n=3, library=LIBRARY, opponent="Grizzly Bears")))
    assert len(html.select("details.kb-outcome")) == 4


async def test_form_follows_my_choices_and_reads_japanese_names(ds):
    data = (await ds.client.get(run_url(".json", n=3, library="森\nショック\n島", mode="choices",
                                        choices="put Shock into hand"))).json()
    hand = next(z for z in data["after"] if z["zone"] == "your hand")
    assert hand["cards"] == [{"name": "Shock", "name_ja": "ショック"}]
    assert [s["kind"] for s in data["steps"]] == ["exile", "exile", "choice", "move", "random order", "discover"]


@pytest.mark.parametrize("fields, message", [
    pytest.param({"library": LIBRARY}, "n is required: a whole number from 0 to 20", id="n-missing"),
    pytest.param({"n": "21", "library": LIBRARY}, "n must be a whole number from 0 to 20, not '21'", id="n-too-big"),
    pytest.param({"n": "-1", "library": LIBRARY}, "n must be a whole number from 0 to 20, not '-1'", id="n-negative"),
    pytest.param({"n": "three", "library": LIBRARY}, "n must be a whole number from 0 to 20, not 'three'", id="n-word"),
    pytest.param({"n": "3", "library": "  \n "},
                 "library is empty: list the cards of the library, one name per line, top first", id="library-empty"),
    pytest.param({"n": "3", "library": "Forest\nLightnig Bolt"},
                 'library line 2: unknown card "Lightnig Bolt"; did you mean "Lightning Bolt"?', id="library-unknown-card"),
    pytest.param({"n": "3", "library": "\n".join(["Forest"] * 41)},
                 "library has 41 cards; at most 40 are accepted", id="library-too-large"),
    pytest.param({"n": "3", "library": "x" * 101},
                 "library line 1 is 101 characters long; at most 100 are accepted", id="library-line-too-long"),
    pytest.param({"n": "3", "library": LIBRARY, "opponent": "Grizly Bears"},
                 'opponent line 1: unknown card "Grizly Bears"; did you mean "Grizzly Bears"?', id="opponent-unknown-card"),
    pytest.param({"n": "3", "library": LIBRARY, "opponent": "\n".join(["Grizzly Bears"] * 9)},
                 "opponent has 9 cards; at most 8 are accepted", id="opponent-too-many"),
    pytest.param({"n": "3", "library": LIBRARY, "mode": "all"}, "mode must be explore or choices, not 'all'", id="mode"),
    pytest.param({"n": "3", "library": LIBRARY, "choices": "cast Shock"},
                 "choices are only read with mode=choices; with mode=explore every choice is walked", id="choices-without-mode"),
    pytest.param({"n": "3", "library": LIBRARY, "mode": "choices", "choices": "cast Bolt"},
                 "choices line 1: 'cast Bolt' is not an option of 'discover 3: cast Shock without paying its mana cost, "
                 "or put it into your hand'; the options are 'cast Shock', 'put Shock into hand'", id="choices-not-an-option"),
    pytest.param({"n": "3", "library": LIBRARY, "mode": "choices"},
                 "choices: you must decide 'discover 3: cast Shock without paying its mana cost, or put it into your "
                 "hand'; add a line with one of 'cast Shock', 'put Shock into hand'", id="choices-missing"),
    pytest.param({"n": "3", "library": LIBRARY, "mode": "choices", "choices": "put Shock into hand\ncast Shock"},
                 "choices line 2: 'cast Shock' was never asked for; the run needed 1 choice(s)", id="choices-too-many"),
    pytest.param({"n": "3", "library": LIBRARY, "seed": "1e9"},
                 "seed must be a whole number from 0 to 999999, not '1e9'", id="seed"),
    pytest.param({"n": "3", "library": LIBRARY, "deck": "Forest"},
                 "unknown parameter 'deck'; the discover form takes n, library, opponent, mode, choices, seed", id="unknown-field"),
])
async def test_form_validates_every_field(ds, fields, message):
    response = await ds.client.get(run_url(".json", **fields))
    assert response.status_code == 400
    assert response.json() == {"ok": False, "error": message}
    page = await ds.client.get(run_url(**fields))
    assert page.status_code == 400 and "Traceback" not in page.text
    html = soup(page)
    assert html.select_one(".kb-error").text == message
    assert html.select_one("form.kb-run")  # the form is there to correct


async def test_form_illegal_choice_is_an_answer_not_an_error(ds):
    data = (await ds.client.get(run_url(".json", n=3, library="Esika, God of the Tree // The Prismatic Bridge",
                                        mode="choices", choices="cast The Prismatic Bridge"))).json()
    assert data["ok"] and data["error"]["kind"] == "illegal choice"
    assert data["error"]["rule"]["number"] == "701.57a"
    assert data["note"] == "The action was rolled back: the state is as it was before it."


async def test_form_for_an_action_without_one(ds):
    response = await ds.client.get("/-/run/explore.json?n=1")
    assert response.status_code == 404 and response.json()["error"] == "no form for Explore yet; forms: discover"
    response = await ds.client.get("/-/run/discovr.json")
    assert response.status_code == 404 and response.json()["error"].startswith("no action 'discovr'; did you mean")


async def test_form_stops_at_the_outcome_limit(ds, monkeypatch):
    monkeypatch.setattr(resolution, "MAX_OUTCOMES", 2)
    response = await ds.client.get(run_url(".json", n=3, library=LIBRARY, opponent="Grizzly Bears"))
    assert response.status_code == 422
    assert response.json()["error"].startswith(
        "exploring every choice stopped at the limit of 2 outcomes and 1 s: give a smaller library or fewer cards "
        "on the battlefield, or run with mode=choices (")
    page = await ds.client.get(run_url(n=3, library=LIBRARY, opponent="Grizzly Bears"))
    assert page.status_code == 422 and soup(page).select_one(".kb-error").text.startswith("exploring every choice")


async def test_form_stops_at_the_time_limit(ds, monkeypatch):
    """The limit counts the run's own CPU time: work past it stops with a 422; waiting (a busy machine,
    here a sleep) does not count."""
    import time

    slow_run = resolution.DiscoverForm.run

    def busy(params):
        until = time.thread_time() + 0.3
        while time.thread_time() < until:
            pass
        return slow_run(params)

    def waiting(params):
        time.sleep(0.3)
        return slow_run(params)

    monkeypatch.setattr(resolution, "RUN_SECONDS", 0.05)
    monkeypatch.setattr(resolution.DiscoverForm, "run", staticmethod(busy))
    response = await ds.client.get(run_url(".json", n=3, library=LIBRARY))
    assert response.status_code == 422
    assert response.json()["error"] == ("the run took longer than 0.05 s and was stopped; try a smaller library "
                                        "or fewer cards on the battlefield")
    monkeypatch.setattr(resolution.DiscoverForm, "run", staticmethod(waiting))
    response = await ds.client.get(run_url(".json", n=3, library=LIBRARY))
    assert response.status_code == 200 and response.json()["outcomes"]


async def test_pages_say_so_when_the_executable_rules_are_missing(ds, monkeypatch):
    monkeypatch.setattr(resolution, "_library", resolution.Library(error="the executable rules could not be loaded: no corpus"))
    response = await ds.client.get("/-/scenarios/discover-701.57a-cast-first-fit.json")
    assert response.status_code == 503
    assert response.json()["error"] == "the executable rules could not be loaded: no corpus"
    assert (await ds.client.get("/-/run/discover?n=3&library=Forest")).status_code == 503


# --- nothing from the database runs -----------------------------------------------------------

def test_outcome_tree_from_choices():
    tree = resolution.outcome_tree([
        {"choices": ["cast Shock", "target you"], "prompts": ["cast?", "target?"]},
        {"choices": ["cast Shock", "target opponent"], "prompts": ["cast?", "target?"]},
        {"choices": ["put Shock into hand"], "prompts": ["cast?"]},
    ])
    cast, hand = tree["children"]
    assert [c["choice"] for c in cast["children"]] == ["target you", "target opponent"]
    assert [c["outcome"] for c in cast["children"]] == [0, 1] and hand["outcome"] == 2


async def test_board_frames_follow_the_steps(ds):
    """The board has a frame before the first step and one after each; every frame has the same columns,
    and a face-down permanent shows as face down, with its real name only for the trace."""
    data = (await ds.client.get("/-/scenarios/search-701.23b-splinter-howling-mine.json")).json()
    board = data["board"]
    assert len(board["frames"]) == len(data["steps"]) + 1 == board["total_steps"] + 1
    assert board["frames"][0]["n"] == 0 and [f["n"] for f in board["frames"][1:]] == [s["n"] for s in data["steps"]]
    for frame in board["frames"]:
        assert set(board["columns"]) <= set(frame["zones"])
    exiled = [c["name"] for c in board["frames"][-1]["zones"]["exile"]]
    assert exiled.count("Howling Mine") >= 2
    # Outcomes: four, told apart by what differs, although two options read alike ("find Howling Mine").
    assert data["outcome_count"] == len(data["outcomes"]) == 4
    assert len({repr(o["differs"]) for o in data["outcomes"]}) == 4
    leaves = []

    def walk(node):
        leaves.extend(node.get("outcomes", []))
        for child in node["children"]:
            walk(child)
    walk(data["tree"])
    assert sorted(leaves) == [0, 1, 2, 3]


async def test_board_shows_face_down_and_tapped(ds):
    ids = [i for i in scenario_ids() if i.startswith("manifest-")]
    found = set()
    for sid in ids:
        data = (await ds.client.get(f"/-/scenarios/{sid}.json")).json()
        for frame in data.get("board", {}).get("frames", []):
            for chip in frame["zones"].get("battlefield", []):
                if chip.get("face_down"):
                    found.add("face down")
                    assert chip["colors"] == ["colorless"] and chip["name"].startswith("face-down")
    assert "face down" in found


async def test_scenario_page_shows_the_example_in_other_languages(ds):
    html = soup(await ds.client.get("/-/scenarios/search-701.23b-splinter-howling-mine"))
    quotes = {q["lang"]: q.get_text() for q in html.select("blockquote.kb-example-translation")}
    assert "ja" in quotes and "例" in quotes["ja"] and "アーティファクト" in quotes["ja"]


async def test_a_scripted_verdict_from_the_build_is_the_verdict_this_server_plays(ds):
    """The board view takes a scripted scenario's verdict from the build when the database says the same
    engine played it (``scenario_engine``): playing each of them here gives the same verdict."""
    from executable_rules import scenarios as sc

    await ds.invoke_startup()
    resolution.configure(ds)
    lib = resolution.library()
    assert lib.error is None
    assert lib.verdicts, "a database built by this engine gives its scripted verdicts"
    assert all(not lib.scenarios[sid].explore for sid in lib.verdicts)
    for sid, (passed, failures, count) in lib.verdicts.items():
        played = sc.run_scenario(lib.scenarios[sid], lib.pool, max_outcomes=resolution.SCENARIO_OUTCOMES,
                                 max_seconds=resolution.SCENARIO_SECONDS)
        assert (played.passed, played.failures, played.outcomes) == (passed, failures, count), sid


def test_a_database_from_another_engine_has_its_scenarios_played(tmp_path):
    import sqlite3

    from kb.load.scenario_cache import engine_version

    conn = sqlite3.connect(tmp_path / "small.db")
    conn.execute("create table scenarios (id text, explore integer, passed integer, failures text, outcome_count integer)")
    conn.executemany("insert into scenarios values (?, ?, ?, ?, ?)",
                     [("a", 0, 1, "[]", 1), ("b", 0, 0, '["expected x"]', 1), ("c", 1, 1, "[]", 4)])
    assert resolution.built_verdicts(conn) == {}, "no scenario_engine table: an older build"
    conn.execute("create table scenario_engine (version text)")
    conn.execute("insert into scenario_engine values (?)", [engine_version()])
    assert resolution.built_verdicts(conn) == {"a": (True, [], 1), "b": (False, ["expected x"], 1)}
    conn.execute("update scenario_engine set version = 'another engine'")
    assert resolution.built_verdicts(conn) == {}
    conn.close()
