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
 *   _search/games.js          "games": the games and their pages, and under
 *                             "search" the ranking's constants
 *                             (rulebot/index/fields.py, rulebot/search/constants.py), the
 *                             stop words and question words, the words of
 *                             counts, the index's statistics and each game's
 *                             documents, names, expansions, terms and vocabulary
 *   _search/lexicon-<c>.js    "lexicon:<c>": every game's words that begin with
 *                             the letter c (close spellings, French words)
 *   _search/terms-<n>.js      "terms:<n>": the postings of the terms whose hash
 *                             is n, as the index has them
 *   _search/entries-<n>.js    "entries:<n>": the n-th run of entries in the
 *                             index (games.js says how many a file holds): what
 *                             a result shows of each and what the ranking reads
 *   _search/<game>.texts.js   "texts:<slug>:0": each entry's plain text, for snippets
 *                             (a game of several pages: its n-th page's, <game>.texts-<n>.js)
 *   _search/<game>.pages.js   "pages:<slug>": the ids of each page's entries
 * with the scripts _static/search-engine.js and _static/stemmers.js (the
 * Snowball stemmers, which stem questions as PyStemmer stemmed the corpus).
 * A page loads none of them when it opens: the first focus of the search box
 * (or a key typed in it, or a page opened with ?q=) injects the tags of the
 * engine, the stemmers and games.js; then each question's search lists the
 * files it lacks (its words' lexicon and terms files, its candidates'
 * entries files), which are loaded, and the question is asked again once
 * they are in. A file that cannot be loaded is said in the results area.
 * The texts of a page's entries are loaded when one of them is among the
 * results, for its snippet. On a game's page, an address whose #anchor is no
 * element of the page (an entry on another page of a large game, from a link
 * made before it was split) loads the game's pages file to find the entry's
 * page, and goes there.
 *
 * SHOWING. Up to ten results, best first, each a row that opens its
 * entry's anchor on the page it is on (the whole row is the link's target),
 * with its game, kind, the alias the question names, house-rule and draft
 * flags, and a snippet: the sentence of its text that says most of the
 * question's words, those words marked; on a game's page, then other games'
 * entries the question names (marked "Another game") and a link that asks
 * the question of every game. When no entry answers clearly the status says
 * so. The list's data-query, data-complete (all the data the page searches
 * was in), data-confident and data-lang attributes say what it shows, for
 * scripts and tests. Enter opens the first result, arrow keys move through
 * them, Escape (or a click elsewhere) closes them.
 *
 * LANGUAGE. The answer is in the page's language when it is not the
 * entries' own (`index.fr.html`), else in the question's, as `rulebot ask`
 * answers (rulebot.answering.answer_language): in French, each result shows
 * the entry's French title and snippet where it has them (marked lang="en"
 * where not) and opens the game's French page, and the box's words are
 * French; rulebot/site/search_languages.py writes those (_search/fr.js, and
 * the texts of _search/<game>.texts.fr.js), loaded when an answer needs them.
 *
 * HISTORY. The query is in the address (?q=) as it is typed (replaceState),
 * so that Back, after a result is opened (a page of its own, or on this page
 * a new history entry: pushState), finds the question and shows its results
 * again; a page opened with ?q= shows them. A button at the foot of the
 * screen leads back to the search box from anywhere on a long page.
 */
