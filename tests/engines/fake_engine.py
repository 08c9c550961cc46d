#!/usr/bin/env python3
"""A tiny engine for testing `orca match`: speaks UGI, GTP or NBoard, plays the
first legal move, and misbehaves on request from its Nth own move on.

usage: fake_engine.py PROTOCOL [MODE [N]] [--pidfile FILE (its pid is added)]
MODE: good (default), illegal (plays d4, always occupied), sleep (answers 3 s
late), crash (exits with status 3), silent (answers that move, then never
writes again).
"""
import re
import sys
import time

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27


def flips(board, side, i):
    other = "O" if side == "X" else "X"
    row, col = divmod(i, 8)
    out = []
    for dr, dc in DIRS:
        run, r, c = [], row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == side:
            out += run
    return out


def legal(board, side):
    return [i for i in range(64) if board[i] == "-" and flips(board, side, i)]


class Game:
    def __init__(self, squares=START, side="X"):
        self.board = list(squares.replace("*", "X"))
        self.side = "X" if side in ("X", "*", "B") else "O"

    def play(self, token, side=None):
        """Plays a move; a forced pass is inserted when `side` moves twice."""
        if side and side != self.side:
            self.side = side
        if token.lower() in ("pass", "pa", "--"):
            self.side = "O" if self.side == "X" else "X"
            return
        i = (int(token[1]) - 1) * 8 + ord(token[0].lower()) - ord("a")
        for j in flips(self.board, self.side, i) + [i]:
            self.board[j] = self.side
        self.side = "O" if self.side == "X" else "X"

    def first_move(self):
        moves = legal(self.board, self.side)
        if not moves:
            return "pass"
        return "abcdefgh"[moves[0] % 8] + str(moves[0] // 8 + 1)


def main():
    args = sys.argv[1:]
    if "--pidfile" in args:
        k = args.index("--pidfile")
        with open(args[k + 1], "a") as f:
            f.write("%d\n" % __import__("os").getpid())
        del args[k : k + 2]
    proto = args[0]
    mode = args[1] if len(args) > 1 else "good"
    after = int(args[2]) if len(args) > 2 else 1
    game, moves_made, silent, falling_silent = Game(), 0, False, False

    def out(text):
        nonlocal silent
        if not silent:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        silent = falling_silent

    def choose():
        nonlocal moves_made, falling_silent
        moves_made += 1
        if moves_made >= after:
            if mode == "illegal":
                return "d4"
            if mode == "sleep":
                time.sleep(3)
            if mode == "crash":
                sys.exit(3)
            if mode == "silent":
                falling_silent = True
        return game.first_move()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "quit":
            if proto == "gtp":
                out("=\n")
            return
        if proto == "ugi":
            if cmd == "ugi":
                out("id name fake\noption name Variant type combo default othello var othello var reversed\nugiok")
            elif cmd == "isready":
                out("readyok")
            elif cmd == "position":
                moves = words[words.index("moves") + 1 :] if "moves" in words else []
                game = Game() if words[1] == "startpos" else Game(words[2], words[3])
                for m in moves:
                    if m != "pass" and not legal(game.board, game.side):
                        game.play("pass")
                    game.play(m)
            elif cmd == "go":
                out("info depth 1 score disc 0 pv x")
                out("bestmove " + choose())
        elif proto == "gtp":
            answer = ""
            if cmd == "clear_board":
                game = Game()
            elif cmd == "play":
                game.play(words[2], "X" if words[1][0] in "bB" else "O")
            elif cmd == "genmove":
                game.side = "X" if words[1][0] in "bB" else "O"
                answer = choose()
                if answer != "pass" and answer != "d4":
                    game.play(answer)
            elif cmd == "name":
                answer = "fake"
            out(("= " + answer).rstrip() + "\n")
        elif proto == "nboard":
            if cmd == "ping":
                out("pong " + words[1])
            elif cmd == "set" and words[1] == "game":
                bo = re.search(r"BO\[8 (\S+) (\S)\]", line)
                game = Game(bo.group(1), bo.group(2)) if bo else Game()
                for color, m in re.findall(r"(?<=\])([BW])\[([A-Za-z0-9-]+)", line):
                    game.play(m, "X" if color == "B" else "O")
            elif cmd == "go":
                out("=== " + choose().upper().replace("PASS", "PA") + "/0.00/0.01")


if __name__ == "__main__":
    main()
