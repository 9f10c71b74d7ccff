"""report.xlsx and player-ID.xlsx: opened with openpyxl and checked against the CSV outputs and
against values derived here from games.csv and table 8.1.1."""

from __future__ import annotations

import csv
from contextlib import closing
from decimal import ROUND_HALF_UP, Decimal

import pytest
from openpyxl import load_workbook

from pipeline.lists.next_list import STATUS_POOL
from pipeline.writers.text.report_text import BREAKDOWN_COLUMNS, STANDINGS_COLUMNS
from pipeline.writers.xlsx.workbooks import sheet_names
from tests.conftest import SAMPLE, run_cli
from tests.reportfixtures import junior_event, rate_into, read_csv


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    from tests.conftest import SAMPLE

    folder = tmp_path_factory.mktemp("xlsx")
    rate_into(
        folder,
        SAMPLE / "games.csv",
        players=SAMPLE / "players.csv",
        extra=("--player", "4100085", "--no-html"),
    )
    return folder


@pytest.fixture(scope="module")
def book(out):
    return load_workbook(out / "report.xlsx")


def rows_of(ws):
    values = list(ws.iter_rows(values_only=True))
    header = list(values[0])
    return header, values[1:]


def test_summary_matches_rating_list(out, book):
    header, rows = rows_of(book["Summary"])
    assert header == STANDINGS_COLUMNS
    expected = {r["id"]: r for r in read_csv(out / "rating_list.csv")}
    assert len(rows) == len(expected)
    for row in rows:
        rec = dict(zip(header, row, strict=True))
        want = expected[rec["id"]]
        assert str(rec["new_rating"] or "") == want["new_rating"]
        assert str(rec["k"] or "") == want["k"]
        if want["rating"] == "":
            # Issue 35 item 5: an unrated player has no change to show, not "0.00 / 0".
            assert rec["change"] == STATUS_POOL and rec["change_exact"] is None
            continue
        assert str(rec["change"]) == want["change"]
        assert f"{rec['change_exact']:.2f}" == want["change_exact"]


def test_summary_ranking_by_points_then_rating(book):
    header, rows = rows_of(book["Summary"])
    recs = [dict(zip(header, r, strict=True)) for r in rows]
    assert [r["rank"] for r in recs] == list(range(1, len(recs) + 1))
    keys = [(-r["points"], -(r["rating"] or 0)) for r in recs]
    assert keys == sorted(keys)


def test_performance_is_fide_rp(out, book, shared_fide):
    with (shared_fide / "table_8_1_1.csv").open() as fh:
        dp = {int(Decimal(r["p"]) * 100): int(r["dp"]) for r in csv.DictReader(fh)}
    games = [
        g for g in read_csv(out / "games.csv") if g["player"] == "4100085" and g["rated"] == "true"
    ]
    n = len(games)
    total = sum(int(g["opponent_rating"]) for g in games)
    score = sum(Decimal({"1": "1", "½": "0.5", "0": "0"}[g["result"]]) for g in games)
    ra = int((Decimal(total) / n).quantize(Decimal(1), ROUND_HALF_UP))
    p = int((score / n * 100).quantize(Decimal(1), ROUND_HALF_UP))
    header, rows = rows_of(book["Summary"])
    rec = next(dict(zip(header, r, strict=True)) for r in rows if r[1] == "4100085")
    assert rec["performance"] == ra + dp[p]


def test_layout_freeze_filter_formats_widths(book):
    ws = book["Summary"]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == f"A1:Q{ws.max_row}"  # 17 columns: k_assumed added
    header = [c.value for c in ws[1]]
    second = ws[2]
    fmt = {h: c.number_format for h, c in zip(header, second, strict=True)}
    assert fmt["expected"] == "0.00"
    assert fmt["change_exact"] == "+0.00;-0.00;0.00"
    assert isinstance(second[header.index("rating")].value, int)
    for i, h in enumerate(header, start=1):
        width = ws.column_dimensions[ws.cell(1, i).column_letter].width
        assert width >= min(len(h) + 2, 45)


