"""The portable PRNG behind every chance event (G2).

Counter-based SplitMix64, so another language can reproduce a game from the seed alone:

    value(k) = mix(seed + k * 0x9E3779B97F4A7C15 mod 2**64)      for k = 1, 2, 3, ...
    mix(z):  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2**64
             z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2**64
             return z ^ (z >> 31)

The state is just (seed, counter): `counter` is how many values were drawn. A uniform integer
below n takes values until one is below 2**64 - (2**64 mod n) (rejection, so no bias) and returns
it mod n. A weighted pick over outcomes listed in the game's documented order draws r below the
total weight and returns the first outcome whose running total exceeds r.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

TWO_TO_64: Final = 1 << 64
MASK64: Final = TWO_TO_64 - 1
GAMMA: Final = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def rejection_limit(n: int) -> int:
    """The values below it split evenly into n classes by their remainder mod n."""
    return TWO_TO_64 - TWO_TO_64 % n


# rejection_limit(n) for the n a draw meets (a hand, a bag, a deck, a list of moves): computed
# once, since its big-integer arithmetic costs as much as half a draw.
REJECTION_LIMITS: Final = [0] + [rejection_limit(n) for n in range(1, 1024)]


class Prng:
    """The state is (seed, counter); `position` is seed + counter * GAMMA mod 2**64, kept so that
    a draw adds GAMMA instead of multiplying again."""

    __slots__ = ("seed", "counter", "position")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & MASK64
        self.counter = counter & MASK64
        self.position = (self.seed + self.counter * GAMMA) & MASK64

    def copy(self) -> Prng:
        """The same PRNG, to draw from apart (its position copied, not worked out again)."""
        copy = Prng(0)
        copy.seed, copy.counter, copy.position = self.seed, self.counter, self.position
        return copy

    def next_u64(self) -> int:
        self.counter = (self.counter + 1) & MASK64
        self.position = (self.position + GAMMA) & MASK64
        return mix(self.position)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = REJECTION_LIMITS[n] if n < len(REJECTION_LIMITS) else rejection_limit(n)
        while True:
            r = self.next_u64()
            if r < limit:
                return r % n

    def pick_outcome(self, outcomes: Sequence[tuple[int, int]]) -> int:
        """A chance outcome's value, drawn by its weight from (value, weight) pairs listed in
        the game's documented order (G2)."""
        return outcomes[self.pick_weighted([weight for _, weight in outcomes])][0]

    def pick_weighted(self, weights: list[int]) -> int:
        """The index of an outcome, drawn with probability weight / total (a list: compiled,
        its loop reads the ints in place)."""
        r = self.below(sum(weights))
        for index, weight in enumerate(weights):
            if r < weight:
                return index
            r -= weight
        raise AssertionError("unreachable: r is below the total")
