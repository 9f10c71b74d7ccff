// Search of the static site, the rule of pipeline/site/name_search.py step for step: the query
// trimmed and cut to 80 characters finds a player whose id starts with it, or a word of whose
// folded name starts with the folded query. The index is split by the beginnings of the folded
// words and ids, longer where a shard would be large (name_search.shard_keys): search/keys.js
// lists the shards' keys, search/<key's code points in hex>.js holds a shard's rows in the
// search's order. A query loads the one shard whose key it starts with, or, shorter than the
// keys under it, the answer written ahead for it (search/first-<key>.js: the count and the first
// rows) when that answer is the query's, else every shard whose key starts with it, merged by
// the rows' places; each as a script (a script loads from file:// too, where fetch() is refused).
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
  var base = form.getAttribute("data-shards");
  var keys = null;  // the shards' keys (search/keys.js), once loaded
  var digits = false;  // every id is digits (keys.js says)
  var firsts = {};  // an answer written ahead's file name -> {count, rows}, or null: missing
  var shards = {};  // a shard's file name -> its entries, once loaded
  var asked = {};  // the scripts asked for
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
    keys: function (given, allDigits) { keys = given; digits = allDigits; },
    first: function (name, count, rows) {
      firsts[name] = { count: count, rows: rows.map(function (r) { return r.slice(1); }) };
    },
    add: function (name, rows) {
      // Each row: [place, id, name, federation, title, a rating per kind..., address]; the
      // folded name's words kept beside it, once.
      shards[name] = rows.map(function (r) {
        return { place: r[0], row: r.slice(1), name: " " + folded(r[2] || "") };
      });
    }
  };
  function fileName(key) {  // name_search.shard_name
    return Array.from(key).map(function (c) { return c.codePointAt(0).toString(16); }).join("-");
  }
  function shardsOf(needle) {  // name_search.shards_of
    for (var i = 0; i < keys.length; i += 1) {
      if (needle.indexOf(keys[i]) === 0) { return [keys[i]]; }
    }
    return keys.filter(function (k) { return k.indexOf(needle) === 0; });
  }
  function load(name) {
    if (asked[name]) { return; }
    asked[name] = true;
    var s = document.createElement("script");
    s.src = base + name + ".js";
    // Answered for the box as it is then (a later keystroke may have asked other shards).
    s.onload = function () { loaded(name); run(); };
    s.onerror = function () { loaded(name); run(); };
    document.body.appendChild(s);
  }
  function loaded(name) {  // a script missing, or not calling fiderateSearch: answered empty
    if (name === "keys") { keys = keys || []; }
    else if (name.indexOf("first-") === 0) { firsts[name] = firsts[name] || null; }
    else { shards[name] = shards[name] || []; }
  }
  function entriesOf(names) {
    if (names.length === 1) { return shards[names[0]]; }
    var seen = {};  // a player in two shards (two words) once, in the search's order
    var all = [];
    names.forEach(function (n) {
      shards[n].forEach(function (e) { if (!seen[e.place]) { seen[e.place] = true; all.push(e); } });
    });
    return all.sort(function (a, b) { return a.place - b.place; });
  }
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
    answer(hits.slice(0, SHOWN).map(function (e) { return e.row; }), hits.length);
  }
  function answer(rows, count) {
    list.textContent = "";
    rows.forEach(function (r) { list.appendChild(item(r)); });
    status.textContent = count + " found" + (count > SHOWN
      ? ", the first " + SHOWN + " shown: give more of the name" : "") + ".";
  }
  // The answer written ahead for a needle is find(needle): the query's too when the query is
  // its own fold, or when both have a character other than a digit and every id is digits
  // (then neither begins an id, and the names are matched by the fold alone).
  function aheadHolds(query, needle) {
    return query === needle || (digits && /[^0-9]/.test(query) && /[^0-9]/.test(needle));
  }
  function run() {
    var query = trimmed(box.value);
    var needle = folded(query);
    if (!query) { list.textContent = ""; status.textContent = hint; return; }
    if (!needle) { show(query, needle, []); return; }
    if (!keys) { load("keys"); return; }
    var names = shardsOf(needle).map(fileName);
    if (names.length > 1 && aheadHolds(query, needle)) {
      var ahead = "first-" + fileName(needle);
      if (firsts[ahead]) { answer(firsts[ahead].rows, firsts[ahead].count); return; }
      if (!(ahead in firsts)) { load(ahead); return; }  // asked, or on its way
      // null: the file is missing; the shards below answer
    }
    var missing = names.filter(function (n) { return !shards[n]; });
    if (missing.length) { missing.forEach(load); return; }
    show(query, needle, entriesOf(names));
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
  box.addEventListener("input", run);
  load("keys");  // at once: a query waits for its shards only
  var given = new URLSearchParams(window.location.search).get("q");
  if (given) { box.value = given; run(); }
})();
