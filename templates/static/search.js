/*
 * rulebot site search: plain JavaScript, no server, no library, no network.
 *
 * DATA. The search data are JavaScript files that each add a key to the
 * global window.RULEBOT_DATA, loaded by <script> tags, so the search works
 * over http and from file:// alike (where fetch() of a JSON file is refused):
 *   _search/games.js         "games": {games: [{slug, name}]}, in the site's order
 *   _search/<game>.names.js  "names:<slug>": {name, pages: [file name in the game's folder],
 *                              entries: [[id, kind, title, [[alias, lang], ...], [flag, ...],
 *                                         page index], ...]}
 *                            flags: "house" (a house rule, never an official ruling:
 *                            every result shows HOUSE_FLAG) and "draft" (text not yet
 *                            restated by a curator)
 *   _search/<game>.texts.js  "texts:<slug>": {texts: [plain text, in the order of entries]}
 * A page loads none of them when it opens: the first focus of the search box
 * (or a key typed in it, or a page opened with ?q=) injects their <script>
 * tags. A game's pages then load that game's names and texts and the other
 * games' names; pages of no game (home, sources) load every game's names and
 * texts. Results are shown as soon as some data is in, and shown again as
 * each file arrives. On a game's page, an address whose #anchor is no
 * element of the page (an entry on another page of a large game, from a link
 * made before it was split) loads the game's names to find the entry's page,
 * and goes there.
 *
 * MATCHING. Text is folded (lower case, accents removed, oe/ae/ss for the
 * ligatures) and cut into words of letters and digits, so "Défausse",
 * "defausse" and "DEFAUSSE" are one word. Each query word (common words like
 * "the" or "de" dropped when others remain) is compared with the words of
 * each entry's title, aliases (French ones too) and text:
 *   same word                                   1
 *   beginning of the word (2+ letters typed)    0.7 to 0.9
 *   one typo (4+ letters), or two (8+ letters): 0.45 / 0.3  (insertion,
 *     deletion, substitution or swap of two neighbours: "chaumurki" finds
 *     "Chaumurky"); on the word's beginning, for a word still being typed: 0.3 / 0.2
 * Titles and aliases also count as one joined word ("tiebreak" matches
 * "Tie-break"). Texts only take typos from 5 letters on. Per query word, an
 * entry's fields weigh 10 (title), 6 (best alias) and 1.5 (text): the word
 * scores its best weighted match plus a quarter of the other two. An entry
 * adds up its words' scores, plus a bonus when the whole query is (or
 * begins) its title or an alias, and one for the share of its title's words
 * the query matches; the sum is scaled by the square of the share of query
 * words found, so entries matching every word come first. The 12 best are listed, each
 * linking to its entry's anchor on the page it is on; Enter opens the first, arrow keys move
 * through them, Escape goes back to the box.
 */
