//! The index of a chess table: the materials (the ending asked for and every sub-ending a
//! capture or a promotion reaches), each split into tiers, and within a tier the placements of
//! the men with the board's symmetries.
//!
//! A material without pawns is one tier, `(pair · span + squares) · 2 + side`: `pair` numbers
//! the placements of the two kings that are canonical under the eight symmetries of the square
//! (the white king in the triangle a1–d1–d4 and, with it on the long diagonal, the black king
//! on or below it: the 462 pairs of the literature), kings never on one square nor adjacent;
//! then `squares`, each other man's square as one digit of a number, first man most
//! significant, men in the order white Q, R, B, N then black q, r, b, n, a digit its square
//! 0..64 in shakmaty's order (a1 = 0, h8 = 63); `span` is 64 for each man; `side` 0 for white
//! to move.
//!
//! A material with pawns has a tier for each placement of its pawns (`pawn_placements`), so
//! that every pawn move, like a capture or a promotion, leaves its tier: what a distance to
//! zeroing needs, whose count a pawn move resets. Only the mirror of files keeps pawns' moves,
//! and the pawns choose it: a placement is canonical where its number is at most its mirror's.
//! Its tiers come most advanced first (a pawn move advances, so it leads to a tier solved
//! before). In a tier, `(pair · span + squares) · 2 + side` as above with the pieces alone,
//! `pair` numbering all 3,612 king pairs, or, where the pawns are their own mirror, the 1,806
//! with the white king on files a–d. With pawns of both sides the en passant positions follow:
//! `((pair · span + squares) · width + e) · 2 + side`, `e` numbering the files where the side
//! to move's enemy has a pawn on its fourth rank beside a pawn of the side to move (see
//! `PawnPlacement::ep_files`).
//!
//! Indices where two men share a square, where men of one kind are not in increasing order of
//! square, or that name no en passant file are no positions (marked so).

/// Roles of the men besides the kings, in index order.
pub(crate) const ROLES: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];

/// How many men of each role (in [`ROLES`] order) each side has, white first; kings are
/// implied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Material(pub [[u8; 5]; 2]);

impl Material {
    /// Reads `KRk`, `KQkr`, `KRPkr`: white's men upper case starting with its king, then
    /// black's lower case starting with its king.
    pub(crate) fn parse(text: &str) -> Option<Material> {
        let mut counts = [[0u8; 5]; 2];
        let mut kings = [0; 2];
        let mut side = 0;
        for ch in text.chars() {
            let colour = if ch.is_ascii_uppercase() { 0 } else { 1 };
            if colour < side {
                return None;
            }
            side = colour;
            let up = ch.to_ascii_uppercase();
            if up == 'K' {
                if kings[colour] > 0 {
                    return None;
                }
                kings[colour] += 1;
                continue;
            }
            if kings[colour] == 0 {
                return None;
            }
            let r = ROLES.iter().position(|&c| c == up)?;
            counts[colour][r] += 1;
        }
        (kings == [1, 1]).then_some(Material(counts))
    }

    /// `KRk` as [`parse`](Material::parse) reads it, men in index order.
    pub(crate) fn name(&self) -> String {
        let mut s = String::new();
        for colour in 0..2 {
            s.push(if colour == 0 { 'K' } else { 'k' });
            for (r, &role) in ROLES.iter().enumerate() {
                for _ in 0..self.0[colour][r] {
                    s.push(if colour == 0 {
                        role
                    } else {
                        role.to_ascii_lowercase()
                    });
                }
            }
        }
        s
    }

    /// Men besides the kings.
    pub(crate) fn others(&self) -> usize {
        self.0.iter().flatten().map(|&c| c as usize).sum()
    }

    /// Pawns of both sides.
    pub(crate) fn pawns(&self) -> usize {
        (self.0[0][4] + self.0[1][4]) as usize
    }

    /// The order of tiers: fewer men first, then fewer pawns (a capture takes a man, a
    /// promotion a pawn, so every move leaves a material in its tier or a lower one).
    fn key(&self) -> (usize, usize, Material) {
        (self.others(), self.pawns(), *self)
    }