(function () {
  "use strict";

  var KINDS = {  // rulebot/site/views.py's KIND_LABELS
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

  // The files every search needs, whatever its words: the engine, the stemmers and the settings.
  var WANTED = ["_static/stemmers.js", "_static/search-engine.js", "_search/games.js"];
  var asked = [];  // the files the engine asked for, for the questions searched so far

  function start() {
    started = true;
    WANTED.forEach(function (file) { load(file); });
  }

  function isIn(file) {
    return files[file] === "loaded" || files[file] === "failed";
  }

  // An #anchor that is no element of this game page: the entry is on another
  // of the game's pages (its pages file says which); go there.
  function followMovedEntry() {
    var id = window.location.hash.slice(1);
    if (!here || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || document.getElementById(id)) return;
    load("_search/" + here + ".pages.js", function () {
      var pages = DATA["pages:" + here];  // each page's entries' ids
      if (!pages) return;
      // (a page in another language than the entries' is theirs with its language: "a-z.fr.html", a game's pages in it)
      var inLang = function (page) { return pageLang === "en" ? page : page.replace(/\.html$/, "." + pageLang + ".html"); };
      var current = window.location.pathname.split("/").pop() || inLang("index.html");
      Object.keys(pages.pages).forEach(function (page) {
        if (inLang(page) !== current && pages.pages[page].split(" ").indexOf(id) >= 0) window.location.replace(inLang(page) + "#" + id);
      });
    });
  }

  // -- the page -----------------------------------------------------------------

  var pageLang = document.documentElement.getAttribute("lang") || "en";

  // The language of an answer: the page's when it is not the entries' own, else the question's.
  function answerLanguage(answer) {
    return pageLang !== "en" ? pageLang : (answer && answer.language) || "en";
  }

  function languageFile(lang) {
    return "_search/" + lang + ".js";
  }

  // The search box's words in the answer's language (rulebot/site/search_languages.py's SEARCH_LABELS), with
  // {name} filled in from `values`.
  function say(lang, text, values) {
    var words = lang !== "en" && DATA["lang:" + lang];
    var said = (words && words.labels[text]) || text;
    return said.replace(/\{(\w+)\}/g, function (all, name) { return values && name in values ? values[name] : all; });
  }

  // An entry's title in `lang`, or null when it has none there.
  function titleIn(entry, lang) {
    var words = lang !== "en" && DATA["lang:" + lang];
    var titles = words && words.titles[entry.game.slug];
    return (titles && titles[entry.n]) || null;
  }

  // An entry's text in `lang` (its file, and its text once that is in), for its snippet.
  function translatedText(entry, lang) {
    var file = entry.texts.replace(/\.js$/, "." + lang + ".js");
    var texts = DATA["texts:" + entry.game.slug + ":" + entry.pageNumber + ":" + lang];
    return { file: file, text: texts ? texts.texts[entry.place] : null };
  }

  // The page a result opens: in the answer's language when its game has pages in it.
  function resultPage(entry, lang) {
    var words = lang !== "en" && DATA["lang:" + lang];
    if (!words || !words.titles[entry.game.slug]) return entry.page;
    return entry.page.replace(/\.html$/, "." + lang + ".html");
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // What a result shows of its text: the sentence that says most of the question's words (the first of them
  // when none does), whole, with the next while it is short; a long sentence around its first such word.
  var SNIPPET = 180;
  function snippetOf(text, said) {
    var S = window.RULEBOT_SEARCH;
    // The stems of a text's words that the question says, stop words (English or French) left out.
    var says = function (part) {
      var found = new Set();
      (part.match(/[\p{L}\p{N}]+/gu) || []).forEach(function (word) {
        var term = S.terms("english", word)[0];
        if (term && said.has(term) && S.terms("french", word).length) found.add(term);
      });
      return found.size;
    };
    var sentences = text.split(/(?<=[.!?;:])\s+/), at = 0, best = 0, offsets = [], offset = 0;
    sentences.forEach(function (sentence, i) {
      offsets.push(text.indexOf(sentence, offset));
      offset = offsets[i] + sentence.length;
      var score = says(sentence);
      if (score > best) { best = score; at = i; }
    });
    var start = offsets[at], end = start + sentences[at].length;
    for (var next = at + 1; next < sentences.length && offsets[next] + sentences[next].length - start <= SNIPPET; next++) {
      end = offsets[next] + sentences[next].length;
    }
    if (end - start > SNIPPET + 40) {  // one long sentence: from a little before its first word said
      var words = /[\p{L}\p{N}]+/gu, match, first = start;
      words.lastIndex = start;
      while ((match = words.exec(text)) !== null && match.index < end) {
        if (says(match[0])) { first = match.index; break; }
      }
      if (first - start > 60) start = text.lastIndexOf(" ", first - 40) + 1;
      end = Math.min(end, start + SNIPPET);
      if (end < text.length) end = Math.max(text.lastIndexOf(" ", end), start + 1);
    }
    return { text: text.slice(start, end), before: start > 0, after: end < text.length, says: says };
  }

  // A snippet as an element: its words said marked.
  function snippetElement(text, said, lang) {
    var piece = snippetOf(text, said), node = element("span", "result-snippet");
    if (lang !== pageLang) node.lang = lang;
    // (an ellipsis for the text left out, apart from a whole sentence shown: "… It", "mandatory. …", not ".…")
    if (piece.before) node.appendChild(document.createTextNode(/^\p{Lu}/u.test(piece.text) ? "\u2026 " : "\u2026"));
    var words = /[\p{L}\p{N}]+/gu, match, last = 0;
    while ((match = words.exec(piece.text)) !== null) {
      if (!piece.says(match[0])) continue;
      node.appendChild(document.createTextNode(piece.text.slice(last, match.index)));
      node.appendChild(element("mark", "", match[0]));
      last = match.index + match[0].length;
    }
    node.appendChild(document.createTextNode(piece.text.slice(last)));
    if (piece.after) node.appendChild(document.createTextNode(/[.!?;:]$/.test(piece.text) ? " \u2026" : "\u2026"));
    return node;
  }

  function queryOf(location) {
    return new URLSearchParams(location.search).get("q") || "";
  }

  // The address of this page with a query (none: without), and without an #anchor.
  function addressWith(query) {
    var address = window.location.pathname;
    return query ? address + "?q=" + encodeURIComponent(query) : address;
  }

  // The language switch goes to this page in the other language: the place in it (its anchor) and what was asked
  // or chosen here (?q=, ?players=) go along, as they are when the link is used. A page with no version in the
  // other language leads to the home page in it (data-home): the question goes along, not the place. The link is
  // made anew as a pointer or the focus reaches it, not only on a click, so that "open in a new tab" (a middle
  // click, the context menu, a long press) and a copied link carry them too.
  function keepPlaceAcrossLanguages(event) {
    var link = event.target.closest && event.target.closest(".language-switch a[hreflang]");
    if (!link || link.getAttribute("aria-current")) return;
    var url = new URL(link.getAttribute("href"), window.location.href);
    if (link.hasAttribute("data-home")) {
      var asked = queryOf(window.location);
      url.search = asked ? "?q=" + encodeURIComponent(asked) : "";
      url.hash = "";
    } else {
      url.search = window.location.search;
      url.hash = window.location.hash;
    }
    link.href = url.href;
  }

  function init() {
    followMovedEntry();
    window.addEventListener("hashchange", followMovedEntry);
    ["pointerdown", "focusin", "click"].forEach(function (type) {
      document.addEventListener(type, keepPlaceAcrossLanguages, true);
    });
    var form = document.querySelector("form[data-search]");
    if (!form) return;
    var input = form.querySelector("input");
    var list = form.querySelector("ol");
    var status = form.querySelector(".search-status");
    var suggestion = form.querySelector(".search-suggestion");
    form.hidden = false;

    // What the list shows: the query and how many of the files it ranks with
    // were in. A run that would show the same again leaves the list (and the
    // focus) alone; texts arriving only add their snippets.
    var shown = null;
    var waitingSnippets = [];  // [item, entry, stems said, language] of the results shown without their snippet

    function addSnippets() {
      waitingSnippets = waitingSnippets.filter(function (pending) {
        var entry = pending[1], lang = pending[3], text = entry.text, textLang = "en";
        if (lang !== "en" && titleIn(entry, lang)) {
          var translated = translatedText(entry, lang);
          if (translated.text === null) return true;  // its file is still on its way
          text = translated.text;
          textLang = lang;
        }
        if (!text) return true;  // its page's texts are still on their way
        pending[0].appendChild(snippetElement(text, pending[2], textLang));
        return false;
      });
    }

    function setOpen(open) {
      form.classList.toggle("is-open", open);
    }

    function run() {
      var query = input.value.trim();
      var lang = pageLang !== "en" ? pageLang : null;
      var extra = lang ? [languageFile(lang)] : [];
      var state = query + "\n" + WANTED.concat(asked, extra).filter(isIn).length;
      state += "\n" + Object.keys(DATA).filter(function (key) { return key.indexOf("lang:") === 0; }).length;
      if (state === shown) return;
      shown = state;
      list.textContent = "";
      waitingSnippets = [];
      list.setAttribute("data-query", query);
      list.setAttribute("data-complete", "true");
      list.removeAttribute("data-confident");
      suggest(null);
      setOpen(!!query);
      if (!query) { status.textContent = ""; list.removeAttribute("data-lang"); return; }
      start();
      var answer = engine() && engine().ready() ? engine().search(query) : null;
      // The files this question still needs (its words' terms, its candidates' entries): loaded, then it is asked again.
      var lacking = answer ? answer.lacking : [];
      lacking.forEach(function (file) {
        if (asked.indexOf(file) < 0) asked.push(file);
        load(file);
      });
      var done = WANTED.every(isIn) && lacking.every(isIn);
      // A file that failed, or is in without its data, cannot be waited for.
      var failed = WANTED.some(function (file) { return files[file] === "failed"; }) || lacking.some(isIn);
      lang = answerLanguage(answer);
      if (lacking.length) answer = null;  // no answer until its files are in
      if (lang !== "en" && !DATA["lang:" + lang]) {
        load(languageFile(lang));  // its words, then the answer again
        if (files[languageFile(lang)] !== "failed") done = false;
      }
      if (!done) list.setAttribute("data-complete", "false");
      list.setAttribute("data-lang", lang);
      var results = answer ? answer.results : [];
      if (answer) list.setAttribute("data-confident", answer.confident ? "true" : "false");
      var count = results.length === 1 ? say(lang, "1 result") : say(lang, "{count} results", { count: results.length });
      status.textContent = results.length
        ? (answer.confident ? count : say(lang, "No entry answers this clearly; the closest of {results}.", { results: count }))
        : !done ? say(lang, "Loading the search\u2026")
        : failed ? say(lang, "The search could not load its data.")
        : answer && answer.refused ? say(lang, "Question words alone ask nothing: say what the question is about.")
        : say(lang, "No entry matches \u201c{query}\u201d.", { query: query });
      // A question about the base game alone leaves the expansions out, and says so (as `rulebot ask` does).
      if (answer && answer.baseGameOnly && answer.baseGameOnly.length) {
        status.textContent += " \u00b7 " + say(lang, "Base game only: the expansions are left out.");
      }
      if (lang !== pageLang) status.lang = lang; else status.removeAttribute("lang");
      suggest(answer && answer.suggestions, lang);
      results.forEach(function (r) {
        var entry = r.entry;
        var item = element("li", r.other ? "result-other" : "");
        if (lang !== pageLang) item.lang = lang;
        var translated = lang !== "en" ? titleIn(entry, lang) : null;
        var link = element("a", "", translated || entry.title);
        link.href = root + entry.game.slug + "/" + resultPage(entry, lang) + "#" + entry.id;
        var titleLang = translated ? lang : "en";
        if (titleLang !== lang) link.lang = titleLang;
        item.appendChild(link);
        var meta = element("span", "result-meta", entry.game.name + " \u00b7 " + say(lang, KINDS[entry.kind] || entry.kind));
        if (lang !== "en" && !translated) meta.appendChild(document.createTextNode(" \u00b7 " + say(lang, "in English")));
        var alias = engine().aliasShown(entry, answer.said);
        if (alias && alias.text.toLowerCase() === link.textContent.toLowerCase()) alias = null;  // the title shown
        if (alias) {
          meta.appendChild(document.createTextNode(" \u00b7 " + say(lang, "also called") + " "));
          var also = element("span", "result-alias", alias.text);
          if (alias.lang && alias.lang !== lang) also.lang = alias.lang;
          meta.appendChild(also);
        }
        item.appendChild(meta);
        if (entry.house || entry.draft || r.other) {
          var flags = element("span", "result-flags");
          if (r.other) flags.appendChild(element("span", "flag other-game", say(lang, "Another game")));
          if (entry.house) flags.appendChild(element("span", "flag house-flag", say(lang, HOUSE_FLAG)));
          if (entry.draft) flags.appendChild(element("span", "badge draft", say(lang, "Draft")));
          item.appendChild(flags);
        }
        if (!r.other) {  // a snippet from the texts of its page, loaded for the results shown
          waitingSnippets.push([item, entry, answer.said, lang]);
          load(entry.texts);
          if (translated) load(translatedText(entry, lang).file);
        }
        list.appendChild(item);
      });
      if (here && answer && !answer.refused) {  // last: a link that asks every game, on the home page (not of question words alone)
        var more = element("li", "search-more");
        var everywhere = element("a", "", say(lang, "Search every game"));
        everywhere.href = root + (pageLang === "en" ? "index.html" : "index." + pageLang + ".html") + "?q=" + encodeURIComponent(query);
        more.appendChild(everywhere);
        list.appendChild(more);
      }
      addSnippets();
    }

    // "Did you mean": the question respelled (an unsure answer's), a link that asks it (as `rulebot ask` offers it).
    function suggest(suggestions, lang) {
      suggestion.textContent = "";
      if (!suggestions || !suggestions.length) return;
      if (lang !== pageLang) suggestion.lang = lang; else suggestion.removeAttribute("lang");
      suggestion.appendChild(document.createTextNode(say(lang, "Did you mean: ")));
      suggestions.forEach(function (respelled, i) {
        if (i) suggestion.appendChild(document.createTextNode(" / "));
        var link = element("a", "", respelled);
        link.href = addressWith(respelled);
        suggestion.appendChild(link);
      });
      // (the question as typed: its own question mark, when it has one, ends the line; else one as the language puts
      // it, "break?" or « break ? », as `rulebot ask` does)
      if (!/\?\s*$/.test(suggestions[suggestions.length - 1])) {
        suggestion.appendChild(document.createTextNode(say(lang, "{suggestions}?", { suggestions: "" })));
      }
    }

    // The query in the address, replacing the current history entry (typing makes no entries of its own).
    function remember() {
      var query = input.value.trim();
      if (query !== queryOf(window.location)) history.replaceState(history.state, "", addressWith(query));
    }

    // The query of the address shown again, with its results (a page opened with ?q=, or Back to one).
    function restore() {
      var query = queryOf(window.location);
      if (query === input.value.trim() && (!query || form.classList.contains("is-open"))) return;
      input.value = query;
      shown = null;
      run();
    }

    // Enter pressed while the search was still loading: its first result is opened once it is in.
    var openWhenIn = false;
    function openFirst() {
      var first = list.querySelector("a");
      if (first && !open(first)) window.location.href = first.href;
      return !!first;
    }

    // Data arriving runs the search again (once for files arriving together).
    var again = null;
    changed = function () {
      clearTimeout(again);
      again = setTimeout(function () {
        if (input.value.trim()) run();
        if (engine()) addSnippets();
        if (openWhenIn && list.getAttribute("data-complete") === "true") {
          openWhenIn = false;
          openFirst();
        }
      }, 20);
    };
    input.addEventListener("focus", function () {
      start();
      if (input.value.trim() && !form.classList.contains("is-open")) setOpen(true);
    });
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      openWhenIn = false;  // (another question now)
      timer = setTimeout(function () { run(); remember(); }, 60);
    });

    // Opening a result: the query stays in this history entry, which Back comes back to. A result on this very
    // page is a new entry (pushState) at its anchor, without the query.
    function open(link) {
      clearTimeout(timer);
      remember();
      var target = new URL(link.href, window.location.href);
      if (target.pathname !== window.location.pathname || target.search || !target.hash) return false;
      history.pushState(null, "", target.pathname);
      window.location.replace(target.hash);  // a move to the anchor, as a link makes (:target, scrolling)
      setOpen(false);
      return true;
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      run();
      remember();  // (typed faster than the address follows: the whole question in it, for Back and reload)
      if (!openFirst() && list.getAttribute("data-complete") === "false") openWhenIn = true;
    });

    function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }
    function close() {
      input.focus();
      setOpen(false);
    }
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && links().length) {
        event.preventDefault();
        setOpen(true);
        links()[0].focus();
      } else if (event.key === "Escape") {
        if (form.classList.contains("is-open")) {
          event.preventDefault();  // a search box's own Escape would empty it
          setOpen(false);
        } else {
          input.value = "";
          run();
          remember();
        }
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
        close();
      }
    });
    // A result's link covers its whole row (site.css), so a tap anywhere on the row opens it.
    list.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;  // a new tab or window: this page stays
      event.preventDefault();
      if (!open(link)) window.location.href = link.href;
    });
    // A suggestion is asked in place, as if typed (the address follows, as typing makes it).
    suggestion.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      input.value = link.textContent;
      run();
      remember();
      input.focus();
    });
    // Back to the search box from anywhere on a long page.
    var toSearch = document.querySelector("[data-to-search]");
    // A click elsewhere on the page closes the results (the query stays, and focusing the box opens them again).
    document.addEventListener("click", function (event) {
      if (!form.contains(event.target) && !(toSearch && toSearch.contains(event.target))) setOpen(false);
    });
    window.addEventListener("popstate", restore);
    window.addEventListener("pageshow", function (event) { if (event.persisted) restore(); });

    if (toSearch && window.IntersectionObserver) {
      new IntersectionObserver(function (seen) {
        toSearch.hidden = seen[0].isIntersecting;
      }).observe(input);
      toSearch.addEventListener("click", function (event) {
        event.preventDefault();
        window.scrollTo(0, 0);
        input.focus({ preventScroll: true });
      });
    }

    if (queryOf(window.location)) restore();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