def test_player_sheets(out, book):
    games = read_csv(out / "games.csv")
    names = {r["id"]: r["name"] for r in read_csv(out / "rating_list.csv")}
    players = {f"{g['player']} {names[g['player']]}" for g in games}
    assert set(book.sheetnames) == {"Summary", *players, "About"}
    ws = book["4100026 Novak, Petra"]
    assert ws.freeze_panes == "A2"
    header = [c.value for c in ws[1]]
    assert header == BREAKDOWN_COLUMNS[1:]  # everything but the player id
    for column in (
        "round",
        "opponent",
        "opponent_name",
        "opponent_rating",
        "gap",
        "gap_used",
        "pd",
        "dev",
        "k_dev",
    ):
        assert column in header
    mine = [g for g in games if g["player"] == "4100026"]
    body = [r for r in ws.iter_rows(min_row=2, max_row=1 + len(mine), values_only=True)]
    assert [str(r[header.index("opponent")]) for r in body] == [g["opponent"] for g in mine]
    assert ws.auto_filter.ref == f"A1:{ws.cell(1, len(header)).column_letter}{len(mine) + 1}"
    pd_cell = ws.cell(2, header.index("pd") + 1)
    assert pd_cell.number_format == "0.00"
    assert ws.cell(2, header.index("dev") + 1).number_format == "+0.00;-0.00;0.00"
    # gap 682 against 1523 is counted as 400 for a 2205 player (the 400-point rule).
    first = dict(zip(header, body[0], strict=True))
    assert (first["gap"], first["gap_used"], first["pd"]) == (682, 400, 0.92)
    labels = {
        r[0]: r[1] for r in ws.iter_rows(min_row=len(mine) + 2, values_only=True) if r and r[0]
    }
    assert labels["K explained"] == "K 20: standard K"
    assert labels["new rating"] == 2194


def test_700_rule_explained(tmp_path):
    games, players = junior_event(tmp_path / "in")
    rate_into(tmp_path / "out", games, players=players, extra=("--no-html",))
    ws = load_workbook(tmp_path / "out" / "report.xlsx")["1 Young Junior"]
    labels = {
        r[0]: r[1]
        for r in ws.iter_rows(values_only=True)
        if r and r[0] in ("K used", "K explained")
    }
    assert labels["K used"] == 38
    assert (
        "700 rule: K 40 x 18 games = 720 > 700, so K = floor(700 / 18) = 38"
        in labels["K explained"]
    )
    assert labels["K explained"].startswith("K 38: junior")


def test_player_workbook_on_its_own(out):
    book = load_workbook(out / "player-4100085.xlsx")
    assert book.sheetnames == ["Summary", "4100085 Rossi, Marco", "About"]
    _, rows = rows_of(book["Summary"])
    assert len(rows) == 1 and rows[0][1] == "4100085"


def test_sheet_names_unique_and_short():
    labels = ["A" * 40, "a" * 40, "x/y:z?", "Summary", "summary", "p" * 31 + "1", "p" * 31 + "2"]
    labels += ["7 [O'Neill]*: B\\C", "12345678901234567890 Very Long Name, Firstname", "History"]
    labels += ["'quoted'", "9 Bell\x07Name", "12345678901234567890 Very Long Name, Other"]
    labels += ["8 " + "\U0001f600" * 20]  # 2 UTF-16 units each, as Excel counts
    names = sheet_names(labels, {"Summary"})
    assert len(set(n.lower() for n in names) | {"summary", "history"}) == len(names) + 2
    assert all(0 < len(n) <= 31 and not n.startswith("'") and not n.endswith("'") for n in names)
    assert not any(set(n) & set("[]:*?/\\\x07") for n in names)
    assert names[2] == "xyz"  # forbidden characters removed
    assert names[7] == "7 O'Neill BC"
    assert names[8] == "12345678901234567890 Very Long"  # 31 characters, the blank at the end cut
    assert names[9] == "History~2"  # Excel's own sheet name
    assert names[10:13] == ["quoted", "9 BellName", "12345678901234567890 Very Lon~2"]
    assert names[13] == "8 " + "\U0001f600" * 14 and len(names[13].encode("utf-16-le")) == 60


