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

test("got it schedules the question later, review again sooner", () => {
  const good = P.grade(undefined, "good", MONDAY);
  const again = P.grade(undefined, "again", MONDAY);
  assert.ok(Date.parse(good.due) > Date.parse(again.due));
  assert.equal(P.describeDue(again, MONDAY), "tomorrow");
  assert.equal(good.last_grade, "good");
  assert.equal(again.last_grade, "again");
  assert.ok(P.validate({ format: P.FORMAT, version: 1, questions: { q: good, r: again } }).ok);
});

test("a second grade on the same day replaces the first", () => {
  const first = P.grade(undefined, "again", MONDAY);
  const changed = P.grade(first, "good", days(0.1));
  const direct = P.grade(undefined, "good", days(0.1));
  assert.equal(changed.reps, 1);
  assert.equal(changed.due, direct.due);
  const later = P.grade(changed, "good", new Date(changed.due));
  assert.equal(later.reps, 2);
  assert.ok(Date.parse(later.due) - Date.parse(changed.due) > Date.parse(changed.due) - MONDAY.getTime());
});

test("a question is due today until the end of its due day", () => {
  const entry = P.grade(undefined, "again", MONDAY);
  assert.equal(P.isDueToday(entry, MONDAY), false);
  assert.equal(P.isDueToday(entry, new Date(2026, 0, 6, 0, 5)), true);
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
