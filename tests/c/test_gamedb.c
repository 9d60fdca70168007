/*
 * C test of libgamedb, compiled and run by tests/c_abi.rs against tables it builds.
 *
 * usage: test_gamedb NIM_TABLE NIM_GRUNDY_TABLE CANDY_TABLE DAMAGED_TABLE TRUNCATED_TABLE
 *                    FULL_DIR PATTERN_DIR EMPTY_DIR CHESS_TABLE
 *   NIM_TABLE        3 heaps of 0..=7, outcomes
 *   NIM_GRUNDY_TABLE 3 heaps of 0..=7, Grundy values
 *   CANDY_TABLE      any candy table
 *   DAMAGED_TABLE    a copy of NIM_TABLE with one payload byte flipped
 *   TRUNCATED_TABLE  a copy of NIM_TABLE missing its last byte
 *   FULL_DIR         a folder with the complete table of the 3x3 sliding puzzle
 *   PATTERN_DIR      a folder with pattern tables of the 3x3 board only (the solver answers)
 *   EMPTY_DIR        a folder without tables
 *   CHESS_TABLE      the chess ending KRk (win, lose, tie or draw with remoteness)
 *
 * Prints one line per fact it observed (the Rust side checks them against the library and
 * the XOR rule) and checks what it can itself; exits with the number of failed checks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamedb.h"

static int failures = 0;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAILED line %d: %s (last error: %s)\n", __LINE__, #cond,             \
                   gamedb_last_error());                                                 \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

/* Calls a snprintf-style gamedb function twice: once for the length, once into a buffer of
 * exactly the right size. Returns a malloc'd string, or NULL on error. */
typedef int64_t (*text_fn)(const gamedb_table *, const char *, char *, size_t);

static char *fetch(text_fn f, const gamedb_table *t, const char *pos) {
    int64_t len = f(t, pos, NULL, 0);
    if (len < 0) return NULL;
    char small[4] = "xyz";
    int64_t again = f(t, pos, small, sizeof small);
    CHECK(again == len);
    if (len >= (int64_t)sizeof small) CHECK(small[0] == '\0'); /* too small: nothing written */
    char *buf = malloc((size_t)len + 1);
    CHECK(f(t, pos, buf, (size_t)len + 1) == len);
    CHECK(buf[len] == '\0' && strlen(buf) == (size_t)len);
    return buf;
}

static void nim_outcomes(const char *path) {
    gamedb_table *t = gamedb_open(path, 0);
    CHECK(t != NULL);
    if (!t) return;
    char game[64], parameters[128];
    CHECK(gamedb_game(t, game, sizeof game) == 3);
    CHECK(gamedb_parameters(t, parameters, sizeof parameters) > 0);
    printf("game %s %s kind %" PRId64 " positions %" PRId64 "\n", game, parameters,
           gamedb_value_kind(t), gamedb_positions(t));

    const char *known[] = {"1,2,3", "1,2,4", "3,5,6", "0", "7,7", "1", "7,6,5", "2, 7 ,5"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        int64_t o = gamedb_outcome(t, known[i]);
        CHECK(o == GAMEDB_P || o == GAMEDB_N);
        CHECK(gamedb_value(t, known[i]) == o);
        printf("outcome %s %s\n", known[i], o == GAMEDB_P ? "P" : "N");
    }

    /* Every index: position text round trip, and value by index == value by text. */
    int64_t n = gamedb_positions(t);
    int64_t p_count = 0;
    for (int64_t i = 0; i < n; i++) {
        char buf[64];
        int64_t len = gamedb_position_at(t, (uint64_t)i, buf, sizeof buf);
        CHECK(len > 0 && len < (int64_t)sizeof buf);
        CHECK(gamedb_rank(t, buf) == i);
        CHECK(gamedb_value_at(t, (uint64_t)i) == gamedb_value(t, buf));
        p_count += gamedb_value_at(t, (uint64_t)i) == 0;
    }
    printf("p-positions %" PRId64 "\n", p_count);
    CHECK(gamedb_value_at(t, (uint64_t)n) == GAMEDB_ERR_INDEX);
    printf("index-error %s\n", gamedb_last_error());

    /* Bad positions: an error code and a message naming the problem. */
    const char *bad[] = {"1,2,x", "8", "1,2,3,4", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK(gamedb_outcome(t, bad[i]) == GAMEDB_ERR_POSITION);
        printf("bad '%s' %s\n", bad[i], gamedb_last_error());
        CHECK(gamedb_query_json(t, bad[i], NULL, 0) == GAMEDB_ERR_POSITION);
    }
    CHECK(gamedb_outcome(t, "\xff") == GAMEDB_ERR_POSITION);

    /* NULL arguments. */
    CHECK(gamedb_outcome(NULL, "1") == GAMEDB_ERR_NULL);
    CHECK(gamedb_outcome(t, NULL) == GAMEDB_ERR_NULL);
    CHECK(gamedb_positions(NULL) == GAMEDB_ERR_NULL);
    CHECK(gamedb_query_json(t, "1", NULL, 5) == GAMEDB_ERR_NULL);
    CHECK(gamedb_open(NULL, 0) == NULL);
    CHECK(gamedb_open(path, 0x80) == NULL);
    printf("flags-error %s\n", gamedb_last_error());

    /* Answers as JSON, exactly `gamedb query --json`. */
    char *json = fetch(gamedb_query_json, t, "1,2,4");
    CHECK(json != NULL);
    printf("json %s\n", json ? json : "(null)");
    free(json);
    char *moves = fetch(gamedb_moves_json, t, "1,2");
    CHECK(moves != NULL);
    printf("moves %s\n", moves ? moves : "(null)");
    free(moves);
    gamedb_close(t);
    gamedb_close(NULL);
}

