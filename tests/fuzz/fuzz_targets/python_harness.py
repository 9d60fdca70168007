"""The Python side of the `python` fuzz target: one input is decoded into Python objects
(positions as text, integers of any size, nested sequences, bytes, 1-D and 2-D buffers of
every integer format, keyword parameters) and handed to the package's entry points over the
sample tables. Refusals are the package's exceptions (gamedb.Error and its kinds, and
TypeError or OverflowError where Python itself converts an argument); anything else, an
InternalError above all, is a finding, and so is an answer that breaks its contract.
"""

import array
import struct

import gamedb

# Set by the target before the first input: the sample tables' folder.
TABLES = []
FOLDER = None

# Refusals the package may give; the rest propagate to the target, which reports a crash.
REFUSED = (TypeError, OverflowError)


class Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def take(self, n):
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def text(self):
        return self.take(self.byte() % 48).decode("utf-8", "replace")


FORMATS = "bBhHiIlLqQfd"


def buffer_2d(r):
    """A 2-D buffer (memoryview cast to rows x width) of one element format."""
    fmt = FORMATS[r.byte() % len(FORMATS)]
    rows, width = r.byte() % 5, r.byte() % 5
    size = struct.calcsize(fmt)
    raw = bytearray(r.take(rows * width * size))
    raw.extend(bytes(rows * width * size - len(raw)))
    if rows * width == 0:
        return memoryview(raw).cast("B").cast(fmt) if fmt in "bB" else memoryview(raw)
    return memoryview(bytes(raw)).cast(fmt, [rows, width])


def value(r, table, depth=0):
    """A Python object for a position, an index or a parameter."""
    kind = r.byte() % 13
    if kind == 0:
        return r.byte()
    if kind == 1:
        return int.from_bytes(r.take(8), "little", signed=True) << (r.byte() % 80)
    if kind == 2:
        return r.text()
    if kind in (3, 4) and depth < 3:
        items = [value(r, table, depth + 1) for _ in range(r.byte() % 6)]
        return items if kind == 3 else tuple(items)
    if kind == 5:
        return r.take(r.byte() % 8)
    if kind == 6:
        return [None, True, False, 1.5, float("nan"), -1, 2**32, 2**64][r.byte() % 8]
    if kind == 7:
        return buffer_2d(r)
    if kind == 8:
        return array.array("q", [int.from_bytes(r.take(2), "little") for _ in range(r.byte() % 4)])
    if kind in (9, 10) and len(table) > 0 and table.known:
        # A position of the table, as text or as integers, maybe of a sum of heaps.
        pos = table.unrank(int.from_bytes(r.take(4), "little") % len(table))
        if r.byte() & 1:
            pos = pos + table.unrank(r.byte() % len(table))
        return table.format(pos) if kind == 9 else pos
    if kind == 11:
        return [value(r, table, depth + 1) for _ in range(r.byte() % 4)] if depth < 3 else ""
    return r.byte() % 64


def keywords(r, table):
    """Keyword parameters: the game's own names mostly, with values of every kind."""
    params = {}
    names = [p["name"] for g in GAMES if g["name"] == table.game for p in g["parameters"]]
    for _ in range(r.byte() % 4):
        b = r.byte()
        name = names[b % len(names)] if names and b & 0x80 == 0 else r.text() or "x"
        params[name] = value(r, table)
    return params


def one(data):
    r = Reader(data)
    table = TABLES[r.byte() % len(TABLES)]
    op = r.byte() % 9
    try:
        if op == 0:
            answer = table.query(value(r, table), path=bool(r.byte() & 1))
            assert isinstance(answer, dict) and "position" in answer, answer
        elif op == 1:
            if r.byte() & 1:
                positions = buffer_2d(r)
                rows = positions.shape[0] if positions.ndim == 2 else None
            else:
                positions = [value(r, table) for _ in range(r.byte() % 6)]
                rows = len(positions)
            got = table.query_many(positions)
            assert rows is None or len(got) == rows, (rows, got)
        elif op == 2:
            i = table.rank(value(r, table))
            assert 0 <= i < len(table), i
            assert table.rank(table.unrank(i)) == i
        elif op == 3:
            pos = table.unrank(value(r, table))
            assert table.format(pos)
        elif op == 4:
            assert isinstance(table.format(value(r, table)), str)
        elif op == 5:
            table.value_at(value(r, table))
        elif op == 6:
            # A read-only view of the payload: writing to it is refused.
            values = table.values()
            assert not values.flags.writeable
            if len(values):
                try:
                    values[0] = 1
                    raise AssertionError("a table's values were written")
                except ValueError:
                    pass
        elif op == 7:
            game = table.game if r.byte() & 3 else r.text()
            found = FOLDER.table(game, verify=bool(r.byte() & 1), **keywords(r, table))
            assert found.game == game, (found.game, game)
        else:
            game = table.game if r.byte() & 3 else r.text()
            FOLDER.find(game, **keywords(r, table))
    except gamedb.InternalError:
        raise
    except (gamedb.Error,) + REFUSED:
        pass


GAMES = gamedb.games()
