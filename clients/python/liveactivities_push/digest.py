"""The identity of a message's bytes, computed as the desktop computes it (two 64-bit FNV-1a
hashes with different offsets, 32 hex digits), so a receipt is matched to the message sent."""

_MASK = (1 << 64) - 1
_PRIME = 0x100000001B3


def message_digest(data: bytes) -> str:
    first, second = 0xCBF29CE484222325, 0x6C62272E07BB0142
    for byte in data:
        first = ((first ^ byte) * _PRIME) & _MASK
        second = ((second ^ byte) * _PRIME) & _MASK
    return f"{first:016x}{second:016x}"
