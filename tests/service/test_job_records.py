"""The jobs queued now are RQ's enqueue recorded once and replayed (service/job_queue.py's
RecordedEnqueue): the job in Redis must be the one RQ's own enqueue makes, and a worker
must run it."""

from __future__ import annotations

import uuid

import pytest
from rq import Queue, SimpleWorker
from rq.job import Job

from service.job_queue import FANOUT, RQJobQueue

RAN: list[tuple] = []


def remember(*args):
    """The job the worker runs below."""
    RAN.append(args)
    return len(args)


@pytest.fixture
def queue_name(redis):
    name = f"entrepot-records-{uuid.uuid4().hex[:8]}"
    yield name
    for key in redis.keys(f"rq:*{name}*") + redis.keys("rq:job:*-records-*"):
        redis.delete(key)
    redis.srem("rq:queues", f"rq:queue:{name}")


def test_a_replayed_job_is_the_job_rq_enqueues(redis, queue_name):
    ours = RQJobQueue(redis, queue_name)
    assert ours.enqueue_job(FANOUT, ("a-game", 7), "fanout-records-ours")
    assert ours.enqueue_job(FANOUT, ("another game", 12, "é"), "fanout-records-ours-2")  # replayed again
    Queue(queue_name, connection=redis).enqueue(FANOUT, "a-game", 7, job_id="fanout-records-rq", result_ttl=0,
                                                failure_ttl=24 * 3600, at_front=False)
    replayed, enqueued = redis.hgetall("rq:job:fanout-records-ours"), redis.hgetall("rq:job:fanout-records-rq")
    times = (b"created_at", b"enqueued_at")
    assert {k: v for k, v in replayed.items() if k not in times} == \
        {k: v for k, v in enqueued.items() if k not in times}
    assert set(replayed) == set(enqueued)
    assert redis.lrange(f"rq:queue:{queue_name}", 0, -1) == \
        [b"fanout-records-ours", b"fanout-records-ours-2", b"fanout-records-rq"]
    assert redis.sismember("rq:queues", f"rq:queue:{queue_name}")
    assert redis.ttl("rq:job:fanout-records-ours") == redis.ttl("rq:job:fanout-records-rq")
    second = Job.fetch("fanout-records-ours-2", connection=redis)
    assert (second.func_name, second.args, second.kwargs) == (FANOUT, ("another game", 12, "é"), {})
    assert second.description == f"{FANOUT}('another game', 12, 'é')"
    assert not redis.keys("*entrepot-sample-job*"), "the recording is never sent"


def test_a_worker_runs_a_replayed_job(redis, queue_name):
    RAN.clear()
    ours = RQJobQueue(redis, queue_name)
    func = f"{__name__}.remember"
    assert ours.enqueue_job(func, ("g", 3), "records-run-1")
    assert ours.enqueue_job(func, ("h", 4), "records-run-2")
    SimpleWorker([Queue(queue_name, connection=redis)], connection=redis).work(burst=True)
    assert RAN == [("g", 3), ("h", 4)]
    assert Job.fetch("records-run-2", connection=redis).return_value() == 2


def test_a_replayed_job_is_sent_as_redis_pys_pipeline_packs_it(redis, queue_name):
    """The replay packs the transaction itself (service/job_queue.py's RecordedEnqueue.packed):
    byte for byte what redis-py's pipeline packs for the same commands, job id and fields."""
    ours = RQJobQueue(redis, queue_name)
    assert ours.enqueue_job(FANOUT, ("a-game", 7), "fanout-records-packed")
    (recorded,) = ours._recorded.values()
    values = {"created_at": "2026-11-27T19:00:00.000001Z", "enqueued_at": "2026-11-27T19:00:00.000002Z",
              "data": b"\x00\xff zlib \r\n bytes", "description": "fan_out_game('é', 3)"}
    commands = []
    for command, (ids, fields) in zip(recorded.commands, recorded.slots):
        args = command.copy()
        for i in ids:
            args[i] = args[i].replace("entrepot-sample-job-never-sent", "a-job-é")
        for i, field in fields.items():
            args[i] = values[field]
        commands.append(args)
    assert any(ids for ids, _ in recorded.slots) and any(fields for _, fields in recorded.slots)
    connection = redis.connection_pool.get_connection()
    try:
        expected = b"".join(connection.pack_commands([["MULTI"], *commands, ["EXEC"]]))
    finally:
        redis.connection_pool.release(connection)
    assert recorded.packed("a-job-é", values) == expected


def test_a_refused_replay_is_an_error_and_the_next_one_is_answered(redis, queue_name):
    ours = RQJobQueue(redis, queue_name)
    assert ours.enqueue_job(FANOUT, ("a-game", 1), "fanout-records-before")
    redis.delete(f"rq:queue:{queue_name}")
    redis.set(f"rq:queue:{queue_name}", "not a list")  # the push (RPUSH) is refused inside EXEC
    assert not ours.enqueue_job(FANOUT, ("a-game", 2), "fanout-records-refused")
    redis.delete(f"rq:queue:{queue_name}")
    assert ours.enqueue_job(FANOUT, ("a-game", 3), "fanout-records-after")  # its answers are its own
    assert redis.lrange(f"rq:queue:{queue_name}", 0, -1) == [b"fanout-records-after"]
    assert redis.hget("rq:job:fanout-records-after", "status") == b"queued"


def test_the_fanouts_keep_no_result_other_short_jobs_keep_theirs_a_minute(redis, queue_name):
    """A fan-out's outcome is its game's progress in PostgreSQL: RQ keeps none of it (a
    result kept is a stream entry and a registry write a command); a mail job's outcome
    stays a minute, for `rq info`."""
    from service.job_queue import MAIL_NOTIFICATION, MESSAGE_FANOUT

    ours = RQJobQueue(redis, queue_name)
    assert ours.enqueue_job(FANOUT, ("g", 3), "fanout-records-g-3")
    assert ours.enqueue_job(MESSAGE_FANOUT, ("g", 1), "fanout-records-message-g-1")
    assert ours.enqueue_job(MAIL_NOTIFICATION, (7,), "mail-records-7")
    kept = {job_id: redis.hget(f"rq:job:{job_id}", "result_ttl")
            for job_id in ("fanout-records-g-3", "fanout-records-message-g-1", "mail-records-7")}
    assert kept == {"fanout-records-g-3": b"0", "fanout-records-message-g-1": b"0", "mail-records-7": b"60"}


def test_a_worker_writes_rqs_heartbeat_of_its_key_at_most_once_a_second(redis, queue_name):
    """RQ beats three times a job, three round trips each; ours skips a beat within a second
    of the last, never one that carries a job's own time (a pipeline or a timeout)."""
    from datetime import timedelta

    from workers.__main__ import EntrepotWorker

    worker = EntrepotWorker([Queue(queue_name, connection=redis)], connection=redis,
                            name=f"records-beat-{queue_name}")
    try:
        worker.heartbeat()
        first = redis.hget(worker.key, "last_heartbeat")
        assert first is not None
        worker.heartbeat()  # within the second: skipped
        assert redis.hget(worker.key, "last_heartbeat") == first
        with redis.pipeline() as pipe:  # with a job's pipeline: RQ's, always written
            worker.heartbeat(pipeline=pipe)
            pipe.execute()
        second = redis.hget(worker.key, "last_heartbeat")
        assert second != first
        worker.last_heartbeat -= timedelta(seconds=2)  # a second later
        worker.heartbeat()
        assert redis.hget(worker.key, "last_heartbeat") not in (None, second)
    finally:
        redis.delete(worker.key, worker.executions_key)
