/* Math, rendered by KaTeX served from this site (assets/katex: the dist files of the npm package
   katex 0.19.1). Loaded only on a page that has a formula: pymdownx.arithmatex marks them with
   .arithmatex; a lab notebook's Markdown keeps its $...$ as written. A formula the build already
   rendered (studysite/formulas.py, .arithmatex--rendered) needs KaTeX's stylesheet only. */
(function () {
  var base = new URL("katex/", document.currentScript.src).href;
  var loading = null;
  var styled = false;

  function style() {
    if (styled) return;
    styled = true;
    var css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = base + "katex.min.css";
    document.head.appendChild(css);
  }

  function load() {
    if (loading) return loading;
    style();
    loading = script("katex.min.js").then(function () {
      return script("contrib/auto-render.min.js");
    });
    return loading;
  }

  function script(name) {
    return new Promise(function (resolve, reject) {
      var element = document.createElement("script");
      element.src = base + name;
      element.onload = resolve;
      element.onerror = reject;
      document.head.appendChild(element);
    });
  }

  var delimiters = [
    { left: "$$", right: "$$", display: true },
    { left: "$", right: "$", display: false },
    { left: "\\(", right: "\\)", display: false },
    { left: "\\[", right: "\\]", display: true },
  ];

  function render() {
    if (document.querySelector(".arithmatex--rendered")) style();
    var formulas = document.querySelectorAll(
      ".arithmatex:not(.arithmatex--rendered), .jupyter-wrapper .jp-RenderedMarkdown"
    );
    var found = Array.prototype.filter.call(formulas, function (element) {
      return element.classList.contains("arithmatex") || /\$[^$]+\$/.test(element.textContent);
    });
    if (!found.length) return;
    load().then(function () {
      found.forEach(function (element) {
        window.renderMathInElement(element, { delimiters: delimiters, throwOnError: false });
      });
    });
  }

  // Material's instant navigation swaps pages without reloading scripts: render on each page.
  if (window.document$) window.document$.subscribe(render);
  else document.addEventListener("DOMContentLoaded", render);
})();
