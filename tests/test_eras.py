"""Issue 11: the event's own dates decide the period and the rules; every era's rules.

Worked cases, one per era at least, with the arithmetic in the comments: PD from table 8.1.2,
change = K x sum(S - PD), rounded once, .5 away from zero.
"""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import RateOptions, rate_files
from pipeline.engine.four_hundred_point_rule import uncapped_sides
from pipeline.engine.sides import with_side_texts
from pipeline.grouper.kfactor import apply_700_rule
from pipeline.model import EventInfo, GamesInput
from pipeline.planning.event_period import choose_period
from pipeline.rules.select import select_rules
from pipeline.rules.sets import get_rules
from tests.conftest import SAMPLE, run_cli
from tests.helpers import write_csv

PLAYER_HEADER = ["id", "name", "rating", "birth_year", "games"]
GAME_HEADER = ["event", "round", "date", "white", "black", "result"]


def _rate(tmp_path, players, games, **options):
    p = write_csv(tmp_path / "players.csv", PLAYER_HEADER, players)
    g = write_csv(tmp_path / "games.csv", GAME_HEADER, games)
    # The sides with their text columns, as the output stage builds them for the reports.
    result = with_side_texts(rate_files([g], p, RateOptions(**options)))
    return result, result.totals.set_index("id")


# --- the period from the event's dates -------------------------------------------------------


def _games_input(source, dates, info=None):
    games = pd.DataFrame({"date": pd.array(dates, dtype="string")})
    return GamesInput(source, games, info=info)


@pytest.mark.parametrize(
    "inputs, given, period, reason",
    [
        # TRF 052 decides over the games' dates and the start date.
        (
            [
                _games_input(
                    "a.trf", ["2005-07-28"], EventInfo(start="2005-07-28", end="2005-08-01")
                )
            ],
            None,
            "2005-08",
            "a.trf ends 2005-08-01 (052 end date)",
        ),
        # No 052: the last game date.
        (
            [_games_input("g.csv", ["2026-10-30", "2026-11-02", None])],
            None,
            "2026-11",
            "g.csv ends 2026-11-02 (last game date)",
        ),  # fmt: skip
        # No 052, no game date: 042.
        (
            [_games_input("b.trf", [None], EventInfo(start="2010-09-24"))],
            None,
            "2010-09",
            "b.trf ends 2010-09-24 (042 start date)",
        ),  # fmt: skip
        # Several events: the latest end (with a warning for the other, see below).
        (
            [_games_input("x.csv", ["2026-10-03"]), _games_input("y.csv", ["2026-11-09"])],
            None,
            "2026-11",
            "y.csv ends 2026-11-09 (last game date)",
        ),  # fmt: skip
        # Nothing dated: the current month, and the reason says so.
        (
            [_games_input("n.csv", [None])],
            None,
            "2026-12",
            "no date in the inputs: the current month (give --period to choose)",
        ),  # fmt: skip
        (
            [_games_input("a.trf", [], EventInfo(end="2005-07-31"))],
            "2005-07",
            "2005-07",
            "given with --period",
        ),  # fmt: skip
    ],
)
def test_period_from_the_event(inputs, given, period, reason):
    chosen = choose_period(inputs, given, today=dt.date(2026, 12, 3))
    assert (chosen.period, chosen.reason) == (period, reason)


def test_games_outside_a_given_period_are_warned_about():
    inputs = [
        _games_input("k.trf", ["2005-07-28", "2005-07-31"], EventInfo(end="2005-07-31")),
        _games_input("in.csv", ["2010-10-01"]),
    ]
    chosen = choose_period(inputs, "2010-10")
    assert chosen.warnings == [
        "k.trf: rated in period 2010-10 but the event ends 2005-07-31 (052 end date) and "
        "2 of 2 dated games fall outside it (2005-07-28 .. 2005-07-31)"
    ]
    # Without --period, an earlier event rated with a later one is warned about too.
    mixed = choose_period([_games_input("x.csv", ["2010-09-03"]), inputs[1]], None)
    assert mixed.period == "2010-10"
    assert mixed.warnings == [
        "x.csv: rated in period 2010-10 but the event ends 2010-09-03 (last game date) and "
        "1 of 1 dated games fall outside it (2010-09-03 .. 2010-09-03)"
    ]


