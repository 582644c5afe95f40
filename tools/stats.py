"""The statistics of engine matches: Elo from a score, the estimate from W/D/L or from game-pair
counts, and the pentanomial GSPRT in normalized Elo, as fishtest and fastchess compute them.

`pool`, the SPRT forecast, the match tools and their tests all use this one module, so a pooled
figure means what a single run's does, and none of them needs a match runner to compute it.

Sources, each checked in tools/test_stats.py against the source's own numbers:

- Logistic Elo of an expected score s: Elo = −400 · log10(1/s − 1) (the logistic model of
  Elo ratings, as fastchess's `scoreToEloDiff` and fishtest's `stat_util.elo` write it).
- The estimate: score μ and its variance from the counts of per-unit scores (a game scores
  1, ½ or 0; a game pair with colours reversed scores 0, ¼, ½, ¾ or 1: the pentanomial
  counts LL, LD, WL+DD, WD, WW). Elo ± 95 % maps μ ± 1.96 · σ/√n through the logistic curve
  and halves the span; normalized Elo is (μ − ½)/σ_game · 800/ln 10 with σ_game the per-game
  standard deviation (for pairs σ_pair · √2); LOS is Φ((μ − ½)/(σ/√n)). fastchess,
  `app/src/matchmaking/elo/elo_wdl.cpp` and `elo_pentanomial.cpp`; Michel Van den Bergh,
  "Normalized Elo" (https://www.cantate.be/Fishtest/normalized_elo.pdf).
- The GSPRT: the log-likelihood ratio of the two maximum-likelihood distributions, among those
  with normalized Elo elo0 and elo1, for the observed counts. Michel Van den Bergh, "Comments
  on normalized Elo", section 4.1 (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf):
  the distribution closest to the empirical one p̂ with (μ − ½)/σ = t is p_i = p̂_i/(1 + θ·φ_i),
  φ_i = a_i − ½ − ½ · t · σ · (1 + ((a_i − μ)/σ)²), where μ and σ are those of p itself, so it
  is found by iteration, each step solving Σ p̂_i φ_i/(1 + θ φ_i) = 0 for θ. Per pair
  t = √2 · nElo/(800/ln 10), per game t = nElo/(800/ln 10). Empty cells count 1e-3. Wald's
  bounds ln(β/(1 − α)) and ln((1 − β)/α). fishtest `server/fishtest/stats/LLRcalc.py`, and
  fastchess `app/src/matchmaking/sprt/sprt.cpp` (`getLLR_normalized`), which this follows.
- A rating on a list's scale (`anchored_rating`, `python3 tools/stats.py rating`): the
  maximum-likelihood rating R of one engine from its matches against opponents whose ratings
  are held fixed (the anchors), under the same logistic model, each game scoring 1, ½ or 0
  against an expectation E_j = 1/(1 + 10^((r_j − R)/400)). The likelihood is greatest where
  the points scored equal the points expected, Σ_j n_j·E_j(R) = Σ_j s_j: the rating lists'
  own model with draws as half points (Ordo by Miguel Ballicora, which anchors a pool to one
  engine the same way; Arpad Elo, "The Rating of Chessplayers, Past and Present", 1978, whose
  performance rating over several opponents solves the same equation). Its 95 % interval is where that score equation
  is 1.96 standard deviations off, each match's deviation measured from its own games (per
  game or per pair, as `estimate` does): against a single opponent the rating is
  r + Elo(score) and the interval fastchess's, exactly.
- That interval counts the games' chance only, and holds only if one rating fits every
  opponent. `rating_spread` tests that and widens the interval when the opponents disagree:
  Pearson's χ² of the fit on k − 1 degrees of freedom (k opponents), with the same per-match
  variances; the quasi-likelihood interval, the variance scaled by the dispersion
  φ = χ²/(k − 1) when φ > 1 (P. McCullagh and J. A. Nelder, "Generalized Linear Models",
  2nd ed., 1989, chapter 9); and a random-effects fit of the per-opponent performances, each
  with its delta-method variance, the spread τ² between opponents by the method of moments
  (R. DerSimonian and N. Laird, "Meta-analysis in clinical trials", Controlled Clinical
  Trials 7:177–188, 1986). The test checks it on an example worked by hand in its docstring.
"""

import dataclasses
import math

NELO_SCALE = 800 / math.log(10)
GAME_SCORES = (1.0, 0.5, 0.0)  # W, D, L
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pentanomial cells: LL, LD, WL+DD, WD, WW
Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal distribution


