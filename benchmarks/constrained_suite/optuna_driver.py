#!/usr/bin/python3
"""Optuna's TPE with constraints_func on one constrained_suite problem, for --peers.

    /usr/bin/python3 optuna_driver.py --evaluations 200 --seed 1 -- \\
        constrained_suite --serve welded_beam --noise-seed 42

The problem is evaluated by the command after "--" (constrained_suite --serve), so that its
definition exists only in the C++ source: that command prints a JSON header line (variables,
direction, number of constraints), then answers each line of numbers with "ok VALUE C1 ... CK"
or "fail". A constraint is met when its value is at most 0 (Optuna's convention, which the
problems' constraints follow). A failed evaluation is told to Optuna as a failed trial. This
script prints every trial as "REPLY | X1 ... XD" on stdout; everything else goes to stderr.
"""

import argparse
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("serve_command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.serve_command[1:] if args.serve_command[:1] == ["--"] else args.serve_command
    if not command:
        parser.error("the problem server's command is missing after --")

    import optuna  # imported late: --help works without it
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    header = json.loads(server.stdout.readline())
    constraint_count = header["constraints"]

    def constraints(trial):
        # Met when <= 0; a trial without values (failed) counts as violating every constraint.
        return trial.user_attrs.get("constraints", [1.0] * constraint_count)

    sampler = optuna.samplers.TPESampler(
        seed=args.seed, constraints_func=constraints if constraint_count else None)
    study = optuna.create_study(direction="minimize" if header["minimize"] else "maximize",
                                sampler=sampler)
    for _ in range(args.evaluations):
        trial = study.ask()
        x = []
        for v in header["variables"]:
            if v["integer"]:
                x.append(float(trial.suggest_int(v["name"], int(v["lower"]), int(v["upper"]))))
            else:
                x.append(trial.suggest_float(v["name"], v["lower"], v["upper"]))
        server.stdin.write(" ".join(repr(v) for v in x) + "\n")
        server.stdin.flush()
        reply = server.stdout.readline().strip()
        print(reply + " | " + " ".join(repr(v) for v in x), flush=True)
        parts = reply.split()
        if parts[0] == "fail":
            study.tell(trial, state=TrialState.FAIL)
            continue
        trial.set_user_attr("constraints", [float(c) for c in parts[2:]])
        study.tell(trial, float(parts[1]))
    server.stdin.close()
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