def test_sample_trf_rated_in_its_own_month(tmp_path):
    out = tmp_path / "out"
    done = run_cli("rate", str(SAMPLE / "event.trf"), "--out", str(out), "--no-xlsx", "--json")
    assert done.exit_code == 0, done.stderr
    assert '"period": "2026-11"' in done.stdout and '"rules": "standard-2025"' in done.stdout
    # No period or era warning; only the K a TRF alone cannot decide (issue 35).
    assert [line.split(" for ")[0] for line in done.stderr.splitlines()] == [
        "warning: K assumed (marked *)"
    ]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "period 2026-11: " in html and "event.trf ends 2026-11-21 (052 end date)" in html


@pytest.mark.parametrize(
    "name, period, rules, warned",
    [
        # Before the earliest rules known here (the 350-point rule, from 2006-04): said so.
        ("karl-mala-2005.trf", "2005-07", "standard-2006", ["before the earliest FIDE rules"]),
        ("open-gros-2010-r4.trf", "2010-10", "standard-2009", []),
    ],
)
def test_real_trf_rated_in_its_own_month(shared_trf, tmp_path, name, period, rules, warned):
    result = rate_files([shared_trf / name], None, RateOptions())
    assert (result.period, result.rule_set) == (period, rules)
    warnings = era_warnings(result.warnings)
    assert [w for w in warnings if "unsure" not in w] == [
        w for w in warnings for text in warned if text in w
    ]
    assert len(warnings) == len(warned) + bool(get_rules(rules).uncertain)


def era_warnings(warnings: list[str]) -> list[str]:
    """A run's warnings but the one on K assumed (a TRF alone gives no games count or 2400
    history: tests/jobs/test_k_assumed_faces.py)."""
    return [w for w in warnings if not w.startswith("K assumed")]


def test_undated_real_trf_says_why(shared_trf):
    # generated-60p-cr-only.trf has no 042/052/132: the current month, and the reason says so.
    result = rate_files([shared_trf / "generated-60p-cr-only.trf"], None, RateOptions())
    assert result.period_reason.startswith("no date in the inputs")


def test_given_period_outside_the_event_warns_on_stderr(tmp_path):
    out = tmp_path / "out"
    args = ["rate", str(SAMPLE / "event.trf"), "--out", str(out), "--no-xlsx", "--quiet"]
    done = run_cli(*args, "--period", "2026-12")
    assert done.exit_code == 0 and done.stdout == ""
    assert done.stderr.startswith("warning: ") and "2026-11-21 (052 end date)" in done.stderr


def test_junior_status_uses_the_events_year(tmp_path):
    # Born 1988, rated 1900, 50 games: in 2005 (age 17) a junior, but standard-2006 has no
    # junior K (K 15 below 2400); in 2006-era rules only; in 2014-era rules (2015: age 27) no
    # junior either. Born 2000: in 2015 aged 15 -> K 40; in 2026 aged 26 -> K 20.
    players = [["j", "J", 1900, 2000, 50], ["o", "O", 1900, 1970, 50]]
    games = [["E", "1", "2015-05-02", "j", "o", "1-0"]]
    _, totals = _rate(tmp_path, players, games)
    assert totals.loc["j", "k"] == 40  # period 2015-05 from the game date
    _, later = _rate(tmp_path, players, games, period="2026-05")
    assert later.loc["j", "k"] == 20


# --- rule sets by effective date ---------------------------------------------------------------


@pytest.mark.parametrize(
    "family, period, era",
    [
        ("standard", "2026-11", "standard-2025"),
        ("standard", "2025-10", "standard-2025"),
        ("standard", "2025-09", "standard-2024"),
        ("standard", "2024-03", "standard-2024"),
        ("standard", "2024-02", "standard-2022"),
        ("standard", "2022-01", "standard-2022"),
        ("standard", "2021-12", "standard-2014"),
        ("standard", "2014-07", "standard-2014"),
        ("standard", "2014-06", "standard-2012"),
        ("standard", "2012-07", "standard-2012"),
        ("standard", "2012-06", "standard-2011"),
        ("standard", "2011-06", "standard-2009"),
        ("standard", "2009-07", "standard-2009"),
        ("standard", "2009-06", "standard-2008"),
        ("standard", "2008-07", "standard-2008"),
        # Issue 34 #9: the games of April-June 2008 were rated for the list of July 2008, which
        # FIDE rated game by game (the era goes by the list, not by the game's month).
        ("standard", "2008-06", "standard-2008"),
        ("standard", "2008-04", "standard-2008"),
        ("standard", "2008-03", "standard-2006"),
        ("standard", "1999-01", "standard-2006"),
        ("rapid", "2024-12", "rapid-2024"),
        ("rapid", "2024-11", "rapid-2022"),
        ("rapid", "2022-10", "rapid-2022"),
        ("blitz", "2022-09", "blitz-2012"),
        ("blitz", "2005-01", "blitz-2012"),  # no FIDE blitz rating yet: the earliest, said so
        ("standard-2024", "2026-11", "standard-2024"),  # an era's name is used as given
    ],
)
def test_rules_chosen_by_date(family, period, era):
    assert select_rules(family, period).rules.name == era


