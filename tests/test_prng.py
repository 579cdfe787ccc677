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


def test_a_chance_outcome_is_the_value_its_weighted_pick_lands_on():
    outcomes = [(7, 1), (9, 0), (4, 3)]
    picks, indexes = Prng(7), Prng(7)
    values = [picks.pick_outcome(outcomes) for _ in range(200)]
    assert values == [outcomes[indexes.pick_weighted([1, 0, 3])][0] for _ in range(200)]
    assert set(values) == {7, 4}


def test_the_counter_wraps_at_two_to_the_64():
    # A state may carry any uint64 counter: the draw after 2**64 - 1 is the one at counter 0's
    # successor, as SplitMix64's arithmetic mod 2**64 says.
    last = Prng(99, counter=2**64 - 1)
    assert last.next_u64() == mix(99) and last.counter == 0
    assert last.next_u64() == Prng(99).next_u64()


def test_a_uniform_draw_rejects_the_top_partial_class_for_any_n():
    # The first value drawn from seed 0 is 0xE220A8397B1DCDAF: accepted for an n whose limit is
    # above it, rejected (and the next value used) for one whose limit is below it.
    first, second = 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4
    for n in (1, 37, 1023, 1024, 5000, 2**63 + 1):
        prng = Prng(0)
        limit = 2**64 - 2**64 % n
        expected = first % n if first < limit else second % n
        assert prng.below(n) == expected, n
    assert Prng(0).below(2**63 + 1) == second % (2**63 + 1)  # 2**64 - (2**63 - 1) is the limit
