"""TRF reader: the real files in ../shared/trf (skipped when absent), the sample event, quirks.

Counts on real files are checked against a second, deliberately naive parse written here (column
slicing straight from TRF.md), and specific lines are quoted and checked by hand.
"""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.readers import read_event_file
from pipeline.readers.events.dates import parse_date
from pipeline.readers.events.trf_file import read_trf
from tests.conftest import run_cli


def naive(path):
    """Player records and round cells by plain slicing: {sno: (line, rating, id, cells)}."""
    text = path.read_bytes().decode("latin-1").replace("\r\n", "\n").replace("\r", "\n")
    players = {}
    for line in text.split("\n"):
        if not line.startswith("001"):
            continue
        cells = {}
        for r in range(1, 40):
            cell = line[91 + 10 * (r - 1) : 99 + 10 * (r - 1)]
            if cell.strip():
                opp = cell[:4].strip()
                cells[r] = (int(opp) if opp else 0, cell[5], cell[7])
        rating = line[48:52].strip()
        players[int(line[4:8])] = (line, int(rating) if rating else 0, line[57:68].strip(), cells)
    return players


def naive_games(players):
    """(games, played games, played games with both players rated) counted once per pair."""
    games = played = rated = 0
    for sno, (_, rating, _, cells) in players.items():
        for opp, _, code in cells.values():
            if opp > sno:
                games += 1
                if code in "10=":
                    played += 1
                    rated += rating > 0 and players[opp][1] > 0
    return games, played, rated


@pytest.mark.parametrize(
    "name, players, rounds",
    [
        ("karl-mala-2005.trf", 283, 7),
        ("open-gros-2010-r4.trf", 52, 9),
        ("generated-60p-cr-only.trf", 60, 15),
    ],
)
def test_real_files_read_and_agree_with_a_naive_parse(shared_trf, name, players, rounds):
    event = read_trf(shared_trf / name)
    raw = naive(shared_trf / name)
    games, played, _ = naive_games(raw)
    # karl-mala's dummy "spielfrei" (284) is not a player; every other 001 record is.
    assert len(event.players.players) == players == len(raw) - (name.startswith("karl"))
    assert event.info.rounds == rounds
    assert len(event.games) == games
    assert int(event.games["played"].sum()) == played


def test_real_files_rated_game_counts(shared_trf, tmp_path):
    for name in ("karl-mala-2005.trf", "open-gros-2010-r4.trf"):
        out = tmp_path / name
        result = run_cli(
            "rate", str(shared_trf / name), "--period", "2010-10", "--out", str(out), "--no-xlsx"
        )
        assert result.exit_code == 0, result.stderr
        _, _, rated = naive_games(naive(shared_trf / name))
        rows = (out / "games.csv").read_text(encoding="utf-8").splitlines()[1:]
        assert sum(",true," in row for row in rows) == 2 * rated  # two sides per rated game


def test_karl_mala_lines_checked_by_hand(shared_trf):
    event = read_trf(shared_trf / "karl-mala-2005.trf")
    players = event.players.players.set_index("sno")
    # 001    1    g Vasquez,Rodrigo   2558 CHI     3400042 1969.12.06  6.0    4   141 w 1 ...
    vasquez = players.loc[1]
    assert (
        vasquez["id"],
        vasquez["title"],
        vasquez["rating"],
        vasquez["federation"],
        vasquez["birth_year"],
    ) == ("3400042", "GM", 2558, "CHI", 1969)
    # 001  141      Storkebaum,Ulrike   1895   24611786 1971.05.30  3.0  180     1 b 0
    games = event.games
    first = games[(games["round"] == "1") & (games["white"] == "3400042")].iloc[0]
    assert (first["black"], first["result"], bool(first["played"])) == ("24611786", "1-0", True)
    # 001  245 f    Goesswein,Dorothee ... : sex f -> w; no rating -> unrated
    assert players.loc[245, "sex"] == "w" and players["rating"].isna().loc[245]
    # 001   63 ... Heidorn 4683960 ...  204 - +  : forfeit, no colours -> lower number as white
    forfeit = games[(games["white"] == "4683960") & (games["round"] == "1")].iloc[0]
    assert (forfeit["result"], bool(forfeit["played"])) == ("+-", False)
    # 001  282 ... 0000 - +  in round 5: a full-point bye;  001  284  spielfrei  0000 - -: dummy
    assert list(event.byes[["player", "round", "score_h"]].itertuples(index=False, name=None)) == [
        ("karl-mala-2005#282", "5", 100)
    ]
    assert "spielfrei" not in set(players["name"])
    assert event.info.start == "2005-07-28" and event.info.name == "9. Karl-Mala-Gedenkturnier"


def test_open_gros_byes_and_unrated(shared_trf):
    event = read_trf(shared_trf / "open-gros-2010-r4.trf")
    players = event.players.players
    assert int(players["rating"].isna().sum()) == 11  # README: 11 unrated
    assert event.byes["code"].value_counts().to_dict() == {"H": 16, "Z": 6, "U": 3}
    # 001    6 m    Gorrochategui Torres, Eugenio     0 ESP           0 1950: no id -> fallback
    six = players.set_index("sno").loc[6]
    assert six["id"] == "open-gros-2010-r4#6" and six["name"] == "Gorrochategui Torres, Eugenio"
    assert set(event.games["round"]) == {"1", "2", "3", "4"}  # after round 4 of XXR 9
    assert event.info.start == "2010-09-24"


