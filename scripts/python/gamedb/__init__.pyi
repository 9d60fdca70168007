"""gamedb: answers of small combinatorial games, solved exhaustively and kept as checksummed,
memory-mapped tables. This package is the Rust crate's own code (PyO3): every game the crate's
registry knows works, with the answers and error messages of `gamedb query --json`.

Positions are text as `gamedb query` reads them (``"1,2,4"``; ``"#17"`` for the entry at an
index) or a sequence of integers (``[1, 2, 4]``).
"""

from collections.abc import Iterable, Sequence
from os import PathLike
from typing import Any, Union

import numpy as np
import numpy.typing as npt

__version__: str

Position = Union[str, Sequence[int]]
Answer = dict[str, Any]
"""One answer: exactly the keys and values of the JSON object `gamedb query --json` prints
(``position``, ``outcome``, ``grundy``, ``winning_moves``, ``distance``, ... by value kind)."""

class Error(Exception):
    """Every error of gamedb; ``str(e)`` is the command line's message."""

class BadInputError(Error):
    """A position, index or parameter is not acceptable; the message names it and what is
    accepted. From ``Table.query_many``, ``e.row`` is the row of the position."""
    row: int

class DamagedTableError(Error):
    """A table file is damaged (checksum, header, size) or of an unreadable format version."""

class UnknownGameError(Error):
    """The table's game is not known to this build: its values are there by index only."""

class FileError(Error):
    """The operating system refused a file operation (a missing file, a folder)."""

class UnsupportedError(Error):
    """A valid request that cannot be done (no table for it, no numpy view of an encoding)."""

class OverLimitError(Error):
    """A search went over its limit before finishing."""

class InternalError(Error):
    """A bug in gamedb or in a game (please report it)."""

class Payload:
    """The read-only buffer over a table's payload that ``Table.values()`` hands to numpy; it
    holds the table, so the mapping lives as long as any array over it."""
    def __len__(self) -> int: ...

class Table:
    """A table: a file opened and checked as the command line opens it (``open``), or a game
    solved in memory (``solve``). Safe to share between threads."""

    @property
    def game(self) -> str:
        """The game's name as the header gives it (``nim``, ``chomp``, ``CRATE/GAME``)."""
    @property
    def parameters(self) -> str:
        """The parameters as the header gives them (``heaps=3,max-heap=7``)."""
    @property
    def value_kind(self) -> str:
        """``outcome``, ``grundy``, ``distance``, ``extension``, ``remoteness`` or ``wlt``."""
    @property
    def encoding(self) -> str:
        """How values are stored: ``bits`` (one bit a position, entry i in bit i % 8 of byte
        i // 8; 1 = N), ``u8``, ``u16`` (little-endian), ``mod3``, ``u24`` or ``u2``."""
    @property
    def positions(self) -> int:
        """The number of positions (entries)."""
    @property
    def path(self) -> str:
        """The file, or ``(in memory) NAME`` for a table from ``solve``."""
    @property
    def description(self) -> str:
        """What the table holds, in words, as ``gamedb info`` says it."""
    @property
    def known(self) -> bool:
        """Whether this build knows the game (else: values by index only)."""
    def __len__(self) -> int: ...
    def verify(self) -> None:
        """Reads the whole payload and checks its checksum (``open`` does it by default)."""
    def query(self, position: Position, path: bool = False) -> Answer:
        """The answer of ``gamedb query TABLE POSITION --json`` (``--path`` with ``path``)."""
    def query_many(
        self, positions: Union[npt.ArrayLike, Iterable[Position]]
    ) -> npt.NDArray[np.uint32]:
        """One value a position, as a new numpy array of ``uint32``; the GIL is released
        while the table is read.

        ``positions``: a 2-D integer numpy array (one row a position; the fast way, millions
        a second) or any iterable of positions (text or sequences of integers).

        The value: outcome and extension tables 0 = P, 1 = N; Grundy tables the Grundy value
        (0 is P); distance tables the distance to the goal (the lower bound of a pattern
        table); win/lose/tie/draw tables the entry as stored (bits 0-2: 1 lose, 2 win, 3 tie,
        4 draw for the player to move; bit 3: reachable from the start; bits 4 and up: the
        remoteness); wlt tables the two-bit code (1 lose, 2 win, 3 tie or draw). The first
        position that is not one of the table raises its error (the
        message of ``query``) with ``e.row`` set to its row."""
    def values(self) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint16]:
        """The stored values as a read-only numpy array over the table's payload: no copy
        (the array's memory is the file's mapping). ``u8`` tables: one ``uint8`` a position;
        ``u16``: one ``<u2`` a position; ``bits`` (outcome tables): the packed bytes, entry i in
        bit i % 8 of byte i // 8 (``np.unpackbits(v, bitorder="little", count=t.positions)``
        gives one 0/1 a position, 1 = N, as a copy). ``mod3``, ``u24`` and ``u2`` (wlt) tables raise
        ``UnsupportedError``: read them with ``value_at``."""
    def value_at(self, index: int) -> int:
        """The value at an index as the C ABI's ``gamedb_value_at`` gives it (a ``mod3``
        table's exact distance, by descent)."""
    def rank(self, position: Position) -> int:
        """The index of a position."""
    def unrank(self, index: int) -> list[int]:
        """The position at an index (its canonical numbers)."""
    def format(self, position: Position) -> str:
        """A position written as ``gamedb query`` reads and writes it."""

