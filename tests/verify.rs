//! `gamedb verify`: the candy and Nim statements pass, and the catalog
//! `src/verify/STATEMENTS.md` is what `gamedb verify --list --markdown` prints. (A false
//! statement's counterexample and the statements' costs are checked beside them, in
//! `src/verify/mod.rs`; each game's own statements are run by its test file; the whole run is
//! `scripts/`' business.)

mod common;

use common::*;

/// The statement names `gamedb verify --list` prints: the first word of each unindented line
/// (the indented line under it is the statement's source), up to the blank line before the
/// plan's line.
fn listed_names(list: &str) -> Vec<&str> {
    entries(list)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// The statements' part of `gamedb verify --list`, before the blank line and the plan.
fn entries(list: &str) -> &str {
    list.split_once("\n\n").map_or(list, |(e, _)| e)
}

#[test]
fn verify_passes_every_candy_and_nim_statement() {
    // Every candy and Nim statement, by name (other games' statements have their own tests).
    let list = gamedb_ok(&["verify", "--list"]);
    let names: Vec<&str> = listed_names(&list)
        .into_iter()
        .filter(|n| n.starts_with("candy-") || n.starts_with("nim-"))
        .collect();
    assert!(names.len() >= 12, "{names:?}");
    let mut args = vec!["verify", "--json", "-q", "--tables", "/nonexistent"];
    args.extend(&names);
    let o = gamedb(&args);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let summary = json(&stdout(&o));
    assert_eq!(summary["failed"], 0, "{summary}");
    assert_eq!(summary["passed"], names.len(), "{summary}");
    let reports = summary["statements"].as_array().unwrap();
    let report = |name: &str| {
        reports
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing: {summary}"))
    };
    for name in [
        "candy-lemma-1.1",
        "candy-theorem-1.2",
        "nim-bouton",
        "nim-bounded-misere",
        "nim-seed-002-xor",
    ] {
        assert_eq!(report(name)["status"], "PASS", "{summary}");
        assert!(report(name)["counterexample"].is_null(), "{summary}");
    }
    // The Little Match Girl story's check covers exactly 16² + 16³ positions.
    assert_eq!(report("nim-seed-002-xor")["checked"], 4352, "{summary}");
}

#[test]
fn progress_prints_one_line_per_statement_on_stderr() {
    let names = ["candy-periods", "nim-bouton", "nim-seed-002-xor"];
    let mut args = vec!["verify", "-q", "--tables", "/nonexistent"];
    args.extend(names);
    // stderr is no terminal here: without --progress, no lines.
    let plain = gamedb(&args);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(!stderr(&plain).contains("PASS"), "{}", stderr(&plain));
    args.push("--progress");
    let o = gamedb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    // The report on stdout is the same with or without the progress lines.
    assert_eq!(stdout(&o), stdout(&plain));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), names.len(), "{e}");
    for (i, (line, name)) in lines.iter().zip(names).enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 5, "{line}");
        assert_eq!(words[0], format!("[{}/{}]", i + 1, names.len()), "{line}");
        assert_eq!(words[1], "PASS", "{line}");
        assert_eq!(words[2], name, "{line}");
        assert!(words[3].parse::<f64>().is_ok_and(|s| s >= 0.0), "{line}");
        assert_eq!(words[4], "s", "{line}");
    }
    // With --json the lines still go to stderr, the JSON document alone to stdout.
    args.push("--json");
    let o = gamedb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&stdout(&o))["passed"], names.len());
    assert_eq!(stderr(&o).lines().count(), names.len(), "{}", stderr(&o));
}

#[test]
fn the_list_gives_every_statement_a_cost() {
    // Each statement's own cost is checked beside the statements (src/verify/mod.rs); here,
    // the list prints one for each.
    let list = gamedb_ok(&["verify", "--list"]);
    let names = listed_names(&list);
    assert!(names.len() >= 12, "{list}");
    for line in entries(&list).lines().filter(|l| !l.starts_with(' ')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (cost, unit) = (words[1], words[2]);
        assert!(
            (cost.starts_with('~') || cost == "<0.1") && (unit == "s" || unit == "min"),
            "{line}"
        );
    }
}

#[test]
fn the_statements_file_is_the_generated_catalog() {
    let path = std::path::Path::new(ROOT).join("src/verify/STATEMENTS.md");
    let file = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; generate it with `target/release/gamedb verify --list --markdown > \
             src/verify/STATEMENTS.md`",
            path.display()
        )
    });
    let generated = gamedb_ok(&["verify", "--list", "--markdown"]);
    assert!(
        file == generated,
        "src/verify/STATEMENTS.md differs from `gamedb verify --list --markdown`; regenerate \
         it with `target/release/gamedb verify --list --markdown > src/verify/STATEMENTS.md`"
    );
    // Every statement is in it, each with its source; every source cites a work the
    // references list, never a file readers cannot see.
    let list = gamedb_ok(&["verify", "--list"]);
    for name in listed_names(&list) {
        assert!(
            file.contains(&format!("| `{name}` |")),
            "{name} is not in the catalog"
        );
    }
    for stale in ["THEOREMS.md", "seed 00"] {
        assert!(!file.contains(stale), "the catalog cites {stale:?}");
    }
}

/// The heavy statements (a minute or more each) are counted on the list's last line, which
/// README and the verify guide state (tests/docs.rs holds them to it); a plain run leaves them
/// out (the choice is tested in src/cli/verify.rs), `--all` with names is refused.
#[test]
fn the_list_ends_with_the_plan_of_a_plain_run() {
    let list = gamedb_ok(&["verify", "--list"]);
    let names = listed_names(&list);
    let plan = list.lines().last().unwrap();
    let heavy: Vec<&str> = entries(&list)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let secs = w[1].trim_start_matches(['~', '<']).parse::<f64>().unwrap();
            w[2] == "min" || (w[2] == "s" && secs >= 60.0)
        })
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    for heavy_one in [
        "connect4-thirty-cells",
        "chess-longest-mates-conrady",
        "slide-half",
    ] {
        assert!(heavy.contains(&heavy_one), "{heavy:?}");
    }
    let want = format!(
        "{} statements: `gamedb verify` runs the {} light ones (under 60 s each, ",
        names.len(),
        names.len() - heavy.len()
    );
    assert!(plan.starts_with(&want), "{plan}");
    assert!(
        plan.contains(&format!(
            "`gamedb verify --all` also the {} heavy ones (60 s or more each, ",
            heavy.len()
        )),
        "{plan}"
    );
    refused(
        "--all with names",
        &["verify", "--all", "nim-bouton"],
        &["--all", "cannot be used with"],
    );
}
