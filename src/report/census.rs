//! `gamedb chomp-census`: the Chomp bars with more than one winning bite over a region of
//! several boxes (Ekhad and Zeilberger 2018 asked for a bar with at least three; a 2026 search
//! found the 10×42 bar over a ≤ b ≤ 19, 4×b to 300, ..., 10×b to 45).
//!
//! A box `R×C` holds every bar `a×b` with `a ≤ R`, `b ≤ C` and every position a bite of it
//! leaves, so one box answers for all its bars exactly; boxes may overlap, and a bar found in
//! several is listed once. Each box comes as a table (a file, or solved in memory by the
//! command line); [`Census::add`] reads its bars with [`rectangles`].

use std::collections::BTreeSet;

use serde::Serialize;

use super::rectangles::{rectangles, Rectangle};
use crate::games::chomp::ChompSpec;
use crate::lookup::Table;
use crate::{Error, Result};

/// One box of the census and what it held.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct CensusBox {
    /// `RxC`.
    #[serde(rename = "box")]
    pub name: String,
    /// Where its values came from: a table file, or `solved in memory`.
    pub source: String,
    /// Its bars (`R·C`).
    pub bars: usize,
    /// Of them, with more than one winning bite.
    pub with_more_than_one: usize,
    /// Seconds spent solving it (0 for a table file).
    pub solve_seconds: f64,
}

/// The bars with more than one winning bite over every box added. JSON: `boxes` (each `box`,
/// `source`, `bars`, `with_more_than_one`, `solve_seconds`), `bars` (distinct bars covered),
/// `with_more_than_one`, `most_winning_bites`, `multi_bite_bars` (each as in
/// `chomp-rectangles --json`: `rows`, `cols`, `outcome`, `winning_bites` of `row`, `col`,
/// `leaves`), ordered by rows, then columns.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct Census {
    /// The boxes, in the order added.
    pub boxes: Vec<CensusBox>,
    /// Distinct bars covered by the boxes.
    pub bars: usize,
    /// Distinct bars with more than one winning bite.
    pub with_more_than_one: usize,
    /// The most winning bites of any bar.
    pub most_winning_bites: usize,
    /// Those bars with their winning bites.
    pub multi_bite_bars: Vec<Rectangle>,
    #[serde(skip)]
    covered: BTreeSet<(u32, u32)>,
}

impl Census {
    /// An empty census.
    pub(crate) fn new() -> Census {
        Census::default()
    }

    /// Reads every bar of a Chomp table's box into the census; `source` says where the table
    /// came from, `solve_seconds` how long it took to solve (0 for a file).
    pub(crate) fn add(&mut self, table: &Table, source: &str, solve_seconds: f64) -> Result<()> {
        let Some(spec) = table.spec_of::<ChompSpec>() else {
            return Err(Error::bad(format!(
                "{} holds {}; chomp-census needs Chomp tables (gamedb build chomp --rows R --cols C)",
                table.file().path().display(),
                table.describe()
            )));
        };
        let rects = rectangles(table)?;
        for r in &rects.answers {
            self.covered.insert((r.rows, r.cols));
        }
        for mut r in rects.answers.into_iter().filter(|r| r.more_than_one) {
            if self
                .multi_bite_bars
                .iter()
                .all(|f| (f.rows, f.cols) != (r.rows, r.cols))
            {
                // Grundy values differ in meaning from box to box of a census: not kept.
                r.grundy = None;
                self.multi_bite_bars.push(r);
            }
        }
        self.multi_bite_bars.sort_by_key(|r| (r.rows, r.cols));
        self.boxes.push(CensusBox {
            name: format!("{}x{}", spec.rows(), spec.cols()),
            source: source.to_string(),
            bars: rects.rectangles,
            with_more_than_one: rects.with_more_than_one,
            solve_seconds,
        });
        self.bars = self.covered.len();
        self.with_more_than_one = self.multi_bite_bars.len();
        self.most_winning_bites = self
            .multi_bite_bars
            .iter()
            .map(|r| r.winning_bites.len())
            .max()
            .unwrap_or(0);
        Ok(())
    }

