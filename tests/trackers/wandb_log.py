"""Read the records of a W&B offline run file (``run-ID.wandb``) for tests.

The file is a LevelDB-style log: a 7-byte header (``:W&B``, a magic number, a version), then
32 KiB blocks of chunks, each with a 7-byte header (CRC-32, length, type: full, first, middle,
last); the joined chunks are serialised ``wandb_internal_pb2.Record`` messages.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

BLOCK = 32 * 1024
HEADER = 7
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4


def chunks(path: Path) -> Iterator[bytes]:
    """The serialised records of a ``.wandb`` file, in order."""
    data = path.read_bytes()
    if data[:4] != b":W&B":
        raise ValueError(f"{path}: not a W&B run file")
    position, pending = HEADER, b""
    while position + HEADER <= len(data):
        left = BLOCK - position % BLOCK
        if left < HEADER:  # the rest of a block is padding
            position += left
            continue
        _, length, kind = struct.unpack("<IHB", data[position : position + HEADER])
        if length == 0 and kind == 0:
            position += left
            continue
        chunk = data[position + HEADER : position + HEADER + length]
        position += HEADER + length
        if kind == FULL:
            yield chunk
        elif kind == FIRST:
            pending = chunk
        elif kind == MIDDLE:
            pending += chunk
        elif kind == LAST:
            yield pending + chunk


def records(path: Path) -> list:
    """The ``Record`` messages of a ``.wandb`` file."""
    from wandb.proto import wandb_internal_pb2

    out = []
    for chunk in chunks(path):
        record = wandb_internal_pb2.Record()
        record.ParseFromString(chunk)
        out.append(record)
    return out
