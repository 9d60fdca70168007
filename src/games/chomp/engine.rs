//! Which engine solves a box, and the solve by each: position by position, by runs of the
//! last row, by triangles of the last two rows, or a tall box through its transpose.

use rayon::prelude::*;

use super::bites::{LastRow, LastTwoRows};
use super::{transpose, Chomp, ChompSpec, MAX_ROWS};
use crate::game::Rules;
use crate::progress::Progress;
use crate::solve::{
    solve_grundy_triangles, solve_grundy_waves, solve_outcomes_runs_words,
    solve_outcomes_triangles_words, solve_outcomes_waves, Bits, Saves, Saving, WordBits,
    MAX_TRIANGLE,
};
use crate::{Error, Result};

/// Which engine solves the P/N table of a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// [`Waves`](crate::solve::Waves), position by position (in a square box each diagram and
    /// its transpose searched once): one row or one column, and the 2×2 box.
    Waves,
    /// [`Triangles`](crate::solve::Triangles) over the last two rows: 3 to 63 rows, at most 63
    /// columns, no more rows than columns (in a square box, a diagram whose last two rows are
    /// empty and whose transpose lies in an earlier wave is copied from it).
    Triangles,
    /// [`Runs`](crate::solve::Runs) over the last row: two rows, or more than 63 columns.
    Runs,
    /// A tall box (more rows than columns, at least two): its transpose is solved by
    /// triangles or runs, and each diagram takes its transpose's value (the transpose's table
    /// and this one are in memory together at the end: twice the table).
    Transposed,
}

impl Chomp {
    /// The engine [`Chomp::solve_outcomes`] uses for this box.
    pub fn engine(&self) -> Engine {
        self.spec.engine()
    }

    /// P/N of every diagram of the box, by the engine of [`Chomp::engine`]. The table is the
    /// same whichever engine makes it (checked by the tests).
    pub fn solve_outcomes(&self, progress: &dyn Progress) -> Result<Bits> {
        self.solve_with(self.engine(), progress, &())
    }
}

impl ChompSpec {
    /// The engine that solves the P/N table of this box (see [`Engine`]).
    pub fn engine(&self) -> Engine {
        let (r, c) = (self.rows as usize, self.cols as usize);
        if r <= 2 && r == c || r == 1 || c == 1 {
            Engine::Waves
        } else if r > c {
            Engine::Transposed
        } else if r == 2 || c > MAX_TRIANGLE as usize {
            Engine::Runs
        } else {
            Engine::Triangles
        }
    }

    /// The engine that solves the Grundy table of this box (see [`Chomp::solve_grundy`]).
    pub fn grundy_engine(&self) -> Engine {
        let (r, c) = (self.rows as usize, self.cols as usize);
        if r >= 3 && c <= MAX_TRIANGLE as usize && r != c {
            Engine::Triangles
        } else {
            Engine::Waves
        }
    }
}

impl Chomp {
    /// P/N of every diagram by a given engine (`Triangles` needs `3 ≤ R` and `C ≤ 63`, `Runs`
    /// needs `R ≥ 2`). The run and triangle solvers hand their finished waves to `saves`
    /// (and resume from them), named after the engine and the box they solve (a save of
    /// another engine or box is refused); the wave engine saves nothing.
    pub fn solve_with(
        &self,
        engine: Engine,
        progress: &dyn Progress,
        saves: &dyn Saves,
    ) -> Result<Bits> {
        match engine {
            Engine::Waves => solve_outcomes_waves(self, progress),
            Engine::Runs => {
                let solve = &Chomp::solve_name("runs", self);
                solve_outcomes_runs_words(&LastRow(self), progress, Saving { saves, solve })?
                    .into_bits()
            }
            Engine::Triangles => {
                let solve = &Chomp::solve_name("triangles", self);
                solve_outcomes_triangles_words(
                    &LastTwoRows(self),
                    progress,
                    Saving { saves, solve },
                )?
                .into_bits()
            }
            Engine::Transposed => {
                if self.c > MAX_ROWS as usize || self.c < 2 {
                    return Err(Error::Unsupported(format!(
                        "the {}×{} box cannot be solved through its transpose: it needs 2..={MAX_ROWS} columns",
                        self.r, self.c
                    )));
                }
                let t = self.transposed();
                let tb = if t.r >= 3 && t.c <= MAX_TRIANGLE as usize {
                    let solve = &Chomp::solve_name("transposed: triangles", &t);
                    solve_outcomes_triangles_words(
                        &LastTwoRows(&t),
                        progress,
                        Saving { saves, solve },
                    )?
                } else {
                    let solve = &Chomp::solve_name("transposed: runs", &t);
                    solve_outcomes_runs_words(&LastRow(&t), progress, Saving { saves, solve })?
                };
                self.bits_via_transpose(&t, &tb)
            }
        }
    }

    /// The name of a saving solve: the solver and the box it solves, e.g. `triangles over the
    /// 10x42 box`, `transposed: runs over the 2x9 box`. A save of another name is refused, so
    /// a solve is never resumed by another engine or from another box.
    fn solve_name(solver: &str, solved: &Chomp) -> String {
        format!("{solver} over the {}x{} box", solved.r, solved.c)
    }

    /// The engine [`Chomp::solve_grundy`] uses: [`Engine::Triangles`] for boxes of 3 to 63
    /// rows and at most 63 columns that are not square, else [`Engine::Waves`] (which searches
    /// only one of a diagram and its transpose in a square box).
    pub fn grundy_engine(&self) -> Engine {
        self.spec.grundy_engine()
    }

