// The setup page: a player-count and expansion choice shows the one checklist for it, each step's text for the
// chosen count alone. The choice is kept in the address (?players=3&with=perlae-imperii, a `with` per expansion;
// replaced, not added to the history) and in the browser's storage for the game, and restored when the page opens.
// Without this script, or before a count is chosen, the page shows every checklist in full, with each step's text
// per player count. The sentences of the status are the page's (its form's data-say-*), in its language.
(function () {
  "use strict";
  var form = document.getElementById("setup--choice");
  if (!form) return;
  var counts = Array.prototype.slice.call(form.querySelectorAll("input[name=players]"));
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=with]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll(".setup-combination"));
  var status = document.getElementById("setup--status");
  var stored = "rulebot-setup:" + (document.documentElement.getAttribute("data-game") || "");

  function at(element, count) {
    return (" " + element.getAttribute("data-players") + " ").indexOf(" " + count + " ") >= 0;
  }

  function say(name, values) {
    return form.getAttribute("data-say-" + name).replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }

  function chosen() {
    var count = counts.filter(function (input) { return input.checked; })[0];
    var expansions = boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; }).sort();
    return { count: count ? count.value : "", label: count ? count.getAttribute("data-label") : "", expansions: expansions };
  }

  function show() {
    var choice = chosen(), key = choice.expansions.join("+");
    document.documentElement.classList.toggle("setup-chosen", !!choice.count);
    sections.forEach(function (section) {
      var shown = !choice.count || section.getAttribute("data-expansions") === key;
      section.hidden = !shown;
      section.querySelectorAll(".setup-step").forEach(function (step) {
        var text = step.querySelector(".setup-chosen-text");
        step.hidden = !!choice.count && !(at(section, choice.count) && at(step, choice.count));
        step.querySelectorAll(".setup-only").forEach(function (only) { only.hidden = !!choice.count; });
        step.querySelectorAll(".setup-beyond").forEach(function (note) { note.hidden = !!choice.count && !at(note, choice.count); });
        if (!text) return;
        // A step whose text depends on the count: the chosen count's text, as a step of its own (no table).
        var row = choice.count && Array.prototype.filter.call(step.querySelectorAll("tr[data-players]"), function (tr) { return at(tr, choice.count); })[0];
        text.textContent = row ? row.querySelector(".setup-text").textContent : "";
        text.hidden = !row;
        step.querySelector(".table-wrap").hidden = !!row;
      });
      if (!choice.count || !shown) return;
      var steps = section.querySelectorAll(".setup-step:not([hidden])").length;
      var title = section.getAttribute("data-title");
      // (no step for the count: said, as `rulebot setup` says it, rather than a checklist of "0 steps")
      status.textContent = !at(section, choice.count) ? say("not", { played_by: section.getAttribute("data-played-by"), count: choice.count })
        : !steps ? say("none", { title: title, players: choice.label })
        : say("steps", { title: title, players: choice.label, steps: steps === 1 ? say("step-one", {}) : say("step-many", { count: steps }) });
    });
    if (!choice.count) status.textContent = say("choose", {});
  }

  // The choice of an address (?players=&with=), or else the one last made for the game here.
  function restore() {
    var query = new URLSearchParams(window.location.search);
    if (!query.has("players")) {
      try { query = new URLSearchParams(window.localStorage.getItem(stored) || ""); } catch (e) { /* no storage */ }
    }
    var wanted = query.getAll("with");
    counts.forEach(function (input) { input.checked = input.value === query.get("players"); });
    boxes.forEach(function (box) { box.checked = wanted.indexOf(box.value) >= 0; });
  }

  function update() {
    show();
    var choice = chosen(), query = new URLSearchParams();
    if (choice.count) query.set("players", choice.count);
    choice.expansions.forEach(function (slug) { query.append("with", slug); });
    var search = query.toString();
    history.replaceState(history.state, "", window.location.pathname + (search ? "?" + search : "") + window.location.hash);
    try { window.localStorage.setItem(stored, search); } catch (e) { /* no storage: the address keeps it */ }
  }

  form.hidden = false;
  Array.prototype.forEach.call(document.querySelectorAll(".setup-how"), function (how) { how.hidden = false; });  // (a choice to make now)
  form.addEventListener("change", update);
  restore();
  show();
})();
