"""Defects found by a user's trial of the CLI (one test per defect; each failed before its fix)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def trf_line(n: int, name: str, rating: int, pid: str, points: str, cell: str) -> str:
    """A TRF16 player record with no sex, title or federation (columns 10-13 and 54-56 blank)."""
    return (
        f"001 {n:>4}      {name:<33} {rating:>4}     {pid:>11} {'':10} {points:>4} {n:>4}  {cell}"
    )


def test_norms_on_a_trf_without_titles_names_the_file_and_what_it_lacks(tmp_path: Path) -> None:
    # A TRF is already "an event file with its players": the message must not ask for one, it
    # must name the file and say which records lack what (title columns 11-13, federation 54-56).
    trf = tmp_path / "plain.trf"
    lines = [
        "012 No Titles Open",
        trf_line(1, "Alpha, Ann", 2100, "101", "1.0", "   2 w 1"),
        trf_line(2, "Beta, Bob", 2000, "102", "0.0", "   1 b 0"),
    ]
    trf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("norms", trf)
    assert result.exit_code == 1
    assert "plain.trf" in result.stderr
    assert "no player has a title or a federation" in result.stderr
    assert "--players" in result.stderr
    assert "give an event file with its players" not in result.stderr
    assert "Traceback" not in result.output


SAMPLE = Path(__file__).resolve().parents[1] / "sample_data"


def test_a_second_run_into_the_same_out_says_which_files_are_left_from_the_first(
    tmp_path: Path,
) -> None:
    # Run 1 writes the spreadsheets; run 2 (--no-xlsx) does not. The old report.xlsx and
    # rating_list.xlsx stay in --out beside the new CSVs: the run must say so (they are not
    # deleted: they are the user's files now), in text and in --json's notes.
    args = ["rate", str(SAMPLE / "games.csv"), "--players", str(SAMPLE / "players.csv")]
    args += ["--period", "2026-11", "--out", str(tmp_path / "out"), "--quiet"]
    first = run_cli(*args)
    assert first.exit_code == 0, first.output
    assert "earlier run" not in first.stderr
    second = run_cli(*args, "--no-xlsx")
    assert second.exit_code == 0, second.output
    for name in ("rating_list.xlsx", "report.xlsx"):
        assert f"{name} is left from an earlier run" in second.stderr
        assert (tmp_path / "out" / name).exists()
    assert "report.html is left" not in second.stderr  # written again: not stale
    third = run_cli(*args, "--no-xlsx", "--no-html")
    assert "report.html is left from an earlier run" in third.stderr


def test_history_says_when_a_rated_player_is_unrated_on_a_published_list(tmp_path: Path) -> None:
    # 5100100 (Jansen) starts the sample period at 1408 and scores 0/8: 1408 - 21 = 1387 is
    # below the 1400 floor, so the 2026-12 list carries no rating. The history row must say so
    # rather than show a blank rating with a blank note.
    period = SAMPLE / "period"
    out = tmp_path / "p"
    args = ["period", "--list", str(period / "list_2026-11.csv")]
    args += ["--events", str(period / "events")]
    run = run_cli(*args, "--period", "2026-11", "--out", str(out), "--quiet")
    assert run.exit_code == 0, run.output
    result = run_cli("history", "5100100", "--db", out / "ratings.db")
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()
    published = next(r for r in rows if r.startswith("2026-12"))
    assert published.endswith("unrated on this list"), published
    given = next(r for r in rows if r.startswith("2026-11"))
    assert "1408" in given and "unrated" not in given


def test_period_with_a_month_out_of_range_says_which_part_is_wrong() -> None:
    # '2026-13' has the YYYY-MM shape; "must be YYYY-MM" leaves the user looking at a value that
    # looks right. Say the month is out of range; '2026-1' is told the month needs two digits.
    from pipeline.errors import UsageError
    from pipeline.rules.periods import resolve_period

    cases = [("2026-13", "month 13"), ("2026-00", "month 00"), ("2026-1", "2026-01")]
    for value, expected in cases:
        try:
            resolve_period(value)
        except UsageError as error:
            assert expected in str(error), str(error)
        else:
            raise AssertionError(f"{value!r} was accepted")
    assert resolve_period("2026-12") == "2026-12"
