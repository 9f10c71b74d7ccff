"""A profile's sections made by columns for many players at once (pipeline/site/profile_parts.py)
are the bytes of making them one player and one row at a time, on hostile text (quotes,
backslashes, control characters, markup, characters beyond the BMP) in ids, periods, scores, K
rules and names: each kind's table body of both faces, its step chart and its JSON object
(``json.dumps`` of the kind's dict); and a profile page joined from its shape's parts
(pipeline/site/render.py) is Jinja's own render of the template.

The oracles below are the row-at-a-time rendering the site had before (a dict a row, an
f-string a row, the chart drawn point by point), kept here as the reference."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2.filters import do_urlencode
from markupsafe import Markup, escape

from pipeline.rules.signs import signed
from pipeline.site import addresses as at
from pipeline.site import profile_parts, render
from pipeline.site.profile_parts import FACES, NEWEST, KindParts, make_parts
from pipeline.site.profile_runs import LAST_FIELDS, RUN_FIELDS, KindRuns
from pipeline.site.rating_chart import HEIGHT, MIN_LABEL_GAP, PAD, WIDTH

TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("\"\\'<>&/\x00\x01\x1f\x7f\u2028 é0a-_.i\ue000\ue0011")),
        st.characters(exclude_categories=["Cs"]),  # no lone surrogate: lists are UTF-8
    ),
    max_size=6,
)
MONTH = st.builds(lambda y, m: f"{y}-{m:02d}", st.integers(2019, 2027), st.integers(1, 12))
RUN = st.fixed_dictionaries({
    "month": MONTH,
    "until": st.one_of(st.none(), MONTH),
    "period": st.one_of(st.none(), TEXT),
    "rating": st.one_of(st.none(), st.integers(0, 3000)),
    "difference": st.one_of(st.none(), st.integers(-500, 500)),
    "period_games": st.one_of(st.none(), st.integers(0, 30)),
    "games": st.one_of(st.none(), st.integers(0, 30)),
    "score": st.one_of(st.none(), st.sampled_from(["0.0", "4.5", "12.0"]), TEXT),
    "change": st.one_of(st.none(), st.integers(-500, 500)),
    "k_used": st.one_of(st.none(), st.sampled_from([10, 20, 40])),
    "k_rule": st.one_of(st.none(), TEXT),
    "calculated": st.booleans(),
})  # fmt: skip
LAST = st.fixed_dictionaries({
    "name": TEXT, "federation": st.one_of(st.none(), TEXT), "title": st.one_of(st.none(), TEXT),
    "sex": st.one_of(st.none(), st.sampled_from(["m", "w", "F", ""]), TEXT),
    "birth_year": st.one_of(st.none(), st.integers(1900, 2020)), "month": MONTH,
    "until": st.one_of(st.none(), MONTH), "rating": st.one_of(st.none(), st.integers(0, 3000)),
    "k": st.one_of(st.none(), st.sampled_from([10, 20, 40])),
    "flags": st.one_of(st.none(), st.sampled_from(["", "i", "wi"]), TEXT),
    "current": st.booleans(),
})  # fmt: skip
PLAYER = st.tuples(TEXT, st.lists(RUN, min_size=1, max_size=7), LAST)
TEXTS = ("id", "month", "until", "period", "score", "k_rule")


def _players(drawn: list[tuple[str, list[dict[str, Any]], dict[str, Any]]]) -> list[Any]:
    """Distinct ids, sorted as the site sorts them (every player's runs in id order)."""
    seen: dict[str, Any] = {}
    for pid, runs, last in drawn:
        # A player's runs are one a month, oldest first; a calculated run is a stored change of
        # its period: it has one.
        months = {r["month"]: r for r in runs}
        runs = [{**r, "calculated": r["calculated"] and r["period"] is not None}
                for _, r in sorted(months.items())]  # fmt: skip
        seen.setdefault(pid, (pid, runs, last))
    return [seen[p] for p in sorted(seen)]


def _kind_runs(players: list[Any]) -> KindRuns:
    runs = [{"id": pid, **r} for pid, rs, _ in players for r in rs]
    frame = pd.DataFrame(runs, columns=["id", *RUN_FIELDS]).astype(
        {
            **{c: "str" for c in TEXTS},
            "calculated": bool,
            **{
                c: "Int64"
                for c in ("rating", "difference", "period_games", "games", "change", "k_used")
            },
        }  # fmt: skip
    )
    last = pd.DataFrame([{"id": pid, **row} for pid, _, row in players], columns=LAST_FIELDS)
    last = last.astype({"birth_year": "Int64", "rating": "Int64", "k": "Int64"})
    spans, at_ = {}, 0
    for pid, rs, _ in players:
        spans[pid] = (at_, at_ + len(rs))
        at_ += len(rs)
    return KindRuns(frame, last, spans, {pid: n for n, (pid, _, _) in enumerate(players)})


# The oracles: a profile kind made one row at a time.
def _axis(points: list[tuple[str, int]]) -> Any:
    low, high = min(r for _, r in points), max(r for _, r in points)
    span = max(high - low, 20)
    low -= span // 10
    high = low + span + span // 5
    return lambda r: HEIGHT - PAD - (r - low) * (HEIGHT - 2 * PAD) // (high - low)


def _number(month: str) -> int:
    return int(month[:4]) * 12 + int(month[5:7]) - 1


def _step_chart(points: list[tuple[str, int]], until: str | None) -> str:
    if not points:
        return ""
    y = _axis(points)
    numbers = [_number(m) for m, _ in points]
    first = numbers[0]
    months = max(_number(until) if until else first, numbers[-1]) - first

    def x(number: int) -> int:
        return WIDTH // 2 if months == 0 else PAD + (number - first) * (WIDTH - 2 * PAD) // months

    xs, ys = [x(n) for n in numbers], [y(r) for _, r in points]
    last = until if until and _number(until) > numbers[-1] else None
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="rating '
             f'over time, {escape(points[0][0])} to {escape(last or points[-1][0])}">',
             f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD // 2}" y2="{HEIGHT - PAD}" '
             f'class="axis"/><line x1="{PAD}" y1="{PAD // 2}" x2="{PAD}" y2="{HEIGHT - PAD}" '
             'class="axis"/>']  # fmt: skip
    steps = [f"M{xs[0]},{ys[0]}"] + [f"H{xs[i]}V{ys[i]}" for i in range(1, len(points))]
    if last:
        steps.append(f"H{x(_number(last))}")
    parts.append(f'<path d="{"".join(steps)}" class="line"/>')
    labelled, shown = set(), None
    for i in range(len(points) - 1, -1, -1):
        if shown is None or shown - xs[i] >= MIN_LABEL_GAP:
            labelled.add(i)
            shown = xs[i]
    for i, (month, rating) in enumerate(points):
        parts.append(f'<circle cx="{xs[i]}" cy="{ys[i]}" r="4" class="dot"/>')
        if i in labelled:
            parts.append(f'<text x="{xs[i]}" y="{ys[i] - 10}" text-anchor="middle">{rating}'
                         f'</text><text x="{xs[i]}" y="{HEIGHT - PAD + 18}" '
                         f'text-anchor="middle">{escape(month)}</text>')  # fmt: skip
    return "".join(parts) + "</svg>"


