#!/usr/bin/env python3
"""Read gamedb tables from Python, without gamedb: the standard library is enough.

This module implements the file format of ``tables/README.md`` (header, payload, and each
game's ranking function) independently of the Rust code, and answers the same queries as
``gamedb query``, with the same text and JSON output::

    import gamedb
    with gamedb.open_table("tables/nim-6x63.gtab") as t:
        t.query("1,2,4")      # {'position': '1,2,4', 'outcome': 'N', 'winning_moves': [...]}
        t.outcome_of((1, 2, 3))   # 'P'
        t.numpy()             # the payload as a numpy.memmap (needs numpy; no copy)
    with gamedb.open_table("tables/slide-3x3.gtab") as t:
        t.distance_of((8, 6, 7, 2, 5, 4, 3, 0, 1))   # 31 (None for an unsolvable arrangement)

Every game of gamedb is known: candy (1), Nim (2), Chomp (3), sliding puzzles (4), pattern
databases (5), Wythoff (6) and three-rowed Chomp (7); outcome, Grundy, distance and extension
tables answer as ``gamedb query`` does.

Command line (mirrors ``gamedb query`` and ``gamedb info``)::

    python3 scripts/gamedb.py query TABLE POSITION... [--json] [--no-verify]
    python3 scripts/gamedb.py query TABLE - [--json]     # one position per line on stdin
    python3 scripts/gamedb.py info TABLE [--json]

Checksums: the header checksum (xxh3-64 of 136 bytes) is always checked, with the pure
Python xxh3 below when the ``xxhash`` package is missing. The payload checksum is checked on
opening with ``xxhash`` when it is installed; without it, with the pure Python xxh3 when the
payload is at most ``PURE_PYTHON_VERIFY_LIMIT`` bytes (16 MiB: under a second), and otherwise
skipped and said so (``Table.payload_checksum`` tells which; ``verify=True`` forces it).

Adding a game: write one subclass of ``Game`` (its ``ID``, ``NAME``, parameter checks,
``positions``, ``check``, ``rank``, ``unrank``, ``moves`` and messages, exactly as its Rust
file), decorate it with ``@register``. Nothing else here names a game.

Set ``GAMEDB_PY_STDLIB_ONLY=1`` to ignore ``xxhash`` and ``numpy`` even when installed (the
tests use it to check the standard-library path).
"""

import json as _json
import mmap
import os
import struct
import sys

__all__ = [
    "Error",
    "BadInput",
    "DamagedTable",
    "UnknownGame",
    "Game",
    "Table",
    "open_table",
    "register",
    "GAMES",
    "xxh3_64",
]

if os.environ.get("GAMEDB_PY_STDLIB_ONLY"):
    _xxhash = None
    _numpy = None
else:
    try:
        import xxhash as _xxhash
    except ImportError:
        _xxhash = None
    try:
        import numpy as _numpy
    except ImportError:
        _numpy = None

# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class Error(Exception):
    """Any problem opening or querying a table; the message says what and why."""


class BadInput(Error):
    """A position (or argument) that is not acceptable; names the accepted form."""


class DamagedTable(Error):
    """A file that is not a valid table (wrong magic, checksum, sizes, parameters, ...)."""

    def __init__(self, path, what):
        super().__init__("%s: damaged table: %s" % (path, what))
        self.path = path
        self.what = what


class VersionError(Error):
    """A table written in a format version this reader does not know."""


class UnknownGame(Error):
    """A table of a game this reader does not know (it is not damaged)."""


# --------------------------------------------------------------------------------------------
# The header (tables/README.md, "Header")
# --------------------------------------------------------------------------------------------

MAGIC = b"GAMEDB\r\n"
FORMAT_VERSION = 2
HEADER_LEN = 528
PAYLOAD_OFFSET = 4096
# magic, format_version, value_kind, encoding, rules_version, entry_count, payload_offset,
# payload_len, payload_xxh3, crate_version, game, parameters, header_xxh3: little-endian, no
# padding.
HEADER = struct.Struct("<8sIIIIQQQQ16s64s384sQ")
assert HEADER.size == HEADER_LEN


def _numeric_params(game, text):
    """The numbers this reader's game classes take, from a header's parameter text
    (``heaps=3,max-heap=7``); ``ValueError`` when the text is not this game's."""
    values, last = {}, None
    for piece in text.split(",") if text else []:
        if "=" in piece:
            last, value = piece.split("=", 1)
            values[last] = value
        elif last is not None:
            values[last] += "," + piece
        else:
            raise ValueError("parameters '%s': '%s' has no name" % (text, piece))

    def num(name, default=None):
        if name not in values:
            if default is None:
                raise ValueError("%s parameters '%s': no %s" % (game, text, name))
            return default
        if not values[name].isdigit():
            raise ValueError("%s parameters '%s': %s is not a number" % (game, text, name))
        return int(values[name])

    if game == "candy":
        win = values.get("win", "even")
        if win not in ("even", "odd"):
            raise ValueError("candy win rule '%s' (expected even or odd)" % win)
        p = [num("max-candies"), num("max-take"), 0 if win == "even" else 1]
    elif game == "nim":
        p = [num("heaps"), num("max-heap"), num("max-take", 0), 1 if values.get("misere") == "true" else 0]
    elif game in ("chomp", "slide"):
        p = [num("rows"), num("cols")]
    elif game == "pdb":
        tiles = values.get("pattern", "")
        if not all(t.isdigit() and int(t) < 64 for t in tiles.split(",")):
            raise ValueError("pdb parameters '%s': bad pattern" % text)
        p = [num("rows"), num("cols"), sum(1 << int(t) for t in tiles.split(","))]
    elif game == "wythoff":
        p = [num("max-heap")]
    elif game == "chomp3":
        p = [num("max")]
    else:
        return None
    return p + [0] * (8 - len(p))

VALUE_KINDS = {1: "outcome", 2: "grundy", 3: "distance", 4: "extension"}
ENCODINGS = {1: "bits", 2: "u8", 3: "u16", 4: "mod3", 5: "u24"}
MAX_POSITIONS = 1 << 38
PURE_PYTHON_VERIFY_LIMIT = 16 << 20
# The byte a distance table stores for a position it could not reach (pattern databases).
UNREACHED = 255

U32_MAX = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def payload_len(encoding, entries):
    """Payload bytes of ``entries`` entries stored as ``encoding`` (a name)."""
    return {
        "bits": (entries + 7) // 8,
        "u8": entries,
        "u16": 2 * entries,
        "mod3": (entries + 3) // 4,
        "u24": 3 * entries,
    }[encoding]


# A mod3 entry (2 bits, four a byte): 0 not reached, else 1 + distance mod 3 (src/game/mod.rs).
MOD3_UNREACHED = 0


def mod3_code(d):
    """The mod3 code of a position at distance ``d``."""
    return d % 3 + 1


def mod3_closer(code):
    """The code of a neighbour one step closer to the goal (1 -> 3, 2 -> 1, 3 -> 2)."""
    return (code + 1) % 3 + 1


# --------------------------------------------------------------------------------------------
# xxh3-64 (seed 0) in pure Python, after the reference implementation. Used for the header
# checksum always (136 bytes: microseconds) and for payloads when `xxhash` is not installed.
# --------------------------------------------------------------------------------------------

_SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e"
)
_P32_1, _P32_2, _P32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
_P64_1, _P64_2, _P64_3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_P64_4, _P64_5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5
_U64 = struct.Struct("<Q")
_U32 = struct.Struct("<I")


def _r64(b, i):
    return _U64.unpack_from(b, i)[0]


def _r32(b, i):
    return _U32.unpack_from(b, i)[0]


def _xxh64_avalanche(h):
    h ^= h >> 33
    h = (h * _P64_2) & M64
    h ^= h >> 29
    h = (h * _P64_3) & M64
    return h ^ (h >> 32)


def _avalanche(h):
    h ^= h >> 37
    h = (h * 0x165667919E3779F9) & M64
    return h ^ (h >> 32)


def _rrmxmx(h, length):
    rotl = lambda v, r: ((v << r) | (v >> (64 - r))) & M64  # noqa: E731
    h ^= rotl(h, 49) ^ rotl(h, 24)
    h = (h * 0x9FB21C651E98DF25) & M64
    h ^= (h >> 35) + length
    h = (h * 0x9FB21C651E98DF25) & M64
    return h ^ (h >> 28)


def _mix16(b, i, s):
    lo = _r64(b, i) ^ _r64(_SECRET, s)
    hi = _r64(b, i + 8) ^ _r64(_SECRET, s + 8)
    p = lo * hi
    return (p & M64) ^ (p >> 64)


