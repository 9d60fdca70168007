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


# --------------------------------------------------------------------------------------------
# The header (tables/README.md, "Header")
# --------------------------------------------------------------------------------------------

MAGIC = b"GAMEDB\r\n"
FORMAT_VERSION = 1
HEADER_LEN = 144
PAYLOAD_OFFSET = 4096
# magic, format_version, game, params[8], value_kind, encoding, entry_count, payload_offset,
# payload_len, payload_xxh3, crate_version, header_xxh3: little-endian, no padding.
HEADER = struct.Struct("<8sII8QIIQQQQ16sQ")
assert HEADER.size == HEADER_LEN

VALUE_KINDS = {1: "outcome", 2: "grundy", 3: "distance"}
ENCODINGS = {1: "bits", 2: "u8", 3: "u16"}
MAX_POSITIONS = 1 << 37
PURE_PYTHON_VERIFY_LIMIT = 16 << 20

U32_MAX = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def payload_len(encoding, entries):
    """Payload bytes of ``entries`` entries stored as ``encoding`` (a name)."""
    return {"bits": (entries + 7) // 8, "u8": entries, "u16": 2 * entries}[encoding]


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
    """The value of a decimal u32 written as Rust's ``u32::from_str`` reads it, or None."""
    digits = part[1:] if part[:1] == "+" else part
    if not digits or not (digits.isascii() and digits.isdigit()):
        return None
    value = int(digits)
    return value if value <= U32_MAX else None


def parse_numbers(text, form):
    """``a,b,c`` (spaces allowed around numbers) as a list of ints; BadInput otherwise."""
    text = trim(text)
    if not text:
        raise BadInput("empty position; expected %s" % form)
    out = []
    for part in text.split(","):
        part = trim(part)
        value = parse_u32(part)
        if value is None:
            raise BadInput(
                "position '%s': '%s' is not a non-negative integer; expected %s" % (text, part, form)
            )
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
        if not 1 <= self.max_candies <= 1 << 30:
            raise ValueError("--max-candies %d: expected 1..=1073741824" % self.max_candies)
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
                % (self.format(pos), len(pos), self.position_form())
            )
        total = sum(pos)
        if total % 2 == 0 or total > self.max_candies:
            raise BadInput(
                "position '%s' has total %d, but this table holds odd totals up to %d; expected %s"
                % (self.format(pos), total, self.max_candies, self.position_form())
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
        if not 0 < len(pos) <= self.s:
            raise BadInput(
                "position '%s' has %d heaps; expected %s"
                % (self.format(pos), len(pos), self.position_form())
            )
        for v in pos:
            if v > self.h:
                raise BadInput(
                    "position '%s': heap %d is larger than this table's largest heap %d; expected %s"
                    % (self.format(pos), v, self.h, self.position_form())
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


# Chomp (game 3) and sliding puzzles (game 4) slot in here: one @register class each,
# following src/games/chomp.rs and src/games/slide.rs and their sections of tables/README.md.


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
        fields = HEADER.unpack_from(mm, 0)
        (magic, version, game, *rest) = fields
        params, rest = list(rest[:8]), rest[8:]
        (kind, encoding, entries, offset, plen, pxxh3, crate_version, hxxh3) = rest
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
        if game not in GAMES:
            raise self._damaged("unknown game number %d" % game)
        try:
            self.game = GAMES[game](params)
        except ValueError as e:
            raise self._damaged(str(e)) from None
        if self.game.positions() != entries:
            raise self._damaged(
                "header says %d entries, but %s has %d"
                % (entries, self.game.describe(), self.game.positions())
            )
        if self.value_kind not in self.game.value_kinds():
            raise self._damaged("%s tables do not hold %s values" % (self.game.NAME, self.value_kind))
        if (self.value_kind == "outcome") != (self.encoding == "bits"):
            raise self._damaged("%s values cannot be encoded as %s" % (self.value_kind, self.encoding))
        self.game_id = game
        self.params = params
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
        """The stored value of entry ``index``: the bit (1 = N), the byte, or the u16."""
        if not 0 <= index < self.entry_count:
            raise IndexError("index %d out of range 0..%d" % (index, self.entry_count))
        p = self.payload
        if self.encoding == "bits":
            return p[index >> 3] >> (index & 7) & 1
        if self.encoding == "u8":
            return p[index]
        return p[2 * index] | p[2 * index + 1] << 8

    def outcome(self, index):
        """'P' or 'N' for the player to move at entry ``index``."""
        return "N" if self.raw(index) else "P"

    def grundy(self, index):
        """The Grundy value at ``index``, or None if the table does not store them."""
        return self.raw(index) if self.value_kind == "grundy" else None

    def outcome_of(self, pos):
        """'P' or 'N' of a position given as a sequence of ints (checked)."""
        self.game.check(pos)
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
        uint16 for u16 tables. Needs numpy."""
        if _numpy is None:
            raise Error("numpy is not installed (or GAMEDB_PY_STDLIB_ONLY is set)")
        dtype = {"bits": _numpy.uint8, "u8": _numpy.uint8, "u16": _numpy.dtype("<u2")}[self.encoding]
        count = self.payload_len // _numpy.dtype(dtype).itemsize
        return _numpy.memmap(self.path, dtype=dtype, mode="r", offset=self.payload_offset, shape=(count,))

    # -- queries -------------------------------------------------------------------------

    def answer(self, pos):
        """The answer to a checked position: a dict with the keys of ``gamedb query --json``
        (``position``, ``outcome``, ``grundy`` when stored, ``winning_moves``)."""
        g = self.game
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

    def query(self, text):
        """Answers a position written as ``gamedb query`` reads it (BadInput if it is not a
        position of this table)."""
        return self.answer(self.game.parse(text))

    def answer_json(self, answer):
        """One answer as the JSON line ``gamedb query --json`` prints, byte for byte."""
        moves = "[" + ",".join(
            json_object([("move", m["move"]), ("leaves", m["leaves"])]) for m in answer["winning_moves"]
        ) + "]"
        pairs = [("position", answer["position"]), ("outcome", answer["outcome"])]
        if "grundy" in answer:
            pairs.append(("grundy", answer["grundy"]))
        pairs.append(("winning_moves", _Raw(moves)))
        return json_object(pairs)

    def answer_text(self, answer):
        """One answer as the text line ``gamedb query`` prints."""
        s = "%s: %s" % (answer["position"], answer["outcome"])
        if "grundy" in answer:
            s += "  grundy %d" % answer["grundy"]
        if answer["winning_moves"]:
            s += "  winning: " + "; ".join("%s -> %s" % (m["move"], m["leaves"]) for m in answer["winning_moves"])
        return s

    def reply(self, line, as_json):
        """The line ``gamedb query TABLE -`` writes for one input line (already trimmed and
        not empty), and whether it was an error."""
        try:
            a = self.query(line)
        except BadInput as e:
            if as_json:
                return json_object([("position", line), ("error", str(e))]), True
            return "%s: error: %s" % (line, e), True
        return (self.answer_json(a) if as_json else self.answer_text(a)), False

    def info(self):
        """Header fields and counts, with the keys of ``gamedb info --json``."""
        p = self.count_p()
        return {
            "file": self.path,
            "game": self.game.NAME,
            "description": self.game.describe(),
            "params": list(self.params),
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
            "p_positions": p,
            "n_positions": self.entry_count - p,
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
            out.flush()
            raise Error("<stdin>: stream did not contain valid UTF-8") from None
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
                except BadInput as e:
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