def _rows(kind: str, pid: str, periods: list[dict[str, Any]], face: str) -> str:
    rows = []
    for r in reversed(periods):
        change = r["change"] if r["change"] is not None else r["difference"]
        k = ""
        if r["k_used"] is not None:
            k = f'<abbr title="{escape(r["k_rule"])}">{r["k_used"]}</abbr>'
        period = escape("" if r["period"] is None else r["period"])
        if r["calculation_href"]:
            if face == "live":
                query = do_urlencode({"id": pid, "period": r["period"], "kind": kind})
                href = escape(f"/history/calculation?{query}")
            else:
                href = escape("../" + r["calculation_href"])
            period = Markup(f'<a class="calculation" href="{href}">{period}</a>')
        lists = (f"since {r['month']}" if r["until"] is None else r["month"]
                 if r["until"] == r["month"] else f"{r['month']} to {r['until']}")  # fmt: skip
        rating = "" if r["rating"] is None else r["rating"]
        games = "" if r["games"] is None else r["games"]
        rows.append(
            f'<tr><td class="text">{escape(lists)}</td><td>{rating}</td>'
            f"<td>{'' if change is None else signed(change)}</td><td>{games}</td>"
            f'<td>{escape(r["score"] or "")}</td><td>{k}</td><td class="text">{period}</td></tr>'
        )
    return "".join(rows)


def _kind(kind: str, pid: str, runs: list[dict[str, Any]], last: dict[str, Any]) -> dict:
    periods = []
    for run in runs:
        row = {key: run[key] for key in RUN_FIELDS if key != "calculated"}
        row["calculation_href"] = (
            at.calculation_page(kind, pid, str(run["period"])) if run["calculated"] else None
        )
        periods.append(row)
    current = bool(last["current"])
    inactive = "i" in str(last["flags"] or "")
    rating = last["rating"] if current else None
    return {"kind": kind, "rating": rating, "until": last["until"], "inactive": inactive,
            "ranked": current and rating is not None and not inactive, "k": last["k"],
            "periods": periods,
            "points": [[r["month"], r["rating"]] for r in runs
                       if r["rating"] is not None]}  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.lists(PLAYER, min_size=1, max_size=5), st.sampled_from(["standard", "rapid"]))
