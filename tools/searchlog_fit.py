#!/usr/bin/env python3
"""Fit the chance that searching on changes the move, from `sandglass searchlog` CSVs (issue 88,
step 2 of 4).

Every soft-stop rule guesses whether another iteration would change the move played, and what
that change would be worth. The log records both for each completed iteration of a search run
deeper than play would (docs/searchlog.md). This script fits two logistic regressions on the
same features, each the probability of one outcome:

- `next`: the next completed iteration plays another move (rows whose search ended without a
  next iteration are left out). This is the question a soft stop asks after each iteration.
- `final`: the deep search's last iteration plays another move (the log's `changed`), the
  question "will searching on, however long, change my mind?".

And, for each, the worth of a change in centipawns among the rows where it happened, both moves
scored by the same search at the final depth (`gain_cp`; a change to `next` is worth
gain(d) − gain(d + 1), since gain counts from the final move). A negative gain is two searches
of one table disagreeing (docs/searchlog.md), and counts as no gain; one above ten pawns
counts as ten. The expected gain of
searching on is the probability times the mean worth.

The model (logistic regression, fitted by Newton's method, that is iteratively reweighted
least squares, with a small ridge penalty that only keeps the normal equations solvable; see
Hastie, Tibshirani and Friedman, "The Elements of Statistical Learning", 2nd ed., section
4.4.1): P(change) = 1 / (1 + exp(−(c0 + Σ c_i · x_i))), over the features of `FEATURES`,
all of them known to the time manager when an iteration ends and none of them a clock
reading, so the fit holds on any machine.

Positions, not rows, are split: every `--holdout`-th position (by its `pos` number) is held out,
since the iterations of one search are not independent. The report gives, on the training and
the held-out positions, the log-loss and Brier score of the model against a constant model
(the training rows' base rate), and a reliability table on the held-out rows: rows binned by
the predicted probability, mean prediction against the share that changed.

    python3 tools/searchlog_fit.py LOG.csv... [--holdout 5] [--min-depth 4] [--json FILE]
        [--plans 100000,200000,300000] [--shipped]

It then replays the default soft stop (`2x` with the adjustments) and the `learned` rule of
src/time/soft.rs on the held-out searches at a few plans, nodes standing for time, with the
learned rule's κ chosen so that both spend the same on average, and compares what the moves
they would have played lose against the deep search's.

With `--shipped` it also scores the model the engine carries (src/time/soft.rs's coefficients and
worth, read from the source) on the same held-out rows and replays it at the same plans, so a
larger log shows whether the constants the games measured still hold, before they are replaced.

tools/test_searchlog_fit.py checks the fit on rows drawn from a known model and the scores on
hand-computed cases.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

from wdl_fit import logistic

# Each feature: its name, how it is read from a log row, and why it may matter.
FEATURES = (
    # Effort so far, machine-independent: deeper searches change their minds less.
    ("log2_nodes", lambda r: math.log2(max(_num(r, "nodes"), 1.0))),
    # Best-move changes, decayed as the adjustments read them: recent doubt.
    ("best_move_changes", lambda r: min(_num(r, "best_move_changes"), 8.0)),
    # Iterations in a row with the same move, capped: settled searches stay settled.
    ("stable_iterations", lambda r: min(_num(r, "stable_iterations"), 12.0)),
    # The best move's share of the nodes: a move the tree keeps refuting alternatives for.
    ("node_share", lambda r: _num(r, "node_share")),
    # The score's drop from the last iteration, clamped, in pawns: trouble found.
    ("score_drop", lambda r: max(-3.0, min(3.0, _num(r, "score_drop") / 100.0))),
    # How far the score moved over the last three iterations, in pawns.
    ("abs_trend3", lambda r: min(abs(_num(r, "score_trend3")), 300.0) / 100.0),
    # Choices: more legal moves, more to change to.
    ("log_legal_moves", lambda r: math.log(max(_num(r, "legal_moves"), 1.0))),
    # Game phase, 0 (bare kings and pawns) to 1 (all pieces).
    ("phase", lambda r: _num(r, "phase") / 24.0),
    # How decided the position is, in pawns, clamped: in a won position any winning move does.
    ("abs_score", lambda r: min(abs(_num(r, "score")), 1000.0) / 100.0),
)
TARGETS = ("next", "final")
RIDGE = 1e-6
MATE_CP = 31000
# The largest worth a change is counted at, in centipawns: beyond ten pawns (the clamp of
# abs_score) a gain is a won or lost position, and a few such gains, up to a mate score,
# would make the mean.
WORTH_CAP_CP = 1000.0


def _num(row, key):
    """A log field as a float; an empty field (not yet defined at that iteration) is 0."""
    text = row.get(key, "")
    return float(text) if text not in ("", None) else 0.0


def read_log(paths):
    """The log's rows, grouped by search: a list of (file index, pos) keyed lists of rows in
    depth order. A missing column or a field that is not a number ends the run with one line."""
    required = {"pos", "depth", "best", "score", "changed", "gain_cp", "final_score"} | {
        "nodes", "best_move_changes", "stable_iterations", "node_share", "score_drop",
        "score_trend3", "legal_moves", "phase"}
    searches = {}
    for index, path in enumerate(paths):
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            missing = required - set(reader.fieldnames or ())
            if missing:
                raise ValueError(f"{path}: not a searchlog CSV (missing {', '.join(sorted(missing))})")
            for line, row in enumerate(reader, start=2):
                try:
                    key = (index, int(row["pos"]))
                    int(row["depth"])
                    for name, feature in FEATURES:
                        feature(row)
                    _num(row, "gain_cp")
                except (TypeError, ValueError) as error:
                    raise ValueError(f"{path}:{line}: {error}") from None
                searches.setdefault(key, []).append(row)
    for rows in searches.values():
        rows.sort(key=lambda r: int(r["depth"]))
    return searches


def examples(searches, target, min_depth=1):
    """(features, outcome, worth of the change, pos) for each usable row of each search.

    Rows whose score is a mate are left out: a forced line is played straight, and its moves
    change for reasons no stop rule needs to weigh."""
    out = []
    for (_, pos), rows in searches.items():
        for i, row in enumerate(rows):
            if int(row["depth"]) < min_depth or abs(_num(row, "score")) >= MATE_CP:
                continue
            gain = min(max(_num(row, "gain_cp"), 0.0), WORTH_CAP_CP)
            if target == "final":
                changed = row["changed"] == "1"
                worth = gain
            else:
                if i + 1 >= len(rows):
                    continue
                following = rows[i + 1]
                changed = following["best"] != row["best"]
                worth = max(gain - min(max(_num(following, "gain_cp"), 0.0), WORTH_CAP_CP), 0.0)
            out.append(([f(row) for _, f in FEATURES], 1 if changed else 0, worth, pos))
    return out


def _solve(matrix, vector):
    """x with matrix · x = vector, by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular normal equations")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_logistic(xs, ys, iterations=50, tolerance=1e-10):
    """Coefficients [c0, c1, …] of P(y = 1) = logistic(c0 + Σ c_i x_i), by Newton's method on the
    log-likelihood with a ridge of RIDGE on every coefficient but c0. Says so on stderr if the
    steps have not settled after `iterations` (outcomes a feature separates perfectly)."""
    k = len(xs[0]) + 1
    coefs = [0.0] * k
    rate = sum(ys) / len(ys)
    coefs[0] = math.log(rate / (1 - rate)) if 0 < rate < 1 else 0.0
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            row = [1.0] + x
            p = logistic(sum(c * v for c, v in zip(coefs, row)))
            w = p * (1 - p)
            for i in range(k):
                grad[i] += (y - p) * row[i]
                wi = w * row[i]
                for j in range(i, k):
                    hess[i][j] += wi * row[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
            if i:
                grad[i] -= RIDGE * len(xs) * coefs[i]
                hess[i][i] += RIDGE * len(xs)
        step = _solve(hess, grad)
        coefs = [c + s for c, s in zip(coefs, step)]
        if max(abs(s) for s in step) < tolerance:
            return coefs
    print(f"searchlog_fit: warning: Newton's method did not settle in {iterations} steps", file=sys.stderr)
    return coefs


def predict(coefs, x):
    return logistic(coefs[0] + sum(c * v for c, v in zip(coefs[1:], x)))


def log_loss(probs, ys):
    """Mean negative log-likelihood in nats, probabilities kept within [1e-12, 1 − 1e-12]."""
    total = 0.0
    for p, y in zip(probs, ys):
        p = min(max(p, 1e-12), 1 - 1e-12)
        total -= math.log(p) if y else math.log(1 - p)
    return total / len(ys)


def brier(probs, ys):
    return sum((p - y) ** 2 for p, y in zip(probs, ys)) / len(ys)


def reliability(probs, ys, bins=10):
    """(lower edge, rows, mean prediction, observed share) for each non-empty bin of width 1/bins."""
    cells = [[0, 0.0, 0] for _ in range(bins)]
    for p, y in zip(probs, ys):
        cell = cells[min(int(p * bins), bins - 1)]
        cell[0] += 1
        cell[1] += p
        cell[2] += y
    return [(i / bins, n, s / n, c / n) for i, (n, s, c) in enumerate(cells) if n]


def evaluate(coefs, rate, data):
    ys = [y for _, y, _, _ in data]
    probs = [predict(coefs, x) for x, _, _, _ in data]
    constant = [rate] * len(ys)
    return {
        "rows": len(ys),
        "changed": sum(ys),
        "log_loss": log_loss(probs, ys),
        "log_loss_constant": log_loss(constant, ys),
        "brier": brier(probs, ys),
        "brier_constant": brier(constant, ys),
        "reliability": reliability(probs, ys),
    }


def fit_target(searches, target, holdout, min_depth):
    data = examples(searches, target, min_depth)
    train = [e for e in data if holdout <= 1 or e[3] % holdout != 0]
    held = [e for e in data if holdout > 1 and e[3] % holdout == 0]
    ys = [y for _, y, _, _ in train]
    if not train or sum(ys) in (0, len(ys)):
        raise ValueError(f"{target}: the training rows need both outcomes ({len(ys)} rows, {sum(ys)} changed)")
    coefs = fit_logistic([x for x, _, _, _ in train], ys)
    rate = sum(ys) / len(ys)
    worths = [w for _, y, w, _ in train if y]
    report = {
        "target": target,
        "features": ["intercept"] + [name for name, _ in FEATURES],
        "coefficients": coefs,
        "base_rate": rate,
        "mean_worth_cp": sum(worths) / len(worths),
        "train": evaluate(coefs, rate, train),
    }
    if held:
        report["held_out"] = evaluate(coefs, rate, held)
    return report


SOFT_STOP_ALLOWANCE = 1.43  # src/time/budget.rs: soft = plan × this
NEXT_DEPTH_FACTOR = 2.0  # src/time/soft.rs: the next depth costs F × the last
MAX_SCALE = 2.5  # src/time/adjust.rs: the most the adjustments scale soft by
LEARNED_MIN_DEPTH = 4  # src/time/soft.rs


SOFT_RS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "time", "soft.rs")