    /// Grundy value of every diagram of the box.
    pub fn solve_grundy(&self, progress: &dyn Progress) -> Result<Vec<u16>> {
        self.solve_grundy_with(self.grundy_engine(), progress)
    }

    /// Grundy values by a given engine: `Waves`, or `Triangles` (3 to 63 rows, at most 63
    /// columns).
    pub fn solve_grundy_with(&self, engine: Engine, progress: &dyn Progress) -> Result<Vec<u16>> {
        match engine {
            Engine::Waves => solve_grundy_waves(self, progress),
            Engine::Triangles if self.r >= 3 && self.c <= MAX_TRIANGLE as usize => {
                solve_grundy_triangles(&LastTwoRows(self), progress)
            }
            other => Err(Error::Unsupported(format!(
                "Grundy values of the {}×{} box cannot be solved by the {other:?} engine",
                self.r, self.c
            ))),
        }
    }

    /// The transposed box (C×R).
    fn transposed(&self) -> Chomp {
        Chomp::new(ChompSpec {
            rows: self.spec.cols,
            cols: self.spec.rows,
        })
    }

    /// This box's bits from the bits `tb` of its transposed box `t`: every diagram takes the
    /// value of its transpose. Only the P-positions (about 1%) are moved: the table starts all
    /// N, and each P-position of the transpose is unranked, transposed, ranked here and
    /// cleared.
    fn bits_via_transpose(&self, t: &Chomp, tb: &WordBits) -> Result<Bits> {
        let out = WordBits::try_ones(self.spec.positions())?;
        let words = tb.word_count();
        (0..words.div_ceil(1024)).into_par_iter().for_each(|chunk| {
            let range = chunk * 1024..(chunk * 1024 + 1024).min(words);
            tb.for_each_zero(range, |i| {
                let rows = transpose(&t.unrank(i));
                out.clear(self.rank(&rows));
            });
        });
        out.into_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameSpec;
    use crate::model::ValueKind;
    use crate::solve::in_pool;

    fn chomp(r: u32, c: u32) -> Chomp {
        Chomp::new(ChompSpec::new(r, c).unwrap())
    }

    /// Both Grundy engines give the same values, squares included (where the triangles copy
    /// some diagrams from their transposes).
    #[test]
    fn grundy_engines_agree() {
        let pb = ();
        for (r, c) in [(3, 3), (4, 9), (9, 4), (6, 6), (7, 8), (9, 9)] {
            let g = chomp(r, c);
            let waves = g.solve_grundy_with(Engine::Waves, &pb).unwrap();
            for threads in [1, 2] {
                let tri = in_pool(threads, || {
                    g.solve_grundy_with(Engine::Triangles, &pb).unwrap()
                });
                assert!(tri == waves, "{r}x{c} at {threads} threads");
            }
        }
    }

    /// Every engine that applies gives the table of the position-by-position search (without
    /// the transpose shortcut), at 1 and 2 threads.
    #[test]
    fn every_engine_makes_the_same_table() {
        let pb = ();
        for (r, c) in [
            (1, 9),
            (9, 1),
            (2, 2),
            (2, 70),
            (64, 2),
            (3, 3),
            (3, 64),
            (3, 65),
            (4, 30),
            (30, 4),
            (5, 8),
            (8, 5),
            (6, 12),
            (12, 6),
            (7, 7),
            (9, 9),
            (8, 10),
            (10, 8),
        ] {
            let g = chomp(r, c);
            let reference = solve_outcomes_waves(&g, &pb).unwrap().into_bytes();
            let mut engines = vec![Engine::Waves, g.engine()];
            if r >= 2 {
                engines.push(Engine::Runs);
            }
            if r >= 3 && c <= MAX_TRIANGLE {
                engines.push(Engine::Triangles);
            }
            if r != c && (2..=MAX_ROWS).contains(&c) {
                engines.push(Engine::Transposed);
            }
            for e in engines {
                for threads in [1, 2] {
                    let got = in_pool(threads, || g.solve_with(e, &pb, &()).unwrap().into_bytes());
                    assert!(got == reference, "{r}x{c} by {e:?} at {threads} threads");
                }
            }
        }
    }

    /// What a build is told it needs follows the engine: one bit table (and a megabyte) for
    /// triangles and runs, two for a tall box solved through its transpose.
    #[test]
    fn memory_follows_the_engine() {
        let mib = 1 << 20;
        for (r, c, engine, tables) in [
            (10, 30, Engine::Triangles, 1),
            (4, 300, Engine::Runs, 1),
            (30, 10, Engine::Transposed, 2),
            (16, 16, Engine::Triangles, 1),
            (1, 5000, Engine::Waves, 1),
        ] {
            let spec = ChompSpec::new(r, c).unwrap();
            assert_eq!(spec.engine(), engine, "{r}x{c}");
            let table = spec.positions().div_ceil(8);
            let need = spec.view().solve_memory(ValueKind::Outcome);
            assert!(need >= tables * table, "{r}x{c}: {need}");
            assert!(need <= tables * table + 32 * mib, "{r}x{c}: {need}");
        }
        let grundy = ChompSpec::new(9, 14).unwrap();
        assert_eq!(grundy.grundy_engine(), Engine::Triangles);
        assert!(grundy.view().solve_memory(ValueKind::Grundy) >= 2 * grundy.positions());
    }
}