static void nim_grundy(const char *path) {
    gamedb_table *t = gamedb_open(path, GAMEDB_OPEN_NO_VERIFY);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(gamedb_value_kind(t) == GAMEDB_VALUES_GRUNDY);
    const char *known[] = {"1,2,4", "1,2,3", "5", "7,7,7"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        int64_t g = gamedb_value(t, known[i]);
        CHECK(g >= 0);
        CHECK(gamedb_outcome(t, known[i]) == (g != 0 ? GAMEDB_N : GAMEDB_P));
        printf("grundy %s %" PRId64 "\n", known[i], g);
    }
    char *json = fetch(gamedb_query_json, t, "1,2,4");
    printf("grundy-json %s\n", json ? json : "(null)");
    free(json);
    gamedb_close(t);
}

/* As fetch, for a board's answers. */
static char *board_fetch(const gamedb_board *b, const char *pos, uint32_t flags) {
    int64_t len = gamedb_board_query_json(b, pos, flags, NULL, 0);
    if (len < 0) return NULL;
    char small[4] = "xyz";
    CHECK(gamedb_board_query_json(b, pos, flags, small, sizeof small) == len);
    if (len >= (int64_t)sizeof small) CHECK(small[0] == '\0');
    char *buf = malloc((size_t)len + 1);
    CHECK(gamedb_board_query_json(b, pos, flags, buf, (size_t)len + 1) == len);
    CHECK(buf[len] == '\0' && strlen(buf) == (size_t)len);
    return buf;
}

/* The 3x3 board answered from a folder: prints "LABEL POSITION JSON" for each position and
 * "LABEL-path JSON" for a solution asked with GAMEDB_QUERY_PATH. */
static void board(const char *label, const char *dir) {
    gamedb_board *b = gamedb_open_board(dir, 3, 3, 0);
    CHECK(b != NULL);
    if (!b) return;
    const char *known[] = {"1,2,3,4,5,6,7,8,0", "1,2,3,4,5,6,7,0,8", "8,6,7,2,5,4,3,0,1",
                           "2,1,3,4,5,6,7,8,0"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        char *json = board_fetch(b, known[i], 0);
        CHECK(json != NULL);
        printf("%s %s %s\n", label, known[i], json ? json : "(null)");
        free(json);
    }
    char *json = board_fetch(b, "1,2,3,4,5,6,0,7,8", GAMEDB_QUERY_PATH);
    CHECK(json != NULL);
    printf("%s-path %s\n", label, json ? json : "(null)");
    free(json);

    /* Bad arrangements, flags and arguments. */
    CHECK(gamedb_board_query_json(b, "1,2,3", 0, NULL, 0) == GAMEDB_ERR_POSITION);
    printf("%s-bad %s\n", label, gamedb_last_error());
    CHECK(gamedb_board_query_json(b, "1,1,2,3,4,5,6,7,8", 0, NULL, 0) == GAMEDB_ERR_POSITION);
    CHECK(gamedb_board_query_json(b, "1,2,3,4,5,6,7,8,0", 0x80, NULL, 0) ==
          GAMEDB_ERR_POSITION);
    printf("%s-flags %s\n", label, gamedb_last_error());
    CHECK(gamedb_board_query_json(b, NULL, 0, NULL, 0) == GAMEDB_ERR_NULL);
    CHECK(gamedb_board_query_json(NULL, "1,2,3,4,5,6,7,8,0", 0, NULL, 0) == GAMEDB_ERR_NULL);
    CHECK(gamedb_board_query_json(b, "1,2,3,4,5,6,7,8,0", 0, NULL, 5) == GAMEDB_ERR_NULL);
    gamedb_close_board(b);
}

/* A folder without tables: unsolvable arrangements are answered all the same (the parity
 * rule); a solvable one names the tables to build. */
static void board_without_tables(const char *dir) {
    gamedb_board *b = gamedb_open_board(dir, 3, 3, GAMEDB_OPEN_NO_VERIFY);
    CHECK(b != NULL);
    if (!b) return;
    char *json = board_fetch(b, "2,1,3,4,5,6,7,8,0", 0);
    CHECK(json != NULL);
    printf("empty-unsolvable %s\n", json ? json : "(null)");
    free(json);
    CHECK(gamedb_board_query_json(b, "1,2,3,4,5,6,7,0,8", 0, NULL, 0) == GAMEDB_ERR_KIND);
    printf("empty-missing %s\n", gamedb_last_error());
    gamedb_close_board(b);
    gamedb_close_board(NULL);

    CHECK(gamedb_open_board(dir, 1, 5, 0) == NULL);
    printf("board-dims %s\n", gamedb_last_error());
    CHECK(gamedb_open_board(dir, 3, 3, 0x80) == NULL);
    printf("board-flags %s\n", gamedb_last_error());
    CHECK(gamedb_open_board(NULL, 3, 3, 0) == NULL);
}

