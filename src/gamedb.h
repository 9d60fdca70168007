/*
 * gamedb.h: the C interface of gamedb's shared library (libgamedb.so).
 *
 * Build the library with `cargo build --release` (target/release/libgamedb.so), then e.g.
 *   cc prog.c -I include -L target/release -lgamedb -Wl,-rpath,$PWD/target/release
 *
 * Kept by hand in sync with src/ffi.rs (tests/c_abi.rs checks that both declare the same
 * functions, and compiles and runs tests/c/test_gamedb.c against a real table).
 *
 * Conventions
 * - A table is an opaque handle from gamedb_open(), freed by gamedb_close(). A handle may be
 *   used by several threads at once for lookups; closing must not race with its use.
 * - Positions are text, written as `gamedb query` reads them: "1,2,4" (Nim heaps, any
 *   order), "5,0,2" (candy: left,mine,theirs), ...
 * - A function that fails returns a negative GAMEDB_ERR_* code (or NULL) and leaves a
 *   one-line message for gamedb_last_error() (per thread).
 * - Variable-size answers are written into the caller's buffer with snprintf's contract: the
 *   return value is the length of the whole text (without its NUL); the text and its NUL are
 *   written only when cap > that length (otherwise buf[0] = 0 if cap > 0). Pass buf = NULL,
 *   cap = 0 to ask for the length.
 * - No call aborts or unwinds into C: internal bugs are caught and reported as
 *   GAMEDB_ERR_INTERNAL.
 */
#ifndef GAMEDB_H
#define GAMEDB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes (negative return values). */
#define GAMEDB_ERR_NULL (-1)     /* a required pointer argument was NULL */
#define GAMEDB_ERR_POSITION (-2) /* the text is not a position of this table */
#define GAMEDB_ERR_INDEX (-3)    /* index >= gamedb_positions() */
#define GAMEDB_ERR_KIND (-4)     /* the table does not hold this kind of value */
#define GAMEDB_ERR_INTERNAL (-5) /* a bug in gamedb (a panic or a broken invariant) */
#define GAMEDB_ERR_GAME (-6)     /* the table's game is not known to this library: values by
                                    index only */

/* Flags of gamedb_open(). */
#define GAMEDB_OPEN_NO_VERIFY 1u /* skip the payload checksum (reads the whole file) */

/* Outcomes returned by gamedb_outcome(). */
#define GAMEDB_P 0 /* the player to move loses with best play */
#define GAMEDB_N 1 /* the player to move wins */

/* Value kinds returned by gamedb_value_kind(): the codes of the table header's value_kind
 * field (tables/README.md; tests/format_docs.rs holds this list to the code's). */
#define GAMEDB_VALUES_OUTCOME 1
#define GAMEDB_VALUES_GRUNDY 2
#define GAMEDB_VALUES_DISTANCE 3
#define GAMEDB_VALUES_EXTENSION 4
#define GAMEDB_VALUES_REMOTENESS 5 /* two-player games (m,n,k, Connect Four, chess endings...):
                                      win, lose, tie or draw with the remoteness, packed as
                                      gamedb_value describes */
#define GAMEDB_VALUES_WLT 6 /* two-player games, two bits a position: win, lose or tie-or-draw
                               (a tie and a draw are one value), no remoteness */
#define GAMEDB_VALUES_DTZ 7 /* chess endings (with pawns or without) under the 50-move rule:
                               packed as GAMEDB_VALUES_REMOTENESS, the remoteness being the
                               plies to the next zeroing move, a capture or a pawn's move, or
                               to mate (Syzygy's DTZ; over 100: cursed win, blessed loss; 0 for
                               a position neither won nor lost) */

/* The codes gamedb_value returns on wlt tables, for the player to move. */
#define GAMEDB_WLT_LOSE 1
#define GAMEDB_WLT_WIN 2
#define GAMEDB_WLT_TIE_OR_DRAW 3

/* An open table. */
typedef struct gamedb_table gamedb_table;

/* The library's version, e.g. "0.1.0". Static; never NULL. */
const char *gamedb_version(void);

/* The message of the most recent failure on this thread ("" if none). Valid until the next
 * gamedb call on this thread; never NULL. */
const char *gamedb_last_error(void);

/* Opens a table file: checks magic, format version, header checksum, sizes and, unless
 * flags has GAMEDB_OPEN_NO_VERIFY, the payload checksum. NULL on failure (missing file,
 * damaged or truncated table, unknown game or format version). The file must not be
 * modified in place while open. */
gamedb_table *gamedb_open(const char *path, uint32_t flags);

/* Closes a table. NULL is ignored. */
void gamedb_close(gamedb_table *table);

/* Number of positions (entries) of the table. */
int64_t gamedb_positions(const gamedb_table *table);