# One game per era, rated in the era's period (players: id, rating, birth year, games).
# 2025-10 on: 2700 beats 2200. The 2700 side is exempt (2650+): D 500 -> PD 0.96, +0.04 x 10 =
# 0.4 -> 0; the 2200 side is capped: PD 0.08, -0.08 x 20 = -1.6 -> -2.
# 2024-03 .. 2025-09: both capped: 2700 PD 0.92, +0.08 x 10 = +0.8 -> +1; 2200 -1.6 -> -2.
# before 2009-07 (350 rule): 2000 beats 1550, D 450 -> 350 -> PD 0.89 (band 345-357):
# +0.11 x 15 = 1.65 -> +2 (K 15: below 2400, 30+ games); 1550: 0.11 - 0 -> -0.11 x 15 = -1.65 -> -2.
# 2009-07 .. 2011-06 (400 rule): same game, D 450 -> 400 -> PD 0.92: +0.08 x 15 = 1.2 -> +1.
# 2009 era, new player (10 games) K 25 beats an equal: +0.5 x 25 = 12.5 -> +13.
# 2011-07 .. 2014-06, new player K 30: +0.5 x 30 = +15. Established: K 15, +7.5 -> +8.
# 2014-07 .. 2021-12: established K 20: +0.5 x 20 = +10; a 16-year-old below 2300 K 40: +20.
ERA_CASES = [
    ("2026-11", [["a", "A", 2700, 1980, 99], ["b", "B", 2200, 1980, 99]], "a", "b", 0, -2),
    ("2025-06", [["a", "A", 2700, 1980, 99], ["b", "B", 2200, 1980, 99]], "a", "b", 1, -2),
    ("2005-07", [["a", "A", 2000, 1960, 99], ["b", "B", 1550, 1960, 99]], "a", "b", 2, -2),
    ("2010-10", [["a", "A", 2000, 1960, 99], ["b", "B", 1550, 1960, 99]], "a", "b", 1, -1),
    ("2010-10", [["a", "A", 1800, 1960, 10], ["b", "B", 1800, 1960, 99]], "a", "b", 13, -8),
    ("2013-05", [["a", "A", 1800, 1960, 10], ["b", "B", 1800, 1960, 99]], "a", "b", 15, -8),
    ("2018-05", [["a", "A", 1800, 2002, 99], ["b", "B", 1800, 1960, 99]], "a", "b", 20, -10),
]


@pytest.mark.parametrize("period, players, winner, loser, gain, loss", ERA_CASES)
def test_one_game_per_era(tmp_path, period, players, winner, loser, gain, loss):
    games = [["E", "1", f"{period}-10", winner, loser, "1-0"]]
    _, totals = _rate(tmp_path, players, games)
    assert (totals.loc[winner, "change"], totals.loc[loser, "change"]) == (gain, loss)


def test_cap_once_per_event_2022(tmp_path):
    # The published case of the 2022 rule: a 2000 player (K 20) beats 1063, 1299 and 1413 in one
    # event. Only the largest gap (937, vs 1063) is capped: PD 0.92, dev +0.08. The others use
    # the real gap: D 701 -> PD 0.99 (+0.01); D 587 -> PD 0.98 (+0.02). Sum 0.11 x 20 = 2.2 -> +2.
    # Under the 2024 rules every game is capped: 3 x 0.08 x 20 = 4.8 -> +5.
    # The lower-rated sides stay capped: 1063 loses at PD 0.08: -0.08 x 40 (new player) = -3.2.
    players = [
        ["p", "P", 2000, 1970, 99],
        ["x", "X", 1063, 1970, 10],
        ["y", "Y", 1299, 1970, 99],
        ["z", "Z", 1413, 1970, 99],
    ]
    games = [
        ["E", "1", "2023-05-01", "p", "x", "1-0"],
        ["E", "2", "2023-05-02", "y", "p", "0-1"],
        ["E", "3", "2023-05-03", "p", "z", "1-0"],
    ]
    result, totals = _rate(tmp_path, players, games)
    assert result.rule_set == "standard-2022"
    assert totals.loc["p", "change"] == 2 and totals.loc["x", "change"] == -3
    p_sides = result.sides[result.sides["player"] == "p"]
    assert p_sides["diff"].tolist() == [400, 701, 587]
    _, later = _rate(tmp_path, players, games, rules="standard-2024")
    assert later.loc["p", "change"] == 5
    # A second event: the cap is used once in each event (one more +0.08 x 20 = 1.6).
    two = [*games, ["F", "1", "2023-05-20", "p", "x", "1-0"]]
    _, totals2 = _rate(tmp_path, players, two)
    # dev 0.11 + 0.08 = 0.19; x 20 = 3.8 -> +4 (change_units in 1/100: 20 x 19 = 380).
    assert (totals2.loc["p", "change_units"], totals2.loc["p", "change"]) == (380, 4)


