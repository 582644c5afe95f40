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


def anchored_rating(matches, z=Z95):
    """The maximum-likelihood rating from matches against anchored opponents, with the
    interval where the score equation is z standard deviations off: (rating, low, high).
    A low or high end is ±inf where no finite rating reaches it (a clean sweep)."""
    points, variance = 0.0, 0.0
    for m in matches:
        values, counts, per_unit = m.units()
        n, mu, var = _unit_stats(values, counts)
        points += per_unit * n * mu
        variance += per_unit ** 2 * n * var
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


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] != ["rating"]:
        sys.exit("usage: stats.py rating --match NAME,RATING,COUNTS [--match ...]")
    _rating_main(sys.argv[2:])
