//! The symmetries of the mill boards, which the engine folds: the square's turns and
//! reflections, and on the boards of nested squares the swap of the inner square and the outer
//! one (the middle square kept on 24 points) — 16 on the 16- and 24-point boards, 8 on the
//! 3×3 grid. They are derived from where the points stand in the picture and kept only when
//! they map neighbours to neighbours and lines to lines, so that every rule (a placement, a
//! slide, a flight, the mills a move closes, the men a removal may take) commutes with them:
//! a board and its images have one value and remoteness, for the same side to move and men in
//! hand, which a symmetry leaves alone.

use super::board::Layout;
use super::{Mill, Pos};
use crate::games::cells::Symmetries;

/// A board's symmetries.
pub(super) struct Folding {
    /// The symmetries other than the identity, applied to masks of points.
    pub(super) table: Symmetries,
}

/// The image of a mask of points under `map`.
fn image(map: &[usize], mask: u32) -> u32 {
    (0..map.len())
        .filter(|&p| mask >> p & 1 == 1)
        .fold(0, |m, p| m | 1 << map[p])
}

/// Whether `map` (where each point goes) is a permutation of the points that maps each point's
/// neighbours onto the neighbours of its image and the lines onto the lines.
pub(super) fn keeps(layout: &Layout, map: &[usize]) -> bool {
    let mut hit = vec![false; layout.points];
    map.iter().for_each(|&q| hit[q] = true);
    map.len() == layout.points
        && hit.iter().all(|&h| h)
        && (0..layout.points).all(|p| image(map, layout.adjacent[p]) == layout.adjacent[map[p]])
        && layout
            .lines
            .iter()
            .all(|&l| layout.lines.contains(&image(map, l)))
}

/// The symmetries of a board other than the identity, as maps of its points: of the candidate
/// turns, reflections and swaps of squares, those that [`keep`](keeps) the board.
pub(super) fn maps(layout: &Layout) -> Vec<Vec<usize>> {
    let rings = layout.at.iter().map(|&(r, c)| r.abs().max(c.abs())).max();
    let rings = rings.unwrap_or(0);
    let identity: Vec<usize> = (0..layout.points).collect();
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for turns in 0..4 {
        for mirror in [false, true] {
            for swap in [false, true] {
                let map: Option<Vec<usize>> = (layout.at.iter())
                    .map(|&(mut r, mut c)| {
                        if mirror {
                            c = -c;
                        }
                        for _ in 0..turns {
                            (r, c) = (c, -r);
                        }
                        if swap {
                            // Ring k of the squares (the centre is ring 0) goes to ring
                            // rings + 1 - k, in the same direction from the centre.
                            let k = rings + 1 - r.abs().max(c.abs());
                            (r, c) = (r.signum() * k, c.signum() * k);
                        }
                        layout.at.iter().position(|&a| a == (r, c))
                    })
                    .collect();
                if let Some(map) = map {
                    if map != identity && !maps.contains(&map) && keeps(layout, &map) {
                        maps.push(map);
                    }
                }
            }
        }
    }
    maps
}

/// The points of each square, inner first, in order round it from the same corner, when every
/// point is on one (the 16- and 24-point boards; none on the 3×3 grid, whose centre is on no
/// square): what lets the symmetries be taken by shifts of bytes.
fn rings(layout: &Layout) -> Vec<[usize; 8]> {
    let count = layout.at.iter().map(|&(r, c)| r.abs().max(c.abs())).max();
    let mut rings = Vec::new();
    for k in 1..=count.unwrap_or(0) {
        let round = [
            (-k, -k),
            (-k, 0),
            (-k, k),
            (0, k),
            (k, k),
            (k, 0),
            (k, -k),
            (0, -k),
        ];
        let mut ring = [0; 8];
        for (slot, at) in ring.iter_mut().zip(round) {
            match layout.at.iter().position(|&a| a == at) {
                Some(p) => *slot = p,
                None => return Vec::new(),
            }
        }
        rings.push(ring);
    }
    if rings.len() * 8 != layout.points {
        return Vec::new();
    }
    rings
}

