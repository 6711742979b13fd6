"""OpenSpiel 2.0.2 `dou_dizhu` baseline for the qipai Dou Dizhu benchmarks.

qipai reports its Dou Dizhu speed as ratios to OpenSpiel measured in the same
run on the same machine, so this script measures the reference side:

* random_games_per_s: whole games from `new_initial_state()` to terminal,
  including OpenSpiel's chance deal (one "first card up" outcome, then 51
  single-card deals) and the bidding; chance nodes are resolved by sampling
  `chance_outcomes()` with a seeded `random.Random`, decision nodes by picking
  uniformly among `legal_actions()`. Deals in which all three players pass the
  bidding end there, as OpenSpiel defines them, and are counted as games.
* leader_listings_per_s: `legal_actions()` calls on states where the landlord,
  holding 20 cards, is about to make the opening lead (no Pass available).
* follower_listings_per_s: `legal_actions()` calls on the state right after
  that opening lead (a uniformly random one): the next player, holding 17
  cards, must beat it or pass.

Every figure goes through the Python binding (pyspiel), as in the reference
numbers quoted in the qipai issue. Run it pinned to one core:

    taskset -c 0 .venv-openspiel/bin/python bench/openspiel/measure.py

It prints one JSON line. See README.md beside this file.
"""

import argparse
import importlib.metadata
import json
import random
import statistics
import time

import pyspiel

# OpenSpiel's dou_dizhu action ids: 0 is Pass (in bidding and in play),
# 1..3 are the bids, 4 and above are card plays.
PASS = 0
FIRST_PLAY_ACTION = 4


def sample_chance(state, rng):
    """Draws one chance outcome with the probabilities OpenSpiel gives.

    A cumulative scan over (action, probability) pairs is exact for any
    distribution and about twice as fast here as `rng.choices` after a zip,
    which would otherwise dominate the game timing (52 chance nodes a game).
    """
    x = rng.random()
    for action, prob in state.chance_outcomes():
        x -= prob
        if x < 0:
            return action
    return action  # rounding left x >= 0: the last outcome


def random_game(game, rng):
    """Plays one game with uniformly random legal actions; returns the plies."""
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies


def opening_states(game, rng):
    """Returns (leader, follower) states from one random deal, or None.

    The leader state is the first decision node whose legal actions lack Pass:
    in bidding Pass is always legal, so that is the landlord's opening lead
    with 20 cards. The follower state is the one after a random opening play.
    Returns None when all three players pass the bidding (no landlord).
    """
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        actions = state.legal_actions()
        if PASS not in actions:
            leader = state.clone()
            state.apply_action(rng.choice(actions))
            return leader, state
        state.apply_action(rng.choice(actions))
    return None


def listings_per_s(states, calls):
    """Times `calls` legal_actions() calls spread evenly over `states`.

    Returns (aggregate, median): aggregate is all calls over all time, so slow
    hands (a leader may have 250+ plays) weigh in as they would in play;
    median is the middle per-state rate, a typical single hand. The cost per
    hand varies by two orders of magnitude, so the two differ a lot.
    """
    reps = max(1, calls // len(states))
    total = 0.0
    rates = []
    for state in states:
        start = time.perf_counter()
        for _ in range(reps):
            state.legal_actions()
        elapsed = time.perf_counter() - start
        total += elapsed
        rates.append(reps / elapsed)
    return reps * len(states) / total, statistics.median(rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random games to time")
    parser.add_argument("--states", type=int, default=200, help="leader/follower states each")
    parser.add_argument("--calls", type=int, default=200_000, help="legal_actions() calls per kind")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(args.seed)

    # (a) Random self-play, deal to end including bidding.
    random_game(game, rng)  # warm-up: first-call costs stay out of the timing
    plies = 0
    start = time.perf_counter()
    for _ in range(args.games):
        plies += random_game(game, rng)
    games_elapsed = time.perf_counter() - start

    # (b) Legal-action listings on fixed sets of leader and follower states.
    leaders, followers = [], []
    while len(leaders) < args.states:
        pair = opening_states(game, rng)
        if pair is not None:
            leaders.append(pair[0])
            followers.append(pair[1])
    # Every follower state really must follow: Pass plus at least one play id.
    assert all(PASS in s.legal_actions() for s in followers)
    assert all(min(s.legal_actions()) >= FIRST_PLAY_ACTION for s in leaders)
    leader_moves = sum(len(s.legal_actions()) for s in leaders) / len(leaders)
    follower_moves = sum(len(s.legal_actions()) for s in followers) / len(followers)

    leader_rate, leader_median = listings_per_s(leaders, args.calls)
    follower_rate, follower_median = listings_per_s(followers, args.calls)

    print(json.dumps({
        "openspiel_version": importlib.metadata.version("open_spiel"),
        "random_games_per_s": round(args.games / games_elapsed, 1),
        "leader_listings_per_s": round(leader_rate),
        "follower_listings_per_s": round(follower_rate),
        "games": args.games,
        "decisions_per_game": round(plies / args.games, 1),
        "leader_listings_per_s_median_hand": round(leader_median),
        "follower_listings_per_s_median_hand": round(follower_median),
        "leader_moves_mean": round(leader_moves, 1),
        "follower_moves_mean": round(follower_moves, 1),
        "seed": args.seed,
    }))


if __name__ == "__main__":
    main()
