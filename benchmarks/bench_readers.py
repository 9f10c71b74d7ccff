"""Readers: rows/s and peak memory for big inputs, against simple baselines run on the same files.

- a generated 1,000,000-game CSV  (baselines: a plain ``csv.reader`` loop, ``pd.read_csv``)
- an XLSX crosstable (a 9-round Swiss event made by ``bench_event_formats``; rows/s counts the
  games read from it; baseline: a bare openpyxl ``iter_rows`` loop over the same sheet)
- a generated 1.9-million-player FIDE combined list, TXT and XML (baselines: a Python loop that
  slices the same columns of each line; the standard library's ElementTree ``iterparse``)

Every read runs in its own child process, which reports its own peak RSS (``VmHWM``): the
figure the 1.5 GB limit for the full list is about. The "python + pandas" row is the floor every
child pays (interpreter and imports). Data is generated into a temporary folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.fide_list_data import write_txt, write_xml

CHILD = r"""
import json, resource, sys, time
kind, path = sys.argv[1], sys.argv[2]
import pandas as pd
import pipeline.readers as readers
start = time.perf_counter()
if kind == "noop":
    rows = 0
elif kind == "games":
    rows = len(readers.read_event_file(path).games)
elif kind == "players":
    rows = len(readers.read_players(path).players)
elif kind == "csv_reader":
    import csv
    with open(path, newline="", encoding="utf-8") as fh:
        rows = sum(1 for _ in csv.reader(fh)) - 1
elif kind == "read_csv":
    rows = len(pd.read_csv(path, dtype=str, keep_default_na=False))
elif kind == "openpyxl":
    from openpyxl import load_workbook
    book = load_workbook(path, read_only=True, data_only=True)
    rows = sum(1 for _ in book.worksheets[0].iter_rows(values_only=True)) - 1
