// Search of the static site, the rule of pipeline/site/name_search.py step for step: the query
// trimmed and cut to 80 characters finds a player whose id starts with it, or a word of whose
// folded name starts with the folded query. The index is split by the first character of
// each folded word and id (search/<hex code point>.js, rows in the search's order); a query
// loads its one shard as a script (a script loads from file:// too, where fetch() is refused).
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var box = document.getElementById("search-text");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var kinds = form.getAttribute("data-kinds").split(" ").filter(Boolean);
  var SHOWN = Number(form.getAttribute("data-shown"));
  var LONGEST = 80;
  var hint = status.textContent;
  var shards = {};
  // name_search.SEPARATORS, written out: the \s of JavaScript and of Python differ.
  var SEP = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004" +
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff,-";
  var RUNS = new RegExp("[" + SEP.replace("-", "\\-") + "]+", "g");
  var LETTERS = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d",
                  "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t", "ς": "σ" };
  var LETTER = new RegExp("[" + Object.keys(LETTERS).join("") + "]", "g");
  function folded(text) {
    return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
      .replace(LETTER, function (c) { return LETTERS[c]; })
      .replace(RUNS, " ").replace(/^ +| +$/g, "");
  }
  function trimmed(text) {
    var from = 0, to = text.length;
    while (from < to && SEP.indexOf(text[from]) !== -1) { from += 1; }
    while (to > from && SEP.indexOf(text[to - 1]) !== -1) { to -= 1; }
    return Array.from(text.slice(from, to)).slice(0, LONGEST).join("");
  }
  window.fiderateSearch = {
    add: function (key, rows) {
      // Each row: [id, name, federation, title, a rating per kind..., address]; the folded
      // name's words kept beside it, once.
      shards[key] = rows.map(function (r) { return { row: r, name: " " + folded(r[1] || "") }; });
    }
  };
  function item(r) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = r[r.length - 1];
    a.textContent = r[1];
    var facts = document.createElement("span");
    facts.className = "found-facts";
    facts.textContent = [r[0], r[2], r[3]].filter(Boolean).join(" ");
    var ratings = document.createElement("span");
    ratings.className = "found-ratings";
    ratings.textContent = kinds.map(function (k, i) {
      return k + " " + (r[4 + i] === null ? "-" : r[4 + i]);
    }).join(", ");
    li.appendChild(a);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(facts);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(ratings);
    return li;
  }
  function show(query, needle, entries) {
    var hits = entries.filter(function (e) {
      return e.row[0].indexOf(query) === 0 || e.name.indexOf(" " + needle) !== -1;
    });
    list.textContent = "";
    hits.slice(0, SHOWN).forEach(function (e) { list.appendChild(item(e.row)); });
    status.textContent = hits.length + " found" + (hits.length > SHOWN
      ? ", the first " + SHOWN + " shown: give more of the name" : "") + ".";
  }
  function run() {
    var query = trimmed(box.value);
    var needle = folded(query);
    if (!query) { list.textContent = ""; status.textContent = hint; return; }
    if (!needle) { show(query, needle, []); return; }
    var key = needle.codePointAt(0).toString(16);
    if (shards[key]) { show(query, needle, shards[key]); return; }
    var s = document.createElement("script");
    s.src = form.getAttribute("data-shards") + key + ".js";
    // Answered for the box as it is then (a later keystroke may have asked another shard).
    s.onload = function () { shards[key] = shards[key] || []; run(); };
    s.onerror = function () { shards[key] = []; run(); };
    document.body.appendChild(s);
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
  box.addEventListener("input", run);
  var given = new URLSearchParams(window.location.search).get("q");
  if (given) { box.value = given; run(); }
})();