impl Folding {
    pub(super) fn of(layout: &Layout) -> Folding {
        Folding {
            table: Symmetries::with_rings(layout.points, &maps(layout), &rings(layout)),
        }
    }
}

impl Mill {
    /// Whether the board of `p` is the one that names its class (the engine solves it).
    pub(super) fn is_least(&self, p: &Pos) -> bool {
        self.folding
            .table
            .is_least(u64::from(p.men[0]), u64::from(p.men[1]))
    }

    /// The index of the board that names the class of `p`'s, with `p`'s side and hands.
    pub(super) fn least_index(&self, p: &Pos) -> u64 {
        let (x, o) = (u64::from(p.men[0]), u64::from(p.men[1]));
        let (x, o) = self.folding.table.least(x, o);
        self.encode(&Pos {
            men: [x as u32, o as u32],
            ..*p
        })
    }

    /// Calls `f` with the index of each other board of the class of `p`'s.
    pub(super) fn each_image(&self, p: &Pos, mut f: impl FnMut(u64)) {
        let (x, o) = (u64::from(p.men[0]), u64::from(p.men[1]));
        // The images keep the counts, so the tier and the side's place in it.
        let (base, stride) = self.tier_base(p);
        (self.folding.table).images(x, o, |x, o| f(base + stride * self.cells.rank_bits(x, o)));
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;
    use crate::game::GameSpec;
    use crate::games::mill::MillSpec;
    use crate::model::Indexed;
    use crate::model::{Standing, Tiered};

    #[test]
    fn every_symmetry_keeps_neighbours_and_mills_and_there_are_16_or_8() {
        for (points, count) in [(9, 8), (16, 16), (24, 16)] {
            let layout = Layout::of(points);
            let maps = maps(&layout);
            assert_eq!(maps.len() + 1, count, "{points} points");
            for map in &maps {
                assert!(keeps(&layout, map), "{points} points: {map:?}");
            }
            // A map that breaks the board is refused: a swap of two points of one line.
            let mut bad: Vec<usize> = (0..points).collect();
            let l = layout.lines[0];
            let (a, b) = (l.trailing_zeros() as usize, 31 - l.leading_zeros() as usize);
            bad.swap(a, b);
            bad.swap(b, (b + 1) % points);
            assert!(!keeps(&layout, &bad), "{points} points");
        }
        // The 24-point board: the swap of squares alone takes the outer top left corner and
        // top middle to the inner ones, and keeps the middle square.
        let nine = Layout::of(24);
        let at = |name: &str| nine.names.iter().position(|n| n == name).unwrap();
        let maps = maps(&nine);
        let swaps: Vec<&Vec<usize>> = (maps.iter())
            .filter(|m| m[at("a7")] == at("c5") && m[at("d7")] == at("d5"))
            .collect();
        assert_eq!(swaps.len(), 1);
        assert_eq!(swaps[0][at("b6")], at("b6"));
        assert_eq!(swaps[0][at("f2")], at("f2"));
        assert_eq!(swaps[0][at("g1")], at("e3"));
    }

    #[test]
    fn the_boards_of_squares_take_their_least_board_by_rings_and_it_names_the_class() {
        for (points, by_rings) in [(9, false), (16, true), (24, true)] {
            let layout = Layout::of(points);
            let folding = Folding::of(&layout);
            assert_eq!(folding.table.by_rings(), by_rings, "{points} points");
            let plain = Symmetries::new(points, &maps(&layout));
            let mut seed = 0x853c_49e6_748f_ea9bu64;
            for _ in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let all = (1u64 << points) - 1;
                let (x, o) = (seed & all & !(seed >> 24), seed >> 24 & all & !seed);
                // One of the class, and the same for every one of the class.
                let least = folding.table.least(x, o);
                let mut class = vec![(x, o)];
                plain.images(x, o, |a, b| class.push((a, b)));
                assert!(class.contains(&least), "{points} points: {x:#x} {o:#x}");
                for &(a, b) in &class {
                    assert_eq!(folding.table.least(a, b), least, "{points} points");
                    assert_eq!(folding.table.is_least(a, b), (a, b) == least);
                }
                // The images by rings are those of the maps, each once, also of boards that
                // symmetries keep: x's men and all their images, o on one point or none.
                let mut sym = x;
                plain.images(x, 0, |a, _| sym |= a);
                let lone = o & o.wrapping_neg() & !sym;
                for (a, b) in [(x, o), (sym, 0), (sym, lone), (0, 0)] {
                    let (mut mine, mut want) = (Vec::new(), Vec::new());
                    folding.table.images(a, b, |c, d| mine.push((c, d)));
                    plain.images(a, b, |c, d| want.push((c, d)));
                    mine.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(mine, want, "{points} points: {a:#x} {b:#x}");
                }
            }
        }
    }

