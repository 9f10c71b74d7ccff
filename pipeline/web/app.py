"""``fiderate serve``: the application (Starlette) and its routes.

Every number comes from the jobs the CLI calls (``pipeline.jobs``): the calculators, ``rate``
(an upload is one call: its files read from memory, its outputs zipped in memory, its norms
checked on the same read), the history read-outs. A route reads the request, calls a job (in a
worker thread when it reads files), and renders the result through a Jinja2 template
(autoescaped). No error reaches the browser as a traceback: bad input is a page of problems,
anything else a short page.

One concept: the routes, each a few lines from request to job to template; what a page shows is
built in ``calculator_page``, ``history_pages`` and the jobs, what guards them in ``guard``,
``job_slots`` and ``uploads``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pipeline.errors import FiderateError, InputError, in_face, problems_listed, quoted
from pipeline.web import calculator_page, history_pages
from pipeline.web.guard import AllowedHosts, Guard
from pipeline.web.job_slots import RETRY_AFTER, Busy, JobSlots
from pipeline.web.uploads import (
    EVENT_BYTES,
    LIST_BYTES,
    FinishedRun,
    RunStore,
    UploadTooLarge,
    counted,
    read_upload,
    safe_name,
)

if TYPE_CHECKING:
    from pipeline.model import RatedPeriod
    from pipeline.site.history_data import SiteData

HERE = Path(__file__).parent
FORM_OVERHEAD = 1 << 20  # the multipart framing and the small fields beside the files
RULE_CHOICES = ("standard", "rapid", "blitz")
SETTING_CHARS = 40
SITE_ANSWERS = 512  # rating-site answers kept (pages of at most SITE_ANSWER_BYTES)
SEARCH_CHARS = 1000  # of a search query read (the search keeps 80 once trimmed)
SITE_WARM_WAIT = 120.0  # seconds a site request waits for the start's warm-up at most
SITE_ANSWER_BYTES = 1 << 20  # a setting quoted back is cut here (a form field may hold a megabyte)


def _environment() -> Environment:
    env = Environment(
        # The site's templates second: the pages both show share their parts (calculation_head).
        loader=FileSystemLoader([HERE / "templates", HERE.parent / "site" / "templates"]),
        autoescape=select_autoescape(["html"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    from pipeline.calculator.calc_text import fixed
    from pipeline.rules.signs import signed

    env.filters["fixed"] = fixed
    env.filters["signed"] = signed
    env.filters["name_breaks"] = name_breaks
    return env


def name_breaks(name: object) -> Markup:
    """A player's name, escaped, that a narrow column may wrap after each comma: many TRF files
    write ``Esterluss,Johannes`` with no space, which would otherwise keep the whole name on one
    line and push the numbers beside it past a phone's edge (or break it mid-word)."""
    return Markup(",<wbr>").join(escape(str(name)).split(","))


