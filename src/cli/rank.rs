//! `gamedb rank TABLE POSITION...` and `gamedb unrank TABLE INDEX...`: a position's index in a
//! table, and the position at an index (the ranking of `tables/README.md`).

use std::path::PathBuf;

use clap::Args;

use crate::{Error, Table};

use super::{answer_all, Failure};

#[derive(Args)]
pub(crate) struct RankArgs {
    /// The table file (only its header is read).
    pub table: PathBuf,
    /// Positions as `query` reads them; `-` reads one per line from stdin.
    #[arg(required = true)]
    pub positions: Vec<String>,
    /// One JSON object per answer: {"position": .., "index": ..}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub(crate) struct UnrankArgs {
    /// The table file (only its header is read).
    pub table: PathBuf,
    /// Indices, 0 to entries - 1; `-` reads one per line from stdin.
    #[arg(required = true)]
    pub indices: Vec<String>,
    /// One JSON object per answer: {"index": .., "position": ..}.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn rank(a: RankArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    let rules = table.rules();
    answer_all(&a.positions, a.json, |text| {
        let index = rules.parse(text).and_then(|pos| {
            let i = table.index_of(&pos)?;
            Ok((rules.format(&pos), i))
        });
        Ok(index.map(|(pos, i)| {
            if a.json {
                serde_json::json!({"position": pos, "index": i}).to_string()
            } else {
                format!("{pos}: {i}")
            }
        }))
    })
}

pub(crate) fn unrank(a: UnrankArgs) -> Result<(), Failure> {
    let table = Table::open(&a.table)?;
    if let Some(e) = table.not_known() {
        return Err(e.into());
    }
    let rules = table.rules();
    let len = table.len();
    answer_all(&a.indices, a.json, |text| {
        let index = text.trim().parse::<u64>().ok().filter(|&i| i < len);
        Ok(match index {
            None => Err(Error::BadInput(format!(
                "index '{}': expected a whole number from 0 to {} ({} holds {len} positions)",
                crate::answer::echo(text.trim()),
                len - 1,
                a.table.display()
            ))),
            Some(i) => {
                let pos = rules.format(&rules.unrank(i));
                Ok(if a.json {
                    serde_json::json!({"index": i, "position": pos}).to_string()
                } else {
                    format!("{i}: {pos}")
                })
            }
        })
    })
}
