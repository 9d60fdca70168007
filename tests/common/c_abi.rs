//! The C ABI of `src/gamedb.h` as a C program sees it: the functions the library exports,
//! declared here as the header declares them and linked by their symbols (the Rust module
//! that defines them, `ffi`, is private to the crate), and the header's constants read from
//! the header itself.

use std::ffi::c_char;

use gamedb::Table;

// The functions the tests call, each with the header's signature (a `gamedb_table *` is an
// opaque handle: a pointer to the library's `Table`).
#[allow(improper_ctypes)] // only pointers to the handle cross: C never sees a `Table`
extern "C" {
    pub fn gamedb_open(path: *const c_char, flags: u32) -> *mut Table;
    pub fn gamedb_close(table: *mut Table);
    pub fn gamedb_game(table: *const Table, buf: *mut c_char, cap: usize) -> i64;
    pub fn gamedb_value_kind(table: *const Table) -> i64;
    pub fn gamedb_outcome(table: *const Table, position: *const c_char) -> i64;
    pub fn gamedb_value(table: *const Table, position: *const c_char) -> i64;
    pub fn gamedb_query_json(
        table: *const Table,
        position: *const c_char,
        buf: *mut c_char,
        cap: usize,
    ) -> i64;
}

/// The value of `#define NAME VALUE` in `src/gamedb.h` (`(-4)` and `1u` read as numbers).
pub fn define(name: &str) -> i64 {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/gamedb.h"))
        .expect("src/gamedb.h");
    let prefix = format!("#define {name} ");
    let line = header
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("src/gamedb.h defines no {name}"));
    let value = line.split_whitespace().next().unwrap();
    let value = value
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim_end_matches('u');
    value
        .parse()
        .unwrap_or_else(|e| panic!("{name} is {value} in src/gamedb.h: {e}"))
}
