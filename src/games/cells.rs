//! Boards of cells that are empty or hold a mark of one of two sides, numbered densely by the
//! count of each side's marks: the index of the placement games (m,n,k-games) and of every
//! game whose tiers are counts of men (Quixo, the mill games).
//!
//! A *class* is a count of `x` marks and of `o` marks; within a class a board is ranked by the
//! set of occupied cells (combinatorial number system) and, among those, the set of `o`
//! cells: `rank = occupied · C(x + o, o) + os`, so a class of `a` x and `b` o on `n` cells has
//! `C(n, a + b) · C(a + b, b)` boards and every index is a board of its class.

use crate::game::binomial;

/// The cell values.
pub(crate) const EMPTY: u32 = 0;
/// A mark of the side that moves first.
pub(crate) const X: u32 = 1;
/// A mark of the other side.
pub(crate) const O: u32 = 2;

mod text;

pub(crate) use text::{board_cells, grid_board, read_rows};

/// Ranks boards of `cells` cells within classes (counts of x and o).
#[derive(Clone, Debug)]
pub(crate) struct Cells {
    cells: usize,
    /// C(n, k) for n, k ≤ 40 at `n * 41 + k` (0 for k > n).
    choose: Box<[u64; 41 * 41]>,
    /// The rank terms of the cells of one byte of a set, given how many cells of the set come
    /// before that byte: at `starts[j] + p * (8j + 1) + before`, the sum of C(8j + b, before +
    /// t + 1) over the set bits b of the pattern p (the t-th from 0). A lookup takes a rank
    /// through a byte at once instead of a cell at a time (a lookup's rank is most of its
    /// time).
    bytes: Box<[u64]>,
    starts: Box<[usize]>,
    /// Whether the processor compresses bits in one instruction (BMI2's `pext`).
    pext: bool,
    /// For boards of at most [`LISTED`] cells, every set of cells of each size in rank order:
    /// the set of `k` cells of rank `r` at `sets[set_starts[k] + r]`. Unranking is then a
    /// lookup where it was a walk down the cells (a sixth of a Quixo 4×4 solve, which unranks
    /// every index to find the boards it folds).
    sets: Box<[u16]>,
    set_starts: Box<[usize]>,
}

/// The most cells [`Cells`] lists every set of (65,536 sets of two bytes).
const LISTED: usize = 16;