(function () {
  "use strict";

  var MAX_RESULTS = 12;
  var MIN_SCORE = 0.9;
  var STOP = {};
  ("a an and are as at be by can de des do does du en et for from how i if in into is it its " +
   "la le les of on or ou the to un une what when with").split(" ").forEach(function (w) { STOP[w] = true; });
  var KINDS = {
    "rule": "Rule", "setup": "Setup", "faq": "FAQ", "errata": "Errata",
    "fine-point": "Fine point", "variant": "Variant", "house-rule": "House rule"
  };
  var HOUSE_FLAG = "House rule \u2014 not an official ruling";
  var WORD = /[\p{L}\p{N}]+/gu;

  function fold(text) {
    return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/\u0153/g, "oe").replace(/\u00e6/g, "ae").replace(/\u00df/g, "ss");
  }

  function words(text) {
    return fold(text).match(WORD) || [];
  }

  function unique(list) {
    var seen = {}, out = [];
    list.forEach(function (w) { if (!seen[w]) { seen[w] = true; out.push(w); } });
    return out;
  }

  function nameWords(text) {
    var list = words(text);
    if (list.length > 1) list.push(list.join(""));
    return unique(list);
  }

  // Optimal string alignment distance, abandoned as soon as it exceeds max.
  function distance(a, b, max) {
    var la = a.length, lb = b.length, i, j;
    if (Math.abs(la - lb) > max) return max + 1;
    var before = null, prev = [], cur;
    for (j = 0; j <= lb; j++) prev[j] = j;
    for (i = 1; i <= la; i++) {
      cur = [i];
      var rowMin = i;
      for (j = 1; j <= lb; j++) {
        var cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
            a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
          v = Math.min(v, before[j - 2] + 1);
        }
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > max) return max + 1;
      before = prev;
      prev = cur;
    }
    return prev[lb];
  }

  function wordScore(q, w, minFuzzy) {
    if (q === w) return 1;
    if (q.length >= 2 && w.length > q.length && w.lastIndexOf(q, 0) === 0) {
      return 0.7 + 0.2 * q.length / w.length;
    }
    if (q.length < minFuzzy) return 0;
    var max = q.length >= 8 ? 2 : 1;
    var d = distance(q, w, max);
    if (d <= max) return 0.6 - 0.15 * d;
    if (w.length > q.length) {
      d = distance(q, w.slice(0, q.length), max);
      if (d <= max) return 0.4 - 0.1 * d;
    }
    return 0;
  }

  function best(q, list, minFuzzy) {
    var top = 0;
    for (var i = 0; i < list.length && top < 1; i++) {
      var s = wordScore(q, list[i], minFuzzy);
      if (s > top) top = s;
    }
    return top;
  }

  // -- the data -----------------------------------------------------------------

  var DATA = window.RULEBOT_DATA = window.RULEBOT_DATA || {};
  var root = document.documentElement.getAttribute("data-root") || "";
  var here = document.documentElement.getAttribute("data-game");  // this page's game, or null
  var order = null;   // every game's slug in the site's order, once games.js is in
  var byGame = {};    // slug -> {slug, name, pages, entries, texts: whether its texts are in}
  var files = {};     // file name -> "loading", "loaded" or "failed"
  var waiting = {};   // file name -> what to do once it is in
  var started = false;
  var changed = function () {};  // the page's: runs the search again

  // Inject a data file's <script> tag once; `then` runs when it is in (or failed).
  function load(file, then) {
    if (files[file] === "loaded" || files[file] === "failed") {
      if (then) then();
      return;
    }
    if (then) (waiting[file] = waiting[file] || []).push(then);
    if (files[file]) return;
    files[file] = "loading";
    var script = document.createElement("script");
    script.src = root + "_search/" + file;
    script.onload = script.onerror = function (event) {
      files[file] = event.type === "load" ? "loaded" : "failed";
      ingest();
      (waiting[file] || []).forEach(function (callback) { callback(); });
      delete waiting[file];
      if (started) start();
      changed();
    };
    document.head.appendChild(script);
  }

  // The files this page searches (every game's, once the list of games is in).
  function wanted() {
    var list = ["games.js"];
    if (here) list.push(here + ".names.js", here + ".texts.js");
    (order || []).forEach(function (slug) {
      if (slug === here) return;
      list.push(slug + ".names.js");
      if (!here) list.push(slug + ".texts.js");
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

  // The games searched, in the site's order (this page's alone until the list is in).
  function searched() {
    return (order || (here ? [here] : [])).map(function (slug) { return byGame[slug]; })
      .filter(function (game) { return game; });
  }

  // Build the entries of each game whose names are in, and add the texts that are in.
  function ingest() {
    if (!order && DATA.games) order = DATA.games.games.map(function (game) { return game.slug; });
    (order || (here ? [here] : [])).forEach(function (slug) {
      var names = DATA["names:" + slug];
      if (names && !byGame[slug]) byGame[slug] = buildGame(slug, names);
      var game = byGame[slug], texts = DATA["texts:" + slug];
      if (game && texts && !game.texts) {
        game.texts = true;
        game.entries.forEach(function (entry, i) {
          entry.text = texts.texts[i];
          entry.textWords = unique(words(entry.text));
        });
      }
    });
  }

  function buildGame(slug, names) {
    var game = { slug: slug, name: names.name, pages: names.pages, entries: [], texts: false };
    names.entries.forEach(function (row) {
      game.entries.push({
        id: row[0],
        game: game,
        kind: row[1],
        title: row[2],
        titleFold: words(row[2]).join(" "),
        titleWords: nameWords(row[2]),
        titleBase: unique(words(row[2])),
        aliases: row[3].map(function (pair) {
          return { text: pair[0], lang: pair[1], fold: words(pair[0]).join(" "), words: nameWords(pair[0]) };
        }),
        house: (row[4] || []).indexOf("house") >= 0,
        draft: (row[4] || []).indexOf("draft") >= 0,
        page: game.pages[row[5]],
        text: null,
        textWords: null
      });
    });
    return game;
  }

  // An #anchor that is no element of this game page: the entry is on another
  // of the game's pages (its names say which); go there.
  function followMovedEntry() {
    var id = window.location.hash.slice(1);
    if (!here || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || document.getElementById(id)) return;
    load(here + ".names.js", function () {
      var game = byGame[here];
      if (!game) return;
      var current = window.location.pathname.split("/").pop() || "index.html";
      for (var i = 0; i < game.entries.length; i++) {
        if (game.entries[i].id === id) {
          if (game.entries[i].page !== current) window.location.replace(game.entries[i].page + "#" + id);
          return;
        }
      }
    });
  }

  // -- searching --------------------------------------------------------------

  function queryWords(query) {
    var list = unique(words(query));
    var kept = list.filter(function (w) { return !STOP[w]; });
    return kept.length ? kept : list;
  }

  function score(entry, qwords, phrase) {
    var total = 0, found = 0, alias = null, aliasTop = 0;
    qwords.forEach(function (q) {
      var t = best(q, entry.titleWords, 4);
      var a = 0;
      entry.aliases.forEach(function (al) {
        var s = best(q, al.words, 4);
        if (s > a) a = s;
        if (s > aliasTop) { aliasTop = s; alias = al; }
      });
      var x = entry.textWords ? best(q, entry.textWords, 5) : 0;
      if (t || a || x) found++;
      var fields = [10 * t, 6 * a, 1.5 * x].sort(function (m, n) { return n - m; });
      total += fields[0] + 0.25 * (fields[1] + fields[2]);
    });
    if (!found) return null;
    // The more of its title the query covers, the better: "Raven Familiar"
    // before "Raven Familiar: moving Gold does not count".
    var covered = entry.titleBase.filter(function (w) {
      return qwords.some(function (q) { return wordScore(q, w, 4) > 0; });
    }).length;
    if (covered) total += 4 * covered / entry.titleBase.length;
    if (entry.titleFold === phrase) total += 40;
    else if (entry.titleFold.lastIndexOf(phrase, 0) === 0) total += 8;
    entry.aliases.forEach(function (al) {
      if (al.fold === phrase) { total += 25; alias = al; aliasTop = 2; }
      else if (al.fold.lastIndexOf(phrase, 0) === 0) total += 5;
    });
    var share = found / qwords.length;
    return { entry: entry, score: total * share * share, alias: aliasTop >= 0.3 ? alias : null };
  }

  function search(query) {
    var qwords = queryWords(query);
    if (!qwords.length) return [];
    var phrase = words(query).join(" ");
    var results = [];
    searched().forEach(function (game) {
      game.entries.forEach(function (entry) {
        var r = score(entry, qwords, phrase);
        if (r && r.score >= MIN_SCORE) results.push(r);
      });
    });
    results.sort(function (a, b) {
      return b.score - a.score || (a.entry.title < b.entry.title ? -1 : a.entry.title > b.entry.title ? 1 : 0);
    });
    return results.slice(0, MAX_RESULTS);
  }

  function snippet(entry, qwords) {
    if (!entry.text) return "";
    var text = entry.text, folded = fold(text), at = -1;
    // fold() keeps lengths for the accented letters of the corpus, so a
    // position in the folded text is (near enough) one in the text.
    for (var i = 0; i < qwords.length && at < 0; i++) at = folded.indexOf(qwords[i]);
    var start = at > 60 ? text.lastIndexOf(" ", at - 50) + 1 : 0;
    var piece = text.slice(start, start + 160);
    return (start > 0 ? "\u2026" : "") + piece + (start + 160 < text.length ? "\u2026" : "");
  }

  // -- the page -----------------------------------------------------------------

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

    // What the list shows: the query and how many data files were in. A run
    // that would show the same again leaves the list (and the focus) alone.
    var shown = null;

    function run() {
      var query = input.value.trim();
      var state = query + "\n" + Object.keys(files).filter(function (file) { return files[file] !== "loading"; }).length;
      if (state === shown) return;
      shown = state;
      list.textContent = "";
      // What the list shows, for scripts and tests: the query, and whether
      // all the data this page searches was there (it is loaded on demand).
      list.setAttribute("data-query", query);
      list.setAttribute("data-complete", "true");
      if (!query) { status.textContent = ""; return; }
      start();
      var done = complete();
      if (!done) list.setAttribute("data-complete", "false");
      var qwords = queryWords(query);
      var results = search(query);
      status.textContent = results.length
        ? results.length + (results.length === 1 ? " result" : " results")
        : !done ? "Loading the search\u2026"
        : failed() ? "The search could not load its data."
        : "No entry matches \u201c" + query + "\u201d.";
      results.forEach(function (r) {
        var entry = r.entry;
        var item = element("li");
        var link = element("a", "", entry.title);
        link.href = root + entry.game.slug + "/" + entry.page + "#" + entry.id;
        item.appendChild(link);
        var meta = element("span", "result-meta", entry.game.name + " \u00b7 " + (KINDS[entry.kind] || entry.kind));
        if (r.alias) {
          meta.appendChild(document.createTextNode(" \u00b7 also called "));
          var alias = element("span", "result-alias", r.alias.text);
          if (r.alias.lang && r.alias.lang !== "en") alias.lang = r.alias.lang;
          meta.appendChild(alias);
        }
        item.appendChild(meta);
        if (entry.house || entry.draft) {
          var flags = element("span", "result-flags");
          if (entry.house) flags.appendChild(element("span", "flag house-flag", HOUSE_FLAG));
          if (entry.draft) flags.appendChild(element("span", "badge draft", "Draft"));
          item.appendChild(flags);
        }
        var text = snippet(entry, qwords);
        if (text) item.appendChild(element("span", "result-snippet", text));
        list.appendChild(item);
      });
    }

    // Data arriving runs the search again (once for files arriving together).
    var again = null;
    changed = function () {
      clearTimeout(again);
      again = setTimeout(function () { if (input.value.trim()) run(); }, 20);
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
