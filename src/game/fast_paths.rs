//! The contracts of the lookups' fast paths, checked on any input: [`Rules::entry_index`] on
//! any list of numbers and [`Rules::text_entry_index`] on any text answer only what the
//! general path (parse, check, rank) accepts, with its index. Used by
//! [`conformance`](super::conformance) on every position of a table and by the property tests
//! on random and damaged input.

use super::conformance::{Broken, Contract};
use super::Rules;

/// [`Rules::entry_index`] on any list of numbers: `None`, or the index of a position that
/// [`Rules::check`] accepts, not [`outside`](Rules::outside) and not a sum — its
/// [`rank`](Rules::rank). Returns what is wrong otherwise.
pub fn entry_index(r: &dyn Rules, pos: &[u32]) -> Result<(), Broken> {
    let Some(got) = r.entry_index(pos) else {
        return Ok(());
    };
    let why = if let Err(e) = r.check(pos) {
        format!("check() refuses it: {e}")
    } else if let Some(why) = r.outside(pos) {
        format!("it is outside the table: {why}")
    } else if r.summands(pos).is_some() {
        "it is a sum (summands() splits it)".to_string()
    } else if r.rank(pos) != got {
        format!("rank() gives {}", r.rank(pos))
    } else {
        return Ok(());
    };
    Err(Broken::new(
        Contract::FastPaths,
        format!("entry_index({pos:?}) gives {got}, but {why}"),
    ))
}

/// [`Rules::text_entry_index`] on any text: `None`, or the index
/// [`entry_index`](Rules::entry_index) gives for what [`parse`](Rules::parse) reads from it.
pub fn text_entry_index(r: &dyn Rules, text: &str) -> Result<(), Broken> {
    let Some(got) = r.text_entry_index(text) else {
        return Ok(());
    };
    let read = r.parse(text).map(|pos| r.entry_index(&pos));
    match read {
        Ok(Some(i)) if i == got => Ok(()),
        _ => Err(Broken::new(
            Contract::FastPaths,
            format!("text_entry_index('{text}') gives {got}; parse, entry_index: {read:?}"),
        )),
    }
}

/// A text with one character changed (which and into what by `k`): texts a lookup's fast
/// path from text must refuse or read as the parser does.
pub fn changed_text(text: &str, k: usize) -> String {
    let into: Vec<char> = "./,x o0178 9KkQPpwb-~_".chars().collect();
    let at = k.wrapping_mul(7) % text.chars().count().max(1);
    let swap = |(j, c)| if j == at { into[k % into.len()] } else { c };
    text.chars().enumerate().map(swap).collect()
}
