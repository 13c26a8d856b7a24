"""The parts of the golden corpus generator (``tools/make_corpus.py``), one concern each.

- :mod:`corpusgen.players`: the edge-seeking players and the named mixes of players;
- :mod:`corpusgen.entries`: what an entry (a record to play) is, and the seeded, option
  and full records;
- :mod:`corpusgen.scenarios`: hand-crafted games for edge cases the search does not reach;
- :mod:`corpusgen.search`: the search for records that reach every edge tag;
- :mod:`corpusgen.coverage`: what the corpus exercises, from its manifest.
"""
