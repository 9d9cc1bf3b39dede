#!/usr/bin/python3
"""Optuna's TPE or CMA-ES sampler on one hd_suite function, for hd_suite --peers.

    /usr/bin/python3 optuna_driver.py --sampler tpe --evaluations 300 --seed 1 -- \\
        hd_suite --serve rosenbrock20 --instance-seed 42

The function is evaluated by the command after "--" (hd_suite --serve), so that its definition
exists only in the C++ source: that command prints a JSON header line (dimension, bounds,
direction), then answers each line of numbers with the value. This script prints the value of
every trial, in order, one per line on stdout; everything else goes to stderr.
"""

import argparse
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sampler", choices=["tpe", "cmaes"], required=True)
    parser.add_argument("--evaluations", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("serve_command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.serve_command[1:] if args.serve_command[:1] == ["--"] else args.serve_command
    if not command:
        parser.error("the function server's command is missing after --")

    import optuna  # imported late: --help works without it

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    header = json.loads(server.stdout.readline())
    dimension, lower, upper = header["dimension"], header["lower"], header["upper"]

    def objective(trial):
        x = [trial.suggest_float("x%d" % i, lower, upper) for i in range(dimension)]
        server.stdin.write(" ".join(repr(v) for v in x) + "\n")
        server.stdin.flush()
        value = float(server.stdout.readline())
        print(repr(value), flush=True)
        return value

    if args.sampler == "tpe":
        sampler = optuna.samplers.TPESampler(seed=args.seed)
    else:
        sampler = optuna.samplers.CmaEsSampler(seed=args.seed)
    study = optuna.create_study(direction=header["direction"], sampler=sampler)
    study.optimize(objective, n_trials=args.evaluations)
    server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