class Pages:
    """The application's state: its templates, the history database, the finished runs."""

    def __init__(
        self, history: Path | None, event_bytes: int, list_bytes: int, jobs: JobSlots
    ) -> None:
        self.env = _environment()
        self.history = history
        self.limits = {"event": event_bytes, "players": list_bytes}
        self.jobs = jobs
        self.runs = RunStore()
        # The rating site's decoded lists, for one state of the database file (mtime, size).
        self.site_frames: tuple[tuple[int, int], dict[Any, Any]] = ((0, 0), {})
        # Its pages' answers for that state, the most recent ones (a page is a function of it).
        self.site_answers: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
        # Clear while the start's warm-up decodes the latest lists (:meth:`warm_site`: a page
        # waits for it), and while, beside it, the search index is built (:meth:`warm_search`:
        # a search waits for that alone), rather than doing the same work beside them.
        self.site_warm = threading.Event()
        self.site_warm.set()
        self.site_indexed = threading.Event()
        self.site_indexed.set()

    def page(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("history", self.history is not None)
        return HTMLResponse(self.env.get_template(template).render(**context), status_code=status)

    def fragment(self, template: str, **context: Any) -> str:
        return self.env.get_template(template).render(**context)

    def problem_page(self, status: int, title: str, message: str) -> HTMLResponse:
        return self.page("message.html", status, title=title, message=message)

    def refusal(self, status: int, title: str, message: str) -> HTMLResponse:
        """The page the guard answers with (pipeline/web/guard.py): no link to the history."""
        return self.page("message.html", status, title=title, message=message, history=False)

    # -- home, calculator ------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        return self.page("home.html")

    def _calc(self, request: Request) -> tuple[calculator_page.CalcInputs, dict[str, Any]]:
        q = request.query_params
        inputs = calculator_page.read_inputs(q, q.getlist("o"), q.getlist("s"))
        return inputs, calculator_page.calculation_context(inputs)

    async def calc(self, request: Request) -> Response:
        inputs, result = self._calc(request)
        return self.page(
            "calc.html",
            inputs=inputs,
            result=result,
            presets=calculator_page.K_PRESETS,
            rule_sets=calculator_page.RULE_SETS,
            results=calculator_page.RESULTS,
        )

    async def calc_api(self, request: Request) -> Response:
        inputs, result = self._calc(request)
        return JSONResponse(
            {
                "problems": result["problems"],
                "change": result.get("change"),
                "html": self.fragment("calc_results.html", result=result),
            }
        )

    # -- rate an event ---------------------------------------------------------------------

    async def rate_form(self, request: Request) -> Response:
        return self.page("rate.html", rules=RULE_CHOICES, limits=self.limits)

    async def rate_upload(self, request: Request) -> Response:
        body_limit = sum(self.limits.values()) + FORM_OVERHEAD
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > body_limit:
            return self._too_large()
        limited = Request(request.scope, counted(request.receive, body_limit))
        async with AsyncExitStack() as held:
            try:
                # A place in the queue before a byte of the body is read (job_slots.py).
                await held.enter_async_context(self.jobs.place())
                form = await held.enter_async_context(limited.form(max_files=2, max_fields=10))
            except Busy:
                return self._busy()
            except UploadTooLarge:
                return self._too_large()
            except (ClientDisconnect, HTTPException, ValueError, KeyError) as exc:
                message = f"the upload could not be read: {exc}"
                return self.problem_page(400, "Upload not read", message)
            # Only the form's reading is "not read": an error of the job itself is the
            # internal-error page (500), never a 400 blaming the upload.
            try:
                return await self._rate_form_data(form)
            except UploadTooLarge:
                return self._too_large()
        raise AssertionError("unreachable")  # pragma: no cover (mypy: every path returns)

    def _busy(self) -> HTMLResponse:
        answer = self.problem_page(
            503,
            "Busy",
            f"{self.jobs.running} events are being rated and {self.jobs.waiting} more wait for "
            f"their turn; nothing was read. Send the form again in {RETRY_AFTER} seconds.",
        )
        answer.headers["Retry-After"] = str(RETRY_AFTER)
        return answer

    def _too_large(self) -> HTMLResponse:
        return self.problem_page(
            413,
            "File too large",
            f"an uploaded file is larger than this server takes (an event file up to "
            f"{self.limits['event']:,} bytes, a rating list up to {self.limits['players']:,}: "
            "what one rating job may hold in memory); nothing was rated. Rate it with "
            "`fiderate rate`, or give only the players of the event in the list.",
        )

    async def _rate_form_data(self, form: Any) -> Response:
        event = form.get("event")
        if event is None or isinstance(event, str) or not event.filename:
            return self.page("rate.html", 400, rules=RULE_CHOICES, limits=self.limits,
                             error="choose an event file to rate")  # fmt: skip
        players = form.get("players")
        if isinstance(players, str) or (players is not None and not players.filename):
            players = None
        period, rules, refused = _settings(form)
        if refused:
            return self.page("rate.html", 422, rules=RULE_CHOICES, limits=self.limits,
                             error="; ".join(refused) + ". Nothing was rated.")  # fmt: skip
        async with self.jobs.turn():
            return await run_in_threadpool(self._rate_in, event, players, period, rules)

    def _rate_in(self, event: Any, players: Any, period: str | None, rules: str) -> Response:
        """Rate the uploaded files: one call of the ``rate`` job (a worker thread: it reads the
        uploads), each file read once from memory and named by its safe name, the outputs
        written to a zip in memory, the norms checked on the same read, the report model the
        pages render returned with them."""
        from pipeline.jobs.rate import RateOutputs, RateRequest, rate
        from pipeline.model import InputFile, RateOptions, ZipOutput
        from pipeline.writers.summary import summary_data

        name = safe_name(event.filename, "event")
        event_file = InputFile(name, read_upload(event, self.limits["event"]))
        players_file = None
        if players is not None:
            players_name = safe_name(players.filename, "players")
            players_file = InputFile(players_name, read_upload(players, self.limits["players"]))
        request = RateRequest(
            inputs=(event_file,),
            out_dir=ZipOutput(),
            players=players_file,
            options=RateOptions(rules=rules, period=period),
            # The pages render the report model; the event page shows the norms, report or not.
            outputs=RateOutputs(report=True, norms=True),
        )
        try:
            result = rate(request)
        except InputError as exc:
            listed = [_problem_shown(problem) for problem in problems_listed(exc.problems)]
            return self.page(
                "problems.html",
                422,
                name=_at_fault(listed, name),
                headline=exc.headline,
                problems=listed,
            )
        except FiderateError as exc:
            return self.problem_page(422, "Not rated", _words(str(exc)))
        files = tuple(p.as_posix() for p in result.files.written)
        rated = result.rated
        # The run summary of ``rate --json`` (writers.summary), its texts in the form's words.
        summary = summary_data(rated, result.files)
        for key in ("period_reason", "rules_reason"):
            summary[key] = _words(summary[key])
        for key in ("warnings", "notes"):
            summary[key] = [_words(text) for text in summary[key]]
        summary["players_name"] = "" if players_file is None else players_file.name
        finished = FinishedRun(
            name=name,
            summary=summary,
            view=result.report,
            norms=_norms(rated, name),
            zip_bytes=result.files.archive or b"",
            files=files,
        )
        token = self.runs.add(finished)
        return RedirectResponse(f"/event/{token}", status_code=303)

    def _run(self, request: Request) -> FinishedRun:
        run = self.runs.get(request.path_params["token"])
        if run is None:
            raise HTTPException(404, "no such rated event here (the server keeps the last ones)")
        return run

    async def event(self, request: Request) -> Response:
        from pipeline.web.report_slices import standings_rows

        run = self._run(request)
        rows = standings_rows(run.view)
        return self.page("event.html", run=run, rows=rows, token=request.path_params["token"])

    async def player(self, request: Request) -> Response:
        from pipeline.web.report_slices import player_slice

        run = self._run(request)
        # ``?id=``: the links' form, since an id is the organiser's text ("..", "a/../b") and a
        # path segment of dots is resolved away by the browser; the path form for plain ids.
        player_id = request.query_params.get("id", request.path_params.get("player", ""))
        calc = player_slice(run.view, player_id)
        if calc is None:
            raise HTTPException(404, "no such player in this event")
        return self.page("player.html", run=run, p=calc, token=request.path_params["token"])

    async def outputs(self, request: Request) -> Response:
        run = self._run(request)
        stem = safe_name(Path(run.name).stem, "event")
        return Response(
            run.zip_bytes,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{stem}-fiderate.zip"'},
        )

    # -- history ---------------------------------------------------------------------------

    async def history_home(self, request: Request) -> Response:
        if self.history is None:
            raise HTTPException(404, "started without --history: no history database")
        found = await run_in_threadpool(history_pages.overview, self.history)
        return self.page("history.html", found.pop("status", 200), **found)

    async def history_player(self, request: Request) -> Response:
        q = request.query_params
        player_id, kind = q.get("id", "").strip()[:40], q.get("kind", "").strip()[:10]
        return await self._history_page(
            "history_player.html", history_pages.player, self._history_db(), player_id, kind
        )

    async def history_calculation(self, request: Request) -> Response:
        q = request.query_params
        player_id, period = q.get("id", "").strip()[:40], q.get("period", "").strip()[:7]
        return await self._history_page(
            "history_calculation.html",
            history_pages.calculation,
            self._history_db(),
            player_id,
            period,
            q.get("kind", "").strip()[:10],
        )

    async def history_search(self, request: Request) -> Response:
        query = request.query_params.get("q", "")[:SEARCH_CHARS]
        return await self._history_page(
            "history_search.html", self._history_found, self._history_db(), query
        )

    def _history_found(self, database: Path, query: str) -> dict[str, Any]:
        """The history's search, answered with the rating site's (its rule, and the index the
        server keeps for the database as it is: a search costs a few milliseconds where reading
        the newest list of each kind per request cost seconds at FIDE's scale)."""
        from pipeline.site.history_data import SiteData
        from pipeline.site.name_search import trimmed

        if not trimmed(query):
            return history_pages.search(query)
        self.site_indexed.wait(SITE_WARM_WAIT)
        try:
            if database.is_file():  # else SiteData.open says what is wrong
                self._site_state(database)
            data = SiteData.open(database, self.site_frames[1])
        except FiderateError as exc:
            context = history_pages.search(query)
            del context["error"]
            return history_pages.failed(exc, **context)
        try:
            return history_pages.search(query, data.find_players(query), data.kinds())
        finally:
            data.close()

    def _history_db(self) -> Path:
        if self.history is None:
            raise HTTPException(404, "started without --history: no history database")
        return self.history

    async def _history_page(self, template: str, build: Any, *args: Any) -> Response:
        """A history page: its context built by ``history_pages`` (its status: 404 when the
        history does not hold what was asked, 503 when it cannot be read), rendered."""
        found = await run_in_threadpool(build, *args)
        return self.page(template, found.pop("status", 200), **found)

    # -- the rating site (pipeline/site): the static site's pages, served live ---------------

    async def site_page(self, request: Request) -> Response:
        address = request.path_params.get("address", "") or "index.html"
        if request.query_params.get("format") == "json" and address.endswith(".html"):
            address = address.removesuffix(".html") + ".json"
        # The search trims and cuts the query itself (name_search.trimmed, as search.js does).
        query = request.query_params.get("q", "")[:SEARCH_CHARS] if "search" in address else ""
        found = await run_in_threadpool(self._site_bytes, self._history_db(), address, query)
        if found is None:
            raise HTTPException(404, "no such page on the rating site")
        body, media = found
        return Response(body, media_type=media)

    def warm_site(self) -> None:
        """Decode the latest list of each kind, for the site's pages (a thread started with
        the server): at FIDE's scale that takes seconds, which the first profile or top list
        would otherwise wait for; the site's templates compiled too. The search index is built
        beside it (:meth:`warm_search`): a search waits for that alone."""
        from pipeline.site.render import TEMPLATES, environment
        from pipeline.site.site_files import page_bytes  # noqa: F401 - imported before a page

        def latest_lists(data: SiteData) -> None:
            for kind in data.kinds():
                latest = data.latest(kind)
                if latest is not None:
                    data.frame(latest)
            for template in TEMPLATES.values():  # compiled once, before the first page
                environment().get_template(template)

        self._warm(latest_lists, self.site_warm)

    def warm_search(self) -> None:
        """Build the search index of every player with a profile (a thread started with the
        server, beside :meth:`warm_site`): it reads only the search's columns of the lists
        (:meth:`SiteData.search_rows`), never waiting for the pages' whole lists."""
        self._warm(lambda data: data.search_index(), self.site_indexed)

    def _warm(self, step: Callable[[SiteData], object], done: threading.Event) -> None:
        """One warm-up ``step`` over the history's site data, then ``done`` set whatever
        happened: a request reading the history says what is wrong, not the warm-up."""
        from pipeline.site.history_data import SiteData

        try:
            if self.history is None or not self.history.is_file():
                return
            self._site_state(self.history)
            data = SiteData.open(self.history, self.site_frames[1])
            try:
                step(data)
            finally:
                data.close()
        except Exception:  # noqa: BLE001 - a request reading the history says what is wrong
            pass
        finally:
            done.set()

    def _site_state(self, database: Path) -> None:
        """Keep the decoded lists and answers for the database file as it is now."""
        stat = database.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        if self.site_frames[0] != key:  # another database state: lists decoded afresh
            self.site_frames = (key, {})
            self.site_answers.clear()

    def _site_bytes(self, database: Path, address: str, query: str) -> tuple[bytes, str] | None:
        """The site's file at ``address``, built from the history (a worker thread)."""
        from pipeline.site.history_data import SiteData
        from pipeline.site.site_files import page_bytes

        (self.site_indexed if query else self.site_warm).wait(SITE_WARM_WAIT)
        self._site_state(database)
        if query:  # a search is answered afresh (its index is kept with the lists)
            data = SiteData.open(database, self.site_frames[1])
            try:
                return page_bytes(data, address, "live", query)
            finally:
                data.close()
        if address in self.site_answers:  # the same database state: the same bytes
            self.site_answers.move_to_end(address)
            return self.site_answers[address]
        data = SiteData.open(database, self.site_frames[1])
        try:
            found = page_bytes(data, address, "live")
        finally:
            data.close()
        if found is not None and len(found[0]) <= SITE_ANSWER_BYTES:
            self.site_answers[address] = found
            while len(self.site_answers) > SITE_ANSWERS:
                self.site_answers.popitem(last=False)
        return found

    # -- errors ----------------------------------------------------------------------------

    async def not_found(self, request: Request, exc: Exception) -> Response:
        detail = getattr(exc, "detail", "") or "no such page"
        status = getattr(exc, "status_code", 404)
        return self.problem_page(status, "Not found" if status == 404 else "Error", str(detail))

    async def failed(self, request: Request, exc: Exception) -> Response:
        return self.problem_page(
            500,
            "Internal error",
            f"something went wrong ({type(exc).__name__}); nothing was kept. Please report it.",
        )


def _settings(form: Any) -> tuple[str | None, str, list[str]]:
    """The form's rating period and rules, and what is wrong with them: a value the page did
    not offer is refused, naming its field, never replaced by another."""
    from pipeline.errors import UsageError
    from pipeline.rules.periods import resolve_period

    refused = []
    period = str(form.get("period") or "").strip() or None
    if period is not None and len(period) > SETTING_CHARS:
        refused.append(f"Rating period (period): must be YYYY-MM, e.g. 2026-11 (got "
                       f"{period[:SETTING_CHARS]!r}..., {len(period):,} characters)")  # fmt: skip
    elif period is not None:
        try:
            period = resolve_period(period)
        except UsageError as exc:
            refused.append("Rating period (period): " + str(exc).removeprefix("--period "))
    rules = str(form.get("rules") or "standard")
    if rules not in RULE_CHOICES:
        refused.append(
            f"Rules (rules): {rules[:SETTING_CHARS]!r} is not one of {', '.join(RULE_CHOICES)}"
        )
    return period, rules, refused


def _at_fault(problems: list[dict[str, Any]], event: str) -> str:
    """The file(s) the problems are in, for the page's heading ("players.csv", "games.csv and
    players.csv"); the event's name when no problem names a file."""
    files = list(dict.fromkeys(str(p["file"]) for p in problems if p.get("file")))
    return " and ".join(files) or event


def _words(text: str) -> str:
    """A message for the browser: the upload form's words for the CLI's options
    (``errors.in_face``). An upload is named by its safe name only: nothing of it is on disk,
    so no message holds a path of the server's."""
    return in_face(text, "web")


def _problem_shown(problem: dict[str, Any]) -> dict[str, Any]:
    """One problem as the problems page lists it: in the form's words, its value quoted as the
    console quotes it (``errors.quoted``: '25OO', not 25OO read as 2500)."""
    return {
        **problem,
        "message": _words(str(problem["message"])),
        "fix": _words(str(problem["fix"])),
        "value": quoted(problem["value"]),
    }


def _norms(rated: RatedPeriod, name: str) -> dict[str, Any]:
    """The title norms of the event, as the rate job checked them (``RatedPeriod.norms``, from
    the same read as the ratings), or why there are none to show."""
    from pipeline.jobs.norms import no_norm_data

    report = rated.norms
    if report is None:
        if rated.norm_sources is None:  # a games or individual file: no event to check
            note = (
                f"{name}: title norms are checked for event files that give the event and its "
                "players (a TRF, a crosstable), not for a table of games"
            )
        else:
            note = _words(no_norm_data(name))
        return {"rows": [], "note": note}
    keep = ["name", "id", "title", "norm", "result", "games", "ra", "score", "performance"]
    rows = report.table[keep].astype(str).to_dict("records") if len(report.table) else []
    return {"rows": rows, "note": "", "to_confirm": list(report.to_confirm)}


def create_app(
    history: Path | None = None,
    max_upload_bytes: int | None = None,
    hosts: AllowedHosts | None = None,
    jobs: JobSlots | None = None,
) -> Starlette:
    """The application; ``history``: the database of ``fiderate period`` shown read-only;
    ``hosts``: the names it answers to (default: this computer's, as ``fiderate serve`` on
    127.0.0.1); ``jobs``: how many uploads rate at once and queue."""
    # ``max_upload_bytes``: one limit for both files (the tests' small server)
    event_bytes, list_bytes = (
        (EVENT_BYTES, LIST_BYTES) if max_upload_bytes is None else (max_upload_bytes,) * 2
    )
    pages = Pages(history, event_bytes, list_bytes, jobs or JobSlots())
    hosts = hosts or AllowedHosts.served("127.0.0.1")
    routes = [
        Route("/", pages.home),
        Route("/calc", pages.calc),
        Route("/api/calc", pages.calc_api),
        Route("/rate", pages.rate_form, methods=["GET"]),
        Route("/rate", pages.rate_upload, methods=["POST"]),
        Route("/event/{token}", pages.event),
        Route("/event/{token}/player", pages.player),
        # ``path``: an id may hold a "/" (a club's own ids in a games file).
        Route("/event/{token}/player/{player:path}", pages.player),
        Route("/event/{token}/outputs.zip", pages.outputs),
        Route("/history", pages.history_home),
        Route("/history/player", pages.history_player),
        Route("/history/calculation", pages.history_calculation),
        Route("/history/search", pages.history_search),
        Route("/site", lambda request: RedirectResponse("/site/index.html")),
        Route("/site/{address:path}", pages.site_page),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if history is not None:  # the site's lists decoded while the server starts answering
            pages.site_warm.clear()
            pages.site_indexed.clear()
            if history.is_file():  # one dict of lists for both threads, made before them
                pages._site_state(history)
            for name, warm in (("site-search-index", pages.warm_search),
                               ("site-warm-up", pages.warm_site)):  # fmt: skip
                threading.Thread(target=warm, name=name, daemon=True).start()
        yield

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, hosts=hosts, refuse=pages.refusal)],
        exception_handlers={HTTPException: pages.not_found, Exception: pages.failed},
    )
    app.state.pages = pages
    return app
