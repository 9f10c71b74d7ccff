"""Done means: the same event as games file, crosstable CSV, crosstable XLSX and TRF gives a
byte-identical rating_list.csv.

The TRF and crosstables of sample_data/ are written by sample_data/make_samples.py, a separate
implementation of the layouts, from games.csv + players.csv. Two fair comparisons:
1. every format with ``--players players.csv`` (the list in force decides ratings, K, games count,
   ever-2400: what a real rating run does);
2. every event format alone against games.csv with a players list reduced to what a TRF or
   crosstable can carry (id, name, rating, birth year, federation, title, sex): a published K,
   the games count and the ever-2400 flag have no field in those formats.
"""

from __future__ import annotations

import csv

import pytest

from tests.conftest import run_cli

FORMATS = ["games.csv", "event.trf", "crosstable.csv", "crosstable.xlsx"]


def rate(tmp_path, name, *args):
    out = tmp_path / name.replace(".", "_")
    result = run_cli("rate", *args, "--period", "2026-11", "--out", str(out), "--no-xlsx", "-q")
    assert result.exit_code == 0, result.stderr
    return (out / "rating_list.csv").read_bytes()


def test_samples_are_up_to_date(sample, tmp_path):
    """The committed event files are what make_samples.py writes today (XLSX: same cells)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_samples", sample / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    players, games = module.load()
    module.write_trf(players, games, tmp_path / "event.trf")
    module.write_crosstable_csv(players, games, tmp_path / "crosstable.csv")
    for name in ("event.trf", "crosstable.csv"):
        assert (tmp_path / name).read_bytes() == (sample / name).read_bytes()


@pytest.mark.parametrize("name", FORMATS[1:])
def test_same_rating_list_with_the_list_in_force(sample, tmp_path, name):
    players = ["--players", str(sample / "players.csv")]
    expected = rate(tmp_path, "games", str(sample / "games.csv"), *players)
    assert rate(tmp_path, name, str(sample / name), *players) == expected


def test_same_rating_list_from_the_event_files_alone(sample, tmp_path):
    reduced = tmp_path / "players_event_fields.csv"
    fields = ["id", "name", "rating", "birth_year", "federation", "title", "sex"]
    with (
        (sample / "players.csv").open(encoding="utf-8") as src,
        reduced.open("w", encoding="utf-8", newline="") as dst,
    ):
        writer = csv.DictWriter(dst, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(csv.DictReader(src))
    outputs = {
        "games.csv": rate(tmp_path, "games", str(sample / "games.csv"), "--players", str(reduced))
    }
    for name in FORMATS[1:]:
        outputs[name] = rate(tmp_path, name, str(sample / name))
    assert len(set(outputs.values())) == 1, [
        n for n, o in outputs.items() if o != outputs["games.csv"]
    ]
    # And the birth years from the event file decide K: Moreau (2010) is a junior, K 40.
    rows = {r["id"]: r for r in csv.DictReader(outputs["event.trf"].decode().splitlines())}
    assert (rows["4100042"]["k"], rows["4100042"]["k_rule"].startswith("junior")) == ("40", True)


def test_list_in_force_overrides_event_ratings(sample, tmp_path):
    """A TRF whose rating for Kowalski differs from the list: the list decides."""
    text = (sample / "event.trf").read_bytes().decode()
    changed = text.replace(
        "Kowalski, Adam                    2712", "Kowalski, Adam                    2650"
    )
    assert changed != text
    trf = tmp_path / "changed.trf"
    trf.write_bytes(changed.encode())
    with_list = rate(tmp_path, "with", str(trf), "--players", str(sample / "players.csv"))
    alone = rate(tmp_path, "alone", str(trf))
    line = next(r for r in with_list.decode().splitlines() if r.startswith("4100018,"))
    assert ",2712," in line
    line = next(r for r in alone.decode().splitlines() if r.startswith("4100018,"))
    assert ",2650," in line


def test_players_missing_from_the_list_come_from_the_event(sample, tmp_path):
    """The list in force lacks Rossi: his TRF data is used (rating 1760, no published K)."""
    lines = (sample / "players.csv").read_text(encoding="utf-8").splitlines()
    short = tmp_path / "players_without_rossi.csv"
    short.write_text("\n".join(line for line in lines if "Rossi" not in line) + "\n", "utf-8")
    out = rate(tmp_path, "short", str(sample / "event.trf"), "--players", str(short)).decode()
    rows = {r["id"]: r for r in csv.DictReader(out.splitlines())}
    assert rows["4100085"]["rating"] == "1760" and rows["4100085"]["name"] == "Rossi, Marco"
    # players.csv publishes K 20 for Rossi; the TRF has no K, no games count and no 2400
    # history: born 1970, 20 by the precedence, assumed, with the reason saying so (issue 35).
    assert rows["4100085"]["k_rule"] == "standard K (assumed: no games count, no 2400 history)"
    assert rows["4100085"]["k_assumed"] == "true"
    assert rows["4100034"]["games"] == "4"  # the list still decides for everybody on it


def test_event_problems_returns_instead_of_raising(sample):
    from pipeline.readers.formats import event_problems

    assert event_problems(sample / "event.trf") == []
    codes = {p.code for p in event_problems(sample / "broken" / "result-mismatch.trf")}
    assert codes == {"result-mismatch", "points-mismatch"}


def test_two_events_disagreeing_on_a_rating(sample, tmp_path):
    """Two TRFs of one period give Kowalski different ratings: refused, naming both files."""
    text = (sample / "event.trf").read_bytes().decode()
    other = tmp_path / "other.trf"
    other.write_bytes(
        text.replace(
            "Kowalski, Adam                    2712", "Kowalski, Adam                    2700"
        )
        .replace("012 Autumn Open 2026", "012 Winter Open 2026")
        # Another event, on other days (the same games on the same days: duplicate-event).
        .replace("042 2026/11/07", "042 2026/11/01")
        .replace("26/11/07  26/11/08", "26/11/01  26/11/02")
        .encode()
    )
    result = run_cli("rate", str(sample / "event.trf"), str(other), "--out", str(tmp_path / "o"))
    assert result.exit_code == 1 and not (tmp_path / "o").exists()
    assert "[duplicate-player]" in result.stderr and "4100018" in result.stderr
    assert "event.trf (line 12)" in result.stderr and "other.trf" in result.stderr
    # With the list in force both events are rated from it: no conflict.
    rate(
        tmp_path,
        "both",
        str(sample / "event.trf"),
        str(other),
        "--players",
        str(sample / "players.csv"),
    )
