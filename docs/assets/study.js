// Self-test mode: one switch in the header hides every answer behind its question. An answer is
// revealed in two steps, its short answer first, then the rest; a bar at the end of the answer
// (sticky while it is read) shows the next step, hides it again without moving the reader, and
// records "Got it" / "Review again" into the reader's progress (progress.js), with an Undo for
// the last grade. The mode is kept in localStorage. Without JavaScript nothing is hidden. Runs
// again after every instant navigation (Material's document$).
(function () {
  "use strict";
  var KEY = "pytorch-foundations.selftest";
  var Progress = window.StudyProgress;
  // A grade pressed this soon after the bar changed (a step shown or hidden, a grade recorded) is
  // the second tap of a double tap, not a choice: it is ignored.
  var SETTLE_MS = 600;

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

  function hasShortAnswer(answer) {
    return !!answer.querySelector(":scope > .short-answer");
  }

  function stageOf(answer) {
    return answer.classList.contains("revealed") ? "full" : answer.classList.contains("revealed-short") ? "short" : "hidden";
  }

  // stage: "hidden", "short" (the short answer only) or "full".
  function setStage(answer, stage) {
    if (stage === "short" && !hasShortAnswer(answer)) stage = "full";
    var changed = stage !== stageOf(answer);
    answer.classList.toggle("revealed", stage === "full");
    answer.classList.toggle("revealed-short", stage === "short");
    var toggle = answer.previousElementSibling;
    if (toggle && toggle.classList.contains("answer-toggle")) {
      var label = answer.getAttribute("data-reveal-label") || (hasShortAnswer(answer) ? "Show short answer" : "Show answer");
      toggle.textContent = stage === "hidden" ? label : "Hide answer";
      toggle.setAttribute("aria-expanded", stage === "hidden" ? "false" : "true");
    }
    // Shown or not, "Show full answer" keeps its place, the last in the bar: nothing slides
    // under the finger that pressed it.
    var more = answer.querySelector(":scope > .answer-bar [data-step=full]");
    if (more) more.classList.toggle("answer-bar__spent", stage !== "short");
    var bar = answer.querySelector(":scope > .answer-bar");
    if (bar && changed) bar.settledAt = Date.now() + SETTLE_MS;
  }

  // Hides an answer and scrolls so that its question's toggle takes the place of the button the
  // reader pressed: hiding from the end of a long answer does not throw them elsewhere on the page.
  function hideInPlace(answer, pressed) {
    var toggle = answer.previousElementSibling;
    var before = pressed.getBoundingClientRect().top;
    setStage(answer, "hidden");
    if (toggle && toggle !== pressed) window.scrollBy(0, toggle.getBoundingClientRect().top - before);
  }

  // Reveals the rest of an answer below its short answer, which stays where the reader sees it
  // (the browser's scroll anchoring could otherwise follow the bar to the end of the answer).
  function revealInPlace(answer, stage) {
    var before = answer.getBoundingClientRect().top;
    setStage(answer, stage);
    window.scrollBy(0, answer.getBoundingClientRect().top - before);
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

  function button(text, attribute, value) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "md-button";
    element.textContent = text;
    element.setAttribute(attribute, value);
    return element;
  }

  function showProgress(bar, entry) {
    var status = bar.querySelector(".answer-bar__status");
    if (!entry) {
      status.textContent = "Not graded yet.";
      bar.removeAttribute("data-graded");
      return;
    }
    var verdict = entry.last_grade === "good" ? "Got it" : "Review again";
    status.textContent = verdict + " · next review " + Progress.describeDue(entry, new Date()) + ".";
  }

  function gradeButtons() {
    var group = document.createElement("span");
    group.className = "answer-bar__grades";
    group.appendChild(button("Got it", "data-grade", "good"));
    group.appendChild(button("Review again", "data-grade", "again"));
    return group;
  }

  function preloadScheduler() {
    if (Progress) Progress.loadScheduler().catch(function () { /* said when grading */ });
  }

  function loadProgress() {
    return Progress ? Progress.load(window.localStorage) : { ok: false, error: "The progress script did not load." };
  }

  // The bar at the end of an answer: hide and the next step, then the grades when the answer is a
  // question's (on a row of their own at a phone's width), then what was recorded, with an Undo
  // for the last grade. In this order the keyboard reaches the grades after the full answer.
  function addBar(answer, loaded) {
    var id = answer.getAttribute("data-question-id");
    var bar = document.createElement("div");
    bar.className = id ? "answer-bar answer-bar--grades" : "answer-bar";
    var steps = bar.appendChild(document.createElement("span"));
    steps.className = "answer-bar__steps";
    steps.appendChild(button("Hide answer", "data-step", "hidden"));
    steps.appendChild(button("Show full answer", "data-step", "full"));
    if (id) bar.appendChild(gradeButtons());
    var line = bar.appendChild(document.createElement("span"));
    line.className = "answer-bar__line";
    var status = line.appendChild(document.createElement("span"));
    status.className = "answer-bar__status";
    status.setAttribute("role", "status");
    var undo = null;
    if (id) {
      if (loaded.ok) showProgress(bar, loaded.data.questions[id]);
      else status.textContent = loaded.error;
      undo = line.appendChild(button("Undo", "data-undo", ""));
      undo.hidden = true;
    }
    var last = null; // what the last grade here replaced, for Undo
    var busy = false;
    bar.settledAt = 0;
    bar.addEventListener("click", function (event) {
      var target = event.target.closest && event.target.closest("button");
      if (!target) return;
      var step = target.getAttribute("data-step");
      if (step === "hidden") hideInPlace(answer, target);
      else if (step && !target.classList.contains("answer-bar__spent")) revealInPlace(answer, step);
      if (target === undo && last) {
        var restored = Progress.restore(window.localStorage, id, last.previous);
        if (restored.ok) {
          showProgress(bar, restored.entry);
          if (restored.entry) bar.setAttribute("data-graded", restored.entry.last_grade);
          status.textContent = "Undone. " + status.textContent;
        } else {
          status.textContent = restored.error;
        }
        last = null;
        undo.hidden = true;
        return;
      }
      // A tap (event.detail > 0) this soon after a change is ignored; a key press is meant.
      var verdict = target.getAttribute("data-grade");
      if (!verdict || !Progress || busy || (event.detail > 0 && Date.now() < bar.settledAt)) return;
      busy = true;
      bar.settledAt = Date.now() + SETTLE_MS;
      Progress.loadScheduler().then(function () {
        var result = Progress.record(window.localStorage, id, verdict, new Date());
        if (result.ok) {
          last = { previous: result.previous };
          showProgress(bar, result.entry);
          bar.setAttribute("data-graded", verdict);
          undo.hidden = false;
          undo.setAttribute("aria-label", "Undo the grade " + (verdict === "good" ? "Got it" : "Review again"));
          Progress.keepStorage();
        } else {
          status.textContent = result.error;
        }
      }, function (error) { status.textContent = error.message; }).then(function () {
        busy = false;
        bar.settledAt = Date.now() + SETTLE_MS;
      });
    });
    // The scheduler is fetched while the pointer or focus reaches a grade, before the click.
    bar.addEventListener("pointerover", preloadScheduler);
    bar.addEventListener("focusin", preloadScheduler);
    answer.appendChild(bar);
  }

  function addToggles() {
    var answers = document.querySelectorAll("article .answer");
    var loaded = loadProgress();
    answers.forEach(function (answer) {
      if (answer.previousElementSibling && answer.previousElementSibling.classList.contains("answer-toggle")) return;
      var toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "answer-toggle md-button";
      toggle.addEventListener("click", function () {
        if (stageOf(answer) === "hidden") setStage(answer, "short");
        else hideInPlace(answer, toggle);
      });
      answer.parentNode.insertBefore(toggle, answer);
      addBar(answer, loaded);
      setStage(answer, "hidden");
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
        if (choice) answers.forEach(function (a) { setStage(a, choice === "all" ? "full" : "hidden"); });
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
    if (answer && answer !== target) setStage(answer, "full");
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

  // The Study page's and the mock interview's own scripts, fetched on those pages only (once:
  // each then follows Material's instant navigation itself, through document$).
  var here = document.currentScript.src;
  var PAGE_SCRIPTS = { "article .study-app": "study-page.js", "article .mock-app": "mock.js" };
  function loadPageScripts() {
    Object.keys(PAGE_SCRIPTS).forEach(function (selector) {
      var src = new URL(PAGE_SCRIPTS[selector], here).href;
      if (!document.querySelector(selector) || document.querySelector('script[src="' + src + '"]')) return;
      var element = document.createElement("script");
      element.src = src;
      document.head.appendChild(element);
    });
  }

  function setUp() {
    loadPageScripts();
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
