#!/usr/bin/env python3
"""Compares scripts/gamedb.py with the gamedb CLI (and the C library) on real tables.

usage: compare_cli.py --gamedb BIN [--lib LIBGAMEDB] [--count N] [--seed S] TABLE...

For each table:
  * N random query lines (valid positions written in varied ways, near misses, garbage) go
    through `gamedb query TABLE - --json` and through gamedb.py: every output line must be
    byte-identical, and so must the exit status; a sample is compared in text mode too;
  * with --lib, the index of positions must be the same in Python and in Rust (through
    ctypes and the C ABI), both ways (rank and unrank);
  * the count of P-positions (distance tables: the census of distances) must match
    `gamedb info --json`;
  * damaged copies (payload byte, header byte, truncation, magic, version) are refused;
  * with numpy: the payload as a numpy.memmap equals the bytes the module reads.
Also: the pure Python xxh3 against the xxhash package (when installed), and an interactive
conversation with `gamedb.py query TABLE -` (one line written, one answer read, repeat).

Prints a summary line per table; exits 1 on the first disagreement, naming it.
"""

import argparse
import ctypes
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import gamedb  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "scripts", "gamedb.py")


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


# -- query lines -------------------------------------------------------------------------------


def spell(r, numbers):
    """Numbers written as a person or program might: spaces, '+', leading zeros."""
    parts = []
    for v in numbers:
        s = str(v)
        c = r.random()
        if c < 0.05:
            s = "+" + s
        elif c < 0.10:
            s = "0" + s
        if r.random() < 0.1:
            s = " " + s
        if r.random() < 0.1:
            s = s + "\t"
        parts.append(s)
    return ",".join(parts)


def garbage(r):
    return r.choice(
        [
            "x",
            "1,,2",
            "1,2,",
            ",1",
            "-1",
            "1 2",
            "99999999999",
            "4294967295",
            "4294967296",
            "+",
            "++1",
            "1.0",
            "\u0661,\u0662",  # Arabic-Indic digits: not ASCII digits
            "\u00a01,2\u3000",  # Unicode white space around numbers
            "1,\u20032",
            "\x1f1",
            '"1"',
            "1,\\2",
            "0x1",
            "é",
        ]
    )


def nim_like(r, game):
    """Extra Nim cases: heaps shuffled, zero heaps dropped, one heap too many or too big."""
    pos = game.unrank(r.randrange(game.positions()))
    r.shuffle(pos)
    c = r.random()
    if c < 0.3:
        pos = [h for h in pos if h] or [0]
    elif c < 0.4:
        pos.append(r.randint(0, game.h))
    elif c < 0.5:
        pos[r.randrange(len(pos))] = game.h + r.randint(1, 3)
    return pos


def candy_like(r, game):
    """Extra candy cases: any counts around the bounds, odd and even totals."""
    n = game.max_candies
    left = r.randint(0, n + 1)
    mine = r.randint(0, max(0, n - left) + 1)
    theirs = r.randint(0, max(0, n - left - mine) + 1)
    return [left, mine, theirs]


def chomp_like(r, game):
    """Extra Chomp cases: diagrams with trailing empty rows, a row grown by one (often no
    longer non-increasing), a row too many, an empty or too wide top row."""
    pos = game.unrank(r.randrange(game.positions()))
    c = r.random()
    if c < 0.2:
        pos += [0] * r.randint(1, 3)
    elif c < 0.4:
        pos[r.randrange(len(pos))] += 1
    elif c < 0.5:
        pos = pos + [1] * (game.r + 1 - len(pos))
    elif c < 0.6:
        pos[0] = r.choice([0, game.c + 1])
    return pos


def tiles_like(r, game):
    """Extra sliding-puzzle cases: any arrangement (half of them unsolvable), the goal and its
    neighbours, a tile twice, a tile too large, a cell too few or too many."""
    n = game.cells
    pos = list(range(n))
    r.shuffle(pos)
    c = r.random()
    if c < 0.1:
        pos = list(range(1, n)) + [0]
        if r.random() < 0.5:
            pos[-3], pos[-2] = pos[-2], pos[-3]
    elif c < 0.2:
        pos[r.randrange(n)] = pos[r.randrange(n)]
    elif c < 0.25:
        pos[r.randrange(n)] = n
    elif c < 0.3:
        pos = pos[:-1] if r.random() < 0.5 else pos + [r.randrange(n + 1)]
    return pos


