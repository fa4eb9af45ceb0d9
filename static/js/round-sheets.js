// A round's score sheets printed at once (templates/tournaments/round_sheets.html): each
// table starts a page of its own, and a table's sheet too long for one A4 page goes on to
// the next at a row, under a heading that names it ("Round 1, table 3, continued"), the
// table's column heads again above its rows: nothing is cut through, and no page of
// another table's sheet can be mistaken for it.
//
// Laid out before printing (`beforeprint`): the page's print rules are put in force on
// the screen for a moment, at the A4 page's printable width, the rows measured, and
// the headings put in where a page would end; after printing the sheets are as they were.
// `window.roundSheetsPaginate()` does the same under print rules already in force.
(function () {
  var MM = 96 / 25.4; // CSS pixels to a millimetre
  var PAGE = { width: 186 * MM, height: 273 * MM }; // A4 inside sheets.css's 12 mm margins
  var SLACK = 0.94; // what a measured page may fill: room for rounding and page breaks
  var originals = null;

  function printRules(on) {
    // The `@media print` rules of the page's own stylesheets, in force on screen too.
    for (var s = 0; s < document.styleSheets.length; s++) {
      var rules;
      try { rules = document.styleSheets[s].cssRules; } catch (e) { continue; }
      for (var r = 0; r < rules.length; r++) {
        var media = rules[r].media;
        if (!media || rules[r].type !== CSSRule.MEDIA_RULE) continue;
        var text = media.mediaText;
        if (on && text === "print") media.appendMedium("screen");
        if (!on && /screen/.test(text) && /print/.test(text)) media.deleteMedium("screen");
      }
    }
  }

  function atoms(sheet) {
    // What a page may end before: a row of a table (not its heads, which are repeated),
    // and each heading, paragraph or list of the sheet outside a table.
    return Array.prototype.filter.call(
      sheet.querySelectorAll("tbody > tr, tfoot > tr, h2, h3, p, ul, dl"),
      function (el) {
        var inTable = el.tagName !== "TR" && el.closest("table");
        return !inTable && !el.closest(".sheet-continued") && el.getClientRects().length;
      }
    );
  }

  function heading(sheet, atom) {
    var p = document.createElement("p");
    p.className = "sheet-continued";
    p.setAttribute("data-testid", "sheet-continued");
    var game = atom.closest("section");
    var title = game && game.querySelector("h3");
    p.textContent = "Round " + sheet.dataset.round + ", table " + sheet.dataset.table +
      ", continued" + (title && atom.tagName === "TR" ? " (" + title.textContent.trim().split("(")[0].trim() + ")" : "") + ".";
    return p;
  }

  function splitBefore(sheet, atom) {
    var mark = heading(sheet, atom);
    if (atom.tagName !== "TR") {
      atom.parentNode.insertBefore(mark, atom);
      return;
    }
    // A table split at this row: its rows from here on go to a copy of the table under
    // the same column heads.
    var table = atom.closest("table");
    var copy = table.cloneNode(false);
    Array.prototype.forEach.call(table.children, function (part) {
      if (part.tagName === "COLGROUP" || part.tagName === "THEAD") copy.appendChild(part.cloneNode(true));
    });
    var body = document.createElement(atom.parentNode.tagName);
    copy.appendChild(body);
    var row = atom;
    while (row) {
      var next = row.nextElementSibling;
      body.appendChild(row);
      row = next;
    }
    if (body.tagName === "TBODY" && table.tFoot) copy.appendChild(table.tFoot); // after the rows
    var holder = table.parentNode.classList.contains("sheet-scroll") ? table.parentNode : table;
    var box = holder === table ? copy : holder.cloneNode(false);
    if (box !== copy) box.appendChild(copy);
    holder.parentNode.insertBefore(box, holder.nextSibling);
    holder.parentNode.insertBefore(mark, box);
  }

  function paginate() {
    var sheets = document.querySelectorAll("[data-testid=round-sheet]");
    Array.prototype.forEach.call(sheets, function (sheet) {
      var room = PAGE.height * SLACK;
      for (var guard = 0; guard < 50; guard++) {
        var top = sheet.getBoundingClientRect().top;
        var marks = sheet.querySelectorAll(".sheet-continued");
        var start = marks.length ? marks[marks.length - 1].getBoundingClientRect().top - top : 0;
        var list = atoms(sheet).filter(function (el) {
          return el.getBoundingClientRect().top - top >= start;
        });
        var over = null;
        for (var i = 0; i < list.length; i++) {
          if (list[i].getBoundingClientRect().bottom - top - start > room) { over = list[i]; break; }
        }
        if (!over) break;
        // A heading goes over with what follows it; never a page of nothing but heads.
        var index = list.indexOf(over);
        while (index > 1 && /^H[23]$/.test(list[index - 1].tagName)) index -= 1;
        if (index === 0) break;
        splitBefore(sheet, list[index]);
      }
    });
  }

  function before() {
    if (!document.querySelector("[data-testid=round-sheet]") || originals) return;
    originals = Array.prototype.map.call(
      document.querySelectorAll("[data-testid=round-sheet]"), function (s) { return s.innerHTML; }
    );
    var width = document.body.style.width;
    printRules(true);
    document.body.style.width = PAGE.width + "px";
    try { paginate(); } finally {
      document.body.style.width = width;
      printRules(false);
    }
  }

  function after() {
    if (!originals) return;
    Array.prototype.forEach.call(
      document.querySelectorAll("[data-testid=round-sheet]"),
      function (s, i) { s.innerHTML = originals[i]; }
    );
    originals = null;
  }

  window.addEventListener("beforeprint", before);
  window.addEventListener("afterprint", after);
  window.roundSheetsPaginate = paginate;
})();
