//! How many positions of a table hold each value: P and N, each Grundy value, or each
//! distance. The explorer's chart (`GET /api/tables/{file}/values`) and `gamedb plot` draw it.

use serde::Serialize;

use crate::format::entries::UNREACHED;
use crate::lookup::Table;
use crate::model::{Standing, ValueKind, Wdl50, Wlt};

/// The value distribution of a table. JSON keys: `values` (the value kind), `labels` (`P`,
/// `N`; `lose`, `tie`, `draw`, `win`; `lose`, `tie-or-draw`, `win`; or the values `0`, `1`,
/// ...), `counts` (positions with each label), and `unreached`
/// for distance tables (entries marked 255, only in pattern databases).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Distribution {
    /// The value kind's name.
    pub values: &'static str,
    /// One label per bar.
    pub labels: Vec<String>,
    /// Positions with each label.
    pub counts: Vec<u64>,
    /// Distance tables: entries that cannot reach the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreached: Option<u64>,
}

impl Distribution {
    /// Counts every entry of the table (parallel; reads the whole payload).
    pub(crate) fn of(table: &Table) -> Distribution {
        let kind = table.value_kind();
        let mut counts = table.entries().histogram();
        let (labels, unreached) = match kind {
            ValueKind::Outcome => (vec!["P".to_string(), "N".to_string()], None),
            // Entries by their value, whatever the remoteness; no legal position is left out.
            ValueKind::Remoteness => {
                let mut by = [0u64; 4];
                for (entry, n) in counts.iter().enumerate() {
                    if let Some((v, _)) = crate::format::entries::standing::unpack(entry as u32) {
                        by[v as usize] += n;
                    }
                }
                counts = by.to_vec();
                let labels = [Standing::Lose, Standing::Tie, Standing::Draw, Standing::Win];
                (
                    labels.iter().map(|v| v.as_str().to_string()).collect(),
                    None,
                )
            }
            // Entries by their class under the counter; no legal position is left out.
            ValueKind::Dtz => {
                let labels = [
                    Wdl50::Loss,
                    Wdl50::BlessedLoss,
                    Wdl50::Draw,
                    Wdl50::CursedWin,
                    Wdl50::Win,
                ];
                let mut by = [0u64; 5];
                for (entry, n) in counts.iter().enumerate() {
                    if let Some((v, r)) = crate::format::entries::standing::unpack(entry as u32) {
                        by[Wdl50::of(v, r) as usize] += n;
                    }
                }
                counts = by.to_vec();
                (labels.iter().map(|v| v.words().to_string()).collect(), None)
            }
            // The codes 1, 2, 3 (lose, win, tie or draw); no legal position (0) is left out.
            ValueKind::Wlt => {
                counts.resize(4, 0);
                let labels = [Wlt::Lose, Wlt::TieOrDraw, Wlt::Win];
                counts = labels
                    .iter()
                    .map(|&v| counts[crate::format::entries::wlt::code(v) as usize])
                    .collect();
                (
                    labels.iter().map(|v| v.as_str().to_string()).collect(),
                    None,
                )
            }
            // Extension values as stored: 0 for a prefix without a P-position.
            ValueKind::Grundy | ValueKind::Extension => {
                ((0..counts.len()).map(|v| v.to_string()).collect(), None)
            }
            ValueKind::Distance => {
                let unreached = counts.get(UNREACHED as usize).copied().unwrap_or(0);
                counts.truncate(UNREACHED as usize);
                while counts.last() == Some(&0) {
                    counts.pop();
                }
                (
                    (0..counts.len()).map(|v| v.to_string()).collect(),
                    Some(unreached),
                )
            }
        };
        Distribution {
            values: kind.name(),
            labels,
            counts,
            unreached,
        }
    }

    /// One JSON object on one line.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
