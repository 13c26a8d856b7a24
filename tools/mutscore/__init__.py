"""The parts of the mutation report (``tools/mutation_report.py``), one concern each.

- :mod:`mutscore.results`: mutmut's results in ``mutants/`` (statuses, run log, what a run
  still owes);
- :mod:`mutscore.changes`: what each mutant changes, and its fingerprint;
- :mod:`mutscore.survivors`: the classification file ``specs/mutation/survivors.toml``;
- :mod:`mutscore.page`: the published page ``docs/mutation.md``.
"""
