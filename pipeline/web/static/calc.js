// The calculator page: results as the user types (fetch of /api/calc, the project's own
// calculator), the inputs in the URL (shareable), opponent rows added and removed. Without
// this script the form still works (submit: the page is computed by the server).
(function () {
  "use strict";
  var form = document.getElementById("calc");
  var results = document.getElementById("results");
  var games = document.getElementById("games");
  var timer = null;
  var asked = 0;

  function query() {
    return new URLSearchParams(new FormData(form)).toString();
  }

  function showPreset() {
    var preset = form.elements.kp.value;
    form.querySelectorAll("[data-for]").forEach(function (row) {
      row.hidden = row.getAttribute("data-for") !== (preset === "custom" ? "custom" : preset === "fide" ? "fide" : "none");
    });
  }

  function renumber() {
    games.querySelectorAll("li.game").forEach(function (li, i) {
      var label = li.querySelector("label");
      label.firstChild.nodeValue = "Opponent " + (i + 1) + " rating ";
      li.querySelector("button.remove").setAttribute("aria-label", "remove opponent " + (i + 1));
    });
  }

  function update() {
    var q = query();
    var mine = ++asked;
    history.replaceState(null, "", "/calc?" + q);
    fetch("/api/calc?" + q, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (mine === asked) { results.innerHTML = data.html; }
      })
      .catch(function () { /* the server is gone: keep the last results */ });
  }

  function soon() {
    clearTimeout(timer);
    timer = setTimeout(update, 150);
  }

  form.addEventListener("input", soon);
  form.addEventListener("change", function () { showPreset(); soon(); });
  form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
  document.getElementById("add").addEventListener("click", function () {
    var rows = games.querySelectorAll("li.game");
    var copy = rows[rows.length - 1].cloneNode(true);
    copy.querySelector("input").value = "";
    games.appendChild(copy);
    renumber();
    copy.querySelector("input").focus();
  });
  games.addEventListener("click", function (e) {
    if (!e.target.classList.contains("remove")) { return; }
    var rows = games.querySelectorAll("li.game");
    var li = e.target.closest("li.game");
    if (rows.length > 1) {
      li.remove();
    } else {
      li.querySelector("input").value = "";
    }
    renumber();
    games.querySelector("li.game input").focus();
    soon();
  });
  showPreset();
})();
