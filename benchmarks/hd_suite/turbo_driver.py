#!/usr/bin/python3
"""TuRBO-1 (turbo1.py, a port of the authors' code) on one hd_suite function, for hd_suite --peers.

    /usr/bin/python3 turbo_driver.py --evaluations 300 --seed 1 -- \\
        hd_suite --serve rosenbrock20 --instance-seed 42

The function is evaluated by the command after "--" (hd_suite --serve, as for optuna_driver.py):
that command prints a JSON header line (dimension, bounds, direction), then answers each line of
numbers with the value. TuRBO-1 minimises on [0, 1]^D; the driver maps its points onto the box
and negates the values of a function to be maximised. This script prints the value of every
evaluation, in order, one per line on stdout; everything else (the restarts, the BLAS in use)
goes to stderr.
"""

import argparse
import json
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument(
        "--threads", type=int, default=1, help="torch's threads (0: torch's default; default 1)"
    )
    parser.add_argument(
        "--sampling",
        choices=["auto", "cholesky"],
        default="auto",
        help="auto: Cholesky up to 2000 candidates, Lanczos above, as the original; "
        "cholesky: always exact",
    )
    parser.add_argument("serve_command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.serve_command[1:] if args.serve_command[:1] == ["--"] else args.serve_command
    if not command:
        parser.error("the function server's command is missing after --")
    if args.evaluations < 1:
        parser.error("--evaluations must be at least 1")
    if args.threads < 0:
        parser.error("--threads must be at least 0")

    import turbo1  # imported late: --help works without torch; it picks the BLAS before torch

    import numpy as np
    import torch

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    print(
        "turbo1: torch %s, BLAS %s, %d threads"
        % (torch.__version__, turbo1.BLAS_DIRECTORY or "the system's", torch.get_num_threads()),
        file=sys.stderr,
    )
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    header = json.loads(server.stdout.readline())
    dimension = header["dimension"]
    lower, upper = float(header["lower"]), float(header["upper"])
    sign = 1.0 if header["direction"] == "minimize" else -1.0

    optimizer = turbo1.Turbo1(dimension, seed=args.seed, sampling=args.sampling)
    start = time.monotonic()
    best = None
    restarts = 0
    for evaluation in range(1, args.evaluations + 1):
        unit = optimizer.ask()
        if optimizer.restarts != restarts:
            restarts = optimizer.restarts
            print(
                "evaluation %d: restart %d (best so far %.10g, %.1f s)"
                % (evaluation, restarts, best, time.monotonic() - start),
                file=sys.stderr,
            )
        x = lower + (upper - lower) * np.clip(unit, 0.0, 1.0)
        server.stdin.write(" ".join(repr(float(v)) for v in x) + "\n")
        server.stdin.flush()
        value = float(server.stdout.readline())
        print(repr(value), flush=True)
        optimizer.tell(sign * value)
        best = value if best is None or sign * value < sign * best else best
    print(
        "turbo1: %d evaluations, %d restarts, best %.10g, %.1f s"
        % (args.evaluations, restarts, best, time.monotonic() - start),
        file=sys.stderr,
    )
    server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