elif kind == "txt_loop":
    cols = [(0, 15), (15, 76), (76, 80), (80, 84), (84, 89), (113, 119), (119, 123), (123, 126),
            (152, 158), (158, 162)]
    out = [[] for _ in cols]
    with open(path, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            for values, (a, b) in zip(out, cols):
                values.append(line[a:b].strip())
    rows = len(out[0])
elif kind == "xml_etree":
    import xml.etree.ElementTree as ET
    wanted = ("fideid", "name", "country", "sex", "title", "rating", "games", "k", "birthday",
              "flag")
    out = {t: [] for t in wanted}
    for _, elem in ET.iterparse(path, events=("end",)):
        if elem.tag == "player":
            for t in wanted:
                out[t].append(elem.findtext(t))
            elem.clear()
    rows = len(out["fideid"])
seconds = time.perf_counter() - start
# VmHWM: this process's own peak RSS (ru_maxrss would carry the parent's over fork + exec).
with open("/proc/self/status") as fh:
    hwm = [line for line in fh if line.startswith("VmHWM")]
kb = int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
peak = kb / 1024
print(json.dumps({"rows": rows, "seconds": seconds, "peak_mb": peak}))
"""


def measure(kind: str, path: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"benchmark child {kind} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def write_games_csv(path: Path, games: int, seed: int = 7) -> None:
    rng = np.random.default_rng(seed)
    players = np.arange(4_100_000, 4_100_000 + max(games // 5, 10))
    white = rng.choice(players, games)
    black = rng.choice(players, games)
    black = np.where(black == white, black + 1, black)
    frame = pd.DataFrame(
        {
            "event": "Bench Open",
            "round": (np.arange(games) // 1000 + 1).astype(str),
            "white": white.astype(str),
            "black": black.astype(str),
            "result": rng.choice(["1-0", "0-1", "1/2-1/2"], games),
            "white_rating": rng.integers(1400, 2800, games).astype(str),
            "black_rating": rng.integers(1400, 2800, games).astype(str),
        }
    )
    frame.to_csv(path, index=False)


def write_crosstable_xlsx(path: Path, players: int) -> None:
    """The crosstable CSV of ``bench_event_formats`` (same generator), saved as a workbook."""
    from openpyxl import Workbook

    from benchmarks.bench_event_formats import make_event, write_files

    games, people = make_event(players, 9)
    write_files(path.parent, games, people)
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Crosstable")
    frame = pd.read_csv(path.parent / "crosstable.csv", dtype=str, keep_default_na=False)
    sheet.append(list(frame.columns))
    for record in frame.itertuples(index=False):
        sheet.append(list(record))
    book.save(path)


def main(quick: bool) -> None:
    games_n = 100_000 if quick else 1_000_000
    # Players in the crosstable (9 rounds): an even number (the generator pairs them all) of at
    # most 9,999, as the TRF it writes too holds starting ranks of four digits (trf-too-large).
    xlsx_n = 1_000 if quick else 9_998
    players_n = 190_000 if quick else 1_900_000
    with tempfile.TemporaryDirectory(prefix="fiderate-bench-") as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        games_csv = folder / "games.csv"
        write_games_csv(games_csv, games_n)
        games_xlsx = folder / "xt" / "crosstable.xlsx"
        games_xlsx.parent.mkdir()
        write_crosstable_xlsx(games_xlsx, xlsx_n)
        list_txt = folder / "players_list_foa.txt"
        write_txt(list_txt, players_n)
        list_xml = folder / "players_list_xml_foa.xml"
        write_xml(list_xml, players_n)
        print(
            f"generated inputs in {time.perf_counter() - t:.0f} s: {games_n:,} games, "
            f"{xlsx_n:,}-player crosstable, {players_n:,} players "
            f"(TXT {list_txt.stat().st_size / 2**20:.0f} MB, "
            f"XML {list_xml.stat().st_size / 2**20:.0f} MB)"
        )
        cases = [
            ("python + pandas (floor)", "noop", games_csv, None),
            (f"games CSV {games_n:,}: csv.reader loop", "csv_reader", games_csv, None),
            (f"games CSV {games_n:,}: pd.read_csv", "read_csv", games_csv, None),
            (f"games CSV {games_n:,}: fiderate", "games", games_csv, "csv_reader"),
            (f"crosstable XLSX {xlsx_n:,}: openpyxl loop", "openpyxl", games_xlsx, None),
            (f"crosstable XLSX {xlsx_n:,}: fiderate (games)", "games", games_xlsx, "openpyxl"),
            (f"FIDE TXT {players_n:,}: line-slicing loop", "txt_loop", list_txt, None),
            (f"FIDE TXT {players_n:,}: fiderate", "players", list_txt, "txt_loop"),
            (f"FIDE XML {players_n:,}: ElementTree iterparse", "xml_etree", list_xml, None),
            (f"FIDE XML {players_n:,}: fiderate", "players", list_xml, "xml_etree"),
        ]
        results: dict[str, dict[str, float]] = {}
        print(
            f"{'read':<46}{'rows':>11}{'seconds':>9}{'rows/s':>12}{'peak MB':>9}{'vs baseline':>13}"
        )
        for label, kind, path, baseline in cases:
            figures = measure(kind, path)
            results[kind + str(path)] = figures
            rate = figures["rows"] / figures["seconds"] if figures["rows"] else 0
            ratio = ""
            if baseline is not None:
                base = results[baseline + str(path)]
                ratio = f"{base['seconds'] / figures['seconds']:.2f}x speed"
            print(
                f"{label:<46}{figures['rows']:>11,.0f}{figures['seconds']:>9.1f}"
                f"{rate:>12,.0f}{figures['peak_mb']:>9.0f}{ratio:>13}",
                flush=True,
            )
        print(
            "peak MB = the child process's maximum RSS (interpreter and imports included); "
            "the limit for the full FIDE list is 1,500 MB."
        )