    /// The materials one capture or one promotion makes from this one.
    fn next(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for colour in 0..2 {
            for r in 0..5 {
                if self.0[colour][r] == 0 {
                    continue;
                }
                let mut taken = *self;
                taken.0[colour][r] -= 1;
                out.push(taken);
                if r == 4 {
                    for promoted in 0..4 {
                        let mut m = taken;
                        m.0[colour][promoted] += 1;
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// This material and every one captures and promotions reach from it, lowest tier first.
    pub(crate) fn closure(&self) -> Vec<Material> {
        let mut all = vec![*self];
        let mut i = 0;
        while i < all.len() {
            for m in all[i].next() {
                if !all.contains(&m) {
                    all.push(m);
                }
            }
            i += 1;
        }
        all.sort_by_key(|m| m.key());
        all
    }

    /// The squares of the men besides the kings, in index order, as (colour, role) pairs.
    pub(crate) fn men(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for colour in 0..2 {
            for r in 0..5 {
                for _ in 0..self.0[colour][r] {
                    out.push((colour, r));
                }
            }
        }
        out
    }
}

/// A square after symmetry `t`: bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps files
/// and ranks (after the mirrors).
#[inline]
pub(crate) fn transform(t: usize, sq: usize) -> usize {
    TRANSFORMS[t][sq] as usize
}

/// [`transform`] of every symmetry and square, read for every man of every child and un-move.
static TRANSFORMS: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut sq = 0;
        while sq < 64 {
            table[t][sq] = transformed(t, sq) as u8;
            sq += 1;
        }
        t += 1;
    }
    table
};

const fn transformed(t: usize, sq: usize) -> usize {
    let (mut f, mut r) = (sq & 7, sq >> 3);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        (f, r) = (r, f);
    }
    r * 8 + f
}

/// How many squares a man of `kind` (`colour · 5 + role`, in index order) may stand on: a
/// pawn 48, never on the first or last rank, another man 64.
#[inline]
pub(crate) fn radix(kind: usize) -> u64 {
    if kind % 5 == 4 {
        48
    } else {
        64
    }
}

/// The squares part of an index from the keys of the men besides the kings, each `kind · 64 +
/// square` (kind `colour · 5 + role` in index order): sorted, the men come in index order and
/// men of one kind by increasing square; then one number of a digit a man (its square, a
/// pawn's less 8), first man most significant. A pawn on the first or last rank has no digit:
/// callers never pass one.
#[inline]
pub(crate) fn fold_squares(keys: &mut [u16]) -> u64 {
    // An insertion sort: a handful of keys, where the library's sort costs more in its calls.
    for i in 1..keys.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] > keys[j] {
            keys.swap(j - 1, j);
            j -= 1;
        }
    }
    keys.iter().fold(0u64, |acc, &k| {
        let (kind, sq) = ((k / 64) as usize, (k % 64) as u64);
        if kind % 5 == 4 {
            debug_assert!((8..56).contains(&sq), "a pawn on square {sq}");
            acc * 48 + sq - 8
        } else {
            acc * 64 + sq
        }
    })
}

/// The squares of `men` (kinds in index order) read from the squares part of an index, the
/// inverse of [`fold_squares`], into `at`.
#[inline]
pub(crate) fn unfold_squares(men: &[(usize, usize)], mut squares: u64, at: &mut [usize]) {
    for k in (0..men.len()).rev() {
        if men[k].1 == 4 {
            at[k] = (squares % 48) as usize + 8;
            squares /= 48;
        } else {
            // A shift, where a division by a digit not known here took a tenth of a decode.
            at[k] = (squares & 63) as usize;
            squares >>= 6;
        }
    }
}

/// 64 for each piece of `men` times 48 for each pawn: how many numbers their squares take.
pub(crate) fn span(men: &[(usize, usize)]) -> u64 {
    men.iter().map(|&(c, r)| radix(c * 5 + r)).product()
}

/// A placement of a material's pawns: one tier of its index.
pub(crate) struct PawnPlacement {
    /// The pawns' squares in index order (white's rising, then black's rising).
    pub squares: Vec<u8>,
    /// The number of the placement: each pawn's square less 8 as a digit of 48, in index order.
    pub number: u64,
    /// Whether the mirror of files leaves the pawns where they are.
    pub symmetric: bool,
    /// For each side to move, the files where the other side has a pawn on its fourth rank
    /// beside a pawn of the side to move: where a double push may just have crossed an en
    /// passant square.
    pub ep_files: [Vec<u8>; 2],
}

