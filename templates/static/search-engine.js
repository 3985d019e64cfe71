/*
 * rulebot site search, its engine: it answers a question as `rulebot ask`
 * does, with the same analysis, the same index and the same ranking, step
 * for step (rulebot/search/, rulebot/language/quantities.py),
 * in the browser. search.js loads it, with the search's settings and the
 * Snowball stemmers (stemmers.js), on the first use of the search box.
 *
 * DATA. The index is inverted and cut into files (rulebot/site/search_data.py
 * documents them), so that a question loads what its words need, on every
 * page alike: the lexicon's parts of its words' first letters (to read
 * it: French words, close spellings), then the terms files of its words and
 * of their synonyms and close spellings (their postings: for each entry
 * holding a term, the field's length and the term's places in it), then the
 * entries files of its candidates (what the results show of them and what
 * the ranking reads). search(query) runs the whole question with what is in;
 * what it lacks it lists instead of answering (`lacking`), search.js loads
 * it and asks again, until nothing is lacking: then the answer is the one
 * all the data gives. Entries are known by their document number in the
 * index (GAME_OF: their game; a tie between scores goes to the earlier).
 *
 * ANSWERING. On a game's page the question is asked of that game (as
 * `rulebot ask --game`): its entries come first; then other games' entries
 * whose title or alias the question names (typos allowed), marked. On a
 * page of no game it is asked of every game, the game found from the
 * question's words as `rulebot ask` finds it. A question is cleaned and
 * cut into folded words; French is recognised; "how many" and player counts
 * are read; the game's vocabulary groups words into units with their
 * synonyms (weighing less than the words typed); an unknown word also tries
 * its close spellings; each entry is scored by BM25F over its fields (the
 * postings the site build wrote, the index's own), with the bonus of adjacent
 * words found together; then every candidate gets the ranking model's
 * feature vector (rulebot/search/features.py: the share of the question it
 * matches, the names and questions it answers that the question says, its
 * source's trust, what it counts and the player counts it gives, an
 * expansion the question names, its kind and length) and is scored by the
 * model's fitted weights; the answer's parts come first, and the answer
 * says whether it is sure, by the same model's probability. The constants
 * and weights are rulebot/index/fields.py's, rulebot/search/constants.py's
 * and rulebot/search/weights.json's, the word lists rulebot/language/analysis.py's and
 * rulebot/language/quantities.py's, all read from the search data: this file holds
 * none of them.
 *
 * Defines window.RULEBOT_ENGINE: update() (takes in the search data loaded
 * so far), ready() (whether the settings and stemmers are in), search(query)
 * ({results: [{entry, other}], confident, said, language, baseGameOnly: the games
 * whose expansions a question about the base game alone left out, lacking: the files
 * it still needs, when its results wait for them} or null),
 * snippet(entry, said), aliasShown(entry, said); and
 * window.RULEBOT_SEARCH: the browser's analysis, terms(analysis, text) and
 * words(text) (once ready()), for scripts and tests.
 */
