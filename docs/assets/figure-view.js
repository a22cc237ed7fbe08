/* A tapped figure opens full screen in the page, in a modal dialog: the same image file (an <img>,
   never the SVG's markup in the page), fitted to the screen or zoomed to twice that width, in the
   reader's colour scheme. Escape or the Close button closes it and focus goes back to the figure.
   A click with a modifier key (a new tab or window) still opens the file itself, as does every tap
   without this script. */
(function () {
  "use strict";

  var ZOOM = 2; // "Zoom in" shows the figure at twice the width that fits the screen

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function open(link) {
    var source = link.querySelector("img");
    var dialog = element("dialog", "figure-view");
    if (link.classList.contains("docexec-figure--colormapped")) dialog.classList.add("figure-view--colormapped");
    var bar = dialog.appendChild(element("div", "figure-view__bar"));
    var title = bar.appendChild(element("p", "figure-view__title", source.alt));
    title.id = "figure-view-title";
    dialog.setAttribute("aria-labelledby", title.id);
    var zoom = bar.appendChild(element("button", "figure-view__zoom", "Zoom in"));
    zoom.type = "button";
    zoom.setAttribute("aria-pressed", "false");
    var close = bar.appendChild(element("button", "figure-view__close", "Close"));
    close.type = "button";
    var frame = dialog.appendChild(element("div", "figure-view__frame"));
    // Focusable so that the arrow keys scroll a zoomed figure.
    frame.tabIndex = 0;
    frame.setAttribute("role", "group");
    frame.setAttribute("aria-label", "The figure; when zoomed, scroll or drag to move around it");
    var image = frame.appendChild(element("img"));
    image.src = source.currentSrc || source.src;
    image.alt = source.alt;

    function setZoom(zoomed) {
      dialog.classList.toggle("figure-view--zoomed", zoomed);
      image.style.width = zoomed ? ZOOM * frame.clientWidth + "px" : "";
      zoom.setAttribute("aria-pressed", String(zoomed));
      zoom.textContent = zoomed ? "Fit to screen" : "Zoom in";
    }
    zoom.addEventListener("click", function () {
      setZoom(zoom.getAttribute("aria-pressed") !== "true");
    });
    image.addEventListener("click", function () {
      zoom.click();
    });
    close.addEventListener("click", function () {
      dialog.close();
    });
    // Tab goes round the dialog's controls: past the last, a modal dialog would let focus leave
    // to the (inert) page.
    dialog.addEventListener("keydown", function (event) {
      if (event.key !== "Tab") return;
      var controls = [zoom, close, frame];
      var at = controls.indexOf(document.activeElement);
      var next = event.shiftKey ? (at <= 0 ? controls.length - 1 : at - 1) : (at + 1) % controls.length;
      event.preventDefault();
      controls[next].focus();
    });
    dialog.addEventListener("close", function () {
      document.documentElement.classList.remove("figure-view-open");
      dialog.remove();
      link.focus({ preventScroll: true });
    });

    document.body.appendChild(dialog);
    document.documentElement.classList.add("figure-view-open");
    dialog.showModal();
    close.focus();
  }

  document.addEventListener(
    "click",
    function (event) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      var link = event.target.closest && event.target.closest("a.docexec-figure");
      if (!link || !link.querySelector("img") || typeof HTMLDialogElement !== "function") return;
      event.preventDefault();
      event.stopPropagation(); // the link is a file, not a page: Material's instant loading leaves it alone
      open(link);
    },
    true,
  );
})();