/* Writes the name of the table's game ("nim", "chomp", or "CRATE/GAME" for a game of another
 * crate), as gamedb_position_at writes text (snprintf contract). */
int64_t gamedb_game(const gamedb_table *table, char *buf, size_t cap);

/* Writes the table's parameters as its header gives them ("heaps=3,max-heap=7"), as
 * gamedb_position_at writes text. */
int64_t gamedb_parameters(const gamedb_table *table, char *buf, size_t cap);

/* What the values are (GAMEDB_VALUES_*). */
int64_t gamedb_value_kind(const gamedb_table *table);

/* The index of a position, 0 <= index < gamedb_positions(). */
int64_t gamedb_rank(const gamedb_table *table, const char *position);

/* GAMEDB_P (0) or GAMEDB_N (1) for the player to move. Outcome, Grundy and extension tables;
 * GAMEDB_ERR_KIND on distance, remoteness, dtz and wlt tables (gamedb_value answers those). */
int64_t gamedb_outcome(const gamedb_table *table, const char *position);

/* The stored value: 0 = P / 1 = N (outcome tables), the Grundy value (Grundy tables; for a
 * game played as a sum of entries, the xor of the parts'), the distance (distance tables), the
 * entry of the position's prefix (extension tables); on remoteness tables the entry as stored:
 * bits 0-2 the value for the player to move (1 lose, 2 win, 3 tie, 4 draw), bit 3 set when the
 * position is reachable from the game's start, bits 4 and up the remoteness in plies (a chess
 * table's distance to mate; 0 for a draw); on dtz tables the same with the plies to zeroing in
 * place of the remoteness; on wlt tables GAMEDB_WLT_LOSE, GAMEDB_WLT_WIN or
 * GAMEDB_WLT_TIE_OR_DRAW.
 * A chess position is a FEN ("8/8/8/8/8/2k5/8/K2R4 w - - 0 1"); its
 * common form is read in one pass, so lookups from text run at millions a second. */
int64_t gamedb_value(const gamedb_table *table, const char *position);

/* The stored value at an index (as gamedb_value); GAMEDB_ERR_INDEX if out of range. */
int64_t gamedb_value_at(const gamedb_table *table, uint64_t index);

/* Writes the position at an index as text (snprintf contract). */
int64_t gamedb_position_at(const gamedb_table *table, uint64_t index, char *buf, size_t cap);

/* Writes the answer as one JSON object, the line `gamedb query TABLE POSITION --json`
 * prints: {"position", "outcome", "grundy" (Grundy tables), "winning_moves": [{"move",
 * "leaves"}, ...] (the first 8), "more_winning_moves" (how many more, when some were left
 * out)} (snprintf contract). */
int64_t gamedb_query_json(const gamedb_table *table, const char *position, char *buf,
                          size_t cap);

/* Writes every legal move as a JSON array [{"move", "leaves", "outcome", "grundy" or
 * "distance"}, ...] with the stored values of the positions the moves leave (snprintf
 * contract). GAMEDB_ERR_KIND on extension tables (three-rowed Chomp: a first row may have
 * billions of bites; gamedb_query_json gives the winning ones). */
int64_t gamedb_moves_json(const gamedb_table *table, const char *position, char *buf,
                          size_t cap);

/* Sliding puzzles: the positions of one board answered from a folder of tables, by the
 * board's complete table when the folder holds one (found by its header), else by the
 * pattern-database solver (the 4x4 board). */

/* Flags of gamedb_board_query_json(). */
#define GAMEDB_QUERY_PATH 1u /* include a whole optimal solution ("path") */

/* An open board. */
typedef struct gamedb_board gamedb_board;

/* Opens the tables of the rows x cols board in the folder dir. flags: 0, or
 * GAMEDB_OPEN_NO_VERIFY. The pattern tables are opened when the first position that needs
 * them is asked. NULL on failure (a board gamedb cannot take, a damaged table, a file named as
 * the board's complete table whose header says it holds another). */
gamedb_board *gamedb_open_board(const char *dir, uint32_t rows, uint32_t cols, uint32_t flags);

/* Closes a board. NULL is ignored. */
void gamedb_close_board(gamedb_board *board);

/* Writes the answer as one JSON object, the line `gamedb query --rows R --cols C --tables DIR
 * POSITION --json` prints (with GAMEDB_QUERY_PATH in flags: `--path` too): {"position",
 * "solvable", "distance", "reason" (unsolvable), "optimal_moves" (the first 8),
 * "more_optimal_moves" (how many more, when some were left out), "path" (asked for), "nodes"
 * (the solver's answers)} (snprintf contract). GAMEDB_ERR_POSITION for text that is not an
 * arrangement of the board; GAMEDB_ERR_KIND when the folder has no tables to answer it. */
int64_t gamedb_board_query_json(const gamedb_board *board, const char *position, uint32_t flags,
                                char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* GAMEDB_H */