impl Cells {
    /// Boards of `cells` cells (at most 40, so that every rank fits 64 bits).
    pub(crate) fn new(cells: usize) -> Cells {
        assert!(cells <= 40, "{cells} cells");
        let mut choose = Box::new([0u64; 41 * 41]);
        for n in 0..=40u64 {
            for k in 0..=n {
                choose[(n * 41 + k) as usize] = binomial(n, k).expect("C(40, k) fits 64 bits");
            }
        }
        let c = |n: usize, k: usize| choose[n * 41 + k];
        let (mut bytes, mut starts) = (Vec::new(), Vec::new());
        for j in 0..cells.div_ceil(8) {
            starts.push(bytes.len());
            for p in 0..256usize {
                for before in 0..=8 * j {
                    let mut sum = 0;
                    let mut t = 0;
                    for b in (0..8).filter(|b| p >> b & 1 == 1) {
                        t += 1;
                        if 8 * j + b < cells {
                            sum += c(8 * j + b, before + t);
                        }
                    }
                    bytes.push(sum);
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        let pext = std::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        let mut cells = Cells {
            cells,
            choose,
            bytes: bytes.into(),
            starts: starts.into(),
            pext,
            sets: Box::new([]),
            set_starts: Box::new([]),
        };
        if cells.cells <= LISTED {
            let n = cells.cells;
            let mut set_starts = vec![0usize; n + 2];
            for k in 0..=n {
                set_starts[k + 1] = set_starts[k] + cells.c(n, k) as usize;
            }
            let mut sets = vec![0u16; 1 << n];
            for set in 0..1u64 << n {
                let k = set.count_ones() as usize;
                sets[set_starts[k] + cells.rank_set(set) as usize] = set as u16;
            }
            cells.sets = sets.into();
            cells.set_starts = set_starts.into();
        }
        cells
    }

    /// The bits of `bits`, low first, put at the set bits of `mask` (the inverse of
    /// [`compress`](Cells::compress)).
    #[inline]
    fn deposit(&self, bits: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the processor has BMI2 (pdep comes with pext), checked in `new`.
            return unsafe { pdep(bits, mask) };
        }
        let (mut out, mut i, mut rest) = (0, 0, mask);
        while rest != 0 {
            let c = rest.trailing_zeros();
            out |= (bits >> i & 1) << c;
            i += 1;
            rest &= rest - 1;
        }
        out
    }

    /// The rank of a set of cells among the sets of its size (combinatorial number system):
    /// the sum of C(c, t) over its cells c, the t-th from 1.
    #[inline]
    fn rank_set(&self, mut set: u64) -> u64 {
        let (mut sum, mut before) = (0, 0);
        for (j, &start) in self.starts.iter().enumerate() {
            let p = (set & 0xff) as usize;
            sum += self.bytes[start + p * (8 * j + 1) + before];
            before += p.count_ones() as usize;
            set >>= 8;
        }
        sum
    }

    /// The bits of `of` at the set bits of `mask`, packed to the low end.
    #[inline]
    fn compress(&self, of: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the processor has BMI2, checked when the ranking was made.
            return unsafe { pext(of, mask) };
        }
        let (mut out, mut i, mut rest) = (0, 0, mask);
        while rest != 0 {
            let c = rest.trailing_zeros();
            out |= (of >> c & 1) << i;
            i += 1;
            rest &= rest - 1;
        }
        out
    }

    /// C(n, k).
    #[inline(always)]
    fn c(&self, n: usize, k: usize) -> u64 {
        self.choose[n * 41 + k]
    }

    /// Number of cells.
    pub(crate) fn len(&self) -> usize {
        self.cells
    }

    /// Boards with `x` x marks and `o` o marks.
    pub(crate) fn class_size(&self, x: usize, o: usize) -> u64 {
        if x + o > self.cells {
            return 0;
        }
        self.c(self.cells, x + o) * self.c(x + o, o)
    }

    /// The rank of a board within its class (the class is its counts of x and o).
    #[cfg(test)]
    pub(crate) fn rank(&self, board: &[u32]) -> u64 {
        let (x, o) = Cells::bits(board);
        self.rank_bits(x, o)
    }

    /// The board of class (`x`, `o`) at `rank` (below [`class_size`](Cells::class_size)).
    pub(crate) fn unrank(&self, x: usize, o: usize, rank: u64, board: &mut Vec<u32>) {
        let (xb, ob) = self.unrank_bits(x, o, rank);
        board.clear();
        self.extend_board(xb, ob, board);
    }

    /// Appends the cells of the board with x on the cells of mask `x` and o on those of `o`.
    pub(crate) fn extend_board(&self, x: u64, o: u64, board: &mut Vec<u32>) {
        board.extend((0..self.cells).map(|c| match (x >> c & 1, o >> c & 1) {
            (1, _) => X,
            (_, 1) => O,
            _ => EMPTY,
        }));
    }

    /// The masks of x and of o on a board (bit `c` for cell `c`).
    pub(crate) fn bits(board: &[u32]) -> (u64, u64) {
        // Without branches: the marks of a board are as good as random, and a mispredicted
        // branch a cell was most of a lookup's time.
        board.iter().enumerate().fold((0, 0), |(x, o), (c, &v)| {
            (x | u64::from(v == X) << c, o | u64::from(v == O) << c)
        })
    }

    /// The rank of a board given as bit masks (bit `c` set: cell `c` holds that
    /// side's mark): the solvers' fast path, no board built.
    #[inline]
    pub(crate) fn rank_bits(&self, x: u64, o: u64) -> u64 {
        let occupied = x | o;
        let (k, l) = (occupied.count_ones() as usize, o.count_ones() as usize);
        // The o cells ranked among the occupied ones: the same sum over the o marks, each at
        // its place among the occupied cells.
        self.rank_set(occupied) * self.c(k, l) + self.rank_set(self.compress(o, occupied))
    }

    /// [`unrank`](Cells::unrank) into bit masks `(x, o)`.
    #[inline]
    pub(crate) fn unrank_bits(&self, x: usize, o: usize, rank: u64) -> (u64, u64) {
        let k = x + o;
        let per = self.c(k, o);
        let (mut occupied, mut os) = (rank / per, rank % per);
        if !self.sets.is_empty() {
            // The o cells' rank among the occupied is the rank of a set of cells below k, and
            // the sets below k come first among the sets of their size (the order of ranks).
            let all = u64::from(self.sets[self.set_starts[k] + occupied as usize]);
            let among = u64::from(self.sets[self.set_starts[o] + os as usize]);
            let obits = self.deposit(among, all);
            return (all & !obits, obits);
        }
        let mut cells = [0u8; 40];
        let mut c = self.cells;
        for i in (1..=k).rev() {
            c -= 1;
            while self.c(c, i) > occupied {
                c -= 1;
            }
            occupied -= self.c(c, i);
            cells[i - 1] = c as u8;
        }
        let mut all = 0u64;
        for &c in &cells[..k] {
            all |= 1 << c;
        }
        let mut obits = 0u64;
        let mut j = k;
        for l in (1..=o).rev() {
            j -= 1;
            while self.c(j, l) > os {
                j -= 1;
            }
            os -= self.c(j, l);
            obits |= 1 << cells[j];
        }
        (all & !obits, obits)
    }

    /// Counts of x and o on a board.
    pub(crate) fn counts(board: &[u32]) -> (usize, usize) {
        board.iter().fold((0, 0), |(x, o), &v| match v {
            X => (x + 1, o),
            O => (x, o + 1),
            _ => (x, o),
        })
    }
}

/// Permutations of the cells that map a game to itself (a square's rotations and reflections,
/// the mill board's), applied to masks of cells a byte at a time: what a game that folds
/// symmetric positions needs to name a class by one board.
#[derive(Clone, Debug)]
pub(crate) struct Symmetries {
    /// Symmetries other than the identity.
    count: usize,
    /// Bytes of a mask.
    bytes: usize,
    /// The image of byte pattern `p` at byte `j` under symmetry `s`, at
    /// `(s * bytes + j) * 256 + p`.
    tables: Box<[u64]>,
    /// Whether these are the 4×4 square's, which [`least`](Symmetries::least) takes by
    /// shifts and masks on both masks at once (the table lookups were a third of a Quixo 4×4
    /// solve).
    square4: bool,
    /// For boards of nested squares (the mill boards), the cells a ring at a time, where
    /// [`least`](Symmetries::least) takes shifts and masks too (the lookups were two fifths of
    /// a Five Men's Morris solve).
    rings: Option<Rings>,
}

/// Cells on nested rings of 8 (a square's corners and midpoints, rings aligned), each ring a
/// byte in order round the square from a corner: the square's quarter turns are then rotations
/// of each byte by two, a reflection a reversal of each byte, and swapping the inner and the
/// outer square a swap of bytes.
#[derive(Clone, Debug)]
struct Rings {
    /// How many rings: 2 or 3.
    count: usize,
    /// The ring bits of the cells of byte pattern `p` at byte `j` of a mask, at `j * 256 + p`.
    to: Box<[u64]>,
    /// The cells of ring byte pattern `p` of ring `r`, at `r * 256 + p`.
    from: Box<[u64]>,
}

impl Rings {
    /// The rings of `cells` cells given in order round each ring (inner first), when every cell
    /// is on one.
    fn new(cells: usize, orders: &[[usize; 8]]) -> Option<Rings> {
        let mut ring_of = vec![None; cells];
        for (r, order) in orders.iter().enumerate() {
            for (i, &c) in order.iter().enumerate() {
                if c >= cells || ring_of[c].is_some() {
                    return None;
                }
                ring_of[c] = Some(8 * r + i);
            }
        }
        if !(2..=3).contains(&orders.len()) || ring_of.iter().any(Option::is_none) {
            return None;
        }
        let bytes = cells.div_ceil(8);
        let mut to = vec![0u64; bytes * 256];
        for j in 0..bytes {
            for p in 0..256usize {
                to[j * 256 + p] = (0..8)
                    .filter(|b| p >> b & 1 == 1 && 8 * j + b < cells)
                    .fold(0, |m, b| m | 1 << ring_of[8 * j + b].expect("every cell"));
            }
        }
        let mut from = vec![0u64; orders.len() * 256];
        for (r, order) in orders.iter().enumerate() {
            for p in 0..256usize {
                from[r * 256 + p] = (0..8)
                    .filter(|i| p >> i & 1 == 1)
                    .fold(0, |m, i| m | 1 << order[i]);
            }
        }
        Some(Rings {
            count: orders.len(),
            to: to.into(),
            from: from.into(),
        })
    }