def shipped_model(path=SOFT_RS):
    """(coefficients, worth in cp) of the `learned` rule as src/time/soft.rs defines them: the
    constants LEARNED_COEFFICIENTS and LEARNED_WORTH_CP, read from the source so the report
    scores what the engine runs."""
    with open(path) as handle:
        text = handle.read()
    coefs = re.search(r"const LEARNED_COEFFICIENTS: \[f64; \d+\] = \[([^\]]*)\]", text)
    worth = re.search(r"const LEARNED_WORTH_CP: f64 = ([-+0-9.eE]+);", text)
    if not coefs or not worth:
        raise ValueError(f"{path}: no LEARNED_COEFFICIENTS or LEARNED_WORTH_CP")
    values = [float(v) for v in coefs.group(1).split(",") if v.strip()]
    if len(values) != len(FEATURES) + 1:
        raise ValueError(f"{path}: {len(values)} coefficients for {len(FEATURES)} features and an intercept")
    return values, float(worth.group(1))


def replay(rows, plan, rule, coefs=None, worth=0.0, kappa=0.0):
    """Where a soft stop would have ended one logged search, with nodes standing for time (the
    log's nodes are the same on any machine): (nodes spent, the loss of the move played
    against the final move in centipawns, whether it differs from the final move).

    `rule` is "2x" (the default rule: elapsed + F × last ≥ soft × the adjustments' scale, as
    the log's `adjust_scale` gives it) or "learned" (src/time/soft.rs's rule with the model
    `coefs`, `worth` and κ = `kappa`). The hard stop is not modelled (hard is 3 × soft, beyond
    the ceiling of 2.5 × soft, unless a clamp lowers it near the end of a clock). A search the
    log ran out of before the rule stopped ends at its last iteration, and the fourth value
    says so (True)."""
    soft = plan * SOFT_STOP_ALLOWANCE
    previous = 0.0
    chosen, ran_out = rows[-1], True
    for row in rows:
        nodes = _num(row, "nodes")
        cost = NEXT_DEPTH_FACTOR * (nodes - previous)
        previous = nodes
        depth = int(row["depth"])
        if rule == "2x":
            stop = nodes + cost >= min(soft * _num(row, "adjust_scale"), 3 * soft)
        elif _num(row, "legal_moves") == 1:
            stop = True
        elif depth < LEARNED_MIN_DEPTH:
            stop = nodes >= soft
        else:
            gain = predict(coefs, [f(row) for _, f in FEATURES]) * worth
            stop = nodes + cost >= MAX_SCALE * soft or gain < kappa * cost / plan
        if stop:
            chosen, ran_out = row, False
            break
    changed = chosen["changed"] == "1"
    loss = min(max(_num(chosen, "gain_cp"), 0.0), WORTH_CAP_CP) if changed else 0.0
    return _num(chosen, "nodes"), loss, changed, ran_out


