/*
 * The Snowball English ("Porter2") and French stemmers, for rulebot's site search.
 *
 * A port to plain JavaScript of the Snowball algorithms english.sbl and
 * french.sbl as Snowball 3.0 defines them (snowballstem.org), the
 * algorithms PyStemmer runs when rulebot builds its index: a question typed
 * in the browser is stemmed as the corpus was. The site's tests check that
 * both give the same stem for every word of the shipped corpus.
 *
 * Each routine keeps the name, the order and the conditions of the Snowball
 * one it stands for; a word is a string, and a region (R1, R2, RV) a
 * position in it. Loaded by search.js on the first use of the search box;
 * defines window.RULEBOT_STEMMERS = {english: fn, french: fn}.
 *
 * The Snowball algorithms: Copyright (c) 2001, Dr Martin Porter;
 * Copyright (c) 2004,2005, Richard Boulton; Copyright (c) 2013, Yoshiki
 * Shibukawa; Copyright (c) 2006,2007,2009,2010,2011,2014-2019, Olly Betts.
 * All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions are met:
 *   1. Redistributions of source code must retain the above copyright notice,
 *      this list of conditions and the following disclaimer.
 *   2. Redistributions in binary form must reproduce the above copyright
 *      notice, this list of conditions and the following disclaimer in the
 *      documentation and/or other materials provided with the distribution.
 *   3. Neither the name of the Snowball project nor the names of its
 *      contributors may be used to endorse or promote products derived from
 *      this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
 * AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 * IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
 * ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE
 * LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
 * CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
 * SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
 * INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
 * CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
 * ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
 * POSSIBILITY OF SUCH DAMAGE.
 */