    #[inline]
    fn rings_of(&self, mut m: u64) -> u64 {
        let mut out = 0;
        for j in 0..self.to.len() / 256 {
            out |= self.to[j * 256 + (m & 0xff) as usize];
            m >>= 8;
        }
        out
    }

    #[inline]
    fn cells_of(&self, mut m: u64) -> u64 {
        let mut out = 0;
        for r in 0..self.count {
            out |= self.from[r * 256 + (m & 0xff) as usize];
            m >>= 8;
        }
        out
    }

    /// A quarter turn of every ring of `k` (x's rings in its low half, o's in its high half).
    #[inline]
    fn turn(k: u64) -> u64 {
        ((k << 2) & 0xfcfc_fcfc_fcfc_fcfc) | ((k >> 6) & 0x0303_0303_0303_0303)
    }

    /// The reflection through the first corner's diagonal: place `i` of a ring to `8 - i`.
    #[inline]
    fn reflect(k: u64) -> u64 {
        let swap = |k: u64, mask: u64, shift: u32| ((k >> shift) & mask) | ((k & mask) << shift);
        let k = swap(k, 0x5555_5555_5555_5555, 1);
        let k = swap(k, 0x3333_3333_3333_3333, 2);
        let k = swap(k, 0x0f0f_0f0f_0f0f_0f0f, 4);
        ((k << 1) & 0xfefe_fefe_fefe_fefe) | ((k >> 7) & 0x0101_0101_0101_0101)
    }

