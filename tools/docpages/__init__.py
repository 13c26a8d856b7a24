"""The parts of the documentation generator (``tools/make_docs.py``), one page kind each.

- :mod:`docpages.common`: the output folder, the problem list, the writer and the links;
- :mod:`docpages.index`: everything a page may link to, each link checked;
- :mod:`docpages.rules` and :mod:`docpages.examples`: the annotated rules and the
  rulebooks' worked examples placed on them;
- :mod:`docpages.rulings`: one page per ruling and their index with the options;
- :mod:`docpages.components`: the components and the board picture;
- :mod:`docpages.walkthrough`: a golden record replayed visit by visit;
- :mod:`docpages.interfaces`: the command line, the API, the schemas and the registry's
  READMEs.
"""