(function (root) {
  "use strict";

  function inSet(set, c) {
    return c !== undefined && c !== "" && set.indexOf(c) >= 0;
  }

  function endsWith(s, end, suffix) {
    return end >= suffix.length && s.slice(end - suffix.length, end) === suffix;
  }

  // The longest of `list` that the text before `end` ends with, starting at `start` or later; null if none.
  function longest(s, end, list, start) {
    var found = null;
    for (var i = 0; i < list.length; i++) {
      var x = list[i];
      if (end - x.length >= (start || 0) && endsWith(s, end, x) && (found === null || x.length > found.length)) found = x;
    }
    return found;
  }

  function keys(table) {
    return Object.keys(table);
  }

  // -- English (english.sbl) ---------------------------------------------------------

  var EN_V = "aeiouy";
  var EN_V_WXY = "aeiouywxY";
  var EN_VALID_LI = "cdeghkmnrt";
  var EN_EXCEPTION1 = {
    skis: "ski", skies: "sky", idly: "idl", gently: "gentl", ugly: "ugli", early: "earli", only: "onli",
    singly: "singl", sky: "sky", news: "news", howe: "howe", atlas: "atlas", cosmos: "cosmos", bias: "bias",
    andes: "andes"
  };
  var EN_REGION_PREFIXES = ["gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ", "inter"];
  var EN_STEP_2 = {
    tional: "tion", enci: "ence", anci: "ance", abli: "able", entli: "ent", izer: "ize", ization: "ize",
    ational: "ate", ation: "ate", ator: "ate", alism: "al", aliti: "al", alli: "al", fulness: "ful",
    ousli: "ous", ousness: "ous", iveness: "ive", iviti: "ive", biliti: "ble", bli: "ble", ogist: "og",
    ogi: "og", fulli: "ful", lessli: "less", li: ""
  };
  var EN_STEP_3 = {
    tional: "tion", ational: "ate", alize: "al", icate: "ic", iciti: "ic", ical: "ic", ful: "", ness: "", ative: ""
  };
  var EN_STEP_4 = [
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous",
    "ive", "ize", "ion"
  ];
  var EN_DOUBLES = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];

  // gopast v gopast non-v, from `from`: the position after the first non-vowel that follows a vowel, or -1.
  function enPastVowelAndConsonant(s, from) {
    var i = from;
    while (i < s.length && !inSet(EN_V, s[i])) i++;
    if (i >= s.length) return -1;
    i++;
    while (i < s.length && inSet(EN_V, s[i])) i++;
    return i >= s.length ? -1 : i + 1;
  }

  function enVowelBefore(s, end) {
    for (var i = 0; i < end; i++) if (inSet(EN_V, s[i])) return true;
    return false;
  }

  // shortv, before `end`: (non-v_WXY v non-v) or (non-v v atlimit) or 'past'.
  function enShortV(s, end) {
    if (end >= 3 && !inSet(EN_V_WXY, s[end - 1]) && inSet(EN_V, s[end - 2]) && !inSet(EN_V, s[end - 3])) return true;
    if (end === 2 && !inSet(EN_V, s[1]) && inSet(EN_V, s[0])) return true;
    return endsWith(s, end, "past");
  }

  function english(word) {
    if (Object.prototype.hasOwnProperty.call(EN_EXCEPTION1, word)) return EN_EXCEPTION1[word];
    if (word.length < 3) return word;
    var s = word, yFound = false, i;
    // prelude
    if (s[0] === "'") s = s.slice(1);
    if (s[0] === "y") { s = "Y" + s.slice(1); yFound = true; }
    for (i = 1; i < s.length; i++) {
      if (s[i] === "y" && inSet(EN_V, s[i - 1])) { s = s.slice(0, i) + "Y" + s.slice(i + 1); yFound = true; }
    }
    // mark_regions
    var p1 = s.length, p2 = s.length;
    var prefix = null;
    EN_REGION_PREFIXES.forEach(function (x) {
      if (s.lastIndexOf(x, 0) === 0 && (prefix === null || x.length > prefix.length)) prefix = x;
    });
    var at = prefix !== null ? prefix.length : enPastVowelAndConsonant(s, 0);
    if (at >= 0) {
      p1 = at;
      var next = enPastVowelAndConsonant(s, at);
      if (next >= 0) p2 = next;
    }
    // Step_1a
    var suffix = longest(s, s.length, ["'s'", "'s", "'"]);
    if (suffix) s = s.slice(0, s.length - suffix.length);
    suffix = longest(s, s.length, ["sses", "ied", "ies", "s", "us", "ss"]);
    var start = suffix ? s.length - suffix.length : 0;
    if (suffix === "sses") s = s.slice(0, start) + "ss";
    else if (suffix === "ied" || suffix === "ies") s = s.slice(0, start) + (start >= 2 ? "i" : "ie");
    else if (suffix === "s" && start >= 1 && enVowelBefore(s, start - 1)) s = s.slice(0, start);
    // Step_1b
    suffix = longest(s, s.length, ["eed", "eedly", "ed", "edly", "ing", "ingly"]) || "";
    start = s.length - suffix.length;
    var handled = true;
    if (suffix === "eed" || suffix === "eedly") {
      var before = s.slice(0, start);
      if (before !== "proc" && before !== "exc" && before !== "succ" && start >= p1) s = before + "ee";
    } else if (suffix === "ing") {
      var head = s.slice(0, start);
      var ending = longest(head, head.length, ["y", "inn", "out", "cann", "herr", "earr", "even"]);
      if (ending === "y") {
        handled = head.length === 2 && !inSet(EN_V, head[0]);
        if (handled) s = head.slice(0, 1) + "ie";
      } else {
        handled = ending !== null && head === ending;
      }
    } else if (suffix !== "") {
      handled = false;  // ed, edly, ingly
    }
    if (!handled && enVowelBefore(s, start)) {
      s = s.slice(0, start);
      var end = longest(s, s.length, ["at", "bl", "iz"].concat(EN_DOUBLES));
      if (end === "at" || end === "bl" || end === "iz") {
        s += "e";
      } else if (end !== null) {
        if (!(s.length === 3 && inSet("aeo", s[0]))) s = s.slice(0, -1);
      } else if (s.length === p1 && enShortV(s, s.length)) {
        s += "e";
      }
    }
    // Step_1c
    var last = s[s.length - 1];
    if ((last === "y" || last === "Y") && s.length >= 3 && !inSet(EN_V, s[s.length - 2])) s = s.slice(0, -1) + "i";
    // Step_2
    suffix = longest(s, s.length, keys(EN_STEP_2));
    if (suffix && s.length - suffix.length >= p1) {
      start = s.length - suffix.length;
      if (suffix === "ogi") {
        if (s[start - 1] === "l") s = s.slice(0, start) + "og";
      } else if (suffix === "li") {
        if (inSet(EN_VALID_LI, s[start - 1])) s = s.slice(0, start);
      } else {
        s = s.slice(0, start) + EN_STEP_2[suffix];
      }
    }
    // Step_3
    suffix = longest(s, s.length, keys(EN_STEP_3));
    if (suffix && s.length - suffix.length >= p1) {
      start = s.length - suffix.length;
      if (suffix !== "ative" || start >= p2) s = s.slice(0, start) + EN_STEP_3[suffix];
    }
    // Step_4
    suffix = longest(s, s.length, EN_STEP_4);
    if (suffix && s.length - suffix.length >= p2) {
      start = s.length - suffix.length;
      if (suffix !== "ion" || inSet("st", s[start - 1])) s = s.slice(0, start);
    }
    // Step_5
    start = s.length - 1;
    if (s[start] === "e") {
      if (start >= p2 || (start >= p1 && !enShortV(s, start))) s = s.slice(0, start);
    } else if (s[start] === "l") {
      if (start >= p2 && s[start - 1] === "l") s = s.slice(0, start);
    }
    // postlude
    return yFound ? s.replace(/Y/g, "y") : s;
  }

  // -- French (french.sbl) -----------------------------------------------------------

  var FR_V = "aeiouy\u00e2\u00e0\u00eb\u00e9\u00ea\u00e8\u00ef\u00ee\u00f4\u00fb\u00f9";
  var FR_OUX_ENDING = "bhjlnp";
  var FR_ELISION = "cdjlmnst";
  var FR_KEEP_WITH_S = "aiou\u00e8s";
  var E_ACUTE = "\u00e9", E_GRAVE = "\u00e8", I_CIRC = "\u00ee", A_CIRC = "\u00e2", C_CEDIL = "\u00e7";

  var FR_STANDARD = [
    "ance", "iqUe", "isme", "able", "iste", "eux", "ances", "iqUes", "ismes", "ables", "istes",
    "atrice", "ateur", "ation", "atrices", "ateurs", "ations", "logie", "logies", "usion", "ution", "usions",
    "utions", "ence", "ences", "ement", "ements", "it" + E_ACUTE, "it" + E_ACUTE + "s", "if", "ive", "ifs", "ives",
    "eaux", "aux", "oux", "euse", "euses", "issement", "issements", "amment", "emment", "ment", "ments"
  ];
  var FR_I_VERB = [
    I_CIRC + "mes", I_CIRC + "t", I_CIRC + "tes", "i", "ie", "ies", "ir", "ira", "irai", "iraIent", "irais",
    "irait", "iras", "irent", "irez", "iriez", "irions", "irons", "iront", "is", "issaIent", "issais", "issait",
    "issant", "issante", "issantes", "issants", "isse", "issent", "isses", "issez", "issiez", "issions", "issons",
    "it"
  ];
  var FR_VERB_DELETE = [
    E_ACUTE, E_ACUTE + "e", E_ACUTE + "es", E_ACUTE + "s", E_GRAVE + "rent", "er", "era", "erai", "eraIent",
    "erais", "erait", "eras", "erez", "eriez", "erions", "erons", "eront", "ez", "iez"
  ];
  var FR_VERB_A = [
    A_CIRC + "mes", A_CIRC + "t", A_CIRC + "tes", "a", "ai", "aIent", "ait", "ant", "ante", "antes", "ants", "as",
    "asse", "assent", "asses", "assiez", "assions"
  ];
  var FR_VERB = ["ions"].concat(FR_VERB_DELETE, FR_VERB_A, ["ais", "aise", "aises", "eais"]);

  function frV(c) {
    return inSet(FR_V, c);
  }

  // The state of one French word: its text and its regions.
  function French(word) {
    this.s = word;
    this.pV = this.p1 = this.p2 = word.length;
  }

  French.prototype.replace = function (start, end, text) {
    this.s = this.s.slice(0, start) + text + this.s.slice(end);
  };

  French.prototype.elisions = function () {
    var s = this.s, size = 0;
    if (inSet(FR_ELISION, s[0]) && s[1] === "'") size = 2;
    else if (s.lastIndexOf("qu'", 0) === 0) size = 3;
    if (size && s.length > size) this.s = s.slice(size);
  };

  // One step of the prelude's `repeat goto`, at a position: whether it changed the word there.
  French.prototype.markAt = function (p) {
    var s = this.s;
    if (frV(s[p])) {
      if (s[p + 1] === "u" && frV(s[p + 2])) { this.replace(p + 1, p + 2, "U"); return true; }
      if (s[p + 1] === "i" && frV(s[p + 2])) { this.replace(p + 1, p + 2, "I"); return true; }
      if (s[p + 1] === "y") { this.replace(p + 1, p + 2, "Y"); return true; }
    }
    if (s[p] === "\u00eb") { this.replace(p, p + 1, "He"); return true; }
    if (s[p] === "\u00ef") { this.replace(p, p + 1, "Hi"); return true; }
    if (s[p] === "y" && frV(s[p + 1])) { this.replace(p, p + 1, "Y"); return true; }
    if (s[p] === "q" && s[p + 1] === "u") { this.replace(p + 1, p + 2, "U"); return true; }
    return false;
  };

  French.prototype.prelude = function () {
    var p = 0;
    while (p < this.s.length) {
      if (!this.markAt(p)) p++;
    }
  };

  // gopast v gopast non-v from `from`: the position after them, or -1.
  French.prototype.pastVowelAndConsonant = function (from) {
    var s = this.s, i = from;
    while (i < s.length && !frV(s[i])) i++;
    if (i >= s.length) return -1;
    i++;
    while (i < s.length && frV(s[i])) i++;
    return i >= s.length ? -1 : i + 1;
  };

  French.prototype.markRegions = function () {
    var s = this.s, n = s.length, at = -1;
    if (n >= 3 && frV(s[0]) && frV(s[1])) {
      at = 3;
    } else {
      var prefix = ["par", "col", "tap", "ni"].filter(function (x) { return s.lastIndexOf(x, 0) === 0; })[0];
      if (prefix === "ni") at = frV(s[2]) ? 3 : -1;
      else if (prefix) at = 3;
      if (at < 0 && n >= 1) {
        for (var i = 1; i < n; i++) if (frV(s[i])) { at = i + 1; break; }
      }
    }
    if (at >= 0) this.pV = at;
    var p1 = this.pastVowelAndConsonant(0);
    if (p1 >= 0) {
      this.p1 = p1;
      var p2 = this.pastVowelAndConsonant(p1);
      if (p2 >= 0) this.p2 = p2;
    }
  };

  French.prototype.RV = function (at) { return this.pV <= at; };
  French.prototype.R1 = function (at) { return this.p1 <= at; };
  French.prototype.R2 = function (at) { return this.p2 <= at; };

  // The suffix `x` of the word, found before `end` (default: the end): its start, or -1.
  French.prototype.before = function (x, end) {
    end = end === undefined ? this.s.length : end;
    return endsWith(this.s, end, x) ? end - x.length : -1;
  };

  French.prototype.standardSuffix = function () {
    var s = this.s, suffix = longest(s, s.length, FR_STANDARD);
    if (suffix === null) return false;
    var start = s.length - suffix.length, at;
    var self = this;
    function cut() { self.s = self.s.slice(0, start); }
    switch (suffix) {
      case "ance": case "iqUe": case "isme": case "able": case "iste": case "eux":
      case "ances": case "iqUes": case "ismes": case "ables": case "istes":
        if (!this.R2(start)) return false;
        cut();
        return true;
      case "atrice": case "ateur": case "ation": case "atrices": case "ateurs": case "ations":
        if (!this.R2(start)) return false;
        cut();
        at = this.before("ic");
        if (at >= 0) {
          if (this.R2(at)) this.s = this.s.slice(0, at);
          else this.replace(at, at + 2, "iqU");
        }
        return true;
      case "logie": case "logies":
        if (!this.R2(start)) return false;
        this.replace(start, s.length, "log");
        return true;
      case "usion": case "ution": case "usions": case "utions":
        if (!this.R2(start)) return false;
        this.replace(start, s.length, "u");
        return true;
      case "ence": case "ences":
        if (!this.R2(start)) return false;
        this.replace(start, s.length, "ent");
        return true;
      case "ement": case "ements":
        if (!this.RV(start)) return false;
        cut();
        this.afterEment();
        return true;
      case "it" + E_ACUTE: case "it" + E_ACUTE + "s":
        if (!this.R2(start)) return false;
        cut();
        this.afterIte();
        return true;
      case "if": case "ive": case "ifs": case "ives":
        if (!this.R2(start)) return false;
        cut();
        at = this.before("at");
        if (at >= 0 && this.R2(at)) {
          this.s = this.s.slice(0, at);
          at = this.before("ic");
          if (at >= 0) {
            if (this.R2(at)) this.s = this.s.slice(0, at);
            else this.replace(at, at + 2, "iqU");
          }
        }
        return true;
      case "eaux":
        this.replace(start, s.length, "eau");
        return true;
      case "aux":
        if (!this.R1(start)) return false;
        this.replace(start, s.length, "al");
        return true;
      case "oux":
        if (!inSet(FR_OUX_ENDING, s[start - 1])) return false;
        this.replace(start, s.length, "ou");
        return true;
      case "euse": case "euses":
        if (this.R2(start)) cut();
        else if (this.R1(start)) this.replace(start, s.length, "eux");
        else return false;
        return true;
      case "issement": case "issements":
        if (!this.R1(start) || start < 1 || frV(s[start - 1])) return false;
        cut();
        return true;
      case "amment":
        if (this.RV(start)) this.replace(start, s.length, "ant");
        return false;
      case "emment":
        if (this.RV(start)) this.replace(start, s.length, "ent");
        return false;
      default:  // ment, ments
        if (start >= 1 && frV(s[start - 1]) && this.RV(start - 1)) cut();
        return false;
    }
  };

  // What may come before -ement, once it is gone.
  French.prototype.afterEment = function () {
    var s = this.s, suffix = longest(s, s.length, ["iv", "eus", "abl", "iqU", "i" + E_GRAVE + "r", "I" + E_GRAVE + "r"]);
    if (suffix === null) return;
    var start = s.length - suffix.length, at;
    if (suffix === "iv") {
      if (!this.R2(start)) return;
      this.s = s.slice(0, start);
      at = this.before("at");
      if (at >= 0 && this.R2(at)) this.s = this.s.slice(0, at);
    } else if (suffix === "eus") {
      if (this.R2(start)) this.s = s.slice(0, start);
      else if (this.R1(start)) this.replace(start, s.length, "eux");
    } else if (suffix === "abl" || suffix === "iqU") {
      if (this.R2(start)) this.s = s.slice(0, start);
    } else if (this.RV(start)) {
      this.replace(start, s.length, "i");
    }
  };

  // What may come before -ité, once it is gone.
  French.prototype.afterIte = function () {
    var s = this.s, suffix = longest(s, s.length, ["abil", "ic", "iv"]);
    if (suffix === null) return;
    var start = s.length - suffix.length;
    if (suffix === "abil") {
      if (this.R2(start)) this.s = s.slice(0, start);
      else this.replace(start, s.length, "abl");
    } else if (suffix === "ic") {
      if (this.R2(start)) this.s = s.slice(0, start);
      else this.replace(start, s.length, "iqU");
    } else if (this.R2(start)) {
      this.s = s.slice(0, start);
    }
  };

  French.prototype.iVerbSuffix = function () {
    var s = this.s;
    if (s.length < this.pV) return false;
    var suffix = longest(s, s.length, FR_I_VERB, this.pV);
    if (suffix === null) return false;
    var start = s.length - suffix.length;
    // not 'H' non-v, within RV
    if (s[start - 1] === "H" || start - 1 < this.pV || frV(s[start - 1])) return false;
    this.s = s.slice(0, start);
    return true;
  };

  French.prototype.verbSuffix = function () {
    var s = this.s;
    if (s.length < this.pV) return false;
    var suffix = longest(s, s.length, FR_VERB, this.pV);
    if (suffix === null) return false;
    var start = s.length - suffix.length;
    if (suffix === "ions") {
      if (!this.R2(start)) return false;
      this.s = s.slice(0, start);
    } else if (FR_VERB_DELETE.indexOf(suffix) >= 0 || suffix === "eais") {
      this.s = s.slice(0, start);
    } else if (FR_VERB_A.indexOf(suffix) >= 0) {
      if (s[start - 1] === "e" && this.RV(start - 1)) start--;
      this.s = s.slice(0, start);
    } else {  // ais, aise, aises
      var head = s.slice(0, start), kept = longest(head, head.length, ["al", "auv", E_ACUTE + "pl"]);
      if (kept === "al" ? head.length === 3 : kept !== null) return false;
      this.s = head;
    }
    return true;
  };

  French.prototype.residualSuffix = function () {
    var s = this.s, n = s.length;
    if (s[n - 1] === "s" && (endsWith(s, n - 1, "Hi") || (n >= 2 && !inSet(FR_KEEP_WITH_S, s[n - 2])))) {
      this.s = s = s.slice(0, n - 1);
    }
    if (s.length < this.pV) return;
    var suffix = longest(s, s.length, ["ion", "ier", "i" + E_GRAVE + "re", "Ier", "I" + E_GRAVE + "re", "e"], this.pV);
    if (suffix === null) return;
    var start = s.length - suffix.length;
    if (suffix === "ion") {
      if (this.R2(start) && start - 1 >= this.pV && inSet("st", s[start - 1])) this.s = s.slice(0, start);
    } else if (suffix === "e") {
      this.s = s.slice(0, start);
    } else {
      this.replace(start, s.length, "i");
    }
  };

  French.prototype.unDouble = function () {
    var s = this.s;
    if (longest(s, s.length, ["enn", "onn", "ett", "ell", "eill"]) !== null) this.s = s.slice(0, -1);
  };

  French.prototype.unAccent = function () {
    var s = this.s, i = s.length;
    while (i > 0 && !frV(s[i - 1])) i--;
    if (i === s.length || i === 0) return;
    if (s[i - 1] === E_ACUTE || s[i - 1] === E_GRAVE) this.replace(i - 1, i, "e");
  };

  French.prototype.postlude = function () {
    var s = this.s, out = "";
    for (var i = 0; i < s.length; i++) {
      var c = s[i];
      if (c === "I") out += "i";
      else if (c === "U") out += "u";
      else if (c === "Y") out += "y";
      else if (c === "H") {
        if (s[i + 1] === "e") { out += "\u00eb"; i++; }
        else if (s[i + 1] === "i") { out += "\u00ef"; i++; }
      } else out += c;
    }
    this.s = out;
  };

  function french(word) {
    var w = new French(word);
    w.elisions();
    w.prelude();
    w.markRegions();
    if (w.standardSuffix() || w.iVerbSuffix() || w.verbSuffix()) {
      var n = w.s.length;
      if (w.s[n - 1] === "Y") w.replace(n - 1, n, "i");
      else if (w.s[n - 1] === C_CEDIL) w.replace(n - 1, n, "c");
    } else {
      w.residualSuffix();
    }
    w.unDouble();
    w.unAccent();
    w.postlude();
    return w.s;
  }

  root.RULEBOT_STEMMERS = { english: english, french: french };
}(typeof window !== "undefined" ? window : this));