/// The number of a placement of pawns (kind `colour · 5 + 4`, square) and its mirror's: what
/// [`pawn_placements`] numbers placements by.
pub(crate) fn pawn_numbers(pawns: &[(usize, usize)]) -> (u64, u64) {
    let mut keys = [0u16; 8];
    let mut mirror = [0u16; 8];
    for (k, &(kind, sq)) in pawns.iter().enumerate() {
        keys[k] = (kind * 64 + sq) as u16;
        mirror[k] = (kind * 64 + transform(1, sq)) as u16;
    }
    let n = pawns.len();
    (fold_squares(&mut keys[..n]), fold_squares(&mut mirror[..n]))
}

/// How far the pawns have come: the ranks white's have climbed and black's have come down.
/// Every pawn move adds to it.
fn advancement(pawns: &[(usize, usize)]) -> usize {
    pawns
        .iter()
        .map(|&(kind, sq)| if kind == 4 { sq / 8 } else { 7 - sq / 8 })
        .sum()
}

/// The canonical placements of the pawns of `men` (kinds in index order; its pawns, white's
/// then black's, kind `colour · 5 + 4`): pawns on distinct squares of the second to seventh
/// ranks, each placement whose number is at most its mirror's, most advanced first (then by
/// number).
pub(crate) fn pawn_placements(men: &[(usize, usize)]) -> Vec<PawnPlacement> {
    let kinds: Vec<usize> = men
        .iter()
        .filter(|m| m.1 == 4)
        .map(|&(c, r)| c * 5 + r)
        .collect();
    let n = kinds.len();
    let mut out = Vec::new();
    'each: for number in 0..48u64.pow(n as u32) {
        let mut pawns = [(0usize, 0usize); 8];
        let mut rest = number;
        for k in (0..n).rev() {
            pawns[k] = (kinds[k], (rest % 48) as usize + 8);
            rest /= 48;
        }
        let pawns = &pawns[..n];
        for k in 0..n {
            let same_kind_before = k > 0 && pawns[k - 1].0 == pawns[k].0;
            if same_kind_before && pawns[k - 1].1 >= pawns[k].1
                || pawns[..k].iter().any(|p| p.1 == pawns[k].1)
            {
                continue 'each;
            }
        }
        let (number, mirrored) = pawn_numbers(pawns);
        if number > mirrored {
            continue;
        }
        let ep_files = [0, 1].map(|side: usize| {
            // The other side's pawns on their fourth rank, beside one of `side`'s.
            let fourth = if side == 0 { 32..40 } else { 24..32 };
            let mut files: Vec<u8> = pawns
                .iter()
                .filter(|&&(kind, sq)| {
                    kind == (1 - side) * 5 + 4
                        && fourth.contains(&sq)
                        && pawns.iter().any(|&(k, s)| {
                            k == side * 5 + 4 && s / 8 == sq / 8 && s.abs_diff(sq) == 1
                        })
                })
                .map(|&(_, sq)| (sq % 8) as u8)
                .collect();
            files.sort_unstable();
            files
        });
        out.push((
            advancement(pawns),
            PawnPlacement {
                squares: pawns.iter().map(|p| p.1 as u8).collect(),
                number,
                symmetric: number == mirrored,
                ep_files,
            },
        ));
    }
    out.sort_by_key(|(a, p)| (std::cmp::Reverse(*a), p.number));
    out.into_iter().map(|(_, p)| p).collect()
}

fn adjacent_or_same(a: usize, b: usize) -> bool {
    let (fa, ra, fb, rb) = (a & 7, a >> 3, b & 7, b >> 3);
    fa.abs_diff(fb) <= 1 && ra.abs_diff(rb) <= 1
}

/// The canonical king pairs of one kind of symmetry.
pub(crate) struct KingPairs {
    /// The pair number of `wk · 64 + bk`, `u16::MAX` for a pair that is not canonical.
    pub number: Vec<u16>,
    /// The squares of each pair.
    pub pairs: Vec<(u8, u8)>,
    /// [`canonical`](KingPairs::canonical) of `wk · 64 + bk`, as `symmetry << 16 | pair`,
    /// `u32::MAX` where the kings are adjacent: asked for every child and un-move.
    canon: Vec<u32>,
}

