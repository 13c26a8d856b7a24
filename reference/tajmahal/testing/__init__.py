"""Testing Taj Mahal engines: hypothesis strategies, invariants and the fuzzer.

- :mod:`tajmahal.testing.strategies`: hypothesis strategies and a state machine (the
  ``testing`` extra);
- :mod:`tajmahal.testing.invariants`: what must hold after every step of every game;
- :mod:`tajmahal.testing.fuzz`: seeded fuzzing campaigns (``tajmahal fuzz``).
"""

__all__ = []