def test_uncapped_sides_ties_keep_the_first():
    player = pd.Series(["p", "p", "p", "q"])
    event = pd.Series(["E", "E", "E", "E"])
    lifted = uncapped_sides(player, event, [500, 500, 300, 900], [True] * 4, 400)
    assert lifted.tolist() == [False, True, False, False]


def test_no_700_rule_before_2014():
    # K 30 x 30 games = 900 > 700 from 2014 on -> floor(700 / 30) = 23; before: none.
    assert apply_700_rule([30], [30], 700).tolist() == [23]
    assert apply_700_rule([30], [30], None).tolist() == [30]


@pytest.mark.parametrize(
    "period, k, rated",
    [
        # rapid until 2022-09: K 20 for everybody, even a 16-year-old new player.
        ("2019-05", 20, True),
        # rapid 2022-10 .. 2024-11: K as in standard (junior 40); the 600/2600 rule not yet.
        ("2023-05", 40, True),
        # rapid from 2024-12: |D| = 650 with a player above 2600: not rated.
        ("2025-01", None, False),
    ],
)
def test_rapid_eras(tmp_path, period, k, rated):
    players = [["j", "J", 2000, int(period[:4]) - 16, 5], ["g", "G", 2650, 1980, 99]]
    games = [["E", "1", f"{period}-10", "j", "g", "0-1"]]
    result, totals = _rate(tmp_path, players, games, rules="rapid")
    assert bool(result.sides["rated"].iat[0]) is rated
    if rated:
        assert totals.loc["j", "k"] == k


# --- K 10 is for good --------------------------------------------------------------------------


def test_published_k10_below_2400_is_kept(tmp_path):
    from pipeline.readers import read_players
    from tests.readers.test_readers_lists import SINGLE_HEADER, single_line

    lines = [
        SINGLE_HEADER,
        # K 10 at 2194: the published rating once reached 2400.
        single_line(4100069, "Okafor, Chidi", "NGR", "M", "", 2194, 0, 10, 1985, ""),
        # An IM at 2194 with K 20: the title alone proves no published 2400 (B.01 1.5.3a).
        single_line(4100070, "Obi, Ada", "NGR", "M", "IM", 2194, 0, 20, 1985, ""),
    ]
    path = tmp_path / "standard_rating_list.txt"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    players = read_players(path, rules="standard").players.set_index("id")
    assert players["ever_2400"].to_dict() == {"4100069": True, "4100070": False}


def test_next_list_keeps_k10_and_ever_2400():
    from pipeline.lists.first_rating import FirstRatings
    from pipeline.lists.next_list import next_list
    from pipeline.rules.sets import get_rules

    # Published K 10 at 2194 (no ever_2400 column value): the next list keeps K 10 and marks
    # ever_2400; a K 20 player at the same rating stays K 20 (born 1985: no junior in 2026).
    base = pd.DataFrame(
        {
            "id": ["a", "b"],
            "name": ["A", "B"],
            "rating": pd.array([2194, 2194], dtype="Int64"),
            "k": pd.array([10, 20], dtype="Int64"),
            "birth_year": pd.array([1985, 1985], dtype="Int64"),
            "games": pd.array([200, 200], dtype="Int64"),
            "ever_2400": [False, False],
            "federation": "",
            "sex": "",
            "title": "",
            "flags": "",
            "last_played": "",
        }
    )
    totals = pd.DataFrame(
        {"id": ["a", "b"], "games": [0, 0], "new_rating": pd.array([2194, 2194], dtype="Int64")}
    )
    empty = FirstRatings(
        pd.DataFrame(
            {
                "player_id": pd.Series([], dtype=str),
                "games": pd.Series([], dtype="int64"),
                "disregarded": pd.Series([], dtype=bool),
            }
        ),
        pd.DataFrame(
            {
                "published": pd.Series([], dtype=bool),
                "rating": pd.Series([], dtype="Int64"),
                "games": pd.Series([], dtype="Int64"),
            },
            index=pd.Index([], dtype=str),
        ),
    )
    rows, _ = next_list(base, totals, empty, "2026-11", get_rules("standard"), pd.Index([]))
    rows = rows.set_index("id")
    assert rows["k"].tolist() == [10, 20] and rows["ever_2400"].tolist() == [True, False]


