//! Reports about whole tables, as data that prints itself as text or JSON: what `gamedb info`
//! says about a table ([`info`]), and the winning bites of every Chomp rectangle
//! ([`rectangles`]). The command line only prints them.

pub(crate) mod census;
pub(crate) mod distribution;
pub(crate) mod export;
pub(crate) mod info;
pub(crate) mod listing;
pub(crate) mod plot;
pub(crate) mod rectangles;
pub(crate) mod sequence;
