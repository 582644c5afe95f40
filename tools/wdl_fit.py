#!/usr/bin/env python3
"""Fit Sandglass's win/draw/loss model (`UCI_ShowWDL`) by maximum likelihood on its games.

The model is Stockfish's `win_rate_model` (src/uci.cpp from Stockfish 16 on, fitted by the
repository github.com/official-stockfish/WDL_model): for a score v in centipawns from the side
to move and the material on the board,

    win  = 1 / (1 + exp((a - v) / b))
    loss = 1 / (1 + exp((a + v) / b))
    draw = 1 - win - loss

where a and b are cubic polynomials in m = clamp(material, 17, 78) / 58, material counting
pawns 1, knights and bishops 3, rooks 5 and queens 9 for both sides (Stockfish's
`win_rate_params`). a is the score at which the side to move wins half its games, b how fast
the odds change with the score. Draws get 1 - win - loss, which is positive whenever a > 0.

The fit maximises the multinomial likelihood of the games' results over every position that
Sandglass searched, its score read from the PGN comment fastchess writes for each move
(`+0.35/12 0.221s, tl=…`: the mover's score of the position before its move). Positions with
a mate or tablebase score are left out (the engine reports those as certain); scores are
clamped to ±2000 as Stockfish clamps its own. Games are split into a training set and a
held-out set (every `--holdout`-th game), and the held-out set measures calibration: the
Brier score of the expected score (win + draw / 2) against that of a constant model (the
training set's average result), and a reliability table (predicted against observed score,
by bins of the prediction), optionally drawn as an SVG figure.

    target/venv/bin/python3 tools/wdl_fit.py PGN... [--engine sandglass] [--holdout 5]
        [--svg FILE] [--json FILE]

The output ends with the constants for src/wdl.rs. tools/test_wdl_fit.py checks the model
against Stockfish's own numbers and the fit on games drawn from a known model.
"""

import argparse
import json
import math
import re
import sys

# Stockfish's material model: material clamped to [17, 78], anchored at 58.
MATERIAL_LO, MATERIAL_HI, MATERIAL_ANCHOR = 17, 78, 58
SCORE_CLAMP = 2000
# A score of at least this many centipawns is a tablebase result (Sandglass prints a
# tablebase win as cp 20000 less the plies to it).
DECIDED_CP = 10000
PIECE_VALUES = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}

# Stockfish 17's constants (src/uci.cpp, `win_rate_params`): a and b, highest power first.
STOCKFISH_17 = (
    (-37.45051876, 121.19101539, -132.78783573, 420.70576692),
    (90.26261072, -137.26549898, 71.10130540, 51.35259597),
)

COMMENT = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")


def parse_score(comment):
    """The mover's score in a fastchess move comment: ("cp", centipawns), ("mate", plies
    sign), or None for a book move or no score."""
    m = COMMENT.match(comment or "")
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return ("mate", sign)
    return ("cp", sign * round(float(m.group(3)) * 100))


def material_of(fen_board):
    """Stockfish's material count of a FEN's board field (both sides)."""
    return sum(PIECE_VALUES.get(c.upper(), 0) for c in fen_board if c.upper() in PIECE_VALUES)


def scaled_material(material):
    return min(max(material, MATERIAL_LO), MATERIAL_HI) / MATERIAL_ANCHOR


def poly(coefs, m):
    """coefs[0]·m^3 + coefs[1]·m^2 + … (Horner, highest power first, as Stockfish writes it)."""
    value = 0.0
    for c in coefs:
        value = value * m + c
    return value


def logistic(x):
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def wdl(v, material, a_coefs, b_coefs):
    """(win, draw, loss) probabilities of the side to move at score v with `material`."""
    m = scaled_material(material)
    a, b = poly(a_coefs, m), poly(b_coefs, m)
    v = min(max(v, -SCORE_CLAMP), SCORE_CLAMP)
    w = logistic((v - a) / b)
    l = logistic((-v - a) / b)
    return w, 1 - w - l, l


def per_mille(v, material, a_coefs, b_coefs):
    """The triple as Sandglass prints it: win and loss rounded, the draw the rest."""
    w, _, l = wdl(v, material, a_coefs, b_coefs)
    w, l = int(0.5 + 1000 * w), int(0.5 + 1000 * l)
    return w, 1000 - w - l, l


# --- reading games --------------------------------------------------------------------------


