// Self-test mode: one switch in the header hides every answer behind its question; each answer can
// be revealed on its own or all at once. The choice is kept in localStorage. Without JavaScript
// nothing is hidden. Runs again after every instant navigation (Material's document$).
(function () {
  "use strict";
  var KEY = "pytorch-foundations.selftest";

  function enabled() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function store(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: per page */ }
  }

  function apply(on) {
    document.documentElement.classList.toggle("selftest", on);
    var button = document.querySelector(".selftest-switch");
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.title = on ? "Self-test is on: answers are hidden" : "Self-test: hide the answers";
    }
  }

  function setRevealed(answer, revealed) {
    answer.classList.toggle("revealed", revealed);
    var toggle = answer.previousElementSibling;
    if (toggle && toggle.classList.contains("answer-toggle")) {
      toggle.textContent = revealed ? "Hide answer" : "Show answer";
      toggle.setAttribute("aria-expanded", revealed ? "true" : "false");
    }
  }

  function addSwitch() {
    if (document.querySelector(".selftest-switch")) return;
    var header = document.querySelector(".md-header__inner");
    var search = header && header.querySelector(".md-search");
    if (!header) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "selftest-switch md-header__button";
    button.setAttribute("aria-label", "Self-test mode");
    button.innerHTML = '<span class="selftest-switch__label">Self-test</span>';
    button.addEventListener("click", function () {
      var on = !enabled();
      store(on);
      apply(on);
    });
    header.insertBefore(button, search || null);
  }

  function addToggles() {
    var answers = document.querySelectorAll("article .answer");
    answers.forEach(function (answer) {
      if (answer.previousElementSibling && answer.previousElementSibling.classList.contains("answer-toggle")) return;
      var toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "answer-toggle md-button";
      toggle.addEventListener("click", function () {
        setRevealed(answer, !answer.classList.contains("revealed"));
      });
      answer.parentNode.insertBefore(toggle, answer);
      setRevealed(answer, false);
    });
    var article = document.querySelector("article");
    if (answers.length && article && !article.querySelector(".selftest-bar")) {
      var bar = document.createElement("p");
      bar.className = "selftest-bar";
      bar.innerHTML = 'Self-test: answers are hidden. ' +
        '<button type="button" class="md-button" data-reveal="all">Show all answers</button> ' +
        '<button type="button" class="md-button" data-reveal="none">Hide all</button> ' +
        '<button type="button" class="md-button" data-reveal="off">Turn self-test off</button>';
      bar.addEventListener("click", function (event) {
        var choice = event.target.getAttribute && event.target.getAttribute("data-reveal");
        if (choice === "off") { store(false); apply(false); return; }
        if (choice) answers.forEach(function (a) { setRevealed(a, choice === "all"); });
      });
      var title = article.querySelector("h1");
      article.insertBefore(bar, title ? title.nextSibling : article.firstChild);
    }
  }

  // A link to something inside a hidden answer (a correction, a snippet's output) reveals it.
  function revealTarget() {
    if (!location.hash) return;
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var answer = target && target.closest(".answer");
    if (answer && answer !== target) setRevealed(answer, true);
  }

  // The header names the question being read (Material shows the page title there on scroll).
  var pageTitle = "";
  function currentQuestion() {
    var topic = document.querySelector('.md-header__topic[data-md-component="header-topic"] .md-ellipsis');
    if (!topic) return;
    var current = null;
    document.querySelectorAll("article h2[id]").forEach(function (h) {
      if (h.getBoundingClientRect().top < 120) current = h;
    });
    var text = current ? current.textContent.replace(/\u00b6$/, "").trim() : pageTitle;
    if (text && topic.textContent !== text) topic.textContent = text;
  }
  var ticking = false;
  window.addEventListener("scroll", function () {
    if (ticking) return;
    ticking = true;
    window.requestAnimationFrame(function () { ticking = false; currentQuestion(); });
  }, { passive: true });

  function setUp() {
    addSwitch();
    apply(enabled());
    addToggles();
    revealTarget();
    var h1 = document.querySelector("article h1");
    pageTitle = h1 ? h1.textContent.replace(/\u00b6$/, "").trim() : document.title;
    currentQuestion();
  }

  window.addEventListener("hashchange", revealTarget);
  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else {
    document.addEventListener("DOMContentLoaded", setUp);
  }
})();
