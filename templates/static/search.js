/*
 * rulebot site search: plain JavaScript, no server, no library, no network.
 *
 * DATA. The search data are JavaScript files that each add a key to the
 * global window.RULEBOT_DATA, loaded by <script> tags, so the search works
 * over http and from file:// alike (where fetch() of a JSON file is refused):
 *   _search/all.js     "all": {games: [{slug, name}],
 *                              entries: [[id, game index, kind, title, [[alias, lang], ...],
 *                                         [flag, ...]], ...]}
 *                      flags: "house" (a house rule, never an official ruling:
 *                      every result shows HOUSE_FLAG) and "draft" (text not yet
 *                      restated by a curator)
 *   _search/<game>.js  "game:<slug>": {texts: {entry id: plain text}}
 * Every page loads all.js (every name of every entry); a game's pages load
 * that game's texts; pages of no game (home, sources) inject the texts'
 * <script> tags only when someone starts to search.
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
 * linking to its entry's anchor; Enter opens the first, arrow keys move
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

  // -- the index ----------------------------------------------------------------

  var DATA = window.RULEBOT_DATA = window.RULEBOT_DATA || {};
  var root = document.documentElement.getAttribute("data-root") || "";
  var games = [];
  var entries = [];
  var byId = {};
  var loading = {};

  function buildIndex() {
    var all = DATA.all;
    if (!all) return false;
    games = all.games;
    all.entries.forEach(function (row) {
      var entry = {
        id: row[0],
        game: games[row[1]],
        kind: row[2],
        title: row[3],
        titleFold: words(row[3]).join(" "),
        titleWords: nameWords(row[3]),
        titleBase: unique(words(row[3])),
        aliases: row[4].map(function (pair) {
          return { text: pair[0], lang: pair[1], fold: words(pair[0]).join(" "), words: nameWords(pair[0]) };
        }),
        house: (row[5] || []).indexOf("house") >= 0,
        draft: (row[5] || []).indexOf("draft") >= 0,
        text: null,
        textWords: null
      };
      entries.push(entry);
      byId[entry.id] = entry;
    });
    games.forEach(function (game) { addTexts(game.slug); });
    return true;
  }

  function addTexts(slug) {
    var data = DATA["game:" + slug];
    if (!data) return false;
    Object.keys(data.texts).forEach(function (id) {
      var entry = byId[id];
      if (entry && entry.text === null) {
        entry.text = data.texts[id];
        entry.textWords = unique(words(entry.text));
      }
    });
    return true;
  }

  // Pages of no game load the texts of every game when a search begins.
  // Returns whether every text this page searches is there.
  function loadTexts(rerun) {
    if (document.documentElement.hasAttribute("data-game")) return true;
    var complete = true;
    games.forEach(function (game) {
      if (DATA["game:" + game.slug]) return;
      complete = false;
      if (loading[game.slug]) return;
      loading[game.slug] = true;
      var script = document.createElement("script");
      script.src = root + "_search/" + game.slug + ".js";
      script.onload = function () { addTexts(game.slug); rerun(); };
      document.head.appendChild(script);
    });
    return complete;
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
    entries.forEach(function (entry) {
      var r = score(entry, qwords, phrase);
      if (r && r.score >= MIN_SCORE) results.push(r);
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
    var form = document.querySelector("form[data-search]");
    if (!form || !buildIndex()) return;
    var input = form.querySelector("input");
    var list = form.querySelector("ol");
    var status = form.querySelector("[aria-live]");
    form.hidden = false;

    function run() {
      var query = input.value.trim();
      list.textContent = "";
      // What the list shows, for scripts and tests: the query, and whether
      // every text was there to search (the home page loads them lazily).
      list.setAttribute("data-query", query);
      list.setAttribute("data-complete", "true");
      if (!query) { status.textContent = ""; return; }
      if (!loadTexts(run)) list.setAttribute("data-complete", "false");
      var qwords = queryWords(query);
      var results = search(query);
      status.textContent = results.length
        ? results.length + (results.length === 1 ? " result" : " results")
        : "No entry matches \u201c" + query + "\u201d.";
      results.forEach(function (r) {
        var entry = r.entry;
        var item = element("li");
        var link = element("a", "", entry.title);
        link.href = root + entry.game.slug + "/index.html#" + entry.id;
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
        setTimeout(function () { list.textContent = ""; status.textContent = ""; }, 0);
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
