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
machine's speed, and is not reproducible.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import asdict, dataclass

from crabclients.bots import Bot, LookaheadBot, RandomBot, SearchBot, play_game
from crabclients.client import RulesClient
from crabclients.intervals import Interval, mean_interval
from crabclients.server_process import server_address
from crabgames.games import all_games

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


@dataclass(frozen=True)
class Budget:
    """Per move: simulations, or milliseconds (then the server's most simulations)."""

    simulations: int
    milliseconds: int = 0


def search_bot(seed: int, budget: Budget) -> SearchBot:
    if budget.milliseconds:
        return SearchBot(seed=seed, simulations=0, milliseconds=budget.milliseconds)
    # A time budget far above the simulations' needs: the simulations decide, reproducibly.
    return SearchBot(seed=seed, simulations=budget.simulations, milliseconds=5000)


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


def competitive(client: RulesClient, run: Run) -> tuple[Interval, Interval]:
    mine: list[float] = []
    theirs: list[float] = []
    engine_game = {g.facts.id: g for g in all_games()}[run.game]
    for k in range(run.games):
        seed, seat = run.seed + k, k % run.players
        bots = [opponent_bot(run.opponent, run.seed * 100 + k * 10 + s) for s in range(run.players)]
        bots[seat] = search_bot(seed, run.budget)
        returns = engine_game.returns(play_game(client, run.game, bots, seed=seed).outcome)
        mine.append(returns[seat])
        theirs.append(statistics.fmean(r for s, r in enumerate(returns) if s != seat))
    return mean_interval(mine), mean_interval(theirs)


def cooperative(client: RulesClient, run: Run) -> tuple[Interval, Interval, Interval]:
    ours: list[float] = []
    theirs: list[float] = []
    for k in range(run.games):
        seed, seats = run.seed + k, range(run.players)
        team = [search_bot(run.seed + k * 10 + s, run.budget) for s in seats]
        rivals = [opponent_bot(run.opponent, run.seed * 100 + k * 10 + s) for s in seats]
        ours.append(play_game(client, run.game, team, seed=seed).outcome.crab_bucket.points)
        theirs.append(play_game(client, run.game, rivals, seed=seed).outcome.crab_bucket.points)
    differences = [a - b for a, b in zip(ours, theirs, strict=True)]
    return mean_interval(ours), mean_interval(theirs), mean_interval(differences)


def measure(client: RulesClient, run: Run) -> Result:
    started = time.monotonic()
    difference = None
    if run.game == "crab_bucket":
        mine, theirs, difference = cooperative(client, run)
    else:
        mine, theirs = competitive(client, run)
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
                        budget = Budget(args.simulations or SIMULATIONS[game])
                    result = measure(
                        client, Run(game, players, opponent, args.games, args.seed, budget)
                    )
                    print(line(result), f"{result.seconds:.0f} s", flush=True)
                    if args.out:
                        with open(args.out, "a") as out:
                            out.write(json.dumps(asdict(result)) + "\n")


if __name__ == "__main__":
    main()
