"""What a Redis command costs the API's CPU: sent and its answer waited for (``Wire.call``,
a round trip) against only sent (``Wire.send``, on the quiet connection), in turns on one
thread, against the machine's Redis (REDIS_URL, else 127.0.0.1:6379/0).

    python bench/redis_wire.py [--commands 20000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis import Redis  # noqa: E402

from service.redis_wire import Wire  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    wire = Wire(redis)
    key = f"entrepot-bench-wire:{uuid.uuid4().hex}"
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.commands} ZADD NX a round, one thread")
    try:
        wire.call("PING")
        wire.send("PING")
        for n in range(args.rounds):
            for name, command in (("sent, answer read (call)", wire.call), ("only sent (send)", wire.send)):
                start = time.process_time()
                for i in range(args.commands):
                    command("ZADD", key, "NX", i, f"game-{i % 100}")
                cpu = (time.process_time() - start) / args.commands
                print(f"round {n + 1}: {name}: {cpu * 1e6:.1f} us of CPU a command")
    finally:
        time.sleep(0.2)  # the last sent commands processed before the key goes
        redis.delete(key)
        wire.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
