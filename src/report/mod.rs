//! Reports about whole tables, as data that prints itself as text or JSON: what `gamedb info`
//! says about a table ([`info`]), and the winning bites of every Chomp rectangle
//! ([`rectangles`]). The command line only prints them.

pub mod distribution;
pub mod export;
pub mod info;
pub mod listing;
pub mod plot;
pub mod rectangles;
