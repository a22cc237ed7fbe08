// The query reading of docs/assets/search-reading.js under node's own test runner:
// node --test tests/studysite/search_js/
const test = require("node:test");
const assert = require("node:assert/strict");
const { learn } = require("../../../docs/assets/search-reading.js");

const SEPARATOR = "[\\s\\-,:!?=\\[\\]()\"'`/*^~+<>\\\\_]+|\\.(?!\\d)|&[lg]t;"; // mkdocs.yml's
const doc = (location, title, text, words) => ({ location, title, text: `<p>${text}</p>`, words });
const SITE = learn({
  config: { separator: SEPARATOR },
  docs: [
    doc("precision/#amp", "Mixed precision: <code>autocast</code> and <code>GradScaler</code>",
      "How does automatic mixed precision (AMP) work?", "saving scaled losses"),
    doc("gpus/#tensor-cores", "Tensor Cores", "Ampere and Hopper GPUs run float16 matmuls.", "kernel names"),
    doc("loss/#bce", "<code>BCEWithLogitsLoss</code> versus <code>BCELoss</code>", "Stable for any logits.", ""),
    doc("loss/#drill", "Practice: bce_with_logits", "Write bce_with_logits(logits).", ""),
    doc("memory/#pin", "pin_memory", "Page-locked memory copies faster.", "transfer"),
    doc("memory/#free", "Free memory", "As the driver sees it: torch.cuda.mem_get_info.", ""),
    doc("dist/#dp", "<code>DataParallel</code> vs. <code>DistributedDataParallel</code>",
      "Why is DP slower than DDP?", "gradient checkpointing export"),
    doc("norm/#layers", "BatchNorm vs. LayerNorm", "What each normalizes over.", ""),
    doc("viz/#tsne", "Embeddings", "Project them with t-SNE.", ""),
    doc("workers/#pickle", "A lambda as collate_fn", "Can't pickle a lambda under spawn.", ""),
    doc("state/#load", "Loading a <code>state_dict</code>", "strict=False and map_location.", ""),
  ],
});

const terms = (read) => read.words.map((word) => word.terms.map((choices) => choices.map((t) => t.term)));
const items = (...locations) => [locations.map((location) => ({ location }))];

test("a short form the site writes in capitals is matched as that word, never as a prefix", () => {
  const read = SITE.read("amp");
  assert.equal(read.lunr, "amp^1");  // a boost keeps Material from making it amp*
  assert.equal(SITE.read("gpu").lunr, "gpus^1", "or its plural");
  assert.ok(SITE.judge(read, items("precision/#amp")).match);
  assert.ok(!SITE.judge(read, items("gpus/#tensor-cores")).match, "Ampere does not hold amp");
});

test("a short form also matches the code names written with it as a word of their own", () => {
  const read = SITE.read("bce logits");
  assert.deepEqual(new Set(terms(read)[0][0]), new Set(["bce", "bcewithlogitsloss", "bceloss"]));
  assert.ok(SITE.judge(read, items("loss/#bce")).match);
});

test("any other short word is a prefix as well", () => {
  const read = SITE.read("pin mem");
  assert.equal(read.lunr, "pin mem");  // not only the "mem" of mem_get_info
  assert.ok(SITE.judge(read, items("memory/#pin")).match);
});

test("stop words and the words of a comparison do not reach lunr", () => {
  const plain = SITE.read("dataparallel ddp").lunr;
  assert.equal(SITE.read("dataparallel vs ddp").lunr, plain);
  assert.equal(SITE.read("What is the difference between DataParallel and DDP?").lunr, plain);
  const none = SITE.read("what is the");
  assert.deepEqual(none.words, []);
  assert.ok(!SITE.judge(none, items("dist/#dp")).match, "a query of stop words alone matches nothing");
});

test("two words the site writes as one are joined, and one it writes joined is split", () => {
  assert.equal(SITE.read("batch norm").lunr, "batchnorm");
  assert.deepEqual(terms(SITE.read("tsne"))[0], [["sne"]]);
  assert.deepEqual(terms(SITE.read("statedict"))[0], [["state"], ["dict"]]);
  assert.deepEqual(SITE.read("cant pickle").words.map((w) => w.text), ["pickle"]);
});

test("a misspelt word is read as the nearest word of the site", () => {
  assert.deepEqual(terms(SITE.read("gradscalar"))[0], [["gradscaler"]]);
  assert.deepEqual(terms(SITE.read("chekpointing"))[0], [["checkpoint"]]);  // in its other forms too
  assert.ok(SITE.read("bert").words[0].unknown, "four letters are too few to guess from");
});

test("a word is matched in its other forms", () => {
  assert.deepEqual(terms(SITE.read("save"))[0], [["saving"]]);
  assert.deepEqual(terms(SITE.read("losses"))[0], [["loss"]]);  // a prefix of losses too
});

test("a result answers the query when it holds every word, or all but one in three", () => {
  assert.ok(SITE.judge(SITE.read("dataparallel ddp"), items("dist/#dp")).match);
  assert.ok(!SITE.judge(SITE.read("dataparallel ddp"), items("norm/#layers")).match);
  assert.ok(!SITE.judge(SITE.read("layernorm ddp"), items("norm/#layers")).match, "one of two is missing");
  assert.ok(SITE.judge(SITE.read("layernorm batchnorm ddp"), items("norm/#layers")).match, "one of three");
  assert.ok(!SITE.judge(SITE.read("dataparallel ddp"), []).match, "no result answers nothing");
});

test("a word nothing on the site holds means no result answers the query, and is named", () => {
  const verdict = SITE.judge(SITE.read("onnx export ddp"), items("dist/#dp"));
  assert.ok(!verdict.match);
  assert.deepEqual(verdict.unknown, ["onnx"]);
});
