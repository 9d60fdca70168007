//! Every registered game, with nothing written for it here: a table of each sample of each game
//! (through the registry) answers the same positions alike through the library, the command
//! line, the C ABI (its functions called in process) and the service. A game added to the
//! registry is covered by this test without a line of its own.

mod common;

use std::ffi::{CStr, CString};

use common::c_abi as ffi;
use common::http::{encode, Server, TempDir};
use common::{gamedb_stdin, json_lines, stdout, Rng};
use gamedb::Table;

/// A position's answer as `gamedb_query_json` writes it.
fn c_answer(table: *const gamedb::Table, position: &str) -> String {
    let text = CString::new(position).unwrap();
    // SAFETY: `table` is an open handle; the buffers are as large as passed.
    unsafe {
        let len = ffi::gamedb_query_json(table, text.as_ptr(), std::ptr::null_mut(), 0);
        assert!(len >= 0, "C: {position}: {len}");
        let mut buf = vec![0u8; len as usize + 1];
        ffi::gamedb_query_json(table, text.as_ptr(), buf.as_mut_ptr().cast(), buf.len());
        CStr::from_bytes_until_nul(&buf)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    }
}

/// The game name `gamedb_game` writes.
fn c_game(table: *const gamedb::Table) -> String {
    let mut buf = [0u8; 80];
    // SAFETY: `table` is an open handle; `buf` holds 80 bytes.
    let len = unsafe { ffi::gamedb_game(table, buf.as_mut_ptr().cast(), buf.len()) };
    assert!(len > 0);
    String::from_utf8(buf[..len as usize].to_vec()).unwrap()
}

#[test]
fn every_registered_game_answers_alike_everywhere() {
    let dir = TempDir::new("every-game");
    let names = gamedb::build::write_samples(dir.path(), 20_000).unwrap();
    let games: std::collections::BTreeSet<String> = names
        .iter()
        .map(|n| Table::open(dir.path().join(n)).unwrap().game().to_string())
        .collect();
    let registered: std::collections::BTreeSet<String> = gamedb::registry()
        .names()
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(games, registered, "a table of every registered game");

    let server = Server::start(dir.path(), &[]);
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for name in &names {
        let path = dir.path().join(name);
        let table = Table::open(&path).unwrap();
        let rules = table.rules();
        // Entries at random indices that hold an answer (a board no play makes holds none),
        // asked by index (`#I`) and, where the representative position there is one a query
        // accepts as written, by that position too.
        let mut positions = Vec::new();
        let mut tries = 0;
        while positions
            .iter()
            .filter(|p: &&String| p.starts_with('#'))
            .count()
            < 8
        {
            tries += 1;
            assert!(tries < 10_000, "{name}: no answerable index found");
            let i = rng.below(table.len());
            if table.query_index(i, false).is_err() {
                continue;
            }
            positions.push(format!("#{i}"));
            let text = rules.format(&rules.unrank(i));
            if table.value_kind() != gamedb::ValueKind::Extension && rules.parse(&text).is_ok() {
                positions.push(text);
            }
        }
        let library: Vec<String> = positions
            .iter()
            .map(|p| table.query(p).unwrap().to_json())
            .collect();

        // The command line, as a stream.
        let input = positions.join("\n") + "\n";
        let out = gamedb_stdin(
            &["query", "--json", path.to_str().unwrap(), "-"],
            input.as_bytes(),
        );
        assert!(out.status.success(), "{name}: {}", stdout(&out));
        let cli: Vec<String> = json_lines(&stdout(&out))
            .iter()
            .map(|v| v.to_string())
            .collect();
        let library_values: Vec<String> = library
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l)
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(cli, library_values, "{name}: CLI");

        // The C ABI.
        let c_path = CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path; the handle is closed below.
        let handle = unsafe { ffi::gamedb_open(c_path.as_ptr(), 0) };
        assert!(!handle.is_null(), "{name}: C open");
        assert_eq!(c_game(handle), table.game(), "{name}");
        for (p, expected) in positions.iter().zip(&library) {
            assert_eq!(&c_answer(handle, p), expected, "{name} {p}: C");
        }
        // SAFETY: the handle from gamedb_open, closed once.
        unsafe { ffi::gamedb_close(handle) };

        // The service.
        for (p, expected) in positions.iter().zip(&library) {
            let r = server.get(&format!("/api/tables/{name}/query?position={}", encode(p)));
            assert_eq!(r.status, 200, "{name} {p}: {}", r.text());
            assert_eq!(r.text().trim_end(), expected, "{name} {p}: HTTP");
        }
    }
}
