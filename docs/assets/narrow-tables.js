/* A table wider than its column is shown stacked (narrow-screens.css): each row a block, each cell
   on a line of its own after its column's heading, so that no column is off-screen on a phone.
   Only a table that does not fit is stacked, measured again when the page or the window changes (the
   Study page draws its tables after loading). Stacked, a table keeps its roles explicitly: a browser
   drops a table's semantics when its parts are no longer displayed as a table. */
(function () {
  "use strict";

  var NARROW = window.matchMedia("screen and (max-width: 44.9375em)"); // Material's phone and small tablet
  var SCROLLS_ON_PURPOSE = ".docexec-report"; // the build report: one line per snippet, scrolled
  var ROLES = { TABLE: "table", THEAD: "rowgroup", TBODY: "rowgroup", TR: "row", TH: "columnheader", TD: "cell" };

  function label(table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, index) {
        if (heads[index]) cell.setAttribute("data-label", heads[index]);
      });
    });
  }

  function setStacked(table, stacked) {
    if (stacked === table.hasAttribute("data-stacked")) return;
    var parts = [table].concat(Array.prototype.slice.call(table.querySelectorAll("thead, tbody, tr, th, td")));
    parts.forEach(function (part) {
      if (stacked) part.setAttribute("role", ROLES[part.tagName]);
      else part.removeAttribute("role");
    });
    table.toggleAttribute("data-stacked", stacked);
  }

  function fit() {
    var narrow = NARROW.matches;
    document.querySelectorAll(".md-typeset table:not([class])").forEach(function (table) {
      if (!table.querySelector("thead th") || table.closest(SCROLLS_ON_PURPOSE)) return;
      setStacked(table, false);
      var column = table.closest(".md-typeset__scrollwrap") || table.parentElement;
      if (narrow && (column.scrollWidth > column.clientWidth + 1 || table.scrollWidth > table.clientWidth + 1)) {
        label(table);
        setStacked(table, true);
      }
    });
  }

  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      observer.disconnect();
      fit();
      observer.observe(document.body, { childList: true, subtree: true });
    });
  }

  var observer = new MutationObserver(later);
  window.addEventListener("resize", later);
  later();
})();
