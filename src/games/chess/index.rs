//! The index of a chess table: the materials (the ending asked for and every sub-ending a
//! capture or a promotion reaches), each a tier, and within a tier the placements of the men
//! with the board's symmetries.
//!
//! A material's index is `(pair · span + squares) · 2 + side`: `pair` numbers the placements
//! of the two kings that are canonical under the symmetries the material keeps (the eight of
//! the square without pawns: the white king in the triangle a1–d1–d4 and, with it on the long
//! diagonal, the black king on or below it, the 462 pairs of the literature; with pawns the
//! left-right mirror alone: the white king on files a–d), kings never on one square nor
//! adjacent; then `squares`, each other man's square as one digit of a number, first man most
//! significant, men in the order white Q, R, B, N, P then black q, r, b, n, p: a piece's
//! digit is its square 0..64 in shakmaty's order (a1 = 0, h8 = 63), a pawn's its square less
//! 8, 0..48 (a pawn never stands on the first or last rank); `span` is 64 for each piece
//! times 48 for each pawn; `side` 0 for white to move. Indices where two men share a square
//! or where men of one kind are not in increasing order of square are no positions (marked
//! so).

/// Roles of the men besides the kings, in index order.
pub const ROLES: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];

/// How many men of each role (in [`ROLES`] order) each side has, white first; kings are
/// implied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material(pub [[u8; 5]; 2]);

impl Material {
    /// Reads `KRk`, `KQkr`, `KRPkr`: white's men upper case starting with its king, then
    /// black's lower case starting with its king.
    pub fn parse(text: &str) -> Option<Material> {
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
    pub fn name(&self) -> String {
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
    pub fn others(&self) -> usize {
        self.0.iter().flatten().map(|&c| c as usize).sum()
    }

    /// Pawns of both sides.
    pub fn pawns(&self) -> usize {
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
    pub fn closure(&self) -> Vec<Material> {
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
    pub fn men(&self) -> Vec<(usize, usize)> {
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
pub fn transform(t: usize, sq: usize) -> usize {
    let (mut f, mut r) = (sq & 7, sq >> 3);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    r * 8 + f
}

/// How many squares a man of `kind` (`colour · 5 + role`, in index order) may stand on: a
/// pawn 48, never on the first or last rank, another man 64.
#[inline]
pub fn radix(kind: usize) -> u64 {
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
pub fn fold_squares(keys: &mut [u16]) -> u64 {
    keys.sort_unstable();
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
pub fn unfold_squares(men: &[(usize, usize)], mut squares: u64, at: &mut [usize]) {
    for k in (0..men.len()).rev() {
        let kind = men[k].0 * 5 + men[k].1;
        let radix = radix(kind);
        at[k] = (squares % radix) as usize + if radix == 48 { 8 } else { 0 };
        squares /= radix;
    }
}

/// 64 for each piece of `men` times 48 for each pawn: the squares parts of a king pair.
pub fn span(men: &[(usize, usize)]) -> u64 {
    men.iter().map(|&(c, r)| radix(c * 5 + r)).product()
}

fn adjacent_or_same(a: usize, b: usize) -> bool {
    let (fa, ra, fb, rb) = (a & 7, a >> 3, b & 7, b >> 3);
    fa.abs_diff(fb) <= 1 && ra.abs_diff(rb) <= 1
}

/// The canonical king pairs of one kind of symmetry.
pub struct KingPairs {
    /// The symmetries tried, identity first.
    pub symmetries: usize,
    /// The pair number of `wk · 64 + bk`, `u16::MAX` for a pair that is not canonical.
    pub number: Vec<u16>,
    /// The squares of each pair.
    pub pairs: Vec<(u8, u8)>,
}

impl KingPairs {
    /// The pairs without pawns (eight symmetries) or with them (the mirror alone).
    pub fn new(pawns: bool) -> KingPairs {
        let mut number = vec![u16::MAX; 64 * 64];
        let mut pairs = Vec::new();
        for wk in 0..64 {
            let (f, r) = (wk & 7, wk >> 3);
            let fits = if pawns { f < 4 } else { f < 4 && r <= f };
            if !fits {
                continue;
            }
            for bk in 0..64 {
                if adjacent_or_same(wk, bk) {
                    continue;
                }
                if !pawns && r == f && (bk >> 3) > (bk & 7) {
                    continue;
                }
                number[wk * 64 + bk] = pairs.len() as u16;
                pairs.push((wk as u8, bk as u8));
            }
        }
        KingPairs {
            symmetries: if pawns { 2 } else { 8 },
            number,
            pairs,
        }
    }

    /// The first symmetry (identity first) that makes the kings canonical and their pair
    /// number; `None` when the kings are adjacent or on one square.
    #[inline]
    pub fn canonical(&self, wk: usize, bk: usize) -> Option<(usize, u32)> {
        (0..self.symmetries).find_map(|t| {
            let n = self.number[transform(t, wk) * 64 + transform(t, bk)];
            (n != u16::MAX).then_some((t, n as u32))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literature_counts_462_king_pairs_without_pawns() {
        assert_eq!(KingPairs::new(false).pairs.len(), 462);
        // With pawns: 32 squares of the white king, each with the squares not next to it.
        assert_eq!(KingPairs::new(true).pairs.len(), 1806);
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
    fn symmetries_are_permutations() {
        for t in 0..8 {
            let mut seen: Vec<usize> = (0..64).map(|s| transform(t, s)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..64).collect::<Vec<_>>());
        }
    }
}
