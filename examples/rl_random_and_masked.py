"""A random and a masked-random policy through the learning environments (nothing is trained).

    python examples/rl_random_and_masked.py --game gonzaga --episodes 20 --opponents greedy

Through the Gymnasium seat (the other seats played by our bots): a random policy, which loses
on its first closed index (`illegal="lose"`), and a masked-random policy. Then masked-random
play of every seat through the PettingZoo AEC environment. Prints the mean reward, the mean
steps per episode and the environment's steps per second.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from tavola.rl.aec import env as aec_env
from tavola.rl.single import SeatEnv

Policy = Callable[[dict, np.random.Generator], int]


def random_policy(space_size: int) -> Policy:
    return lambda obs, rng: int(rng.integers(space_size))


def masked_policy(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def run_seat(game: str, opponents: str, policy_name: str, episodes: int, seed: int) -> None:
    env = SeatEnv(game, seat=0, opponents=opponents, illegal="lose")
    policy = masked_policy if policy_name == "masked" else random_policy(env.action_space.n)
    rng = np.random.default_rng(seed)
    rewards, steps, start = [], 0, time.perf_counter()
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        done, total = False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(policy(obs, rng))
            total += reward
            steps += 1
        rewards.append(total)
    report(f"gymnasium seat, {policy_name} vs {opponents}", rewards, steps, start)


def run_aec(game: str, episodes: int, seed: int) -> None:
    env = aec_env(game)
    rng = np.random.default_rng(seed)
    rewards, steps, start = [], 0, time.perf_counter()
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        total = 0.0
        for agent in env.agent_iter():
            obs, reward, done, truncated, _ = env.last()
            total += reward if agent == "seat_0" else 0.0
            env.step(None if done or truncated else masked_policy(obs, rng))
            steps += 0 if done or truncated else 1
        rewards.append(total)
    report("pettingzoo AEC, masked for every seat", rewards, steps, start)


def report(what: str, rewards: list[float], steps: int, start: float) -> None:
    seconds = time.perf_counter() - start
    print(f"{what}: mean reward of seat_0 {np.mean(rewards):+.1f} over {len(rewards)} "
          f"episodes, {steps / len(rewards):.0f} steps each, {steps / seconds:,.0f} steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gonzaga")
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--opponents", default="random", help="a bot spec: random, greedy...")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for policy in ("random", "masked"):
        run_seat(args.game, args.opponents, policy, args.episodes, args.seed)
    run_aec(args.game, args.episodes, args.seed)


if __name__ == "__main__":
    main()