class TableDir:
    """A folder of tables, found by their headers (never by file name), as the CLI finds
    them. Game parameters are keywords as for ``solve``."""

    def __init__(self, path: Union[str, PathLike[str]]) -> None: ...
    @property
    def path(self) -> str: ...
    def tables(self) -> list[dict[str, Any]]:
        """Every ``*.gtab`` file: ``path``, ``name``, and ``game``, ``parameters``,
        ``value_kind``, ``positions``, ``known``, ``description`` from its header (or
        ``error``: why the header cannot be read)."""
    def find(self, game: str, **params: Any) -> str | None:
        """The file holding that game's table, or None."""
    def table(self, game: str, verify: bool = True, **params: Any) -> Table:
        """Opens that game's table (``UnsupportedError`` when the folder has none)."""
    def open(self, name: Union[str, PathLike[str]], verify: bool = True) -> Table:
        """Opens a file of the folder by name."""

class Board:
    """The positions of one sliding-puzzle board, answered from a folder of tables: by the
    board's complete table when there is one, else by the 4x4 solver on pattern tables."""

    def __init__(
        self,
        tables: Union[str, PathLike[str]] = "tables",
        rows: int = 4,
        cols: int = 4,
        verify: bool = True,
    ) -> None: ...
    def query(self, position: Position, path: bool = False) -> Answer:
        """The answer of ``gamedb query --rows R --cols C --tables DIR POSITION --json``."""

def open(path: Union[str, PathLike[str]], verify: bool = True) -> Table:
    """Opens a table file; with ``verify`` its payload checksum is checked, as ``gamedb
    query`` does."""

def solve(game: str, **params: Any) -> Table:
    """Solves a game in memory (nothing is written) and returns its table. Parameters are the
    options of ``gamedb build GAME`` with ``_`` for ``-`` (``max_heap=7``); a switch is
    ``True`` (``grundy=True``); a list is given as a list of integers or as text."""

def games() -> list[dict[str, Any]]:
    """The games this build knows: ``name``, ``about`` and ``parameters`` (each ``name``,
    ``help``, ``kind``: required, optional, choice (with ``choices``, ``default``) or
    switch)."""

def solve_fifteen(
    position: Position,
    tables: Union[str, PathLike[str]] = "tables",
    path: bool = False,
    verify: bool = True,
) -> Answer:
    """Solves a 15-puzzle (4x4) position with the pattern tables in ``tables``, as ``gamedb
    query --rows 4 --cols 4 --tables DIR POSITION --json`` does."""
