"""The games' own codes on the sides (``RatedPeriod.side_texts``, ``SideKeys``) against the
sides' text: each code names its side's cell, the match rules give the same notes from the
integers as from the text, games.csv is the same bytes either way, and the sides whose text
columns were left as codes are, once read, exactly the sides built from the text."""

from __future__ import annotations

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.engine.matches import SideKeys, match_codes, match_events
from pipeline.engine.rate_sides import rate_sides
from pipeline.engine.side_codes import side_codes, side_texts
from pipeline.engine.sides import assemble_sides, with_side_texts
from pipeline.jobs.period.rating import rate_with_event_lists
from pipeline.jobs.plan import plan_run
from pipeline.jobs.rate.outputs import prepare_outputs, write_outputs
from pipeline.jobs.rate.stages import rate_files
from pipeline.keys.game_codes import GAME_TEXTS
from pipeline.model import RateOptions
from pipeline.readers.rating_inputs import read_rating_inputs
from pipeline.writers import write_games_csv
from pipeline.writers.summary import summary_lines

IDS = ["a", "b", "c", "1", "b,c"]
game = st.tuples(
    st.sampled_from(["M", "N", "O,P", ""]),  # blank: the event named after its file
    st.sampled_from(IDS),
    st.sampled_from(IDS),
    st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-"]),
    st.sampled_from(["", "2026-11-01", "2026-11-30"]),
)


def _write(folder, files):
    paths = []
    for k, rows in enumerate(files):
        # No self-pairings (a reading problem), and never a file of no games (nothing to rate).
        rows = [r if r[1] != r[2] else (r[0], r[1], "z", *r[3:]) for r in rows]
        frame = pd.DataFrame(rows, columns=["event", "white", "black", "result", "date"])
        # Never paired twice; each file its own rounds: two files of the same games would be one
        # event given twice (duplicate-event).
        frame["round"] = [str(100 * k + i + 1) for i in range(len(frame))]
        frame["white_rating"] = "1800"
        frame["black_rating"] = "1700"
        path = folder / f"games_{k}.csv"
        frame.to_csv(path, index=False)
        paths.append(path)
    return paths


# Each example reads, assembles and rates its files: a cost mostly per call, not per game. So
# fewer examples of longer files (up to 30 games, more pairings, events and matches per file)
# check more games than 25 of up to 12 did, in about 60% of the time.
SOME = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FILES = st.lists(st.lists(game, min_size=1, max_size=30), min_size=1, max_size=3)


@SOME
@given(FILES)
def test_side_codes_name_each_sides_text_and_its_matches(tmp_path_factory, files):
    paths = _write(tmp_path_factory.mktemp("games"), files)
    read = read_rating_inputs(paths, None)
    inputs, players, problems = read.inputs, read.players, read.problems
    assert not problems
    sides = assemble_sides(inputs, players)
    texts = side_texts(inputs)
    assert texts is not None
    for name in GAME_TEXTS:
        codes, distinct = texts[name]
        assert distinct.take(codes).tolist() == sides[name].fillna("").tolist(), name
    keys = SideKeys.of_games(side_codes(inputs), texts["source"], texts["event"])
    assert match_events(sides, keys).tolist() == match_events(sides).tolist()
    assert match_codes(sides, keys).tolist() == match_codes(sides).tolist()


@SOME
@given(FILES)
def test_games_csv_is_the_same_from_the_codes_as_from_the_text(tmp_path_factory, files):
    folder = tmp_path_factory.mktemp("games")
    result = rate_files(_write(folder, files), None, RateOptions(period="2026-11"))
    assert result.side_texts is not None
    assert {*GAME_TEXTS, "opponent", "result", "note"} <= set(result.side_texts)  # by code
    # As write_outputs hands it to games.csv (the texts built only when a side has no total).
    result, _, _ = prepare_outputs(result, xlsx=False, html=False)
    write_games_csv(result, folder / "coded.csv")
    result = with_side_texts(result)
    result.side_texts = None  # every column hashed from the sides' text
    write_games_csv(result, folder / "text.csv")
    assert (folder / "coded.csv").read_bytes() == (folder / "text.csv").read_bytes()


@SOME
@given(FILES)
def test_sides_left_as_codes_are_the_sides_built_from_text(tmp_path_factory, files):
    paths = _write(tmp_path_factory.mktemp("games"), files)
    options = RateOptions(period="2026-11")
    result = rate_files(paths, None, options)
    assert result.texts_coded  # the texts were left as codes
    assert "event" not in result.sides
    read = read_rating_inputs(paths, None)
    inputs, players = read.inputs, read.players
    eager = rate_sides(assemble_sides(inputs, players), plan_run(options, inputs).rules)
    built = with_side_texts(result).sides
    pd.testing.assert_frame_equal(built, eager)  # same columns, order, dtypes, cells


def test_rating_list_and_games_csv_never_build_the_coded_texts(tmp_path):
    paths = _write(tmp_path, [[("M", "a", "b", "1-0", ""), ("N", "b", "c", "0-1", "2026-11-02")]])
    result = rate_files(paths, None, RateOptions(period="2026-11"))
    report = write_outputs(result, tmp_path / "out", xlsx=False, html=False)
    assert (tmp_path / "out" / "games.csv").exists()
    assert "rated game sides: 4" in "\n".join(summary_lines(result, report))  # as the CLI prints
    # The output stage builds the texts for the outputs that read them, and only for those.
    csv_only, _, standings = prepare_outputs(result, xlsx=False, html=False)
    assert csv_only.texts_coded and standings is None
    parquet, _, _ = prepare_outputs(result, False, html=False, output_format="parquet")
    assert not parquet.texts_coded
    reports, _, standings = prepare_outputs(result, xlsx=False, html=True)
    assert not reports.texts_coded and standings is not None
    assert result.texts_coded  # the rated period itself is never changed


@SOME
@given(FILES)
def test_a_periods_sides_take_the_games_codes_too(tmp_path_factory, files):
    # ``fiderate period`` rates each event with its own list (``rate_with_event_lists``): the
    # sides are still the games' sides in order, so games.csv takes their text by code as
    # ``rate`` does.
    folder = tmp_path_factory.mktemp("games")
    read = read_rating_inputs(_write(folder, files), None)
    inputs, players = read.inputs, read.players
    lists = [players] * len(inputs)
    result = rate_with_event_lists(inputs, players, lists, RateOptions(period="2026-11"))
    assert result.side_texts is not None and result.side_players is not None
    assert not result.texts_coded  # a period's publishing reads the texts: built with the sides
    write_games_csv(result, folder / "coded.csv")
    result.side_texts = result.side_players = None
    write_games_csv(result, folder / "text.csv")
    assert (folder / "coded.csv").read_bytes() == (folder / "text.csv").read_bytes()
