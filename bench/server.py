"""The benchmark's server: the production server plus the bench-only RPCs (bench/noop.py).

python -m bench.server --address 127.0.0.1:0 --workers 2   (prints "listening on HOST:PORT")
"""

from __future__ import annotations

import argparse
import logging

from bench.noop import bench_handlers
from crabgames.service.server import run_until_signalled, serve
from crabgames.service.workers import start_workers, supervise


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="127.0.0.1:0")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    host = args.address.rsplit(":", 1)[0]
    if args.workers > 1:
        workers, port, _reserved = start_workers(
            args.address, args.workers, args.threads, 0.5, bench_handlers()
        )
        announce = lambda: print(f"listening on {host}:{port}", flush=True)  # noqa: E731
        raise SystemExit(supervise(workers, announce))
    running = serve(args.address, args.threads, handlers=bench_handlers())
    run_until_signalled(
        running, 0.5, lambda: print(f"listening on {host}:{running.port}", flush=True)
    )


if __name__ == "__main__":
    main()
