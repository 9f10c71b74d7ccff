"""The workbooks' zip container (pipeline/writers/xlsx/zip_container.py), written by fiderate
so that ISA-L can deflate the parts: given zlib's deflate it writes zipfile's bytes exactly,
and with ISA-L's the file reads back, part for part, through zipfile (which checks each CRC)
and openpyxl."""

from __future__ import annotations

import io
import zipfile
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.writers.xlsx.zip_container import isal_deflate, zip_pieces

NAME = st.text(alphabet="abcXYZ019_./[]", min_size=1, max_size=30)
DATA = st.one_of(
    st.binary(max_size=3000),
    # XML-like text that deflates well: long runs, as a sheet's rows
    st.builds(lambda row, n: row * n, st.binary(min_size=1, max_size=40), st.integers(0, 5000)),
)
PARTS = st.lists(st.tuples(NAME, DATA), max_size=7, unique_by=lambda part: part[0])


def _zlib_deflate(data: bytes) -> bytes:
    """zipfile's own deflate for a part written at level 1 (raw: no zlib header)."""
    packer = zlib.compressobj(1, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def _zipfile_bytes(parts: list[tuple[str, bytes]]) -> bytes:
    """The parts written by zipfile, each given as a ``ZipInfo`` dated 1980-01-01 00:00 (as the
    workbooks' parts were before), the system that made them fixed to Unix (zipfile writes the
    running system's)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts:
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            zf.writestr(info, data, compresslevel=1)
    return buffer.getvalue()


@settings(max_examples=60)
@given(PARTS)
def test_the_container_is_zipfiles_for_the_same_deflate_stream(parts):
    """Every header, size, CRC, offset and the end record as zipfile writes them."""
    ours = b"".join(zip_pieces(parts, deflate=_zlib_deflate, crc32=zlib.crc32))
    assert ours == _zipfile_bytes(parts)


@settings(max_examples=60)
@given(PARTS)
def test_isal_parts_read_back_through_zipfile(parts):
    """Deflated by ISA-L: zipfile lists the parts in order, inflates each to its bytes and
    finds every CRC right (``testzip``), and each stored stream is ISA-L's."""
    raw = b"".join(zip_pieces(parts))
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        assert zf.testzip() is None
        assert [info.filename for info in zf.infolist()] == [name for name, _ in parts]
        assert [zf.read(name) for name, _ in parts] == [data for _, data in parts]
        for info, (_, data) in zip(zf.infolist(), parts, strict=True):
            assert info.compress_type == zipfile.ZIP_DEFLATED
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
            start = info.header_offset + 30 + len(info.filename)  # no extra field
            assert raw[start : start + info.compress_size] == isal_deflate(data)


def test_isal_deflate_is_a_raw_deflate_stream_zlib_inflates():
    """What a zip entry holds: no zlib header, any inflater reads it."""
    data = b'<row r="2"><c t="inlineStr"><is><t>Player</t></is></c></row>' * 1000
    assert zlib.decompress(isal_deflate(data), -15) == data
    assert len(isal_deflate(data)) < len(data) // 20
