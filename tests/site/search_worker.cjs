// The built site's search without a browser: Material's own search worker (lunr and its ranking,
// from the built site's assets) set up with the built index as Material's page sets it up, each
// query read first by the site's search-reading.js as search-landing.js reads it.
//
//   node tests/site/search_worker.cjs SITE_DIR < queries.json > results.json
//
// queries.json is a list of strings; each result is {query, lunr, groups, match, unknown}, groups
// being the worker's result list: per page, its documents as {location, score} in the order
// Material lists them, each score rounded as the page writes it (data-md-score).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const site = process.argv[2];
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const index = JSON.parse(fs.readFileSync(path.join(site, "search", "search_index.json"), "utf8"));
const workers = path.join(site, "assets", "javascripts", "workers");
const [workerFile] = fs.readdirSync(workers).filter((name) => /^search\..*\.min\.js$/.test(name));

// The worker's global scope: it listens for messages and posts its answers back.
let onMessage = null;
const answers = [];
const scope = {
  console,
  addEventListener: (type, listener) => { if (type === "message") onMessage = listener; },
  postMessage: (message) => answers.push(message),
  importScripts: () => { throw new Error("the worker asked for a language pack the site does not use"); },
};
scope.self = scope;
vm.createContext(scope);
vm.runInContext(fs.readFileSync(path.join(workers, workerFile), "utf8"), scope, { filename: workerFile });

const { learn } = require(path.resolve(site, "assets", "search-reading.js"));

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;

async function send(message) {
  const before = answers.length;
  onMessage({ data: message });
  for (let waited = 0; answers.length === before; waited++) {
    if (waited > 10000) throw new Error("the search worker did not answer");
    await new Promise((resolve) => setImmediate(resolve));
  }
  return answers[answers.length - 1];
}

(async () => {
  // As Material's bundle sends it: the index's config and docs, and the suggest feature (mkdocs.yml).
  const data = { config: index.config, docs: index.docs, options: { suggest: true } };
  const ready = await send({ type: SETUP, data });
  if (ready.type !== READY) throw new Error(`the worker answered ${JSON.stringify(ready)} to its setup`);
  const reader = learn(data);
  const results = [];
  for (const query of queries) {
    const read = query.trim() ? reader.read(query) : null;
    const answer = await send({ type: QUERY, data: read ? read.lunr : query });
    if (answer.type !== RESULT) throw new Error(`the worker answered ${JSON.stringify(answer)} to ${query}`);
    const items = answer.data.items || [];
    const verdict = read ? reader.judge(read, items) : null;
    results.push({
      query,
      lunr: read ? read.lunr : query,
      groups: items.map((group) => group.map((doc) => ({
        location: doc.location, score: Number(doc.score.toFixed(2)),
      }))),
      match: verdict ? verdict.match : false,
      unknown: verdict ? verdict.unknown : [],
    });
  }
  process.stdout.write(JSON.stringify(results));
})().catch((error) => { console.error(error); process.exit(1); });