def read_games(paths, engine="sandglass"):
    """Every game of the PGN files as a list of (score, material, outcome) for the positions
    a player whose name contains `engine` searched; outcome 1, 0.5 or 0 for the side to move.
    Games without a result are skipped."""
    import chess.pgn  # python-chess, from the venv `make python-deps` sets up

    games = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.headers.get("Result"))
                if result is None:
                    continue
                ours = {
                    chess.WHITE: engine.lower() in game.headers.get("White", "").lower(),
                    chess.BLACK: engine.lower() in game.headers.get("Black", "").lower(),
                }
                positions = []
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    score = parse_score(node.comment)
                    if ours[mover] and score and score[0] == "cp" and abs(score[1]) < DECIDED_CP:
                        outcome = result if mover == chess.WHITE else 1 - result
                        positions.append(
                            (score[1], material_of(board.board_fen()), outcome)
                        )
                    board.push(node.move)
                games.append(positions)
    return games


def aggregate(games):
    """{(score clamped, material): [wins, draws, losses]} over the games' positions."""
    counts = {}
    for game in games:
        for v, material, outcome in game:
            key = (min(max(v, -SCORE_CLAMP), SCORE_CLAMP), material)
            cell = counts.setdefault(key, [0, 0, 0])
            cell[{1.0: 0, 0.5: 1, 0.0: 2}[outcome]] += 1
    return counts


# --- the fit ---------------------------------------------------------------------------------

# The fit works in pawns (a, b and v divided by 100), where every gradient is of order one.
SCALE = 100.0
TINY = 1e-12


def _cells(counts):
    return [(v / SCALE, scaled_material(mat), w, d, l) for (v, mat), (w, d, l) in counts.items()]


def negative_log_likelihood(params, cells, degree, with_gradient=True):
    """Mean negative log-likelihood per position of params (a's then b's coefficients, in
    pawns, highest power first), and its gradient; (inf, None) where b ≤ 0 or a ≤ 0."""
    k = degree + 1
    a_c, b_c = params[:k], params[k:]
    total, n = 0.0, 0
    grad = [0.0] * (2 * k)
    for v, m, nw, nd, nl in cells:
        a, b = poly(a_c, m), poly(b_c, m)
        if b <= 0 or a <= 0:
            return math.inf, None
        zw, zl = (v - a) / b, (-v - a) / b
        w, l = logistic(zw), logistic(zl)
        d = max(1 - w - l, TINY)
        w, l = max(w, TINY), max(l, TINY)
        total -= nw * math.log(w) + nd * math.log(d) + nl * math.log(l)
        n += nw + nd + nl
        if not with_gradient:
            continue
        # dW/da = −W(1−W)/b, dW/db = −W(1−W)·zw/b; the same for L with zl; dD = −dW − dL.
        sw, sl = w * (1 - w), l * (1 - l)
        dw_da, dw_db = -sw / b, -sw * zw / b
        dl_da, dl_db = -sl / b, -sl * zl / b
        dd_da, dd_db = -dw_da - dl_da, -dw_db - dl_db
        g_a = -(nw * dw_da / w + nd * dd_da / d + nl * dl_da / l)
        g_b = -(nw * dw_db / w + nd * dd_db / d + nl * dl_db / l)
        power = 1.0
        for i in range(k - 1, -1, -1):
            grad[i] += g_a * power
            grad[k + i] += g_b * power
            power *= m
    if n == 0:
        return math.inf, None
    return total / n, [g / n for g in grad]


def bfgs(f, x0, iterations=400, tolerance=1e-9):
    """Minimise f (returning value and gradient) from x0: BFGS with a backtracking
    (Armijo) line search (Nocedal and Wright, Numerical Optimization, 2nd ed., algorithm 6.1)."""
    n = len(x0)
    x = list(x0)
    fx, g = f(x)
    if g is None:
        raise ValueError("the starting point is outside the model's domain")
    h = [[float(i == j) for j in range(n)] for i in range(n)]
    for _ in range(iterations):
        p = [-sum(h[i][j] * g[j] for j in range(n)) for i in range(n)]
        slope = sum(pi * gi for pi, gi in zip(p, g))
        if slope >= 0:  # not a descent direction: start again from the gradient
            h = [[float(i == j) for j in range(n)] for i in range(n)]
            p = [-gi for gi in g]
            slope = -sum(gi * gi for gi in g)
        t = 1.0
        while True:
            x_new = [xi + t * pi for xi, pi in zip(x, p)]
            f_new, g_new = f(x_new)
            if g_new is not None and f_new <= fx + 1e-4 * t * slope:
                break
            t *= 0.5
            if t < 1e-12:
                return x, fx
        s = [xn - xi for xn, xi in zip(x_new, x)]
        y = [gn - gi for gn, gi in zip(g_new, g)]
        x, g, f_old, fx = x_new, g_new, fx, f_new
        if f_old - fx < tolerance * max(1.0, abs(fx)) and max(abs(gi) for gi in g) < 1e-6:
            break
        sy = sum(si * yi for si, yi in zip(s, y))
        if sy > 1e-15:
            hy = [sum(h[i][j] * y[j] for j in range(n)) for i in range(n)]
            yhy = sum(yi * hyi for yi, hyi in zip(y, hy))
            for i in range(n):
                for j in range(n):
                    h[i][j] += (sy + yhy) * s[i] * s[j] / (sy * sy) - (hy[i] * s[j] + s[i] * hy[j]) / sy
    return x, fx