def compare_rules(searches, report, plan, holdout):
    """The 2x rule and the learned rule replayed on the held-out searches (all of them without
    a holdout) at a plan of `plan` nodes, the learned rule's κ set by bisection so that both
    spend the same on average: what each rule's move loses against the deep search's, at
    equal spend."""
    usable = [rows for (_, pos), rows in searches.items()
              if len(rows) > 1 and (holdout <= 1 or pos % holdout == 0)]
    if not usable or plan <= 0:
        return None

    def summary(rule, kappa=0.0):
        played = [replay(rows, plan, rule, report["coefficients"], report["mean_worth_cp"], kappa)
                  for rows in usable]
        n = len(played)
        return {"spend": sum(p[0] for p in played) / n / plan, "loss_cp": sum(p[1] for p in played) / n,
                "changed": sum(p[2] for p in played) / n, "ran_out": sum(p[3] for p in played) / n}

    base = summary("2x")
    lo, hi = 0.0, 1000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if summary("learned", mid)["spend"] > base["spend"]:
            lo = mid
        else:
            hi = mid
    kappa = (lo + hi) / 2
    return {"plan_nodes": plan, "searches": len(usable), "2x": base,
            "learned": dict(summary("learned", kappa), kappa_cp=kappa)}


def print_report(report, out=None):
    out = out or sys.stdout
    print(f"== target {report['target']}: P(the move changes), worth {report['mean_worth_cp']:.1f} cp "
          f"on average when it does; base rate {report['base_rate']:.4f}", file=out)
    for name, c in zip(report["features"], report["coefficients"]):
        print(f"  {name:18s} {c:+.5f}", file=out)
    for part in ("train", "held_out"):
        if part not in report:
            continue
        r = report[part]
        print(f"  {part}: {r['rows']} rows, {r['changed']} changed; log-loss {r['log_loss']:.4f} "
              f"(constant {r['log_loss_constant']:.4f}), Brier {r['brier']:.4f} "
              f"(constant {r['brier_constant']:.4f})", file=out)
    if "held_out" in report:
        print_reliability(report["held_out"]["reliability"], out)


