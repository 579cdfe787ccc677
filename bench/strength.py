"""How strong the server's search bot is (docs/agents.md): SuggestMove against LookaheadBot and
RandomBot, through a real server, seeded, seats rotated, with 95% confidence intervals.

    python -m bench.strength --games 30 --out bench/strength.json      (every title and count)
    python -m bench.strength --game kraby --players 2 --opponent lookahead --games 10

Competitive titles (Kraby, CRAB RAGE!): one search bot, the other seats all the opponent bot;
game k seats the search bot at k mod players and uses seed `--seed + k`. It reports the search
bot's mean return (its share of the victories: 1 for a win, 1/2 for a win shared by two, Game
returns) with its interval, beside the share an equal bot would get (1/players).

Crab Bucket is cooperative: the same seeds are played once by a team of search bots and once by
a team of the opponent bots, and it reports both teams' mean mission points (B8) and the mean
of the paired differences with its interval.

The budget is a number of simulations per move (`--simulations`, one per title by default),
so a run is reproducible and its cost known; docs/agents.md gives each title's simulations per
second, which says what the default budget of SuggestMove (1 s) allows. `--milliseconds`
budgets by time instead (the issue's goal is stated at 1 s a move); such a run depends on the
machine's speed, and is not reproducible. The server stops every search at 5 s, which a loaded
machine can reach before the simulations: `--in-process` runs the search bot's search
(`suggest_move`, what SuggestMove runs) in this process with no time cap, giving the answers a
SuggestMove reaching its simulations gives; each row counts the searches the time stopped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass

from crabclients.bots import Bot, LookaheadBot, RandomBot, SearchBot, play_game
from crabclients.client import RulesClient
from crabclients.intervals import Interval, mean_interval
from crabclients.server_process import server_address
from crabgames.core.engine import Engine
from crabgames.core.search import suggest_move
from crabgames.games import all_games
from crabgames.v1 import game_pb2

# Simulations per move: at most what one second gives on one quiet core of the bench machine
# (docs/agents.md has the rates), so the measure is a lower bound for the 1 s budget. Kraby's
# search plays its rivals by its fisher model, so its simulations cost more as fishers are added:
# 500 is about a third of a second with two fishers and about one with four.
SIMULATIONS = {"kraby": 500, "crab_bucket": 3000, "crab_rage": 250}
DEFAULT_SEED = 5000
OPPONENTS = {"lookahead": LookaheadBot, "random": RandomBot}


@dataclass
class Result:
    game: str
    players: int
    opponent: str
    simulations: int  # per move; 0 when the time decides
    games: int
    seconds: float
    search: Interval  # competitive: the search bot's return; cooperative: its team's points
    opponents: Interval  # competitive: each opponent's mean return; cooperative: their points
    difference: Interval | None = None  # cooperative: search team minus opponent team, paired
    milliseconds: int = 0  # per move, when the time decides
    seed: int = DEFAULT_SEED  # game k's seed is seed + k
    searches: int = 0  # the search bots' SuggestMove calls
    stopped: int = 0  # of those, the ones the time stopped before the simulations (5 s cap)


@dataclass(frozen=True)
class Budget:
    """Per move: simulations, or milliseconds (then the server's most simulations)."""

    simulations: int
    milliseconds: int = 0
    in_process: Engine | None = None  # run the search here, on this engine (--in-process)


class CountingSearchBot(SearchBot):
    """A SearchBot that counts its searches and those the time stopped: a simulations budget
    is reproducible only if no search hit the server's time cap (a loaded machine)."""

    searches = stopped = 0

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        move = super().choose(client, view)
        if len(view.legal_moves) > 1 and self.last is not None:
            self.searches += 1
            self.stopped += self.last.stopped_by_time
        return move


class InProcessSearchBot(CountingSearchBot):
    """SuggestMove's search (suggest_move, which the server runs) in this process, with no time
    cap: the same answers for the same view and seed as a SuggestMove that reaches its
    simulations, however loaded the machine (the server stops every search at 5 s)."""

    def __init__(self, engine: Engine, seed: int, simulations: int) -> None:
        super().__init__(seed=seed, simulations=simulations, milliseconds=0)
        self.engine = engine

    def choose(self, client: RulesClient, view: game_pb2.View) -> game_pb2.Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        seed = self.rng.getrandbits(62) + 1  # as SearchBot draws its SuggestMove seed
        self.searches += 1
        return suggest_move(self.engine, view, self.simulations, seed).move


def search_bot(seed: int, budget: Budget) -> CountingSearchBot:
    if budget.in_process is not None:
        return InProcessSearchBot(budget.in_process, seed, budget.simulations)
    if budget.milliseconds:
        return CountingSearchBot(seed=seed, simulations=0, milliseconds=budget.milliseconds)
    # The most time the server allows (5 s): the simulations decide, reproducibly, unless a
    # search hits the cap (counted in Result.stopped).
    return CountingSearchBot(seed=seed, simulations=budget.simulations, milliseconds=5000)


def opponent_bot(name: str, seed: int) -> Bot:
    return OPPONENTS[name](seed)


@dataclass(frozen=True)
class Run:
    """One row: `games` games of a title at a table, against one kind of bot."""

    game: str
    players: int
    opponent: str
    games: int
    seed: int  # game k's seed is seed + k
    budget: Budget


@dataclass
class Counts:
    """The search bots' SuggestMove calls in a row, and those the time stopped."""

    searches: int = 0
    stopped: int = 0

    def add(self, bots: list[CountingSearchBot]) -> None:
        self.searches += sum(bot.searches for bot in bots)
        self.stopped += sum(bot.stopped for bot in bots)

    def progress(self, k: int, value: float) -> None:
        """A line on stderr per game: a long row can be followed, and its budget checked."""
        print(
            f"game {k}: {value:g}; {self.stopped} of {self.searches} searches stopped by the time",
            file=sys.stderr,
            flush=True,
        )


def competitive(client: RulesClient, run: Run, counts: Counts) -> tuple[Interval, Interval]:
    mine: list[float] = []
    theirs: list[float] = []
    engine_game = {g.facts.id: g for g in all_games()}[run.game]
    for k in range(run.games):
        seed, seat = run.seed + k, k % run.players
        bots = [opponent_bot(run.opponent, run.seed * 100 + k * 10 + s) for s in range(run.players)]
        searcher = bots[seat] = search_bot(seed, run.budget)
        returns = engine_game.returns(play_game(client, run.game, bots, seed=seed).outcome)
        counts.add([searcher])
        counts.progress(k, returns[seat])
        mine.append(returns[seat])
        theirs.append(statistics.fmean(r for s, r in enumerate(returns) if s != seat))
    return mean_interval(mine), mean_interval(theirs)


def cooperative(
    client: RulesClient, run: Run, counts: Counts
) -> tuple[Interval, Interval, Interval]:
    ours: list[float] = []
    theirs: list[float] = []
    for k in range(run.games):
        seed, seats = run.seed + k, range(run.players)
        team = [search_bot(run.seed + k * 10 + s, run.budget) for s in seats]
        rivals = [opponent_bot(run.opponent, run.seed * 100 + k * 10 + s) for s in seats]
        ours.append(play_game(client, run.game, team, seed=seed).outcome.crab_bucket.points)
        counts.add(team)
        counts.progress(k, ours[-1])
        theirs.append(play_game(client, run.game, rivals, seed=seed).outcome.crab_bucket.points)
    differences = [a - b for a, b in zip(ours, theirs, strict=True)]
    return mean_interval(ours), mean_interval(theirs), mean_interval(differences)


def measure(client: RulesClient, run: Run) -> Result:
    started = time.monotonic()
    difference, counts = None, Counts()
    if run.game == "crab_bucket":
        mine, theirs, difference = cooperative(client, run, counts)
    else:
        mine, theirs = competitive(client, run, counts)
    return Result(
        run.game,
        run.players,
        run.opponent,
        run.budget.simulations,
        run.games,
        time.monotonic() - started,
        mine,
        theirs,
        difference,
        run.budget.milliseconds,
        run.seed,
        counts.searches,
        counts.stopped,
    )


def budget_text(simulations: int, milliseconds: int) -> str:
    return f"{milliseconds} ms" if milliseconds else f"{simulations} simulations"


def line(result: Result) -> str:
    if result.difference is not None:
        return (
            f"| {result.game} | {result.players} | {result.opponent} |"
            f" {budget_text(result.simulations, result.milliseconds)} |"
            f" {result.games} | points {result.search} | points {result.opponents} |"
            f" difference {result.difference} |"
        )
    return (
        f"| {result.game} | {result.players} | {result.opponent} |"
        f" {budget_text(result.simulations, result.milliseconds)} |"
        f" {result.games} | return {result.search} | return {result.opponents} |"
        f" fair share {1 / result.players:.2f} |"
    )


def table(rows: list[dict]) -> str:
    """The results of a run (its JSON lines) as the table docs/agents.md shows."""
    out = [
        "| title | players | opponents | a move | seeds | search bot | each opponent |"
        " an equal bot |",
        "|---|---:|---|---|---|---|---|---|",
    ]
    for row in rows:
        mine, theirs = Interval(**row["search"]), Interval(**row["opponents"])
        budget = budget_text(row["simulations"], row.get("milliseconds", 0))
        first = row.get("seed", DEFAULT_SEED)
        seeds = f"{first} to {first + row['games'] - 1}"
        if row["difference"] is not None:
            difference = Interval(**row["difference"])
            out.append(
                f"| {row['game']} | {row['players']} | a team of {row['opponent']} |"
                f" {budget} | {seeds} | {mine} points | {theirs} points |"
                f" difference {difference} |"
            )
        else:
            out.append(
                f"| {row['game']} | {row['players']} | {row['opponent']} | {budget} |"
                f" {seeds} | {mine} | {theirs} | {1 / row['players']:.2f} |"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="a running server (default: start one)")
    parser.add_argument("--game", action="append", help="a title (default: all)")
    parser.add_argument("--players", type=int, action="append", help="default: every count")
    parser.add_argument("--opponent", action="append", choices=sorted(OPPONENTS))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--simulations", type=int, help="per move (default: by title)")
    parser.add_argument("--milliseconds", type=int, help="per move, instead of simulations")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the search bot's search in this process, without the server's 5 s cap (the"
        " same answers as SuggestMove reaching --simulations, on a loaded machine too)",
    )
    parser.add_argument("--out", help="append each result to this JSON lines file")
    parser.add_argument("--table", help="print the results in this JSON lines file as a table")
    args = parser.parse_args(argv)
    if args.table:
        with open(args.table) as lines:
            print(table([json.loads(line) for line in lines if line.strip()]))
        return
    titles = {g.facts.id: g.facts for g in all_games()}
    print("| title | players | opponent | a move | games | search bot | opponents | |")
    print("|---|---|---|---|---|---|---|---|")
    with server_address(args.address) as where, RulesClient.connect(where, timeout=60) as client:
        for game in args.game or sorted(titles):
            facts = titles[game]
            counts = args.players or range(facts.min_players, facts.max_players + 1)
            for players in counts:
                for opponent in args.opponent or ("lookahead", "random"):
                    if args.milliseconds:
                        budget = Budget(0, args.milliseconds)
                    else:
                        budget = Budget(
                            args.simulations or SIMULATIONS[game],
                            in_process=Engine(all_games()) if args.in_process else None,
                        )
                    result = measure(
                        client, Run(game, players, opponent, args.games, args.seed, budget)
                    )
                    print(
                        line(result),
                        f"{result.seconds:.0f} s, {result.stopped} of {result.searches}"
                        " searches stopped by the time",
                        flush=True,
                    )
                    if args.out:
                        with open(args.out, "a") as out:
                            out.write(json.dumps(asdict(result)) + "\n")


if __name__ == "__main__":
    main()
