"""Regenerate the golden files: ``python tests/golden/make_golden.py``.

The expected outputs in ``cases/`` were produced by code without the performance work: first by
the core path at commit a48cd30, then (after merging main, whose own changes alter some texts)
by running these same cases against an export of main at debbd1c, before main's changes met the
optimized modules. Every optimization is thus checked against that code's results byte for byte
(``tests/writers/test_golden_outputs.py``). Only rerun this script for an intended change of the
outputs, and say why in the commit.

Cases: the bundled sample, and a generated period (seeded, 600 games among 80 players: unrated
players, forfeits, overrides, 2650+ players, published K, juniors, the 700 rule, ids that are not
numbers) under several rule sets and methods, plus a file full of bad cells whose error report
must stay the same.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.synthetic import synthetic_games, synthetic_players, write_text_csv  # noqa: E402
from pipeline.cli import cli  # noqa: E402

INPUTS = HERE / "inputs"
CASES_DIR = HERE / "cases"

# name -> (arguments after `rate`, outputs to keep)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "sample": (
        ["{sample}/games.csv", "--players", "{sample}/players.csv", "--period", "2026-11"],
        ["rating_list.csv", "games.csv"],
    ),
    "generated-standard": (
        ["{inputs}/games.csv", "--players", "{inputs}/players.csv", "--period", "2026-11"],
        ["rating_list.csv", "games.csv"],
    ),
    "generated-rapid": (
        [
            "{inputs}/games.csv",
            "--players",
            "{inputs}/players.csv",
            "--period",
            "2026-11",
            "--rules",
            "rapid",
        ],
        ["rating_list.csv"],
    ),
    "generated-formula": (
        [
            "{inputs}/games.csv",
            "--players",
            "{inputs}/players.csv",
            "--period",
            "2026-11",
            "--method",
            "formula",
        ],
        ["rating_list.csv", "games.csv"],
    ),
    "generated-k32": (
        [
            "{inputs}/games.csv",
            "--players",
            "{inputs}/players.csv",
            "--period",
            "2026-11",
            "--k",
            "32",
            "--rules",
            "standard-2024",
        ],
        ["rating_list.csv"],
    ),
    "bad-cells": (
        ["{inputs}/bad_games.csv", "--players", "{inputs}/bad_players.csv", "--period", "2026-11"],
        [],
    ),
    "unknown-players": (
        ["{inputs}/unknown_games.csv", "--players", "{inputs}/players.csv", "--period", "2026-11"],
        [],
    ),
}


def write_inputs() -> None:
    INPUTS.mkdir(exist_ok=True)
    write_text_csv(synthetic_players(80, seed=7, mixed_ids=True), INPUTS / "players.csv")
    write_text_csv(synthetic_games(600, 80, seed=7, mixed_ids=True), INPUTS / "games.csv")
    # Bad cells of every kind the readers check, spread over both files.
    players = synthetic_players(30, seed=8)
    players.loc[3, "rating"] = "abc"
    players.loc[5, "rating"] = "4000"
    players.loc[6, "birth_year"] = "19x0"
    players.loc[7, "ever_2400"] = "maybe"
    players.loc[9, "id"] = players.loc[8, "id"]
    players.loc[11, "k"] = "500"
    games = synthetic_games(60, 30, seed=8)
    games.loc[2, "result"] = "2-0"
    games.loc[4, "white"] = ""
    games.loc[5, "black"] = "9999999"
    games.loc[7, "date"] = "2026-13-01"
    games.loc[8, "white_rating"] = "12.5"
    games.loc[10, "black"] = games.loc[10, "white"]
    games.loc[12, "result"] = "1:1"
    write_text_csv(players, INPUTS / "bad_players.csv")
    write_text_csv(games, INPUTS / "bad_games.csv")
    unknown = synthetic_games(40, 80, seed=9, mixed_ids=True)
    unknown.loc[3, "white"] = "4199999"
    unknown.loc[17, "black"] = "NAT-X"
    unknown.loc[17, "black_rating"] = "1900"  # a rating on the row makes an unknown id fine
    unknown.loc[30, "black"] = "NAT-Y"
    write_text_csv(unknown, INPUTS / "unknown_games.csv")


def run_case(args: list[str], out: Path) -> tuple[int, str]:
    """Run one case from the repository root with relative paths: the ``source`` column of
    games.csv and the messages then read the same on every machine."""
    argv = [a.format(sample="sample_data", inputs="tests/golden/inputs") for a in args]
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(
            cli, ["rate", *argv, "--out", str(out), "--quiet", "--no-xlsx", "--no-html"]
        )
    finally:
        os.chdir(here)
    return result.exit_code, result.stderr


def main() -> None:
    write_inputs()
    tmp = HERE / "_tmp"
    for name, (args, keep) in CASES.items():
        shutil.rmtree(tmp, ignore_errors=True)
        code, stderr = run_case(args, tmp)
        target = CASES_DIR / name
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir()
        (target / "exit_code.txt").write_text(f"{code}\n")
        (target / "stderr.txt").write_text(stderr)
        for file in keep:
            shutil.copyfile(tmp / file, target / file)
        print(f"{name}: exit {code}, kept {', '.join(keep) or 'nothing'}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