    /// A mill game solved position by position: no class folded, every child as the move
    /// leaves it, the moves inside a tier kept as edges rather than read backward.
    struct Whole(Mill);

    impl crate::model::Indexed for Whole {
        fn positions(&self) -> u64 {
            Indexed::positions(&self.0)
        }
    }

    impl Tiered for Whole {
        fn tier_count(&self) -> u64 {
            self.0.tier_count()
        }
        fn tier(&self, t: u64) -> Range<u64> {
            self.0.tier(t)
        }
        fn legal(&self, pos: u64) -> bool {
            self.0.legal(pos)
        }
        fn terminal(&self, pos: u64) -> Option<Standing> {
            Tiered::terminal(&self.0, pos)
        }
        fn children<F: FnMut(u64)>(&self, pos: u64, mut f: F) {
            let p = self.0.decode(pos);
            if self.0.over(&p).is_none() {
                self.0.each_move(&p, |_, next| f(self.0.encode(next)));
            }
        }
        fn moves_bound(&self) -> u64 {
            self.0.moves_bound()
        }
        fn start_index(&self) -> Option<u64> {
            self.0.start_index()
        }
    }

    /// The representatives of a run of indices, board by board, are those of `represents`,
    /// index by index: at a tier's start, at an odd place inside it, up to its end.
    #[test]
    fn representatives_of_a_run_are_those_of_each_index() {
        for men in [5, 6] {
            let g = Mill::new(MillSpec::new(men, None, false).unwrap());
            for t in 0..g.tier_count() {
                let r = g.tier(t);
                let odd = (r.start + 4097).min(r.end);
                for first in [r.start, odd, r.end.saturating_sub(300).max(r.start)] {
                    let n = (r.end - first).min(4096) as usize;
                    let mut keep = [0x5555_5555_5555_5555u64; 64];
                    assert!(g.representatives(first, n, &mut keep));
                    for i in 0..n {
                        let want = g.represents(first + i as u64);
                        assert_eq!(
                            keep[i / 64] >> (i % 64) & 1 == 1,
                            want,
                            "{men} men: {first} + {i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn folding_the_boards_symmetries_and_reading_moves_backward_change_no_byte_of_the_table() {
        use crate::solve::two_player::solve_standings;
        for (men, points, flying, endgame, lasker) in [
            (3, Some(9), false, None, false),
            (3, Some(9), true, None, false),
            (3, None, false, None, false),
            (3, None, true, None, false),
            (4, None, false, None, false),
            (9, None, false, Some(3), false),
            (3, Some(9), true, None, true),
            (3, None, false, None, true),
            (4, None, true, None, true),
        ] {
            let spec = MillSpec::new(men, points, flying)
                .and_then(|s| s.with_endgame(endgame)?.with_lasker(lasker))
                .unwrap();
            let folded = Mill::new(spec.clone());
            let whole = Whole(Mill::new(spec.clone()));
            let bytes = solve_standings(&whole, &()).unwrap();
            assert!(Tiered::symmetries(&folded) > 1);
            for threads in [1, 2] {
                let f = crate::solve::in_pool(threads, || solve_standings(&folded, &()).unwrap());
                assert!(f == bytes, "{} at {threads} threads", spec.describe());
            }
        }
    }
}
