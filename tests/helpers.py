"""Small builders for tests: write real input files and rate them through the library or the CLI."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from click.testing import Result

from pipeline import RateOptions, rate_files
from pipeline.writers import rating_list_table
from tests.conftest import run_cli


def write_csv(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def individual_file(
    path: Path, rating: int, games: list[tuple[int, object]], k: int | None = None
) -> Path:
    rows = [["P", rating, opp, result, "" if k is None else k] for opp, result in games]
    return write_csv(path, ["player", "rating", "opponent_rating", "result", "k"], rows)


def rate_rows(
    tmp_path: Path,
    inputs: list[Path],
    players: Path | None = None,
    via: str = "library",
    **options: object,
) -> dict[str, dict[str, str]]:
    """Rate and return rating_list.csv rows by id, through the library or the real CLI."""
    if via == "library":
        result = rate_files(inputs, players, RateOptions(**options))  # type: ignore[arg-type]
        table = rating_list_table(result)
        return {row["id"]: row for row in table.to_dict("records")}
    out = tmp_path / "out"
    args = ["rate", *map(str, inputs), "--out", str(out), "--no-xlsx"]
    if players is not None:
        args += ["--players", str(players)]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is not None and value is not False:
            args += [flag, str(value)]
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        return {row["id"]: row for row in csv.DictReader(fh)}


def period_on_copy(
    tmp_path: Path, database: Path, list_path: Path, period: str, games: str
) -> Path:
    """``fiderate period`` of one event file (``games``: its CSV text) on a copy of a history
    ``database`` (an older schema's, migrated by the run); returns the output folder."""
    from pipeline.jobs.period import PeriodRequest, run_period

    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(database, out / "ratings.db")
    events = tmp_path / "events"
    events.mkdir()
    (events / "event.csv").write_text(games)
    run_period(PeriodRequest(list_path=list_path, events=(events,), period=period, out_dir=out))
    return out


def report_tables(result):  # type: ignore[no-untyped-def]
    """(the report model the output stage builds for report.html, its standings table, its
    per-game breakdown): what ``write_outputs`` hands the report writers."""
    from pipeline.jobs.rate.outputs import prepare_outputs
    from pipeline.writers.text.report_text import breakdown, standings

    _, _, model = prepare_outputs(result, xlsx=False, html=True)
    return model, standings(model), breakdown(model)


def run_hostile(args: list[str], exit_code: int) -> tuple[Result, str]:
    """Run a catalogue case's command line and hold the promises every hostile input keeps: the
    exit code asked for, no traceback, no internal error, a report of bounded size. Returns the
    click result and its whole output (stdout + stderr)."""
    result = run_cli(*args)
    output = result.stdout + result.stderr
    assert result.exit_code == exit_code, output[-3000:]
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
    # Bounded: at most 200 problems, values quoted to 80 characters (JSON adds indentation).
    assert len(output) < 120_000, len(output)
    if exit_code != 0:
        assert output.strip()
    return result, output


def files_of(work: Path) -> dict[Path, bytes]:
    """Every file below ``work`` with its bytes: what a failed run must leave as it was."""
    return {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}


def assert_nothing_written(work: Path, before: dict[Path, bytes]) -> None:
    """No new file, no new folder (an empty ``work/out`` aside), every input exactly as it was."""
    after = {p for p in work.rglob("*") if p.is_file() or p.is_dir()}
    new = after - set(before) - {p.parent for p in before} - {work / "out"}
    assert not new, sorted(map(str, new))
    for path, data in before.items():
        assert path.read_bytes() == data, path
    out = work / "out"
    assert not out.is_dir() or not any(out.iterdir())
