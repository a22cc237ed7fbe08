// How the site's search reads a query: against the site's own words, before lunr sees it, and
// whether the best result answers it. search-landing.js fetches this file when a reader first
// searches. Pure functions, so that node can test them (tests/studysite/search_js).
//
// Material makes each query word a prefix ("a" becomes a*, "amp" amp*, which found Ampere) and lunr
// skips its stop-word filter for prefixes, so stop words and "vs" ranked noise. Here stop words are
// left out; a short form the site writes in capitals is matched as that word ("amp": AMP, not
// Ampere; "ddp"), its plural, or a code name that starts with it ("bce": BCEWithLogitsLoss), and
// any other word of three letters or fewer as a prefix as well ("mem": memory); two words the site
// writes as one are joined ("check pointing", "batch norm"); one it writes joined by a dash, an
// underscore or an apostrophe is split ("tsne", "statedict", "cant"); a word is also matched in its
// other forms ("save": saving); and a word the site does not have is read as the nearest one it
// has, one letter off, two for long words ("gradscalar", "wirte").
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.SearchReading = factory();
})(this, function () {
  "use strict";
  // lunr's English stop words (lunr.stopWordFilter), which the index leaves out, and the words of a
  // comparison, which name no topic ("dataparallel vs ddp").
  var STOP_WORDS = new Set((
    "a able about across after all almost also am among an and any are as at be because been but by " +
    "can cannot could dear did do does either else ever every for from get got had has have he her hers " +
    "him his how however i if in into is it its just least let like likely may me might most must my " +
    "neither no nor not of off often on only or other our own rather said say says she should since so " +
    "some than that the their them then there these they this tis to too twas us wants was we were what " +
    "when where which while who whom why will with would yet you your " +
    "vs versus difference differences between").split(" "));
  var SHORT_FORM = 3;  // letters: a word this short is a short form ("AMP", "DDP") or a clipped word ("mem")

  // Each word of the index with the number of entries that hold it, and the words of each entry;
  // the words the site writes joined by a dash, an underscore, a dot or an apostrophe ("t-SNE",
  // "state_dict", "can't"); the short forms it writes in capitals ("AMP", "DDP", "NaN"), and the
  // code names that start with one as a word of their own ("BCE": BCEWithLogitsLoss, BCELoss; not
  // Ampere for "AMP").
  function learn(index) {
    var separator = new RegExp(index.config.separator);
    var words = new Map(), entries = new Map(), joined = new Map(), named = new Map(), capitals = new Set();
    index.docs.forEach(function (doc) {
      var text = [doc.title, doc.text, doc.words || ""].concat(doc.tags || []).join(" ").replace(/<[^>]*>/g, " ");
      var held = new Set();
      text.split(separator).forEach(function (word) {
        if (!word) return;
        var lower = word.toLowerCase();
        held.add(lower);
        var bare = word.replace(/(?!^)s$/, "");  // "GPUs"
        if (bare.length <= SHORT_FORM && /[A-Z].*[A-Z]/.test(bare)) capitals.add(bare.toLowerCase());
        var head = /^([A-Z]+)(?=[A-Z][a-z])|^([A-Z][a-z]+)(?=[A-Z])/.exec(word);
        var short = head && (head[1] || head[2]).toLowerCase();
        if (short && short.length <= SHORT_FORM) {
          if (!named.has(short)) named.set(short, new Set());
          named.get(short).add(lower);
          if (head[1]) capitals.add(short);
        }
      });
      entries.set(doc.location, held);
      held.forEach(function (word) { words.set(word, (words.get(word) || 0) + 1); });
      (text.toLowerCase().match(/[a-z0-9]+(?:[-_.'’][a-z0-9]+)+/g) || []).forEach(function (compound) {
        var parts = compound.split(/[-_.'’]/);
        if (parts.length <= 4) joined.set(parts.join(""), parts);
      });
    });
    var site = { separator: separator, words: words, entries: entries, joined: joined, named: named, capitals: capitals };
    return {
      read: function (query) { return readQuery(site, query); },
      judge: function (read, items) { return judge(site, read, items); },
    };
  }

  function startsAnyWord(site, prefix) {
    for (var word of site.words.keys()) if (word.startsWith(prefix)) return true;
    return false;
  }

  // Optimal string alignment distance (a swap of two letters is one edit), or limit + 1 beyond it.
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var rows = [];
    for (var i = 0; i <= a.length; i++) {
      rows.push([i]);
      for (var j = 1; j <= b.length; j++) {
        if (i === 0) { rows[0].push(j); continue; }
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
        rows[i].push(best);
      }
    }
    return rows[a.length][b.length];
  }

  // The word the site has that a misspelt word most likely means: the fewest edits, then the most
  // entries. Only words of five letters or more: shorter ones are a letter away from too many
  // ("bert" from "best").
  function nearestWord(site, word) {
    if (word.length <= SHORT_FORM + 1 || /\d/.test(word)) return null;
    var limit = word.length >= 8 ? 2 : 1, found = null, fewest = limit + 1, most = 0;
    site.words.forEach(function (entries, candidate) {
      if (candidate.length <= SHORT_FORM || /\d/.test(candidate)) return;
      var edits = distance(word, candidate, limit);
      if (edits < fewest || (edits === fewest && entries > most)) {
        found = candidate; fewest = edits; most = entries;
      }
    });
    return fewest <= limit ? found : null;
  }

  // A word and its other forms that start words of the site, each matched as a prefix: the index
  // keeps words as written (no stemmer), so "save" found no "saving", "gradients" no "gradient".
  function forms(site, word) {
    var found = [word], m;
    if ((m = /^(.{3,}?)(?:ing|ed)$/.exec(word))) {
      found.push(m[1] + "e");
      if (m[1].length >= 4) found.push(m[1]);
      if (/([^aeiou])\1$/.test(m[1])) found.push(m[1].slice(0, -1));  // "padding": pad
    } else if ((m = /^(.{3,})e$/.exec(word)) && !/[aeiou]$/.test(m[1])) {
      found.push(m[1] + "ing", m[1] + "ed");
    } else if ((m = /^(.{3,})s$/.exec(word)) && !/s$/.test(m[1])) {
      found.push(m[1]);
      if (/(?:[sxz]|[cs]h)e$/.test(m[1])) found.push(m[1].slice(0, -1));  // "batches": batch
    }
    found = found.filter(function (form) { return startsAnyWord(site, form); });
    return found.filter(function (form) {
      return !found.some(function (other) { return other !== form && form.startsWith(other); });
    });
  }

  function prefixes(site, word) {
    return forms(site, word).map(function (form) { return { term: form }; });
  }

  // One part of a query word as the site holds it: what lunr is to match, each a list of terms
  // any of which will do, a whole word (exact) or a prefix; none if it is a stop word in disguise
  // ("cant"); unknown if the site has nothing like it.
  function readPart(site, part) {
    var has = site.words.has(part);
    if (site.capitals.has(part)) {
      var whole = [part, part + "s"].concat(Array.from(site.named.get(part) || []));
      return { terms: [whole.filter(function (term) { return site.words.has(term); }).map(function (term) {
        return { term: term, exact: true };
      })] };
    }
    if (!has && site.joined.has(part)) {
      var pieces = site.joined.get(part).filter(function (piece) { return piece.length > 1 && !STOP_WORDS.has(piece); });
      return { terms: pieces.map(function (piece) { return [{ term: piece, exact: site.capitals.has(piece) }]; }) };
    }
    var found = prefixes(site, part);  // a clipped word ("mem") too
    if (found.length) return { terms: [found] };
    var nearest = nearestWord(site, part);
    if (nearest) return { terms: [prefixes(site, nearest)] };
    return { terms: [[{ term: part }]], unknown: true };
  }

  function joinedWord(site, first, second) {
    var word = first.join("") + second.join("");
    return first.length === 1 && second.length === 1 && word.length >= 6 && site.words.has(word) ? [word] : null;
  }

  // The query as the site reads it: its words (what the reader typed between spaces, "nn.ReLU" or
  // "requires_grad" one word of two parts) without stop words, each part read against the site's
  // words; and the query that goes to lunr (a query of stop words alone goes as typed, and
  // matches nothing).
  function readQuery(site, query) {
    var typed = query.toLowerCase().split(/\s+/).map(function (chunk) {
      return chunk.split(site.separator).filter(Boolean);
    });
    var kept = typed.map(function (parts) {
      return parts.filter(function (part) { return part.length > 1 && !STOP_WORDS.has(part); });
    }).filter(function (parts) { return parts.length; });
    var joined = [];
    for (var i = 0; i < kept.length; i++) {
      var both = i + 1 < kept.length ? joinedWord(site, kept[i], kept[i + 1]) : null;
      joined.push(both || kept[i]);
      if (both) i++;
    }
    var seen = new Set(), words = [];
    joined.forEach(function (parts) {
      var text = parts.join(" ");
      if (seen.has(text)) return;
      seen.add(text);
      var read = parts.map(function (part) { return readPart(site, part); });
      var terms = [].concat.apply([], read.map(function (part) { return part.terms; }));
      if (!terms.length) return;
      words.push({ text: text, terms: terms, unknown: read.some(function (part) { return part.unknown; }) });
    });
    var clauses = [];
    words.forEach(function (word) {
      // lunr's syntax: a boost (^1) keeps Material from making the word a prefix.
      word.terms.forEach(function (choices) {
        choices.forEach(function (t) { clauses.push(t.exact ? t.term + "^1" : t.term); });
      });
    });
    return { query: query, words: words, lunr: clauses.join(" ") || query };
  }

  // An entry holds a part of a query word when it holds one of its terms as lunr matches it: a
  // whole word, or the start of one.
  function holds(entry, choices) {
    return choices.some(function (t) { return t.exact ? entry.has(t.term) : startsHeldWord(entry, t.term); });
  }

  function startsHeldWord(entry, prefix) {
    for (var held of entry) if (held.startsWith(prefix)) return true;
    return false;
  }

  // Whether the best result answers the query: every word is one the site has, and the result
  // holds every part of them, or all but one in three (a remembered question rarely repeats its
  // heading's every word: "overfit single batch" for "overfit one batch").
  function judge(site, read, items) {
    var best = items.length ? items[0][0] : null;
    var entry = best && site.entries.get(best.location);
    var unknown = read.words.filter(function (word) { return word.unknown; }).map(function (word) { return word.text; });
    var parts = [].concat.apply([], read.words.map(function (word) { return word.terms; }));
    var missing = parts.filter(function (choices) { return !(entry && holds(entry, choices)); });
    var match = !!entry && parts.length > 0 && !unknown.length && missing.length <= Math.floor(parts.length / 3);
    return { query: read.query, match: match, unknown: unknown };
  }

  return { learn: learn, STOP_WORDS: STOP_WORDS };
});
