"""okey-companion: a table companion and scorekeeper for Okey, Okey 101 and the rummy family."""

__version__ = "0.1.0"
