// What Material's templates leave out for keyboard and screen-reader users
// (squidfunk/mkdocs-material#4101, open): names for the search dialog, for the toggle of each
// navigation section that has an index page (it shows only an icon, and the section's nested
// navigation takes its name from it) and for each code block's buttons; and keyboard focus for a
// table or code block that scrolls sideways (on a phone), so that it can be scrolled without a
// pointer. Runs again after each instant navigation and when the page's content changes.
(function () {
  "use strict";

  function words(element) {
    return element.textContent.trim().replace(/\s+/g, " ");
  }

  var codeBlocks = 0;

  function name() {
    var search = document.querySelector('.md-search[role="dialog"]');
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-nav__container > label.md-nav__link").forEach(function (toggle) {
      var link = toggle.parentElement.querySelector("a.md-nav__link");
      if (!link || words(toggle)) return;
      var hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = words(link);
      toggle.appendChild(hidden); // the toggle is focusable: it needs a name of its own
    });
    // Each block's copy button, and each search result's tags, sit in a navigation landmark of
    // their own: landmarks need distinct names.
    document.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach(function (nav) {
      codeBlocks += 1; // counted, not indexed: blocks in a box appear only when it is opened
      nav.setAttribute("aria-label", "Code block " + codeBlocks);
    });
    // A table of contents names each nested list after its heading, which can be a navigation
    // section's name too (a "labs" module beside the "Labs" section): said as part of the page.
    document.querySelectorAll(".md-nav--secondary nav.md-nav[aria-label]:not([data-named])").forEach(function (nav) {
      nav.setAttribute("aria-label", "On this page: " + nav.getAttribute("aria-label"));
      nav.setAttribute("data-named", "");
    });
    document.querySelectorAll(".md-search-result nav.md-tags").forEach(function (nav, index) {
      nav.setAttribute("aria-label", "Tags of result " + (index + 1));
    });
    // Code fetched into a box when it is opened (folds.js) comes after Material gave its blocks focus.
    document.querySelectorAll("article pre > code:not([tabindex])").forEach(function (code) {
      if (code.scrollWidth > code.clientWidth + 1) code.setAttribute("tabindex", "0");
    });
    document.querySelectorAll("article .md-typeset__scrollwrap").forEach(function (wrap, index) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !wrap.hasAttribute("tabindex")) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", "Table " + (index + 1) + ", scrolls sideways");
      }
    });
  }

  // Tables that the study scripts draw later (the Study page's) get the same.
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; name(); });
  }).observe(document.body, { childList: true, subtree: true });

  if (window.document$ && window.document$.subscribe) {
    // Material adds the code blocks' buttons in the same pass: name what it made after it.
    window.document$.subscribe(function () { name(); setTimeout(name, 0); });
  } else {
    document.addEventListener("DOMContentLoaded", name);
  }
})();
