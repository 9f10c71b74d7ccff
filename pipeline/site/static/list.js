// The list page's sorting (click a column's heading) and filtering (a text box), in the
// browser, on the rows the page holds. Loaded as a file: no inline script (CSP).
(function () {
  "use strict";
  var table = document.getElementById("list");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var form = document.getElementById("list-filter");
  var box = document.getElementById("filter-text");
  var count = document.getElementById("filter-count");
  form.hidden = false;
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  function filter() {
    var q = box.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) {
      var hit = !q || r.textContent.toLowerCase().indexOf(q) !== -1;
      r.hidden = !hit;
      if (hit) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " players";
  }
  box.addEventListener("input", filter);
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    var kind = th.getAttribute("data-sort");
    if (!kind) { return; }
    th.tabIndex = 0;
    function sort() {
      var down = th.getAttribute("aria-sort") !== "descending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      function key(r) {
        var t = r.cells[col].textContent.trim();
        if (kind === "number") { var n = parseFloat(t); return isNaN(n) ? -Infinity : n; }
        return t.toLowerCase();
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = x < y ? -1 : (x > y ? 1 : 0);
        return down ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sort(); } });
  });
  filter();
})();