# --- a period's result does not depend on the order of its events -----------------------------


@st.composite
def _events(draw):
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=4, max_size=6))
    ids = [f"p{i}" for i in range(len(ratings))]
    events = []
    for _ in range(draw(st.integers(2, 4))):
        pairs = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(ids),
                    st.sampled_from(ids),
                    st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
                ).filter(lambda t: t[0] != t[1]),
                min_size=1,
                max_size=6,
            )
        )
        events.append(pairs)
    return ids, ratings, events


@settings(max_examples=20, deadline=None)
@given(
    _events(), st.sampled_from(["standard-2022", "standard-2025", "standard-2006"]), st.randoms()
)
def test_period_result_does_not_depend_on_event_order(data, rules, rnd):
    # The 2022 rule (cap once per event) is the one where order could matter: it is per event.
    ids, ratings, events = data
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        players = write_csv(
            folder / "players.csv",
            PLAYER_HEADER,
            [[i, i, r, 1990, 40] for i, r in zip(ids, ratings, strict=True)],
        )
        paths = [
            write_csv(
                folder / f"e{n}.csv",
                GAME_HEADER,
                # A day of its own per event: the same games on the same day in two files are
                # one event given twice (duplicate-event), not two events.
                [
                    [f"E{n}", r + 1, f"2023-05-{n + 1:02d}", w, b, res]
                    for r, (w, b, res) in enumerate(pairs)
                ],
            )
            for n, pairs in enumerate(events)
        ]
        shuffled = paths[:]
        rnd.shuffle(shuffled)

        def totals(order):
            result = rate_files(order, players, RateOptions(rules=rules))
            assert result.period == "2023-05"
            frame = result.totals.set_index("id").sort_index()
            return frame[["k", "games", "change_units", "new_rating"]]

        pd.testing.assert_frame_equal(totals(paths), totals(shuffled))


# --- Rapid & Blitz 7.2.1: the standard rating when there is no rapid (blitz) one ------------------


@pytest.mark.parametrize(
    "name", ["players_list_foa.txt", "players_list_xml_foa.xml"], ids=["txt", "xml"]
)
def test_rapid_blitz_fall_back_to_the_standard_rating(name):
    from pipeline.readers import read_players

    rapid = read_players(SAMPLE / name, rules="rapid").players.set_index("id")["rating"]
    blitz = read_players(SAMPLE / name, rules="blitz").players.set_index("id")["rating"]
    # Silva: standard 1650, rapid 0, blitz 0 -> 1650 in both. Novak: blitz 0 -> standard 2205;
    # her rapid 2150 is her own. Schmidt: no rating at all -> unrated everywhere.
    assert (rapid["4100050"], blitz["4100050"]) == (1650, 1650)
    assert (rapid["4100026"], blitz["4100026"]) == (2150, 2205)
    assert rapid.isna()["4100093"] and blitz.isna()["4100093"]


def test_standard_fallback_player_counts_as_rated(tmp_path):
    # Silva (rapid 0, standard 1650) loses to Berg (rapid 1950) in a rapid game, 2026-11:
    # rated for both. Berg: D 1950 - 1650 = 300 -> PD 0.85 (band 291-302), +0.15 x 20 (K 20
    # printed) = 3.0 -> +3. Silva: PD 0.15, -0.15 x K; his rapid K is 0 (none printed), blank
    # games -> established, so K 20: -3.0 -> -3.
    games = write_csv(
        tmp_path / "games.csv", GAME_HEADER, [["R", "1", "2026-11-05", "4100034", "4100050", "1-0"]]
    )
    result = rate_files([games], SAMPLE / "players_list_foa.txt", RateOptions(rules="rapid"))
    totals = result.totals.set_index("id")
    assert bool(result.sides["rated"].all())
    assert (totals.loc["4100034", "change"], totals.loc["4100050", "change"]) == (3, -3)