def _xxh3_long(b):
    n = len(b)
    acc = [_P32_3, _P64_1, _P64_2, _P64_3, _P64_4, _P32_2, _P64_5, _P32_1]
    stripes_per_block = (len(_SECRET) - 64) // 8  # 16
    block = 64 * stripes_per_block
    keys = [struct.unpack_from("<8Q", _SECRET, 8 * k) for k in range(stripes_per_block)]
    last_keys = struct.unpack_from("<8Q", _SECRET, len(_SECRET) - 64 - 7)
    scramble = struct.unpack_from("<8Q", _SECRET, len(_SECRET) - 64)
    stripe = struct.Struct("<8Q")

    def accumulate(offset, key):
        data = stripe.unpack_from(b, offset)
        for lane in range(8):
            v = data[lane]
            k = v ^ key[lane]
            acc[lane ^ 1] = (acc[lane ^ 1] + v) & M64
            acc[lane] = (acc[lane] + (k & 0xFFFFFFFF) * (k >> 32)) & M64

    blocks = (n - 1) // block
    for blk in range(blocks):
        base = blk * block
        for s in range(stripes_per_block):
            accumulate(base + 64 * s, keys[s])
        for lane in range(8):
            a = acc[lane]
            a ^= a >> 47
            a ^= scramble[lane]
            acc[lane] = (a * _P32_1) & M64
    base = blocks * block
    for s in range(((n - 1) - base) // 64):
        accumulate(base + 64 * s, keys[s])
    accumulate(n - 64, last_keys)
    result = (n * _P64_1) & M64
    for k in range(4):
        lo = acc[2 * k] ^ _r64(_SECRET, 11 + 16 * k)
        hi = acc[2 * k + 1] ^ _r64(_SECRET, 11 + 16 * k + 8)
        p = lo * hi
        result = (result + ((p & M64) ^ (p >> 64))) & M64
    return _avalanche(result)


def xxh3_64(data):
    """xxh3-64 with seed 0 of a bytes-like object (pure Python; the `xxhash` package's
    ``xxh3_64_intdigest`` gives the same numbers much faster)."""
    b = bytes(data) if len(data) <= 240 else data
    n = len(b)
    if n == 0:
        return _xxh64_avalanche(_r64(_SECRET, 56) ^ _r64(_SECRET, 64))
    if n <= 3:
        combo = (b[0] << 16) | (b[n >> 1] << 24) | b[n - 1] | (n << 8)
        return _xxh64_avalanche(combo ^ (_r32(_SECRET, 0) ^ _r32(_SECRET, 4)))
    if n <= 8:
        flip = _r64(_SECRET, 8) ^ _r64(_SECRET, 16)
        v = (_r32(b, n - 4) + (_r32(b, 0) << 32)) & M64
        return _rrmxmx(v ^ flip, n)
    if n <= 16:
        lo = _r64(b, 0) ^ (_r64(_SECRET, 24) ^ _r64(_SECRET, 32))
        hi = _r64(b, n - 8) ^ (_r64(_SECRET, 40) ^ _r64(_SECRET, 48))
        p = lo * hi
        swapped = int.from_bytes(lo.to_bytes(8, "little"), "big")
        return _avalanche((n + swapped + hi + ((p & M64) ^ (p >> 64))) & M64)
    if n <= 128:
        acc = (n * _P64_1) & M64
        pairs = [(0, 0)]
        if n > 32:
            pairs.append((16, 32))
        if n > 64:
            pairs.append((32, 64))
        if n > 96:
            pairs.append((48, 96))
        for i, s in pairs:
            acc += _mix16(b, i, s) + _mix16(b, n - 16 - i, s + 16)
        return _avalanche(acc & M64)
    if n <= 240:
        acc = (n * _P64_1) & M64
        for i in range(8):
            acc += _mix16(b, 16 * i, 16 * i)
        acc = _avalanche(acc & M64)
        for i in range(8, n // 16):
            acc += _mix16(b, 16 * i, 16 * (i - 8) + 3)
        acc += _mix16(b, n - 16, 136 - 17)
        return _avalanche(acc & M64)
    return _xxh3_long(b)


def _hash(data, force_pure=False):
    if _xxhash is not None and not force_pure:
        return _xxhash.xxh3_64_intdigest(data)
    return xxh3_64(data)


# --------------------------------------------------------------------------------------------
# Positions as text (the same rules as `gamedb query`)
# --------------------------------------------------------------------------------------------

# Rust's `str::trim` removes Unicode White_Space, which differs a little from str.strip().
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def trim(text):
    """``text`` without leading and trailing Unicode White_Space (Rust's ``str::trim``)."""
    return text.strip(_WHITE_SPACE)


def parse_u32(part):
    """The value of a decimal u32 written as Rust's ``u32::from_str`` reads it, or None;
    -1 when it is a number too large for a u32."""
    digits = part[1:] if part[:1] == "+" else part
    if not digits or not (digits.isascii() and digits.isdigit()):
        return None
    value = int(digits)
    return value if value <= U32_MAX else -1


ECHO_LIMIT = 200


def echo(text):
    """``text`` cut to at most ECHO_LIMIT bytes of UTF-8 (at a character boundary), with
    ``… (N bytes)`` when it was cut: a 10 MB line is named by its beginning (Rust ``echo``)."""
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) <= ECHO_LIMIT:
        return text
    end = ECHO_LIMIT
    while end > 0 and raw[end] & 0xC0 == 0x80:
        end -= 1
    return raw[:end].decode("utf-8", "surrogateescape") + "… (%d bytes)" % len(raw)


def quote(pos):
    """A position as messages quote it (Rust ``game::quote``)."""
    return echo(format_numbers(pos))


def parse_numbers(text, form):
    """``a,b,c`` (spaces allowed around numbers) as a list of ints; BadInput otherwise."""
    text = trim(text)
    if not text:
        raise BadInput("empty position; expected %s" % form)
    out = []
    for part in text.split(","):
        part = trim(part)
        value = parse_u32(part)
        if value is None or value < 0:
            what = "is not a non-negative integer" if value is None else "is too large (at most %d)" % U32_MAX
            raise BadInput("position '%s': '%s' %s; expected %s" % (echo(text), echo(part), what, form))
        out.append(value)
    return out


def format_numbers(pos):
    """``a,b,c``."""
    return ",".join(map(str, pos))


def json_string(s):
    """A JSON string literal escaped exactly as gamedb's Rust writer does."""
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c < " ":
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def json_object(pairs):
    """A flat JSON object, keys in order; values are str, int, or already-encoded JSON (a
    ``_Raw``)."""
    items = []
    for k, v in pairs:
        if isinstance(v, str):
            v = json_string(v)
        elif isinstance(v, _Raw):
            v = v.text
        else:
            v = str(v)
        items.append(json_string(k) + ":" + v)
    return "{" + ",".join(items) + "}"


class _Raw:
    def __init__(self, text):
        self.text = text


# --------------------------------------------------------------------------------------------
# Games: one class each, registered by game number
# --------------------------------------------------------------------------------------------

GAMES = {}


def register(cls):
    """Class decorator: makes a ``Game`` subclass the reader of tables with its ``ID``."""
    GAMES[cls.ID] = cls
    return cls


class Game:
    """The lookup view of a game (the Rust ``Rules`` trait, plus the header parameters).

    Subclasses set ``ID`` and ``NAME``, read their parameters in ``__init__`` (raising
    ``ValueError`` with a message when they are out of range, as the Rust ``from_params``),
    and implement the methods below exactly like the game's Rust file. Positions are lists
    of ints.
    """

    ID = 0
    NAME = ""

    def __init__(self, params):
        raise NotImplementedError

    def value_kinds(self):
        """The value kinds (names) its tables may hold."""
        return ("outcome",)

    def positions(self):
        """Number of positions (entries of the table)."""
        raise NotImplementedError

    def describe(self):
        """One line for people."""
        raise NotImplementedError

    def position_form(self):
        """How positions are written, for error messages."""
        raise NotImplementedError

    def check(self, pos):
        """Raises BadInput unless ``pos`` is a position of this table."""
        raise NotImplementedError

    def rank(self, pos):
        """The index of a checked position."""
        raise NotImplementedError

    def unrank(self, index):
        """The canonical position at an index."""
        raise NotImplementedError

    def moves(self, pos):
        """Every legal move of a checked position, as ``(label, leaves)`` pairs, in the
        game's order."""
        raise NotImplementedError

    def outside(self, pos):
        """Why a checked position has no entry in the table (a sliding puzzle's unsolvable
        arrangement), or None (the Rust ``Rules::outside``)."""
        return None

    def distance_bound(self):
        """For a table of lower bounds (a pattern database), what an entry counts; None for
        exact tables (the Rust ``Rules::distance_bound``)."""
        return None

    def parse(self, text):
        """A position written as ``gamedb query`` reads it, checked."""
        pos = parse_numbers(text, self.position_form())
        self.check(pos)
        return pos

    def format(self, pos):
        """A position written as ``parse`` reads it."""
        return format_numbers(pos)

    def _check_ints(self, pos):
        # Positions given as Python values (not text) must be lists of u32, as in Rust.
        for v in pos:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= U32_MAX:
                raise BadInput(
                    "position %r: %r is not a non-negative integer; expected %s"
                    % (list(pos), v, self.position_form())
                )


def _binomial(n, k):
    if k > n:
        return 0
    k = min(k, n - k)
    acc = 1
    for i in range(k):
        acc = acc * (n - i) // (i + 1)
    return acc


@register
class Candy(Game):
    """The candy game (src/games/candy.rs). Index ``2*left + (mine mod 2)``."""

    ID = 1
    NAME = "candy"

    def __init__(self, params):
        if any(params[3:]) or params[0] > U32_MAX or params[1] > U32_MAX:
            raise ValueError("candy parameters out of range")
        if params[2] not in (0, 1):
            raise ValueError("candy win rule %d (expected 0 even or 1 odd)" % params[2])
        self.max_candies, self.max_take = params[0], params[1]
        self.win = "even" if params[2] == 0 else "odd"
        if not 1 <= self.max_candies <= (1 << 30) - 1 or self.max_candies % 2 == 0:
            raise ValueError(
                "--max-candies %d: expected an odd number in 1..=%d" % (self.max_candies, (1 << 30) - 1)
            )
        if not 1 <= self.max_take <= self.max_candies:
            raise ValueError(
                "--max-take %d: expected 1..=max-candies (%d)" % (self.max_take, self.max_candies)
            )

    def positions(self):
        return 2 * (self.max_candies + 1)

    def describe(self):
        return "candy game: odd totals up to %d candies, take 1..=%d, %s total wins" % (
            self.max_candies,
            self.max_take,
            self.win,
        )

    def position_form(self):
        return (
            "left,mine,theirs (candies left, the mover's total, the opponent's) "
            "with an odd sum of at most %d" % self.max_candies
        )

    def check(self, pos):
        self._check_ints(pos)
        if len(pos) != 3:
            raise BadInput(
                "position '%s' has %d numbers; expected %s"
                % (quote(pos), len(pos), self.position_form())
            )
        total = sum(pos)
        if total % 2 == 0 or total > self.max_candies:
            raise BadInput(
                "position '%s' has total %d, but this table holds odd totals up to %d; expected %s"
                % (quote(pos), total, self.max_candies, self.position_form())
            )

    def rank(self, pos):
        return 2 * pos[0] + (pos[1] & 1)

    def unrank(self, index):
        m, a = divmod(index, 2)
        return [m, a, (1 + m + a) % 2]

    def moves(self, pos):
        left, mine, theirs = pos
        return [
            ("take %d" % t, [left - t, theirs, mine + t])
            for t in range(1, min(left, self.max_take) + 1)
        ]


@register
class Nim(Game):
    """Bounded Nim (src/games/nim.rs): sum-major rank of the heaps sorted descending,
    ``index(x) = start[n] + sum_i cnt(s-i, x_i - 1, n - x_1 - ... - x_{i-1})``."""

    ID = 2
    NAME = "nim"
    MAX_HEAPS = 32
    MAX_HEAP = 255
    MAX_COUNT_TABLE = 1 << 23

    def __init__(self, params):
        if any(params[4:]) or params[3] > 1 or any(p > 1 << 20 for p in params[:3]):
            raise ValueError("nim parameters out of range")
        s, h, k, misere = params[0], params[1], params[2], params[3]
        if not 1 <= s <= self.MAX_HEAPS:
            raise ValueError("--heaps %d: expected 1..=%d" % (s, self.MAX_HEAPS))
        if not 1 <= h <= self.MAX_HEAP:
            raise ValueError("--max-heap %d: expected 1..=%d" % (h, self.MAX_HEAP))
        if (s + 1) * (h + 1) * (s * h + 1) > self.MAX_COUNT_TABLE:
            raise ValueError("%d heaps of 0..=%d: the ranking table would be too large" % (s, h))
        if _binomial(h + s, s) > MAX_POSITIONS:
            raise ValueError("%d heaps of 0..=%d have more than %d positions" % (s, h, MAX_POSITIONS))
        self.s, self.h = s, h
        self.max_take = min(k, h) if k else None
        self.take = self.max_take or h
        self.misere = misere == 1
        # cnt(k, m, r): non-increasing sequences of length k, values 0..=m, sum r.
        sums = s * h + 1
        self.sums = sums
        cnt = [0] * ((s + 1) * (h + 1) * sums)
        for m in range(h + 1):
            cnt[m * sums] = 1
        for kk in range(1, s + 1):
            for m in range(h + 1):
                row = (kk * (h + 1) + m) * sums
                below = row - sums  # cnt(kk, m-1, .)
                prev = ((kk - 1) * (h + 1) + m) * sums  # cnt(kk-1, m, .)
                for r in range(sums):
                    v = cnt[below + r] if m > 0 else 0
                    if r >= m:
                        v += cnt[prev + r - m]
                    cnt[row + r] = v
        self._cnt = cnt
        start, acc = [], 0
        top = (s * (h + 1) + h) * sums
        for r in range(sums):
            start.append(acc)
            acc += cnt[top + r]
        start.append(acc)
        self._start = start
        # Slot i of the sorted heaps, value v: cnt(s-i, v-1, rem) = cnt[_base[i] + v*sums + rem].
        self._base = [((s - i) * (h + 1) - 1) * sums for i in range(s)]

    def value_kinds(self):
        return ("outcome",) if self.misere else ("outcome", "grundy")

    def positions(self):
        return self._start[-1]

    def describe(self):
        take = "1..=%d" % self.max_take if self.max_take else "any number"
        play = "misère" if self.misere else "normal"
        return "Nim: %d heaps of 0..=%d, take %s, %s play" % (self.s, self.h, take, play)

    def position_form(self):
        return (
            "heap sizes h1,h2,... in any order: 1 to %d heaps, each 0..=%d "
            "(missing heaps are empty)" % (self.s, self.h)
        )

    def check(self, pos):
        self._check_ints(pos)
        # Missing heaps are empty, and empty heaps may be written out, up to MAX_HEAPS numbers.
        heaps = sum(1 for v in pos if v > 0)
        if not pos or len(pos) > self.MAX_HEAPS or heaps > self.s:
            if len(pos) > self.MAX_HEAPS:
                what = "%d numbers (at most %d)" % (len(pos), self.MAX_HEAPS)
            elif heaps > self.s and heaps < len(pos):
                what = "%d non-empty heaps" % heaps
            else:
                what = "%d heaps" % len(pos)
            raise BadInput("position '%s' has %s; expected %s" % (quote(pos), what, self.position_form()))
        for v in pos:
            if v > self.h:
                raise BadInput(
                    "position '%s': heap %d is larger than this table's largest heap %d; expected %s"
                    % (quote(pos), v, self.h, self.position_form())
                )

    def rank(self, pos):
        x = sorted(pos, reverse=True)
        rem = sum(x)
        index = self._start[rem]
        cnt, base, sums = self._cnt, self._base, self.sums
        for i, v in enumerate(x):
            if not v:
                break
            index += cnt[base[i] + v * sums + rem]
            rem -= v
        return index

    def unrank(self, index):
        start = self._start
        lo, hi = 0, len(start) - 1  # largest n with start[n] <= index
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if start[mid] <= index:
                lo = mid
            else:
                hi = mid
        n = lo
        r, rem, prev = index - start[n], n, self.h
        x = []
        for i in range(self.s):
            k = self.s - i
            row = k * (self.h + 1)
            v = 0
            while v < min(prev, rem) and self._cnt[(row + v) * self.sums + rem] <= r:
                v += 1
            if v > 0:
                r -= self._cnt[(row + v - 1) * self.sums + rem]
            rem -= v
            prev = v
            x.append(v)
        return x[::-1]

    def moves(self, pos):
        out = []
        for j, hj in enumerate(pos):
            for t in range(1, min(hj, self.take) + 1):
                leaves = list(pos)
                leaves[j] -= t
                out.append(("take %d from heap %d" % (t, j + 1), leaves))
        return out


@register
class Wythoff(Game):
    """Wythoff's game (src/games/wythoff.rs): every ordered pair of heaps ``(a, b)``,
    ``0 <= a, b <= N``, sum-major: ``index = start[a+b] + a - max(0, a+b-N)``."""

    ID = 6
    NAME = "wythoff"
    MAX_HEAP = 65535

    def __init__(self, params):
        if any(params[1:]) or params[0] > self.MAX_HEAP:
            raise ValueError("wythoff parameters out of range")
        self.n = params[0]
        if not 1 <= self.n <= self.MAX_HEAP:
            raise ValueError("--max-heap %d: expected 1..=%d" % (self.n, self.MAX_HEAP))

    def value_kinds(self):
        return ("outcome", "grundy")

    def positions(self):
        return (self.n + 1) ** 2

    def describe(self):
        return (
            "Wythoff's game: two heaps of 0..=%d, take any number from one heap or the same "
            "number from both, normal play" % self.n
        )

    def position_form(self):
        return "a,b: the two heaps, each 0..=%d (a missing second heap is empty)" % self.n

    def _start(self, s):
        # Pairs of sum t < s: t + 1 each up to N, then 2N - t + 1.
        n = self.n
        if s <= n + 1:
            return s * (s + 1) // 2
        below = (n + 1) * (n + 2) // 2
        t = s - (n + 1)  # sums n+1 .. s-1
        return below + t * n - (t - 1) * t // 2

    def parse(self, text):
        pos = parse_numbers(text, self.position_form())
        self.check(pos)
        return [pos[0], pos[1] if len(pos) > 1 else 0]

    def check(self, pos):
        self._check_ints(pos)
        if not 0 < len(pos) <= 2:
            raise BadInput(
                "position '%s': %d heaps; expected %s"
                % (quote(pos), len(pos), self.position_form())
            )
        for v in pos:
            if v > self.n:
                raise BadInput(
                    "position '%s': heap %d is larger than this table's largest heap %d; expected %s"
                    % (quote(pos), v, self.n, self.position_form())
                )

    def rank(self, pos):
        a, b = pos[0], pos[1] if len(pos) > 1 else 0
        s = a + b
        return self._start(s) + a - max(0, s - self.n)

    def unrank(self, index):
        lo, hi = 0, 2 * self.n + 1  # largest s with start(s) <= index
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._start(mid) <= index:
                lo = mid
            else:
                hi = mid
        s = lo
        a = index - self._start(s) + max(0, s - self.n)
        return [a, s - a]

    def moves(self, pos):
        a, b = pos[0], pos[1] if len(pos) > 1 else 0
        out = [("take %d from heap 1" % k, [a - k, b]) for k in range(1, a + 1)]
        out += [("take %d from heap 2" % k, [a, b - k]) for k in range(1, b + 1)]
        out += [("take %d from both" % k, [a - k, b - k]) for k in range(1, min(a, b) + 1)]
        return out

    def format(self, pos):
        return "%d,%d" % (pos[0], pos[1] if len(pos) > 1 else 0)


@register
class Chomp(Game):
    """Chomp (src/games/chomp.rs): Young diagrams ``λ1 ≥ λ2 ≥ ... ≥ 0`` in an R×C box with
    ``λ1 ≥ 1``; ``index(λ) = Σ_{k=0..R-1} C(λ[k] + R-1-k, R-k) - 1`` (k from 0)."""

    ID = 3
    NAME = "chomp"
    MAX_ROWS = 64
    MAX_COLS = 65535

    def __init__(self, params):
        if any(params[2:]) or params[0] > self.MAX_ROWS or params[1] > self.MAX_COLS:
            raise ValueError("chomp parameters out of range")
        r, c = params[0], params[1]
        if not 1 <= r <= self.MAX_ROWS:
            raise ValueError("--rows %d: expected 1..=%d" % (r, self.MAX_ROWS))
        if not 1 <= c <= self.MAX_COLS:
            raise ValueError("--cols %d: expected 1..=%d" % (c, self.MAX_COLS))
        if _binomial(r + c, r) - 1 > MAX_POSITIONS:
            raise ValueError(
                "the %d×%d Chomp box has more than %d positions; use a smaller box" % (r, c, MAX_POSITIONS)
            )
        self.r, self.c = r, c
        # _t[k][v] = C(v + r-1-k, r-k): row k's term for length v.
        self._t = [[_binomial(v + r - 1 - k, r - k) for v in range(c + 1)] for k in range(r)]

    def value_kinds(self):
        return ("outcome", "grundy")

    def positions(self):
        return _binomial(self.r + self.c, self.r) - 1

    def describe(self):
        return "Chomp: every position of the %d×%d box (Young diagrams holding the poisoned cell)" % (
            self.r,
            self.c,
        )

    def position_form(self):
        return (
            "row lengths top row first, e.g. 4,3,1: non-increasing, the first row 1..=%d (it holds "
            "the poisoned cell), at most %d rows (missing rows are empty)" % (self.c, self.r)
        )

    def check(self, pos):
        self._check_ints(pos)
        shown = quote(pos)

        def bad(what):
            raise BadInput("position '%s': %s; expected %s" % (shown, what, self.position_form()))

        if len(pos) > self.MAX_ROWS:
            bad("%d numbers (at most %d)" % (len(pos), self.MAX_ROWS))
        if not pos or pos[0] == 0:
            bad("the top row is empty, so the poisoned cell (1,1) has been eaten")
        for k in range(1, len(pos)):
            if pos[k] > pos[k - 1]:
                bad(
                    "row %d (length %d) is longer than row %d (length %d); rows may not grow downwards"
                    % (k + 1, pos[k], k, pos[k - 1])
                )
        if pos[0] > self.c:
            bad(
                "the top row has %d cells but this table's box is %d×%d (at most %d columns)"
                % (pos[0], self.r, self.c, self.c)
            )
        height = sum(1 for v in pos if v > 0)
        if height > self.r:
            bad("it has %d rows but this table's box is %d×%d (at most %d rows)" % (height, self.r, self.c, self.r))

    def rank(self, pos):
        t = self._t
        return sum(t[k][v] for k, v in enumerate(pos[: self.r])) - 1

    def unrank(self, index):
        rem, top, rows = index + 1, self.c, []
        for k in range(self.r):
            terms = self._t[k]
            v = top
            while terms[v] > rem:  # the largest v <= top with t(k, v) <= rem
                v -= 1
            rem -= terms[v]
            rows.append(v)
            top = v
        while rows and rows[-1] == 0:
            rows.pop()
        return rows

    @staticmethod
    def bite(rows, row, col):
        """The diagram left by the bite at (row, col) (0-based), trailing empty rows dropped."""
        out = [min(v, col) if k >= row else v for k, v in enumerate(rows)]
        while out and out[-1] == 0:
            out.pop()
        return out

    def moves(self, pos):
        out = []
        for i, length in enumerate(pos):
            for j in range(length):
                if i == 0 and j == 0:
                    continue  # the poisoned cell: never listed
                out.append(("(%d,%d)" % (i + 1, j + 1), self.bite(pos, i, j)))
        return out

    def format(self, pos):
        rows = list(pos)
        while rows and rows[-1] == 0:
            rows.pop()
        return format_numbers(rows)


@register
class Chomp3(Game):
    """Three-rowed Chomp (src/games/chomp3.rs): positions ``p,q,r`` with ``q <= N`` and the
    first row unbounded. The table holds one u16 per pair ``r <= q <= N`` (three bytes, u24,
    when N > 90,000) at index
    ``q (q + 1) / 2 + r``: 0 when no ``p`` makes ``(p, q, r)`` P, else ``f(q, r) - q + 1``
    (extension values). Winning bites are read from ``O(N)`` entries."""

    ID = 7
    NAME = "chomp3"
    MAX_N = 1000000

    def __init__(self, params):
        if any(params[1:]) or params[0] > self.MAX_N:
            raise ValueError("chomp3 parameters out of range")
        self.n = params[0]
        if not 1 <= self.n <= self.MAX_N:
            raise ValueError(
                "--max %d: expected 1..=%d (the longest second row of three-rowed Chomp)" % (self.n, self.MAX_N)
            )

    def value_kinds(self):
        return ("extension",)

    def positions(self):
        return (self.n + 1) * (self.n + 2) // 2

    def describe(self):
        return (
            "Three-rowed Chomp: every position p,q,r with q ≤ %d (the first row unbounded), "
            "stored as f(q, r)" % self.n
        )

    def position_form(self):
        return (
            "row lengths p,q,r top row first, e.g. 7,4,3: non-increasing, p ≥ 1 (it holds the "
            "poisoned cell; the first row may be as long as you like, up to %d), q ≤ %d "
            "(missing rows are empty)" % (U32_MAX, self.n)
        )

    @staticmethod
    def _rows(pos):
        return tuple(list(pos[:3]) + [0] * (3 - len(pos[:3])))

    def check(self, pos):
        self._check_ints(pos)

        def bad(what):
            return BadInput("position '%s': %s; expected %s" % (quote(pos), what, self.position_form()))

        if len(pos) > 3:
            raise bad("%d rows (three-rowed Chomp has at most 3)" % len(pos))
        if not pos or pos[0] == 0:
            raise bad("the top row is empty, so the poisoned cell (1,1) has been eaten")
        for k in range(1, len(pos)):
            if pos[k] > pos[k - 1]:
                raise bad(
                    "row %d (length %d) is longer than row %d (length %d); rows may not grow downwards"
                    % (k + 1, pos[k], k, pos[k - 1])
                )
        q = self._rows(pos)[1]
        if q > self.n:
            raise bad("row 2 has %d cells but this table holds second rows up to %d" % (q, self.n))

    def rank(self, pos):
        _, q, r = self._rows(pos)
        return q * (q + 1) // 2 + r

    def unrank(self, index):
        q = (_isqrt(8 * index + 1) - 1) // 2
        r = index - q * (q + 1) // 2
        return self._trim([max(q, 1), q, r])

    @staticmethod
    def _trim(rows):
        rows = list(rows)
        while len(rows) > 1 and rows[-1] == 0:
            rows.pop()
        return rows

    def moves(self, pos):
        p, q, r = self._rows(pos)
        out = [("(1,%d)" % (j + 1), self._trim([j, min(q, j), min(r, j)])) for j in range(1, p)]
        out += [("(2,%d)" % (j + 1), self._trim([p, j, min(r, j)])) for j in range(q)]
        out += [("(3,%d)" % (j + 1), self._trim([p, q, j])) for j in range(r)]
        return out

    def format(self, pos):
        return format_numbers(self._trim(pos))

    def f(self, raw, q, r):
        """``f(q, r)`` from the entries (``raw(index)``), None when no ``p`` makes it P."""
        v = raw(q * (q + 1) // 2 + r)
        return q + v - 1 if v else None

    def extension_outcome(self, pos, raw):
        p, q, r = self._rows(pos)
        return "P" if self.f(raw, q, r) == p else "N"

    def extension_winning_moves(self, pos, raw):
        """The winning bites as ``(label, leaves)``, row by row, columns ascending (the Rust
        ``View::winning_bites``)."""
        p, q, r = self._rows(pos)
        out = []
        for j in range(r):
            v = self.f(raw, j, j)
            if j >= 1 and v == j:
                out.append((1, j, (j, j, j)))
            if v == p:
                out.append((2, j, (p, j, j)))
        for j in range(r, q):
            v = self.f(raw, j, r)
            if j >= 1 and v == j:
                out.append((1, j, (j, j, r)))
            if v == p:
                out.append((2, j, (p, j, r)))
            if v is None:
                break
        v = self.f(raw, q, r)
        if v is not None and v < p:
            out.append((1, v, (v, q, r)))
        for j in range(r):
            if self.f(raw, q, j) == p:
                out.append((3, j, (p, q, j)))
        out.sort(key=lambda b: (b[0], b[1]))
        return [("(%d,%d)" % (row, keep + 1), self._trim(leaves)) for row, keep, leaves in out]


def _isqrt(x):
    """The integer square root (math.isqrt, for Pythons before 3.8)."""
    r = int(x ** 0.5)
    while r * r > x:
        r -= 1
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r


def _lex_rank(seq):
    """Lexicographic rank of a permutation of 0..len(seq) (Lehmer code)."""
    n, rank, rest = len(seq), 0, list(range(len(seq)))
    for i, v in enumerate(seq):
        d = rest.index(v)  # entries right of i smaller than v
        del rest[d]
        rank += d * _FACTORIAL[n - 1 - i]
    return rank


def _lex_unrank(rank, n):
    rest, out = list(range(n)), []
    for i in range(n):
        d, rank = divmod(rank, _FACTORIAL[n - 1 - i])
        out.append(rest.pop(d))
    return out


def _inversions(seq):
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])


