// The setup page: a player-count and expansion choice shows the one checklist for it.
// Without this script the page shows every checklist in full, with each step's text per player count.
(function () {
  "use strict";
  var form = document.getElementById("setup--choice");
  if (!form) return;
  var select = document.getElementById("setup--players");
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=with]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll(".setup-combination"));
  var status = document.getElementById("setup--status");

  function at(element, count) {
    return (" " + element.getAttribute("data-players") + " ").indexOf(" " + count + " ") >= 0;
  }

  function update() {
    var count = select.value;
    var key = boxes.filter(function (box) { return box.checked; })
      .map(function (box) { return box.value; }).sort().join("+");
    sections.forEach(function (section) {
      var chosen = section.getAttribute("data-expansions") === key;
      section.hidden = !chosen;
      if (!chosen) return;
      var played = at(section, count);
      var shown = 0;
      section.querySelectorAll(".setup-step").forEach(function (step) {
        step.hidden = !played || !at(step, count);
        if (!step.hidden) shown += 1;
        step.querySelectorAll("tr[data-players]").forEach(function (row) { row.hidden = !at(row, count); });
        step.querySelectorAll(".setup-only").forEach(function (only) { only.hidden = true; });
      });
      status.textContent = played
        ? section.getAttribute("data-title") + ": setup for " + count + " players, " + shown + (shown === 1 ? " step." : " steps.")
        : section.getAttribute("data-played-by") + ", not " + count + ".";
    });
  }

  form.hidden = false;
  document.documentElement.classList.add("setup-chosen");
  select.addEventListener("change", update);
  boxes.forEach(function (box) { box.addEventListener("change", update); });
  update();
})();
