"""The rules engine's error family: every error is a ``ValueError`` whose message quotes the input."""


class RulesError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class InvalidTileError(RulesError):
    """A tile code that is not in the notation of RULES.md §0."""


class IllegalMeldError(RulesError):
    """A meld that breaks a rule (O4): mixed colours, a gap, 13-1-2 …"""


class ImpossibleHandError(RulesError):
    """A hand that cannot exist: too many copies of a tile, the wrong number of tiles …"""


class InvalidOptionError(RulesError):
    """An unknown house-rule option or a value it cannot take."""


class InvalidDealError(RulesError):
    """Dice or seats that do not describe a deal (a roll of 7, a dealer seat of 5 …)."""


class InvalidHandRecordError(RulesError):
    """A recorded hand that cannot be scored: a missing winner, a penalty for a seat that does not exist …"""


class InvalidCardError(RulesError):
    """A card code that is not in the card notation (``AS``, ``10H``, ``*``)."""


class InvalidEventError(RulesError):
    """An event that does not fit the table: wrong game, seat out of range, match finished, bad field …"""


class MissingFieldError(InvalidEventError):
    """An event without a field it needs."""


class InvalidRequestError(RulesError):
    """A batch or command-line request without a field it needs, or with a field of the wrong shape."""


class InvalidRecordError(InvalidHandRecordError):
    """A record (an event, a hand record) with an unknown field, a value of the wrong type or out of bounds."""
