//! `gamedb verify`: the candy and Nim statements pass, a false statement is reported with its
//! smallest counterexample, and the catalog `src/verify/STATEMENTS.md` is what
//! `gamedb verify --list --markdown` prints. (Each game's own statements are run by its test
//! file; the whole run is `scripts/`' business.)

mod common;

use common::*;
use gamedb::games::nim::NimSpec;
use gamedb::verify::{catalog_markdown, statements, Finding};
use gamedb::{Outcome, Spec, ValueKind};

#[test]
fn verify_passes_every_candy_and_nim_statement() {
    // Every candy and Nim statement, by name (other games' statements have their own tests).
    let names: Vec<&str> = statements()
        .iter()
        .map(|s| s.name)
        .filter(|n| n.starts_with("candy-") || n.starts_with("nim-"))
        .collect();
    assert!(names.len() >= 12, "{names:?}");
    // The list printed by the CLI names them too.
    let list = gamedb_ok(&["verify", "--list"]);
    let listed: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for n in &names {
        assert!(listed.contains(n), "{n} not in `verify --list`:\n{list}");
    }
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
    let list = gamedb_ok(&["verify", "--list"]);
    let mut seen = 0;
    for s in statements() {
        let line = list
            .lines()
            .find(|l| l.split_whitespace().next() == Some(s.name))
            .unwrap_or_else(|| panic!("{} not listed:\n{list}", s.name));
        let words: Vec<&str> = line.split_whitespace().collect();
        let (cost, unit) = (words[1], words[2]);
        assert!(
            (cost.starts_with('~') || cost == "<0.1") && (unit == "s" || unit == "min"),
            "{line}"
        );
        assert!(s.cost().is_some_and(|c| c > 0.0), "{}", s.name);
        seen += 1;
    }
    assert_eq!(seen, statements().len());
    // Every measured cost belongs to a statement.
    for (name, _) in gamedb::verify::COSTS {
        assert!(statements().iter().any(|s| s.name == *name), "{name}");
    }
    // The costs are in seconds: the cheap candy checks below a second, the Chomp Grundy
    // squares (boxes to 14x14) above ten.
    let cost = |n: &str| {
        statements()
            .iter()
            .find(|s| s.name == n)
            .unwrap()
            .cost()
            .unwrap()
    };
    assert!(cost("candy-periods") < 1.0);
    assert!(cost("chomp-grundy-squares") > 10.0);
    assert!(cost("candy-periods") < cost("chomp-grundy-squares"));
}

#[test]
fn verify_reports_a_false_statement_with_its_smallest_counterexample() {
    // Feed the misère rule a normal-play table through the public Finding: the empty position
    // is the smallest counterexample (P under normal play, N by the misère rule).
    let spec = Spec::new(NimSpec::new(3, 7, None, false).unwrap());
    let t = table(&spec, ValueKind::Outcome);
    let rules = t.rules();
    let mut f = Finding::default();
    for i in 0..t.len() {
        let h = rules.unrank(i);
        let ones = h.iter().filter(|&&x| x == 1).count();
        let misere_p = if h.iter().all(|&x| x <= 1) {
            ones % 2 == 1
        } else {
            h.iter().fold(0, |a, &b| a ^ b) == 0
        };
        f.case(t.outcome(i) == Outcome::from_win(!misere_p), || {
            rules.format(&h)
        });
    }
    assert!(!f.passed());
    assert_eq!(f.checked, t.len());
    assert_eq!(f.counterexample.as_deref(), Some("0,0,0"));
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
    let generated = catalog_markdown();
    assert!(
        file == generated,
        "src/verify/STATEMENTS.md differs from gamedb::verify::catalog_markdown(); regenerate \
         it with `target/release/gamedb verify --list --markdown > src/verify/STATEMENTS.md`"
    );
    assert_eq!(gamedb_ok(&["verify", "--list", "--markdown"]), generated);
    // Every statement is in it, each with its source; every source cites a work the
    // references list, never a file readers cannot see.
    for s in statements() {
        assert!(
            file.contains(&format!("| `{}` |", s.name)),
            "{} is not in the catalog",
            s.name
        );
    }
    for stale in ["THEOREMS.md", "seed 00"] {
        assert!(!file.contains(stale), "the catalog cites {stale:?}");
    }
}