def elo(score):
    """Logistic Elo difference for an expected score (±inf at 100 % and 0 %)."""
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0"


def _unit_stats(values, counts):
    """(units, mean per-unit score, per-unit variance) of per-unit score counts."""
    n = sum(counts)
    mu = sum(v * c for v, c in zip(values, counts)) / n
    return n, mu, sum(c * (v - mu) ** 2 for v, c in zip(values, counts)) / n


def estimate(values, counts, games_per_unit):
    """Score, Elo ± 95 %, nElo ± 95 % and LOS from the counts of per-unit scores `values`
    (a unit is a game, games_per_unit 1, or a game pair, games_per_unit 2)."""
    n, mu, var = _unit_stats(values, counts)
    se = math.sqrt(var / n)
    if se:
        los = 0.5 * (1 + math.erf((mu - 0.5) / (se * math.sqrt(2))))
        nelo_per_score = NELO_SCALE / math.sqrt(games_per_unit * var)
        nelo, nelo_err = (mu - 0.5) * nelo_per_score, Z95 * se * nelo_per_score
    else:  # every unit scored the same: no spread to normalise by
        los, nelo, nelo_err = (mu > 0.5) + 0.5 * (mu == 0.5), math.nan, math.nan
    lo, hi = elo(mu - Z95 * se), elo(mu + Z95 * se)
    return {"score": mu, "elo": elo(mu), "elo_err95": (hi - lo) / 2, "elo_lo95": lo, "elo_hi95": hi,
            "nelo": nelo, "nelo_err95": nelo_err, "los": los}


def signed(x):
    """x as +12.3, with ±∞ for the infinite and "n/a" for a figure that cannot be had (NaN)."""
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+∞" if x > 0 else "-∞"
    return f"{x:+.1f}" if x else "+0.0"


def fmt_elo(est):
    """An estimate's Elo and 95 % interval as the tools print them: `+12.3 ± 4.5`, as fastchess
    does, when both ends are finite. An end of the score interval at 0 % or 100 % (a short or
    lopsided run) is an infinite Elo, and "± inf" hid the finite end: the interval is then given
    by its ends. When every game or pair scored the same there is no spread to draw an interval
    from ("± 0.0" claimed certainty from, say, one drawn pair), and it says so."""
    e, err = est.get("elo"), est.get("elo_err95")
    if e is None or err is None:
        return "n/a"
    lo, hi = est.get("elo_lo95"), est.get("elo_hi95")
    if err == 0 or math.isnan(err) or (lo is not None and lo == hi):
        return f"{signed(e)} (no interval: all scored alike)"
    if math.isfinite(err):
        return f"{signed(e)} ± {err:.1f}"
    if lo is None or hi is None:
        return f"{signed(e)} (95 % interval unbounded)"
    return f"{signed(e)} (95 %: {signed(lo)} to {signed(hi)})"


def trinomial(wins, draws, losses):
    """The estimate from W/D/L (games counted one by one)."""
    return estimate(GAME_SCORES, (wins, draws, losses), 1)


def pentanomial(ptnml):
    """The estimate from pentanomial counts [LL, LD, WL+DD, WD, WW] (game pairs)."""
    return estimate(PAIR_SCORES, ptnml, 2)


def _tilt(freq, phi):
    """p_i = f_i/(1 + θ·φ_i) with Σ p_i·φ_i = 0: θ by bisection on (−1/max φ, −1/min φ), where
    Σ f_i·φ_i/(1 + θ·φ_i) falls from +∞ to −∞."""
    lo, hi = -1 / max(phi), -1 / min(phi)
    for _ in range(200):
        theta = (lo + hi) / 2
        if sum(f * x / (1 + theta * x) for f, x in zip(freq, phi)) > 0:
            lo = theta
        else:
            hi = theta
    return [f / (1 + theta * x) for f, x in zip(freq, phi)]


def mle(scores, freq, t):
    """The distribution closest to `freq` (maximum likelihood) whose (μ − ½)/σ is t, on the
    per-unit `scores`: Van den Bergh's iteration, started from the uniform distribution."""
    p = [1 / len(scores)] * len(scores)
    for _ in range(100):
        mu = sum(a * q for a, q in zip(scores, p))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p)))
        new = _tilt(freq, [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in scores])
        done, p = max(abs(x - y) for x, y in zip(new, p)) < 1e-12, new
        if done:
            break
    return p