def print_reliability(table, out):
    print("  held-out reliability: bin, rows, mean predicted, observed", file=out)
    for lo, n, mean, observed in table:
        print(f"    {lo:.1f}-{lo + 0.1:.1f} {n:7d} {mean:.3f} {observed:.3f}", file=out)


def score_shipped(searches, report, model, holdout, min_depth, plans):
    """The engine's model (`shipped_model`) on the rows the fit `report` held out (all rows
    without a holdout), beside the fit, and replayed at `plans` as `compare_rules` replays the
    fit."""
    coefs, worth = model
    data = examples(searches, "next", min_depth)
    held = [e for e in data if holdout <= 1 or e[3] % holdout == 0]
    if not held:
        raise ValueError("--shipped: no held-out rows to score the engine's model on")
    shipped = {"coefficients": coefs, "mean_worth_cp": worth,
               "held_out": evaluate(coefs, report["base_rate"], held)}
    shipped["replays"] = [c for c in (compare_rules(searches, shipped, plan, holdout) for plan in plans) if c]
    return shipped


def print_shipped(shipped, out=None):
    out = out or sys.stdout
    r = shipped["held_out"]
    print(f"== the shipped model (src/time/soft.rs, worth {shipped['mean_worth_cp']:.1f} cp) on the "
          f"same held-out rows: log-loss {r['log_loss']:.4f} (constant {r['log_loss_constant']:.4f}), "
          f"Brier {r['brier']:.4f} (constant {r['brier_constant']:.4f})", file=out)
    print_reliability(r["reliability"], out)
    for c in shipped["replays"]:
        print_replay(c, "replayed at plan", "shipped learned", out)


