//! splitmix64: a small, good-enough generator that needs no dependency, shared by the
//! benchmark programs in `scripts/programs/` (each includes this file as a module).

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform index into a slice of `len` items.
    #[allow(dead_code)] // not every program picks from slices
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}