static void candy(const char *path) {
    gamedb_table *t = gamedb_open(path, 0);
    CHECK(t != NULL);
    if (!t) return;
    char game[16];
    CHECK(gamedb_game(t, game, sizeof game) == 5 && strcmp(game, "candy") == 0);
    const char *known[] = {"1,0,0", "1,1,1", "5,0,0", "5,1,1", "6,1,0", "9,2,4", "2,0,1"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        int64_t o = gamedb_outcome(t, known[i]);
        CHECK(o == GAMEDB_P || o == GAMEDB_N);
        printf("candy %s %s\n", known[i], o == GAMEDB_P ? "P" : "N");
    }
    CHECK(gamedb_outcome(t, "2,1,1") == GAMEDB_ERR_POSITION);
    printf("candy-bad %s\n", gamedb_last_error());
    gamedb_close(t);
}

/* A chess ending: the entry of a FEN (value code, remoteness), no P/N, bad FENs refused. */
static void chess(const char *path) {
    gamedb_table *t = gamedb_open(path, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK(gamedb_value_kind(t) == GAMEDB_VALUES_REMOTENESS);
    int64_t v = gamedb_value(t, "8/8/8/8/8/2k5/8/K2R4 w - - 0 1");
    int64_t lost = gamedb_value(t, "R6k/8/6K1/8/8/8/8/8 b - - 0 1");
    int64_t o = gamedb_outcome(t, "8/8/8/8/8/2k5/8/K2R4 w - - 0 1");
    printf("chess value %" PRId64 " code %" PRId64 " remoteness %" PRId64 " mated %" PRId64
           " outcome %" PRId64 "\n",
           v, v & 7, v >> 4, lost, o);
    CHECK(gamedb_value(t, "8/8/8/8/8/2k5/8/K1R5 w - - 0 1") == GAMEDB_ERR_POSITION);
    printf("chess bad %s\n", gamedb_last_error());
    CHECK(gamedb_rank(t, "8/8/8/8/8/2k5/8/K2R4 w KQ - 0 1") == GAMEDB_ERR_POSITION);
    gamedb_close(t);
}

/* The same ending in two bits a position (--values wlt): the value's code alone. */
static void chess_wlt(const char *path) {
    gamedb_table *t = gamedb_open(path, 0);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK(gamedb_value_kind(t) == GAMEDB_VALUES_WLT);
    int64_t v = gamedb_value(t, "8/8/8/8/8/2k5/8/K2R4 w - - 0 1");
    int64_t lost = gamedb_value(t, "R6k/8/6K1/8/8/8/8/8 b - - 0 1");
    int64_t o = gamedb_outcome(t, "8/8/8/8/8/2k5/8/K2R4 w - - 0 1");
    printf("chess wlt %" PRId64 " mated %" PRId64 " outcome %" PRId64 "\n", v, lost, o);
    CHECK(v == GAMEDB_WLT_WIN && lost == GAMEDB_WLT_LOSE);
    CHECK(gamedb_value(t, "8/8/8/8/8/2k5/8/K1R5 w - - 0 1") == GAMEDB_ERR_POSITION);
    gamedb_close(t);
}

int main(int argc, char **argv) {
    if (argc != 11) {
        fprintf(stderr,
                "usage: %s NIM NIM_GRUNDY CANDY DAMAGED TRUNCATED FULL_DIR PATTERN_DIR "
                "EMPTY_DIR CHESS CHESS_WLT\n",
                argv[0]);
        return 100;
    }
    printf("version %s\n", gamedb_version());
    CHECK(strcmp(gamedb_last_error(), "") == 0);
    nim_outcomes(argv[1]);
    nim_grundy(argv[2]);
    candy(argv[3]);
    chess(argv[9]);
    chess_wlt(argv[10]);

    /* A flipped payload byte: refused, naming the checksum; accepted without verification. */
    gamedb_table *t = gamedb_open(argv[4], 0);
    CHECK(t == NULL);
    printf("damaged %s\n", gamedb_last_error());
    t = gamedb_open(argv[4], GAMEDB_OPEN_NO_VERIFY);
    CHECK(t != NULL);
    gamedb_close(t);

    /* A truncated table: refused even without verification. */
    CHECK(gamedb_open(argv[5], GAMEDB_OPEN_NO_VERIFY) == NULL);
    printf("truncated %s\n", gamedb_last_error());

    CHECK(gamedb_open("/nonexistent/table.gtab", 0) == NULL);
    printf("missing %s\n", gamedb_last_error());

    board("board-full", argv[6]);
    board("board-pattern", argv[7]);
    board_without_tables(argv[8]);

    printf("failures %d\n", failures);
    return failures;
}
