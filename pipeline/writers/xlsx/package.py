"""A small XLSX (SpreadsheetML) writer: the few parts our spreadsheets use, written as text.

openpyxl's write-only mode spent about 40 us a cell and XlsxWriter about 30 us a cell plus a few
milliseconds a sheet (a report has a sheet per player): most of a one-event run (issue 13). Our
sheets need typed cells (text, integers, decimals with a number format), a bold header, column
widths, a frozen header row and an autofilter; this module writes exactly that, a row of XML at a
time, and zips the parts. Strings are inline (``t="inlineStr"``), so there is no shared-strings
table to build; nothing that looks like a formula, URL or number is converted. Text a spreadsheet
would read as the start of a formula carries Excel's quote prefix, and characters XML cannot hold
are shown as U+FFFD (both as :mod:`.text_cells` decides).

Parts: ``[Content_Types].xml``, ``_rels/.rels``, ``xl/workbook.xml`` (sheets and the autofilter
ranges as ``_xlnm._FilterDatabase``), ``xl/_rels/workbook.xml.rels``, ``xl/styles.xml`` and one
``xl/worksheets/sheetN.xml`` per sheet, zipped by :mod:`.zip_container` (ISA-L's deflate; the
entries carry a fixed date, so the same data gives the same bytes).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape
from pathlib import Path

from pipeline.resources.atomic_files import Target, opened
from pipeline.writers.xlsx.text_cells import is_risky, xml_safe
from pipeline.writers.xlsx.zip_container import zip_pieces

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
BOLD_STYLE = 1  # cellXfs index of the bold header
QUOTED_STYLE = 2  # text with the quote prefix; number formats follow
FIRST_CUSTOM_FORMAT = 164  # ids below are Excel's built-in number formats


@lru_cache(maxsize=1 << 10)
def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA. Cached: every cell of a sheet asks for one of its few."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def text_xml(value: str) -> str:
    """Text escaped for an XML element (characters XML cannot hold already replaced)."""
    return escape(value, quote=False)


@lru_cache(maxsize=1 << 16)
def _inline_text(value: str) -> tuple[bool, str]:
    """(starts like a formula, the ``<is>`` element) of a text: the same few texts (event names,
    results, "yes") fill most cells of a report, so each is worked out once."""
    value = xml_safe(value)
    space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
    return is_risky(value), f"<is><t{space}>{text_xml(value)}</t></is>"


@lru_cache(maxsize=1 << 16)
def string_cell_tail(value: str, style: int = 0) -> str:
    """Everything of a text cell after its reference: worked out once per text and style."""
    risky, inline = _inline_text(value)
    if not style and risky:
        style = QUOTED_STYLE
    s = f' s="{style}"' if style else ""
    return f'{s} t="inlineStr">{inline}</c>'


def string_cell(ref: str, value: str, style: int = 0) -> str:
    """A text cell; text that starts like a formula gets the quote prefix (``QUOTED_STYLE``)."""
    return '<c r="' + ref + '"' + string_cell_tail(value, style)


def number_cell_tail(value: str, style: int = 0) -> str:
    """Everything of a number cell after its reference (see ``number_cell``)."""
    s = f' s="{style}"' if style else ""
    return f"{s}><v>{value}</v></c>"


def number_cell(ref: str, value: str, style: int = 0) -> str:
    """A number cell; ``value`` is the number's text as written (a plain decimal such as
    ``-6.60``: the exact decimal, read by a spreadsheet as a number)."""
    return '<c r="' + ref + '"' + number_cell_tail(value, style)


class Book:
    """A workbook being written: ``sheet(name)`` adds a sheet, ``save()`` writes the file."""

    def __init__(self, path: Target | str) -> None:
        # A path, or a stream (a member of a zip in memory: ``atomic_files.ZipBatch``).
        self.path = Path(path) if isinstance(path, str) else path
        self.sheets: list[Sheet] = []
        self._formats: dict[str, int] = {}  # number format -> cellXfs index

    def number_format(self, code: str) -> int:
        """The cell style index showing numbers with format ``code`` (made on first use)."""
        if code not in self._formats:
            self._formats[code] = QUOTED_STYLE + 1 + len(self._formats)
        return self._formats[code]

    def sheet(self, name: str) -> Sheet:
        sheet = Sheet(self, name)
        self.sheets.append(sheet)
        return sheet

    def save(self) -> None:
        parts = [
            ("[Content_Types].xml", self._content_types()),
            (
                "_rels/.rels",
                f'{HEAD}<Relationships xmlns="{PACKAGE_REL}"><Relationship Id="rId1" '
                f'Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
            ),
            ("xl/workbook.xml", self._workbook()),
            ("xl/_rels/workbook.xml.rels", self._workbook_rels()),
            ("xl/styles.xml", self._styles()),
        ]
        sheets = [
            (f"xl/worksheets/sheet{i}.xml", sheet.xml())
            for i, sheet in enumerate(self.sheets, start=1)
        ]
        encoded = [(name, text.encode("utf-8")) for name, text in parts]
        pieces = zip_pieces([*encoded, *sheets])  # made before the file is opened
        with opened(self.path) as fh:
            fh.writelines(pieces)

    def _content_types(self) -> str:
        ct = "application/vnd.openxmlformats-officedocument.spreadsheetml"
        sheets = "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{SHEET_TYPE}"/>'
            for i in range(1, len(self.sheets) + 1)
        )
        return (
            f'{HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{ct}.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{ct}.styles+xml"/>'
            f"{sheets}</Types>"
        )

    def _workbook(self) -> str:
        sheets = "".join(
            f'<sheet name="{escape(s.name)}" sheetId="{i}" r:id="rId{i}"/>'
            for i, s in enumerate(self.sheets, start=1)
        )
        filters = "".join(
            f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
            f"{text_xml(s.quoted_name())}!{s.filter_ref(absolute=True)}</definedName>"
            for i, s in enumerate(self.sheets)
            if s.autofilter is not None
        )
        names = f"<definedNames>{filters}</definedNames>" if filters else ""
        return (
            f'{HEAD}<workbook xmlns="{MAIN}" xmlns:r="{REL}"><bookViews><workbookView/>'
            f"</bookViews><sheets>{sheets}</sheets>{names}</workbook>"
        )

    def _workbook_rels(self) -> str:
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(self.sheets) + 1)
        )
        styles = len(self.sheets) + 1
        return (
            f'{HEAD}<Relationships xmlns="{PACKAGE_REL}">{rels}<Relationship Id="rId{styles}" '
            f'Type="{REL}/styles" Target="styles.xml"/></Relationships>'
        )

    def _styles(self) -> str:
        formats = sorted(self._formats.items(), key=lambda item: item[1])
        num_fmts = "".join(
            f'<numFmt numFmtId="{FIRST_CUSTOM_FORMAT + n}" formatCode="{escape(code)}"/>'
            for n, (code, _) in enumerate(formats)
        )
        xfs = "".join(
            f'<xf numFmtId="{FIRST_CUSTOM_FORMAT + n}" fontId="0" fillId="0" borderId="0" '
            'xfId="0" applyNumberFormat="1"/>'
            for n in range(len(formats))
        )
        num_fmts_xml = f'<numFmts count="{len(formats)}">{num_fmts}</numFmts>' if formats else ""
        return (
            f'{HEAD}<styleSheet xmlns="{MAIN}">{num_fmts_xml}'
            '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
            '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border>'
            "</borders>"
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
            "</cellStyleXfs>"
            f'<cellXfs count="{3 + len(formats)}">'
            '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
            '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
            '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>'
            f"{xfs}</cellXfs>"
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
            "</styleSheet>"
        )


class Sheet:
    """One worksheet, written top to bottom: ``row`` is the next row (0-based)."""

    def __init__(self, book: Book, name: str) -> None:
        self.book = book
        self.name = name
        self.row = 0
        self.widths: dict[int, float] = {}
        self.frozen_rows = 0
        self.autofilter: tuple[int, int, int, int] | None = None  # first/last row, column
        self.text_ids: list[str] = []  # ranges of ids written as text (see ``ignore_text_ids``)
        # Rows of XML: text a row, or a block of rows already UTF-8 (``extend_block``).
        self._rows: list[str | bytes | memoryview] = []

    def set_width(self, column: int, width: float) -> None:
        self.widths[column] = width

    def freeze_rows(self, rows: int) -> None:
        self.frozen_rows = rows

    def set_autofilter(self, first_row: int, first_col: int, last_row: int, last_col: int) -> None:
        self.autofilter = (first_row, first_col, last_row, last_col)

    def ignore_text_ids(self, ref: str) -> None:
        """Cells ``ref`` (``A2:A11``) hold ids as text on purpose (a FIDE id is a key, ``0042``
        keeps its zeros): Excel is told not to flag them "number stored as text"."""
        self.text_ids.append(ref)

    def append_xml(self, cells: Iterable[str]) -> None:
        """A row of cell XML (``string_cell``/``number_cell`` with this row's references)."""
        self._rows.append(f'<row r="{self.row + 1}">{"".join(cells)}</row>')
        self.row += 1

    def extend_block(self, rows: bytes | memoryview, count: int) -> None:
        """``count`` rows already written as XML and encoded (a rating list's rows, joined by
        Arrow: no Python string a row), numbered from ``row + 1``."""
        self._rows.append(rows)
        self.row += count

    def extend_rows(self, rows: list[str]) -> None:
        """Rows already written as XML (``<row r="N">...</row>``, numbered from ``row + 1``)."""
        self._rows.extend(rows)
        self.row += len(rows)

    def quoted_name(self) -> str:
        return "'" + self.name.replace("'", "''") + "'"

    def filter_ref(self, absolute: bool = False) -> str:
        assert self.autofilter is not None
        first_row, first_col, last_row, last_col = self.autofilter
        d = "$" if absolute else ""
        return (
            f"{d}{column_letter(first_col)}{d}{first_row + 1}:"
            f"{d}{column_letter(last_col)}{d}{last_row + 1}"
        )

    def xml(self) -> bytes:
        view = '<sheetView workbookViewId="0"/>'
        if self.frozen_rows:
            top = f"A{self.frozen_rows + 1}"
            view = (
                '<sheetView workbookViewId="0"><pane ySplit="'
                f'{self.frozen_rows}" topLeftCell="{top}" activePane="bottomLeft" '
                'state="frozen"/><selection pane="bottomLeft" activeCell="'
                f'{top}" sqref="{top}"/></sheetView>'
            )
        cols = "".join(
            f'<col min="{c + 1}" max="{c + 1}" width="{w!r}" customWidth="1"/>'
            for c, w in sorted(self.widths.items())
        )
        cols_xml = f"<cols>{cols}</cols>" if cols else ""
        autofilter = (
            f'<autoFilter ref="{self.filter_ref()}"/>' if self.autofilter is not None else ""
        )
        # CT_Worksheet's sequence puts ignoredErrors after autoFilter (and after the page
        # margins and setup, which these sheets do not write).
        ignored = (
            f'<ignoredErrors><ignoredError sqref="{" ".join(self.text_ids)}" '
            'numberStoredAsText="1"/></ignoredErrors>'
            if self.text_ids
            else ""
        )
        head = (
            f'{HEAD}<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><sheetViews>{view}</sheetViews>'
            f'<sheetFormatPr defaultRowHeight="15"/>{cols_xml}<sheetData>'
        )
        tail = f"</sheetData>{autofilter}{ignored}</worksheet>"
        return b"".join([head.encode(), *_encoded_runs(self._rows), tail.encode()])


def _encoded_runs(rows: list[str | bytes | memoryview]) -> list[bytes | memoryview]:
    """``rows`` as UTF-8: each run of text rows joined and encoded once, blocks as they are."""
    out: list[bytes | memoryview] = []
    run: list[str] = []
    for row in rows:
        if isinstance(row, str):
            run.append(row)
            continue
        if run:
            out.append("".join(run).encode("utf-8"))
            run = []
        out.append(row)
    if run:
        out.append("".join(run).encode("utf-8"))
    return out
