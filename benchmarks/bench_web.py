"""``fiderate serve`` (issue 28): the real server in a process of its own, measured over HTTP on
loopback, each figure next to its baseline measured in the same run:

- the calculator's JSON request (``/api/calc``, five games: the page's every-keystroke call)
  against a static file from the same server (the round trip alone); target < 50 ms a request;
- rating the 283-player TRF (../shared/trf/karl-mala-2005.trf) as an upload (the results page,
  every player's calculation, the norms and the zip of every output) against ``fiderate rate``
  of the same file in a fresh process (start-up included, as a user waits for it); target
  within 1.5x. Skipped, saying so, when ../shared is absent.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVENT = ROOT.parent / "shared" / "trf" / "karl-mala-2005.trf"
CALC = "/api/calc?r=1650&o=1800&s=1&o=1720&s=0.5&o=1910&s=0&o=1580&s=1&o=2050&s=0.5"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return answer.read()


def _upload(url: str, path: Path) -> bytes:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="event"; filename="{path.name}"'
            "\r\nContent-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + path.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(url + "/rate", data=body, method="POST")
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    with urllib.request.urlopen(request, timeout=300) as answer:  # follows the 303
        return answer.read()


def _per_request_ms(url: str, count: int) -> float:
    """The median time of ``count`` requests, in milliseconds."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        _get(url)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _start() -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            _get(url + "/")
            return server, url
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("fiderate serve did not start") from None
            time.sleep(0.1)


def main(quick: bool) -> None:
    server, url = _start()
    try:
        count = 20 if quick else 100
        _get(url + CALC)  # the first request imports the calculator
        static = _per_request_ms(url + "/static/style.css", count)
        calc = _per_request_ms(url + CALC, count)
        print(f"calculator request (median of {count}); target < 50 ms")
        print(f"  {'GET /static/style.css (the round trip)':<44} {static:8.1f} ms")
        mark = "ok" if calc < 50 else "over 50 ms"
        print(f"  {'GET /api/calc (5 games)':<44} {calc:8.1f} ms  {calc / static:5.1f}x  {mark}")
        if not EVENT.is_file():
            print(f"skipped the upload: {EVENT} is absent (../shared is not here)")
            return
        repeat = 1 if quick else 3
        cli_best = web_best = float("inf")
        _upload(url, EVENT)  # the first upload imports the pipeline, as rate's start-up does
        for _ in range(repeat):  # interleaved: the machine's load hits both alike
            with tempfile.TemporaryDirectory() as out:
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "pipeline", "rate", str(EVENT), "--out", out, "-q"],
                    cwd=ROOT,
                    check=True,
                    capture_output=True,  # its warnings about the 2005 rules, as the page shows
                )
                cli_best = min(cli_best, time.perf_counter() - start)
            start = time.perf_counter()
            _upload(url, EVENT)
            web_best = min(web_best, time.perf_counter() - start)
        ratio = web_best / cli_best
        print(f"rating {EVENT.name} (283 players, best of {repeat}); target within 1.5x")
        print(f"  {'fiderate rate (fresh process)':<44} {cli_best:8.2f} s")
        mark = "ok" if ratio <= 1.5 else "over 1.5x"
        print(f"  {'upload to fiderate serve (results page)':<44} {web_best:8.2f} s "
              f"{ratio:5.2f}x  {mark}")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=30)