def wythoff_like(r, game):
    """Extra Wythoff cases: the pairs (floor(k phi), floor(k phi^2)) and their mirrors, one
    heap alone, a heap just too large, a third heap."""
    n = game.n
    c = r.random()
    if c < 0.4:
        k = r.randint(0, n)
        a = (k * (1 + 5 ** 0.5)) // 2
        pos = [int(a), int(a) + k]
        if r.random() < 0.5:
            pos.reverse()
    elif c < 0.6:
        pos = [r.randint(0, n)]
    elif c < 0.8:
        pos = [r.randint(0, n), n + r.randint(1, 2)]
        r.shuffle(pos)
    else:
        pos = [r.randint(0, n) for _ in range(3)]
    return pos


def chomp3_like(r, game):
    """Extra three-rowed Chomp cases: any p,q,r with q ≤ N and a first row short, near q or
    far beyond N; rows out of order; a second row just too long; a fourth row."""
    n = game.n
    q = r.randint(0, n)
    rr = r.randint(0, q)
    c = r.random()
    if c < 0.5:
        pos = [max(1, q + r.randint(0, q + 3)), q, rr]
    elif c < 0.6:
        pos = [r.randint(q, 4294967295), q, rr]
    elif c < 0.7:
        pos = [q + r.randint(0, 3), q, rr, r.randint(0, 2)]
    elif c < 0.8:
        pos = [n + r.randint(1, 5), n + r.randint(1, 2)]
    else:
        pos = [r.randint(0, n), r.randint(0, n), r.randint(0, n)]
    return pos


# Game-specific generators (by NAME); a new game may add one, the generic ones cover it anyway.
EXTRA = {
    "nim": nim_like,
    "candy": candy_like,
    "chomp": chomp_like,
    "slide": tiles_like,
    "pdb": tiles_like,
    "wythoff": wythoff_like,
    "chomp3": chomp3_like,
}


def lines_for(r, table, count):
    g = table.game
    width = len(g.unrank(0))
    out = []
    for _ in range(count):
        c = r.random()
        if c < 0.45:
            pos = g.unrank(r.randrange(g.positions()))
        elif c < 0.75 and g.NAME in EXTRA:
            pos = EXTRA[g.NAME](r, g)
        elif c < 0.9:
            top = max(g.unrank(g.positions() - 1)) + 2
            pos = [r.randint(0, top) for _ in range(r.randint(1, width + 1))]
        else:
            out.append(garbage(r))
            continue
        out.append(spell(r, pos))
    # A few blank lines, which the stream skips without an answer.
    for _ in range(3):
        out.insert(r.randrange(len(out)), r.choice(["", "   ", "\t"]))
    return out


def python_replies(table, lines, as_json):
    replies, bad, answered = [], 0, 0
    for line in lines:
        text = gamedb.trim(line)
        if not text:
            continue
        answered += 1
        reply, failed = table.reply(text, as_json)
        bad += failed
        replies.append(reply)
    return replies, bad, answered


def cli_replies(binary, path, lines, as_json):
    args = [binary, "query", path, "-"] + (["--json"] if as_json else [])
    data = ("\n".join(lines) + "\n").encode("utf-8")
    p = subprocess.run(args, input=data, capture_output=True, timeout=600)
    return p.stdout.decode("utf-8").splitlines(), p.returncode, p.stderr.decode("utf-8")


def compare_stream(binary, table, lines, as_json):
    mine, bad, answered = python_replies(table, lines, as_json)
    theirs, status, stderr = cli_replies(binary, table.path, lines, as_json)
    if len(mine) != len(theirs):
        fail("%s: %d answers from Python, %d from the CLI" % (table.path, len(mine), len(theirs)))
    for k, (a, b) in enumerate(zip(mine, theirs)):
        if a != b:
            fail("%s line %d:\n  python: %s\n  cli:    %s" % (table.path, k + 1, a, b))
    expected_status = 2 if bad else 0
    if status != expected_status:
        fail("%s: CLI exit status %d, expected %d (%s)" % (table.path, status, expected_status, stderr))
    if bad and "%d of %d input lines" % (bad, answered) not in stderr:
        fail("%s: CLI summary differs: %s" % (table.path, stderr))
    if as_json:
        for a in mine:
            json.loads(a)  # valid JSON
    return answered, bad