def test_period_rapid_uses_the_rapid_column_and_falls_back_to_standard(tmp_path):
    # `fiderate period --rules rapid` on FIDE's combined TXT list: Berg (rapid 1950, standard
    # 1987) and Novak (rapid 2150, standard 2205) are rated with their rapid ratings; Silva (rapid
    # 0, standard 1650) with his standard rating, and counts as rated (7.2.1).
    # Berg beats Silva: D 300 -> PD 0.85, +0.15 x K 20 = +3.00 -> 1953.
    # Novak beats Silva: D 500, counted as 400 -> PD 0.92, +0.08 x 20 = +1.60 -> +2 -> 2152.
    # Silva: (-0.15 - 0.08) x 20 = -4.60 -> -5 -> 1645 (the standard rating he was rated with).
    events = tmp_path / "events"
    events.mkdir()
    write_csv(events / "rapid.csv", GAME_HEADER,
              [["R", "1", "2026-11-05", "4100034", "4100050", "1-0"],
               ["R", "2", "2026-11-06", "4100026", "4100050", "1-0"]])  # fmt: skip
    out = tmp_path / "out"
    result = run_cli("period", "--list", SAMPLE / "players_list_foa.txt", "--events", events,
                     "--period", "2026-11", "--rules", "rapid", "--out", out)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    changes = pd.read_csv(out / "changes_2026-11.csv", dtype=str).set_index("id")
    got = {i: (r["rating"], r["new_rating"]) for i, r in changes.iterrows()}
    assert got == {"4100034": ("1950", "1953"), "4100026": ("2150", "2152"),
                   "4100050": ("1650", "1645")}  # fmt: skip
    # The console and the report say which rules were used and why (rapid from 2024-12-01).
    why = "rapid-2024: in force on 2026-11-01 (rapid rules from 2024-12-01)"
    assert f"rules: {why}" in result.stdout
    summary = pd.read_excel(out / "report_2026-11.xlsx", sheet_name="Summary", dtype=str)
    assert summary.set_index("item").loc["rules", "value"] == why


# --- 8.2.4: a first rating published before an older event is rated ------------------------------


def _lists_now_and_then(tmp_path):
    """x beats y and draws z in an old event; x is unrated on the list then, rated 1700 now."""
    from pipeline.jobs.rate.stages import read_inputs

    now = write_csv(tmp_path / "now.csv", PLAYER_HEADER,
                    [["x", "X", 1700, 1990, 0], ["y", "Y", 1800, 1980, 99],
                     ["z", "Z", 1700, 1980, 99]])  # fmt: skip
    then = write_csv(tmp_path / "then.csv", PLAYER_HEADER,
                     [["x", "X", "", 1990, ""], ["y", "Y", 1800, 1980, 99],
                      ["z", "Z", 1700, 1980, 99]])  # fmt: skip
    games = write_csv(tmp_path / "games.csv", GAME_HEADER,
                      [["Old", "1", "2026-09-20", "x", "y", "1-0"],
                       ["Old", "2", "2026-09-21", "z", "x", "1/2-1/2"]])  # fmt: skip
    inputs, listed_now = read_inputs([games], now)
    _, listed_then = read_inputs([games], then)
    return inputs, listed_now, listed_then


def test_rated_mid_accumulation_8_2_4(tmp_path):
    from pipeline.jobs.period.rating import rate_with_event_lists
    from pipeline.model import PlayerList

    # The event started when x was unrated (list then: x blank); x's first rating 1700 was
    # published before the event is rated (list now). x beats y (1800) and draws z (1700).
    # x is rated as a rated player: D -100 -> PD 0.36 (band 99-106), win +0.64; D 0 -> PD 0.50,
    # draw 0.00; sum +0.64 x K 40 (fewer than 30 games) = 25.6 -> +26.
    # y and z count x as unrated: their games against x are not rated (no change).
    inputs, listed_now, listed_then = _lists_now_and_then(tmp_path)
    assert isinstance(listed_now, PlayerList) and listed_then is not None
    result = rate_with_event_lists(inputs, listed_now, [listed_then], RateOptions(period="2026-11"))
    sides = result.sides.set_index(["player", "round"])
    assert sides.loc[("x", "1"), "rated"] and sides.loc[("x", "2"), "rated"]
    assert not sides.loc[("y", "1"), "rated"] and not sides.loc[("z", "2"), "rated"]
    assert sides.loc[("y", "1"), "note"] == "opponent unrated"
    totals = result.totals.set_index("id")
    assert (totals.loc["x", "k"], totals.loc["x", "change"]) == (40, 26)
    assert totals.loc["y", "games"] == 0 and totals.loc["y", "change"] == 0


