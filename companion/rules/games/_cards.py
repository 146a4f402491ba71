"""The batch/CLI operations the card rummies share (``meld``, ``opening``, ``going_out``, ``joker``,
``deal``): each game's entry binds them to its own engine functions.  Cards come in field ``cards`` (the
command line's ``meld``/``opening`` send the same text as ``tiles`` too, so either is read)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.rules.errors import InvalidRequestError
from companion.rules.registry import dealt_without_dice, find_game, request_field

__all__ = ["card_ops", "cards_field", "flag_field", "int_field"]


def cards_field(request: Mapping[str, Any], name: str = "cards") -> Any:
    """The cards of a request: ``cards`` (or, from the command line, ``tiles``)."""
    if request.get(name) in (None, "") and name == "cards" and request.get("tiles") not in (None, ""):
        return request["tiles"]
    return request_field(request, name)


def flag_field(request: Mapping[str, Any], name: str, default: bool) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise InvalidRequestError(f"field {name!r} must be true or false, not {value!r}")
    return value


def int_field(request: Mapping[str, Any], name: str, default: int) -> int:
    value = request.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequestError(f"field {name!r} must be a whole number, not {value!r}")
    return int(value)


def card_ops(
    *,
    meld: Callable[[Any, Any], Any],
    laid: Callable[[Any, Any], Any],
    opening: Callable[[Any, Any], Any],
    going_out: Callable[..., Any],
    joker: Callable[..., Any],
    deal: Callable[..., Any],
) -> dict[str, Callable[[Mapping[str, Any], Any], dict[str, Any]]]:
    """The operations of a card game, from its engine's functions."""

    def players_field(request: Mapping[str, Any]) -> dict[str, int]:
        """``players``, when the request gives it: the deck then is that table's (M1), else the largest."""
        return {} if request.get("players") is None else {"players": int_field(request, "players", 0)}

    def op_meld(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
        """Batch/CLI ``meld``: is this one meld valid, and its opening value ({"cards": "QH KH AH"}).  Several melds
        separated by ``|`` (or ``"laid": true``) are melds as laid at an opening: their cards counted together against
        the deck (of ``players`` players when given), each judged, and whether their total reaches the opening."""
        cards = cards_field(request)
        if (isinstance(cards, str) and "|" in cards) or flag_field(request, "laid", False):
            laid_result: dict[str, Any] = laid(cards, options, **players_field(request)).to_dict()
            return laid_result
        verdict = meld(cards, options)
        result: dict[str, Any] = verdict.to_dict()
        return result

    def op_opening(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
        """Batch/CLI ``opening``: the best opening of a hand — the most a set of disjoint melds is worth (the cards
        counted against the deck of ``players`` players when given)."""
        result: dict[str, Any] = opening(cards_field(request), options, **players_field(request)).to_dict()
        return result

    def op_going_out(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
        """Batch/CLI ``going_out``: can this hand be laid out now ({"cards": …, "opened": bool})?"""
        result: dict[str, Any] = going_out(cards_field(request), opened=flag_field(request, "opened", True),
                                           options=options).to_dict()
        return result

    def op_joker(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
        """Batch/CLI ``joker``: may the joker of a laid meld be taken ({"meld": …, "cards": …, "opened": bool})?"""
        result: dict[str, Any] = joker(cards_field(request, "meld"), cards_field(request),
                                       opened=flag_field(request, "opened", True), options=options).to_dict()
        return result

    def op_deal(request: Mapping[str, Any], options: Any) -> dict[str, Any]:
        """Batch/CLI ``deal``: who deals hand N, how many cards, which way, who starts ({"players", "hand",
        "dealer"}: the dealer of the first hand; or "current_dealer": this hand's).  No dice are rolled: ``dice``
        or ``seed`` given is refused, never ignored."""
        for name in ("dice", "seed"):
            if request.get(name) is not None:
                raise InvalidRequestError(dealt_without_dice(find_game(request["game"]), f"field {name!r} is", "it"))
        current = request.get("current_dealer")
        result: dict[str, Any] = deal(int_field(request, "players", 4), int_field(request, "hand", 1),
                                      int_field(request, "dealer", 0), options,
                                      dealer=None if current is None else int_field(request, "current_dealer", 0)).to_dict()
        return result

    return {"meld": op_meld, "opening": op_opening, "going_out": op_going_out, "joker": op_joker, "deal": op_deal}