# -- index agreement through the C ABI ---------------------------------------------------------


def load_lib(path):
    lib = ctypes.CDLL(path)
    lib.gamedb_open.restype = ctypes.c_void_p
    lib.gamedb_open.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    lib.gamedb_close.argtypes = [ctypes.c_void_p]
    lib.gamedb_rank.restype = ctypes.c_int64
    lib.gamedb_rank.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.gamedb_position_at.restype = ctypes.c_int64
    lib.gamedb_position_at.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t]
    lib.gamedb_last_error.restype = ctypes.c_char_p
    lib.gamedb_value_at.restype = ctypes.c_int64
    lib.gamedb_value_at.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    return lib


def compare_ranks(lib, table, r, count):
    handle = lib.gamedb_open(table.path.encode(), 1)
    if not handle:
        fail("C library cannot open %s: %s" % (table.path, lib.gamedb_last_error().decode()))
    g = table.game
    n = g.positions()
    indices = range(n) if n <= count else [r.randrange(n) for _ in range(count)]
    buf = ctypes.create_string_buffer(4096)
    checked = 0
    try:
        for i in indices:
            pos = g.unrank(i)
            if g.rank(pos) != i:
                fail("%s: Python unrank/rank of %d gives %d" % (table.path, i, g.rank(pos)))
            length = lib.gamedb_position_at(handle, i, buf, len(buf))
            if length < 0 or buf.value.decode() != g.format(pos):
                fail("%s: index %d is %s in Rust, %s in Python" % (table.path, i, buf.value, g.format(pos)))
            if g.NAME == "nim":
                r.shuffle(pos)
            elif g.NAME == "chomp" and r.random() < 0.3:
                pos = pos + [0]  # trailing empty rows change nothing
            text = g.format(pos)
            rust = lib.gamedb_rank(handle, text.encode())
            try:
                g.check(pos)
            except gamedb.BadInput:
                # An index whose canonical position is not a position players can write
                # (candy's index 2N+1: N left with an odd total of mine). Both must refuse it.
                if rust != -2:
                    fail("%s: Rust ranks %s (refused by Python) as %d" % (table.path, text, rust))
                continue
            if rust != i:
                fail("%s: rank of %s is %d in Rust, %d in Python" % (table.path, text, rust, i))
            # Values too (a mod3 table's are exact distances, found by descent on both sides).
            if checked < 300:
                rust = lib.gamedb_value_at(handle, i)
                if rust != table.value(i):
                    fail("%s: value at %d is %d in Rust, %d in Python" % (table.path, i, rust, table.value(i)))
            checked += 1
    finally:
        lib.gamedb_close(handle)
    return checked


# -- damaged copies ----------------------------------------------------------------------------


def expect_refused(path, what, needle, exc=gamedb.DamagedTable):
    try:
        gamedb.open_table(path).close()
    except exc as e:
        if needle not in str(e) or path not in str(e):
            fail("%s (%s): message lacks '%s': %s" % (path, what, needle, e))
        return
    fail("%s (%s) was accepted" % (path, what))


