/*
 * Search ranking of the Taj Mahal reference (conf.py: html_search_scorer).
 *
 * Sphinx's own weights, plus one rule: a page written for players ranks above the
 * pages for engine authors and contributors that use the same words, so that a
 * player's question ("monk tie") leads to the answer before the record format.
 */
var Scorer = {
  score: (result) => {
    const [docname, , , , score] = result;
    if (docname.startsWith("rules/")) return score + 30;
    if (docname.startsWith("_generated/rules/")) return score + 20;
    if (docname.startsWith("_generated/rulings/")) return score + 15;
    if (docname === "_generated/components" || docname === "_generated/walkthrough")
      return score + 10;
    if (docname.startsWith("_generated/api/")) return score - 5;
    return score;
  },
  // Sphinx's defaults from here on.
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};

/*
 * A result's snippet is cut from the page's text where the most of the words searched
 * for come together (Sphinx cuts it at the first place one of them appears), and the
 * folded "Sources" of a rule or an answer (ids, citations, test names) are left out,
 * so that the snippet shows the answer a player reads.
 */
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  const pageText = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(".sources").forEach((element) => element.remove());
    return pageText(page.documentElement.outerHTML, anchor);
  };
  Search.makeSearchSummary = (htmlText, keywords, anchor) => {
    const text = Search.htmlToText(htmlText, anchor).replace(/\s+/g, " ");
    if (!text) return null;
    const lower = text.toLowerCase();
    // Stems ("empti") match the words they come from ("empty") by their start.
    const stems = [...keywords].map((k) => k.toLowerCase().slice(0, Math.max(3, k.length - 1)));
    const places = [];
    stems.forEach((stem, index) => {
      for (let at = lower.indexOf(stem); at > -1; at = lower.indexOf(stem, at + 1))
        places.push([at, index]);
    });
    let best = 0;
    let bestCount = 0;
    for (const [at] of places) {
      const near = new Set(places.filter(([p]) => p >= at && p < at + 160).map(([, i]) => i));
      if (near.size > bestCount) [best, bestCount] = [at, near.size];
    }
    const start = Math.max(best - 60, 0);
    const summary = document.createElement("p");
    summary.classList.add("context");
    summary.textContent =
      (start > 0 ? "..." : "") + text.substr(start, 240).trim() + (start + 240 < text.length ? "..." : "");
    return summary;
  };
});