def print_replay(c, lead, learned, out=None):
    """One line of a `compare_rules` result: each rule's spend ÷ plan, loss and share of moves
    that differ from the final one, the learned rule named `learned`."""
    a, b = c["2x"], c["learned"]
    print(f"  {lead} {c['plan_nodes']:>8} nodes, {c['searches']} searches: 2x {a['spend']:.2f}, "
          f"{a['loss_cp']:.2f} cp, {100 * a['changed']:.1f}%; {learned} (κ {b['kappa_cp']:.2f} cp) "
          f"{b['spend']:.2f}, {b['loss_cp']:.2f} cp, {100 * b['changed']:.1f}%", file=out or sys.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", help="CSV files written by `sandglass searchlog`")
    parser.add_argument("--holdout", type=int, default=5, help="hold out every N-th position (0: none)")
    parser.add_argument("--min-depth", type=int, default=4, help="leave out shallower iterations")
    parser.add_argument("--json", help="write the fits here")
    parser.add_argument("--plans", default="100000,200000,300000",
                        help="plans in nodes at which to replay the 2x and the learned rules")
    parser.add_argument("--shipped", action="store_true",
                        help="also score and replay the model src/time/soft.rs carries")
    args = parser.parse_args(argv)
    try:
        searches = read_log(args.logs)
        reports = [fit_target(searches, t, args.holdout, args.min_depth) for t in TARGETS]
        shipped = shipped_model() if args.shipped else None
    except (OSError, ValueError) as error:
        print(f"searchlog_fit: {error}", file=sys.stderr)
        return 2
    try:
        plans = [int(p) for p in args.plans.split(",") if p.strip()]
        if any(p <= 0 for p in plans):
            raise ValueError("a plan of no nodes")
    except ValueError:
        print(f"searchlog_fit: --plans wants node counts separated by commas, got {args.plans!r}",
              file=sys.stderr)
        return 2
    print(f"{len(searches)} searches from {len(args.logs)} file(s)")
    for report in reports:
        print_report(report)
    nxt = reports[0]
    if shipped:
        try:
            nxt["shipped"] = score_shipped(searches, nxt, shipped, args.holdout, args.min_depth, plans)
        except ValueError as error:
            print(f"searchlog_fit: {error}", file=sys.stderr)
            return 2
        print_shipped(nxt["shipped"])
    comparisons = [c for c in (compare_rules(searches, nxt, plan, args.holdout) for plan in plans) if c]
    if plans and not comparisons:
        print("searchlog_fit: no held-out search with two iterations or more to replay", file=sys.stderr)
    if comparisons:
        print("== held-out searches replayed at equal spend (nodes as time): spend ÷ plan, loss "
              "against the final move, share of moves that differ from it")
    for c in comparisons:
        a, b = c["2x"], c["learned"]
        print_replay(c, "plan", "learned")
        if abs(b["spend"] - a["spend"]) > 0.02 * a["spend"]:
            print(f"    warning: no κ up to 1000 cp spends as the 2x rule does", file=sys.stderr)
        if b["kappa_cp"] > 100:
            print(f"    warning: κ {b['kappa_cp']:.0f} cp is beyond Soft Stop Learned Scale's range (0 to 100)",
                  file=sys.stderr)
        for rule in ("2x", "learned"):
            if c[rule]["ran_out"] > 0.05:
                print(f"    warning: {rule} ran past the end of {100 * c[rule]['ran_out']:.0f}% of the logged "
                      f"searches at this plan (the log is too shallow for it)", file=sys.stderr)
    nxt["replays"] = comparisons
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(reports, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
