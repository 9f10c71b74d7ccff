"""FIDE rating lists as downloaded (TXT combined/single-type, XML combined/single-type, zipped).

Fixtures are written here, line by line, from the layout in ../shared/fide/RATING_LISTS.md (not by
the code under test), so a wrong offset or a wrong column choice makes these tests fail.
"""

from __future__ import annotations

import csv
import zipfile

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.readers import read_players
from tests.conftest import run_cli

COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
# Single-type list: rating 113-119 (headed by the month), Gms 119-123, K 123-126, B-day 126-132,
# Flag 132-136.
SINGLE_HEADER = COMBINED_HEADER[:113] + "OCT26 Gms K  B-day Flag"


def combined_line(pid, name, fed, sex, tit, wtit, std, rap, bli, bday, flag, otit=""):
    """std/rap/bli: (rating, games, k) with k None for a blank K column."""

    def block(r, g, k):
        return f"{r:>5} {g:>3} {'' if k is None else k:>2}".ljust(13)

    text = (
        f"{pid:<15}{name:<61}{fed:<4}{sex:<4}{tit:<5}{wtit:<5}{otit:<15}{'':<4}"
        f"{block(*std)}{block(*rap)}{block(*bli)}{bday:>5} {flag:<4}"
    )
    assert len(text) == 162 or len(name) > 61, len(text)
    return text


def single_line(pid, name, fed, sex, tit, rating, games, k, bday, flag):
    return (
        f"{pid:<15}{name:<61}{fed:<4}{sex:<4}{tit:<5}{'':<5}{'':<15}{'':<4}"
        f"{rating:>5} {games:>3} {'' if k is None else k:>2} {bday:>5} {flag:<4}"
    )


PLAYERS = [
    # id, name, fed, sex, tit, wtit, standard, rapid, blitz, birth year, flag
    (
        1503014,
        "Carlsen, Magnus",
        "NOR",
        "M",
        "GM",
        "",
        (2830, 9, 10),
        (2810, 0, 20),
        (2880, 0, 20),
        1990,
        "",
    ),
    (
        4100026,
        "Novak, Petra",
        "CZE",
        "F",
        "",
        "WFM",
        (2205, 4, 20),
        (2150, 0, 20),
        (0, 0, None),
        1996,
        "w",
    ),
    (4100093, "Schmidt, Hanna", "GER", "F", "", "", (0, 0, 0), (0, 0, 0), (0, 0, 0), 0, "wi"),
    (
        4100069,
        "Okafor, Chidi",
        "NGR",
        "M",
        "IM",
        "",
        (2194, 0, None),
        (1999, 0, 20),
        (2401, 2, 20),
        1985,
        "i",
    ),
]


def write_combined(path, lines=None, newline="\r\n", encoding="utf-8"):
    body = lines if lines is not None else [combined_line(*p) for p in PLAYERS]
    path.write_bytes((newline.join([COMBINED_HEADER, *body]) + newline).encode(encoding))
    return path


def xml_player(tags_values):
    return "<player>" + "".join(f"<{t}>{v}</{t}>" for t, v in tags_values) + "</player>"