    /// The inner ring and the outer one swapped (the middle one of three kept).
    #[inline]
    fn swap(&self, k: u64) -> u64 {
        let first = 0x0000_00ff_0000_00ffu64;
        let shift = 8 * (self.count as u32 - 1);
        let kept = if self.count == 3 { k & first << 8 } else { 0 };
        ((k & first) << shift) | ((k >> shift) & first) | kept
    }

    /// The 16 images of `k`, by swap, reflection and turns, to `f`.
    #[inline]
    fn each(&self, k: u64, mut f: impl FnMut(u64)) {
        for s in [k, self.swap(k)] {
            let (mut a, mut b) = (s, Rings::reflect(s));
            for _ in 0..4 {
                f(a);
                f(b);
                a = Rings::turn(a);
                b = Rings::turn(b);
            }
        }
    }

    /// Whether no image of `(x, o)` is less than it: [`least`](Rings::least) of it is
    /// itself. Most boards are not, and an image less than them comes soon.
    #[inline]
    fn is_least(&self, x: u64, o: u64) -> bool {
        let k = self.rings_of(x) | self.rings_of(o) << 32;
        for s in [k, self.swap(k)] {
            let (mut a, mut b) = (s, Rings::reflect(s));
            for _ in 0..4 {
                if a < k || b < k {
                    return false;
                }
                a = Rings::turn(a);
                b = Rings::turn(b);
            }
        }
        true
    }

    /// Calls `f` once with each image of `(x, o)` other than itself. A board that no symmetry
    /// but the identity keeps (almost every board) has 16 different images, so only the others
    /// need the search for repeats.
    #[inline]
    fn images(&self, x: u64, o: u64, mut f: impl FnMut(u64, u64)) {
        let k = self.rings_of(x) | self.rings_of(o) << 32;
        let mut all = [k; 16];
        let mut n = 0;
        self.each(k, |i| {
            all[n] = i;
            n += 1;
        });
        let free = !all[1..].contains(&k);
        for (j, &i) in all.iter().enumerate().skip(1) {
            if free || (i != k && !all[..j].contains(&i)) {
                f(self.cells_of(i & 0xffff_ffff), self.cells_of(i >> 32));
            }
        }
    }

    #[inline]
    fn least(&self, x: u64, o: u64) -> (u64, u64) {
        let k = self.rings_of(x) | self.rings_of(o) << 32;
        let mut best = u64::MAX;
        self.each(k, |i| best = best.min(i));
        (self.cells_of(best & 0xffff_ffff), self.cells_of(best >> 32))
    }