(function () {
  "use strict";

  var MAX_RESULTS = 10;
  var OTHER_GAME_RESULTS = 3;
  var WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;
  var DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  var DIGIT = {};
  for (var d = 0; d < DIGITS.length; d++) DIGIT[DIGITS.charCodeAt(d)] = d;

  // -- text (rulebot.text, rulebot.language.analysis) ---------------------------------------------

  var UNDECOMPOSED = { "\u0153": "oe", "\u00e6": "ae", "\u00f8": "o", "\u0111": "d", "\u00f0": "d", "\u00fe": "th", "\u0142": "l", "\u0131": "i" };

  function collapse(text) {
    return text.split(/\s+/).filter(Boolean).join(" ");
  }

  // Lower case, accents removed, spaces collapsed (rulebot.text.fold).
  function fold(text) {
    text = String(text);
    if (/^[\x00-\x7f]*$/.test(text)) return collapse(text.toLowerCase());
    var lower = text.toLowerCase().replace(/\u00df/g, "ss").replace(/\u03c2/g, "\u03c3");
    var stripped = lower.normalize("NFKD").replace(/\p{M}/gu, "");
    return collapse(stripped.replace(/[\u0153\u00e6\u00f8\u0111\u00f0\u00fe\u0142\u0131]/g, function (c) { return UNDECOMPOSED[c]; }));
  }

  // The folded words of a text, an English "n't" joined to its verb ("doesnt"): rulebot.language.analysis.words.
  function words(text) {
    return negationsJoined(fold(text).match(WORD) || []);
  }

  // Words (lower case) with each "t" after a word an English "n't" follows joined to it (analysis._negations_joined).
  function negationsJoined(list) {
    var found = [];
    list.forEach(function (word) {
      if (word === "t" && found.length && A.negated.has(found[found.length - 1])) found[found.length - 1] += "t";
      else found.push(word);
    });
    return found;
  }

  // The words of a text as written, composed (rulebot.language.analysis.split).
  function split(text) {
    return String(text).normalize("NFC").match(WORD) || [];
  }

  // Whether every word of a text, as written, is question filler (rulebot.language.analysis.only_question_words):
  // "combien de dés" is not, its "dés" folding to the filler "des".
  function onlyQuestionWords(text) {
    var found = negationsJoined(split(text).map(function (word) { return word.toLowerCase(); }));
    return found.length > 0 && found.every(function (word) {
      return A.filler.has(fold(word)) && (/^[\x00-\x7f]*$/.test(word) || A.accentedFiller.has(word));
    });
  }

  function findPhrase(list, phrase) {
    for (var i = 0; i + phrase.length <= list.length; i++) {
      var j = 0;
      while (j < phrase.length && list[i + j] === phrase[j]) j++;
      if (j === phrase.length) return i;
    }
    return -1;
  }

  // Optimal string alignment distance (rulebot.search.spelling.distance), abandoned as soon as it exceeds max.
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
        if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
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

  function compare(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  // -- the data -----------------------------------------------------------------

  var DATA = window.RULEBOT_DATA = window.RULEBOT_DATA || {};
  var here = document.documentElement.getAttribute("data-game");  // this page's game, or null
  var S = null;       // the search's settings (games.js "search"), once in
  var R = null;       // the ranking's constants (rulebot/index/fields.py, rulebot/search/constants.py)
  var order = null;   // every game's slug in the site's order, once games.js is in
  var byGame = {};    // slug -> {slug, name, pages}
  var GAME_OF = [];   // by document number: its entry's game (slug)
  var OF_EXPANSION = [];  // by document number: true for an entry of an expansion
  var N_OF = [];      // by document number: its entry's number in its game (corpus order)
  var ENTRIES = new Map();  // the entries whose file is in, by document number
  var untexted = [];  // the entries whose text is not in yet

  // Whether the search can start: the settings and the stemmers are in (the lexicon, terms and entries files a
  // question needs are asked for by search()).
  function ready() {
    return !!(S && window.RULEBOT_STEMMERS);
  }

  // Take in the settings once they are in, and the texts of the entries built so far once theirs are.
  function update() {
    if (!order && DATA.games) {
      order = DATA.games.games.map(function (game) { return game.slug; });
      S = DATA.games.search;
      R = S.ranking;
      DATA.games.games.forEach(function (game) {
        byGame[game.slug] = { slug: game.slug, name: game.name, pages: game.pages };
        var n = 0;
        S.games[game.slug].docs.forEach(function (run) {
          for (var docnum = run[0]; docnum < run[0] + run[1]; docnum++) { GAME_OF[docnum] = game.slug; N_OF[docnum] = n++; }
        });
        S.games[game.slug].expansion_docs.forEach(function (run) {
          for (var docnum = run[0]; docnum < run[0] + run[1]; docnum++) OF_EXPANSION[docnum] = true;
        });
      });
      prepareSettings();
    }
    untexted = untexted.filter(function (entry) {
      var texts = DATA["texts:" + entry.game.slug + ":" + entry.pageNumber];
      if (texts) entry.text = texts.texts[entry.place];
      return !texts;
    });
  }

  // What a search lacks: the files it needs that are not in yet (search() reports them, search.js loads them and
  // asks again, until nothing is lacking).
  var lacking = new Set();
  var lackingWords = false;  // a lexicon file is lacking: the question cannot be read yet
  var lackingTerms = false;  // a terms file is lacking: the candidates are not known yet

  // A terms file's postings of a term: per field, {docs: document numbers, lengths: the field's, places: the term's
  // in it} (null when the file is not in; empty when no entry has the term).
  var POSTINGS = new Map();
  var NO_POSTINGS = null;

  function shardOf(term) {  // search_data.shard_of: FNV-1a over the code points
    var value = 0x811c9dc5;
    for (var i = 0; i < term.length; i++) {
      var code = term.codePointAt(i);
      if (code > 0xffff) i++;
      value = Math.imul(value ^ code, 0x01000193) >>> 0;
    }
    return value % S.shards;
  }

  function shard(term) {
    var n = shardOf(term), data = DATA["terms:" + n];
    if (!data) {
      lacking.add("_search/terms-" + n + ".js");
      lackingTerms = true;
    }
    return data || null;
  }

  function postingsOf(term) {
    var found = POSTINGS.get(term);
    if (found) return found;
    var data = shard(term);
    if (!data) return null;
    if (!NO_POSTINGS) NO_POSTINGS = FIELD_NAMES.map(function () { return { docs: [], lengths: [], places: [] }; });
    var text = Object.prototype.hasOwnProperty.call(data.terms, term) ? data.terms[term] : null;
    found = text === null ? NO_POSTINGS : text.split("|").map(function (field) {
      var numbers = decode(field), postings = { docs: [], lengths: [], places: [] }, docnum = 0;
      for (var i = 0; i < numbers.length;) {
        docnum += numbers[i];
        var count = numbers[i + 2], places = [numbers[i + 3]];
        for (var p = 1; p < count; p++) places.push(places[p - 1] + numbers[i + 3 + p]);
        postings.docs.push(docnum);
        postings.lengths.push(numbers[i + 1]);
        postings.places.push(places);
        i += 3 + count;
      }
      return postings;
    });
    POSTINGS.set(term, found);
    return found;
  }

  // The names (their stems) whose first stem is `stem`: [[document number, [stems]], ...] (null when not in).
  function namesBy(stem) {
    var data = shard(stem);
    if (!data) return null;
    var found = Object.prototype.hasOwnProperty.call(data.names, stem) ? data.names[stem] : [];
    return found.map(function (pair) { return [pair[0], pair[1].split(" ")]; });
  }

  function stemLists(text, separator) {
    return text.split(separator).map(function (part) { return part ? part.split(" ") : []; });
  }

  // The entry of a document number (null when its entries file is not in).
  function entryAt(docnum) {
    var found = ENTRIES.get(docnum);
    if (found) return found;
    var part = Math.floor(docnum / S.per_file), data = DATA["entries:" + part];
    if (!data) {
      lacking.add("_search/entries-" + part + ".js");
      return null;
    }
    data.entries.forEach(function (row, i) {
      var at = part * S.per_file + i, game = byGame[GAME_OF[at]];
      var entry = {
        id: row[0],
        docnum: at,
        n: N_OF[at],
        game: game,
        kind: row[1],
        title: row[2],
        aliases: row[3].map(function (pair) { return { text: pair[0], lang: pair[1] }; }),
        house: row[4].indexOf("house") >= 0,
        draft: row[4].indexOf("draft") >= 0,
        defers: row[4].indexOf("defers") >= 0,
        page: game.pages[row[5]],
        pageNumber: row[5],
        place: row[6],  // among its page's entries, in its page's texts
        texts: "_search/" + game.slug + (row[5] ? ".texts-" + row[5] : ".texts") + ".js",  // the file of its page's texts
        text: null,
        length: storedLength(row[7]),
        nameStems: stemLists(row[8], ","),
        askedStems: row[9] ? stemLists(row[9], ",") : [],
        counted: new Set(row[10] ? row[10].split(" ") : []),
        expansion: row[11],
        trust: S.trust[row[12]],
        players: row[13],
        seeAlso: row[14],
        modifies: row[15],
        modifiedBy: row[16].map(function (pair) { return { docnum: pair[0], expansion: pair[1] }; })
      };
      ENTRIES.set(at, entry);
      untexted.push(entry);
    });
    update();
    return ENTRIES.get(docnum);
  }

  // -- the settings: analysis, quantities, games --------------------------------------

  var A = null;         // the analysis's word sets
  var Q = null;         // the words of counts
  var GAMES = null;     // per game: names, expansions, terms (stems), synonym groups and tables
  var TABLES = null;    // per language: the synonym table of every game together
  var GAME_WORDS = null;  // the words of every game's names and its expansions' (gameWords)
  var FIELD_NAMES = null;

  function set(list) {
    return new Set(list);
  }

  function prepareSettings() {
    A = {
      filler: set(S.analysis.question_filler),
      accentedFiller: set(S.analysis.accented_filler),
      negated: set(S.analysis.negated),
      markers: set(S.analysis.french_markers),
      strong: set(S.analysis.strong_french_markers),
      letters: S.analysis.french_letters,
      englishStops: set(S.analysis.english_stop_words),
      frenchStops: set(S.analysis.french_stop_words),
      foldedFrenchStops: set(S.analysis.french_stop_words.map(fold)),
      expansionWords: set(S.analysis.expansion_words)
    };
    // The base-game phrases longest first (a phrase may hold a shorter one), without and with "base game" alone.
    var only = S.analysis.base_game_only.map(function (p) { return p.split(" "); });
    var bare = only.concat(S.analysis.base_game.map(function (p) { return p.split(" "); }));
    var longestFirst = function (phrases) {
      return phrases.map(function (p, i) { return [p, i]; })
        .sort(function (a, b) { return b[0].length - a[0].length || a[1] - b[1]; })
        .map(function (pair) { return pair[0]; });
    };
    A.baseGamePhrases = { only: longestFirst(only), bare: longestFirst(bare) };
    Q = {
      numbers: S.quantities.number_words,
      players: set(S.quantities.player_words),
      solo: set(S.quantities.solo_words),
      prepositions: set(S.quantities.count_prepositions),
      cues: S.quantities.quantity_cues,
      max: S.quantities.max_players,
      nounAfter: set(S.quantities.french_noun_after),
      compact: new RegExp(S.quantities.compact_count)
    };
    FIELD_NAMES = R.FIELDS.map(function (field) { return field[0]; });
    GAMES = {};
    TABLES = null;
    GAME_WORDS = null;
  }

  // A game's settings, once the stemmers are in: its names, expansions, terms (stems) and synonym tables.
  function gameSettings(slug) {
    if (!GAMES[slug]) {
      var g = S.games[slug];
      var groups = function (numbers) { return numbers.map(function (n) { return S.groups[n]; }); };
      GAMES[slug] = {
        names: g.names.map(function (name) { return name.split(" "); }),
        expansions: g.expansions.map(function (e) { return { slug: e[0], name: e[1].split(" ") }; }),
        terms: g.terms.map(function (term) { return term.split(" "); }),
        groups: { en: groups(g.synonyms), fr: groups(g.synonyms).concat(groups(g.french)) },
        tables: {}
      };
    }
    return GAMES[slug];
  }

  // Each member of each synonym group, by its stems, mapped to every member of its groups (rulebot.language.analysis.synonym_table).
  function synonymTable(groups) {
    var table = new Map();
    groups.forEach(function (group) {
      var members = group.split(",").map(function (member) { return member.split(" "); });
      members.forEach(function (member) {
        var key = member.map(stem).join(" ");
        var merged = (table.get(key) || []).concat(members);
        var seen = new Set();
        table.set(key, merged.filter(function (m) { var k = m.join(" "); if (seen.has(k)) return false; seen.add(k); return true; }));
      });
    });
    table.longest = 1;
    table.forEach(function (_members, key) { table.longest = Math.max(table.longest, key.split(" ").length); });
    return table;
  }

  function tableOf(slug, language) {
    var game = gameSettings(slug);
    if (!game.tables[language]) game.tables[language] = synonymTable(game.groups[language]);
    return game.tables[language];
  }

  function allTable(language) {
    TABLES = TABLES || {};
    if (!TABLES[language]) {
      var groups = [];
      S.order.forEach(function (slug) { groups = groups.concat(gameSettings(slug).groups[language]); });
      TABLES[language] = synonymTable(groups);
    }
    return TABLES[language];
  }

  // The stems of every game's synonym phrases for questions in a language (QuestionReader.phrase_stems).
  function phraseStems(language) {
    var table = allTable(language);
    if (!table.stems) {
      table.stems = new Set();
      table.forEach(function (_members, key) { key.split(" ").forEach(function (s) { table.stems.add(s); }); });
    }
    return table.stems;
  }

  // -- analysis (rulebot.language.analysis) ------------------------------------------------------

  var stems = { english: new Map(), french: new Map() };

  function stemWith(language, word) {
    var known = stems[language].get(word);
    if (known === undefined) {
      known = window.RULEBOT_STEMMERS[language](word);
      if (stems[language].size > 20000) stems[language].clear();
      stems[language].set(word, known);
    }
    return known;
  }

  function stem(word) {
    return stemWith("english", word);
  }

  var ANALYSES = {
    english: function (word) {
      var folded = fold(word);
      return A.englishStops.has(folded) ? null : stemWith("english", folded);
    },
    french: function (word) {
      var lower = word.toLowerCase();
      return A.frenchStops.has(lower) ? null : stemWith("french", fold(lower));
    },
    names: function (word) { return fold(word); }
  };

  function terms(analysis, text) {
    var termOf = ANALYSES[analysis];
    return split(text).map(termOf).filter(function (term) { return term !== null; });
  }

  // The stems of a name's words, without question words (unless that is all it has): analysis.name_stems.
  function nameStems(name) {
    var found = words(name);
    var kept = found.filter(function (w) { return !A.filler.has(w); });
    return (kept.length ? kept : found).map(stem);
  }

  function frenchEvidence(text) {
    var evidence = 0;
    words(text).forEach(function (w) { if (A.markers.has(w)) evidence += A.strong.has(w) ? 2 : 1; });
    var lower = text.toLowerCase();
    for (var i = 0; i < A.letters.length; i++) {
      if (lower.indexOf(A.letters[i]) >= 0) { evidence += 1; break; }
    }
    return evidence;
  }

  // -- quantities (rulebot.language.quantities) ---------------------------------------------------

  function numberOf(word) {
    if (isNumber(word)) return parseInt(word, 10);
    return Object.prototype.hasOwnProperty.call(Q.numbers, word) ? Q.numbers[word] : null;
  }

  function readIntent(list, language) {
    var quantity = Q.cues.some(function (cue) { return findPhrase(list, cue) >= 0; });
    var players = null, kept = list.slice();
    for (var at = 0; at < list.length; at++) {
      var word = list[at];
      var compact = Q.compact.exec(word);
      if (compact) {
        players = parseInt(compact[1], 10);
        kept = list.slice(0, at).concat(list.slice(at + 1));
        break;
      }
      var count = numberOf(word);
      if (count === null || count < 1 || count > Q.max) continue;
      var after = at + 1 < list.length ? list[at + 1] : "";
      var before = at ? list[at - 1] : "";
      if (Q.solo.has(word)) { players = count; break; }
      if (Q.players.has(after) || (language === "fr" && Q.prepositions.has(before) && !Q.nounAfter.has(after))) {
        players = count;
        kept = list.slice(0, at).concat(list.slice(at + 1));
        break;
      }
    }
    return { quantity: quantity, players: players, words: kept };
  }

  // -- the index ----------------------------------------------------------

  function decode(text) {
    var numbers = [], value = 0;
    for (var i = 0; i < text.length; i++) {
      var digit = DIGIT[text.charCodeAt(i)];
      if (digit < 32) { numbers.push(value * 32 + digit); value = 0; }
      else value = value * 32 + digit - 32;
    }
    return numbers;
  }

  // The length a field of `count` terms has for scoring: the byte the index keeps stands for it
  // (S.length_bytes: the length each of the 256 bytes stands for).
  function storedLength(count) {
    var LENGTHS = S.length_bytes, low = 0, high = LENGTHS.length - 1;
    if (count >= LENGTHS[high]) return LENGTHS[high];
    while (low < high) {  // bisect_left
      var middle = (low + high) >> 1;
      if (LENGTHS[middle] < count) low = middle + 1; else high = middle;
    }
    return LENGTHS[low];
  }

  var SCORES = new Map();  // the scores of the terms looked up so far (kept for later questions)

  // The BM25F score of a term in each entry whose field holds it: {docs, values, places} (null while its terms
  // file is not in).
  function termScores(field, term) {
    var key = field + " " + term;
    var kept = SCORES.get(key);
    if (kept) return kept;
    var all = postingsOf(term);
    if (!all) return null;
    var postings = all[FIELD_NAMES.indexOf(field)];
    kept = { docs: postings.docs, values: [], places: postings.places };
    // (as rulebot.search.scoring: the term's frequency in the fields analysed as this one, where it is highest)
    var analysed = R.FIELDS[FIELD_NAMES.indexOf(field)][1], frequency = 0;
    R.FIELDS.forEach(function (kin, i) {
      if (kin[1] === analysed) frequency = Math.max(frequency, all[i].docs.length);
    });
    var idf = Math.log(S.documents / (frequency + 1)) + 1;
    var average = S.lengths[field] || 1;
    var kFixed = R.K1 * (1 - R.B), kLength = R.K1 * R.B / average;
    var scale = idf * (R.K1 + 1), boost = R.FIELD_BOOSTS[field];
    for (var i = 0; i < postings.docs.length; i++) {
      var weight = Math.fround(postings.places[i].length * boost);
      kept.values.push(scale * weight / (weight + (kFixed + kLength * storedLength(postings.lengths[i]))));
    }
    if (SCORES.size > 5000) SCORES.clear();
    SCORES.set(key, kept);
    return kept;
  }

  var NO_SCORES = { docs: [], values: [], places: [] };

  // -- the searcher (rulebot.search.ranking.Searcher) -------------------------------------

  // One question's look-ups: the games searched, close spellings.
  function Searcher(slugs) {
    this.slugs = slugs;  // the games searched
    this.spelling = new Map();
    this.baseOnly = new Set();  // the games whose base game alone the question asks about
    this.beyond = 0;  // 1 when the question asks for a player count (rulebot.search.signals.name_bonus)
    this.baseOf = null;  // the game searched now, when its expansions' entries are left out
  }

  // A clause's scores: {docnum: score} for the documents it matches among the searched games.
  Searcher.prototype.clauseScores = function (clause, among) {
    var scores = new Map();
    var games = new Set(clause.within ? this.slugs.filter(function (s) { return clause.within.has(s); }) : this.slugs);
    if (clause.words.length === 1) {
      var kept = termScores(clause.field, clause.words[0]) || NO_SCORES;
      for (var i = 0; i < kept.docs.length; i++) {
        var docnum = kept.docs[i];
        if (!games.has(GAME_OF[docnum]) || (among && !among.has(docnum))) continue;
        scores.set(docnum, clause.weight === 1 ? kept.values[i] : clause.weight * kept.values[i]);
      }
    } else {
      this.phraseScores(clause, games, among, scores);
    }
    return scores;
  };

  // Entries whose field holds a phrase's words in order, each 1 to `slop` places after the one before:
  // the sum of the words' scores (rulebot.search.scoring.BM25F._phrase_scores).
  Searcher.prototype.phraseScores = function (clause, games, among, scores) {
    var each = clause.words.map(function (word) {
      var kept = termScores(clause.field, word) || NO_SCORES, map = new Map();
      for (var i = 0; i < kept.docs.length; i++) map.set(kept.docs[i], [kept.values[i], kept.places[i]]);
      return map;
    });
    each[0].forEach(function (_value, docnum) {
      if (!games.has(GAME_OF[docnum]) || (among && !among.has(docnum))) return;
      if (!each.every(function (map) { return map.has(docnum); })) return;
      if (!inOrder(each.map(function (map) { return map.get(docnum)[1]; }), clause.slop)) return;
      var sum = 0;
      each.forEach(function (map) { sum += map.get(docnum)[0]; });
      scores.set(docnum, clause.weight === 1 ? sum : sum * clause.weight);
    });
  };

  function inOrder(places, slop) {
    var reached = places[0];
    for (var i = 1; i < places.length; i++) {
      reached = places[i].filter(function (q) { return reached.some(function (p) { return q - p >= 1 && q - p <= slop; }); });
      if (!reached.length) return false;
    }
    return true;
  }

  // The scores of the question's units (rulebot.search.scoring.BM25F.score): per unit, per field, the best alternative; summed.
  Searcher.prototype.score = function (units, eligible) {
    var self = this, byUnit = [], parts = [];
    units.forEach(function (unit) {
      var fields = unit.map(function (alternatives) {
        var highest = new Map();
        alternatives.forEach(function (clause) {
          self.clauseScores(clause, null).forEach(function (value, docnum) {
            if (!eligible.has(GAME_OF[docnum]) || (self.baseOf && OF_EXPANSION[docnum])) return;
            if (value > (highest.get(docnum) || 0)) highest.set(docnum, value);
          });
        });
        return highest;
      });
      byUnit.push(fields);
      fields.forEach(function (part) { if (part.size) parts.push(part); });
    });
    // The parts that can add the most first, as rulebot.search.scoring adds them up.
    var tops = parts.map(function (part) { var top = 0; part.forEach(function (v) { if (v > top) top = v; }); return top; });
    var sorted = parts.map(function (_part, i) { return i; }).sort(function (a, b) { return tops[b] - tops[a]; });
    var totals = new Map();
    sorted.forEach(function (i) {
      parts[i].forEach(function (value, docnum) { totals.set(docnum, (totals.get(docnum) || 0) + value); });
    });
    return {
      totals: totals,
      unitsMatched: function (docnum) {
        return byUnit.filter(function (fields) { return fields.some(function (part) { return part.has(docnum); }); }).length;
      },
      unitsAbsent: function () {
        var at = [];
        byUnit.forEach(function (fields, i) { if (fields.every(function (part) { return !part.size; })) at.push(i); });
        return at;
      }
    };
  };

  // The best-scored documents, best first; on a tie, the earlier document.
  function best(scores, count) {
    var docnums = Array.from(scores.keys());
    docnums.sort(function (a, b) { return scores.get(b) - scores.get(a) || a - b; });
    return docnums.slice(0, count);
  }

  // -- the question ----------------------------------------------------------------------

  // As rulebot.search.question.clean_question: a terminal's escapes dropped whole, a control or invisible format
  // character inside a word dropped (the word stays whole), one that parts words a space.
  var TERMINAL_ESCAPE = /\x1b(?:\[[0-?]*[ -\/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
  var SPACING_CONTROLS = /[\t\n\x0b\x0c\r\x1c-\x1f\x85]/g;
  function cleanQuestion(question) {
    // (a lone surrogate is "?" first, as Python's encoding with "replace" makes it, then the escapes go)
    var text = String(question).slice(0, R.MAX_QUESTION_CHARS).replace(/[\ud800-\udfff]/gu, "?").replace(TERMINAL_ESCAPE, "").normalize("NFKC");
    text = text.replace(SPACING_CONTROLS, " ").replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\p{C}/gu, " ");
    return collapse(text);
  }

  // Whether the French fields of the corpus have a word and the English ones never do.
  function onlyFrench(word) {
    if (A.filler.has(word) || isNumber(word)) return false;
    var english = terms("english", word);
    if (!english.length || lexiconOf(english[0]).body.has(english[0]) || lexiconOf(english[0]).english.has(english[0])) return false;
    var french = terms("french", word);
    return french.length > 0 && lexiconOf(french[0]).french.has(french[0]);
  }

  // Every game's terms a question's words are looked up in (the lexicon), in parts by their first letter
  // (search_data.lexicon_part): the body's with how many entries hold each (close spellings of unknown words), the
  // names' words with how many entries have each (the index's `names` field), and those of the other English fields
  // and of the French ones (is a word only French?). Null while the part is not in.
  var LEXICON = new Map();

  // The part of the lexicon a word is in: its first letter or digit, "_" for any other (search_data.lexicon_part).
  function lexiconPart(word) {
    var first = word.charAt(0);
    return /^[a-z0-9]$/.test(first) ? first : "_";
  }

  function lexicon(word) {
    var part = lexiconPart(word);
    var words = LEXICON.get(part), data = DATA["lexicon:" + part];
    if (words) return words;
    if (!data) {
      lacking.add("_search/lexicon-" + part + ".js");
      lackingWords = true;
      return null;
    }
    words = { body: new Map(), names: new Map(), english: new Set(), french: new Set() };
    var list = function (text) { return text ? text.split(" ") : []; };
    var df = decode(data.df), namesDf = decode(data.names_df);
    list(data.body).forEach(function (term, i) { words.body.set(term, df[i]); });
    list(data.names).forEach(function (term, i) { words.names.set(term, namesDf[i]); });
    list(data.english).forEach(function (term) { words.english.add(term); });
    list(data.french).forEach(function (term) { words.french.add(term); });
    LEXICON.set(part, words);
    return words;
  }

  var NO_WORDS = { body: new Map(), names: new Map(), english: new Set(), french: new Set() };

  // The lexicon's part of a word, empty while it is not in (the question is asked again once it is).
  function lexiconOf(word) {
    return lexicon(word) || NO_WORDS;
  }

  function languageOf(text, list) {
    var evidence = frenchEvidence(text);
    if (evidence < 2 && list.some(onlyFrench)) evidence = 2;
    return evidence >= 2 ? "fr" : "en";
  }

  // Written in the digits 0 to 9 only (rulebot.search.question.is_number).
  function isNumber(word) {
    return /^[0-9]+$/.test(word);
  }

  // Whether an alternative of a unit is a term and a placeholder, for the number the unit is (question.is_placeholder).
  function isPlaceholder(unit, alt) {
    return alt.length === 2 && R.PLACEHOLDERS.indexOf(alt[1]) >= 0 && isNumber(unit.words[unit.words.length - 1]);
  }

  // Group the words of a question into units, dropping question filler; the runs of typed words `apart` (a set of
  // them joined by spaces) are no one unit (rulebot.search.question.make_units).
  function makeUnits(list, table, apart) {
    var stemsOf = list.map(stem), units = [], i = 0;
    while (i < list.length) {
      var matched = false;
      for (var size = Math.min(table.longest, list.length - i); size > 0; size--) {
        var group = table.get(stemsOf.slice(i, i + size).join(" "));
        if (group === undefined) continue;
        var typed = list.slice(i, i + size), key = typed.join(" ");
        if (size === 1 || !apart || !apart.has(key)) {
          units.push({ words: typed, alternatives: [typed].concat(group.filter(function (g) { return g.join(" ") !== key; })) });
          i += size;
          matched = true;
          break;
        }
      }
      if (!matched) {
        units.push({ words: [list[i]], alternatives: [[list[i]]] });
        i++;
      }
    }
    // "crew 3": a number after a term is the term's value, which a rule writes "Crew N" (question.make_units).
    for (var at = 1; at < units.length; at++) {
      var number = units[at], before = units[at - 1], last = before.words[before.words.length - 1];
      if (number.words.length !== 1 || !/^[0-9]{1,2}$/.test(number.words[0]) || A.filler.has(last)) continue;
      // (no value of a number or of its other words: "deux 3")
      if (before.alternatives.some(function (alt) { return alt.some(isNumber); })) continue;
      var valued = [];
      before.alternatives.forEach(function (alt) {
        var term = alt[alt.length - 1];
        if (!isNumber(term) && valued.indexOf(term) < 0) valued.push(term);
      });
      var placed = [];
      valued.slice(0, R.MAX_VALUED_TERMS).forEach(function (term) { R.PLACEHOLDERS.forEach(function (p) { placed.push([term, p]); }); });
      units[at] = { words: number.words, alternatives: number.alternatives.concat(placed) };
    }
    var content = units.filter(function (u) { return !(u.words.length === 1 && A.filler.has(u.words[0]) && u.alternatives.length === 1); });
    return content.length ? content : units;
  }

  // -- close spellings (rulebot.search.spelling.Spellings) ---------------------------------

  Searcher.prototype.known = function (word) {
    if (word.length < 4 || isNumber(word)) return true;
    if (lexiconOf(word).names.get(word)) return true;
    return terms("english", word).some(function (term) { return lexiconOf(term).body.has(term); });
  };

  Searcher.prototype.closeSpellings = function (word) {
    var found = this.spelling.get(word);
    if (found) return found;
    found = word.length > R.MAX_TYPO_WORD || this.known(word) ? [] : this.corrections(word);
    this.spelling.set(word, found);
    return found;
  };

  Searcher.prototype.corrections = function (word) {
    var names = closeIn("names", word, word);
    var texts = closeIn("body", stem(word), word).filter(function (w) { return names.indexOf(w) < 0; });
    return names.concat(texts).slice(0, 3).map(function (w) { return [w]; });
  };

  // A field's terms ("names" or "body") close to `typed` (the word, or its stem for the texts), `typed` itself left
  // out: the closest to the word first, then the most frequent (spelling.Spellings._close_in). A close spelling
  // begins with the word's letter: it is in the word's part of the lexicon.
  function closeIn(field, typed, word) {
    var max = maxEdits(word), found = [];
    lexiconOf(typed)[field].forEach(function (count, candidate) {
      if (candidate !== typed && candidate[0] === typed[0] && distance(candidate, typed, max) <= max) {
        found.push([candidate, distance(candidate, word, 64), count]);
      }
    });
    found.sort(function (a, b) { return a[1] - b[1] || b[2] - a[2] || compare(a[0], b[0]); });
    return found.map(function (f) { return f[0]; });
  }

  // "Did you mean": the question as typed, each unknown word of its first MAX_UNITS spelled as the closest word of a
  // name of the answer's `first` entries; [] when none is. A word the question's language, the vocabulary or a
  // game's name knows is left alone (rulebot.search.spelling.Spellings.suggestions).
  Searcher.prototype.suggestions = function (text, first) {
    var self = this, corrections = new Map(), vocabulary = phraseStems(this.language), named = gameWords();
    // A typo is respelled only as a word of the names of the answer's first entries (constants.RESPELLED_FROM).
    var answered = new Set();
    first.forEach(function (hit) {
      [hit.entry.title].concat(hit.entry.aliases.map(function (alias) { return alias.text; })).forEach(function (name) {
        terms("names", name).forEach(function (term) { answered.add(term); });
      });
    });
    // (the first MAX_UNITS words that are no filler, as the search reads no further)
    var content = words(text).filter(function (word) { return !A.filler.has(word); }).slice(0, R.MAX_UNITS);
    content.forEach(function (word) {
      if (corrections.has(word) || named.has(word) || self.said(word, vocabulary)) return;
      var options = self.named(word).filter(function (option) { return answered.has(option); });
      if (options.length) corrections.set(word, options[0]);
    });
    if (!corrections.size) return [];
    return [text.replace(WORD, function (typed) { return asTyped(typed, corrections.get(fold(typed))); })];
  };

  // A word of a question respelled in the case it was typed in (spelling._as_typed).
  function asTyped(typed, respelled) {
    if (respelled === undefined) return typed;
    if (typed !== typed.toLowerCase() && typed === typed.toUpperCase()) return respelled.toUpperCase();
    if (typed.charAt(0) !== typed.charAt(0).toLowerCase()) return respelled.charAt(0).toUpperCase() + respelled.slice(1);
    return respelled;
  }

  // How many edits a typo of a word may be from it: one up to six letters, two beyond (spelling.max_edits).
  function maxEdits(word) {
    return word.length <= 6 ? 1 : 2;
  }

  // Whether a word of a question is one its language or the vocabulary knows (Spellings._said).
  Searcher.prototype.said = function (word, vocabulary) {
    if (A.filler.has(word) || A.expansionWords.has(word) || vocabulary.has(stem(word))) return true;
    if (this.language !== "fr") return false;
    if (A.foldedFrenchStops.has(word)) return true;
    return terms("french", word).some(function (term) { return lexiconOf(term).french.has(term); });
  };

  // The words of names close to a word unknown to the corpus, closest and most frequent first (Spellings.named).
  Searcher.prototype.named = function (word) {
    return this.closeSpellings(word).length ? closeIn("names", word, word) : [];
  };

  // The words of the games' names and aliases and of their expansions' names (QuestionReader.game_words).
  function gameWords() {
    if (!GAME_WORDS) {
      GAME_WORDS = new Set();
      S.order.forEach(function (slug) {
        var game = gameSettings(slug);
        game.names.concat(game.expansions.map(function (e) { return e.name; })).forEach(function (name) {
          name.forEach(function (w) { GAME_WORDS.add(w); });
        });
      });
    }
    return GAME_WORDS;
  }

  // -- asking (rulebot.search.ranking.Searcher.ask) -----------------------------------------

  // What a unit may match, per field: alternatives (rulebot.search.query.Clauses.of_unit).
  Searcher.prototype.unitClauses = function (unit, acrossGames) {
    var self = this, alternatives = [[unit.alternatives[0], 1, null]];
    unit.alternatives.slice(1).forEach(function (alt) {
      alternatives.push([alt, R.SYNONYM_WEIGHT[self.language], acrossGames ? self.scope(unit, alt) : null]);
    });
    if (unit.words.length === 1) {
      this.closeSpellings(unit.words[0]).forEach(function (c) { alternatives.push([c, R.CORRECTION_WEIGHT, null]); });
    }
    var byField = new Map(), seen = new Set();
    alternatives.forEach(function (item, number) {
      var made = {}, whole = isPlaceholder(unit, item[0]) ? item[0].length : 1;
      R.FIELDS.forEach(function (field) {
        var name = field[0], analysedAs = field[1], typedOnly = field[2];
        if (typedOnly && number) return;
        if (!made[analysedAs]) made[analysedAs] = terms(analysedAs, item[0].join(" "));
        // A term and its placeholder match as both or not at all (in French "n" is a stop word).
        var found = made[analysedAs], key = name + " " + found.join(" ");
        if (found.length >= whole && !seen.has(key)) {
          seen.add(key);
          if (!byField.has(name)) byField.set(name, []);
          byField.get(name).push({ field: name, words: found, weight: item[1], slop: 1, within: item[2] });
        }
      });
    });
    return Array.from(byField.values());
  };

  // The games a synonym of a unit may match in, when no game is chosen: those whose vocabulary has it (null: all;
  // a placeholder, N or X, is every game's).
  Searcher.prototype.scope = function (unit, alternative) {
    var key = unit.words.map(stem).join(" "), wanted = alternative.join(" "), language = this.language;
    if (isPlaceholder(unit, alternative)) return null;
    var owners = S.order.filter(function (slug) {
      return (tableOf(slug, language).get(key) || []).some(function (m) { return m.join(" ") === wanted; });
    });
    return owners.length === S.order.length ? null : new Set(owners);
  };

  Searcher.prototype.proximity = function (units) {
    var out = [];
    if (units.length > R.PROXIMITY_UNITS) return out;
    for (var i = 0; i + 1 < units.length; i++) {
      var left = units[i], right = units[i + 1];
      if (left.words.length !== 1 || right.words.length !== 1) continue;
      var found = terms("english", left.words[0] + " " + right.words[0]);
      if (found.length === 2) {
        Object.keys(R.PROXIMITY_SLOP).forEach(function (name) {
          out.push({ field: name, words: found, weight: R.PROXIMITY_WEIGHT, slop: R.PROXIMITY_SLOP[name], within: null });
        });
      }
    }
    return out;
  };

  // What a unit stands for (rulebot.search.signals.meaning): a synonym of several words means a name only whole.
  Searcher.prototype.meaning = function (unit) {
    var said = new Set(unit.words.map(stem));
    if (unit.words.length === 1) this.closeSpellings(unit.words[0]).forEach(function (c) { said.add(stem(c[0])); });
    var meant = new Set(said), phrases = [];
    unit.alternatives.slice(1).forEach(function (alt) {
      if (isPlaceholder(unit, alt)) return;  // "crew 3": the number gives the term a value, it does not name it
      var stems = nameStems(alt.join(" "));  // as a name's stems are made: no question filler
      if (stems.length === 1) meant.add(stems[0]);
      else if (stems.length) phrases.push(stems);
    });
    return { said: said, meant: meant, phrases: phrases };
  };

  // The stems of a name (a Set) a unit means (rulebot.search.signals._meant_in).
  function meantIn(meaning, name) {
    var found = new Set();
    meaning.meant.forEach(function (s) { if (name.has(s)) found.add(s); });
    meaning.phrases.forEach(function (phrase) {
      if (phrase.every(function (s) { return name.has(s); })) phrase.forEach(function (s) { found.add(s); });
    });
    return found;
  }

  // Search for the units in one game (or all when slug is null): the best candidates by their words, with what
  // their features are made of (rulebot.search.ranking.Searcher._search); they are scored in ask.
  Searcher.prototype.search = function (typed, table, slug) {
    var self = this, units, proximity, found, absent, apart = new Set();
    var eligible = new Set(slug ? [slug] : this.slugs);
    // A game's search leaves its expansions' entries out when the question is about its base game alone (as
    // rulebot.search.ranking.Searcher._eligible does); a search of every game, after (_search_everywhere).
    this.baseOf = slug && this.baseOnly.has(slug) ? slug : null;
    for (;;) {
      units = makeUnits(typed, table, apart).slice(0, R.MAX_UNITS);
      proximity = this.proximity(units);
      found = this.score(units.map(function (unit) { return self.unitClauses(unit, !slug); }), eligible);
      if (lackingTerms) return [];  // (what no entry holds is only known once every term's postings are in)
      // A synonym phrase of several typed words that no entry holds is searched again as its words
      // (rulebot.search.ranking.Searcher._search).
      absent = found.unitsAbsent();
      var unfound = absent.filter(function (at) { return units[at].words.length > 1; });
      if (!unfound.length) break;
      unfound.forEach(function (at) { apart.add(units[at].words.join(" ")); });
    }
    var meanings = {}, heard = {};  // per game: what each unit says and may mean; what the units say, typed or spelt close
    var pool = found.totals;
    if (proximity.length) {
      var kept = best(pool, R.PROXIMITY_POOL);
      pool = new Map(kept.map(function (docnum) { return [docnum, found.totals.get(docnum)]; }));
      var among = new Set(kept);
      proximity.forEach(function (clause) {
        self.clauseScores(clause, among).forEach(function (value, docnum) { pool.set(docnum, pool.get(docnum) + value); });
      });
    }
    // The share of the units found in no entry (of the games searched): what the sources never mention.
    var absentShare = units.length ? absent.length / units.length : 0;
    // The candidates are known once every term's postings are in; then their entries are needed.
    if (lackingTerms) return [];
    var candidates = best(pool, R.CANDIDATES), entries = candidates.map(entryAt);
    if (entries.indexOf(null) >= 0) return [];
    return candidates.map(function (docnum, at) {
      var coverage = units.length ? found.unitsMatched(docnum) / units.length : 0;
      var entry = entries[at], game = entry.game.slug;
      if (!meanings[game]) {
        var own = slug ? units : makeUnits(typed, tableOf(game, self.language), apart).slice(0, R.MAX_UNITS);
        meanings[game] = own.map(function (unit) { return self.meaning(unit); });
        heard[game] = new Set();
        meanings[game].forEach(function (m) { m.said.forEach(function (s) { heard[game].add(s); }); });
      }
      var bonus = nameBonus(entry, meanings[game], R.SYNONYM_NAME_SHARE[self.language], self.beyond);
      return {
        id: entry.id, game: game, entry: entry, score: pool.get(docnum), coverage: bonus === R.EXACT_NAME ? 1 : coverage, meanings: meanings[game],
        found: { bm25: pool.get(docnum), coverage: coverage, bonus: bonus, absent: absentShare, split: apart.size > 0, heard: heard[game] }
      };
    });
  };

  // beyond: 1 when the question asks for a player count, which no name covers (rulebot.search.signals.name_bonus).
  function nameBonus(entry, meanings, synonymShare, beyond) {
    if (!meanings.length) return 1;
    var said = new Set(), reach = new Set();
    meanings.forEach(function (m) {
      m.said.forEach(function (s) { said.add(s); });
      m.meant.forEach(function (s) { reach.add(s); });
      m.phrases.forEach(function (phrase) { phrase.forEach(function (s) { reach.add(s); }); });
    });
    var top = 1;
    entry.nameStems.forEach(function (name) {
      // (a name with a stem no unit may mean is not named: most are left at that)
      if (!name.length || !name.every(function (s) { return reach.has(s); })) return;
      if (name.reduce(function (sum, s) { return sum + s.length; }, 0) < R.MIN_NAME_LETTERS) return;
      var stems = new Set(name), meant = new Set();
      var perUnit = meanings.map(function (m) { return meantIn(m, stems); });
      perUnit.forEach(function (found) { found.forEach(function (s) { meant.add(s); }); });
      if (!name.every(function (s) { return meant.has(s); })) return;
      var covered = perUnit.filter(function (found) { return found.size > 0; }).length, asked = meanings.length + beyond;
      var bonus = covered === asked ? R.EXACT_NAME : R.NAMED_LIFT[0] + (R.NAMED_LIFT[1] - R.NAMED_LIFT[0]) * covered / asked;
      var typed = name.filter(function (s) { return said.has(s); }).length / name.length;
      top = Math.max(top, 1 + (bonus - 1) * (typed + (1 - typed) * synonymShare));
    });
    return top;
  }

  function byScore(a, b) {
    return b.score - a.score || compare(a.id, b.id);
  }

  // Where the question says one of a game's names (longest first), as [at, words], or null (question.name_at):
  // as written, or with a typo or two when long enough (NAME_TYPO_LETTERS), at most one a word, each word
  // beginning as the name's does; a name of one word in another form (its stem) is a word of the rules ("catalysts").
  function nameAt(list, names) {
    for (var i = 0; i < names.length; i++) {
      var name = names[i], at = findPhrase(list, name);
      if (at >= 0) return [at, name.length];
      var letters = name.reduce(function (sum, w) { return sum + w.length; }, 0);
      var edits = R.NAME_TYPO_LETTERS.filter(function (least) { return letters >= least; }).length;
      for (at = 0; edits && at + name.length <= list.length; at++) {
        var apart = [];
        for (var j = 0; j < name.length; j++) {
          var w = list[at + j], n = name[j];
          if (w.charAt(0) !== n.charAt(0) || Math.abs(w.length - n.length) > 1) break;
          apart.push(distance(w, n, 1));
        }
        if (apart.length === name.length && Math.max.apply(null, apart) <= 1 &&
            apart.reduce(function (sum, d) { return sum + d; }, 0) <= edits &&
            (name.length > 1 || stem(list[at]) !== stem(name[0]))) return [at, name.length];
      }
    }
    return null;
  }

  Searcher.prototype.namedGames = function (list) {
    return S.order.filter(function (slug) { return nameAt(list, gameSettings(slug).names) !== null; });
  };

  Searcher.prototype.withoutGameName = function (list, slug) {
    var names = gameSettings(slug).names;
    for (var i = 0; i < names.length; i++) {
      var found = nameAt(list, [names[i]]);
      if (found === null) continue;
      var at = found[0], size = found[1];
      if ((at === 0 || at + size === list.length) && list.length > size) return list.slice(0, at).concat(list.slice(at + size));
    }
    return list;
  };

  // The words, each unknown to the corpus and one edit from one word of the vocabulary (`table`: of the game asked
  // about, or of every game) read as that word; a word close to several that mean different things stays as typed
  // (QuestionReader._respelled, VOCABULARY_TYPO_LETTERS).
  Searcher.prototype.respelled = function (list, table) {
    var self = this;
    var meaning = function (members) { return members.map(function (m) { return m.join(" "); }).sort(compare).join(","); };
    return list.map(function (word) {
      if (word.length < R.VOCABULARY_TYPO_LETTERS || table.has(stem(word)) || self.knownWord(word)) return word;
      if (!table.oneWord) {  // (made for the first word that needs it: most questions have none)
        var seen = new Set();
        table.forEach(function (members) { members.forEach(function (m) { if (m.length === 1) seen.add(m[0]); }); });
        table.oneWord = Array.from(seen).sort(compare);
      }
      var close = table.oneWord.filter(function (w) { return w.charAt(0) === word.charAt(0) && distance(word, w, 1) === 1; });
      var meanings = new Set(close.map(function (w) { return meaning(table.get(stem(w)) || []); }));
      if (meanings.size !== 1) return word;
      // (of words alike in meaning, the one most entries' names have: the names field matches a word as typed)
      var names = function (w) { return lexiconOf(w).names.get(w) || 0; };
      return close.reduce(function (best, w) { return names(w) > names(best) ? w : best; });
    });
  };

  // Whether a word is one of a question's grammar (question filler, an English or French stop word), of a game's
  // name, or one an entry has in either language (QuestionReader._known_word).
  Searcher.prototype.knownWord = function (word) {
    var english = terms("english", word);
    if (A.filler.has(word) || A.foldedFrenchStops.has(word) || !english.length) return true;
    if (gameWords().has(word) || lexiconOf(word).names.get(word)) return true;
    if (english.some(function (term) { return lexiconOf(term).body.has(term); })) return true;
    return terms("french", word).some(function (term) { return lexiconOf(term).french.has(term); });
  };

  Searcher.prototype.namedExpansions = function (list, slug) {
    var found = new Set(), phrases = [];
    makeUnits(list, tableOf(slug, this.language)).forEach(function (unit) { phrases = phrases.concat(unit.alternatives); });
    gameSettings(slug).expansions.forEach(function (expansion) {
      var name = expansion.name, key = name.join(" ");
      if (phrases.some(function (p) { return p.join(" ") === key || (p.length >= name.length && findPhrase(p, name) >= 0); }) || findPhrase(list, name) >= 0) {
        found.add(expansion.slug);
      }
    });
    return found;
  };

  Searcher.prototype.withoutExpansionNames = function (list, slug) {
    gameSettings(slug).expansions.forEach(function (expansion) {
      var at = findPhrase(list, expansion.name);
      if (at >= 0 && list.length > expansion.name.length) list = list.slice(0, at).concat(list.slice(at + expansion.name.length));
    });
    return list;
  };

  Searcher.prototype.searchEverywhere = function (list) {
    var baseOnly = this.baseOnly;
    return this.search(list, allTable(this.language), null).filter(function (hit) {
      return !(baseOnly.has(hit.game) && hit.entry.expansion !== null);
    });
  };

  // The question's words without the phrase by which it says it is about the base game alone, or null when it says
  // none (rulebot.search.question._without_base_game): "base game" alone only when `bare` (a game given or named).
  function withoutBaseGame(list, bare) {
    var phrases = bare ? A.baseGamePhrases.bare : A.baseGamePhrases.only;
    for (var k = 0; k < phrases.length; k++) {
      var phrase = phrases[k], at = findPhrase(list, phrase);
      if (at < 0) continue;
      var rest = list.slice(0, at).concat(list.slice(at + phrase.length));
      if (rest.some(function (w) { return A.expansionWords.has(w); }) || rest.every(function (w) { return A.filler.has(w); })) return null;
      return rest;
    }
    return null;
  }

  // The ranking model (rulebot.search.features): a candidate's feature vector (describe), its score, and the
  // probability that the first answer is right (evidence, probability), by the weights of R.MODEL.
  function makeContext(list, intent, named, terms) {
    return {
      content: intent.quantity ? contentStems(list) : new Set(),
      players: intent.players,
      said: new Set(nameStems(list.join(" "))),
      named: named,
      terms: terms
    };
  }

  function sameSet(list, set) {
    var own = new Set(list);
    if (own.size !== set.size) return false;
    var same = true;
    own.forEach(function (s) { if (!set.has(s)) same = false; });
    return same;
  }

  function overlap(one, other) {
    if (!one.size || !other.size) return 0;
    var shared = 0, union = new Set(one);
    other.forEach(function (s) { if (one.has(s)) shared++; union.add(s); });
    return shared / union.size;
  }

  function describe(hit, context) {
    var entry = hit.entry, found = hit.found, said = context.said;
    var names = entry.nameStems.concat(entry.askedStems);
    var exact = said.size && names.some(function (name) { return sameSet(name, said); }) ? 1 : 0;
    var near = 0;
    entry.askedStems.forEach(function (line) { near = Math.max(near, overlap(said, new Set(line))); });
    var quantity = 0;
    if (context.content.size) {
      var stated = 0;
      context.content.forEach(function (s) { if (entry.counted.has(s)) stated++; });
      quantity = stated / context.content.size;
    }
    var named = context.named[hit.game] || new Set(), expansion = entry.expansion;
    var covered = Math.log(R.UNCOVERED_SHARE + (1 - R.UNCOVERED_SHARE) * Math.pow(found.coverage, 2));
    var vector = [
      Math.log(Math.max(found.bm25, 1e-9)),
      covered,
      Math.log(found.bonus),
      exact,
      near,
      S.trust.indexOf(entry.trust || "official"),
      context.terms ? Math.min(R.MAX_GAME_TERMS, context.terms[hit.game] || 0) : 0,
      quantity,
      context.players !== null && entry.players.indexOf(context.players) >= 0 ? 1 : 0,
      expansion !== null && named.has(expansion) ? 1 : 0,
      expansion !== null && !named.has(expansion) ? 1 : 0,
      Math.log(1 + entry.length),
      found.absent,
      entry.draft ? 1 : 0,
      entry.draft ? Math.log(found.bonus) : 0,
      entry.draft ? covered : 0,
      entry.draft && entry.defers ? 1 : 0
    ];
    R.RANKED_KINDS.forEach(function (kind) { vector.push(entry.kind === kind ? 1 : 0); });
    return vector;
  }

  function modelScore(vector) {
    var total = 0;
    R.FEATURES.forEach(function (name, i) { total += R.MODEL.rank[name] * vector[i]; });
    return Math.exp(total);
  }

  function margin(top, other) {
    return other <= 0 ? R.MAX_MARGIN : Math.min(R.MAX_MARGIN, Math.log(top / other));
  }

  function evidence(ranked, context, others, unstated, split, heard) {
    var top = ranked[0], unrelated = 0, linkedTop = 0;
    // (a change of it or the rule it changes is another entry)
    var alone = ranked.slice(1).every(function (hit) { return hit.id === top.id; });
    ranked.slice(1).forEach(function (hit) {
      if (hit.id === top.id || changes(top, hit) || changes(hit, top)) return;
      if (linked(top, hit)) linkedTop = Math.max(linkedTop, hit.score);
      else unrelated = Math.max(unrelated, hit.score);
    });
    var at = function (name) { return top.features[R.FEATURES.indexOf(name)]; };
    var long = lettered(context.said);
    return [
      1, top.coverage * margin(top.score, unrelated), top.coverage * margin(top.score, linkedTop), top.coverage, at("words"), at("name"), at("exact"),
      at("asked"), at("quantity"), unstated ? 1 : 0, others ? 1 : 0, top.entry.draft ? 1 : 0, (1 - top.coverage) * context.said.size,
      at("absent"), split ? 1 : 0,
      alone && !(at("name") || asksIt(top.entry, context.said) || namesAny(top.entry, heard)) ? 1 : 0,
      context.said.size === 1 && !(at("name") || at("exact") || asksIt(top.entry, long) || namesAny(top.entry, long)) ? 1 : 0
    ];
  }

  // The stems of at least MIN_NAME_LETTERS letters (rulebot.search.features._lettered).
  function lettered(stems) {
    return new Set(Array.from(stems).filter(function (s) { return s.length >= R.MIN_NAME_LETTERS; }));
  }

  // Whether one of the questions an entry answers holds every stem a question says (rulebot.search.features._asks_it).
  function asksIt(entry, said) {
    var wanted = Array.from(said);
    return wanted.length > 0 && entry.askedStems.some(function (line) {
      return wanted.every(function (s) { return line.indexOf(s) >= 0; });
    });
  }

  // Whether one of an entry's names holds one of these stems (rulebot.search.features._names_any).
  function namesAny(entry, stems) {
    return entry.nameStems.some(function (name) { return name.some(function (s) { return stems.has(s); }); });
  }

  // Whether one of the features that keep an answer from being stood by holds (rulebot.search.features.vetoed).
  function vetoed(vector) {
    return !vector || R.VETOES.some(function (name) { return vector[R.CONFIDENCE.indexOf(name)]; });
  }

  // Whether an answer this likely right, of these confidence features, is stood by (rulebot.search.features.confident):
  // from the threshold of its first entry's sort (an imported draft has its own) and the coverage floor; a question
  // word for word one of its names, with nothing unrelated close (NAMED_MARGIN), whatever its probability.
  function isConfident(chance, vector) {
    if (!vector || vetoed(vector) || !(vector[R.CONFIDENCE.indexOf("coverage")] > R.MODEL.min_coverage)) return false;
    if (vector[R.CONFIDENCE.indexOf("exact")] && vector[R.CONFIDENCE.indexOf("margin")] >= R.NAMED_MARGIN) return true;
    return chance >= (vector[R.CONFIDENCE.indexOf("draft")] ? R.MODEL.draft_threshold : R.MODEL.threshold);
  }

  // The probability that the first answer is right: the logistic of drafts for a draft (features.probability).
  function probability(vector) {
    var total = 0, weights = vector[R.CONFIDENCE.indexOf("draft")] ? R.MODEL.draft_confidence : R.MODEL.confidence;
    R.CONFIDENCE.forEach(function (name, i) { total += weights[name] * vector[i]; });
    return total > -700 ? 1 / (1 + Math.exp(-total)) : 0;
  }

  // The entries an entry links to, by document number.
  function links(entry) {
    return new Set(entry.seeAlso.concat(entry.modifies, entry.modifiedBy.map(function (m) { return m.docnum; })));
  }

  function linked(one, other) {
    return links(one.entry).has(other.entry.docnum) || links(other.entry).has(one.entry.docnum);
  }

  function changes(one, other) {
    return one.entry.modifies.indexOf(other.entry.docnum) >= 0;
  }

  // The results with those that make up the answer first (rulebot.search.answer.answer_first).
  function answerFirst(results) {
    if (!results.length) return results;
    var top = results[0].score, parts = results.slice(0, 1), rest = [];
    results.slice(1).forEach(function (hit) {
      var changing = parts.some(function (part) { return changes(hit, part) || changes(part, hit); });
      var isLinked = hit.score >= R.PART_SHARE * top && parts.some(function (part) { return linked(hit, part); });
      if (parts.length < R.MAX_PARTS && (changing || isLinked || hit.score >= R.CLOSE_SHARE * top)) parts.push(hit);
      else rest.push(hit);
    });
    return parts.concat(rest);
  }

  // Put the entry of an expansion the question names before the rule it changes (rulebot.search.answer.modifications_first).
  Searcher.prototype.modificationsFirst = function (hits, ordering) {
    var out = [], placed = new Set(), byDocnum = new Map(), baseOnly = this.baseOnly;
    hits.forEach(function (hit) { byDocnum.set(hit.entry.docnum, hit); });
    hits.forEach(function (hit) {
      if (placed.has(hit.entry.docnum)) return;
      hit.entry.modifiedBy.forEach(function (modifier) {
        var expansion = modifier.expansion;
        if (placed.has(modifier.docnum) || expansion === null || !(ordering[hit.game] && ordering[hit.game].has(expansion))) return;
        if (baseOnly.has(hit.game)) return;  // the expansions a question about the base game alone leaves out
        var before = byDocnum.get(modifier.docnum);
        if (!before) {
          var entry = entryAt(modifier.docnum);
          if (!entry) return;  // its entries file is asked for
          before = { id: entry.id, game: hit.game, entry: entry, score: hit.score, coverage: hit.coverage, meanings: hit.meanings, features: hit.features };
        }
        out.push(before);
        placed.add(modifier.docnum);
      });
      out.push(hit);
      placed.add(hit.entry.docnum);
    });
    return out;
  };

  // The best entry of each other game scoring at least `share` of the best answer (rulebot.search.answer.runners_up).
  function runnersUp(byGameHits, results, share) {
    var top = results[0].score, shown = results[0].game, out = [];
    byGameHits.forEach(function (hits, slug) {
      if (slug !== shown && hits.length && hits[0].score >= share * top) out.push(hits[0]);
    });
    return out;
  }

  // How many of a game's own terms the question uses (rulebot.search.question.QuestionReader.game_terms_in).
  function gameTermsIn(stemsOf, slug) {
    return gameSettings(slug).terms.filter(function (term) { return findPhrase(stemsOf, term) >= 0; }).length;
  }

  // The stems of a question's words that say what it is about (rulebot.search.signals.content_stems).
  function contentStems(list) {
    return new Set(list.filter(function (w) { return !A.filler.has(w) && numberOf(w) === null; }).map(stem));
  }

  // Whether an entry states a number for something the question counts, in the question's words or another wording
  // of its game's vocabulary (rulebot.search.signals.states_count).
  function statesCount(hit, list, table) {
    if (!hit.entry.counted.size) return false;
    var wanted = contentStems(list), found = false;
    makeUnits(list, table).forEach(function (unit) {
      unit.alternatives.slice(1).forEach(function (alt) { contentStems(alt).forEach(function (s) { wanted.add(s); }); });
    });
    wanted.forEach(function (s) { if (hit.entry.counted.has(s)) found = true; });
    return found;
  }

  // Whether a word of question filler is no word of the vocabulary of these games (of every game when none is), in
  // either language (rulebot.search.question.QuestionReader._question_word).
  function questionWord(word, games) {
    var key = stem(word);
    var tables = [];
    ["en", "fr"].forEach(function (language) {
      tables = tables.concat(games.length ? games.map(function (slug) { return tableOf(slug, language); }) : [allTable(language)]);
    });
    return !tables.some(function (table) { return table.has(key); }) &&
      !(games.length ? games : order).some(function (slug) { return gameTermsIn([key], slug) > 0; });
  }

  // Rank the entries that answer a question, best first: {results, confident, words, meanings} (rulebot.search.ranking.Searcher.ask).
  function ask(question, game) {
    var text = cleanQuestion(question);
    var list = words(text);
    if (!list.length) return null;
    var typed = list;
    var searcher = new Searcher(game ? [game] : order);
    var language = searcher.language = languageOf(text, list);
    // A question is read with the lexicon's parts of its words: until they are in, it is not searched.
    list.forEach(function (word) { searcher.closeSpellings(word); });
    if (lackingWords) return { results: [], confident: false, probability: 0, searcher: searcher, words: list, asked: list };
    var intent = readIntent(list, language);
    list = intent.words.length ? intent.words : list;
    searcher.beyond = intent.players === null ? 0 : 1;  // a player count asked: no unit, no name covers it
    var asked = list;
    var games = game ? [game] : searcher.namedGames(list);
    if (games.length === 1) list = searcher.withoutGameName(list, games[0]);
    list = searcher.respelled(list, games.length === 1 ? tableOf(games[0], language) : allTable(language));
    // Question words alone ("what", "combien ?"), a game's name none of them, ask nothing (words of the vocabulary of
    // the games asked about are no question words: rulebot.search.question.QuestionReader.read, asks_nothing).
    var asksNothing = onlyQuestionWords(text) && typed.every(function (w) { return questionWord(w, games); });
    var named = {};
    games.forEach(function (slug) { named[slug] = searcher.namedExpansions(list, slug); });
    // "base game only" leaves the expansions out of the games the question is about (of every game that has
    // expansions when it names none), unless it names an expansion (rulebot.search.question.QuestionReader.read).
    var about = (games.length ? games : order).filter(function (slug) { return gameSettings(slug).expansions.length; });
    searcher.baseOnly = new Set();
    var rest = about.length ? withoutBaseGame(list, games.length > 0) : null;
    if (rest) {
      var naming = games.length ? games.map(function (slug) { return named[slug]; }) : about.map(function (slug) { return searcher.namedExpansions(list, slug); });
      if (!naming.some(function (found) { return found.size; })) { list = rest; searcher.baseOnly = new Set(about); }
    }
    if (games.length === 1) list = searcher.withoutExpansionNames(list, games[0]);
    var byGameHits = new Map();
    if (games.length) {
      searcher.slugs = games;
      searcher.slugs.forEach(function (slug) {
        byGameHits.set(slug, searcher.search(list, tableOf(slug, language), slug));
      });
    } else {
      searcher.searchEverywhere(list).forEach(function (hit) {
        if (!byGameHits.has(hit.game)) byGameHits.set(hit.game, []);
        byGameHits.get(hit.game).push(hit);
      });
    }
    var searched = byGameHits.size ? Array.from(byGameHits.keys()) : games;
    searched.forEach(function (slug) { if (!named[slug]) named[slug] = searcher.namedExpansions(list, slug); });
    var stemsOf = list.map(stem), terms = null;
    if (!games.length) {
      terms = {};
      byGameHits.forEach(function (_hits, slug) { terms[slug] = gameTermsIn(stemsOf, slug); });
    }
    var context = makeContext(list, intent, named, terms);
    // Every candidate is scored here, by the one model, and nowhere else.
    var candidates = [];
    byGameHits.forEach(function (hits) {
      hits.forEach(function (hit) {
        hit.features = describe(hit, context);
        hit.score = modelScore(hit.features);
      });
      hits.sort(byScore);
      candidates = candidates.concat(hits);
    });
    candidates.sort(byScore);
    // The whole ranking is ordered before it is cut: its first answers are the same however many are shown.
    var ordered = answerFirst(searcher.modificationsFirst(candidates, named));
    // Only an entry they name as typed answers question words alone ("mine" a card called "Mine"): else no answer, as
    // `rulebot ask` refuses them (rulebot.search.features.named_as_typed).
    // (once what they need is in: until then, nothing found says nothing)
    var namedFirst = ordered.length && (ordered[0].features[R.FEATURES.indexOf("exact")] || namesAny(ordered[0].entry, context.said));
    if (asksNothing && !namedFirst && !lacking.size) {
      return { results: [], confident: false, probability: 0, searcher: searcher, words: list, asked: asked, refused: true };
    }
    var others = [];
    if (searched.length > 1 && ordered.length) {
      // A question with no word of any game's own terms could be about any of them.
      var generic = !searched.some(function (slug) { return gameTermsIn(stemsOf, slug) > 0; });
      // Each shown as the first answer is: the entry of an expansion in play before the rule it changes.
      others = runnersUp(byGameHits, ordered, generic ? R.GENERIC_SHARE : R.AMBIGUOUS_SHARE).map(function (hit) {
        return searcher.modificationsFirst([hit], named)[0];
      });
    }
    var chance = 0, unstated = false, split = false, evidenceOf = null;
    if (ordered.length) {
      // A count asked for is only answered by an entry that states a number for what is counted.
      unstated = intent.quantity && !statesCount(ordered[0], list, tableOf(ordered[0].game, language));
      // The words of a phrase no entry holds, searched apart, are a guess at what the rules call it.
      var ones = byGameHits.get(ordered[0].game) || [];  // (what a game's search split and heard is the same for each)
      split = ones.some(function (hit) { return hit.found.split; });
      var heard = ones.length ? ones[0].found.heard : new Set();
      evidenceOf = evidence(ordered.slice(0, 1).concat(candidates), context, others.length > 0, unstated, split, heard);
      chance = probability(evidenceOf);
    }
    // Several games answering alike, a count the first answer states no number for, an answer found by the words of
    // a phrase no entry holds, or a lone mention: none is stood by (rulebot.search.features.confident).
    var confident = isConfident(chance, evidenceOf);
    return {
      results: ordered.slice(0, MAX_RESULTS),
      confident: confident,
      suggestions: confident ? [] : searcher.suggestions(text, ordered.slice(0, R.RESPELLED_FROM)),
      probability: chance,
      searcher: searcher,
      words: list,
      asked: asked,
      baseGameOnly: Array.from(searcher.baseOnly)
    };
  }

  // Other games' entries whose title or an alias the question names, every word of it (typos allowed).
  function otherGames(answer) {
    var searcher = answer.searcher, asked = answer.asked;
    // Another game named ("res arcana illusionist" on Catalyst's page): its name is no word of its entries' names,
    // and only its entries are meant (as `rulebot ask --game` turns to the game the question names).
    var named = searcher.namedGames(asked).filter(function (slug) { return slug !== here; });
    if (named.length === 1) asked = searcher.withoutGameName(asked, named[0]);
    var content = asked.filter(function (w) { return !A.filler.has(w); });
    if (!content.length) return [];
    var said = content.map(function (w) {
      var forms = new Set([stem(w)]);
      searcher.closeSpellings(w).forEach(function (c) { forms.add(stem(c[0])); });
      return forms;
    });
    var all = new Set(), found = new Set();
    said.forEach(function (forms) { forms.forEach(function (s) { all.add(s); }); });
    // A name the question says has every stem in `all`: its first one, by which the terms files list it, too.
    var lists = Array.from(all).map(namesBy);
    if (lists.indexOf(null) >= 0) return [];  // their terms files are asked for
    lists.forEach(function (list) {
      list.forEach(function (pair) {
        var docnum = pair[0], stemsOf = pair[1];
        if (GAME_OF[docnum] === here || found.has(docnum) || (named.length === 1 && GAME_OF[docnum] !== named[0])) return;
        if (!stemsOf.length || stemsOf.join("").length < R.MIN_NAME_LETTERS) return;
        if (stemsOf.every(function (s) { return all.has(s); }) &&
            said.every(function (forms) { return stemsOf.some(function (s) { return forms.has(s); }); })) found.add(docnum);
      });
    });
    // In the site's order of the games, each game's in corpus order.
    var entries = Array.from(found).sort(function (a, b) {
      return order.indexOf(GAME_OF[a]) - order.indexOf(GAME_OF[b]) || N_OF[a] - N_OF[b];
    }).slice(0, OTHER_GAME_RESULTS).map(entryAt);
    return entries.filter(Boolean).map(function (entry) { return { entry: entry, other: true }; });
  }

  // The question's stems: what snippets and aliases are matched with.
  function saidStems(answer) {
    var out = new Set();
    answer.words.forEach(function (w) {
      out.add(stem(w));
      answer.searcher.closeSpellings(w).forEach(function (c) { out.add(stem(c[0])); });
    });
    return out;
  }

  // The answer to a question on this page: its results (this game's first on a game's page, then the other
  // games' entries it names, marked `other`), whether it is sure, and the stems it says.
  // When files it needs are not in yet, it has no results and lists them (`lacking`): the terms files of its words
  // first, then the entries files of its candidates.
  function search(query) {
    lacking = new Set();
    lackingWords = lackingTerms = false;
    var answer = ask(query, here);
    if (!answer) return null;
    var results = answer.results.map(function (hit) { return { entry: hit.entry, other: false }; });
    if (here && !lackingWords && !answer.refused) results = results.concat(otherGames(answer));
    var files = Array.from(lacking);
    if (files.length) results = [];
    return {
      results: results, confident: answer.confident, said: saidStems(answer), language: answer.searcher.language, lacking: files,
      baseGameOnly: answer.baseGameOnly || [], suggestions: files.length ? [] : answer.suggestions || [], refused: !!answer.refused
    };
  }

  // The alias a result is found by, when the question names it rather than the title: by the names' stems as the
  // index keeps them (the title's first, then each alias's; a numbered heading's without its number).
  function aliasShown(entry, said) {
    var share = function (found) {
      return found.length ? found.filter(function (s) { return said.has(s); }).length / found.length : 0;
    };
    var shown = null, top = share(entry.nameStems[0] || []);
    entry.aliases.forEach(function (alias, i) {
      var value = share(entry.nameStems[i + 1] || []);
      if (value > top) { top = value; shown = alias; }
    });
    return shown;
  }

  function snippet(entry, said) {
    if (!entry.text) return "";
    var text = entry.text, folded = fold(text), at = -1, match;
    // fold() keeps lengths for the accented letters of the corpus, so a
    // position in the folded text is (near enough) one in the text.
    var pattern = new RegExp(WORD.source, "gu");
    while (at < 0 && (match = pattern.exec(folded)) !== null && match.index < 4000) {
      if (said.has(stem(match[0]))) at = match.index;
    }
    var start = at > 60 ? text.lastIndexOf(" ", at - 50) + 1 : 0;
    var piece = text.slice(start, start + 160);
    return (start > 0 ? "\u2026" : "") + piece + (start + 160 < text.length ? "\u2026" : "");
  }

  window.RULEBOT_ENGINE = {
    update: update,
    ready: ready,
    search: search,
    snippet: snippet,
    aliasShown: aliasShown
  };

  // The browser's analysis, for scripts and tests: the terms an analysis ("english", "french", "names") makes
  // of a text, and its folded words, as rulebot.language.analysis makes them (once the search's settings are in);
  // and the files a term's postings and a word's lexicon are in (rulebot.site.search_data.shard_of, lexicon_part).
  window.RULEBOT_SEARCH = {
    terms: function (analysis, text) { return terms(analysis, text); },
    words: words,
    shard: function (term) { return shardOf(term); },
    lexiconPart: lexiconPart
  };

  update();
}());
