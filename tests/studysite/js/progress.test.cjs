// The pure logic of docs/assets/progress.js under node's own test runner:
// node --test tests/studysite/js/
const test = require("node:test");
const assert = require("node:assert/strict");
const P = require("../../../docs/assets/progress.js");

function memoryStorage(initial) {
  const items = new Map(Object.entries(initial || {}));
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
    items,
  };
}

const MONDAY = new Date(2026, 0, 5, 9, 0);
const days = (n) => new Date(MONDAY.getTime() + n * 86400000);

const minutes = (date, n) => new Date(date.getTime() + n * 60000);

test("got it schedules the question days later, review again the same day", () => {
  const good = P.grade(undefined, "good", MONDAY);
  const again = P.grade(undefined, "again", MONDAY);
  assert.equal(P.describeDue(good, MONDAY), "in 2 days");
  assert.equal(Date.parse(again.due) - MONDAY.getTime(), 10 * 60000, "one learning step of 10 minutes");
  assert.equal(P.describeDue(again, MONDAY), "in 10 minutes");
  assert.equal(P.isDueToday(again, MONDAY), true);
  assert.equal(good.last_grade, "good");
  assert.equal(again.last_grade, "again");
  assert.ok(P.validate({ format: P.FORMAT, version: 1, questions: { q: good, r: again } }).ok);
});

test("a question known for days and then missed comes back the same day", () => {
  let entry = P.grade(undefined, "good", MONDAY);
  entry = P.grade(entry, "good", new Date(entry.due));
  const reviewed = new Date(entry.due);
  assert.ok(reviewed - MONDAY >= 5 * 86400000, "two successes put it days away");
  const missed = P.grade(entry, "again", reviewed);
  assert.equal(missed.lapses, 1);
  assert.equal(Date.parse(missed.due) - reviewed.getTime(), 10 * 60000);
  assert.equal(P.isDueToday(missed, reviewed), true);
  const relearned = P.grade(missed, "good", minutes(reviewed, 15));
  assert.equal(relearned.reps, missed.reps + 1, "the second look is a review of its own");
  assert.ok(Date.parse(relearned.due) - reviewed.getTime() >= 86400000, "then days again");
});

test("two misses in a row keep the question due today", () => {
  const first = P.grade(undefined, "again", MONDAY);
  const second = P.grade(first, "again", minutes(MONDAY, 12));
  assert.equal(second.reps, 2);
  assert.equal(P.isDueToday(second, minutes(MONDAY, 12)), true);
  assert.equal(Date.parse(second.due) - minutes(MONDAY, 12).getTime(), 10 * 60000);
});

test("a second grade before the question is due again replaces the first", () => {
  const first = P.grade(undefined, "again", MONDAY);
  const changed = P.grade(first, "good", minutes(MONDAY, 2));
  const direct = P.grade(undefined, "good", minutes(MONDAY, 2));
  assert.equal(changed.reps, 1);
  assert.equal(changed.due, direct.due);
  const later = P.grade(changed, "good", new Date(changed.due));
  assert.equal(later.reps, 2);
  assert.ok(Date.parse(later.due) - Date.parse(changed.due) > Date.parse(changed.due) - MONDAY.getTime());
});

test("a question is due today until the end of its due day", () => {
  const entry = P.grade(undefined, "good", MONDAY);
  assert.equal(P.isDueToday(entry, MONDAY), false);
  assert.equal(P.isDueToday(entry, new Date(2026, 0, 7, 0, 5)), true);
});

test("undo puts back exactly what the grade replaced", () => {
  const storage = memoryStorage();
  const first = P.record(storage, "q", "good", MONDAY);
  assert.equal(first.previous, undefined);
  const before = storage.getItem(P.KEY);
  const second = P.record(storage, "q", "again", new Date(first.entry.due));
  assert.deepEqual(second.previous, first.entry);
  assert.ok(P.restore(storage, "q", second.previous).ok);
  assert.equal(storage.getItem(P.KEY), before);
  assert.ok(P.restore(storage, "q", first.previous).ok);
  assert.deepEqual(JSON.parse(storage.getItem(P.KEY)).questions, {}, "undoing the first grade leaves none");
});

test("an export is due a week after the last one, or after the first review without one", () => {
  const data = P.empty();
  assert.equal(P.firstReview(data), null);
  assert.equal(P.exportDue(data, null, days(30)), false, "nothing to keep, nothing to export");
  data.questions.a = P.grade(undefined, "good", days(1));
  const b = P.grade(undefined, "good", MONDAY);
  data.questions.b = P.grade(b, "good", new Date(b.due));
  assert.equal(P.firstReview(data).getTime(), MONDAY.getTime(), "the review before the last counts too");
  assert.equal(P.exportDue(data, null, days(6.9)), false);
  assert.equal(P.exportDue(data, null, days(7)), true);
  assert.equal(P.exportDue(data, days(5), days(11)), false);
  assert.equal(P.exportDue(data, days(5), days(12)), true);
});

test("foreign, corrupt and newer documents are refused with a reason", () => {
  const good = P.grade(undefined, "good", MONDAY);
  const cases = [
    ["not json {", "not JSON"],
    [JSON.stringify({ deck: "anki", notes: [] }), "not a progress file"],
    [JSON.stringify({ format: P.FORMAT, version: 2, questions: {} }), "format version 2"],
    [JSON.stringify({ format: P.FORMAT, version: 1, questions: [] }), "no list of questions"],
    [JSON.stringify({ format: P.FORMAT, version: 1, questions: { "Bad Id": good } }), "no page could have"],
    [JSON.stringify({ format: P.FORMAT, version: 1, questions: { q: { ...good, due: "soon" } } }), "due date"],
    [JSON.stringify({ format: P.FORMAT, version: 1, questions: { q: { ...good, reps: -1 } } }), "reps"],
    [JSON.stringify({ format: P.FORMAT, version: 1, questions: { q: { ...good, last_grade: "meh" } } }), "last_grade"],
  ];
  for (const [text, reason] of cases) {
    const result = P.parse(text);
    assert.equal(result.ok, false, text);
    assert.match(result.error, new RegExp(reason), text);
  }
});

test("unreadable storage is never written over", () => {
  const storage = memoryStorage({ [P.KEY]: "{broken" });
  const result = P.record(storage, "q", "good", MONDAY);
  assert.equal(result.ok, false);
  assert.match(result.error, /cannot be read/);
  assert.equal(storage.getItem(P.KEY), "{broken");
  const key = P.setAside(storage, MONDAY);
  assert.equal(storage.getItem(key), "{broken");
  assert.ok(P.record(storage, "q", "good", MONDAY).ok);
});

test("an import keeps the more recent review of each question", () => {
  const here = P.empty();
  const there = P.empty();
  here.questions.a = P.grade(undefined, "good", days(3));
  there.questions.a = P.grade(undefined, "again", days(1));
  here.questions.b = P.grade(undefined, "again", days(1));
  there.questions.b = P.grade(undefined, "good", days(2));
  there.questions.c = P.grade(undefined, "good", days(2));
  const { data, counts } = P.merge(here, there);
  assert.deepEqual(counts, { added: 1, updated: 1, kept: 1 });
  assert.equal(data.questions.a.last_grade, "good");
  assert.equal(data.questions.b.last_grade, "good");
  assert.ok(data.questions.c);
  assert.ok(P.parse(P.exportText(data)).ok, "an export reads back");
});
