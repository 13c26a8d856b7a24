"""The package's version, in one place (``tajmahal.__version__``, the protocol's ``hello``)."""

__version__ = "0.1.0"
