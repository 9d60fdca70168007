"""gamedb: answers of small combinatorial games, solved exhaustively and kept as checksummed,
memory-mapped tables; the Rust crate's code through PyO3 (see gamedb/__init__.pyi for the
typed reference).

    >>> import gamedb
    >>> t = gamedb.solve("nim", heaps=3, max_heap=7)
    >>> t.query("1,2,4")["outcome"]
    'N'
"""

from gamedb._gamedb import (  # noqa: F401
    BadInputError,
    Board,
    DamagedTableError,
    Error,
    FileError,
    InternalError,
    OverLimitError,
    Payload,
    Table,
    TableDir,
    UnknownGameError,
    UnsupportedError,
    __version__,
    games,
    open,
    solve,
    solve_fifteen,
)

__all__ = [
    "BadInputError",
    "Board",
    "DamagedTableError",
    "Error",
    "FileError",
    "InternalError",
    "OverLimitError",
    "Payload",
    "Table",
    "TableDir",
    "UnknownGameError",
    "UnsupportedError",
    "__version__",
    "games",
    "open",
    "solve",
    "solve_fifteen",
]
