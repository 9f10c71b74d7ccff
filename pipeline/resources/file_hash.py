"""A file's SHA-256, read in blocks: how a period run and the history know an input again."""

from __future__ import annotations

import hashlib
from pathlib import Path

BLOCK = 1 << 20  # 1 MiB a read: a 300 MB FIDE list is hashed in constant memory


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()
