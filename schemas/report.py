"""The report model's two frames (``pipeline.report.EventReport``): the standings and the games,
typed, exact integers (units of 1/scale, hundredths of a point) before any face formats them.
Validated once, where the model is built (``pipeline.report.build_report``): every face (report
text, report.xlsx, report.html, the web's pages) then renders the same checked numbers."""

import numpy as np
import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series


class ReportStandings(pa.DataFrameModel):
    """One row per player, in standings order."""

    rank: Series[int] = pa.Field(ge=1)
    id: Series[str] = pa.Field(unique=True)
    name: Series[str]
    title: Series[str]
    federation: Series[str]
    rating: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1, le=3500)
    k: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0, le=100)
    k_base: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0)
    k_700: Series[bool]  # the 700 rule lowered K
    k_rule: Series[str]  # why this K, with the 700 rule's arithmetic when it applied
    k_assumed: Series[bool]  # the input could not say the K (k_rule names what it lacked)
    games: Series[int] = pa.Field(ge=0)  # rated games
    points_h: Series[int] = pa.Field(ge=0)  # every game, forfeits included (hundredths)
    score_h: Series[int] = pa.Field(ge=0)  # rated games (hundredths)
    expected_units: Series[int] = pa.Field(ge=0)
    performance: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    dev_units: Series[int]
    change_units: Series[int]
    change: Series[int]
    new_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    # An unrated player has no change to show: what the period's changes CSV says of them.
    unrated_words: Series[str]

    class Config:
        strict = True
        ordered = True


class ReportGames(pa.DataFrameModel):
    """One row per game side, grouped by player (the players' natural id order), game order
    kept within each player."""

    player: Series[str]
    event: Series[str]
    round: Series[str]
    opponent: Series[str]
    opponent_name: Series[str]
    opponent_rating: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    result: Series[str]
    score_h: Series[int] = pa.Field(isin=[0, 50, 100])
    rated: Series[bool]
    # The rating the expectation was read from: the player's own, or in sequential mode the
    # rating after the games before.
    rating_used: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    gap: Series[pd.Int64Dtype] = pa.Field(nullable=True)  # rating used - opponent's (rated)
    gap_used: Series[pd.Int64Dtype] = pa.Field(nullable=True)  # what the expectation read
    counted_why: Series[np.int8]  # rules.counted_words' codes
    counted: Series[str]  # that reason in the era's words ('' as played)
    pd_units: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0)
    dev_units: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    k_dev_units: Series[pd.Int64Dtype] = pa.Field(nullable=True)
    note: Series[str]
    # Running sums over the player's rated games (the expected-vs-actual charts).
    cum_expected_units: Series[int]
    cum_score_h: Series[int]

    class Config:
        strict = True
        ordered = True
