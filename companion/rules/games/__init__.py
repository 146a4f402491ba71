"""The registered games: importing this package registers each (``docs/adding-a-game.md``).

One module per game holds its registry entry, its own events and its batch operations.
"""

from companion.rules.games import okey, okey101, okey_points, rami, rummikub, thai, turkish

__all__ = ["okey", "okey101", "okey_points", "rami", "rummikub", "thai", "turkish"]