_FACTORIAL = [1]
for _k in range(1, 21):
    _FACTORIAL.append(_FACTORIAL[-1] * _k)


@register
class Slide(Game):
    """Sliding puzzles (src/games/slide.rs, src/games/grid.rs): distance to the goal of every
    solvable arrangement; ``index = (lex_rank(tile sequence) // 2) * R*C + blank cell``."""

    ID = 4
    NAME = "slide"
    # Byte tables stop at 12 cells; the mod3 tables of `gamedb enumerate` go to 16.
    MAX_TABLE_CELLS = 16

    def __init__(self, params):
        if any(params[2:]) or params[0] > 16 or params[1] > 16:
            raise ValueError("slide parameters out of range")
        r, c = params[0], params[1]
        if r < 2 or c < 2 or r * c > self.MAX_TABLE_CELLS:
            raise ValueError(
                "--rows %d --cols %d: expected at least 2 rows and 2 columns and at most %d cells "
                "in all (up to 4×4, 3×5, 2×8 and their transposes)" % (r, c, self.MAX_TABLE_CELLS)
            )
        self.rows, self.cols, self.cells = r, c, r * c

    def value_kinds(self):
        return ("distance",)

    def positions(self):
        return _FACTORIAL[self.cells] // 2

    def describe(self):
        return (
            "sliding puzzle: %d×%d board (%d rows, %d columns, tiles 1..=%d), distance to the goal "
            "of every solvable arrangement" % (self.rows, self.cols, self.rows, self.cols, self.cells - 1)
        )

    def goal(self):
        return list(range(1, self.cells)) + [0]

    def swapped_goal(self):
        g = self.goal()
        g[-3], g[-2] = g[-2], g[-3]
        return g

    def position_form(self):
        return (
            "the %d cells of the %d×%d board in reading order, tiles 1..=%d once each and 0 for the "
            "blank (the goal is %s)" % (self.cells, self.rows, self.cols, self.cells - 1, format_numbers(self.goal()))
        )

    def check(self, pos):
        self._check_ints(pos)
        n, text = self.cells, quote(pos)
        if len(pos) != n:
            raise BadInput(
                "position '%s' has %d numbers, a %d×%d board has %d cells; expected %s"
                % (text, len(pos), self.rows, self.cols, n, self.position_form())
            )
        seen = set()
        for v in pos:
            if v >= n:
                raise BadInput(
                    "position '%s': %d is not a tile of a %d×%d board; expected %s"
                    % (text, v, self.rows, self.cols, self.position_form())
                )
            if v in seen:
                what = "the blank 0" if v == 0 else "tile %d" % v
                raise BadInput("position '%s': %s appears twice; expected %s" % (text, what, self.position_form()))
            seen.add(v)

    def _required_parity(self, cell):
        return 0 if self.cols % 2 else (self.rows - 1 - cell // self.cols) % 2

    def outside(self, pos):
        """Why a checked arrangement cannot reach the goal (the parity rule), or None."""
        inv = _inversions([v for v in pos if v])
        blank = pos.index(0)
        if inv % 2 == self._required_parity(blank):
            return None
        inversions = "1 inversion" if inv == 1 else "%d inversions" % inv
        swapped = format_numbers(self.swapped_goal())
        if self.cols % 2:
            return (
                "the tiles read row by row (blank skipped) have %s, an odd number; with an odd number "
                "of columns every move keeps the parity of that count, which is even at the goal, so "
                "this arrangement reaches %s (the last two tiles swapped) instead" % (inversions, swapped)
            )
        row = self.rows - 1 - blank // self.cols
        return (
            "%s of the tiles read row by row (blank skipped) plus the blank's row %d (counted from the "
            "bottom, from 0) make %d, an odd number; with an even number of columns every move keeps "
            "the parity of that sum, which is even at the goal, so this arrangement reaches %s (the "
            "last two tiles swapped) instead" % (inversions, row, inv + row, swapped)
        )

    def rank(self, pos):
        seq = [v - 1 for v in pos if v]
        return (_lex_rank(seq) >> 1) * self.cells + pos.index(0)

    def unrank(self, index):
        block, b = divmod(index, self.cells)
        want = self._required_parity(b)
        for r in (2 * block, 2 * block + 1):
            seq = _lex_unrank(r, self.cells - 1)
            if _inversions(seq) % 2 == want:
                break
        tiles = [v + 1 for v in seq]
        return tiles[:b] + [0] + tiles[b:]

    def moves(self, pos):
        b, cols, out = pos.index(0), self.cols, []

        def push(frm, direction):
            leaves = list(pos)
            leaves[frm], leaves[b] = leaves[b], leaves[frm]
            out.append(("slide %d %s" % (pos[frm], direction), leaves))

        if b + cols < self.cells:
            push(b + cols, "up")
        if b >= cols:
            push(b - cols, "down")
        if b % cols + 1 < cols:
            push(b + 1, "left")
        if b % cols > 0:
            push(b - 1, "right")
        return out


@register
class PatternDatabase(Game):
    """Pattern databases (src/games/pdb.rs): for every placement of the pattern tiles, the
    fewest pattern-tile moves home (255 = cannot reach the goal). Index: mixed radix
    ``N, N-1, ..., N-k+1`` over ``d_i = c_i - |{j < i: c_j < c_i}|``, pattern tiles in
    increasing order, ``c_i`` the cell of tile ``t_i``."""

    ID = 5
    NAME = "pdb"
    MAX_CELLS = 16
    MAX_PLACEMENTS = 1 << 32
    UNREACHABLE = 255

    def __init__(self, params):
        if any(params[3:]) or params[0] > 64 or params[1] > 64:
            raise ValueError("pattern database parameters out of range")
        r, c = params[0], params[1]
        tiles = [t for t in range(64) if params[2] >> t & 1]
        if r < 2 or c < 2 or r * c > self.MAX_CELLS:
            raise ValueError(
                "board %dx%d: expected --rows and --cols of at least 2 with at most %d cells in all"
                % (r, c, self.MAX_CELLS)
            )
        self.rows, self.cols, self.cells = r, c, r * c
        n = self.cells
        form = "a comma-separated list of distinct tiles 1..=%d of the %s board" % (n - 1, self.board_name())
        if not tiles:
            raise ValueError("--pattern is empty; expected %s" % form)
        for t in tiles:
            if t == 0 or t >= n:
                raise ValueError(
                    "--pattern: %d is not a tile of the %s board (the blank is not a pattern tile); "
                    "expected %s" % (t, self.board_name(), form)
                )
        self.pattern = tiles
        self._slot = {t: i for i, t in enumerate(tiles)}
        self.k = len(tiles)
        if self.positions() > self.MAX_PLACEMENTS:
            raise ValueError(
                "a pattern of %d tiles on the %s board has more than %d placements; use fewer tiles"
                % (self.k, self.board_name(), self.MAX_PLACEMENTS)
            )

    def board_name(self):
        return "%dx%d" % (self.rows, self.cols)

    def distance_bound(self):
        return (
            "moves of tiles %s of the %s board: the fewest moves of those tiles that bring them "
            "home, the other tiles moving free (a pattern database; a lower bound on the "
            "distance to the goal)" % (self.pattern_name(), self.board_name())
        )

    def pattern_name(self):
        out, i, t = [], 0, self.pattern
        while i < len(t):
            j = i
            while j + 1 < len(t) and t[j + 1] == t[j] + 1:
                j += 1
            out.append(str(t[i]) if i == j else "%d-%d" % (t[i], t[j]))
            i = j + 1
        return ",".join(out)

    def value_kinds(self):
        return ("distance",)

    def positions(self):
        acc = 1
        for i in range(self.k):
            acc *= self.cells - i
        return acc

    def describe(self):
        return "pattern database: tiles %s of the %s sliding puzzle" % (self.pattern_name(), self.board_name())

    # Positions are whole boards, read and checked exactly as sliding-puzzle positions
    # (src/games/board.rs serves both games).
    goal = Slide.goal
    position_form = Slide.position_form
    check = Slide.check

    def rank(self, pos):
        cells = [0] * self.k
        slot = self._slot
        for cell, t in enumerate(pos):
            i = slot.get(t)
            if i is not None:
                cells[i] = cell
        r = 0
        for i, c in enumerate(cells):
            r = r * (self.cells - i) + c - sum(1 for j in range(i) if cells[j] < c)
        return r

    def unrank(self, index):
        n, k = self.cells, self.k
        digits = [0] * k
        for i in reversed(range(k)):
            index, digits[i] = divmod(index, n - i)
        free = list(range(n))
        tiles = [None] * n
        for i in range(k):
            tiles[free.pop(digits[i])] = self.pattern[i]
        others = iter(t for t in range(1, n) if t not in self._slot)
        last_free = max(c for c in range(n) if tiles[c] is None)
        for c in range(n):
            if tiles[c] is None:
                tiles[c] = 0 if c == last_free else next(others)
        return tiles

    def moves(self, pos):
        b, cols, out = pos.index(0), self.cols, []
        r, c = divmod(b, cols)
        near = []
        if r > 0:
            near.append((b - cols, "down"))
        if c > 0:
            near.append((b - 1, "right"))
        if c + 1 < cols:
            near.append((b + 1, "left"))
        if r + 1 < self.rows:
            near.append((b + cols, "up"))
        for frm, direction in near:
            leaves = list(pos)
            leaves[frm], leaves[b] = leaves[b], leaves[frm]
            out.append(("%d %s" % (pos[frm], direction), leaves))
        return out


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------


class Table:
    """An open table file (memory-mapped, read-only).

    ``verify``: None (default) checks the payload checksum when it is cheap (``xxhash``
    installed, or a payload of at most PURE_PYTHON_VERIFY_LIMIT bytes); True always checks
    it; False never does. The header checksum, magic, version and sizes are always checked.
    """

    def __init__(self, path, verify=None):
        self.path = str(path)
        self._mm = None
        with open(self.path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < HEADER_LEN:
                raise DamagedTable(
                    self.path,
                    "file is %d bytes, shorter than the %d-byte header (truncated?)" % (size, HEADER_LEN),
                )
            self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            self._read_header(size)
            self._check_payload(verify)
        except BaseException:
            self.close()
            raise

    def _damaged(self, what):
        return DamagedTable(self.path, what)

    def _read_header(self, size):
        mm = self._mm
        magic, version = struct.unpack_from("<8sI", mm, 0)
        if magic == MAGIC and version == FORMAT_VERSION and size < HEADER_LEN:
            raise self._damaged(
                "file is %d bytes, shorter than the %d-byte header (truncated?)" % (size, HEADER_LEN)
            )
        fields = HEADER.unpack_from(mm, 0)
        (magic, version, kind, encoding, rules_version, entries, offset, plen, pxxh3) = fields[:9]
        (crate_version, game_field, parameters_field, hxxh3) = fields[9:]
        if magic != MAGIC:
            raise self._damaged('not a gamedb table (magic bytes are not "GAMEDB\\r\\n")')
        if version != FORMAT_VERSION:
            raise VersionError(
                "%s: table format version %d is not readable by gamedb.py (reads version %d); "
                "use a newer gamedb.py or rebuild the table" % (self.path, version, FORMAT_VERSION)
            )
        got = _hash(mm[: HEADER_LEN - 8])
        if got != hxxh3:
            raise self._damaged(
                "header checksum mismatch: stored %016x, header hashes to %016x" % (hxxh3, got)
            )
        if kind not in VALUE_KINDS:
            raise self._damaged("unknown value kind %d" % kind)
        if encoding not in ENCODINGS:
            raise self._damaged("unknown encoding %d" % encoding)
        self.value_kind = VALUE_KINDS[kind]
        self.encoding = ENCODINGS[encoding]
        if offset != PAYLOAD_OFFSET:
            raise self._damaged("payload offset %d (expected %d)" % (offset, PAYLOAD_OFFSET))
        if payload_len(self.encoding, entries) != plen:
            raise self._damaged(
                "payload length %d does not fit %d entries encoded as %s" % (plen, entries, self.encoding)
            )
        if offset + plen != size:
            raise self._damaged(
                "file is %d bytes but the header says %d (truncated or extended)" % (size, offset + plen)
            )
        nonzero = mm[HEADER_LEN:PAYLOAD_OFFSET].rstrip(b"\0")
        if nonzero:
            i = len(nonzero) - len(nonzero.lstrip(b"\0"))
            raise self._damaged(
                "byte %d (between the header and the payload) is %#04x, not 0"
                % (HEADER_LEN + i, nonzero[i])
            )
        game = game_field.split(b"\0", 1)[0].decode("ascii", "replace")
        parameters = parameters_field.split(b"\0", 1)[0].decode("ascii", "replace")
        # The stored payload checksum has the table's identity folded in (tables/README.md).
        pxxh3 ^= _hash(("%s\0%d\0%s" % (game, rules_version, parameters)).encode("ascii"))
        try:
            params = _numeric_params(game, parameters)
        except ValueError as e:
            raise self._damaged(str(e)) from None
        classes = [c for c in GAMES.values() if c.NAME == game]
        if params is None or not classes or rules_version != 1:
            raise UnknownGame(
                "%s: game '%s' is not known to gamedb.py (it reads %s)"
                % (self.path, game, ", ".join(sorted(c.NAME for c in GAMES.values())))
            )
        try:
            self.game = classes[0](params)
        except ValueError as e:
            raise self._damaged(str(e)) from None
        if self.game.positions() != entries:
            raise self._damaged(
                "header says %d entries, but %s has %d"
                % (entries, self.game.describe(), self.game.positions())
            )
        if self.value_kind not in self.game.value_kinds():
            raise self._damaged("%s tables do not hold %s values" % (self.game.NAME, self.value_kind))
        if (
            (self.value_kind == "outcome") != (self.encoding == "bits")
            or (self.value_kind == "distance" and self.encoding not in ("u8", "mod3"))
            or (self.encoding == "mod3" and (self.value_kind != "distance" or self.game.distance_bound() is not None))
            or (self.value_kind == "extension" and self.encoding not in ("u16", "u24"))
            or (self.encoding == "u24" and self.value_kind != "extension")
        ):
            raise self._damaged("%s values cannot be encoded as %s" % (self.value_kind, self.encoding))
        self.game_id = game
        self.params = params
        self.parameters = parameters
        self.rules_version = rules_version
        self.entry_count = entries
        self.payload_offset = offset
        self.payload_len = plen
        self.payload_xxh3 = pxxh3
        self.header_xxh3 = hxxh3
        self.crate_version = crate_version.split(b"\0", 1)[0].decode("utf-8", "replace")
        self.payload = memoryview(self._mm)[offset : offset + plen]

    def _check_payload(self, verify):
        if verify is False:
            self.payload_checksum = "not checked (verify=False)"
            return
        if _xxhash is None and verify is None and self.payload_len > PURE_PYTHON_VERIFY_LIMIT:
            self.payload_checksum = (
                "not checked: the xxhash package is not installed and the payload is over "
                "%d bytes (pass verify=True to check it in pure Python)" % PURE_PYTHON_VERIFY_LIMIT
            )
            # Said where a person or a log sees it: answers from an unchecked payload are only
            # as good as the file.
            sys.stderr.write("gamedb.py: warning: %s: payload checksum %s\n" % (self.path, self.payload_checksum))
            return
        self.verify()
        how = "xxhash" if _xxhash is not None else "pure Python xxh3"
        self.payload_checksum = "ok (%s)" % how

    def verify(self):
        """Reads the whole payload and compares its xxh3-64 with the header's."""
        got = _hash(self.payload)
        if got != self.payload_xxh3:
            raise self._damaged(
                "payload checksum mismatch: header says %016x, payload hashes to %016x"
                % (self.payload_xxh3, got)
            )

    # -- values --------------------------------------------------------------------------

    def __len__(self):
        return self.entry_count

    def raw(self, index):
        """The stored value of entry ``index``: the bit (1 = N), the byte, the u16, the u24, or
        the mod3 code."""
        if not 0 <= index < self.entry_count:
            raise IndexError("index %d out of range 0..%d" % (index, self.entry_count))
        p = self.payload
        if self.encoding == "bits":
            return p[index >> 3] >> (index & 7) & 1
        if self.encoding == "u8":
            return p[index]
        if self.encoding == "mod3":
            return p[index >> 2] >> (2 * (index & 3)) & 3
        if self.encoding == "u24":
            return p[3 * index] | p[3 * index + 1] << 8 | p[3 * index + 2] << 16
        return p[2 * index] | p[2 * index + 1] << 8

    def descend(self, pos):
        """The exact distance of a position of a mod3 table: the number of steps of the walk
        to the goal that takes, each step, the first move whose leaves hold the closer code
        (every move changes a puzzle's distance by exactly one, so that move is one step
        closer). The goal is the one position without such a move; it holds code 1."""
        g = self.game
        here, steps = list(pos), 0
        while True:
            code = self.raw(g.rank(here))
            if code == MOD3_UNREACHED:
                raise self._damaged(
                    "position %s is marked unreached, but the rules say the goal can be reached" % g.format(here)
                )
            want = mod3_closer(code)
            step = None
            for _, leaves in g.moves(here):
                if g.outside(leaves) is None and self.raw(g.rank(leaves)) == want:
                    step = leaves
                    break
            if step is None:
                if code != mod3_code(0):
                    raise self._damaged("position %s has no move one step nearer the goal" % g.format(here))
                return steps
            if steps >= self.entry_count:
                raise self._damaged("position %s descends for ever (no path to the goal)" % g.format(pos))
            here, steps = list(step), steps + 1

    def value(self, index):
        """The value at an index as the C ABI's ``gamedb_value_at`` gives it: the stored value,
        except that a mod3 table answers the exact distance (by descent)."""
        if self.encoding == "mod3":
            return self.descend(self.game.unrank(index))
        return self.raw(index)

    def outcome(self, index):
        """'P' or 'N' for the player to move at entry ``index``."""
        return "N" if self.raw(index) else "P"

    def grundy(self, index):
        """The Grundy value at ``index``, or None if the table does not store them."""
        return self.raw(index) if self.value_kind == "grundy" else None

    def outcome_of(self, pos):
        """'P' or 'N' of a position given as a sequence of ints (checked)."""
        self.game.check(pos)
        if self.value_kind == "extension":
            return self.game.extension_outcome(pos, self.raw)
        i = self.game.rank(pos)
        if self.encoding == "bits":
            return "N" if self.payload[i >> 3] >> (i & 7) & 1 else "P"
        return "N" if self.raw(i) else "P"

    def count_p(self):
        """Number of P-positions."""
        if self.encoding == "bits":
            ones, p, step = 0, self.payload, 1 << 20
            for off in range(0, len(p), step):
                ones += bin(int.from_bytes(p[off : off + step], "little")).count("1")
            return self.entry_count - ones
        return sum(1 for i in range(self.entry_count) if self.raw(i) == 0)

    def numpy(self):
        """The payload as a read-only ``numpy.memmap`` over the file (no copy): uint8 bytes
        for bit and u8 tables (for bits, entry i is bit i % 8 of byte i // 8), little-endian
        uint16 for u16 tables, uint8 bytes for u24 tables (entry i is bytes 3i..3i+3,
        little-endian). Needs numpy."""
        if _numpy is None:
            raise Error("numpy is not installed (or GAMEDB_PY_STDLIB_ONLY is set)")
        dtype = {"bits": _numpy.uint8, "u8": _numpy.uint8, "u16": _numpy.dtype("<u2"), "mod3": _numpy.uint8, "u24": _numpy.uint8}[self.encoding]
        count = self.payload_len // _numpy.dtype(dtype).itemsize
        return _numpy.memmap(self.path, dtype=dtype, mode="r", offset=self.payload_offset, shape=(count,))

    # -- queries -------------------------------------------------------------------------

    def answer(self, pos):
        """The answer to a checked position: a dict with the keys of ``gamedb query --json``.
        Outcome and Grundy tables: ``position``, ``outcome``, ``grundy`` when stored,
        ``winning_moves``. Distance tables: ``position``, ``solvable``, ``distance`` (None when
        unsolvable), ``reason`` (when unsolvable), ``optimal_moves``. Each move is a dict
        ``{"move": label, "leaves": position}``."""
        g = self.game
        outside = g.outside(pos)
        bound = g.distance_bound()
        if self.value_kind == "distance" and bound is not None and outside is None:
            # A table of lower bounds (pattern database): the entry itself, no moves.
            v = self.raw(g.rank(pos))
            out = {"position": g.format(pos), "lower_bound": None if v == UNREACHED else v, "counts": bound}
            if v == UNREACHED:
                out["reason"] = "the entry is %d: those tiles cannot be brought home" % UNREACHED
            return out
        if self.value_kind == "distance":
            out = {"position": g.format(pos), "solvable": outside is None, "distance": None}
            if outside is not None:
                out["reason"] = outside
                out["optimal_moves"] = []
                return out
            i = g.rank(pos)
            if self.encoding == "mod3":
                here = self.descend(pos)
                want = mod3_code(here - 1) if here > 0 else None
            else:
                here = self.raw(i)
                if here == UNREACHED:
                    raise self._damaged(
                        "entry %d is marked unreachable, but the rules say the goal can be reached" % i
                    )
                want = here - 1
            nearer = []
            for label, leaves in g.moves(pos):
                if g.outside(leaves) is None and self.raw(g.rank(leaves)) == want:
                    nearer.append({"move": label, "leaves": g.format(leaves)})
            if here > 0 and not nearer:
                raise self._damaged(
                    "position %s is stored at distance %d but has no move to distance %d"
                    % (g.format(pos), here, here - 1)
                )
            out["distance"] = here
            out["optimal_moves"] = nearer
            return out
        if self.value_kind == "extension":
            # One entry per prefix: the game reads what it needs from the entries.
            winning = [{"move": label, "leaves": g.format(leaves)} for label, leaves in g.extension_winning_moves(pos, self.raw)]
            return {"position": g.format(pos), "outcome": g.extension_outcome(pos, self.raw), "winning_moves": winning}
        if outside is not None:
            raise BadInput("position '%s' is not in this table: %s" % (g.format(pos), outside))
        i = g.rank(pos)
        winning = []
        for label, leaves in g.moves(pos):
            if self.raw(g.rank(leaves)) == 0:
                winning.append({"move": label, "leaves": g.format(leaves)})
        out = {"position": g.format(pos), "outcome": self.outcome(i)}
        if self.value_kind == "grundy":
            out["grundy"] = self.raw(i)
        out["winning_moves"] = winning
        return out

    def distance_of(self, pos):
        """Moves to the goal of a position of a distance table given as a sequence of ints
        (checked); None when the goal cannot be reached from it."""
        self.game.check(pos)
        if self.game.outside(pos) is not None:
            return None
        if self.encoding == "mod3":
            return self.descend(pos)
        v = self.raw(self.game.rank(pos))
        return None if v == UNREACHED else v

    def query(self, text):
        """Answers a position written as ``gamedb query`` reads it (BadInput if it is not a
        position of this table)."""
        return self.answer(self.game.parse(text))

    @staticmethod
    def _moves_json(moves):
        return _Raw("[" + ",".join(json_object([("move", m["move"]), ("leaves", m["leaves"])]) for m in moves) + "]")

    @staticmethod
    def _moves_text(moves):
        return "; ".join("%s -> %s" % (m["move"], m["leaves"]) for m in moves)

    def answer_json(self, answer):
        """One answer as the JSON line ``gamedb query --json`` prints, byte for byte."""
        if "lower_bound" in answer:
            lb = answer["lower_bound"]
            pairs = [
                ("position", answer["position"]),
                ("lower_bound", _Raw("null") if lb is None else lb),
                ("counts", answer["counts"]),
            ]
            if "reason" in answer:
                pairs.append(("reason", answer["reason"]))
            return json_object(pairs)
        if "solvable" in answer:
            pairs = [
                ("position", answer["position"]),
                ("solvable", _Raw("true" if answer["solvable"] else "false")),
                ("distance", _Raw("null") if answer["distance"] is None else answer["distance"]),
            ]
            if "reason" in answer:
                pairs.append(("reason", answer["reason"]))
            pairs.append(("optimal_moves", self._moves_json(answer["optimal_moves"])))
            return json_object(pairs)
        pairs = [("position", answer["position"]), ("outcome", answer["outcome"])]
        if "grundy" in answer:
            pairs.append(("grundy", answer["grundy"]))
        pairs.append(("winning_moves", self._moves_json(answer["winning_moves"])))
        return json_object(pairs)

    def answer_text(self, answer):
        """One answer as the text line ``gamedb query`` prints."""
        if "lower_bound" in answer:
            n = answer["lower_bound"]
            if n is None:
                return "%s: unreachable: %s" % (answer["position"], answer["reason"])
            return "%s: lower bound %d: %d %s" % (answer["position"], n, n, answer["counts"])
        if "solvable" in answer:
            d = answer["distance"]
            if d is None:
                return "%s: unsolvable: %s" % (answer["position"], answer["reason"])
            if d == 0:
                return "%s: distance 0 (the goal)" % answer["position"]
            return "%s: distance %d  optimal: %s" % (answer["position"], d, self._moves_text(answer["optimal_moves"]))
        s = "%s: %s" % (answer["position"], answer["outcome"])
        if "grundy" in answer:
            s += "  grundy %d" % answer["grundy"]
        if answer["winning_moves"]:
            s += "  winning: " + self._moves_text(answer["winning_moves"])
        return s

    def reply(self, line, as_json):
        """The line ``gamedb query TABLE -`` writes for one input line (already trimmed and
        not empty), and whether it was an error."""
        try:
            a = self.query(line)
        except (BadInput, DamagedTable) as e:
            if as_json:
                return json_object([("position", echo(line)), ("error", str(e))]), True
            return "%s: error: %s" % (echo(line), e), True
        return (self.answer_json(a) if as_json else self.answer_text(a)), False

    def distance_counts(self):
        """Distance tables: ``(counts, unreached)``, ``counts[d]`` the entries at distance
        ``d`` up to the largest present, ``unreached`` the entries stored as 255."""
        hist = [0] * 256
        for b in bytes(self.payload):
            hist[b] += 1
        counts = hist[:UNREACHED]
        while counts and counts[-1] == 0:
            counts.pop()
        return counts, hist[UNREACHED]

    def info(self):
        """Header fields and counts, with the keys of ``gamedb info --json`` (distance tables:
        ``distance_counts``, ``max_distance`` and ``unreached`` instead of P/N counts)."""
        out = self._header_info()
        if self.encoding == "mod3":
            # No distance is stored: how many entries hold each code.
            tally = [0, 0, 0, 0]
            for b in bytes(self.payload):
                for k in range(4):
                    tally[b >> (2 * k) & 3] += 1
            padding = 4 * self.payload_len - self.entry_count
            out.update(
                distance_residues=[tally[mod3_code(r)] for r in range(3)],
                distance_counts=[],
                max_distance=None,
                unreached=tally[MOD3_UNREACHED] - padding,
            )
        elif self.value_kind == "distance":
            counts, unreached = self.distance_counts()
            out.update(distance_counts=counts, max_distance=len(counts) - 1 if counts else None, unreached=unreached)
        elif self.value_kind == "extension":
            # Each prefix with a nonzero entry stands for exactly one P-position.
            without = self.count_p()
            out.update(p_positions=self.entry_count - without, prefixes_without_p=without)
        else:
            p = self.count_p()
            out.update(p_positions=p, n_positions=self.entry_count - p)
        return out

    def _header_info(self):
        return {
            "file": self.path,
            "game": self.game.NAME,
            "description": self.game.describe(),
            "parameters": self.parameters,
            "rules_version": self.rules_version,
            "known": True,
            "format_version": FORMAT_VERSION,
            "values": self.value_kind,
            "encoding": self.encoding,
            "entries": self.entry_count,
            "payload_offset": self.payload_offset,
            "payload_len": self.payload_len,
            "payload_xxh3": "%016x" % self.payload_xxh3,
            "checksum": "ok" if self.payload_checksum.startswith("ok") else "not checked",
            "checksum_detail": self.payload_checksum,
            "crate_version": self.crate_version,
        }

    # -- lifetime ------------------------------------------------------------------------

    def close(self):
        """Unmaps the file (answers and memoryviews taken from it become invalid)."""
        if getattr(self, "payload", None) is not None:
            self.payload.release()
            self.payload = None
        if self._mm is not None:
            try:
                self._mm.close()
            except BufferError:
                pass  # the caller still holds a view of the payload; unmapped when it goes
            self._mm = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_table(path, verify=None):
    """Opens a table file; see ``Table``."""
    return Table(path, verify=verify)


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------

USAGE = """usage: gamedb.py query TABLE POSITION... [--json] [--no-verify]
       gamedb.py query TABLE - [--json] [--no-verify]   (one position per line on stdin)
       gamedb.py info TABLE [--json]"""


class _Out:
    """UTF-8 lines to a binary stream, whatever the locale."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text):
        self.raw.write(text.encode("utf-8"))

    def flush(self):
        self.raw.flush()


def _stream(table, as_json, out):
    """``gamedb query TABLE -``: one answer per non-empty input line, flushed whenever all
    input received so far is answered (so a caller can talk to it line by line)."""
    fd = sys.stdin.fileno()
    pending = b""
    lines = bad = 0

    def handle(raw):
        nonlocal lines, bad
        try:
            text = trim(raw.decode("utf-8"))
        except UnicodeDecodeError:
            # Answered like any bad line, and the stream goes on (as gamedb query does).
            shown = echo(trim(raw.decode("utf-8", "replace")))
            error = (
                "line '%s' is not UTF-8 text; expected one position per line, written as "
                "`gamedb query` reads them" % shown
            )
            lines += 1
            bad += 1
            if as_json:
                out.write(json_object([("position", shown), ("error", error)]) + "\n")
            else:
                out.write("%s: error: %s\n" % (shown, error))
            return
        if not text:
            return
        lines += 1
        reply, failed = table.reply(text, as_json)
        bad += failed
        out.write(reply + "\n")

    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        parts = (pending + chunk).split(b"\n")
        pending = parts.pop()
        for raw in parts:
            handle(raw)
        out.flush()
    if pending:
        handle(pending)
    out.flush()
    if bad:
        raise BadInput("%d of %d input lines could not be answered (answered with an error)" % (bad, lines))


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    flags = {a for a in argv if a in ("--json", "--no-verify")}
    args = [a for a in argv if a not in flags]
    out = _Out(sys.stdout.buffer)
    try:
        if len(args) >= 2 and args[0] == "info":
            if len(args) != 2:
                raise BadInput("info takes one table\n" + USAGE)
            with open_table(args[1], verify=True) as t:
                info = t.info()
                if "--json" in flags:
                    out.write(_json.dumps(info, ensure_ascii=False) + "\n")
                else:
                    for k, v in info.items():
                        out.write("%-16s %s\n" % (k + ":", v))
            return 0
        if len(args) < 3 or args[0] != "query":
            raise BadInput("expected a command\n" + USAGE)
        with open_table(args[1], verify=None if "--no-verify" not in flags else False) as t:
            as_json = "--json" in flags
            if args[2:] == ["-"]:
                _stream(t, as_json, out)
                return 0
            failed = False
            for text in args[2:]:
                try:
                    a = t.query(text)
                except (BadInput, DamagedTable) as e:
                    out.flush()
                    sys.stderr.write("gamedb.py: %s\n" % e)
                    failed = True
                    continue
                out.write((t.answer_json(a) if as_json else t.answer_text(a)) + "\n")
            out.flush()
            return 2 if failed else 0
    except BrokenPipeError:
        return 0
    except (Error, OSError) as e:
        out.flush()
        sys.stderr.write("gamedb.py: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
