/*
 * rulebot site search: plain JavaScript, no server, no library, no network.
 *
 * This script, which every page loads, is the search box: it loads the
 * search when the box is first used and shows its answers. The answering is
 * search-engine.js's, which answers a question as `rulebot ask` does (the
 * same analysis, index and ranking).
 *
 * DATA. The search data are JavaScript files that each add a key to the
 * global window.RULEBOT_DATA, loaded by <script> tags, so the search works
 * over http and from file:// alike (where fetch() of a JSON file is refused).
 * rulebot/site/search_data.py writes them and documents their content:
 *   _search/games.js          "games": the games, and under "search" the
 *                             ranking's constants (rulebot/index/fields.py, rulebot/search/constants.py), the
 *                             stop words and question words, the words of
 *                             counts, the index's statistics and each game's
 *                             names, expansions, terms and vocabulary
 *   _search/<game>.names.js   "names:<slug>": each entry's id, kind, title,
 *                             aliases, flags and page
 *   _search/<game>.index.js   "index:<slug>": each entry's terms per field,
 *                             as the index has them, and what the ranking reads
 *   _search/lexicon.js        "lexicon": every game's words a question's words are
 *                             looked up in (close spellings, French), for a game's page
 *   _search/<game>.texts.js   "texts:<slug>:0": each entry's plain text, for snippets
 *                             (a game of several pages: its n-th page's, <game>.texts-<n>.js)
 * with the scripts _static/search-engine.js and _static/stemmers.js (the
 * Snowball stemmers, which stem questions as PyStemmer stemmed the corpus).
 * A page loads none of them when it opens: the first focus of the search box
 * (or a key typed in it, or a page opened with ?q=) injects their <script>
 * tags. A game's page loads that game's names and index, the other games'
 * names and the lexicon; pages of no game (home, sources) load every game's
 * names and index.
 * The texts of a page's entries are loaded when one of them is among the
 * results, for its snippet. On a game's page, an address whose #anchor is no
 * element of the page (an entry on another page of a large game, from a link
 * made before it was split) loads the game's names to find the entry's page,
 * and goes there.
 *
 * SHOWING. Up to ten results, best first, each linking to its entry's
 * anchor on the page it is on, with its game, kind, the alias the question
 * names, house-rule and draft flags, and a snippet; on a game's page, then
 * other games' entries the question names (marked "Another game") and a
 * link that asks the question of every game. When no entry answers clearly
 * the status says so. The list's data-query, data-complete (all the data the
 * page searches was in) and data-confident attributes say what it shows, for
 * scripts and tests. Enter opens the first result, arrow keys move through
 * them, Escape goes back to the box.
 */
