//! `gamedb chomp-rectangles`: the winning bites of every rectangle inside a Chomp table's box,
//! and which rectangles have more than one (Ekhad & Zeilberger 2018 asked for a bar with at
//! least three).

use serde::Serialize;

use crate::game::format_numbers;
use crate::games::chomp::bite;
use crate::games::chomp::ChompSpec;
use crate::lookup::Table;
use crate::model::Outcome;
use crate::{Error, Result};

/// One winning bite of a rectangle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Bite {
    /// Row of the bite, 1-based.
    pub row: u32,
    /// Column of the bite, 1-based.
    pub col: u32,
    /// The position it leaves (row lengths).
    #[serde(serialize_with = "as_text")]
    pub leaves: Vec<u32>,
}

fn as_text<S: serde::Serializer>(v: &[u32], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&format_numbers(v))
}

/// The answer for one rectangle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Rectangle {
    /// Rows of the rectangle.
    pub rows: u32,
    /// Columns of the rectangle.
    pub cols: u32,
    /// P (only 1×1) or N.
    pub outcome: Outcome,
    /// The Grundy value, from a Grundy table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u32>,
    /// Every winning bite with the position it leaves.
    pub winning_bites: Vec<Bite>,
    /// More than one winning bite.
    pub more_than_one: bool,
}

impl Rectangle {
    /// Each winning bite as `(row,col) -> position left`.
    pub(crate) fn bites_text(&self) -> Vec<String> {
        self.winning_bites
            .iter()
            .map(|b| format!("({},{}) -> {}", b.row, b.col, format_numbers(&b.leaves)))
            .collect()
    }
}

/// Every rectangle a×b inside a box, a-major. JSON: `rectangles` (how many),
/// `with_more_than_one`, `most_winning_bites`, `multi_bite_bars` (`AxB` of each rectangle
/// with more than one winning bite), `answers` (each rectangle: `rows`, `cols`, `outcome`,
/// `grundy` from a Grundy table, `winning_bites` of `row`, `col`, `leaves`, and
/// `more_than_one`; with `--only-multi`, only the rectangles with more than one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Rectangles {
    /// Number of rectangles.
    pub rectangles: usize,
    /// Number of them with more than one winning bite.
    pub with_more_than_one: usize,
    /// The most winning bites of any rectangle.
    pub most_winning_bites: usize,
    /// The rectangles with more than one winning bite, as `AxB`.
    pub multi_bite_bars: Vec<String>,
    /// The rectangles (all, or those with more than one winning bite).
    pub answers: Vec<Rectangle>,
}

/// The winning bites of every rectangle a×b inside a Chomp table's box.
pub(crate) fn rectangles(table: &Table) -> Result<Rectangles> {
    let Some(spec) = table.spec_of::<ChompSpec>() else {
        return Err(Error::bad(format!(
            "{} holds {}; chomp-rectangles needs a Chomp table (gamedb build chomp --rows R --cols C)",
            table.file().path().display(),
            table.describe()
        )));
    };
    let mut answers = Vec::new();
    for a in 1..=spec.rows() {
        for b in 1..=spec.cols() {
            let rect = vec![b; a as usize];
            let mut winning_bites = Vec::new();
            for i in 0..a as usize {
                for j in 0..b {
                    if i == 0 && j == 0 {
                        continue;
                    }
                    let leaves = bite(&rect, i, j);
                    if table.outcome_of(&leaves)? == Outcome::P {
                        winning_bites.push(Bite {
                            row: i as u32 + 1,
                            col: j + 1,
                            leaves,
                        });
                    }
                }
            }
            let index = table.index_of(&rect)?;
            answers.push(Rectangle {
                rows: a,
                cols: b,
                outcome: table.outcome(index),
                grundy: table.grundy(index),
                more_than_one: winning_bites.len() > 1,
                winning_bites,
            });
        }
    }
    Ok(Rectangles {
        rectangles: answers.len(),
        with_more_than_one: answers.iter().filter(|r| r.more_than_one).count(),
        most_winning_bites: answers
            .iter()
            .map(|r| r.winning_bites.len())
            .max()
            .unwrap_or(0),
        multi_bite_bars: answers
            .iter()
            .filter(|r| r.more_than_one)
            .map(|r| format!("{}x{}", r.rows, r.cols))
            .collect(),
        answers,
    })
}

impl Rectangles {
    /// One JSON object on one line.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Keeps only the rectangles with more than one winning bite in `answers` (the counts
    /// stay those of the whole box).
    pub(crate) fn only_multi(mut self) -> Rectangles {
        self.answers.retain(|r| r.more_than_one);
        self
    }

    /// One line per rectangle, `*` marking more than one winning bite, and a summary.
    pub(crate) fn to_text(&self) -> String {
        let grundy = self.answers.iter().any(|r| r.grundy.is_some());
        let mut s = format!(
            "  rectangle  outcome  {}winning bites (row,col) -> position left; * = more than one\n",
            if grundy { "grundy  " } else { "" }
        );
        for r in &self.answers {
            let bites = r.bites_text();
            s += &format!(
                "{} {:>9}  {:<7}  {}{}\n",
                if r.more_than_one { "*" } else { " " },
                format!("{}x{}", r.rows, r.cols),
                r.outcome.as_str(),
                r.grundy.map_or(String::new(), |g| format!("{g:<6}  ")),
                if bites.is_empty() {
                    "-".to_string()
                } else {
                    bites.join("; ")
                }
            );
        }
        let many = &self.multi_bite_bars;
        s += &format!(
            "{} rectangles; {} with more than one winning bite{}{}",
            self.rectangles,
            many.len(),
            if many.is_empty() { "" } else { ": " },
            many.join(", ")
        );
        if self.most_winning_bites > 2 {
            s += &format!(" (the most: {} winning bites)", self.most_winning_bites);
        }
        s
    }
}
