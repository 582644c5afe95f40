"""How much longer an SPRT should run: its chance to pass and its expected remaining games.

A match between two nearly equal engines adds to the SPRT's log-likelihood ratio a little
with every game pair. Over hundreds of pairs the LLR moves like Brownian motion: a steady
drift, set by the true strength difference, plus noise. How long such a walk takes to leave
the band between the two bounds, and through which side, has a closed form. Michel Van den
Bergh's `sprta.py` (the fishtest SPRT calculator, written up in his note "sprta.pdf") gives
it as two "universal functions" of the walk's position in the band and of
h = 2 · drift / variance:

    P = (1 − e^(−h·LA)) / (e^(−h·LB) − e^(−h·LA))     chance of leaving through the top
    T = (2/h) · (LB·P + LA·(1 − P))                    expected time, in units of variance

with LA < 0 < LB the bounds measured from where the LLR stands now (T = −LA·LB when h = 0).
These are the classical first-exit results for Brownian motion that Wald's approximations of
the SPRT's operating characteristic and average sample number rest on.

For the GSPRT in normalized Elo (tools/stats.py) (nElo, bounds elo0 < elo1, width Δ = elo1 − elo0,
midpoint m) the per-pair increments of the LLR have, in the normal approximation,

    mean 2·Δ·(θ − m)/S²  and  variance 2·Δ²/S²,  S = 800/ln 10 (stats.NELO_SCALE),

where θ is the true nElo. So h = 2·(θ − m)/Δ, and the expected remaining pairs are T divided
by that variance. A test whose true difference lies at the midpoint has no drift at all: it
ends only by the noise, and it takes the longest.

The true θ is not known, only its estimate from the pairs played, with a standard error of
S/√(2·pairs). `forecast` gives the answer twice: as if the estimate were the truth, and
averaged over the estimate's normal uncertainty (a flat prior), which is the fairer guess of
what continuing the test will cost.
"""

import math

from stats import NELO_SCALE


def exit_brownian(la, lb, h):
    """Van den Bergh's universal functions: (P, T) for a walk at 0 between la < 0 < lb with
    h = 2·drift/variance. P is the chance of leaving through lb; T the expected exit time
    times the variance per step."""
    spread = abs(h * (lb - la))
    if spread < 1e-6:
        # The limit h → 0 (Van den Bergh's own cut-off): T's (2/h)·(…) is 0/0 below it.
        return -la / (lb - la), -la * lb
    if spread < 50:
        # expm1 keeps P exact to rounding when the drift is small.
        a, b = math.expm1(-h * la), math.expm1(-h * lb)
        p = -a / (b - a)
    else:
        # exp(−h·x) relative to its larger end, so that a strong drift cannot overflow.
        top = max(-h * la, -h * lb)
        ea, eb, one = math.exp(-h * la - top), math.exp(-h * lb - top), math.exp(-top)
        p = (one - ea) / (eb - ea)
    return p, (2 / h) * (lb * p + la * (1 - p))


def pair_llr_moments(elo0, elo1, nelo):
    """Mean and variance of one game pair's LLR increment for a true normalized Elo `nelo`
    (normal approximation of the pentanomial GSPRT, stats.Sprt)."""
    width = elo1 - elo0
    mean = 2 * width * (nelo - (elo0 + elo1) / 2) / NELO_SCALE**2
    return mean, 2 * width**2 / NELO_SCALE**2


def remaining(llr, bounds, elo0, elo1, nelo):
    """(chance to pass, expected further pairs) from `llr` now, if the true nElo is `nelo`."""
    lower, upper = bounds
    if llr >= upper:
        return 1.0, 0.0
    if llr <= lower:
        return 0.0, 0.0
    mean, var = pair_llr_moments(elo0, elo1, nelo)
    p, t = exit_brownian(lower - llr, upper - llr, 2 * mean / var)
    return p, t / var


def nelo_standard_error(pairs):
    """Standard error of the nElo estimate after `pairs` complete game pairs."""
    return NELO_SCALE / math.sqrt(2 * pairs)


def forecast(llr, bounds, elo0, elo1, nelo, pairs, points=801, spread=8.0):
    """The SPRT's outlook: for the estimate taken as the truth ("plug_in") and averaged over
    its uncertainty ("averaged"), the chance to pass and the expected further games."""
    p, t = remaining(llr, bounds, elo0, elo1, nelo)
    se = nelo_standard_error(pairs)
    total_w = pass_w = pairs_w = 0.0
    for i in range(points):
        z = spread * (2 * i / (points - 1) - 1)
        w = math.exp(-z * z / 2)
        pi, ti = remaining(llr, bounds, elo0, elo1, nelo + z * se)
        total_w, pass_w, pairs_w = total_w + w, pass_w + w * pi, pairs_w + w * ti
    return {
        "nelo": nelo,
        "nelo_se": se,
        "plug_in": {"pass": p, "games": 2 * t},
        "averaged": {"pass": pass_w / total_w, "games": 2 * pairs_w / total_w},
    }


def describe(outlook):
    """Two lines for a report."""
    a, b = outlook["plug_in"], outlook["averaged"]
    return (f"forecast, if the true nElo is the estimate {outlook['nelo']:+.1f}: passes with "
            f"{100 * a['pass']:.0f} %, about {a['games']:,.0f} more games\n"
            f"forecast, over the estimate's uncertainty (nElo {outlook['nelo']:+.1f} ± "
            f"{1.959964 * outlook['nelo_se']:.1f}, 95 %): passes with {100 * b['pass']:.0f} %, "
            f"about {b['games']:,.0f} more games")
