// The reader's progress: one entry per question, keyed by the question's stable id (its anchor,
// unique site-wide, the id the Anki deck uses too), scheduled by FSRS (ts-fsrs, vendored beside
// this file). Kept in localStorage as a versioned document; the same document is the export file.
// Anything that does not validate (in storage or in a file to import) is refused with a message
// and never written over. Pure functions, so that node can test them (tests/studysite).
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(function () { return require("./vendor/ts-fsrs/ts-fsrs.min.js"); });
    return;
  }
  var scheduler = new URL("vendor/ts-fsrs/ts-fsrs.min.js", document.currentScript.src).href;
  var loading = null;
  var progress = factory(function () { return root.FSRS; });
  // The scheduler (ts-fsrs, 25 KB) is needed only to grade, so a page does not load it: it is
  // fetched the first time the reader grades, or points at a grade button (study.js, mock.js).
  progress.loadScheduler = function () {
    if (root.FSRS) return Promise.resolve();
    loading = loading || new Promise(function (resolve, reject) {
      var element = document.createElement("script");
      element.src = scheduler;
      element.onload = resolve;
      element.onerror = function () {
        loading = null;
        reject(new Error("The scheduler did not load; grade again."));
      };
      document.head.appendChild(element);
    });
    return loading;
  };
  // Asks the browser to keep the site's storage (navigator.storage.persist()): without that, a
  // browser may clear it on its own (Safari does after 7 days without a visit). Asked once a page,
  // when there is progress to keep; resolves to "persistent", "not persistent" or "unknown" (a
  // browser without the Storage API).
  var keeping = null;
  progress.keepStorage = function () {
    var storage = root.navigator && root.navigator.storage;
    if (!storage || typeof storage.persist !== "function") return Promise.resolve("unknown");
    keeping = keeping || Promise.resolve(typeof storage.persisted === "function" ? storage.persisted() : false)
      .then(function (kept) { return kept || storage.persist(); })
      .then(function (kept) { return kept ? "persistent" : "not persistent"; }, function () { return "unknown"; });
    return keeping;
  };
  root.StudyProgress = progress;
})(typeof self !== "undefined" ? self : this, function (scheduled) {
  "use strict";

  var KEY = "pytorch-foundations.progress";
  var FORMAT = "pytorch-foundations/progress";
  var VERSION = 1;
  var MAX_FILE_BYTES = 2 * 1024 * 1024;
  var ID = /^[a-z0-9][a-z0-9-]{0,199}$/;
  var ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
  var CARD_COUNTS = ["elapsed_days", "scheduled_days", "learning_steps", "reps", "lapses"];
  var GRADES = { good: "Good", again: "Again" }; // FSRS's Rating names
  var LEARNING_STEPS = ["10m"];
  var WEEK = 7 * 24 * 60 * 60 * 1000;
  var FSRS = null;
  var scheduler = null;

  // Made on the first grade: in a browser the scheduler's script arrives only then.
  function schedule() {
    if (!scheduler) {
      FSRS = scheduled();
      if (!FSRS) throw new Error("the scheduler is not loaded");
      // A missed question comes back the same day: one learning step of 10 minutes after a miss,
      // for a new question and for one reviewed before; a question got right the first time goes
      // straight to whole days. No fuzz, so that the same grades give the same schedule.
      scheduler = FSRS.fsrs(FSRS.generatorParameters({
        enable_short_term: true,
        learning_steps: LEARNING_STEPS,
        relearning_steps: LEARNING_STEPS,
        enable_fuzz: false,
      }));
    }
    return scheduler;
  }

  function empty() {
    return { format: FORMAT, version: VERSION, questions: {} };
  }

  function isCount(value) {
    return typeof value === "number" && Number.isInteger(value) && value >= 0;
  }

  function isDate(value) {
    return typeof value === "string" && ISO_DATE.test(value) && !isNaN(Date.parse(value));
  }

  function cardProblem(card) {
    if (!card || typeof card !== "object" || Array.isArray(card)) return "is not an object";
    if (!isDate(card.due)) return "has no valid due date";
    if (!isDate(card.last_review)) return "has no valid last_review date";
    if (typeof card.stability !== "number" || !isFinite(card.stability) || card.stability < 0) {
      return "has an invalid stability";
    }
    if (typeof card.difficulty !== "number" || !isFinite(card.difficulty)) return "has an invalid difficulty";
    for (var i = 0; i < CARD_COUNTS.length; i++) {
      if (!isCount(card[CARD_COUNTS[i]])) return "has an invalid " + CARD_COUNTS[i];
    }
    if ([0, 1, 2, 3].indexOf(card.state) < 0) return "has an invalid state";
    return "";
  }

  function entryProblem(entry) {
    var problem = cardProblem(entry);
    if (problem) return problem;
    if (!Object.prototype.hasOwnProperty.call(GRADES, entry.last_grade)) return "has no valid last_grade";
    if (entry.before !== null && entry.before !== undefined) {
      problem = cardProblem(entry.before);
      if (problem) return "keeps an earlier state that " + problem;
    }
    return "";
  }

  // {ok: true, data} or {ok: false, error}: a document of this site's format and version, whose
  // every entry is well formed. One bad entry refuses the whole document: guessing which part
  // of damaged data is still right would be worse than asking.
  function validate(data) {
    if (!data || typeof data !== "object" || Array.isArray(data) || data.format !== FORMAT) {
      return { ok: false, error: "it is not a progress file of this site" };
    }
    if (data.version !== VERSION) {
      return {
        ok: false,
        error: "it has format version " + JSON.stringify(data.version) + ", and this site reads version " + VERSION,
      };
    }
    var questions = data.questions;
    if (!questions || typeof questions !== "object" || Array.isArray(questions)) {
      return { ok: false, error: "it has no list of questions" };
    }
    var ids = Object.keys(questions);
    for (var i = 0; i < ids.length; i++) {
      if (!ID.test(ids[i])) return { ok: false, error: "it names a question " + JSON.stringify(ids[i].slice(0, 60)) + " that no page could have" };
      var problem = entryProblem(questions[ids[i]]);
      if (problem) return { ok: false, error: "the entry of " + ids[i] + " " + problem };
    }
    return { ok: true, data: { format: FORMAT, version: VERSION, questions: questions } };
  }

  function parse(text) {
    if (typeof text !== "string") return { ok: false, error: "it is not text" };
    if (text.length > MAX_FILE_BYTES) return { ok: false, error: "it is larger than any progress file of this site" };
    var data;
    try {
      data = JSON.parse(text);
    } catch (e) {
      return { ok: false, error: "it is not JSON" };
    }
    return validate(data);
  }

  function toCard(stored) {
    var card = {};
    Object.keys(stored).forEach(function (key) { card[key] = stored[key]; });
    card.due = new Date(stored.due);
    card.last_review = new Date(stored.last_review);
    delete card.last_grade;
    delete card.before;
    return card;
  }

  function fromCard(card) {
    var stored = {
      due: card.due.toISOString(),
      last_review: card.last_review.toISOString(),
      stability: card.stability,
      difficulty: card.difficulty,
      state: card.state,
    };
    CARD_COUNTS.forEach(function (key) { stored[key] = card[key]; });
    return stored;
  }

  function sameDay(a, b) {
    return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  }

  // The entry after grading: "good" (Got it) or "again" (Review again) at `now`. A second grade
  // on the same day, before the question is due again, replaces the first (the reader changed
  // their mind) instead of counting as one more review; once it is due (a miss comes back after
  // its learning step), the grade is a review of its own.
  function grade(entry, verdict, now) {
    if (!Object.prototype.hasOwnProperty.call(GRADES, verdict)) throw new Error("unknown grade " + verdict);
    var before = entry ? entry.before || null : null;
    if (entry && (!sameDay(new Date(entry.last_review), now) || Date.parse(entry.due) <= now.getTime())) {
      before = fromCard(toCard(entry));
    }
    var fsrs = schedule();
    var card = before ? toCard(before) : FSRS.createEmptyCard(now);
    var next = fromCard(fsrs.next(card, now, FSRS.Rating[GRADES[verdict]]).card);
    next.last_grade = verdict;
    next.before = before;
    return next;
  }

  function endOfDay(now) {
    var end = new Date(now.getTime());
    end.setHours(23, 59, 59, 999);
    return end;
  }

  function isDueToday(entry, now) {
    return Date.parse(entry.due) <= endOfDay(now).getTime();
  }

  // Progress from a file merged into the progress here, question by question: the entry reviewed
  // last wins, so importing never loses a more recent review of either side.
  function merge(current, incoming) {
    var result = empty();
    var counts = { added: 0, updated: 0, kept: 0 };
    Object.keys(current.questions).forEach(function (id) { result.questions[id] = current.questions[id]; });
    Object.keys(incoming.questions).forEach(function (id) {
      var mine = result.questions[id];
      var theirs = incoming.questions[id];
      if (!mine) counts.added++;
      else if (Date.parse(theirs.last_review) > Date.parse(mine.last_review)) counts.updated++;
      else { counts.kept++; return; }
      result.questions[id] = theirs;
    });
    return { data: result, counts: counts };
  }

  // Storage. `storage` is localStorage (or anything with its getItem/setItem).
  function load(storage) {
    var raw;
    try {
      raw = storage.getItem(KEY);
    } catch (e) {
      return { ok: false, error: "this browser does not let the site keep data", raw: null };
    }
    if (raw === null) return { ok: true, data: empty() };
    var parsed = parse(raw);
    if (!parsed.ok) {
      parsed.error = "The progress saved in this browser cannot be read (" + parsed.error + "). Nothing is " +
        "written over it: the Study page can download it or set it aside.";
      parsed.raw = raw;
    }
    return parsed;
  }

  function save(storage, data) {
    storage.setItem(KEY, JSON.stringify(data));
  }

  // Grades one question and saves; refuses (and writes nothing) when the saved progress is unreadable.
  function record(storage, id, verdict, now) {
    var loaded = load(storage);
    if (!loaded.ok) return loaded;
    var previous = loaded.data.questions[id];
    var entry = grade(previous, verdict, now || new Date());
    loaded.data.questions[id] = entry;
    try {
      save(storage, loaded.data);
    } catch (e) {
      return { ok: false, error: "The browser refused to save the progress (" + e.name + ")." };
    }
    return { ok: true, entry: entry, previous: previous };
  }

  // Undoes a grade: puts back the entry `record` returned as `previous` (none: never graded).
  function restore(storage, id, previous) {
    var loaded = load(storage);
    if (!loaded.ok) return loaded;
    if (previous) loaded.data.questions[id] = previous;
    else delete loaded.data.questions[id];
    try {
      save(storage, loaded.data);
    } catch (e) {
      return { ok: false, error: "The browser refused to save the progress (" + e.name + ")." };
    }
    return { ok: true, entry: previous || null };
  }

  // The earliest review the progress still holds (a question's first grade of the day it was
  // last graded, when it has one), or null: how long this browser has held progress, at least.
  function firstReview(data) {
    var first = null;
    Object.keys(data.questions).forEach(function (id) {
      var entry = data.questions[id];
      var at = Date.parse((entry.before || entry).last_review);
      if (first === null || at < first) first = at;
    });
    return first === null ? null : new Date(first);
  }

  // Whether to remind the reader to export, where the browser may clear its storage: once a week
  // has passed since the last export, or, without one, since the earliest review kept.
  function exportDue(data, lastExport, now) {
    var since = lastExport || firstReview(data);
    return since !== null && now.getTime() - since.getTime() >= WEEK;
  }

  // Moves unreadable saved progress to a key of its own (named by the time, so that an earlier
  // one is not written over), so that progress can start again without losing it.
  function setAside(storage, now) {
    var key = KEY + ".unreadable." + now.toISOString();
    var raw = storage.getItem(KEY);
    if (raw !== null) storage.setItem(key, raw);
    storage.removeItem(KEY);
    return key;
  }

  function exportText(data) {
    return JSON.stringify(data, null, 1) + "\n";
  }

  // "today", "tomorrow", "in 3 days", "3 days ago": when an entry is or was due.
  function describeDue(entry, now) {
    var day = 24 * 60 * 60 * 1000;
    var start = new Date(now.getTime());
    start.setHours(0, 0, 0, 0);
    var due = new Date(entry.due);
    due.setHours(0, 0, 0, 0);
    var days = Math.round((due - start) / day);
    var minutes = Math.ceil((Date.parse(entry.due) - now.getTime()) / 60000);
    if (days === 0 && minutes > 0 && minutes < 60) return "in " + minutes + (minutes === 1 ? " minute" : " minutes");
    if (days === 0) return "today";
    if (days === 1) return "tomorrow";
    if (days > 1) return "in " + days + " days";
    return days === -1 ? "yesterday" : -days + " days ago";
  }

  return {
    KEY: KEY,
    FORMAT: FORMAT,
    VERSION: VERSION,
    empty: empty,
    validate: validate,
    parse: parse,
    grade: grade,
    isDueToday: isDueToday,
    merge: merge,
    load: load,
    save: save,
    record: record,
    restore: restore,
    firstReview: firstReview,
    exportDue: exportDue,
    setAside: setAside,
    exportText: exportText,
    describeDue: describeDue,
  };
});