def check_damage(table, tmp):
    data = open(table.path, "rb").read()

    def variant(name, transform):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(transform(bytearray(data)))
        return p

    def flip(at, bit=1):
        def t(b):
            b[at] ^= bit
            return bytes(b)

        return t

    expect_refused(variant("payload.gtab", flip(4096 + len(data[4096:]) // 2, 0x10)), "payload byte", "payload checksum")
    expect_refused(variant("param.gtab", flip(16 + 8)), "parameter byte", "header checksum")
    expect_refused(variant("magic.gtab", flip(0)), "magic", "magic bytes")
    expect_refused(variant("short.gtab", lambda b: bytes(b[:-1])), "truncated", "truncated")
    expect_refused(variant("long.gtab", lambda b: bytes(b) + b"\0"), "extended", "extended")
    expect_refused(variant("tiny.gtab", lambda b: bytes(b[:100])), "tiny", "shorter than")
    expect_refused(variant("version.gtab", flip(8, 1)), "version", "format version 3", gamedb.VersionError)


def check_numpy(table):
    if gamedb._numpy is None:
        return "numpy: not available"
    np = gamedb._numpy
    arr = table.numpy()
    if not isinstance(arr, np.memmap) or arr.flags.writeable:
        fail("numpy(): not a read-only memmap")
    if arr.tobytes() != bytes(table.payload):
        fail("numpy(): bytes differ from the payload")
    if table.encoding == "bits":
        bits = np.unpackbits(arr, bitorder="little")[: len(table)]
        for i in random.Random(1).sample(range(len(table)), min(500, len(table))):
            if bits[i] != table.raw(i):
                fail("numpy bit %d differs" % i)
    del arr
    return "numpy: memmap ok"


def check_xxh3():
    if gamedb._xxhash is None:
        return "xxh3: pure Python only (xxhash not installed or disabled)"
    r = random.Random(7)
    lengths = list(range(0, 260)) + [r.randint(241, 20000) for _ in range(100)] + [1024, 1025, 1088, 4096 + 64]
    for n in lengths:
        data = bytes(r.getrandbits(8) for _ in range(n))
        if gamedb.xxh3_64(data) != gamedb._xxhash.xxh3_64_intdigest(data):
            fail("pure Python xxh3 differs from xxhash at length %d" % n)
    return "xxh3: pure Python == xxhash on %d lengths" % len(lengths)


def check_interactive(path, position):
    """One line in, one answer out, before the next line is written."""
    p = subprocess.Popen(
        [sys.executable, SCRIPT, "query", path, "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        for line in [position, "not a position", position]:
            p.stdin.write((line + "\n").encode())
            p.stdin.flush()
            answer = json.loads(p.stdout.readline())
            if answer["position"] != line and "error" not in answer:
                fail("interactive answer %s for %s" % (answer, line))
        p.stdin.close()
        status = p.wait(timeout=30)
        if status != 2:  # one bad line
            fail("interactive gamedb.py exit status %d" % status)
    finally:
        if p.poll() is None:
            p.kill()
    return "interactive: ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gamedb", required=True)
    ap.add_argument("--lib")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("tables", nargs="+")
    a = ap.parse_args()
    mode = "stdlib only" if os.environ.get("GAMEDB_PY_STDLIB_ONLY") else "with extras"
    print("gamedb.py (%s): xxhash %s, numpy %s" % (
        mode,
        "yes" if gamedb._xxhash else "no",
        "yes" if gamedb._numpy else "no",
    ))
    print(check_xxh3())
    lib = load_lib(a.lib) if a.lib else None
    r = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="gamedb-py-")
    try:
        total = 0
        for path in a.tables:
            with gamedb.open_table(path) as t:
                if not t.payload_checksum.startswith("ok"):
                    fail("%s: payload not verified: %s" % (path, t.payload_checksum))
                lines = lines_for(r, t, a.count)
                answered, bad = compare_stream(a.gamedb, t, lines, as_json=True)
                compare_stream(a.gamedb, t, lines[: max(50, a.count // 10)], as_json=False)
                ranks = compare_ranks(lib, t, r, a.count) if lib else 0
                info = json.loads(
                    subprocess.run([a.gamedb, "info", path, "--json"], capture_output=True, check=True).stdout
                )
                if info["entries"] != len(t):
                    fail("%s: info differs: %s" % (path, info))
                mine = t.info()
                keys = {
                    "distance": ["distance_counts", "max_distance", "unreached"],
                    "extension": ["p_positions", "prefixes_without_p"],
                }.get(t.value_kind, ["p_positions", "n_positions"])
                if t.encoding == "mod3":
                    keys.append("distance_residues")
                for key in keys:
                    if info[key] != mine[key]:
                        fail("%s: info %s is %s in the CLI, %s in Python" % (path, key, info[key], mine[key]))
                check_damage(t, tmp)
                np_note = check_numpy(t)
                total += answered
                print(
                    "%s: %d lines (%d bad) identical to the CLI; %d indices agree with Rust; "
                    "damage refused; %s"
                    % (os.path.basename(path), answered, bad, ranks, np_note)
                )
        with gamedb.open_table(a.tables[-1]) as t:
            last = t.game.format(t.game.unrank(len(t) - 1))
        print(check_interactive(a.tables[-1], last))
        print("OK: %d answers compared" % total)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
