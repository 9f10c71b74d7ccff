"""The import graph of ``pipeline/``: every module imports in a fresh process, no module takes
part in an import cycle, and data flows one way (readers -> engine -> grouper -> writers, the
FIDE list rules beside them, the period's history store above, the jobs and the calculator on
top and the CLI last).

The graph is read from the source (``ast``): every ``import`` of a pipeline module, also those
inside functions, is an edge to the most specific module it names.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pipeline"

# A module may import modules of its own layer or of a lower one, never of a higher one.
LAYERS = {
    # Layer 0 imports nothing above it: rules as data, the error catalogue, helpers. The stage
    # values (model) sit above them, so a rule that reaches for a stage value fails here.
    "errors": 0,
    "problem_list": 0,  # problems collected in bounded memory (readers and engine)
    "file_names": 0,  # how reports name input files (by name, not path)
    "rules": 0,  # the FIDE rules as data and the words that name them
    "keys": 0,
    "arrays": 0,
    "resources": 0,
    "lazy": 0,  # the packages' import-on-first-use helper
    "model": 1,  # the stage values
    "planning": 2,  # the run's plan (era, period, scale) from the options and the events' dates
    "readers": 2,
    "engine": 3,
    "grouper": 4,
    "norms": 4,  # title norms of rated events: engine sides, grouper performance
    "lists": 4,  # FIDE's rules of a new list: pure computation on totals, no storage, no files
    # The report model: what a rated event shows, built from the engine's sides, the grouper's
    # totals and the norms; every face (writers, web) renders it, so it imports none of them.
    "report": 5,
    "writers": 6,
    "history": 7,  # the period's SQLite store: imports lists' rules, never the jobs
    "calculator": 7,  # single-player arithmetic; the calculator jobs (jobs/calculators.py) call it
    "jobs": 8,  # one function per command, and the stage functions the jobs share
    # The rating site (pages, and the `fiderate site` job that writes them) reads through the
    # history jobs: a face beside the web pages, above the jobs.
    "site": 9,
    "web": 9,  # fiderate serve: pages on the jobs, as the CLI (jobs only, never a stage)
    "cli": 10,
    "": 11,  # pipeline/__init__.py: the public API
    "__main__": 11,
}


def module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    def resolve(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {resolve(a.name) for a in node.names if a.name.startswith("pipeline")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipeline"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in modules else resolve(node.module or ""))
        graph[name] = targets - {name, ""}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_pipeline():
    assert cycles(import_graph(module_files())) == []


def test_data_flows_one_way():
    graph = import_graph(module_files())
    upward = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        for target in sorted(targets)
        if LAYERS[layer(target)] > LAYERS[layer(module)]
    ]
    assert upward == []


def test_jobs_write_through_the_writers_front_door():
    """A job writes with what ``pipeline/writers/__init__.py`` offers, never a writer's internals
    (the period's outputs once reached into csvtext, fide_txt and xlsx)."""
    graph = import_graph(module_files())
    inside = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "jobs"
        for target in sorted(targets)
        if layer(target) == "writers" and target != "pipeline.writers"
    ]
    assert inside == []


# The CLI reaches the library through the jobs only: a command builds a job's request and
# renders its result (issue 27). It may import the rendering modules, the errors, the option
# values (model) and the rule sets (option choices), but not the stages the jobs run.
BELOW_THE_JOBS = ("engine", "grouper", "readers")


def cli_past_the_jobs(graph: dict[str, set[str]]) -> list[str]:
    """Edges from a module of ``pipeline.cli`` to a stage the jobs run."""
    return [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "cli"
        for target in sorted(targets)
        if layer(target) in BELOW_THE_JOBS
    ]


def test_the_cli_check_finds_a_command_that_skips_the_jobs():
    graph = {
        "pipeline.cli.rate": {"pipeline.jobs.rate", "pipeline.engine.sides"},
        "pipeline.cli.options": {"pipeline.readers.events.crosstable_columns"},
        "pipeline.jobs.rate.stages": {"pipeline.engine.sides"},  # a job may
    }
    assert cli_past_the_jobs(graph) == [
        "pipeline.cli.options -> pipeline.readers.events.crosstable_columns",
        "pipeline.cli.rate -> pipeline.engine.sides",
    ]


def test_the_cli_imports_jobs_never_the_stages():
    assert cli_past_the_jobs(import_graph(module_files())) == []


def test_the_web_pages_import_jobs_never_the_stages():
    """``pipeline.web`` calls the same job functions as the CLI (issue 28)."""
    graph = import_graph(module_files())
    found = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "web"
        for target in sorted(targets)
        if layer(target) in BELOW_THE_JOBS
    ]
    assert found == []


def test_every_layer_is_known():
    assert {layer(m) for m in module_files()} <= set(LAYERS)


IMPORT_EACH = """
import importlib, sys, traceback
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:
        print(name, traceback.format_exc(limit=3))
"""


def test_every_module_imports_in_a_fresh_process():
    """One fresh interpreter imports every module (none is imported before the test starts);
    without cycles the order cannot hide a failure."""
    modules = sorted(set(module_files()) - {"pipeline.__main__"})
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EACH, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, ""), done.stderr


def test_writers_import_no_stage_that_computes():
    """Writers format and write (issue 27): the standings, performance and title norms they show
    are computed by a stage before (``grouper.standings``, ``pipeline.norms``, the output stage
    ``jobs.rate.outputs``), so no module under pipeline/writers imports the engine, the grouper
    or the norm check, not even inside a function."""
    graph = import_graph(module_files())
    computing = {"engine", "grouper", "norms"}
    found = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "writers"
        for target in sorted(targets)
        if layer(target) in computing
    ]
    assert found == []


def test_the_list_rules_read_no_files():
    """``pipeline.lists`` holds FIDE's rules of a new list, pure computation on frames: reading a
    list file is the readers' (``readers.lists.published_list``), so no list rule imports a
    reader or a file helper (``lists/list_file.py`` once read files inside the rules)."""
    graph = import_graph(module_files())
    found = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "lists"
        for target in sorted(targets)
        if layer(target) in {"readers", "resources", "writers"}
    ]
    assert found == []


def test_the_rules_import_only_rules():
    """``pipeline.rules`` is the FIDE rules as data and their words: it imports no other package
    of pipeline but the error catalogue (a bad option is a usage error), so the helpers beside
    it on layer 0 (``arrays`` formats numbers with the rounding rule) never form a circle with
    it (``rules/norm_labels.py`` once reached for an array helper to format its columns: the
    column-wise formatting now lives with its callers)."""
    graph = import_graph(module_files())
    found = [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        if layer(module) == "rules"
        for target in sorted(targets)
        if layer(target) not in {"rules", "errors"}
    ]
    assert found == []