def test_each_kinds_section_is_its_row_at_a_time_rendering(drawn, kind):
    players = _players(drawn)
    sections, lasts = make_parts(_kind_runs(players), kind, range(len(players)), FACES)
    for (pid, runs, last), section, newest in zip(players, sections, lasts, strict=True):
        expected = _kind(kind, pid, runs, last)
        as_json = json.dumps(expected, ensure_ascii=False, separators=(",", ":"))
        assert section.json.decode() == as_json
        assert (section.rating, section.until, section.inactive, section.ranked, section.k) == (
            expected["rating"], expected["until"], expected["inactive"], expected["ranked"],
            expected["k"])  # fmt: skip
        for face in FACES:
            assert section.rows[face].decode() == _rows(kind, pid, expected["periods"], face)
        points = [(m, r) for m, r in expected["points"]]
        assert section.chart.decode() == _step_chart(points, last["until"])
        assert newest == tuple(({"id": pid} | last)[key] for key in NEWEST)


@settings(max_examples=40, deadline=None)
@given(st.lists(PLAYER, min_size=1, max_size=8))
def test_a_chunk_of_players_is_each_made_alone(drawn):
    """The static writer makes 2,048 players at a time, the live server one: the same."""
    players = _players(drawn)
    together, _ = make_parts(_kind_runs(players), "blitz", range(len(players)), ("static",))
    for n, player in enumerate(players):
        alone, _ = make_parts(_kind_runs([player]), "blitz", range(1), ("static",))
        assert alone == [together[n]]


def _context(pid: str, last: dict[str, Any], sections: list[Any]) -> dict[str, Any]:
    facts = {"id": pid, **{k: last[k] for k in ("name", "federation", "title", "sex",
                                                 "birth_year")}}  # fmt: skip
    return {"page": at.player_page(pid), "title": f"{facts['name']} ({pid})", "player": facts,
            "ranks": "ranks/buckets.json", "kinds": sections}  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(PLAYER, PLAYER, st.sampled_from(FACES))
def test_a_profile_page_joined_from_its_shape_is_jinjas_render(one, other, face):
    """Two players of the same shape (the second made with the first one's shape, unchecked):
    the page of each is the template rendered by Jinja, whatever their names and ids."""
    kinds = ("standard", "rapid", "blitz")
    pages = []
    runs = _players([one])[0][1]
    for pid, last in ((one[0], one[2]), (other[0], _shaped(one[2], other[2]))):
        player = [(pid, runs, last)]
        sections = [make_parts(_kind_runs(player), k, range(1), FACES)[0][0] for k in kinds[:2]]
        pages.append(_context(pid, last, sections))
    render._shapes.clear()
    for context in pages:
        joined = render.html_bytes("player", context, face, kinds).decode()
        assert joined == render._rendered("player", context, face, kinds)
    # The second page was joined from the first one's shape (a sex code holding a slot's
    # mark, shown as it is, goes through Jinja)
    assert len(render._shapes) == (0 if "\ue000" in str(one[2]["sex"]) else 1)


def test_a_sex_code_like_a_slot_mark_is_shown_as_it_is():
    run = {"month": "2025-01", "until": None, "period": None, "rating": 1500,
           "difference": None, "period_games": None, "games": None, "score": None,
           "change": None, "k_used": None, "k_rule": None, "calculated": False}  # fmt: skip
    last = {"name": "Ann", "federation": "FRA", "title": "", "sex": "\ue0003\ue001",
            "birth_year": None, "month": "2025-01", "until": None, "rating": 1500, "k": 20,
            "flags": "", "current": True}  # fmt: skip
    player = [("7", [run], last)]
    section = make_parts(_kind_runs(player), "standard", range(1), FACES)[0][0]
    context = _context("7", last, [section])
    for face in FACES:
        joined = render.html_bytes("player", context, face, ("standard",)).decode()
        assert joined == render._rendered("player", context, face, ("standard",))
        assert "\ue0003\ue001" in joined  # not the name of slot 3


