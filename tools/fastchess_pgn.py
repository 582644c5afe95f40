"""What a match played by fastchess says in its PGN: results, incidents and clocks.

fastchess (github Disservin/fastchess, `app/src/game/pgn/pgn_builder.cpp`) writes, with
`-pgnout … timeleft=true`:

- a `[Termination]` tag: `normal`, `adjudication`, `time forfeit`, `illegal move`, `abandoned`
  (an engine that disconnected or stalled) or `unterminated`;
- after every engine move a comment `{score/depth secondss, tl=secondss}`: the time the move
  took as fastchess measured it, and the mover's clock after it, increment and any refill
  included (`app/src/game/timecontrol/timecontrol.cpp`: the clock starts at base + increment;
  at a repeating control M/B the base is added on every M-th move of the side, before the
  move's time is taken off);
- after the last move's fields the reason the game ended (`White mates`, `Black loses on
  time (12ms overrun)`, `White disconnects`, `Black's connection stalls`, …); a game that
  ended before its first engine move has no comment, and `read_games` takes its reason from
  fastchess's standard output instead;
- the same `[Round]` for both games of a pair (one opening, colours reversed).

This module reads that with no chess library: it needs only which side made each move.
"""

import collections
import dataclasses
import math
import os
import re
import statistics

INCIDENTS = ("time forfeit", "illegal move", "crash", "stall")
MOVE_N = 60  # the share of the clock used is taken at each side's 60th move under the clock
CLOCK = re.compile(r"^\s*[^/\s]*/\d+ (?P<secs>-?\d+(?:\.\d+)?)s(?:, tl=(?P<tl>-?\d+(?:\.\d+)?)s)?")
HEADER = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\$\d+|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[()]|[^\s{}();]+")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """`moves`/`base`+`inc` (ms; moves 0: one period for the game), a fixed `movetime` (ms), or a
    fixed number of `nodes` a move. Games at fixed nodes keep no clock: they compare two
    evaluations or searches node for node, whatever else the machine is doing, so such a screen
    needs no quiet cores (a change of speed is invisible to it, so it decides nothing that costs
    or saves time)."""
    base: float = 0.0
    inc: float = 0.0
    moves: int = 0
    movetime: float = 0.0
    nodes: int = 0

    @classmethod
    def parse(cls, text):
        """B+I, M/B, M/B+I, st=S, nodes=N (the tools' forms) or S/move (the PGN tag's); None
        otherwise."""
        text = text.strip()
        m = re.fullmatch(r"nodes=([1-9]\d*)", text)
        if m:
            return cls(nodes=int(m.group(1)))
        m = re.fullmatch(r"st=(\d+(?:\.\d*)?)|(\d+(?:\.\d*)?)/move", text)
        if m:
            return cls(movetime=1000 * float(m.group(1) or m.group(2)))
        m = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?", text)
        if not m or int(m.group(1) or 1) == 0:
            return None
        return cls(base=1000 * float(m.group(2)), inc=1000 * float(m.group(3) or 0), moves=int(m.group(1) or 0))

    def fastchess(self):
        """The `-each` item: tc=M/B+I, st=S or nodes=N."""
        label = self.label()
        return label if self.nodes or self.movetime else "tc=" + label

    def label(self):
        """The control as the tools' options write it (B+I, M/B+I, st=S, nodes=N), so that a
        table read back from the PGN (whose tag says S/move, or "-" at fixed nodes) names it
        as the table printed while playing did."""
        if self.nodes:
            return f"nodes={self.nodes}"
        if self.movetime:
            return f"st={self.movetime / 1000:g}"
        return (f"{self.moves}/" if self.moves else "") + f"{self.base / 1000:g}" + \
            (f"+{self.inc / 1000:g}" if self.inc else "")

    def refills_at(self, k):
        """Is the base added on the side's k-th move (k from 1)?"""
        return self.moves > 0 and k % self.moves == 0

    def given_by(self, k):
        """Time the side has been given by its k-th move: every period begun, every increment
        (the first with the base, as fastchess starts the clock at base + increment)."""
        periods = math.ceil(k / self.moves) if self.moves else 1
        return periods * self.base + k * self.inc