def test_8_2_4_in_an_individual_file_rated_with_the_list_now(tmp_path):
    """An individual file's sides carry their own ratings: rated with the list the period
    starts from itself, a side unrated there whose player that list rates is still 8.2.4's
    (only a games file's sides take their ratings from that list)."""
    from pipeline.engine.sides import assemble_sides
    from pipeline.jobs.period.rating import rate_with_event_lists
    from pipeline.model import SidesInput

    inputs, listed_now, listed_then = _lists_now_and_then(tmp_path)
    assert listed_now is not None and listed_then is not None
    individual = SidesInput("old.csv", assemble_sides(inputs, listed_then))  # x unrated on it
    result = rate_with_event_lists(
        [individual], listed_now, [listed_now], RateOptions(period="2026-11")
    )
    totals = result.totals.set_index("id")
    assert (totals.loc["x", "k"], totals.loc["x", "change"]) == (40, 26)  # as rated above
    assert totals.loc["y", "games"] == 0 and totals.loc["y", "change"] == 0


# --- matches (6.1, 6.2) ------------------------------------------------------------------------


def test_match_decided_games_and_unrated_player(tmp_path):
    # A 6-game match a (2000) v b (1900): a wins games 1-4 (4 points > 6 / 2 = 3 after game 4),
    # so games 5 and 6 are played after the match was decided: not rated (6.2).
    # a: D 100 -> PD 0.64 (band 99-106); 4 wins: 4 x 0.36 = 1.44 x K 20 = 28.8 -> +29.
    # A match c (1800) v d (unrated): not rated for either (6.1). Another event e v f with
    # three players is no match (all rated games count).
    players = [
        ["a", "A", 2000, 1980, 99],
        ["b", "B", 1900, 1980, 99],
        ["c", "C", 1800, 1980, 99],
        ["d", "D", "", 1980, ""],
        ["e", "E", 1800, 1980, 99],
        ["f", "F", 1800, 1980, 99],
        ["g", "G", 1800, 1980, 99],
    ]
    match = [
        ["M", "1", "2026-11-01", "a", "b", "1-0"],
        ["M", "2", "2026-11-02", "b", "a", "0-1"],
        ["M", "3", "2026-11-03", "a", "b", "1-0"],
        ["M", "4", "2026-11-04", "b", "a", "0-1"],
        ["M", "5", "2026-11-05", "a", "b", "0-1"],
        ["M", "6", "2026-11-06", "b", "a", "1-0"],
    ]
    games = [
        *match,
        ["U", "1", "2026-11-01", "c", "d", "0-1"],
        ["U", "2", "2026-11-02", "d", "c", "0-1"],
        ["T", "1", "2026-11-01", "e", "f", "1-0"],
        ["T", "2", "2026-11-02", "f", "g", "1-0"],
    ]
    result, totals = _rate(tmp_path, players, games)
    sides = result.sides.set_index(["event", "player", "round"])
    assert [sides.loc[("M", "a", str(r)), "rated"] for r in range(1, 7)] == [True] * 4 + [False] * 2
    assert sides.loc[("M", "b", "5"), "note"] == "played after the match was decided (rule 6.2)"
    assert sides.loc[("U", "c", "1"), "note"] == "match with an unrated player (rule 6.1)"
    assert sides.loc[("U", "d", "2"), "note"] == "match with an unrated player (rule 6.1)"
    assert bool(sides.loc[("T", "e", "1"), "rated"])
    assert (totals.loc["a", "games"], totals.loc["a", "change"]) == (4, 29)
    assert totals.loc["c", "games"] == 0


def test_match_events_table():
    from pipeline.engine.matches import match_events

    # (event, player, opponent) -> is a game side of a two-player event. A bye (no opponent)
    # first in the event does not hide the match; a third player makes it no match.
    rows = [
        ("M", "a", "", False),
        ("M", "a", "b", True),
        ("M", "b", "a", True),
        ("T", "e", "f", False),
        ("T", "f", "e", False),
        ("T", "f", "g", False),
        ("T", "g", "f", False),
    ]
    sides = pd.DataFrame(
        {
            "source": "s.csv",
            "event": pd.Series([r[0] for r in rows], dtype=str),
            "player": pd.Series([r[1] for r in rows], dtype=str),
            "opponent": pd.Series([r[2] for r in rows], dtype=str),
        }
    )
    assert match_events(sides).tolist() == [r[3] for r in rows]


def test_an_executor_needs_a_period(tmp_path):
    from pipeline.errors import UsageError

    class Remote:  # reads the files elsewhere: the dates would come too late to pick the rules
        name = "remote"

        def refusals(self, options, reading):
            return []

        def partials(self, *args, **kwargs):
            raise AssertionError("nothing may be read without a period")

    games = write_csv(tmp_path / "g.csv", GAME_HEADER, [["E", "1", "2005-07-01", "a", "b", "1-0"]])
    with pytest.raises(UsageError, match="needs --period"):
        rate_files([games], None, RateOptions(), executor=Remote())