def fit(counts, degree=3):
    """The maximum-likelihood coefficients (a's, b's; centipawns, highest power first) and
    the mean negative log-likelihood per position."""
    cells = _cells(counts)
    # Start from a constant model, fitted first, then let the higher powers move.
    x = [0.0] * degree + [1.5] + [0.0] * degree + [0.8]
    free = [False] * degree + [True] + [False] * degree + [True]
    for stage in (free, [True] * (2 * degree + 2)):
        idx = [i for i, on in enumerate(stage) if on]

        def f(sub, idx=idx, base=x):
            full = list(base)
            for i, v in zip(idx, sub):
                full[i] = v
            value, grad = negative_log_likelihood(full, cells, degree)
            return value, None if grad is None else [grad[i] for i in idx]

        sub, _ = bfgs(f, [x[i] for i in idx])
        for i, v in zip(idx, sub):
            x[i] = v
    value, _ = negative_log_likelihood(x, cells, degree, with_gradient=False)
    k = degree + 1
    a = tuple(c * SCALE for c in x[:k])
    b = tuple(c * SCALE for c in x[k:])
    return a, b, value


# --- calibration ------------------------------------------------------------------------------


def calibration(games, a_coefs, b_coefs, constant, bins=10):
    """How well the model predicts the games' results: per position, the Brier score of the
    expected score against the result (1, ½, 0), the model's and the constant model's
    (`constant` = its win, draw, loss rates), their mean log-losses, and the reliability
    table: for each bin of predicted expected score, (positions, mean predicted, mean
    observed)."""
    cw, cd, cl = constant
    const_e = cw + cd / 2
    n = 0
    brier = brier_const = loss = loss_const = 0.0
    table = [[0, 0.0, 0.0] for _ in range(bins)]
    for game in games:
        for v, material, outcome in game:
            w, d, l = wdl(v, material, a_coefs, b_coefs)
            e = w + d / 2
            n += 1
            brier += (e - outcome) ** 2
            brier_const += (const_e - outcome) ** 2
            p = {1.0: w, 0.5: d, 0.0: l}[outcome]
            q = {1.0: cw, 0.5: cd, 0.0: cl}[outcome]
            loss -= math.log(max(p, TINY))
            loss_const -= math.log(max(q, TINY))
            cell = table[min(int(e * bins), bins - 1)]
            cell[0] += 1
            cell[1] += e
            cell[2] += outcome
    rows = [(c, p / c, o / c) if c else (0, None, None) for c, p, o in table]
    return {
        "positions": n,
        "brier": brier / n,
        "brier_constant": brier_const / n,
        "brier_skill": 1 - brier / brier_const,
        "log_loss": loss / n,
        "log_loss_constant": loss_const / n,
        "reliability": rows,
    }


