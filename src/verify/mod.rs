//! `gamedb verify`: the statements of `THEOREMS.md`, each checked against every position of
//! the tables it needs (reused from the tables folder when present and intact, else solved in
//! memory). A failing statement is a finding: it is reported with its smallest counterexample
//! and never tuned to pass.

use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use indicatif::ProgressBar;

use crate::format::ValueKind;
use crate::games::Spec;
use crate::lookup::Table;
use crate::{json, Result};

mod candy;
mod chomp;
mod nim;
mod slide;

/// One checkable statement.
pub struct Statement {
    /// Short unique name, used on the command line.
    pub name: &'static str,
    /// Where it comes from (section, seed, paper).
    pub source: &'static str,
    /// The statement in one line.
    pub claim: &'static str,
    /// Runs the check.
    pub run: fn(&mut Env) -> Result<Finding>,
}

/// What a check found.
#[derive(Clone, Debug, Default)]
pub struct Finding {
    /// Positions (or cases) checked.
    pub checked: u64,
    /// The smallest counterexample, when the statement fails.
    pub counterexample: Option<String>,
    /// Measured facts reported beside the verdict.
    pub note: Option<String>,
}

impl Finding {
    /// Records a case; keeps the first failure (cases are visited smallest first).
    pub fn case(&mut self, ok: bool, describe: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok && self.counterexample.is_none() {
            self.counterexample = Some(describe());
        }
    }

    /// True when no counterexample was found.
    pub fn passed(&self) -> bool {
        self.counterexample.is_none()
    }
}

/// Tables shared by the checks of one run.
pub struct Env {
    tables_dir: Option<PathBuf>,
    cache: HashMap<String, Arc<Table>>,
    memo: HashMap<String, Arc<dyn Any + Send + Sync>>,
    used: Vec<String>,
    progress: ProgressBar,
}

impl Env {
    /// Reuses intact tables from `tables_dir` when given; solves the others in memory.
    pub fn new(tables_dir: Option<PathBuf>, progress: ProgressBar) -> Env {
        Env {
            tables_dir,
            cache: HashMap::new(),
            memo: HashMap::new(),
            used: Vec::new(),
            progress,
        }
    }

    /// The table of `spec` holding `kind` values.
    pub fn table(&mut self, spec: &Spec, kind: ValueKind) -> Result<Arc<Table>> {
        let name = spec.file_name(kind);
        if let Some(t) = self.cache.get(&name) {
            self.used.push(format!("{name} (again)"));
            return Ok(t.clone());
        }
        let reused = self.tables_dir.as_ref().and_then(|dir| {
            let path = dir.join(&name);
            let t = Table::open(&path).ok()?;
            t.verify().ok()?;
            Some(t)
        });
        let (table, how) = match reused {
            Some(t) => (t, "reused"),
            None => {
                self.progress.set_length(spec.positions());
                self.progress.set_position(0);
                self.progress.set_message(name.clone());
                let payload = spec.solve(kind, &self.progress)?;
                (Table::from_payload(spec, payload)?, "solved")
            }
        };
        self.used.push(format!("{name} ({how})"));
        let table = Arc::new(table);
        self.cache.insert(name, table.clone());
        Ok(table)
    }

    /// A result computed once per run and shared by every check that asks for it under the
    /// same `key` (an exhaustive search several statements read, say). `make` gets the progress
    /// bar. The report names it among the tables used, as `key (computed)` or `key (again)`.
    pub fn memo<T: Any + Send + Sync>(
        &mut self,
        key: &str,
        make: impl FnOnce(&ProgressBar) -> Result<T>,
    ) -> Result<Arc<T>> {
        if let Some(v) = self.memo.get(key) {
            if let Ok(v) = v.clone().downcast::<T>() {
                let line = format!("{key} (again)");
                if !self.used.contains(&line) && !self.used.contains(&format!("{key} (computed)")) {
                    self.used.push(line);
                }
                return Ok(v);
            }
        }
        self.progress.set_position(0);
        self.progress.set_message(key.to_string());
        let v = Arc::new(make(&self.progress)?);
        self.memo.insert(key.to_string(), v.clone());
        self.used.push(format!("{key} (computed)"));
        Ok(v)
    }

    fn take_used(&mut self) -> Vec<String> {
        std::mem::take(&mut self.used)
    }
}

/// Every statement, in the order of `THEOREMS.md`.
pub fn statements() -> Vec<Statement> {
    let mut all = Vec::new();
    all.extend(candy::statements());
    all.extend(nim::statements());
    all.extend(chomp::statements());
    all.extend(slide::statements());
    all
}

/// The outcome of one statement's check.
#[derive(Clone, Debug)]
pub struct Report {
    /// Statement name.
    pub name: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// The claim.
    pub claim: &'static str,
    /// What was found.
    pub finding: Finding,
    /// Tables the check read, and whether they were reused or solved.
    pub tables: Vec<String>,
}

impl Report {
    /// PASS or FAIL.
    pub fn status(&self) -> &'static str {
        if self.finding.passed() {
            "PASS"
        } else {
            "FAIL"
        }
    }

    /// A text block for the terminal.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{}  {}  ({})\n      {}\n      checked {} cases",
            self.status(),
            self.name,
            self.source,
            self.claim,
            self.finding.checked
        );
        if !self.tables.is_empty() {
            s += &format!(" in {}", self.tables.join(", "));
        }
        if let Some(c) = &self.finding.counterexample {
            s += &format!("\n      smallest counterexample: {c}");
        }
        if let Some(n) = &self.finding.note {
            s += &format!("\n      found: {n}");
        }
        s
    }

    /// A JSON object.
    pub fn to_json(&self) -> String {
        let mut o = json::Object::new()
            .str("name", self.name)
            .str("source", self.source)
            .str("claim", self.claim)
            .num("checked", self.finding.checked)
            .str("status", self.status());
        o = match &self.finding.counterexample {
            Some(c) => o.str("counterexample", c),
            None => o.null("counterexample"),
        };
        if let Some(n) = &self.finding.note {
            o = o.str("note", n);
        }
        o.raw(
            "tables",
            &json::array(self.tables.iter().map(|t| {
                let mut s = String::new();
                json::string(&mut s, t);
                s
            })),
        )
        .finish()
    }
}

/// Runs one statement.
pub fn run(statement: &Statement, env: &mut Env) -> Result<Report> {
    let finding = (statement.run)(env)?;
    Ok(Report {
        name: statement.name,
        source: statement.source,
        claim: statement.claim,
        finding,
        tables: env.take_used(),
    })
}