(function () {
  "use strict";

  var KINDS = {
    "rule": "Rule", "setup": "Setup", "faq": "FAQ", "errata": "Errata",
    "fine-point": "Fine point", "term": "Term", "variant": "Variant", "house-rule": "House rule"
  };
  var HOUSE_FLAG = "House rule \u2014 not an official ruling";

  // -- the data -----------------------------------------------------------------

  var DATA = window.RULEBOT_DATA = window.RULEBOT_DATA || {};
  var root = document.documentElement.getAttribute("data-root") || "";
  var here = document.documentElement.getAttribute("data-game");  // this page's game, or null
  var files = {};     // file path -> "loading", "loaded" or "failed"
  var waiting = {};   // file path -> what to do once it is in
  var started = false;
  var changed = function () {};  // the page's: runs the search again

  function engine() {
    return window.RULEBOT_ENGINE || null;
  }

  // Inject a script's <script> tag once; `then` runs when it is in (or failed).
  function load(file, then) {
    if (files[file] === "loaded" || files[file] === "failed") {
      if (then) then();
      return;
    }
    if (then) (waiting[file] = waiting[file] || []).push(then);
    if (files[file]) return;
    files[file] = "loading";
    var script = document.createElement("script");
    script.src = root + file;
    script.onload = script.onerror = function (event) {
      files[file] = event.type === "load" ? "loaded" : "failed";
      if (engine()) engine().update();
      (waiting[file] || []).forEach(function (callback) { callback(); });
      delete waiting[file];
      if (started) start();
      changed();
    };
    document.head.appendChild(script);
  }

  // The files this page's search ranks with (every game's, once the list of games is in).
  function wanted() {
    var list = ["_static/stemmers.js", "_static/search-engine.js", "_search/games.js"];
    if (here) list.push("_search/lexicon.js", "_search/" + here + ".names.js", "_search/" + here + ".index.js");
    ((DATA.games && DATA.games.games) || []).forEach(function (game) {
      if (game.slug === here) return;
      list.push("_search/" + game.slug + ".names.js");
      if (!here) list.push("_search/" + game.slug + ".index.js");
    });
    return list;
  }

  function start() {
    started = true;
    wanted().forEach(function (file) { load(file); });
  }

  function complete() {
    return wanted().every(function (file) { return files[file] === "loaded" || files[file] === "failed"; });
  }

  function failed() {
    return wanted().some(function (file) { return files[file] === "failed"; });
  }

  // An #anchor that is no element of this game page: the entry is on another
  // of the game's pages (its names say which); go there.
  function followMovedEntry() {
    var id = window.location.hash.slice(1);
    if (!here || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || document.getElementById(id)) return;
    load("_search/" + here + ".names.js", function () {
      var names = DATA["names:" + here];
      if (!names) return;
      var current = window.location.pathname.split("/").pop() || "index.html";
      for (var i = 0; i < names.entries.length; i++) {
        var row = names.entries[i];  // [id, kind, title, aliases, flags, page]
        if (row[0] === id) {
          var page = names.pages[row[5]];
          if (page !== current) window.location.replace(page + "#" + id);
          return;
        }
      }
    });
  }

  // -- the page -----------------------------------------------------------------

  // On a page in another language than the entries' own (rulebot/site/languages.py: `index.fr.html`), a result
  // of the page's game opens that game's page in the same language.
  function inPageLanguage(entry) {
    var html = document.documentElement, lang = html.getAttribute("lang");
    if (!/\.[a-z][a-z]\.html$/.test(window.location.pathname) || entry.game.slug !== html.getAttribute("data-game")) return entry.page;
    return entry.page.replace(/\.html$/, "." + lang + ".html");
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function init() {
    followMovedEntry();
    window.addEventListener("hashchange", followMovedEntry);
    var form = document.querySelector("form[data-search]");
    if (!form) return;
    var input = form.querySelector("input");
    var list = form.querySelector("ol");
    var status = form.querySelector("[aria-live]");
    form.hidden = false;

    // What the list shows: the query and how many of the files it ranks with
    // were in. A run that would show the same again leaves the list (and the
    // focus) alone; texts arriving only add their snippets.
    var shown = null;
    var waitingSnippets = [];  // [item, entry, stems said] of the results shown without their snippet

    function addSnippets() {
      waitingSnippets = waitingSnippets.filter(function (pending) {
        var text = engine().snippet(pending[1], pending[2]);
        if (text) pending[0].appendChild(element("span", "result-snippet", text));
        return !text;
      });
    }

    function run() {
      var query = input.value.trim();
      var state = query + "\n" + wanted().filter(function (file) { return files[file] === "loaded" || files[file] === "failed"; }).length;
      if (state === shown) return;
      shown = state;
      list.textContent = "";
      waitingSnippets = [];
      list.setAttribute("data-query", query);
      list.setAttribute("data-complete", "true");
      list.removeAttribute("data-confident");
      if (!query) { status.textContent = ""; return; }
      start();
      var done = complete();
      if (!done) list.setAttribute("data-complete", "false");
      var answer = engine() && engine().ready() ? engine().search(query) : null;
      var results = answer ? answer.results : [];
      if (answer) list.setAttribute("data-confident", answer.confident ? "true" : "false");
      var count = results.length + (results.length === 1 ? " result" : " results");
      status.textContent = results.length
        ? (answer.confident ? count : "No entry answers this clearly; the closest of " + count + ".")
        : !done ? "Loading the search\u2026"
        : failed() ? "The search could not load its data."
        : "No entry matches \u201c" + query + "\u201d.";
      results.forEach(function (r) {
        var entry = r.entry;
        var item = element("li", r.other ? "result-other" : "");
        var link = element("a", "", entry.title);
        link.href = root + entry.game.slug + "/" + inPageLanguage(entry) + "#" + entry.id;
        item.appendChild(link);
        var meta = element("span", "result-meta", entry.game.name + " \u00b7 " + (KINDS[entry.kind] || entry.kind));
        var alias = engine().aliasShown(entry, answer.said);
        if (alias) {
          meta.appendChild(document.createTextNode(" \u00b7 also called "));
          var also = element("span", "result-alias", alias.text);
          if (alias.lang && alias.lang !== "en") also.lang = alias.lang;
          meta.appendChild(also);
        }
        item.appendChild(meta);
        if (entry.house || entry.draft || r.other) {
          var flags = element("span", "result-flags");
          if (r.other) flags.appendChild(element("span", "flag other-game", "Another game"));
          if (entry.house) flags.appendChild(element("span", "flag house-flag", HOUSE_FLAG));
          if (entry.draft) flags.appendChild(element("span", "badge draft", "Draft"));
          item.appendChild(flags);
        }
        if (!r.other) {  // a snippet from the texts of its page, loaded for the results shown
          waitingSnippets.push([item, entry, answer.said]);
          load(entry.texts);
        }
        list.appendChild(item);
      });
      if (here && answer) {  // last: a link that asks every game, on the home page
        var more = element("li", "search-more");
        var everywhere = element("a", "", "Search every game");
        everywhere.href = root + "index.html?q=" + encodeURIComponent(query);
        more.appendChild(everywhere);
        list.appendChild(more);
      }
      addSnippets();
    }

    // Data arriving runs the search again (once for files arriving together).
    var again = null;
    changed = function () {
      clearTimeout(again);
      again = setTimeout(function () {
        if (input.value.trim()) run();
        if (engine()) addSnippets();
      }, 20);
    };
    input.addEventListener("focus", start);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(run, 60);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      run();
      var first = list.querySelector("a");
      if (first) window.location.href = first.href;
    });

    function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && links().length) {
        event.preventDefault();
        links()[0].focus();
      } else if (event.key === "Escape") {
        input.value = "";
        run();
      }
    });
    list.addEventListener("keydown", function (event) {
      var all = links(), at = all.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && at >= 0 && at < all.length - 1) {
        event.preventDefault();
        all[at + 1].focus();
      } else if (event.key === "ArrowUp" && at >= 0) {
        event.preventDefault();
        (at === 0 ? input : all[at - 1]).focus();
      } else if (event.key === "Escape") {
        input.focus();
      }
    });
    list.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("a")) {
        setTimeout(function () { list.textContent = ""; status.textContent = ""; shown = null; }, 0);
      }
    });

    var initial = new URLSearchParams(window.location.search).get("q");
    if (initial) {
      input.value = initial;
      run();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