def test_about_sheet_says_period_rules_why_method_version_inputs(out, book):
    from importlib import metadata

    ws = book["About"]
    header, rows = rows_of(ws)
    assert header == ["item", "value"]
    items: dict[str, list[str]] = {}
    for item, value in rows:
        items.setdefault(item, []).append(value)
    # rate_into gives --period 2026-11; in force then: standard-2025 (from 2025-10-01).
    assert items["period"] == ["2026-11"]
    assert items["why this period"] == ["given with --period"]
    assert items["rule set"] == ["standard-2025"]
    assert "2025-10-01" in items["why this rule set"][0]
    assert items["method"] == ["fide"]
    assert items["mode"] == ["fide: every game against the rating at the start of the period"]
    assert items["fiderate version"] == [metadata.version("fiderate")]
    # The file names: the report is published, the folders of the organiser's disk are not.
    assert items["input file"] == ["games.csv", "players.csv"]
    # The player's own workbook carries the same sheet.
    player_book = load_workbook(out / "player-4100085.xlsx")
    assert [r[1] for r in player_book["About"].iter_rows(values_only=True)][1] == "2026-11"


def test_player_sheets_hold_rounds_and_results_as_numbers_and_ids_as_text(tmp_path):
    """Issue 26 #3 and issue 35 ("numbers are numbers in every workbook; ids stay text"). Round
    and the points of a game are numbers; ids are text in every sheet, the opponent's too, as
    the Summary's: a player sheet's opponent looks up the Summary's id (a number would not match
    the Summary's text, and an event's own id such as ``karl-mala-2005#171`` is text anyway, so
    a numeric opponent column mixed types). Excel is told the ids are text on purpose
    (test_xlsx_numbers: ignoredErrors), so no "number stored as text" flag. A round such as 1.10
    and the marks of unplayed games (+, -) stay text, exactly as written."""
    from pipeline.writers.xlsx.cell_types import Number, cell_value

    assert cell_value("round", "3") == Number("3", "") and cell_value("round", "1.10") == "1.10"
    assert cell_value("opponent", "4100050") == "4100050"
    assert cell_value("opponent", "0042") == "0042"
    assert [cell_value("result", r) for r in ("1", "½", "0", "+", "-")] == [
        Number("1", ""),
        Number("0.5", ""),
        Number("0", ""),
        "+",
        "-",
    ]
    out = tmp_path / "out"
    done = run_cli(
        "rate", SAMPLE / "games.csv", "--players", SAMPLE / "players.csv", "--out", out, "-q"
    )
    assert done.exit_code == 0, done.stderr
    with closing(load_workbook(out / "report.xlsx", read_only=True)) as book:
        rows = list(book["4100042 Moreau, Julie"].iter_rows(values_only=True))
        summary_ids = {r[1] for r in list(book["Summary"].iter_rows(values_only=True))[1:]}
    header = list(rows[0])
    games = [dict(zip(header, r, strict=False)) for r in rows[1:6]]  # read-only: no trailing blank
    assert [g["round"] for g in games] == [1, 2, 3, 4, 5]
    opponents = [g["opponent"] for g in games]
    assert opponents == ["4100085", "4100077", "4100050", "4100093", "4100093"]
    assert set(opponents) <= summary_ids
    assert [g["result"] for g in games] == [0, "-", 1, 1, 0.5]


def test_a_real_events_opponents_look_up_the_summary(shared_trf, tmp_path):
    """karl-mala-2005.trf: FIDE ids (4655850) beside the event's own ids of players without one
    (karl-mala-2005#171). Every opponent on every player sheet is text and is an id of the
    Summary, so a look-up from a player sheet into the Summary finds it."""
    out = tmp_path / "out"
    done = run_cli("rate", shared_trf / "karl-mala-2005.trf", "--out", out, "--no-html", "-q")
    assert done.exit_code == 0, done.stderr
    with closing(load_workbook(out / "report.xlsx", read_only=True)) as book:
        summary = list(book["Summary"].iter_rows(values_only=True))
        id_at = summary[0].index("id")
        ids = [r[id_at] for r in summary[1:] if r and r[id_at] is not None]
        assert all(isinstance(i, str) for i in ids)
        kinds, missing, sheets = set(), [], 0
        for name in book.sheetnames:
            if name in ("Summary", "Norms", "About"):
                continue
            rows = list(book[name].iter_rows(values_only=True))
            at = rows[0].index("opponent")
            sheets += 1
            for row in rows[1:]:
                if not row or row[0] is None or row[0] == "player":
                    break  # the blank row, then the totals
                value = row[at]
                if value is None:
                    continue
                kinds.add(type(value))
                if value not in set(ids):
                    missing.append((name, value))
    assert sheets > 100
    assert kinds == {str}
    assert any("#" in i for i in ids) and any(i.isdigit() for i in ids)  # both kinds of id
    assert not missing, missing[:5]