def _shaped(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """``other`` (a newest row) in the shape of ``one``: its blanks, sex and flags."""
    shaped = {**other, **{k: one[k] for k in ("sex", "flags", "current", "until", "rating", "k")}}
    for key, filled in (("title", "GM"), ("federation", "FRA"), ("birth_year", 1990)):
        shaped[key] = one[key] if not one[key] else other[key] or filled
    return shaped


@settings(max_examples=50, deadline=None)
@given(st.lists(PLAYER, min_size=1, max_size=7), st.randoms(use_true_random=False))
def test_a_writer_asking_in_any_order_gets_each_players_section(drawn, random):
    """The static writer's chunks (here of 2 players): whatever order the profiles are asked
    in, each is the player's section made with everyone's."""
    players = _players(drawn)
    found = _kind_runs(players)
    every, _ = make_parts(found, "rapid", range(len(players)), ("static",))
    parts = KindParts(found, "rapid")
    order = list(range(len(players)))
    random.shuffle(order)
    saved = profile_parts.CHUNK
    profile_parts.CHUNK = 2
    try:
        for n in order:
            section = parts.section(players[n][0])
            assert section is not None and section[0] == every[n]
    finally:
        profile_parts.CHUNK = saved
    assert parts.section("not a player \x00") is None


@settings(max_examples=50, deadline=None)
@given(st.lists(PLAYER, min_size=1, max_size=9), st.data())
def test_a_refresh_makes_the_sections_of_the_players_it_wants_alone(drawn, data):
    """A refresh's writer wants some players' profiles: their sections are made from their
    own runs taken apart (chunks of 2 wanted players, not of everyone between them), each the
    section made with everyone's; a player not wanted, asked anyway, is right too."""
    players = _players(drawn)
    found = _kind_runs(players)
    every, _ = make_parts(found, "rapid", range(len(players)), ("static",))
    ids = [p[0] for p in players]
    wanted = data.draw(st.sets(st.sampled_from(ids)))
    parts = KindParts(found, "rapid", frozenset(wanted))
    made: list[int] = []
    saved, make = profile_parts.CHUNK, profile_parts.make_parts

    def counted(found, kind, places, faces, *spans):  # type: ignore[no-untyped-def]
        made.extend(int(p) for p in places)
        return make(found, kind, places, faces, *spans)

    profile_parts.CHUNK, profile_parts.make_parts = 2, counted
    try:
        for n, player_id in enumerate(ids):
            if player_id in wanted:
                section = parts.section(player_id)
                assert section is not None and section[0] == every[n]
        assert sorted(made) == sorted(n for n, p in enumerate(ids) if p in wanted)
        unwanted = [n for n, p in enumerate(ids) if p not in wanted]
        for n in unwanted[:1]:
            section = parts.section(ids[n])
            assert section is not None and section[0] == every[n]
    finally:
        profile_parts.CHUNK, profile_parts.make_parts = saved, make


PLAIN = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), TEXT),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)
    ),  # fmt: skip
    max_leaves=8,
)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(TEXT, PLAIN, max_size=5), st.lists(PLAYER, min_size=1, max_size=2),
       st.data())  # fmt: skip
def test_a_pages_json_is_json_dumps_of_its_context(members, drawn, data):
    """A page's JSON made by parts (the profile's sections among plain members, anywhere) is
    ``json.dumps`` of the context with each section as the dict it stands for."""
    players = _players(drawn)
    sections = make_parts(_kind_runs(players), "standard", range(len(players)), ("static",))[0]
    keys = list(members)
    at_ = data.draw(st.integers(0, len(keys)))
    context = {**dict(list(members.items())[:at_]), "kinds \x00": sections,
               **dict(list(members.items())[at_:])}  # fmt: skip
    expected = {k: [json.loads(s.json) for s in v] if k == "kinds \x00" else v
                for k, v in context.items()}  # fmt: skip
    as_json = json.dumps(expected, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert render.json_bytes(context) == as_json.encode()
    assert (
        render.json_bytes(members)
        == (json.dumps(members, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    )


def test_a_section_made_for_the_static_face_refuses_the_live_one():
    run = {"month": "2025-01", "until": None, "period": None, "rating": 1500,
           "difference": None, "period_games": None, "games": None, "score": None,
           "change": None, "k_used": None, "k_rule": None, "calculated": False}  # fmt: skip
    last = {"name": "Ann", "federation": "FRA", "title": "", "sex": "w", "birth_year": None,
            "month": "2025-01", "until": None, "rating": 1500, "k": 20, "flags": "",
            "current": True}  # fmt: skip
    section = make_parts(_kind_runs([("7", [run], last)]), "blitz", range(1), ("static",))[0][0]
    assert section.table("static").startswith(b"<tr>")
    with pytest.raises(ValueError, match="blitz section was made without its live table"):
        render.html_bytes("player", _context("7", last, [section]), "live", ("blitz",))
