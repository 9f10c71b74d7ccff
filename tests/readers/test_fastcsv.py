"""The fast CSV path reuses the file's own bytes as UTF-8 only when they are exactly that."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.readers.fastcsv import utf8_bytes

TEXT = st.text(alphabet=st.sampled_from(list('ab,1\n\r"é€ÿ½ ') + ["\u2028", "日"]), max_size=40)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
def test_utf8_bytes_are_the_text_in_utf8_or_none(text, encoding):
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        return
    # What the reader decodes: UTF-16 by its BOM, else UTF-8 (after a BOM), else Windows-1252.
    body = data.removeprefix(b"\xef\xbb\xbf")
    if encoding == "utf-16":
        decoded = data.decode("utf-16")
    else:
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            decoded = body.decode("cp1252")
    found = utf8_bytes(data, decoded)
    assert found is None or found == decoded.encode("utf-8")
    if encoding in ("utf-8", "utf-8-sig"):
        assert found == text.encode("utf-8")  # a UTF-8 file is never encoded again