@dataclasses.dataclass
class Sprt:
    """The GSPRT in normalized Elo with bounds elo0 < elo1 and error rates alpha, beta."""
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text):
        """`elo0=0,elo1=5[,alpha=0.05,beta=0.05]`; ValueError with the reason otherwise."""
        try:
            sprt = cls(**{key.strip(): float(value) for key, value in
                          (item.split("=", 1) for item in text.split(","))})
        except (ValueError, TypeError) as err:
            raise ValueError(f"--sprt {text!r}: {err}; expected elo0=0,elo1=5[,alpha=0.05,beta=0.05]") from None
        # alpha + beta < 1, or Wald's bounds cross and every LLR "accepts" a hypothesis.
        if (not sprt.elo0 < sprt.elo1 or not 0 < sprt.alpha < 1 or not 0 < sprt.beta < 1
                or sprt.alpha + sprt.beta >= 1):
            raise ValueError(f"--sprt {text!r}: need elo0 < elo1, and alpha, beta within (0, 1) "
                             "with alpha + beta < 1")
        return sprt

    def bounds(self):
        """Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or above)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def mle(self, freq, nelo):
        """The pair distribution closest to `freq` whose per-game normalized Elo is `nelo`."""
        return mle(PAIR_SCORES, freq, math.sqrt(2) * nelo / NELO_SCALE)

    def llr(self, ptnml):
        """LLR of pentanomial counts [LL, LD, WL+DD, WD, WW]."""
        return self._llr(PAIR_SCORES, ptnml, math.sqrt(2))[0]

    def llr_step(self, ptnml):
        """The LLR of pentanomial counts, and about the most one more pair can move it: the
        largest |log(p1/p0)| over the five cells, with the fitted distributions held fixed
        (they move little with one pair)."""
        return self._llr(PAIR_SCORES, ptnml, math.sqrt(2))

    def llr_trinomial(self, wins, draws, losses):
        """LLR of W/D/L counted game by game (when the games do not come in complete pairs)."""
        return self._llr(GAME_SCORES, (wins, draws, losses), 1.0)[0]

    def _llr(self, scores, counts, t_per_nelo):
        counts = [c or 1e-3 for c in counts]
        total = sum(counts)
        freq = [c / total for c in counts]
        p0 = mle(scores, freq, t_per_nelo * self.elo0 / NELO_SCALE)
        p1 = mle(scores, freq, t_per_nelo * self.elo1 / NELO_SCALE)
        logs = [math.log(x1) - math.log(x0) for x0, x1 in zip(p0, p1)]
        return total * sum(f * g for f, g in zip(freq, logs)), max(map(abs, logs))

    def verdict(self, llr):
        lo, hi = self.bounds()
        return "H1 accepted" if llr >= hi else "H0 accepted" if llr <= lo else "not decided"


@dataclasses.dataclass
class AnchoredMatch:
    """A match against an opponent whose rating on the list is `anchor`: W/D/L (games one by
    one) or pentanomial counts [LL, LD, WL+DD, WD, WW] (game pairs), from our side."""
    name: str
    anchor: float
    wdl: tuple = None
    ptnml: tuple = None

    def units(self):
        """(per-unit scores, counts, games per unit)."""
        if self.ptnml is not None:
            return PAIR_SCORES, self.ptnml, 2
        return GAME_SCORES, self.wdl, 1

    def games(self):
        values, counts, per_unit = self.units()
        return per_unit * sum(counts)

    @classmethod
    def parse(cls, text):
        """`NAME,RATING,wdl=W,D,L` or `NAME,RATING,ptnml=LL,LD,WLDD,WD,WW`; ValueError else."""
        try:
            name, anchor, rest = text.split(",", 2)
            kind, numbers = rest.split("=", 1)
            counts = tuple(int(x) for x in numbers.split(","))
            match = {"wdl": cls(name, float(anchor), wdl=counts),
                     "ptnml": cls(name, float(anchor), ptnml=counts)}[kind.strip()]
        except (ValueError, KeyError):
            raise ValueError(f"--match {text!r}: expected NAME,RATING,wdl=W,D,L or "
                             "NAME,RATING,ptnml=LL,LD,WLDD,WD,WW") from None
        want = 5 if match.ptnml is not None else 3
        if len(counts) != want or min(counts) < 0 or sum(counts) == 0:
            raise ValueError(f"--match {text!r}: {kind.strip()} needs {want} counts, "
                             "none negative, not all zero")
        return match


def expected(rating, anchor):
    """The logistic expected score of `rating` against `anchor`."""
    return 1 / (1 + 10 ** ((anchor - rating) / 400))


def match_points(match):
    """(points scored, games, the points' variance) of a match, the variance measured from its
    own units: per pair when the pentanomial counts are given, per game otherwise."""
    values, counts, per_unit = match.units()
    n, mu, var = _unit_stats(values, counts)
    return per_unit * n * mu, per_unit * n, per_unit ** 2 * n * var


def anchored_rating(matches, z=Z95, dispersion=1.0):
    """The maximum-likelihood rating from matches against anchored opponents, with the
    interval where the score equation is z standard deviations off: (rating, low, high).
    A low or high end is ±inf where no finite rating reaches it (a clean sweep). `dispersion`
    scales the variance (the quasi-likelihood interval of `rating_spread`)."""
    points = sum(match_points(m)[0] for m in matches)
    variance = dispersion * sum(match_points(m)[2] for m in matches)
    spread = z * math.sqrt(variance)

    def solve(target):
        """The R with Σ n_j·E_j(R) = target, by bisection (the sum rises with R)."""
        games = sum(m.games() for m in matches)
        if target <= 0 or target >= games:
            return math.copysign(math.inf, target - games / 2)
        lo = min(m.anchor for m in matches) - 4000
        hi = max(m.anchor for m in matches) + 4000
        for _ in range(200):
            mid = (lo + hi) / 2
            if sum(m.games() * expected(mid, m.anchor) for m in matches) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    return solve(points), solve(points - spread), solve(points + spread)


def chi2_sf(x, dof):
    """P(χ² ≥ x) on `dof` (a positive integer) degrees of freedom, in closed form: for even dof
    e^(−x/2)·Σ_{i<dof/2} (x/2)^i/i!, for odd dof erfc(√(x/2)) + e^(−x/2)·Σ_{i=1}^{(dof−1)/2}
    (x/2)^(i−½)/Γ(i+½) (the regularized upper incomplete gamma function Q(dof/2, x/2) at an
    integer or half-integer order)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if dof % 2 == 0:
        return math.exp(-h) * sum(h ** i / math.factorial(i) for i in range(dof // 2))
    return math.erfc(math.sqrt(h)) + math.exp(-h) * sum(h ** (i - 0.5) / math.gamma(i + 0.5)
                                                      for i in range(1, (dof + 1) // 2))


def dersimonian_laird(estimates, variances, z=Z95):
    """The random-effects mean of `estimates` with their within-study `variances`, by the
    method of moments of DerSimonian and Laird (1986): (mean, low, high, τ², Q). With weights
    w = 1/v and their mean ȳ, Cochran's Q = Σ w·(y − ȳ)² has expectation k − 1 + τ²·C, C = Σw −
    Σw²/Σw, so τ² = max(0, (Q − (k − 1))/C); the mean weights by w* = 1/(v + τ²) and has the
    variance 1/Σw*."""
    w = [1 / v for v in variances]
    fixed = sum(wi * y for wi, y in zip(w, estimates)) / sum(w)
    q = sum(wi * (y - fixed) ** 2 for wi, y in zip(w, estimates))
    c = sum(w) - sum(wi * wi for wi in w) / sum(w)
    tau2 = max(0.0, (q - (len(estimates) - 1)) / c) if c > 0 else 0.0
    w_star = [1 / (v + tau2) for v in variances]
    mean = sum(wi * y for wi, y in zip(w_star, estimates)) / sum(w_star)
    half = z / math.sqrt(sum(w_star))
    return mean, mean - half, mean + half, tau2, q


def performance(match):
    """The rating that scores against this opponent what the match scored (its anchor plus the
    match's Elo), and that rating's variance by the delta method: the score's variance times
    (dElo/ds)², dElo/ds = 400/(ln 10 · s·(1 − s))."""
    points, games, variance = match_points(match)
    s = points / games
    slope = 400 / (math.log(10) * s * (1 - s)) if 0 < s < 1 else math.inf
    return match.anchor + elo(s), slope ** 2 * variance / games ** 2


def rating_spread(matches, z=Z95):
    """What the opponents' disagreement adds to `anchored_rating`'s interval, or None when
    there is nothing to measure it by (one opponent, or a match without spread or with a
    clean score). A dict of:

    - chi2, dof, p: Pearson's χ² = Σ (s_j − n_j·E_j(R))²/V_j of the fitted rating R, with the
      points' variances V_j of `match_points`, on k − 1 degrees of freedom, and its p-value.
      One rating for all opponents predicts χ² about k − 1.
    - phi, quasi: the dispersion φ = χ²/(k − 1) and the quasi-likelihood interval, the games'
      interval with the variance scaled by φ when φ > 1 (McCullagh and Nelder, Generalized
      Linear Models, 2nd ed., 1989, §9): (low, high), the games' own when φ ≤ 1.
    - dl, tau: DerSimonian and Laird's random-effects fit of the per-opponent performances:
      (mean, low, high), and τ, the spread of the opponents' true performances in Elo.
    - leave_one_out: [(name, rating)] of the fit without each opponent in turn.
    """
    if len(matches) < 2:
        return None
    rating = anchored_rating(matches, z)[0]
    chi2 = 0.0
    for m in matches:
        points, games, variance = match_points(m)
        if not variance or not 0 < points < games:
            return None
        chi2 += (points - games * expected(rating, m.anchor)) ** 2 / variance
    dof = len(matches) - 1
    phi = chi2 / dof
    _, low, high = anchored_rating(matches, z, dispersion=max(phi, 1.0))
    perf = [performance(m) for m in matches]
    mean, dl_low, dl_high, tau2, _ = dersimonian_laird([p for p, _ in perf], [v for _, v in perf], z)
    return {"chi2": chi2, "dof": dof, "p": chi2_sf(chi2, dof), "phi": phi, "quasi": (low, high),
            "dl": (mean, dl_low, dl_high), "tau": math.sqrt(tau2),
            "leave_one_out": [(m.name, anchored_rating(matches[:i] + matches[i + 1:], z)[0])
                              for i, m in enumerate(matches)]}


def spread_lines(matches, z=Z95):
    """`rating_spread` as the lines `stats.py rating` prints under the games' interval."""
    spread = rating_spread(matches, z)
    if spread is None:
        return ["the opponents' disagreement: not measured (a match scored alike in every game or "
                "pair, or took every point or none)"] if len(matches) > 1 else []
    low, high = spread["quasi"]
    mean, dl_low, dl_high = spread["dl"]
    loo = sorted(spread["leave_one_out"], key=lambda x: x[1])
    dof = spread["dof"]
    return [f"opponents' agreement: Pearson χ² {spread['chi2']:.1f} on {dof} degree{'s' * (dof > 1)} of "
            f"freedom, p = {spread['p']:.2g}, dispersion φ = {spread['phi']:.2f}",
            f"quasi-likelihood (variance × φ when φ > 1): 95 % interval {low:.0f} to {high:.0f} "
            f"(± {(high - low) / 2:.0f})",
            f"DerSimonian–Laird random effect: {mean:.0f}, 95 % interval {dl_low:.0f} to {dl_high:.0f} "
            f"(± {(dl_high - dl_low) / 2:.0f}), spread between opponents τ = {spread['tau']:.0f} Elo",
            f"leaving one opponent out: {loo[0][1]:.0f} (without {loo[0][0]}) to {loo[-1][1]:.0f} "
            f"(without {loo[-1][0]})"]


def _rating_main(argv):
    import argparse
    parser = argparse.ArgumentParser(
        prog="stats.py rating",
        description="The maximum-likelihood rating of one engine on a rating list's scale, from "
                    "its matches against engines whose ratings on that list are held fixed.")
    parser.add_argument("--match", action="append", required=True, metavar="NAME,RATING,COUNTS",
                        help="an opponent, its rating on the list, and our W/D/L "
                             "(wdl=W,D,L) or pentanomial counts (ptnml=LL,LD,WLDD,WD,WW); repeat")
    args = parser.parse_args(argv)
    try:
        matches = [AnchoredMatch.parse(text) for text in args.match]
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    rating, low, high = anchored_rating(matches)
    for m in matches:
        values, counts, per_unit = m.units()
        n, mu, _ = _unit_stats(values, counts)
        print(f"{m.name}: {m.anchor:.0f}, {m.games()} games, {100 * mu:.1f} %, "
              f"performance {m.anchor + elo(mu):.0f}")
    print(f"rating {rating:.0f}, 95 % interval {low:.0f} to {high:.0f} "
          f"(± {(high - low) / 2:.0f}), {sum(m.games() for m in matches)} games")
    for line in spread_lines(matches):
        print(line)


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] != ["rating"]:
        sys.exit("usage: stats.py rating --match NAME,RATING,COUNTS [--match ...]")
    _rating_main(sys.argv[2:])
