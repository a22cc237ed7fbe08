// Additions to Material's search, for which Material has no setting.
//
// 1. The first result opens the question. Material lists the results of a page as one group whose
//    first link is the page itself, even when one of its sections scored higher (the index ranks a
//    page's own entry below its sections: src/studysite/search_index.py). Pressing Enter follows
//    the best-scored link, the question's; clicking the group's first link opened the page's top.
//    In such a group the page's link here leads to its best section as well.
// 2. No spoilers in self-test mode. A result's teaser is the question's text from the index: the
//    Asked-as line and the short answer. While self-test mode is on (the switch of study.js, kept
//    in localStorage) the results show titles only.
// 3. The query is read against the site's own words before it reaches Material's search worker
//    (search-reading.js, fetched when the reader first types a query): stop words and "vs" do not
//    rank, short forms match as words ("amp" is not Ampere), misspellings find the word meant.
// 4. Enter opens a result only when it answers the query: every word is one the site has and the
//    best result holds them (all but one in three). Otherwise the results stay open under "No
//    question matches", naming the words that nothing on the site holds: a query about something
//    the site does not cover no longer opens an unrelated question as if it matched.
(function () {
  "use strict";
  var SELF_TEST_KEY = "pytorch-foundations.selftest";
  var NO_ANSWERS = "search-no-answers";
  var NO_MATCH = "search-no-match";
  // Material's search messages (SearchMessageType): { type, data }.
  var SETUP = 0, QUERY = 2, RESULT = 3;
  // Fetched when the reader first types a query, with the index if its setup message went past
  // before this script was read.
  var READING_URL = new URL("search-reading.js", document.currentScript.src).href;
  var INDEX_URL = new URL("../search/search_index.json", document.currentScript.src).href;

  var indexData = null;  // Material's index, as its setup message carries it
  var reader = null;     // SearchReading over the index, once fetched
  var loading = false;
  var failed = false;    // search-reading.js or the index did not come: Material's search alone
  var waiting = null;    // the last query typed while search-reading.js was on its way
  var sent = [];         // queries sent to the worker, oldest first, each read or null; one result each
  var verdict = null;    // how the last result answers its query
  var enterPending = false;

  function showVerdict() {
    var result = document.querySelector(".md-search-result");
    if (!result || !verdict) return;
    var meta = result.querySelector(".md-search-result__meta");
    // Material's result count is not announced: a live region makes a screen reader say it, and
    // say "No question matches" where the query has no answer here.
    if (meta && !meta.hasAttribute("role")) meta.setAttribute("role", "status");
    var unanswered = !verdict.match && verdict.query.trim() !== "";  // an empty box asks nothing
    result.classList.toggle(NO_MATCH, unanswered);
    if (!unanswered || !meta) return;
    var unknown = verdict.unknown.length
      ? " Nothing on this site holds “" + verdict.unknown.join("”, “") + "”."
      : "";
    var shown = result.querySelector(".md-search-result__item") ? " Nearest results:" : "";
    meta.textContent = "No question matches “" + verdict.query.trim() + "”." + unknown + shown;
  }

  function onMessage(event) {
    var message = event.data;
    if (!message || message.type !== RESULT || !sent.length) return;
    var read = sent.shift();
    verdict = read && reader.judge(read, message.data.items || []);
    showVerdict();
    var input = document.querySelector("input.md-search__input");
    if (enterPending && verdict && input && verdict.query === input.value) {
      enterPending = false;
      if (verdict.match) openBest();
    }
  }

  function ask(worker, query) {
    var read = reader && query.trim() ? reader.read(query) : null;
    sent.push(read);
    return post.call(worker, { type: QUERY, data: read ? read.lunr : query });
  }

  function loadReader(worker) {
    if (loading) return;
    loading = true;
    var element = document.createElement("script");
    element.src = READING_URL;
    element.onload = function () {
      var index = indexData ? Promise.resolve(indexData) : fetch(INDEX_URL).then(function (r) { return r.json(); });
      index.then(function (data) {
        reader = window.SearchReading.learn(data);
      }).finally(function () {
        failed = !reader;
        if (waiting !== null) ask(worker, waiting);
        waiting = null;
      });
    };
    element.onerror = function () {
      failed = true;
      if (waiting !== null) ask(worker, waiting);
      waiting = null;
    };
    document.head.appendChild(element);
  }

  var post = Worker.prototype.postMessage;
  var heard = new WeakSet();
  Worker.prototype.postMessage = function (message) {
    var worker = this;
    if (!heard.has(worker)) {
      heard.add(worker);
      worker.addEventListener("message", onMessage);
    }
    if (message && message.type === SETUP && message.data && message.data.docs) indexData = message.data;
    if (!message || message.type !== QUERY || typeof message.data !== "string") {
      return post.apply(worker, arguments);
    }
    // Material sends the empty box's query when the index is ready: it fetches nothing more.
    if (reader || failed || !message.data.trim()) {
      return ask(worker, message.data);
    }
    waiting = message.data;
    loadReader(worker);
  };

  // Material's own choice on Enter: the best-scored link of the first result.
  function openBest() {
    var links = document.querySelectorAll(".md-search-result__item:first-child [href]");
    var best = null;
    links.forEach(function (link) { if (!best || score(link) > score(best)) best = link; });
    if (best) best.click();
  }

  // Enter reaches Material (on window) only when the best result answers the typed query; before
  // its result is in, it waits for it.
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !(input instanceof HTMLInputElement) || !input.matches(".md-search__input")) return;
    if (failed || !input.value.trim()) return;
    if (reader && verdict && verdict.query === input.value) {
      if (verdict.match) return;
      showVerdict();
    } else {
      enterPending = true;
    }
    event.preventDefault();
    event.stopPropagation();
  }, true);

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