    /// The maps of cells the 16 images make (the first being the identity).
    fn maps(&self, cells: usize) -> Vec<Vec<usize>> {
        let images: Vec<Vec<usize>> = (0..cells)
            .map(|c| {
                let mut to = Vec::with_capacity(16);
                self.each(self.rings_of(1 << c), |i| {
                    to.push(self.cells_of(i).trailing_zeros() as usize)
                });
                to
            })
            .collect();
        (0..16)
            .map(|n| images.iter().map(|to| to[n]).collect())
            .collect()
    }
}

impl Symmetries {
    /// The symmetries of `cells` cells given as maps of cells (`map[c]` is where cell `c`
    /// goes), the identity left out (at most 63 of them).
    pub(crate) fn new(cells: usize, maps: &[Vec<usize>]) -> Symmetries {
        assert!(maps.len() < 64, "{} symmetries", maps.len());
        let bytes = cells.div_ceil(8).max(1);
        let mut tables = vec![0u64; maps.len() * bytes * 256];
        for (s, map) in maps.iter().enumerate() {
            for j in 0..bytes {
                for p in 0..256usize {
                    tables[(s * bytes + j) * 256 + p] = (0..8)
                        .filter(|b| p >> b & 1 == 1 && 8 * j + b < cells)
                        .fold(0, |m, b| m | 1 << map[8 * j + b]);
                }
            }
        }
        Symmetries {
            count: maps.len(),
            bytes,
            tables: tables.into(),
            square4: cells == 16 && maps == Symmetries::square(4).as_slice(),
            rings: None,
        }
    }

    /// [`new`](Symmetries::new), for cells on nested rings of 8 given in order round each ring
    /// from the same corner (inner ring first): when the rings' turns, reflections and swap make
    /// exactly `maps` (checked here, cell by cell), [`least`](Symmetries::least) takes them by
    /// shifts and masks.
    pub(crate) fn with_rings(
        cells: usize,
        maps: &[Vec<usize>],
        orders: &[[usize; 8]],
    ) -> Symmetries {
        let mut s = Symmetries::new(cells, maps);
        if let Some(rings) = Rings::new(cells, orders) {
            let mut want: Vec<Vec<usize>> = maps.to_vec();
            want.push((0..cells).collect());
            want.sort();
            want.dedup();
            let mut made = rings.maps(cells);
            made.sort();
            made.dedup();
            if made == want {
                s.rings = Some(rings);
            }
        }
        s
    }

    /// Whether [`least`](Symmetries::least) goes by rings.
    #[cfg(test)]
    pub(crate) fn by_rings(&self) -> bool {
        self.rings.is_some()
    }

    /// The 7 symmetries of an `n`×`n` grid of cells numbered row by row, other than the
    /// identity: the turns by a quarter, a half and three quarters, and the four reflections.
    pub(crate) fn square(n: usize) -> Vec<Vec<usize>> {
        let turn = |c: usize| (c % n) * n + (n - 1 - c / n);
        let mirror = |c: usize| (c / n) * n + (n - 1 - c % n);
        let mut maps = Vec::new();
        let mut m: Vec<usize> = (0..n * n).collect();
        for _ in 0..3 {
            m = m.iter().map(|&c| turn(c)).collect();
            maps.push(m.clone());
        }
        let mut r: Vec<usize> = (0..n * n).map(mirror).collect();
        for _ in 0..4 {
            maps.push(r.clone());
            r = r.iter().map(|&c| turn(c)).collect();
        }
        maps
    }

    /// The symmetries of a grid of `rows`×`cols` cells numbered row by row, other than the
    /// identity: the square's 7, or a rectangle's 3 (each reflection and the half turn).
    pub(crate) fn grid(rows: usize, cols: usize) -> Vec<Vec<usize>> {
        if rows == cols {
            return Symmetries::square(rows);
        }
        let at = |r: usize, c: usize| r * cols + c;
        let map = |f: &dyn Fn(usize, usize) -> usize| -> Vec<usize> {
            (0..rows * cols).map(|i| f(i / cols, i % cols)).collect()
        };
        vec![
            map(&|r, c| at(r, cols - 1 - c)),
            map(&|r, c| at(rows - 1 - r, c)),
            map(&|r, c| at(rows - 1 - r, cols - 1 - c)),
        ]
    }

    /// Number of symmetries, the identity included.
    pub(crate) fn len(&self) -> usize {
        self.count + 1
    }

