// The entry list's search and filters (exchange index; docs/browse.md). A static file of the site, run
// under its Content-Security-Policy (script-src 'self'): it reads the list's own data attributes, fetches
// nothing and writes only text (textContent), the rows' hidden flag and whether a <details> is open (on a
// wide screen the release's facts and the filters start open; on a phone they stay folded, so the first
// entry is on the first screen).
"use strict";
(function () {
  if (window.matchMedia && window.matchMedia("(min-width: 48rem)").matches) {
    Array.prototype.forEach.call(document.querySelectorAll("details[data-open-wide]"), function (d) {
      d.open = true;
    });
  }
}());
(function () {
  var filters = document.getElementById("filters");
  var list = document.getElementById("entries");
  var count = document.getElementById("count");
  var none = document.getElementById("none-match");
  if (!filters || !list || !count) {
    return;
  }
  var rows = Array.prototype.slice.call(list.querySelectorAll("li.entry"));
  var search = document.getElementById("search");
  var selects = Array.prototype.slice.call(filters.querySelectorAll("select[data-filter]"));

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
  }

  function matches(row, wanted, choices) {
    var haystack = row.getAttribute("data-search") || "";
    for (var i = 0; i < wanted.length; i++) {
      if (haystack.indexOf(wanted[i]) < 0) {
        return false;
      }
    }
    for (var j = 0; j < choices.length; j++) {
      var name = choices[j][0], value = choices[j][1];
      if (name === "sourceKinds") {
        var kinds = (row.getAttribute("data-source-kinds") || "").split(" ");
        if (kinds.indexOf(value) < 0) {
          return false;
        }
      } else if ((row.getAttribute("data-" + name) || "") !== value) {
        return false;
      }
    }
    return true;
  }

  function apply() {
    var wanted = words(search.value);
    var choices = selects.filter(function (s) { return s.value !== ""; })
      .map(function (s) { return [s.getAttribute("data-filter"), s.value]; });
    var shown = 0;
    rows.forEach(function (row) {
      var keep = matches(row, wanted, choices);
      row.hidden = !keep;
      if (keep) {
        shown += 1;
      }
    });
    count.textContent = shown === rows.length
      ? rows.length + (rows.length === 1 ? " entry" : " entries")
      : shown + " of " + rows.length + " entries shown";
    if (none) {
      none.hidden = shown !== 0;
    }
  }

  filters.hidden = false;
  search.addEventListener("input", apply);
  selects.forEach(function (s) { s.addEventListener("change", apply); });
  apply();
})();
