// Search of the static site: the index is split by the first character of each word of a
// player's name and of the id (search/<hex code point>.js); a query loads its one shard as a
// script (a script file loads from file:// too, where fetch() is refused) and filters it.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var box = document.getElementById("search-text");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var shards = {};
  var SHOWN = 50;
  window.fiderateSearch = { add: function (key, rows) { shards[key] = rows; } };
  function keyOf(q) { return spaced(q).codePointAt(0).toString(16); }
  // Lower case, every run of commas and spaces one space (pipeline/site/name_search.py).
  function spaced(text) { return text.toLowerCase().replace(/[,\s]+/g, " ").trim(); }
  function show(q, rows) {
    var needle = spaced(q);
    var hits = rows.filter(function (r) {
      return r[0].indexOf(q) === 0 || (" " + spaced(r[1])).indexOf(" " + needle) !== -1;
    });
    list.textContent = "";
    hits.slice(0, SHOWN).forEach(function (r) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = r[4];
      a.textContent = r[1];
      li.appendChild(a);
      li.appendChild(document.createTextNode(" " + r[0] + " " + r[2] + " " + (r[3] === null ? "" : r[3])));
      list.appendChild(li);
    });
    status.textContent = hits.length + " found" + (hits.length > SHOWN ? ", the first " + SHOWN + " shown" : "");
  }
  function run() {
    var q = box.value.trim();
    if (!spaced(q)) { list.textContent = ""; return; }
    var key = keyOf(q);
    if (shards[key]) { show(q, shards[key]); return; }
    if (!/^[0-9a-f]{1,6}$/.test(key)) { return; }
    var s = document.createElement("script");
    s.src = form.getAttribute("data-shards") + key + ".js";
    s.onload = function () { show(q, shards[key] || []); };
    s.onerror = function () { shards[key] = []; show(q, []); };
    document.body.appendChild(s);
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
  box.addEventListener("input", run);
  var given = new URLSearchParams(window.location.search).get("q");
  if (given) { box.value = given; run(); }
})();
