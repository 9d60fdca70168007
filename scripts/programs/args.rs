//! `--flag N` options taken out of a benchmark program's arguments, so that what is left is
//! positional; shared by the programs in `scripts/programs/` (each includes this file as a
//! module).

/// Removes `flag` and the number after it from `args`: `Ok(None)` when the flag is absent,
/// `Err` naming the flag when the number is missing or not a number.
pub fn take_number(args: &mut Vec<String>, flag: &str) -> Result<Option<u64>, String> {
    let Some(i) = args.iter().position(|a| a == flag) else {
        return Ok(None);
    };
    let n = args
        .get(i + 1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{flag} needs a number"))?;
    args.drain(i..i + 2);
    Ok(Some(n))
}