def reliability_svg(rows, title, caption):
    """A reliability diagram: observed against predicted expected score, one dot a bin (its
    area the bin's positions), with the diagonal of perfect calibration."""
    size, pad = 360, 48
    plot = size - 2 * pad

    def xy(p, o):
        return pad + p * plot, size - pad - o * plot

    most = max((c for c, _, _ in rows), default=1) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 40}" '
        f'viewBox="0 0 {size} {size + 40}" font-family="sans-serif" font-size="11">',
        f'<rect width="{size}" height="{size + 40}" fill="white"/>',
        f'<text x="{size / 2}" y="18" text-anchor="middle" font-size="13">{title}</text>',
        f'<rect x="{pad}" y="{pad}" width="{plot}" height="{plot}" fill="none" stroke="#888"/>',
        f'<line x1="{pad}" y1="{size - pad}" x2="{size - pad}" y2="{pad}" stroke="#bbb" '
        'stroke-dasharray="4 3"/>',
    ]
    for t in range(0, 11, 2):
        x, y = xy(t / 10, t / 10)
        parts.append(f'<text x="{x}" y="{size - pad + 14}" text-anchor="middle">{t / 10:.1f}</text>')
        parts.append(f'<text x="{pad - 6}" y="{y + 4}" text-anchor="end">{t / 10:.1f}</text>')
    parts.append(
        f'<text x="{size / 2}" y="{size - pad + 30}" text-anchor="middle">'
        "predicted expected score (win + draw/2)</text>"
    )
    parts.append(
        f'<text transform="translate({pad - 34},{size / 2}) rotate(-90)" text-anchor="middle">'
        "observed score</text>"
    )
    points = [(p, o, c) for c, p, o in rows if c]
    path = " ".join(f"{'M' if i == 0 else 'L'}{xy(p, o)[0]:.1f},{xy(p, o)[1]:.1f}" for i, (p, o, _) in enumerate(points))
    parts.append(f'<path d="{path}" fill="none" stroke="#2a6fdb" stroke-width="1.5"/>')
    for p, o, c in points:
        x, y = xy(p, o)
        r = 2 + 6 * math.sqrt(c / most)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#2a6fdb" fill-opacity="0.6"/>')
    for i, line in enumerate(caption):
        parts.append(f'<text x="{size / 2}" y="{size + 8 + 14 * i}" text-anchor="middle">{line}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def rust_constants(a_coefs, b_coefs):
    fmt = lambda cs: ", ".join(f"{c:.8f}" for c in cs)  # noqa: E731
    return f"a: [{fmt(a_coefs)}],\nb: [{fmt(b_coefs)}],"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+", help="fastchess PGN files with scores in the comments")
    parser.add_argument("--engine", default="sandglass", help="the player's name contains this")
    parser.add_argument("--holdout", type=int, default=5, help="every Nth game is held out")
    parser.add_argument("--degree", type=int, default=3, help="degree of a's and b's polynomials")
    parser.add_argument("--svg", help="write the held-out reliability diagram here")
    parser.add_argument("--json", help="write the fit and its checks here")
    args = parser.parse_args(argv)

    games = read_games(args.pgn, args.engine)
    train = [g for i, g in enumerate(games) if i % args.holdout != args.holdout - 1]
    held = [g for i, g in enumerate(games) if i % args.holdout == args.holdout - 1]
    counts = aggregate(train)
    positions = sum(len(g) for g in train)
    if positions == 0:
        print("error: no scored positions of the engine in the PGN files", file=sys.stderr)
        return 2
    a_coefs, b_coefs, nll = fit(counts, args.degree)
    totals = [sum(c[i] for c in counts.values()) for i in range(3)]
    constant = tuple(t / positions for t in totals)
    held_check = calibration(held, a_coefs, b_coefs, constant)
    train_check = calibration(train, a_coefs, b_coefs, constant)
    print(f"games: {len(train)} for the fit ({positions} positions), {len(held)} held out "
          f"({held_check['positions']} positions)")
    print(f"fit: mean negative log-likelihood {nll:.4f} per position")
    for name, c in (("training", train_check), ("held out", held_check)):
        print(f"{name}: Brier {c['brier']:.4f} (constant model {c['brier_constant']:.4f}, "
              f"skill {c['brier_skill']:.3f}); log-loss {c['log_loss']:.4f} "
              f"(constant {c['log_loss_constant']:.4f})")
    print("held-out reliability: predicted bin, positions, mean predicted, mean observed")
    for i, (count, pred, obs) in enumerate(held_check["reliability"]):
        if count:
            print(f"  {i / 10:.1f}-{(i + 1) / 10:.1f}  {count:6d}  {pred:.3f}  {obs:.3f}")
    for material in (78, 58, 38, 17):
        a, b = poly(a_coefs, scaled_material(material)), poly(b_coefs, scaled_material(material))
        print(f"material {material}: a = {a:.1f} cp (50 % wins), b = {b:.1f} cp; "
              f"at +100 cp: {per_mille(100, material, a_coefs, b_coefs)}")
    print(rust_constants(a_coefs, b_coefs))
    if args.svg:
        caption = [
            f"{len(held)} held-out games, {held_check['positions']} positions",
            f"Brier {held_check['brier']:.4f}, constant model {held_check['brier_constant']:.4f}",
        ]
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(reliability_svg(held_check["reliability"], "Sandglass WDL model: reliability", caption))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"a": a_coefs, "b": b_coefs, "nll": nll, "constant": constant,
                       "training": train_check, "held_out": held_check,
                       "games": [len(train), len(held)]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
