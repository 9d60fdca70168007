//! The C ABI: a small interface for programs in other languages, declared in
//! `src/gamedb.h` (keep the two in sync: `tests/c_abi.rs` checks the names).
//!
//! The crate builds as a shared library (`target/<profile>/libgamedb.so`) exporting these
//! functions. The design:
//! * a table is an opaque handle from [`gamedb_open`], freed by [`gamedb_close`]; a handle
//!   may be used from several threads at once (lookups only read);
//! * positions are passed as text, written as `gamedb query` reads them (`"1,2,4"`);
//! * every function that can fail returns a negative `GAMEDB_ERR_*` code (or NULL) and leaves
//!   a one-line message for [`gamedb_last_error`] (per thread);
//! * answers with a variable size (the JSON of a query, a position's text) are written into a
//!   caller's buffer with `snprintf`'s contract: the return value is the length of the full
//!   text, and the text is written only when it fits with its terminating NUL;
//! * no panic crosses the boundary: each entry point catches them and reports
//!   `GAMEDB_ERR_INTERNAL` (a bug in gamedb).
//!
//! This module is the only place of the crate where `unsafe` code turns C pointers into Rust
//! references; every such use states why it is sound.

#![deny(unsafe_op_in_unsafe_fn)]

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use std::sync::Arc;

use crate::fifteen::{BoardQuery, Options};
use crate::lookup::Table;
use crate::model::Outcome;
use crate::model::ValueKind;
use crate::tables::TableDir;

/// A required pointer argument was NULL.
pub(crate) const GAMEDB_ERR_NULL: i64 = -1;
/// The text is not a position of this table (see [`gamedb_last_error`] for why).
pub(crate) const GAMEDB_ERR_POSITION: i64 = -2;
/// An index is not below [`gamedb_positions`].
pub(crate) const GAMEDB_ERR_INDEX: i64 = -3;
/// The table does not hold the kind of value asked for (e.g. an outcome from a distance table).
pub(crate) const GAMEDB_ERR_KIND: i64 = -4;
/// A bug in gamedb: a panic caught at the boundary, or an invariant found broken.
pub(crate) const GAMEDB_ERR_INTERNAL: i64 = -5;
/// The table's game is not known to this library (a game of another program): its values
/// are there by index ([`gamedb_value_at`]), its positions cannot be read.
pub(crate) const GAMEDB_ERR_GAME: i64 = -6;

/// The code of an error about a position: the game not known, or the text not a position.
fn code_of(e: &crate::Error) -> i64 {
    match e {
        crate::Error::UnknownGame(_) => GAMEDB_ERR_GAME,
        _ => GAMEDB_ERR_POSITION,
    }
}

