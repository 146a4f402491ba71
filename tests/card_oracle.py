"""Slow brute-force oracle for the card rummies' best melds: try every partition of every subset.

Independent of the fast search: it never generates candidate melds, it asks ``check_meld`` about every
subset that contains the first remaining card.
"""

from functools import lru_cache
from itertools import combinations

from companion.rules._card_melds import MeldRules, check_meld
from companion.rules.cards import Card, card_from_index


def oracle_best_value(cards, rules: MeldRules, *, cover: bool = False) -> tuple[int, int]:
    """(value, cards laid) of the best disjoint melds; with ``cover`` (cards laid, value)."""
    start = tuple(sorted(card.index for card in cards))

    @lru_cache(maxsize=None)
    def search(rest: tuple[int, ...]) -> tuple[int, int]:
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        best = search(others)
        seen = set()
        for size in range(2, len(others) + 1):
            for chosen in combinations(range(len(others)), size):
                meld = (first, *(others[i] for i in chosen))
                if meld in seen:
                    continue
                seen.add(meld)
                verdict = check_meld([card_from_index(i) for i in meld], rules)
                if not verdict.valid:
                    continue
                left = tuple(others[i] for i in range(len(others)) if i not in chosen)
                a, b = search(left)
                gained = (len(meld), verdict.value) if cover else (verdict.value, len(meld))
                best = max(best, (a + gained[0], b + gained[1]))
        return best

    return search(start)
