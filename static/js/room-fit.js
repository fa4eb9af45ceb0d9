// The room display fits its screen (a television or a projector on the wall, which
// nobody scrolls): when the tables and the standings run taller or wider than the
// screen (seven tables and more at 1280 x 900), the type is made smaller, step by step,
// until they fit, and no smaller than half its size. Done again when the room updates
// itself (htmx) and when the window changes size; paper is laid out by its own rules
// (static/css/room.css, @media print), which do not read --room-fit.
(function () {
  var root = document.documentElement;
  var SMALLEST = 0.5;

  function overflows() {
    return root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth;
  }

  function fit() {
    var scale = 1;
    root.style.setProperty("--room-fit", "1");
    while (scale > SMALLEST && overflows()) {
      scale = Math.round((scale - 0.04) * 100) / 100;
      root.style.setProperty("--room-fit", String(scale));
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fit);
  } else {
    fit();
  }
  window.addEventListener("load", fit);
  window.addEventListener("resize", fit);
  document.addEventListener("htmx:afterSettle", fit);
})();