@pytest.mark.parametrize(
    ("start", "late"),
    [
        # Started 2026-10-30, before the period 2026-11 the list given is for: the file's blank
        # rating for Silva is that of the October list, the list now gives 1650 (8.2.4).
        ("2026/10/30", True),
        # Started in the period: the list given is the one in force; its 1650 decides (issue 12).
        ("2026/11/07", False),
    ],
)
def test_rated_mid_accumulation_in_rate(tmp_path, start, late):
    # sample event.trf with Silva's (4100050, start no. 8) rating blanked in his 001 line.
    lines = (SAMPLE / "event.trf").read_text(encoding="utf-8").splitlines()
    lines = [f"042 {start}" if line.startswith("042 ") else line for line in lines]
    lines = [
        line[:48] + "    " + line[52:] if line.startswith("001    8 ") else line for line in lines
    ]
    trf = tmp_path / "late.trf"
    trf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = rate_files([trf], SAMPLE / "players.csv", RateOptions(period="2026-11"))
    sides = with_side_texts(result).sides
    silva = sides[sides["player"].eq("4100050") & sides["played"]]
    against = sides[sides["opponent"].eq("4100050") & sides["played"]]
    # Silva is rated as a rated player (1650) either way; his opponents count him as unrated
    # only when the event started under the earlier list.
    assert silva["rated"].all() and silva["player_rating"].eq(1650).all()
    assert (~against["rated"]).all() == late and against["rated"].all() == (not late)
    if late:
        assert against["note"].eq("opponent unrated").all()


def _end_month(trf: Path) -> str | None:
    """The month of a TRF's 052 end date, read here on its own (DD.MM.YYYY, DD/MM/YYYY or
    YYYY/MM/DD, any spaces): what the period must be when the file is rated without --period."""
    for line in trf.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("052 "):
            parts = re.findall(r"\d+", line[4:])
            if len(parts) == 3:
                day_first = len(parts[0]) <= 2
                year, month = (parts[2], parts[1]) if day_first else (parts[0], parts[1])
                return f"{int(year):04d}-{int(month):02d}"
    return None


def test_every_real_trf_rated_in_its_own_month(shared_trf):
    files = sorted(shared_trf.glob("*.trf"))
    assert files
    for trf in files:
        result = rate_files([trf], None, RateOptions())
        month = _end_month(trf)
        if month is None:  # no end date: the reason says where the period came from
            assert trf.name in result.period_reason or "no date" in result.period_reason
        else:
            assert result.period == month, trf.name
            assert result.period_reason.endswith("(052 end date)"), trf.name
            assert select_rules("standard", month).rules.name == result.rule_set
        # No input dated outside its period: the era's own warnings only (before its sources,
        # unsure), exactly those select_rules gives.
        era = select_rules("standard", result.period).warnings
        assert era_warnings(result.warnings) == list(era), trf.name


@pytest.mark.parametrize(
    ("era", "period", "next_list"),
    [
        # Bimonthly 2009-07 .. 2012-06: lists on 1 Jan, Mar, May, Jul, Sep, Nov (FIDE news,
        # 13 Jul 2009). September and October 2010 both go to the 1 Nov 2010 list.
        ("standard-2009", "2010-09", "2010-11"),
        ("standard-2009", "2010-10", "2010-11"),
        ("standard-2011", "2011-12", "2012-01"),
        # Quarterly before 2009-07: lists on 1 Jan, Apr, Jul, Oct (B.02 9.11 of the 2000s).
        ("standard-2006", "2008-05", "2008-07"),
        ("standard-2006", "2008-12", "2009-01"),
        # Monthly: the next month.
        ("standard-2014", "2015-05", "2015-06"),
    ],
)
def test_next_fide_list_follows_the_eras_cadence(era, period, next_list):
    from pipeline.rules.select import cadence_note, next_fide_list
    from pipeline.rules.sets import get_rules

    rules = get_rules(era)
    assert next_fide_list(rules, period) == next_list
    note = cadence_note(rules, period)
    assert (note is None) == (rules.list_every_months == 1)
    if note is not None:
        assert f"the next after {period} was {next_list}-01" in note


def test_period_run_in_a_bimonthly_era_says_so(tmp_path):
    from tests.jobs.test_period_cli import PERIOD_SAMPLE, period_args

    out = tmp_path / "out"
    done = run_cli(*period_args(PERIOD_SAMPLE, out, "--rules", "standard-2009"))
    assert done.exit_code == 0, done.stderr
    assert "FIDE published a list every 2 months" in done.stdout + done.stderr
