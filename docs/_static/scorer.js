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