@dataclasses.dataclass
class Move:
    """One engine move: who, its number among that side's moves, time taken, clock after."""
    white: bool
    number: int
    elapsed_ms: float
    tl_ms: float | None


@dataclasses.dataclass
class Game:
    headers: dict
    moves: list
    reason: str

    @property
    def white(self):
        return self.headers.get("White", "?")

    @property
    def black(self):
        return self.headers.get("Black", "?")

    def points(self, name):
        """`name`'s score in this game (None if the game has no result)."""
        result = self.headers.get("Result", "*")
        if result == "*" or name not in (self.white, self.black):
            return None
        white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        return white_points if name == self.white else 1 - white_points

    def incident(self):
        """(loser, kind) for a game lost by time forfeit, illegal move, crash or stall; else None."""
        kind = {"time forfeit": "time forfeit", "illegal move": "illegal move"}.get(self.headers.get("Termination"))
        if self.headers.get("Termination") == "abandoned":
            kind = "stall" if "stalls" in self.reason else "crash"
        result = self.headers.get("Result")
        if kind is None or result not in ("1-0", "0-1"):
            return None
        return (self.black if result == "1-0" else self.white), kind

    def time_control(self, white):
        text = self.headers.get("WhiteTimeControl" if white else "BlackTimeControl") or self.headers.get("TimeControl")
        return TimeControl.parse(text) if text else None


def _reason(comment):
    """Why the game ended, from its last comment: the text after the move's fields
    (`…, tl=0.240s, White mates`), or the whole comment when the game ended before a move
    (`White makes an illegal move: a1a1`)."""
    items = [item.strip() for item in comment.split(", ")]
    if CLOCK.match(items[0]):
        items = items[1:]
    items = [item for item in items if not re.match(r"^\w+=", item)]
    return items[-1] if items and items[-1] != "book" else ""


def _game(headers, movetext):
    fen = headers.get("FEN", "").split()
    white = len(fen) < 2 or fen[1] != "b"  # the side to make the next move
    moves, counts, comment, after_move = [], {True: 0, False: 0}, "", False
    for token in TOKEN.findall(movetext):
        if token.startswith("{"):
            comment = token[1:-1]
            m = CLOCK.match(comment)
            if after_move and m:
                mover = not white
                counts[mover] += 1
                tl = 1000 * float(m["tl"]) if m["tl"] is not None else None
                moves.append(Move(mover, counts[mover], 1000 * float(m["secs"]), tl))
            after_move = False
        elif re.fullmatch(r"\d+\.+", token) or token in RESULTS or token in "()" or token[0] in ";$":
            after_move = False
        else:  # a move in SAN, LAN or UCI notation
            white, after_move = not white, True
    return Game(headers, moves, _reason(comment))


# fastchess's standard output names every game's end: `Finished game 5 (a vs b): 1-0 {Black's
# connection stalls}`.
FINISHED = re.compile(r"^Finished game \d+ \((.+) vs (.+)\): (1-0|0-1|1/2-1/2|\*) \{(.*)\}\s*$")


def finished_reasons(path):
    """{(white, black, result): [reason, …]} from fastchess's output file, in finish order."""
    reasons = collections.defaultdict(list)
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if m := FINISHED.match(line):
                reasons[m.groups()[:3]].append(m.group(4))
    return reasons


def read_games(path):
    """Every game of a fastchess PGN file, in file order. A game that ended before its first
    engine move has no comment to hold its reason, so a stall there would read as a crash: its
    reason is taken from fastchess's output when the file beside the PGN (`x.out` for `x.pgn`,
    as the tools here name them) has it. fastchess writes a game to both as it finishes, so the
    n-th game of a pairing with a result is matched to the n-th such line."""
    games = _read_pgn(path)
    out = os.path.splitext(path)[0] + ".out"
    if os.path.isfile(out):
        reasons = finished_reasons(out)
        for game in games:
            said = reasons[(game.white, game.black, game.headers.get("Result", "*"))]
            reason = said.pop(0) if said else ""
            if not game.reason:
                game.reason = reason
    return games