    /// The image of mask `m` under symmetry `s` (`0..len() - 1`, the identity left out).
    #[inline]
    pub(crate) fn apply(&self, s: usize, mut m: u64) -> u64 {
        let base = s * self.bytes * 256;
        let mut out = 0;
        for j in 0..self.bytes {
            out |= self.tables[base + j * 256 + (m & 0xff) as usize];
            m >>= 8;
        }
        out
    }

    /// The least image of the board with masks `(x, o)`, compared as the pair `(o, x)`: the
    /// board that names its class.
    #[inline]
    pub(crate) fn least(&self, x: u64, o: u64) -> (u64, u64) {
        if self.square4 {
            let k = square4_least(x as u32 | (o as u32) << 16);
            return (u64::from(k & 0xffff), u64::from(k >> 16));
        }
        if let Some(rings) = &self.rings {
            return rings.least(x, o);
        }
        // The o images first: x is mapped only where o's image ties or beats the least so far
        // (about half the lookups of mapping both).
        let (mut best_o, mut best_x) = (o, x);
        for s in 0..self.count {
            let io = self.apply(s, o);
            if io < best_o {
                best_o = io;
                best_x = self.apply(s, x);
            } else if io == best_o {
                best_x = best_x.min(self.apply(s, x));
            }
        }
        (best_x, best_o)
    }

    /// Whether `(x, o)` is the least of its images, the one [`least`](Symmetries::least)
    /// gives.
    pub(crate) fn is_least(&self, x: u64, o: u64) -> bool {
        match &self.rings {
            Some(rings) => rings.is_least(x, o),
            None => self.least(x, o) == (x, o),
        }
    }

