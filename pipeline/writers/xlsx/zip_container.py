"""A workbook's parts as a zip file, deflated by ISA-L: the container written here.

A rating list's sheet is megabytes of XML (4.5 MB for 10,000 players) and the site writes one a list
month. zlib's fastest level spent 15 ms on such a sheet and its CRC-32 2 ms; Intel's ISA-L (PyPI
``isal``, wheels for Linux, macOS and Windows) deflates it at its level 1 in 4.5 ms into a smaller
stream (585 KB instead of 618 KB) and checks it in 0.2 ms. zipfile takes no other compressor, and
the container is small and specified (PKWARE's APPNOTE.TXT, 4.3), so it is written here: for each
part a local header and its deflated bytes, then the central directory and its end record. The
fields are those zipfile writes for a part given as a ``ZipInfo``
(tests/writers/test_xlsx_zip_container.py: the same bytes as zipfile's for the same deflate stream),
with the system that "made" the file fixed (zipfile writes the running one's), so the same parts
give the same bytes on every system with the same ISA-L (its deflate's output is its own: another
version may pack the same parts into other, equally valid bytes).

No ZIP64 (a workbook's parts stay far below 4 GiB: :func:`zip_pieces` refuses larger), no
data descriptor (each part's sizes and CRC are known before its header is written), names in
ASCII (the parts' own: ``xl/worksheets/sheet1.xml``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

from isal import isal_zlib

# The entries' date: 1980-01-01 00:00:00, the first a zip can hold (MS-DOS date and time).
DOS_DATE = (0 << 9) | (1 << 5) | 1
DOS_TIME = 0
VERSION = 20  # 2.0: deflate (version needed to extract, and version made by)
MADE_BY_UNIX = 3  # zipfile's "create_system" on Linux and macOS
DEFLATED = 8
# Unix permissions rw------- in the high half, as zipfile gives a part written from memory.
EXTERNAL_ATTR = 0o600 << 16
ZIP32_LIMIT = (1 << 32) - 1
# ISA-L's level 1: as fast as its level 0 on a sheet's XML, and a fifth smaller.
ISAL_LEVEL = 1

_LOCAL = struct.Struct("<4s2B4HL2L2H")  # zipfile's structFileHeader
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")  # zipfile's structCentralDir
_END = struct.Struct("<4s4H2LH")  # zipfile's structEndArchive


def isal_deflate(data: bytes) -> bytes:
    """``data`` as a raw deflate stream (no zlib header: what a zip entry holds)."""
    return isal_zlib.compress(data, ISAL_LEVEL, -isal_zlib.MAX_WBITS)


def zip_pieces(
    parts: Sequence[tuple[str, bytes]],
    deflate: Callable[[bytes], bytes] = isal_deflate,
    crc32: Callable[[bytes], int] = isal_zlib.crc32,
) -> list[bytes]:
    """The zip file of ``parts`` ((name, bytes), in that order), as pieces to write one after
    another (the deflated parts are not copied into one buffer). ``deflate``, ``crc32``: a
    raw deflate and CRC-32 (zlib's give zipfile's bytes)."""
    pieces: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for name, data in parts:
        packed = deflate(data)
        crc = crc32(data)
        raw_name = name.encode("ascii")
        if max(len(data), len(packed), offset) > ZIP32_LIMIT:
            raise ValueError(f"{name!r}: a part past 4 GiB needs ZIP64, which is not written")
        sizes = (crc, len(packed), len(data), len(raw_name))
        head = (DEFLATED, DOS_TIME, DOS_DATE)  # method, time, date (flags before: none)
        local = _LOCAL.pack(b"PK\x03\x04", VERSION, 0, 0, *head, *sizes, 0)  # 0: no extra
        pieces += [local, raw_name, packed]
        # Made by 2.0 on Unix, needed 2.0; after the name's length: no extra field, comment
        # or other disk, internal attributes 0, then the external ones, the local header's
        # offset.
        made = (VERSION, MADE_BY_UNIX, VERSION, 0)
        tail = (0, 0, 0, 0, EXTERNAL_ATTR, offset)
        central += [_CENTRAL.pack(b"PK\x01\x02", *made, 0, *head, *sizes, *tail), raw_name]
        offset += _LOCAL.size + len(raw_name) + len(packed)
    directory = b"".join(central)
    end = _END.pack(b"PK\x05\x06", 0, 0, len(parts), len(parts), len(directory), offset, 0)
    return [*pieces, directory, end]
