"""Deterministic shuffles from a secret seed, fixed forever.

``random.shuffle`` may change between Python versions, so the engine uses its
own stream: SHA-256 in counter mode. Block ``i`` of stream ``label`` is
``SHA-256(seed_bytes || b"|" || label || b"|" || i as 8 bytes big-endian)``;
the blocks are read as consecutive unsigned 64-bit big-endian words. A
uniform integer below ``n`` takes the next word ``w`` and accepts it only if
``w < 2**64 - (2**64 % n)`` (rejection sampling, no modulo bias), then
returns ``w % n``. The shuffle is Fisher-Yates from the last position down:
for ``i`` from ``len-1`` to ``1``, swap item ``i`` with item ``randbelow(i+1)``.

docs/engine.md explains how players re-derive every shuffle once the seed is
revealed at game end.
"""

import hashlib
import secrets

_WORD = 2**64


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as hex."""
    return secrets.token_hex(32)


def seed_digest(seed: str) -> str:
    """The public commitment to the seed, published from the start."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


class Stream:
    def __init__(self, seed: str, label: str):
        self._prefix = bytes.fromhex(seed) + b"|" + label.encode() + b"|"
        self._block = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()  # pops bytes 0-7 first, then 8-15, ...

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _WORD - (_WORD % n)
        while True:
            word = self._next_word()
            if word < limit:
                return word % n


def shuffled(items: list, seed: str, label: str) -> list:
    """A new list: ``items`` shuffled by the stream ``label`` of ``seed``."""
    out = list(items)
    stream = Stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = stream.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
