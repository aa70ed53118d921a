// Progressive enhancement: every page works without this script.
// - The language switch changes the columns in place (and the address, so it can be shared).
// - "Run" shows a scenario's resolution under it instead of opening its page.
(function () {
  "use strict";

  function switchLanguage(event) {
    var link = event.target.closest(".kb-lang-switch a[data-show]");
    if (!link) return;
    var show = link.getAttribute("data-show");
    var blocks = document.querySelectorAll(".kb-bilingual");
    if (!blocks.length) return;
    event.preventDefault();
    blocks.forEach(function (block) {
      block.classList.remove("kb-show-both", "kb-show-en", "kb-show-ja", "kb-show-zh", "kb-show-ko");
      block.classList.add("kb-show-" + show);
    });
    document.querySelectorAll(".kb-lang-switch a[data-show]").forEach(function (a) {
      var current = a.getAttribute("data-show") === show;
      a.classList.toggle("current", current);
      if (current) { a.setAttribute("aria-current", "true"); } else { a.removeAttribute("aria-current"); }
    });
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", link.getAttribute("href") + window.location.hash);
    }
  }

  function runScenario(event) {
    var form = event.target.closest("form[data-kb-run]");
    if (!form || !window.fetch || !window.DOMParser) return;
    var item = form.closest(".kb-scenario");
    var target = item && item.querySelector(".kb-run-result");
    if (!target) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) { button.disabled = true; }
    target.textContent = "Running…";
    fetch(form.getAttribute("action"), { headers: { "Accept": "text/html" } })
      .then(function (response) { return response.text().then(function (text) { return [response.status, text]; }); })
      .then(function (answer) {
        var doc = new DOMParser().parseFromString(answer[1], "text/html");
        var found = doc.querySelector("#kb-resolution") || doc.querySelector(".kb-error");
        target.textContent = "";
        if (found) {
          found.removeAttribute("id");
          target.appendChild(document.importNode(found, true));
          startBoards(target);
        } else {
          target.textContent = "The run failed (HTTP " + answer[0] + ").";
        }
      })
      .catch(function (error) { target.textContent = "The run failed: " + error; })
      .then(function () { if (button) { button.disabled = false; } });
  }

  // The board view: one frame per step, previous/next by button or by keyboard (← → Home End).
  function showFrame(board, where) {
    var frames = board.querySelectorAll(".kb-board-frame");
    if (!frames.length) return;
    var at = 0;
    frames.forEach(function (f, i) { if (!f.hidden) { at = i; } });
    var last = frames.length - 1;
    var next = { first: 0, prev: Math.max(0, at - 1), next: Math.min(last, at + 1), last: last }[where];
    if (next === undefined) return;
    frames.forEach(function (f, i) { f.hidden = i !== next; });
    var label = board.querySelector("[data-kb-board-at]");
    if (label) { label.textContent = String(next); }
  }

  function boardButton(event) {
    var button = event.target.closest && event.target.closest("[data-kb-board-go]");
    if (!button) return;
    var board = button.closest("[data-kb-board]");
    if (board) { showFrame(board, button.getAttribute("data-kb-board-go")); }
  }

  function boardKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!where) return;
    // The board that has the focus, or else the page's only board.
    var board = target && target.closest ? target.closest("[data-kb-board]") : null;
    if (!board) {
      var boards = document.querySelectorAll("[data-kb-board]");
      if (boards.length !== 1) return;
      board = boards[0];
    }
    event.preventDefault();
    showFrame(board, where);
  }

  // A board starts at its last frame (the result, also without script); with script, at the first.
  function startBoards(root) {
    root.querySelectorAll("[data-kb-board]").forEach(function (board) { showFrame(board, "first"); });
  }
  document.addEventListener("click", boardButton);
  document.addEventListener("keydown", boardKey);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { startBoards(document); });
  } else {
    startBoards(document);
  }

  // Datasette closes every open <details> on a click outside it (for its menus); outcomes stay open.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("details.kb-outcome")) { event.stopPropagation(); }
  }, true);
  document.addEventListener("click", switchLanguage);
  document.addEventListener("submit", runScenario);
})();
