"""Issue 34, item 2: "rate an event" runs a bounded number of jobs at once. Twenty honest
uploads at once all get their results (they queue), never more than ``RUNNING`` jobs hold an
event in memory together, and an upload past the queue is told to come back (503 with
``Retry-After``) before its body is read.

The rating job is the real one, wrapped to count how many run at once (and, for the full queue,
held at a gate the test opens).
"""

from __future__ import annotations

import threading

import pytest

from pipeline.web.app import create_app
from tests.web.conftest import local_client


class Counted:
    """The real ``rate`` job, counting the calls under way; each waits for ``gate``."""

    def __init__(self, rate) -> None:
        self.rate, self.now, self.most = rate, 0, 0
        self.lock = threading.Lock()
        self.gate = threading.Event()
        self.gate.set()
        self.started = threading.Semaphore(0)

    def __call__(self, request):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        self.started.release()
        try:
            assert self.gate.wait(60), "the test never opened the gate"
            return self.rate(request)
        finally:
            with self.lock:
                self.now -= 1


@pytest.fixture
def counted(monkeypatch):
    import pipeline.jobs.rate as rate_job

    wrapped = Counted(rate_job.rate)
    monkeypatch.setattr(rate_job, "rate", wrapped)
    return wrapped


# Two games: the test is about how many jobs run at once, not what they rate, and twenty sample
# events (each rated, its pages and norms built) cost the suite ten seconds more.
SMALL_EVENT = (
    b"event,round,date,white,black,result,white_rating,black_rating\n"
    b"Club,1,2026-11-03,a,b,1-0,1800,1700\nClub,2,2026-11-10,b,a,1/2-1/2,1700,1800\n"
)


def upload(client):
    files = {"event": ("games.csv", SMALL_EVENT)}
    return client.post("/rate", files=files, follow_redirects=False)


def at_once(client, n: int) -> list:
    answers: list = [None] * n

    def one(i: int) -> None:
        answers[i] = upload(client)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return answers


def test_twenty_uploads_at_once_all_succeed_two_rating_at_a_time(counted):
    from pipeline.web.job_slots import RUNNING

    with local_client(create_app(), raise_server_exceptions=False) as client:
        counted.gate.clear()  # the first jobs wait until every upload has arrived
        threads = threading.Thread(target=lambda: answers.extend(at_once(client, 20)))
        answers: list = []
        threads.start()
        for _ in range(RUNNING):
            assert counted.started.acquire(timeout=60)
        counted.gate.set()
        threads.join(300)
    assert [a.status_code for a in answers] == [303] * 20
    assert len({a.headers["location"] for a in answers}) == 20
    assert counted.most <= RUNNING


def test_an_upload_past_the_queue_is_told_to_retry(counted):
    from pipeline.web.job_slots import JobSlots

    with local_client(create_app(jobs=JobSlots(running=1, waiting=0))) as client:
        counted.gate.clear()
        first: list = []
        holder = threading.Thread(target=lambda: first.append(upload(client)))
        holder.start()
        assert counted.started.acquire(timeout=60)  # the only place is taken
        refused = upload(client)
        counted.gate.set()
        holder.join(120)
        assert refused.status_code == 503
        assert int(refused.headers["retry-after"]) > 0
        assert "nothing was read" in refused.text
        assert first[0].status_code == 303
        assert upload(client).status_code == 303  # the place is free again
    assert counted.most == 1
