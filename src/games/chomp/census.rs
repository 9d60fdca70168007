//! The census of a table: its P-positions in every sub-box, the fact the rules report.

use super::Chomp;
use crate::game::{Fact, Rules, Values};

impl Chomp {
    /// `census[a][b]`: P-positions that fit in a box of `a` rows and `b` columns
    /// (`0 ≤ a ≤ R`, `0 ≤ b ≤ C`; zero when either is 0).
    pub fn census(&self, values: &dyn Values) -> Vec<Vec<u64>> {
        let (r, c) = (self.r, self.c);
        let mut count = vec![vec![0u64; c + 1]; r + 1];
        values.for_each_p(&mut |i| {
            let rows = self.unrank(i);
            count[rows.len()][rows[0] as usize] += 1;
        });
        // Cumulative over both dimensions: height <= a and width <= b.
        for a in 1..=r {
            for b in 1..=c {
                count[a][b] += count[a - 1][b] + count[a][b - 1] - count[a - 1][b - 1];
            }
        }
        count
    }
}

pub(super) fn census_fact(census: &[Vec<u64>], r: usize, c: usize) -> Fact {
    let width = census[r][c].to_string().len().max(3) + 1;
    let mut text = format!("{:>6}", "a\\b");
    for b in 1..=c {
        text += &format!("{b:>width$}");
    }
    for (a, row) in census.iter().enumerate().skip(1) {
        text += &format!("\n{a:>6}");
        for v in &row[1..] {
            text += &format!("{v:>width$}");
        }
    }
    let counts: Vec<&[u64]> = census.iter().skip(1).map(|row| &row[1..]).collect();
    let json = serde_json::json!({"rows": r, "cols": c, "counts": counts});
    Fact {
        key: "p_census".into(),
        label: "P-positions in each sub-box of a rows and b columns".into(),
        text,
        json,
    }
}