def write_combined_xml(path):
    parts = ["<playerslist>"]
    for pid, name, fed, sex, tit, wtit, std, rap, bli, bday, flag in PLAYERS:

        def k(x):
            return "" if x is None else x

        parts.append(
            xml_player(
                [
                    ("fideid", pid),
                    ("name", name),
                    ("country", fed),
                    ("sex", sex),
                    ("title", tit),
                    ("w_title", wtit),
                    ("o_title", ""),
                    ("foa_title", ""),
                    ("rating", std[0]),
                    ("games", std[1]),
                    ("k", k(std[2])),
                    ("rapid_rating", rap[0]),
                    ("rapid_games", rap[1]),
                    ("rapid_k", k(rap[2])),
                    ("blitz_rating", bli[0]),
                    ("blitz_games", bli[1]),
                    ("blitz_k", k(bli[2])),
                    ("birthday", bday),
                    ("flag", flag),
                ]
            )
        )
    parts.append("</playerslist>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def by_id(players):
    return players.players.set_index("id")


@pytest.mark.parametrize("rules, column", [("standard", 6), ("rapid", 7), ("blitz", 8)])
@pytest.mark.parametrize("layout", ["txt", "xml"])
def test_rule_set_chooses_the_rating_column(tmp_path, rules, column, layout):
    path = (
        write_combined(tmp_path / "players_list_foa.txt")
        if layout == "txt"
        else write_combined_xml(tmp_path / "players_list_xml_foa.xml")
    )
    frame = by_id(read_players(path, rules=rules))
    for player in PLAYERS:
        rating, games, k = player[column]
        row = frame.loc[str(player[0])]
        standard = player[6][0]
        if rating == 0 and standard and rules != "standard":
            # Rapid & Blitz 7.2.1: no rapid (blitz) rating, a standard one: rated with it.
            assert row["rating"] == standard and row["k"] is pd.NA
        elif rating == 0:
            assert row["rating"] is pd.NA
            assert row["k"] is pd.NA  # K 0 / blank: no published K
        else:
            assert row["rating"] == rating
            assert (row["k"] is pd.NA) if k is None else row["k"] == k
        assert row["period_games"] == games
        # games IN THE PERIOD are not games completed: the K rule's count stays unknown
        assert row["games"] is pd.NA


def test_fields_of_the_combined_txt(tmp_path):
    frame = by_id(read_players(write_combined(tmp_path / "list.txt")))
    assert list(frame.index) == ["1503014", "4100026", "4100093", "4100069"]
    carlsen = frame.loc["1503014"]
    assert (carlsen["name"], carlsen["federation"], carlsen["sex"], carlsen["title"]) == (
        "Carlsen, Magnus",
        "NOR",
        "M",
        "GM",
    )
    assert carlsen["birth_year"] == 1990
    assert frame.loc["4100026", "title"] == "WFM"  # the women's title when there is no open one
    assert frame.loc["4100093", "birth_year"] is pd.NA  # 0 = unknown
    assert list(frame["flag"]) == ["", "w", "wi", "i"]
    assert list(frame["line"]) == [2, 3, 4, 5]


def test_ever_2400_from_rating_not_title(tmp_path):
    path = write_combined(tmp_path / "list.txt")
    standard = by_id(read_players(path, rules="standard"))
    # Okafor is rated 2194 and holds the IM title, which proves no published 2400 (B.01 1.5.3a:
    # the title's 2400 need not have been published); his list prints no K 10 either.
    assert standard["ever_2400"].to_dict() == {
        "1503014": True,
        "4100026": False,
        "4100093": False,
        "4100069": False,
    }
    blitz = by_id(read_players(path, rules="blitz"))
    assert blitz.loc["4100069", "ever_2400"]  # blitz rating 2401
    assert not by_id(read_players(path, rules="rapid")).loc["4100069", "ever_2400"]


def test_single_type_txt_rating_headed_by_month(tmp_path):
    path = tmp_path / "standard_rating_list.txt"
    lines = [
        SINGLE_HEADER,
        single_line(1503014, "Carlsen, Magnus", "NOR", "M", "GM", 2830, 9, 10, 1990, ""),
        single_line(4100093, "Schmidt, Hanna", "GER", "F", "", 0, 0, 0, 2009, "wi"),
    ]
    assert all(len(line) == 136 for line in lines)
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    frame = by_id(read_players(path, rules="standard"))
    assert frame.loc["1503014", "rating"] == 2830
    assert frame.loc["1503014", "k"] == 10
    assert frame.loc["4100093", "birth_year"] == 2009
    with pytest.raises(InputError) as info:
        read_players(path, rules="rapid")  # the file name says it is the standard list
    assert [p.code for p in info.value.problems] == ["missing-column"]


def test_single_type_xml(tmp_path):
    path = tmp_path / "rapid_rating_list_xml.xml"
    tags = [
        "fideid",
        "name",
        "country",
        "sex",
        "title",
        "w_title",
        "o_title",
        "foa_title",
        "rating",
        "games",
        "k",
        "birthday",
        "flag",
    ]
    values = [1503014, "Carlsen, Magnus", "NOR", "M", "GM", "", "", "", 2810, 3, 20, 1990, ""]
    player = xml_player(zip(tags, values, strict=True))
    path.write_text(f"<playerslist>\n{player}\n</playerslist>\n")
    frame = by_id(read_players(path, rules="rapid"))
    assert frame.loc["1503014", "rating"] == 2810
    assert frame.loc["1503014", "period_games"] == 3


def test_zipped_list_and_detection_by_content(tmp_path):
    txt = write_combined(tmp_path / "players_list_foa.txt")
    archive = tmp_path / "players_list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(txt, "players_list_foa.txt")
    assert (
        by_id(read_players(archive))["rating"].to_dict()
        == by_id(read_players(txt))["rating"].to_dict()
    )
    renamed = tmp_path / "download.dat"  # no telling extension: the header decides
    renamed.write_bytes(txt.read_bytes())
    assert len(read_players(renamed).players) == 4


def test_blank_trailing_lines_cr_only_and_cp1252(tmp_path):
    lines = [
        combined_line(
            4100040,
            "Müller, Jürgen",
            "GER",
            "M",
            "",
            "",
            (1800, 0, 20),
            (0, 0, 0),
            (0, 0, 0),
            1970,
            "",
        )
    ]
    cp = write_combined(tmp_path / "cp.txt", lines, newline="\r", encoding="cp1252")
    cp.write_bytes(cp.read_bytes() + b"\r\r")
    frame = by_id(read_players(cp))
    assert frame.loc["4100040", "name"] == "Müller, Jürgen"
    assert frame.loc["4100040", "rating"] == 1800


def test_non_ascii_names_are_cut_by_characters(tmp_path):
    lines = [
        combined_line(
            4100050,
            "Łukasiewicz, Żaneta",
            "POL",
            "F",
            "",
            "WIM",
            (2105, 1, 20),
            (0, 0, 0),
            (0, 0, 0),
            1999,
            "w",
        ),
        combined_line(
            4100051,
            "Plain, Ascii",
            "POL",
            "M",
            "",
            "",
            (1500, 1, 40),
            (0, 0, 0),
            (0, 0, 0),
            2001,
            "",
        ),
    ]
    frame = by_id(read_players(write_combined(tmp_path / "utf8.txt", lines)))
    assert frame.loc["4100050", "name"] == "Łukasiewicz, Żaneta"
    assert frame.loc["4100050", "rating"] == 2105
    assert frame.loc["4100050", "federation"] == "POL"
    assert frame.loc["4100051", "rating"] == 1500


def test_separator_bytes_at_a_cell_edge_are_trimmed_as_white_space(tmp_path):
    """Bytes 0x1C-0x1F count as white space around a cell (the UTF-8 trim), also on ASCII lines
    that are cut by bytes; a file without them takes the faster ASCII trim."""
    lines = [combined_line(*PLAYERS[0]), combined_line(*PLAYERS[1])]
    lines[1] = lines[1].replace("Novak, Petra  ", "\x1fNovak, Petra\x1c", 1)
    frame = by_id(read_players(write_combined(tmp_path / "sep.txt", lines)))
    assert frame.loc["4100026", "name"] == "Novak, Petra"
    assert frame.loc["1503014", "name"] == "Carlsen, Magnus"


def test_a_line_that_overflows_by_one_character(tmp_path):
    long_name = "Abcdefghij-Klmnopqrst, Uvwxyz Abcdefghij Klmnopqrstuvwxyz Abcd"  # 62 characters
    assert len(long_name) == 62
    overflow = combined_line(
        4100060, long_name, "ESP", "M", "FM", "", (2301, 2, 20), (0, 0, 0), (0, 0, 0), 1980, "i"
    )
    assert len(overflow) == 163
    lines = [combined_line(*PLAYERS[0]), overflow, combined_line(*PLAYERS[1])]
    frame = by_id(read_players(write_combined(tmp_path / "over.txt", lines)))
    row = frame.loc["4100060"]
    assert (row["name"], row["federation"], row["title"], row["rating"], row["k"]) == (
        long_name,
        "ESP",
        "FM",
        2301,
        20,
    )
    assert (row["birth_year"], row["flag"]) == (1980, "i")
    assert frame.loc["4100026", "rating"] == 2205  # the lines after it are unaffected


def test_bad_lines_are_reported_with_their_line_numbers(tmp_path):
    good = combined_line(*PLAYERS[0])
    bad_rating = good.replace("4100018", "4100019")[:113] + "  abc" + good[118:]
    too_high = combined_line(
        4100020, "High, Too", "GER", "M", "", "", (3600, 1, 20), (0, 0, 0), (0, 0, 0), 1990, ""
    )
    bad_id = combined_line(
        "41000X1",
        "Letters, In Id",
        "GER",
        "M",
        "",
        "",
        (1500, 1, 20),
        (0, 0, 0),
        (0, 0, 0),
        1990,
        "",
    )
    duplicate = combined_line(*PLAYERS[0])
    path = write_combined(tmp_path / "bad.txt", [good, bad_rating, too_high, bad_id, duplicate])
    with pytest.raises(InputError) as info:
        read_players(path)
    found = {(p.code, p.row) for p in info.value.problems}
    assert ("bad-rating", 3) in found
    assert ("bad-rating", 4) in found
    assert ("bad-id", 5) in found
    assert ("duplicate-player", 6) in found


def test_damaged_xml_is_not_a_table_with_its_line(tmp_path):
    path = write_combined_xml(tmp_path / "list.xml")
    text = path.read_text().splitlines()
    text[2] = text[2].replace("</name>", "</nam>")
    path.write_text("\n".join(text))
    with pytest.raises(InputError) as info:
        read_players(path)
    (problem,) = info.value.problems
    assert problem.code == "not-a-table"
    assert problem.row == 3


def test_xml_with_a_bad_rating_names_the_player_line(tmp_path):
    path = write_combined_xml(tmp_path / "list.xml")
    text = path.read_text().replace("<rating>2205</rating>", "<rating>-5</rating>")
    path.write_text(text)
    with pytest.raises(InputError) as info:
        read_players(path)
    assert [(p.code, p.row, p.value) for p in info.value.problems] == [("bad-rating", 3, "-5")]


def test_rating_with_a_fide_list_equals_rating_with_the_players_csv(sample, tmp_path):
    """sample_data's FIDE lists carry the players.csv ratings and, as K, what RULES.md section 4
    gives each player: rating the sample with either must give the same new ratings."""
    outputs = {}
    for name in ("players.csv", "players_list_foa.txt", "players_list_xml_foa.xml"):
        out = tmp_path / name
        result = run_cli(
            "rate",
            str(sample / "games.csv"),
            "--players",
            str(sample / name),
            "--period",
            "2026-11",
            "--out",
            str(out),
            "-q",
            "--no-html",
            "--no-xlsx",
        )
        assert result.exit_code == 0, result.output
        with (out / "rating_list.csv").open(encoding="utf-8") as fh:
            outputs[name] = [
                {k: r[k] for k in ("id", "rating", "k", "games", "change_exact", "new_rating")}
                for r in csv.DictReader(fh)
            ]
    assert outputs["players_list_foa.txt"] == outputs["players.csv"]
    assert outputs["players_list_xml_foa.xml"] == outputs["players.csv"]


def test_rapid_rules_rate_from_the_rapid_column(sample, tmp_path):
    out = tmp_path / "out"
    result = run_cli(
        "rate",
        str(sample / "games.csv"),
        "--players",
        str(sample / "players_list_foa.txt"),
        "--rules",
        "rapid",
        "--period",
        "2026-11",
        "--out",
        str(out),
        "-q",
        "--no-html",
        "--no-xlsx",
    )
    assert result.exit_code == 0, result.output
    with (out / "rating_list.csv").open(encoding="utf-8") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    assert rows["4100018"]["rating"] == "2655"  # RRtng of Kowalski in the sample list
    # No rapid rating but a standard one (1650): rated with it (Rapid & Blitz 7.2.1).
    assert rows["4100050"]["rating"] == "1650"


def test_zipped_single_type_xml_names_its_type_inside_the_zip(tmp_path):
    tags = [
        "fideid",
        "name",
        "country",
        "sex",
        "title",
        "w_title",
        "o_title",
        "foa_title",
        "rating",
        "games",
        "k",
        "birthday",
        "flag",
    ]
    values = [1503014, "Carlsen, Magnus", "NOR", "M", "GM", "", "", "", 2880, 0, 20, 1990, ""]
    player = xml_player(zip(tags, values, strict=True))
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("blitz_rating_list_xml.xml", f"<playerslist>\n{player}\n</playerslist>\n")
    assert by_id(read_players(archive, rules="blitz")).loc["1503014", "rating"] == 2880
    with pytest.raises(InputError) as info:
        read_players(archive, rules="standard")
    assert [p.code for p in info.value.problems] == ["missing-column"]


def test_undecodable_list_is_bad_encoding_with_its_line(tmp_path):
    path = write_combined(tmp_path / "list.txt")
    lines = path.read_bytes().split(b"\r\n")
    lines[2] = lines[2][:20] + b"\x81\x8d" + lines[2][22:]  # not UTF-8, not Windows-1252
    path.write_bytes(b"\r\n".join(lines))
    with pytest.raises(InputError) as info:
        read_players(path)
    assert [(p.code, p.row) for p in info.value.problems] == [("bad-encoding", 3)]


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        # Digits only (the fast path): short ones collide, with and without leading zeros.
        st.lists(st.text(alphabet="01", min_size=1, max_size=3), max_size=30),
        st.lists(st.text(alphabet="9", min_size=16, max_size=19), max_size=6),
        # Anything else goes through the hash.
        st.lists(st.sampled_from(["", "7", "07", "x7", " 7", "٣"]), max_size=12),
    )
)
def test_duplicate_ids_found_as_pandas_finds_them(ids):
    """Digit ids are compared by value and length (leading zeros kept apart, 18+ digits and
    any other text through the hash): the same rows as ``duplicated``."""
    from pipeline.readers.lists.players_file import _duplicated_ids

    values = pd.Series(ids, dtype=str)
    assert _duplicated_ids(values).tolist() == values.duplicated().tolist()
