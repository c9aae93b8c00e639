"""A seeded permutation of [0, n) that gives the value at any position in O(1) time and O(1)
memory: a four-round Feistel network over the smallest even number of bits that holds n, its
round function XXH64, values at or past n walked on (cycle walking). A training loop's global
shuffle: position k of an epoch is entry `Permutation(n, key)[k]`, so a resume at any position,
and any split of positions between ranks and workers, costs nothing to set up."""

from __future__ import annotations

from .codecs import xxh64_intdigest

ROUNDS = 4


class Permutation:
    def __init__(self, n: int, key: int) -> None:
        if n < 0:
            raise ValueError("a permutation of a negative count")
        self.n = n
        bits = max(2, (max(n - 1, 1)).bit_length())
        bits += bits & 1
        self._half = bits // 2
        self._mask = (1 << self._half) - 1
        self._keys = [xxh64_intdigest(b"hpf-permutation-%d" % r, key & ((1 << 64) - 1))
                      for r in range(ROUNDS)]

    def __len__(self) -> int:
        return self.n

    def _encrypt(self, x: int) -> int:
        half, mask = self._half, self._mask
        left, right = x >> half, x & mask
        for k in self._keys:
            left, right = right, left ^ (xxh64_intdigest(right.to_bytes(8, "little"), k) & mask)
        return (left << half) | right

    def __getitem__(self, position: int) -> int:
        if not 0 <= position < self.n:
            raise IndexError(f"position {position} of a permutation of {self.n}")
        x = self._encrypt(position)
        while x >= self.n:  # at most a few steps: the domain is under 4n
            x = self._encrypt(x)
        return x
