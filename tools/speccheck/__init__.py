"""The parts of the spec checker (``tools/check_specs.py``), one concern each.

- :mod:`speccheck.common`: the rulebook list, :class:`~speccheck.common.Findings` and small
  readers shared by the others;
- :mod:`speccheck.schemas`: the TOML shapes, validated against ``specs/schemas/*.json``;
- :mod:`speccheck.texts`: the rulebook texts and locator checks;
- :mod:`speccheck.clauses`, :mod:`speccheck.rulings`, :mod:`speccheck.indexes`: the three
  registries, each read once its shape is valid, with the cross-references inside it;
- :mod:`speccheck.cross`: the cross-references between the registries, code, tests and
  traces;
- :mod:`speccheck.drift`: drift a machine can catch (citations and ``differs`` lines out of
  step, categories that do not fit what the texts say);
- :mod:`speccheck.report`: the coverage report.
"""