def test_sample_event(sample):
    event = read_event_file(sample / "event.trf")
    assert len(event.games) == 25 and len(event.players.players) == 10
    kowalski = event.players.players.set_index("id").loc["4100018"]
    assert (kowalski["title"], kowalski["birth_year"], kowalski["sex"]) == ("GM", 1990, "m")
    # 132 record: round 3 on 26/11/14
    assert set(event.games.loc[event.games["round"] == "3", "date"]) == {"2026-11-14"}


def record(sno, sex, title, name, rating, fed, fide_id, birth, points, cells):
    """A 001 line written field by field from TRF.md's columns (1-based, inclusive)."""
    head = (
        f"001 {sno:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {sno:>4}"
    )
    return head + "".join(f"  {cell:<8}" for cell in cells)


TRF_LINES = [
    "012 Quirk Open",
    "042 {date}",
    "### a TRF26 comment line",
    "XXR 3",
    "013 Team A    1    2",
    "BBW  1.0",
    "201 team record we do not read",
    record(
        1,
        "m",
        "g",
        "Alpha, Anna",
        "2400",
        "GER",
        "1000001",
        "1990/01/01",
        "2.0",
        ["   2 w 1", "   3 b 1", ""],
    ),
    record(
        2,
        "w",
        "wf",
        "Beta, Berta",
        "2100",
        "GER",
        "1000002",
        "1995.00.00",
        "0.5",
        ["   1 b 0", "0000 - H", "   3 w 0"],
    ),
    record(
        3, "", "", "Gamma, Gus", "0", "GER", "", "2010", "2.0", ["0000 - U", "   1 w 0", "   2 b 1"]
    ),
]


def write(tmp_path, lines, date="2020/05/29", ending="\n", name="q.trf"):
    path = tmp_path / name
    path.write_bytes(ending.join(lines).replace("{date}", date).encode("utf-8"))
    return path


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_quirks_are_read(tmp_path, ending):
    event = read_trf(write(tmp_path, TRF_LINES, ending=ending))
    players = event.players.players.set_index("sno")
    assert list(players["title"]) == ["GM", "WFM", ""]
    assert list(players["birth_year"]) == [1990, 1995, 2010]
    assert players.loc[3, "id"] == "q#3" and players["rating"].isna().loc[3]
    assert len(event.games) == 3 and event.info.rounds == 3
    assert sorted(event.byes["code"]) == ["H", "U"]
    kept = [text[:3] for _, text in event.info.kept]
    assert kept == ["013", "BBW", "201"]


@pytest.mark.parametrize(
    "text, iso",
    [
        ("28. 07. 2005", "2005-07-28"),
        ("24/09/2010", "2010-09-24"),
        ("May 29, 2020", "2020-05-29"),
        ("2020/05/29", "2020-05-29"),
        ("2005.07.28", "2005-07-28"),
        ("09/24/2010", "2010-09-24"),
        ("3 Juli 2021", "2021-07-03"),
        ("2021-02-30", None),
        ("soon", None),
    ],
)
def test_free_text_dates(text, iso):
    assert parse_date(text) == iso


@pytest.mark.parametrize(
    "text, iso", [("2010/09/24 - 2010/10/02", "2010-09-24"), ("Start: 28.07.2005", "2005-07-28")]
)
def test_start_date_inside_free_text(tmp_path, text, iso):
    assert read_trf(write(tmp_path, TRF_LINES, date=text)).info.start == iso


def test_bad_start_date_is_reported(tmp_path):
    with pytest.raises(InputError) as exc:
        read_trf(write(tmp_path, TRF_LINES, date="next tuesday"))
    assert [(p.code, p.row, p.value) for p in exc.value.problems] == [
        ("bad-value", 2, "next tuesday")
    ]


def test_result_mismatch_names_both_lines(tmp_path):
    lines = list(TRF_LINES)
    lines[8] = lines[8].replace("     1 b 0", "     1 b 1")  # Beta also claims the win
    with pytest.raises(InputError) as exc:
        read_trf(write(tmp_path, lines))
    mismatch = [p for p in exc.value.problems if p.code == "result-mismatch"]
    assert len(mismatch) == 1
    problem = mismatch[0]
    assert problem.row == 8 and problem.column == "round 1 (columns 92-99)"
    assert (
        problem.value == "   2 w 1"
        and "line 9" in problem.message
        and "'   1 b 1'" in problem.message
    )
    # The points column no longer matches either: reported in the same run.
    assert any(p.code == "points-mismatch" and p.row == 9 for p in exc.value.problems)


def test_every_problem_at_once(tmp_path):
    lines = list(TRF_LINES)
    lines[7] = lines[7].replace(" 2400 ", " 24x0 ").replace("     3 b 1", "     7 b 1")
    lines[9] = lines[9].replace("     2 b 1", "     2 b ?")
    with pytest.raises(InputError) as exc:
        read_trf(write(tmp_path, lines))
    codes = sorted(p.code for p in exc.value.problems)
    assert "bad-rating" in codes and "unknown-player" in codes and "bad-result" in codes
    rows = {p.code: p.row for p in exc.value.problems}
    assert rows["bad-rating"] == 8 and rows["unknown-player"] == 8 and rows["bad-result"] == 10


def test_one_sided_pairing(tmp_path):
    lines = list(TRF_LINES)
    lines[9] = lines[9][:111]  # Gamma's round 3 cell cut off: Beta's has no partner
    with pytest.raises(InputError) as exc:
        read_trf(write(tmp_path, lines))
    problem = next(p for p in exc.value.problems if p.code == "result-mismatch")
    assert problem.row == 9 and "player 3 has no usable entry for round 3" in problem.message


def test_not_a_trf(tmp_path):
    path = tmp_path / "x.trf"
    path.write_text("012 only a header\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_trf(path)
    assert exc.value.problems[0].code == "not-a-table"