def _read_pgn(path):
    games, headers, movetext = [], {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                if movetext and headers:
                    games.append(_game(headers, " ".join(movetext)))
                    headers, movetext = {}, []
                headers[m.group(1)] = m.group(2)
            elif line.strip():
                movetext.append(line)
    if headers:
        games.append(_game(headers, " ".join(movetext)))
    return games


def tally(games, name, opponent=None):
    """`name`'s W/D/L, its pentanomial counts [LL, LD, WL+DD, WD, WW] over the complete game
    pairs (the two games of one `[Round]` between the same two engines), and the incidents by
    loser; against `opponent` only if given."""
    wdl, pairs = [0, 0, 0], collections.defaultdict(list)
    incidents = collections.defaultdict(lambda: dict.fromkeys(INCIDENTS, 0))
    for game in games:
        other = game.black if game.white == name else game.white
        points = game.points(name)
        if points is None or (opponent is not None and other != opponent):
            continue
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
        pairs[(game.headers.get("Round"), other)].append(points)
        if (found := game.incident()) is not None:
            incidents[found[0]][found[1]] += 1
    ptnml = [0] * 5
    for scores in pairs.values():
        if len(scores) == 2:
            ptnml[round(2 * sum(scores))] += 1
    return {"wins": wdl[0], "draws": wdl[1], "losses": wdl[2], "games": sum(wdl), "ptnml": ptnml,
            "incidents": dict(incidents)}


def clock_left(move, tc):
    """The mover's clock the moment its move was made (before increment and refill), in ms: the
    figure that shows how near it came to losing on time. None without a `tl=`."""
    if tc is not None and tc.movetime:
        return tc.movetime - move.elapsed_ms
    if move.tl_ms is None or tc is None or tc.nodes:
        return None
    if move.tl_ms < 0:
        # A flag: fastchess stops the clock at the overrun and adds nothing after it.
        return move.tl_ms
    return move.tl_ms - tc.inc - (tc.base if tc.refills_at(move.number) else 0)


def clock_figures(games, names, tc=None):
    """Per engine name: mean ms per move, mean share of the time given by its 60th move that it
    had used then (games that lasted that long), lowest clock, and at a repeating control the
    clock left just before each refill (mean and lowest). `tc` stands in for a missing tag."""
    per = {n: {"used": [], "share": [], "lowest": None, "refill": []} for n in names}
    for game in games:
        for move in game.moves:
            name = game.white if move.white else game.black
            if name not in per:
                continue
            rec, control = per[name], game.time_control(move.white) or tc
            rec["used"].append(move.elapsed_ms)
            left = clock_left(move, control)
            if left is None:
                continue
            rec["lowest"] = left if rec["lowest"] is None else min(rec["lowest"], left)
            if control.refills_at(move.number):
                rec["refill"].append(left)
            if move.number == MOVE_N and not control.movetime:
                given = control.given_by(MOVE_N)
                rec["share"].append((given - left) / given)
    out = {}
    for n, rec in per.items():
        out[n] = {
            "ms_per_move": statistics.fmean(rec["used"]) if rec["used"] else None,
            "share_by_60": statistics.fmean(rec["share"]) if rec["share"] else None,
            "games_to_60": len(rec["share"]),
            "lowest_ms": rec["lowest"],
            "refills": len(rec["refill"]),
            "before_refill_mean_ms": statistics.fmean(rec["refill"]) if rec["refill"] else None,
            "before_refill_lowest_ms": min(rec["refill"]) if rec["refill"] else None,
        }
    return out


# A figure that does not apply to the control (a clock at fixed nodes, a refill where the
# clock is never refilled), as against "n/a": one that applies but had no data.
NOT_APPLICABLE = "—"


def fmt_ms(value, applies=True):
    if not applies:
        return NOT_APPLICABLE
    return "n/a" if value is None else f"{value:.0f} ms"


def fmt_pct(value):
    return "n/a" if value is None else f"{100 * value:.1f}%"
