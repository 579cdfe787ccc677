"""The portable PRNG (G2): fixed vectors another language can check against."""

from __future__ import annotations

from collections import Counter

from crabgames.core.prng import Prng, mix


def test_splitmix64_reference_values():
    # SplitMix64 seeded with 0 (the reference generator) yields these first values.
    prng = Prng(0)
    assert [prng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert prng.counter == 3


def test_the_state_is_just_seed_and_counter():
    first = Prng(1234)
    values = [first.next_u64() for _ in range(5)]
    resumed = Prng(1234, counter=3)
    assert [resumed.next_u64() for _ in range(2)] == values[3:]
    assert mix(1234 + 0x9E3779B97F4A7C15) == values[0]


def test_weighted_picks_follow_the_weights():
    prng = Prng(7)
    counts = Counter(prng.pick_weighted([1, 0, 3]) for _ in range(8000))
    assert counts[1] == 0
    assert 0.22 < counts[0] / 8000 < 0.28
