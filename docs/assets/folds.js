/* Folded code (a snippet's whole proof, a function's source) is fetched when its box is first
   opened: studysite/folded_code.py moved it to a file of its own and left a link in the box.
   The code gets the copy button Material gives every code block (its clipboard handler serves
   any button that names its target). One listener for every page: instant navigation swaps the
   page under it. */
(function () {
  "use strict";

  function copyButton(code, index) {
    var pre = code.parentNode;
    pre.id = pre.id || "__fold_" + index;
    var nav = document.createElement("nav");
    nav.className = "md-code__nav";
    var button = document.createElement("button");
    button.className = "md-code__button";
    button.title = "Copy to clipboard";
    button.setAttribute("data-clipboard-target", "#" + pre.id + " > code");
    button.setAttribute("data-md-type", "copy");
    nav.appendChild(button);
    pre.insertBefore(nav, code);
  }

  var count = 0;
  function unfold(box) {
    var link = box.querySelector(":scope > .fold-link a");
    if (!link || box.hasAttribute("data-fold-loading")) return;
    box.setAttribute("data-fold-loading", "");
    fetch(link.href).then(function (response) {
      if (!response.ok) throw new Error(response.status + " " + response.statusText);
      return response.text();
    }).then(function (text) {
      var holder = document.createElement("div");
      holder.innerHTML = text;
      var placeholder = link.parentNode;
      while (holder.firstChild) box.insertBefore(holder.firstChild, placeholder);
      placeholder.remove();
      box.removeAttribute("data-fold");
      box.querySelectorAll("pre > code").forEach(function (code) { copyButton(code, count++); });
    }).catch(function (error) {
      box.removeAttribute("data-fold-loading");
      link.textContent = "The code did not load (" + error.message + "): open it";
    });
  }

  document.addEventListener("toggle", function (event) {
    var box = event.target;
    if (box.tagName === "DETAILS" && box.open && box.hasAttribute("data-fold")) unfold(box);
  }, true);
})();
