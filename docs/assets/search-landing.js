// Three additions to Material's search, for which Material has no setting.
//
// 1. The first result opens the question. Material lists the results of a page as one group whose
//    first link is the page itself, even when one of its sections scored higher (the index ranks a
//    page's own entry below its sections: src/studysite/search_index.py). Pressing Enter follows
//    the best-scored link, the question's; clicking the group's first link opened the page's top.
//    In such a group the page's link here leads to its best section as well.
// 2. No spoilers in self-test mode. A result's teaser is the question's text from the index: the
//    Asked-as line and the short answer. While self-test mode is on (the switch of study.js, kept
//    in localStorage) the results show titles only.
// 3. Stop words do not rank. Material makes each query word a prefix ("a" becomes a*) and lunr
//    skips its stop-word filter for prefixes, so "a" or "to" matched every word starting so: "yield
//    samples from a python generator" opened the question on gradient accumulation. The query
//    reaches Material's search worker without them (unless it holds nothing else).
(function () {
  "use strict";
  var SELF_TEST_KEY = "pytorch-foundations.selftest";
  var NO_ANSWERS = "search-no-answers";
  var QUERY_MESSAGE = 2;  // Material's SearchMessageType.QUERY: { type: 2, data: "the query" }
  // lunr's English stop words (lunr.stopWordFilter), which the index leaves out.
  var STOP_WORDS = new Set((
    "a able about across after all almost also am among an and any are as at be because been but by " +
    "can cannot could dear did do does either else ever every for from get got had has have he her hers " +
    "him his how however i if in into is it its just least let like likely may me might most must my " +
    "neither no nor not of off often on only or other our own rather said say says she should since so " +
    "some than that the their them then there these they this tis to too twas us wants was we were what " +
    "when where which while who whom why will with would yet you your").split(" "));

  function withoutStopWords(query) {
    var words = query.split(/[^\w]+/).filter(function (word) { return word; });
    var kept = words.filter(function (word) { return !STOP_WORDS.has(word.toLowerCase()); });
    return kept.length ? kept.join(" ") : query;
  }

  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === QUERY_MESSAGE && typeof message.data === "string") {
      var args = Array.prototype.slice.call(arguments);
      args[0] = { type: QUERY_MESSAGE, data: withoutStopWords(message.data) };
      return post.apply(this, args);
    }
    return post.apply(this, arguments);
  };

  function selfTest() {
    if (document.documentElement.classList.contains("selftest")) return true;
    try { return localStorage.getItem(SELF_TEST_KEY) === "on"; } catch (e) { return false; }
  }

  function score(link) {
    var article = link.querySelector("[data-md-score]");
    return article ? parseFloat(article.getAttribute("data-md-score")) : 0;
  }

  // A result group: the page's link first, then its sections' links (some inside "N more").
  function leadToBestSection(item) {
    var links = item.querySelectorAll("a.md-search-result__link");
    if (links.length < 2) return;
    var page = links[0], best = null;
    for (var i = 1; i < links.length; i++) {
      if (!best || score(links[i]) > score(best)) best = links[i];
    }
    if (score(best) > score(page)) page.href = best.href;
  }

  function addStyle() {
    if (document.getElementById("search-landing-style")) return;
    var style = document.createElement("style");
    style.id = "search-landing-style";
    style.textContent = "." + NO_ANSWERS + " .md-search-result__article > :not(h1, h2, .md-search-result__icon, .md-tags, .md-search-result__terms) " +
      "{ display: none; }";
    document.head.appendChild(style);
  }

  function watch() {
    var list = document.querySelector(".md-search-result__list");
    if (!list || list.hasAttribute("data-search-landing")) return;
    list.setAttribute("data-search-landing", "");
    addStyle();
    new MutationObserver(function (changes) {
      list.classList.toggle(NO_ANSWERS, selfTest());
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1 && node.classList.contains("md-search-result__item")) leadToBestSection(node);
        });
      });
    }).observe(list, { childList: true });
  }

  if (typeof document$ !== "undefined") document$.subscribe(watch);  // Material's instant navigation
  else watch();
})();