    /// Calls `f` once with each image of `(x, o)` other than itself.
    pub(crate) fn images(&self, x: u64, o: u64, mut f: impl FnMut(u64, u64)) {
        if let Some(rings) = &self.rings {
            return rings.images(x, o, f);
        }
        let mut seen = [(x, o); 64];
        let mut n = 1;
        for s in 0..self.count {
            let image = (self.apply(s, x), self.apply(s, o));
            if !seen[..n].contains(&image) {
                seen[n] = image;
                n += 1;
                f(image.0, image.1);
            }
        }
    }
}

/// The least of the 8 images of two 4×4 boards side by side (cells row by row, one board a
/// half of `k`): each image by two swaps of bit groups.
#[inline]
fn square4_least(k: u32) -> u32 {
    let swap = |k: u32, mask: u32, shift: u32| ((k >> shift) & mask) | ((k & mask) << shift);
    // Each row reversed; the rows in reverse order; rows made columns.
    let mirror = |k| swap(swap(k, 0x5555_5555, 1), 0x3333_3333, 2);
    let flip = |k| swap(swap(k, 0x0f0f_0f0f, 4), 0x00ff_00ff, 8);
    let transpose = |k: u32| {
        let t = (k ^ (k >> 3)) & 0x0a0a_0a0a;
        let k = k ^ t ^ (t << 3);
        let t = (k ^ (k >> 6)) & 0x00cc_00cc;
        k ^ t ^ (t << 6)
    };
    let (h, v) = (mirror(k), flip(k));
    let hv = flip(h);
    k.min(h)
        .min(v)
        .min(hv)
        .min(transpose(k))
        .min(transpose(h))
        .min(transpose(v))
        .min(transpose(hv))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pdep(bits: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pdep_u64(bits, mask)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext(of: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(of, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank a cell at a time, as the definition in the module docs reads.
    fn rank_by_cells(cells: &Cells, x: u64, o: u64) -> u64 {
        let (mut occupied, mut os) = (0u64, 0u64);
        let (mut k, mut l) = (0usize, 0usize);
        let mut rest = x | o;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            k += 1;
            occupied += cells.c(c, k);
            if o >> c & 1 == 1 {
                l += 1;
                os += cells.c(k - 1, l);
            }
        }
        occupied * cells.c(k, l) + os
    }

    #[test]
    fn ranks_by_bytes_equal_ranks_by_cells_with_and_without_pext() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for n in [7usize, 9, 16, 25, 40] {
            let mut cells = Cells::new(n);
            for _ in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let all = (1u64 << n) - 1;
                let occupied = seed & all;
                let o = occupied & seed.rotate_left(29);
                let x = occupied & !o;
                let want = rank_by_cells(&cells, x, o);
                assert_eq!(cells.rank_bits(x, o), want, "{n} cells: {x:b} {o:b}");
                // Without the instruction too (never with it where it is missing).
                let had = cells.pext;
                cells.pext = false;
                assert_eq!(cells.rank_bits(x, o), want, "{n} cells: {x:b} {o:b}");
                cells.pext = had;
            }
        }
    }

    #[test]
    fn the_square_has_eight_distinct_symmetries_that_keep_its_lines() {
        for n in 2..=5 {
            let maps = Symmetries::square(n);
            let mut all = maps.clone();
            all.push((0..n * n).collect());
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 8, "{n}x{n}");
            let row = |r: usize| (0..n).fold(0u64, |m, c| m | 1 << (r * n + c));
            let col = |c: usize| (0..n).fold(0u64, |m, r| m | 1 << (r * n + c));
            let mut lines: Vec<u64> = (0..n).flat_map(|k| [row(k), col(k)]).collect();
            lines.push((0..n).fold(0, |m, i| m | 1 << (i * n + i)));
            lines.push((0..n).fold(0, |m, i| m | 1 << (i * n + n - 1 - i)));
            let sym = Symmetries::new(n * n, &maps);
            for s in 0..7 {
                for &l in &lines {
                    assert!(lines.contains(&sym.apply(s, l)), "{n}x{n} symmetry {s}");
                }
            }
            // The least board by shifts (4×4) is the least by the tables.
            if n == 4 {
                let mut tables = sym.clone();
                tables.square4 = false;
                let mut seed = 0x9e37_79b9_7f4a_7c15u64;
                for _ in 0..10_000 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let (x, o) = (seed & 0xffff, (seed >> 16) & 0xffff & !seed);
                    assert_eq!(sym.least(x, o), tables.least(x, o), "{x:#x} {o:#x}");
                }
                assert!(sym.square4);
            }
            // Every image of a board has the same least board.
            let (x, o) = (0b11u64, 1u64 << (n * n - 1));
            let least = sym.least(x, o);
            sym.images(x, o, |a, b| assert_eq!(sym.least(a, b), least));
        }
    }

    #[test]
    fn unranking_by_the_listed_sets_equals_the_walk_with_and_without_pdep() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in [5usize, 9, 16] {
            let listed = Cells::new(n);
            assert!(!listed.sets.is_empty());
            let mut walk = listed.clone();
            walk.sets = Box::new([]);
            let mut slow = listed.clone();
            slow.pext = false;
            for x in 0..=n {
                for o in 0..=n - x {
                    let size = listed.class_size(x, o);
                    for _ in 0..200 {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let r = seed % size;
                        let want = walk.unrank_bits(x, o, r);
                        assert_eq!(listed.unrank_bits(x, o, r), want, "{n} cells {x} {o} {r}");
                        assert_eq!(slow.unrank_bits(x, o, r), want, "{n} cells {x} {o} {r}");
                        assert_eq!(listed.rank_bits(want.0, want.1), r);
                    }
                }
            }
        }
    }

    #[test]
    fn every_rank_of_every_class_round_trips() {
        let cells = Cells::new(7);
        let mut board = Vec::new();
        for x in 0..=7 {
            for o in 0..=7 - x {
                let n = cells.class_size(x, o);
                let mut seen = std::collections::BTreeSet::new();
                for r in 0..n {
                    cells.unrank(x, o, r, &mut board);
                    assert_eq!(Cells::counts(&board), (x, o));
                    assert_eq!(cells.rank(&board), r, "{board:?}");
                    assert!(seen.insert(board.clone()));
                }
            }
        }
        // The bit-mask forms agree with the board forms.
        for x in 0..=7 {
            for o in 0..=7 - x {
                for r in 0..cells.class_size(x, o) {
                    cells.unrank(x, o, r, &mut board);
                    let (xb, ob) = cells.unrank_bits(x, o, r);
                    let bit = |side| {
                        (0..7)
                            .filter(|&c| board[c] == side)
                            .fold(0u64, |m, c| m | 1 << c)
                    };
                    assert_eq!((xb, ob), (bit(X), bit(O)));
                    assert_eq!(cells.rank_bits(xb, ob), r);
                }
            }
        }
        // 3^7 boards in all.
        let all: u64 = (0..=7)
            .flat_map(|x| (0..=7 - x).map(move |o| (x, o)))
            .map(|(x, o)| cells.class_size(x, o))
            .sum();
        assert_eq!(all, 3u64.pow(7));
    }
}