    /// One JSON object on one line.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A line per box, a line per bar with more than one winning bite (with its bites), and
    /// a summary.
    pub(crate) fn to_text(&self) -> String {
        let mut s = String::new();
        for b in &self.boxes {
            s += &format!(
                "box {:>6}: {:>5} bars, {} with more than one winning bite ({})\n",
                b.name,
                b.bars,
                b.with_more_than_one,
                if b.solve_seconds > 0.0 {
                    format!("{}, {:.1} s", b.source, b.solve_seconds)
                } else {
                    b.source.clone()
                }
            );
        }
        for r in &self.multi_bite_bars {
            let bites = r.bites_text();
            s += &format!(
                "{:>9}  {} winning bites: {}\n",
                format!("{}x{}", r.rows, r.cols),
                r.winning_bites.len(),
                bites.join("; ")
            );
        }
        s += &format!(
            "{} boxes, {} distinct bars; {} with more than one winning bite",
            self.boxes.len(),
            self.bars,
            self.with_more_than_one
        );
        if self.with_more_than_one > 0 {
            let most: Vec<String> = self
                .multi_bite_bars
                .iter()
                .filter(|r| r.winning_bites.len() == self.most_winning_bites)
                .map(|r| format!("{}x{}", r.rows, r.cols))
                .collect();
            s += &format!(
                "; the most: {} winning bites ({})",
                self.most_winning_bites,
                most.join(", ")
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chomp::{bite, ChompSpec};
    use crate::model::{Outcome, ValueKind};
    use crate::Spec;
    use std::collections::HashMap;

    fn solved(r: u32, c: u32) -> Table {
        let spec = Spec::new(ChompSpec::new(r, c).unwrap());
        let solved = spec.solve(ValueKind::Outcome, &()).unwrap();
        Table::from_solved(&spec, solved).unwrap()
    }

    /// P/N of every diagram inside an r × c box by plain recursion over the bites.
    fn brute(r: usize, c: u32) -> HashMap<Vec<u32>, bool> {
        fn win(d: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
            if let Some(&w) = memo.get(d) {
                return w;
            }
            let mut w = false;
            for i in 0..d.len() {
                for j in 0..d[i] {
                    if (i, j) != (0, 0) && !win(&bite(d, i, j), memo) {
                        w = true;
                    }
                }
            }
            memo.insert(d.to_vec(), w);
            w
        }
        let mut memo = HashMap::new();
        for a in 1..=r {
            for b in 1..=c {
                win(&vec![b; a], &mut memo);
            }
        }
        memo
    }

    #[test]
    fn census_agrees_with_brute_force_up_to_8_by_10() {
        for (r, c) in [(3, 7), (5, 5), (6, 8), (7, 9), (8, 10), (10, 8)] {
            let mut census = Census::new();
            census.add(&solved(r, c), "test", 0.0).unwrap();
            let memo = brute(r as usize, c);
            let mut want = Vec::new();
            for a in 1..=r {
                for b in 1..=c {
                    let rect = vec![b; a as usize];
                    assert_eq!(memo[&rect], (a, b) != (1, 1));
                    let mut bites = Vec::new();
                    for i in 0..a as usize {
                        for j in 0..b {
                            if (i, j) != (0, 0) && !memo[&bite(&rect, i, j)] {
                                bites.push((i as u32 + 1, j + 1, bite(&rect, i, j)));
                            }
                        }
                    }
                    if bites.len() > 1 {
                        want.push((a, b, bites));
                    }
                }
            }
            let got: Vec<_> = census
                .multi_bite_bars
                .iter()
                .map(|r| {
                    assert_eq!(r.outcome, Outcome::N);
                    let bites = r
                        .winning_bites
                        .iter()
                        .map(|b| (b.row, b.col, b.leaves.clone()))
                        .collect::<Vec<_>>();
                    (r.rows, r.cols, bites)
                })
                .collect();
            assert_eq!(got, want, "{r}x{c}");
            assert_eq!(census.bars, (r * c) as usize);
        }
    }

    #[test]
    fn thompson_and_the_published_doubles() {
        // Bars of the 10×14 box with two winning bites: Thompson's 8×10, and 6×13, 9×10,
        // 10×14 (Ekhad and Zeilberger 2018), with the transposes that fit. The 8×10 box is
        // inside the 10×14 one: its bar is listed once.
        let mut census = Census::new();
        census.add(&solved(10, 14), "a", 0.0).unwrap();
        census.add(&solved(8, 10), "b", 0.0).unwrap();
        let names: Vec<(u32, u32, usize)> = census
            .multi_bite_bars
            .iter()
            .map(|r| (r.rows, r.cols, r.winning_bites.len()))
            .collect();
        assert_eq!(
            names,
            vec![
                (6, 13, 2),
                (8, 10, 2),
                (9, 10, 2),
                (10, 8, 2),
                (10, 9, 2),
                (10, 14, 2)
            ]
        );
        let thompson = &census.multi_bite_bars[1];
        let bites: Vec<(u32, u32)> = thompson
            .winning_bites
            .iter()
            .map(|b| (b.row, b.col))
            .collect();
        assert_eq!(bites, vec![(4, 9), (5, 6)]);
        assert_eq!((census.bars, census.with_more_than_one), (140, 6));
        assert_eq!(census.most_winning_bites, 2);
        let text = census.to_text();
        assert!(
            text.ends_with("2 boxes, 140 distinct bars; 6 with more than one winning bite; the most: 2 winning bites (6x13, 8x10, 9x10, 10x8, 10x9, 10x14)"),
            "{text}"
        );
        assert!(text.contains("     8x10  2 winning bites: (4,9) -> 10,10,10,8,8,8,8,8; (5,6) -> 10,10,10,10,5,5,5,5\n"), "{text}");
    }

    #[test]
    fn a_table_of_another_game_is_refused() {
        let spec = Spec::new(crate::games::nim::NimSpec::new(2, 3, None, false).unwrap());
        let solved = spec.solve(ValueKind::Outcome, &()).unwrap();
        let table = Table::from_solved(&spec, solved).unwrap();
        let e = Census::new().add(&table, "x", 0.0).unwrap_err().to_string();
        assert!(e.contains("chomp-census needs Chomp tables"), "{e}");
    }
}
