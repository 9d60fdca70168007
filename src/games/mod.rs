//! The registry of games. Each game lives in its own file and exports one spec type (its
//! parameters, plain data) implementing [`GameSpec`]; registering it is one line in the
//! `games!` list below. Nothing else in the crate names a particular game, apart from the
//! CLI's argument parsing and the theorem checks.

use indicatif::ProgressBar;

use crate::format::{Encoding, TableMeta, ValueKind};
use crate::game::Rules;
use crate::solve::Bits;
use crate::{Error, Result};

pub mod board;
pub mod candy;
pub mod chomp;
pub mod fifteen;
pub mod nim;
pub mod pdb;
pub mod slide;

/// Most positions a table may have (2^37: a 16 GiB bit table).
pub const MAX_POSITIONS: u64 = 1 << 37;

/// What a game contributes to the registry: its number in table headers, its parameters,
/// its rules for lookups, and how to solve it.
pub trait GameSpec: Sized + Clone + std::fmt::Debug + PartialEq {
    /// The game number stored in table headers.
    const ID: u32;
    /// The word used in `gamedb build NAME` and in file names.
    const NAME: &'static str;

    /// Parameters as stored in the header (unused slots 0).
    fn params(&self) -> [u64; 8];
    /// Parameters read back from a header; the error says what is wrong with them.
    fn from_params(p: [u64; 8]) -> std::result::Result<Self, String>;
    /// Number of positions in the table.
    fn positions(&self) -> u64;
    /// File name stem (without the value kind and extension), e.g. `nim-6x63`.
    fn stem(&self) -> String;
    /// One line for people, e.g. `Nim: 6 heaps of 0..=63, take any number, normal play`.
    fn describe(&self) -> String;
    /// The value kinds this game can be solved for; the first is the default.
    fn value_kinds(&self) -> &'static [ValueKind];
    /// The rules used by lookups.
    fn rules(&self) -> Result<Box<dyn Rules>>;
    /// Solves every position.
    fn solve(&self, kind: ValueKind, progress: &ProgressBar) -> Result<Payload>;
}

/// Solved values ready to be written.
pub struct Payload {
    /// Meaning of the values.
    pub kind: ValueKind,
    /// How they are stored.
    pub encoding: Encoding,
    /// Number of entries.
    pub entries: u64,
    /// The encoded bytes.
    pub bytes: Vec<u8>,
}

impl Payload {
    /// P/N bits.
    pub fn outcomes(bits: Bits) -> Payload {
        Payload {
            kind: ValueKind::Outcome,
            encoding: Encoding::Bits,
            entries: bits.len(),
            bytes: bits.into_bytes(),
        }
    }

    /// Small numbers (Grundy values, distances): one byte each when they all fit, else u16.
    pub fn numbers(kind: ValueKind, values: Vec<u16>) -> Payload {
        let entries = values.len() as u64;
        if values.iter().all(|&v| v <= u8::MAX as u16) {
            Payload {
                kind,
                encoding: Encoding::U8,
                entries,
                bytes: values.into_iter().map(|v| v as u8).collect(),
            }
        } else {
            Payload {
                kind,
                encoding: Encoding::U16,
                entries,
                bytes: values.into_iter().flat_map(|v| v.to_le_bytes()).collect(),
            }
        }
    }
}

macro_rules! games {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// A table's game and parameters: one variant per registered game.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Spec { $(
            #[allow(missing_docs)]
            $variant($ty),
        )* }

        impl Spec {
            /// Every registered game's build name.
            pub const NAMES: &'static [&'static str] = &[$(<$ty>::NAME),*];

            /// Reads a spec back from a header's game number and parameters.
            pub fn from_header(game: u32, params: [u64; 8]) -> std::result::Result<Spec, String> {
                match game {
                    $(<$ty>::ID => <$ty>::from_params(params).map(Spec::$variant),)*
                    other => Err(format!("unknown game number {other}")),
                }
            }
        }

        macro_rules! dispatch {
            ($self:expr, $g:ident => $e:expr) => {
                match $self { $(Spec::$variant($g) => $e,)* }
            };
        }

        macro_rules! dispatch_ty {
            ($self:expr, $t:ident => $e:expr) => {
                match $self { $(Spec::$variant(_) => { type $t = $ty; $e })* }
            };
        }
    };
}

games! {
    Candy(candy::CandySpec),
    Nim(nim::NimSpec),
    Chomp(chomp::ChompSpec),
    Pdb(pdb::PdbSpec),
    Slide(slide::SlideSpec),
}

impl Spec {
    /// Game number in headers.
    pub fn game_id(&self) -> u32 {
        dispatch_ty!(self, T => T::ID)
    }
    /// Build name of the game.
    pub fn name(&self) -> &'static str {
        dispatch_ty!(self, T => T::NAME)
    }
    /// Header parameters.
    pub fn params(&self) -> [u64; 8] {
        dispatch!(self, g => g.params())
    }
    /// Number of positions.
    pub fn positions(&self) -> u64 {
        dispatch!(self, g => g.positions())
    }
    /// One line for people.
    pub fn describe(&self) -> String {
        dispatch!(self, g => g.describe())
    }
    /// Value kinds this game can be solved for; the first is the default.
    pub fn value_kinds(&self) -> &'static [ValueKind] {
        dispatch!(self, g => g.value_kinds())
    }
    /// Rules for lookups.
    pub fn rules(&self) -> Result<Box<dyn Rules>> {
        dispatch!(self, g => g.rules())
    }

    /// The default value kind of this game's tables.
    pub fn default_kind(&self) -> ValueKind {
        self.value_kinds()[0]
    }

    /// File name (without folder) of the table of these parameters and value kind.
    pub fn file_name(&self, kind: ValueKind) -> String {
        let stem = dispatch!(self, g => g.stem());
        if kind == self.default_kind() {
            format!("{stem}.{}", crate::format::EXTENSION)
        } else {
            format!("{stem}-{}.{}", kind.name(), crate::format::EXTENSION)
        }
    }

    /// Solves every position; refuses value kinds the game does not support.
    pub fn solve(&self, kind: ValueKind, progress: &ProgressBar) -> Result<Payload> {
        if !self.value_kinds().contains(&kind) {
            return Err(Error::bad(format!(
                "{} tables hold {}; {} values are not available for this game",
                self.name(),
                self.value_kinds()
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
                kind.name()
            )));
        }
        let positions = self.positions();
        if positions > MAX_POSITIONS {
            return Err(Error::Unsupported(format!(
                "{} has {positions} positions, more than the {MAX_POSITIONS} a table may hold",
                self.describe()
            )));
        }
        let payload = dispatch!(self, g => g.solve(kind, progress))?;
        debug_assert_eq!(payload.entries, positions);
        Ok(payload)
    }

    /// The header fields of this spec's table.
    pub fn meta(&self, payload: &Payload) -> TableMeta {
        TableMeta {
            game: self.game_id(),
            params: self.params(),
            value_kind: payload.kind,
            encoding: payload.encoding,
            entry_count: payload.entries,
        }
    }
}

/// Binomial coefficient C(n, k), `None` on overflow.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * (n - i) as u128 / (i + 1) as u128;
        if acc > u64::MAX as u128 {
            return None;
        }
    }
    Some(acc as u64)
}