impl KingPairs {
    /// The pairs under eight symmetries (without pawns), under the mirror of files (pawns that
    /// are their own mirror) or under none (1).
    pub(crate) fn new(symmetries: usize) -> KingPairs {
        let mut number = vec![u16::MAX; 64 * 64];
        let mut pairs = Vec::new();
        for wk in 0..64 {
            let (f, r) = (wk & 7, wk >> 3);
            let fits = match symmetries {
                8 => f < 4 && r <= f,
                2 => f < 4,
                _ => true,
            };
            if !fits {
                continue;
            }
            for bk in 0..64 {
                if adjacent_or_same(wk, bk) {
                    continue;
                }
                if symmetries == 8 && r == f && (bk >> 3) > (bk & 7) {
                    continue;
                }
                number[wk * 64 + bk] = pairs.len() as u16;
                pairs.push((wk as u8, bk as u8));
            }
        }
        let mut kings = KingPairs {
            number,
            pairs,
            canon: Vec::new(),
        };
        kings.canon = (0..64 * 64)
            .map(|k| {
                let (wk, bk) = (k / 64, k % 64);
                (0..symmetries)
                    .find_map(|t| Some((t as u32) << 16 | kings.pair(t, wk, bk)?))
                    .unwrap_or(u32::MAX)
            })
            .collect();
        kings
    }

    /// The first symmetry (identity first) that makes the kings canonical and their pair
    /// number; `None` when the kings are adjacent or on one square.
    #[inline]
    pub(crate) fn canonical(&self, wk: usize, bk: usize) -> Option<(usize, u32)> {
        let c = self.canon[wk * 64 + bk];
        (c != u32::MAX).then_some(((c >> 16) as usize, c & 0xffff))
    }

    /// The number of the kings' pair after symmetry `t`, `None` where that is no canonical
    /// pair.
    #[inline]
    pub(crate) fn pair(&self, t: usize, wk: usize, bk: usize) -> Option<u32> {
        let n = self.number[transform(t, wk) * 64 + transform(t, bk)];
        (n != u16::MAX).then_some(n as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literature_counts_462_king_pairs_without_pawns() {
        assert_eq!(KingPairs::new(8).pairs.len(), 462);
        // Under the mirror: 32 squares of the white king, each with the squares not next to
        // it; under none, twice as many.
        assert_eq!(KingPairs::new(2).pairs.len(), 1806);
        assert_eq!(KingPairs::new(1).pairs.len(), 3612);
    }

    #[test]
    fn materials_read_back_and_reach_their_sub_endings() {
        let m = Material::parse("KPk").unwrap();
        assert_eq!(m.name(), "KPk");
        let names: Vec<String> = m.closure().iter().map(|m| m.name()).collect();
        assert_eq!(names, ["Kk", "KNk", "KBk", "KRk", "KQk", "KPk"]);
        for bad in ["", "Kk k", "kK", "KRkK", "Rk", "KXk", "KRkrK"] {
            assert!(Material::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn pawn_placements_are_counted_under_the_mirror() {
        let count = |men: &str| pawn_placements(&Material::parse(men).unwrap().men()).len();
        // One pawn: half of 48 squares. Two white pawns: 1,128 pairs, the 24 on mirrored
        // squares their own mirror, the rest in twos. A pawn each: 48 · 47, in twos.
        assert_eq!(count("KPk"), 24);
        assert_eq!(count("KPPk"), (1128 - 24) / 2 + 24);
        assert_eq!(count("KPkp"), 48 * 47 / 2);
        assert_eq!(count("KRk"), 1);
        let all = pawn_placements(&Material::parse("KPkp").unwrap().men());
        // Most advanced first: a white pawn on the seventh rank, a black one on the second.
        assert_eq!(all[0].squares[0] / 8, 6);
        assert_eq!(all[0].squares[1] / 8, 1);
        // White to move has an en passant file where a black pawn stands on the fifth rank
        // beside a white pawn: d5 and e5 (the mirror of e5 and d5).
        let d5e5 = all.iter().find(|p| p.squares == [35, 36]).unwrap();
        assert_eq!(d5e5.ep_files, [vec![4], vec![]]);
        assert!(!all.iter().any(|p| p.squares == [36, 35]));
    }

    #[test]
    fn symmetries_are_permutations() {
        for t in 0..8 {
            let mut seen: Vec<usize> = (0..64).map(|s| transform(t, s)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..64).collect::<Vec<_>>());
        }
    }
}
