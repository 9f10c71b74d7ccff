"""Standings follow the TRF's own final ranks (a Swiss event's tie-break order) when it gives
them, and say which order is shown (issue 12, item 6)."""

from __future__ import annotations

from helpers import report_tables
from period_files import trf_player, write_trf

from pipeline import RateOptions, rate_files
from pipeline.report.event_report import ORDER_BY_FILE, ORDER_BY_POINTS


def standings(result):  # type: ignore[no-untyped-def]
    return report_tables(result)[1]


def test_the_files_ranks_decide_over_points_then_rating(tmp_path):
    # 1001 and 1002 both score 1.0; by rating 1002 (1900) would come first, but the file ranks
    # 1001 first (its tie-break). 1003 and 1004 score 0.0.
    trf = write_trf(
        tmp_path / "swiss.trf",
        {"012": "Swiss", "042": "2026/11/05", "XXR": "1"},
        [
            trf_player(1, "A", 1800, "ENG", "1001", "", "1.0", [(3, "w", "1")], rank=1),
            trf_player(2, "B", 1900, "ENG", "1002", "", "1.0", [(4, "b", "1")], rank=2),
            trf_player(3, "C", 1700, "ENG", "1003", "", "0.0", [(1, "b", "0")], rank=4),
            trf_player(4, "D", 1600, "ENG", "1004", "", "0.0", [(2, "w", "0")], rank=3),
        ],
    )
    result = rate_files([trf], None, RateOptions(period="2026-11"))
    table = standings(result)
    assert table["id"].tolist() == ["1001", "1002", "1004", "1003"]
    assert table["rank"].tolist() == ["1", "2", "3", "4"]
    assert report_tables(result)[0].order_words == ORDER_BY_FILE


def test_without_ranks_the_order_is_points_then_rating(tmp_path):
    trf = write_trf(
        tmp_path / "swiss.trf",
        {"012": "Swiss", "042": "2026/11/05", "XXR": "1"},
        [
            trf_player(1, "A", 1800, "ENG", "1001", "", "1.0", [(2, "w", "1")], rank=0),
            trf_player(2, "B", 1900, "ENG", "1002", "", "0.0", [(1, "b", "0")], rank=0),
        ],
    )
    result = rate_files([trf], None, RateOptions(period="2026-11"))
    assert standings(result)["id"].tolist() == ["1001", "1002"]
    assert report_tables(result)[0].order_words == ORDER_BY_POINTS


def test_real_swiss_file_keeps_its_ranks(shared_trf):
    result = rate_files([shared_trf / "open-gros-2010-r4.trf"], None, RateOptions(period="2010-09"))
    table = standings(result)
    ranks = result.event_ranks.reindex(table["id"])
    assert ranks.notna().all()
    assert ranks.tolist() == sorted(ranks.tolist())
    assert table["rank"].tolist() == [str(r) for r in ranks]