/// Flag of [`gamedb_open`]: skip reading the whole payload to check its checksum.
pub(crate) const GAMEDB_OPEN_NO_VERIFY: u32 = 1;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: &str) {
    // Messages come from this crate and never contain NUL; replace one defensively.
    let c = CString::new(msg.replace('\0', "?")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f`, turning a panic into `on_panic` and a message for [`gamedb_last_error`].
fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_error(&format!("internal error in gamedb (please report): {what}"));
            on_panic
        }
    }
}

/// A failure: its code, with the message stored for [`gamedb_last_error`].
fn fail(code: i64, msg: &str) -> i64 {
    set_error(msg);
    code
}

/// The table behind a handle, or `GAMEDB_ERR_NULL`.
///
/// # Safety
/// `table` is NULL or a handle from [`gamedb_open`] not yet closed.
unsafe fn table_ref<'a>(table: *const Table) -> Result<&'a Table, i64> {
    // SAFETY: by the caller's contract a non-NULL `table` came from `Box::into_raw` in
    // `gamedb_open` and has not been freed; `Table` is only read through this reference.
    unsafe { table.as_ref() }.ok_or_else(|| fail(GAMEDB_ERR_NULL, "table handle is NULL"))
}

/// `f` of the table behind a handle, or `GAMEDB_ERR_NULL`; a panic becomes
/// `GAMEDB_ERR_INTERNAL`.
///
/// # Safety
/// `table` is NULL or a handle from [`gamedb_open`] not yet closed.
unsafe fn with_table(table: *const Table, f: impl FnOnce(&Table) -> i64) -> i64 {
    guard(GAMEDB_ERR_INTERNAL, || {
        // SAFETY: forwarded from this function's contract.
        match unsafe { table_ref(table) } {
            Ok(t) => f(t),
            Err(code) => code,
        }
    })
}

/// `f` of the table behind a handle and the text of a position, or the error code of the first
/// of them that fails; a panic becomes `GAMEDB_ERR_INTERNAL`.
///
/// # Safety
/// `table` is NULL or a handle from [`gamedb_open`] not yet closed; `position` is NULL or a
/// NUL-terminated string.
unsafe fn with_position(
    table: *const Table,
    position: *const c_char,
    f: impl FnOnce(&Table, &str) -> Result<i64, i64>,
) -> i64 {
    guard(GAMEDB_ERR_INTERNAL, || {
        // SAFETY: forwarded from this function's contract.
        let found =
            unsafe { table_ref(table).and_then(|t| Ok((t, text_arg(position, "position")?))) };
        match found.and_then(|(t, text)| f(t, text)) {
            Ok(v) | Err(v) => v,
        }
    })
}

/// `GAMEDB_ERR_INDEX` unless `index` is a position of the table.
fn check_index(table: &Table, index: u64) -> Result<(), i64> {
    if index >= table.len() {
        return Err(fail(
            GAMEDB_ERR_INDEX,
            &format!(
                "index {index} is out of range: the table has {} positions",
                table.len()
            ),
        ));
    }
    Ok(())
}

/// The text of a C string argument, or an error code.
///
/// # Safety
/// `s` is NULL or points to a NUL-terminated string that stays valid during the call.
unsafe fn text_arg<'a>(s: *const c_char, what: &str) -> Result<&'a str, i64> {
    if s.is_null() {
        return Err(fail(GAMEDB_ERR_NULL, &format!("{what} is NULL")));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let c = unsafe { CStr::from_ptr(s) };
    c.to_str().map_err(|_| {
        fail(
            GAMEDB_ERR_POSITION,
            &format!("{what} is not valid UTF-8 text"),
        )
    })
}

/// Parses a position of the table, or fails with `GAMEDB_ERR_POSITION`: text that is no
/// position, or a valid position the table does not store (an unsolvable puzzle arrangement,
/// see `Rules::outside`), with the reason.
fn parse_in_table(table: &Table, text: &str) -> Result<Vec<u32>, i64> {
    let pos = table
        .rules()
        .parse(text)
        .map_err(|e| fail(code_of(&e), &e.to_string()))?;
    if let Some(why) = table.rules().outside(&pos) {
        return Err(fail(
            GAMEDB_ERR_POSITION,
            &format!(
                "position '{}' is not in this table: {why}",
                crate::answer::echo(text)
            ),
        ));
    }
    Ok(pos)
}

/// Parses a position and returns its index, or `GAMEDB_ERR_POSITION`.
fn rank_text(table: &Table, text: &str) -> Result<u64, i64> {
    if let Some(i) = text_entry(table, text) {
        return i;
    }
    let pos = parse_in_table(table, text)?;
    index_in_table(table, &pos)
}

/// The index of a position [`parse_in_table`] accepted.
fn index_in_table(table: &Table, pos: &[u32]) -> Result<u64, i64> {
    table
        .index_of(pos)
        .map_err(|e| fail(code_of(&e), &e.to_string()))
}

/// The index of one entry of the table that a text writes, read in one pass by the game's
/// fast path (`Table::text_entry_index`); `None` when the text takes the general path.
#[inline]
fn text_entry(table: &Table, text: &str) -> Option<Result<u64, i64>> {
    let i = table.text_entry_index(text)?;
    Some(i.map_err(|e| fail(code_of(&e), &e.to_string())))
}

/// Copies `text` into the caller's buffer with `snprintf`'s contract.
///
/// # Safety
/// `buf` is NULL or points to `cap` writable bytes.
unsafe fn write_out(text: &str, buf: *mut c_char, cap: usize) -> i64 {
    let needed = text.len();
    if buf.is_null() {
        if cap == 0 {
            return needed as i64;
        }
        return fail(GAMEDB_ERR_NULL, "buffer is NULL but its capacity is not 0");
    }
    if cap > needed {
        // SAFETY: `buf` has `cap > needed` writable bytes by the caller's contract, and
        // `text` is a distinct Rust string, so the regions do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), needed);
            *buf.add(needed) = 0;
        }
    } else if cap > 0 {
        // SAFETY: at least one writable byte.
        unsafe { *buf = 0 };
    }
    needed as i64
}

/// The version of gamedb, e.g. `"0.1.0"` (a static string; never NULL).
#[no_mangle]
pub(crate) extern "C" fn gamedb_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The message of the most recent failure of a gamedb call on this thread (`""` if none).
///
/// The string belongs to gamedb and stays valid until the next gamedb call on this thread;
/// copy it to keep it. Never NULL.
#[no_mangle]
pub(crate) extern "C" fn gamedb_last_error() -> *const c_char {
    // The pointer stays valid after `with` returns: the CString lives in the thread-local
    // and is replaced only by the next failing call on this thread.
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Opens a table file. Returns a handle, or NULL with a message for [`gamedb_last_error`]
/// (a missing file, a damaged or truncated table, a table of an unknown game or format).
///
/// `flags`: 0, or [`GAMEDB_OPEN_NO_VERIFY`] to skip the payload checksum (which reads the
/// whole file; the header and sizes are checked anyway).
///
/// # Safety
/// `path` is NULL or a NUL-terminated string. The file must not be modified in place while
/// the handle is open (gamedb itself only ever replaces tables by renaming new files).
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_open(path: *const c_char, flags: u32) -> *mut Table {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        open_handle(path, "path", flags, |path, verify| {
            let t = Table::open(Path::new(path))?;
            if verify {
                t.verify()?;
            }
            Ok(t)
        })
    }
}

/// The common part of the `gamedb_open*` functions: checks the text argument and the flags,
/// runs `open(text, verify)`, and returns a boxed handle or NULL with the message.
///
/// # Safety
/// `arg` is NULL or a NUL-terminated string.
unsafe fn open_handle<T>(
    arg: *const c_char,
    what: &str,
    flags: u32,
    open: impl FnOnce(&str, bool) -> crate::Result<T>,
) -> *mut T {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded from this function's contract.
        let Ok(text) = (unsafe { text_arg(arg, what) }) else {
            return std::ptr::null_mut();
        };
        if flags & !GAMEDB_OPEN_NO_VERIFY != 0 {
            set_error(&format!(
                "unknown flags {flags:#x}; accepted: 0 or GAMEDB_OPEN_NO_VERIFY (1)"
            ));
            return std::ptr::null_mut();
        }
        match open(text, flags & GAMEDB_OPEN_NO_VERIFY == 0) {
            Ok(t) => Box::into_raw(Box::new(t)),
            Err(e) => {
                // A missing table is told with what to do, as the command line tells it.
                set_error(&crate::cli::catalog::explain(&e));
                std::ptr::null_mut()
            }
        }
    })
}

/// Frees a handle made by [`open_handle`]; NULL is ignored.
///
/// # Safety
/// `handle` is NULL or came from `open_handle` and was not freed; nothing uses it afterwards.
unsafe fn close_handle<T>(handle: *mut T) {
    guard((), || {
        if !handle.is_null() {
            // SAFETY: the handle came from `Box::into_raw` and is freed once, by contract.
            drop(unsafe { Box::from_raw(handle) });
        }
    })
}

/// Closes a table and frees its handle. NULL is accepted and ignored.
///
/// # Safety
/// `table` is NULL or a handle from [`gamedb_open`] not yet closed; no other thread may be
/// using it, and it must not be used afterwards.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_close(table: *mut Table) {
    // SAFETY: forwarded from this function's contract.
    unsafe { close_handle(table) }
}

/// Number of positions (entries) of the table, or a negative error code.
///
/// # Safety
/// `table` is NULL or an open handle.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_positions(table: *const Table) -> i64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { with_table(table, |t| t.len() as i64) }
}

/// Writes the name of the table's game (`"nim"`, `"chomp"`, or `"CRATE/GAME"` for a game of
/// another crate), as its header names it (`snprintf` contract as [`gamedb_position_at`]), or
/// returns a negative error code.
///
/// # Safety
/// `table` is NULL or an open handle; `buf` is NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_game(
    table: *const Table,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { with_table(table, |t| write_out(t.game(), buf, cap)) }
}

/// Writes the table's parameters as its header gives them (`"heaps=3,max-heap=7"`;
/// `snprintf` contract as [`gamedb_position_at`]), or returns a negative error code.
///
/// # Safety
/// `table` is NULL or an open handle; `buf` is NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_parameters(
    table: *const Table,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { with_table(table, |t| write_out(t.parameters(), buf, cap)) }
}

/// What the table's values are: the code of its value kind, as its header stores it
/// ([`crate::format::value_kind_code`]; `GAMEDB_VALUES_*` in `gamedb.h`, see [`gamedb_value`]);
/// or a negative error code.
///
/// # Safety
/// `table` is NULL or an open handle.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_value_kind(table: *const Table) -> i64 {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with_table(table, |t| {
            crate::format::value_kind_code(t.value_kind()) as i64
        })
    }
}

/// The index of a position in the table (`0 <= index < gamedb_positions`), or a negative
/// error code (`GAMEDB_ERR_POSITION` for text that is not a position of this table).
///
/// # Safety
/// `table` is NULL or an open handle; `position` is NULL or a NUL-terminated string.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_rank(table: *const Table, position: *const c_char) -> i64 {
    // SAFETY: forwarded from this function's contract.
    unsafe { with_position(table, position, |t, text| Ok(rank_text(t, text)? as i64)) }
}

/// The outcome of a position for the player to move: 0 = P (loses with best play),
/// 1 = N (wins); or a negative error code. Works on outcome, Grundy and extension tables
/// (`GAMEDB_ERR_KIND` on distance, remoteness, dtz and wlt tables).
///
/// # Safety
/// `table` is NULL or an open handle; `position` is NULL or a NUL-terminated string.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_outcome(
    table: *const Table,
    position: *const c_char,
) -> i64 {
    let outcome = |t: &Table, text: &str| {
        if t.value_kind() == ValueKind::Distance {
            return Err(fail(
                GAMEDB_ERR_KIND,
                "this table holds distances, not outcomes; use gamedb_value",
            ));
        }
        // Every legal entry of such a table is non-zero: read as P/N it would say N always.
        if t.value_kind().is_standing() {
            return Err(fail(
                GAMEDB_ERR_KIND,
                "this table holds win, lose, tie or draw with remoteness, not P or N; expected \
                 gamedb_value for it",
            ));
        }
        if t.value_kind() == ValueKind::Wlt {
            return Err(fail(
                GAMEDB_ERR_KIND,
                "this table holds win, lose or tie-or-draw, not P or N; expected gamedb_value \
                 for it",
            ));
        }
        if let Some(i) = text_entry(t, text) {
            return Ok(match t.outcome(i?) {
                Outcome::P => 0,
                Outcome::N => 1,
            });
        }
        let pos = parse_in_table(t, text)?;
        if t.value_kind() == ValueKind::Extension || t.rules().summands(&pos).is_some() {
            // One entry per prefix: the game reads the outcome from the entries; a sum of
            // entries: the xor of theirs.
            let o = t
                .outcome_of(&pos)
                .map_err(|e| fail(code_of(&e), &e.to_string()))?;
            return Ok(match o {
                Outcome::P => 0,
                Outcome::N => 1,
            });
        }
        Ok(match t.outcome(index_in_table(t, &pos)?) {
            Outcome::P => 0,
            Outcome::N => 1,
        })
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_position(table, position, outcome) }
}

/// The value stored for a position: on outcome tables 0 = P, 1 = N; on Grundy tables the
/// Grundy value; on distance tables the distance (see the game's section of
/// `tables/README.md` for any marker value; a mod3 table answers the exact distance, found by
/// descent); on extension tables (three-rowed Chomp) the entry of the position's prefix; for
/// a game played as a sum of entries (octal games' heaps) the xor of the parts' Grundy values.
/// On win/lose/tie/draw tables the entry as stored: bits 0–2 the value for the player to move
/// (1 lose, 2 win, 3 tie, 4 draw), bit 3 reachable from the start, bits 4 and up the
/// remoteness. On dtz tables the same with the distance to zeroing in place of the
/// remoteness. On wlt tables the two-bit code: 1 lose, 2 win, 3 tie or draw for the player to
/// move. Negative: an error code.
///
/// # Safety
/// `table` is NULL or an open handle; `position` is NULL or a NUL-terminated string.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_value(table: *const Table, position: *const c_char) -> i64 {
    let value = |t: &Table, text: &str| {
        if let Some(i) = text_entry(t, text) {
            return value_of(t, i?);
        }
        let pos = parse_in_table(t, text)?;
        // A sum of entries (a game played as a sum): the xor of theirs.
        match t.sum_grundy(&pos) {
            Ok(Some(g)) => Ok(i64::from(g)),
            Ok(None) => value_of(t, index_in_table(t, &pos)?),
            Err(e) => Err(fail(code_of(&e), &e.to_string())),
        }
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_position(table, position, value) }
}

/// The value stored at an index (as [`gamedb_value`]), or `GAMEDB_ERR_INDEX` when
/// `index >= gamedb_positions(table)`.
///
/// # Safety
/// `table` is NULL or an open handle.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_value_at(table: *const Table, index: u64) -> i64 {
    let value = |t: &Table| match check_index(t, index).and_then(|()| value_of(t, index)) {
        Ok(v) | Err(v) => v,
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_table(table, value) }
}

/// The value at an index as [`gamedb_value`] gives it; a mod3 table that contradicts itself
/// fails as [`gamedb_query_json`] does, with `GAMEDB_ERR_POSITION` and the message naming the
/// damaged table.
fn value_of(t: &Table, index: u64) -> Result<i64, i64> {
    t.value(index)
        .map(i64::from)
        .map_err(|e| fail(code_of(&e), &e.to_string()))
}

/// Writes the position at an index as text (`snprintf` contract: returns the text's length;
/// writes it with its NUL only if `cap` is larger; `buf` may be NULL when `cap` is 0), or
/// returns a negative error code.
///
/// # Safety
/// `table` is NULL or an open handle; `buf` is NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_position_at(
    table: *const Table,
    index: u64,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    let write = |t: &Table| {
        if let Err(code) = check_index(t, index) {
            return code;
        }
        if let Some(e) = t.not_known() {
            return fail(GAMEDB_ERR_GAME, &e.to_string());
        }
        let text = t.rules().format(&t.rules().unrank(index));
        // SAFETY: forwarded from this function's contract.
        unsafe { write_out(&text, buf, cap) }
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_table(table, write) }
}

/// Writes the answer to a position as one JSON object, exactly the line
/// `gamedb query TABLE POSITION --json` prints (keys `position`, `outcome`, `grundy` when
/// stored, `winning_moves`: a list of `{"move", "leaves"}`, the first 8, and
/// `more_winning_moves` when some were left out). `snprintf` contract as
/// [`gamedb_position_at`]; negative: an error code.
///
/// # Safety
/// `table` is NULL or an open handle; `position` is NULL or a NUL-terminated string; `buf`
/// is NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_query_json(
    table: *const Table,
    position: *const c_char,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    let write = |t: &Table, text: &str| match t.query(text) {
        // SAFETY: forwarded from this function's contract.
        Ok(answer) => Ok(unsafe { write_out(&answer.to_json(), buf, cap) }),
        Err(e) => Err(fail(code_of(&e), &e.to_string())),
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_position(table, position, write) }
}

/// Writes every legal move of a position as a JSON array, in the order the game lists them:
/// `[{"move": label, "leaves": position, "outcome": "P"|"N", "grundy": g}, ...]` where
/// `outcome` and `grundy` (Grundy tables) or `distance` (distance tables, instead of
/// `outcome`) are the stored values of the position the move leaves. `snprintf` contract as
/// [`gamedb_position_at`]; negative: an error code.
///
/// # Safety
/// `table` is NULL or an open handle; `position` is NULL or a NUL-terminated string; `buf`
/// is NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_moves_json(
    table: *const Table,
    position: *const c_char,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    let write = |t: &Table, text: &str| {
        let pos = parse_in_table(t, text)?;
        if t.value_kind() == ValueKind::Extension {
            // A first row may have billions of bites; the winning ones come from a query.
            return Err(fail(
                GAMEDB_ERR_KIND,
                "this table holds one extension value per prefix, not a value per move's position; use gamedb_query_json for the winning moves",
            ));
        }
        let json = moves_text(t, &pos)?;
        // SAFETY: forwarded from this function's contract.
        Ok(unsafe { write_out(&json, buf, cap) })
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { with_position(table, position, write) }
}

/// The JSON array [`gamedb_moves_json`] writes, or the error code of a value that cannot be
/// read (see [`value_of`]).
fn moves_text(t: &Table, pos: &[u32]) -> Result<String, i64> {
    let kind = t.value_kind();
    let mut moves = Vec::new();
    for m in t.rules().moves(pos) {
        let mut o = serde_json::Map::new();
        o.insert("move".into(), m.label.into());
        o.insert("leaves".into(), t.rules().format(&m.leaves).into());
        // A game played as a sum of entries: the move leaves a sum, its value the xor.
        if let Some(g) = t
            .sum_grundy(&m.leaves)
            .map_err(|e| fail(code_of(&e), &e.to_string()))?
        {
            o.insert("outcome".into(), Outcome::from_win(g != 0).as_str().into());
            o.insert(kind.name().into(), g.into());
            moves.push(serde_json::Value::Object(o));
            continue;
        }
        let i = t.rules().rank(&m.leaves);
        if kind != ValueKind::Distance {
            o.insert("outcome".into(), t.outcome(i).as_str().into());
        }
        if kind != ValueKind::Outcome {
            o.insert(kind.name().into(), value_of(t, i)?.into());
        }
        moves.push(serde_json::Value::Object(o));
    }
    Ok(serde_json::to_string(&moves).unwrap_or_default())
}

/// Flag of [`gamedb_board_query_json`]: include a whole optimal solution (`path`).
pub(crate) const GAMEDB_QUERY_PATH: u32 = 1;

/// The positions of one sliding-puzzle board answered from a folder of tables: by the board's
/// complete table when the folder holds one, else by the pattern-database solver (the 4×4
/// board). An opaque handle from [`gamedb_open_board`], freed by [`gamedb_close_board`].
pub(crate) struct Board(BoardQuery);

/// Opens the tables of the `rows × cols` board in the folder `dir`. Returns a handle, or NULL
/// with a message for [`gamedb_last_error`]. `flags`: 0, or [`GAMEDB_OPEN_NO_VERIFY`]. The
/// pattern tables are opened when the first position that needs them is asked.
///
/// # Safety
/// `dir` is NULL or a NUL-terminated string.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_open_board(
    dir: *const c_char,
    rows: u32,
    cols: u32,
    flags: u32,
) -> *mut Board {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        open_handle(dir, "dir", flags, |dir, verify| {
            let options = Options {
                verify,
                ..Options::default()
            };
            BoardQuery::open(rows, cols, Arc::new(TableDir::new(dir)), options).map(Board)
        })
    }
}

/// Closes a board handle. NULL is accepted and ignored.
///
/// # Safety
/// `board` is NULL or a handle from [`gamedb_open_board`] not yet closed; no other thread may
/// be using it, and it must not be used afterwards.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_close_board(board: *mut Board) {
    // SAFETY: forwarded from this function's contract.
    unsafe { close_handle(board) }
}

/// Writes the answer to a position of the board as one JSON object, exactly the line
/// `gamedb query --rows R --cols C --tables DIR POSITION --json` prints (with
/// [`GAMEDB_QUERY_PATH`] in `flags`: `--path` too): `position`, `solvable`, `distance`,
/// `reason` when unsolvable, `optimal_moves`, `more_optimal_moves` when some were left out,
/// `path`, and `nodes` for the solver's answers.
/// `snprintf` contract as [`gamedb_position_at`]; negative: an error code
/// (`GAMEDB_ERR_POSITION` for text that is not an arrangement of the board, `GAMEDB_ERR_KIND`
/// when the folder has no tables to answer it).
///
/// # Safety
/// `board` is NULL or an open handle; `position` is NULL or a NUL-terminated string; `buf` is
/// NULL or points to `cap` writable bytes.
#[no_mangle]
pub(crate) unsafe extern "C" fn gamedb_board_query_json(
    board: *const Board,
    position: *const c_char,
    flags: u32,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    guard(GAMEDB_ERR_INTERNAL, || {
        // SAFETY: a non-NULL handle came from `Box::into_raw` in `gamedb_open_board` and has
        // not been freed (this function's contract); it is only read.
        let Some(b) = (unsafe { board.as_ref() }) else {
            return fail(GAMEDB_ERR_NULL, "board handle is NULL");
        };
        // SAFETY: forwarded from this function's contract.
        let text = match unsafe { text_arg(position, "position") } {
            Ok(t) => t,
            Err(code) => return code,
        };
        if flags & !GAMEDB_QUERY_PATH != 0 {
            return fail(
                GAMEDB_ERR_POSITION,
                &format!("unknown flags {flags:#x}; accepted: 0 or GAMEDB_QUERY_PATH (1)"),
            );
        }
        match b.0.query(text, flags & GAMEDB_QUERY_PATH != 0) {
            // SAFETY: forwarded from this function's contract.
            Ok(answer) => unsafe { write_out(&answer.to_json(), buf, cap) },
            Err(e @ crate::Error::BadInput(_)) => fail(GAMEDB_ERR_POSITION, &e.to_string()),
            Err(e @ crate::Error::Internal(_)) => fail(GAMEDB_ERR_INTERNAL, &e.to_string()),
            Err(e) => fail(GAMEDB_ERR_KIND, &e.to_string()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last_error() -> String {
        // SAFETY: gamedb_last_error never returns NULL and its string is NUL-terminated.
        unsafe { CStr::from_ptr(gamedb_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    /// The error codes and flags are those of `src/gamedb.h`, each written as the header
    /// writes it (`tests/c_abi.rs` holds the header's functions to the library's exported
    /// symbols and its other constants to the format's codes).
    #[test]
    fn the_header_defines_the_codes_and_flags() {
        let header = include_str!("gamedb.h");
        for (name, value) in [
            ("GAMEDB_ERR_NULL", format!("({GAMEDB_ERR_NULL})")),
            ("GAMEDB_ERR_POSITION", format!("({GAMEDB_ERR_POSITION})")),
            ("GAMEDB_ERR_INDEX", format!("({GAMEDB_ERR_INDEX})")),
            ("GAMEDB_ERR_KIND", format!("({GAMEDB_ERR_KIND})")),
            ("GAMEDB_ERR_INTERNAL", format!("({GAMEDB_ERR_INTERNAL})")),
            ("GAMEDB_ERR_GAME", format!("({GAMEDB_ERR_GAME})")),
            ("GAMEDB_OPEN_NO_VERIFY", format!("{GAMEDB_OPEN_NO_VERIFY}u")),
            ("GAMEDB_QUERY_PATH", format!("{GAMEDB_QUERY_PATH}u")),
        ] {
            let define = format!("#define {name} {value}");
            // The value ends the line, or a comment follows it.
            let found = header
                .lines()
                .any(|l| l == define || l.starts_with(&format!("{define} ")));
            assert!(found, "{name} is not {value} in the header");
        }
    }

    #[test]
    fn handles_may_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Table>();
    }

    #[test]
    fn a_panic_becomes_an_error_code_and_message() {
        let code = guard(GAMEDB_ERR_INTERNAL, || -> i64 { panic!("boom {}", 42) });
        assert_eq!(code, GAMEDB_ERR_INTERNAL);
        assert_eq!(
            last_error(),
            "internal error in gamedb (please report): boom 42"
        );
    }

    #[test]
    fn buffers_follow_snprintf() {
        let mut buf = [b'x' as c_char; 8];
        // SAFETY: `buf` has 8 writable bytes; NULL with capacity 0 is allowed.
        unsafe {
            assert_eq!(write_out("hello", std::ptr::null_mut(), 0), 5);
            assert_eq!(write_out("hello", std::ptr::null_mut(), 3), GAMEDB_ERR_NULL);
            assert_eq!(write_out("hello", buf.as_mut_ptr(), 5), 5);
            assert_eq!(buf[0], 0, "too small: only the NUL is written");
            assert_eq!(buf[1], b'x' as c_char);
            assert_eq!(write_out("hello", buf.as_mut_ptr(), 6), 5);
            assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "hello");
        }
    }

    #[test]
    fn three_rowed_chomp_tables_answer_from_their_prefixes() {
        use crate::games::chomp3::Chomp3Spec;
        use crate::games::Spec;
        let spec = Spec::new(Chomp3Spec::new(30).unwrap());
        let solved = spec.solve(ValueKind::Extension, &()).unwrap();
        let table = Table::from_solved(&spec, solved).unwrap();
        let t: *const Table = &table;
        let mut buf = [0 as c_char; 4096];
        // SAFETY: `t` points to a live table; the strings are NUL-terminated literals; `buf`
        // has 4096 writable bytes.
        unsafe {
            assert_eq!(gamedb_value_kind(t), 4);
            assert_eq!(gamedb_outcome(t, c"7,4,3".as_ptr()), 0);
            assert_eq!(gamedb_outcome(t, c"8,4,3".as_ptr()), 1);
            assert_eq!(gamedb_outcome(t, c"4000000000,4,3".as_ptr()), 1);
            assert_eq!(gamedb_outcome(t, c"40,31".as_ptr()), GAMEDB_ERR_POSITION);
            assert!(last_error().contains("second rows up to 30"));
            // The entry of the prefix (4, 3): f(4, 3) − 4 + 1 = 4.
            assert_eq!(gamedb_value(t, c"9,4,3".as_ptr()), 4);
            let n = gamedb_moves_json(t, c"9,4,3".as_ptr(), buf.as_mut_ptr(), buf.len());
            assert_eq!(n, GAMEDB_ERR_KIND);
            let n = gamedb_query_json(t, c"9,4,3".as_ptr(), buf.as_mut_ptr(), buf.len());
            assert!(n > 0);
            let answer = CStr::from_ptr(buf.as_ptr()).to_str().unwrap();
            assert_eq!(
                answer,
                r#"{"position":"9,4,3","outcome":"N","winning_moves":[{"move":"(1,8)","leaves":"7,4,3"}]}"#
            );
        }
    }

    #[test]
    fn sliding_puzzle_positions_outside_the_table_are_refused() {
        use crate::games::slide::SlideSpec;
        use crate::games::Spec;
        let spec = Spec::new(SlideSpec::new(3, 3).unwrap());
        let solved = spec.solve(ValueKind::Distance, &()).unwrap();
        let table = Table::from_solved(&spec, solved).unwrap();
        let t: *const Table = &table;
        let mut buf = [0 as c_char; 4096];
        // SAFETY: `t` points to a live table; the strings are NUL-terminated literals; `buf`
        // has 4096 writable bytes.
        unsafe {
            assert_eq!(gamedb_value(t, c"8,6,7,2,5,4,3,0,1".as_ptr()), 31);
            assert_eq!(gamedb_rank(t, c"8,6,7,2,5,4,3,0,1".as_ptr()), 177_874);
            assert_eq!(
                gamedb_outcome(t, c"1,2,3,4,5,6,7,8,0".as_ptr()),
                GAMEDB_ERR_KIND
            );
            let unsolvable = c"1,2,3,4,5,6,8,7,0";
            assert_eq!(gamedb_value(t, unsolvable.as_ptr()), GAMEDB_ERR_POSITION);
            let e = last_error();
            assert!(
                e.contains("not in this table") && e.contains("1 inversion"),
                "{e}"
            );
            let n = gamedb_moves_json(t, unsolvable.as_ptr(), buf.as_mut_ptr(), buf.len());
            assert_eq!(n, GAMEDB_ERR_POSITION);
            let n = gamedb_moves_json(
                t,
                c"1,2,3,4,5,0,7,8,6".as_ptr(),
                buf.as_mut_ptr(),
                buf.len(),
            );
            assert!(n > 0);
            let moves = CStr::from_ptr(buf.as_ptr()).to_str().unwrap();
            assert!(
                moves
                    .contains(r#"{"move":"slide 6 up","leaves":"1,2,3,4,5,6,7,8,0","distance":0}"#),
                "{moves}"
            );
            // The query answers unsolvable positions with the reason, as the CLI does.
            let n = gamedb_query_json(t, unsolvable.as_ptr(), buf.as_mut_ptr(), buf.len());
            assert!(n > 0);
            let answer = CStr::from_ptr(buf.as_ptr()).to_str().unwrap();
            assert!(
                answer.contains(r#""solvable":false,"distance":null"#),
                "{answer}"
            );
        }
    }

    #[test]
    fn null_and_bad_arguments() {
        // SAFETY: NULL handles and strings are part of the contract; the strings below are
        // NUL-terminated literals.
        unsafe {
            assert_eq!(gamedb_positions(std::ptr::null()), GAMEDB_ERR_NULL);
            assert_eq!(last_error(), "table handle is NULL");
            assert!(gamedb_open(std::ptr::null(), 0).is_null());
            assert_eq!(last_error(), "path is NULL");
            let missing = c"/nonexistent/gamedb/table.gtab";
            assert!(gamedb_open(missing.as_ptr(), 0).is_null());
            assert!(last_error().starts_with("/nonexistent/gamedb/table.gtab:"));
            gamedb_close(std::ptr::null_mut());
        }
    }
}
