"""Defects found by a user's trial of the CLI (one test per defect; each failed before its fix)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pipeline.cli import cli


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
    result = CliRunner().invoke(cli, ["norms", str(trf)])
    assert result.exit_code == 1
    assert "plain.trf" in result.stderr
    assert "no player has a title or a federation" in result.stderr
    assert "--players" in result.stderr
    assert "give an event file with its players" not in result.stderr
    assert "Traceback" not in result.output
