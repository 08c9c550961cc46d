"""What a call into Orca costs from Python: random Othello games played by
``legal_moves()`` and ``play()``, as ``examples/call_cost.rs`` plays them in
Rust; and the wall time of 100 ms searches.

    python python/examples/call_cost.py [GAMES]
"""

import random
import statistics
import sys
import time

import orca


def playouts(games):
    rng = random.Random(1)
    plies = 0
    started = time.perf_counter()
    for _ in range(games):
        position = orca.Position()
        while not position.is_over():
            moves = position.legal_moves()
            position = position.play(moves[rng.randrange(len(moves))])
            plies += 1
    seconds = time.perf_counter() - started
    print(f"{games} games, {plies} plies in {seconds:.3f} s: "
          f"{seconds * 1e9 / plies:.0f} ns a legal_moves() + play()")


def searches(count):
    engine = orca.Engine(book=False)
    position = orca.Position("f5d6c3d3c4f4f6f3e6e7d7c6")
    engine.search(position, movetime=0.1)  # the table's first touch
    walls, own = [], []
    for _ in range(count):
        engine.new_game()
        started = time.perf_counter()
        result = engine.search(position, movetime=0.1)
        walls.append(time.perf_counter() - started)
        own.append(result.time)
    print(f"{count} searches of 100 ms: wall median {statistics.median(walls) * 1000:.1f} ms, "
          f"max {max(walls) * 1000:.1f} ms; the engine's own clock median "
          f"{statistics.median(own) * 1000:.1f} ms")


if __name__ == "__main__":
    playouts(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
    searches(20)
