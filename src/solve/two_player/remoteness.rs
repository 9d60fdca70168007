//! Values with their remoteness (or distances to a counter's reset), two bytes a position,
//! tier after tier on one process, saved after every tier.

use super::reachable::{fill_images, mark_reachable};
use super::saving::{from_le, le_bytes, solved_up_to, unfit};
use super::scan::Lower;
use super::tier::{checked_tier, solve_tier};
use crate::format::entries::standing;
use crate::model::Tiered;
use crate::progress::Progress;
use crate::solve::saves::{Saves, Wave};
use crate::{Error, Result};

/// [`solve_standings_saving`], or with `zeroing` the distances to the reset of a counter that
/// every move out of a tier resets ([`ValueKind::Dtz`]).
pub(super) fn solve_counted<G: Tiered>(
    game: &G,
    zeroing: bool,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Vec<u16>> {
    let n = usize::try_from(game.positions())
        .map_err(|_| Error::unsupported("too many positions for a table of values"))?;
    let tiers = game.tier_count();
    let name = format!(
        "retrograde {} of {n} positions in {tiers} tiers (two bytes a position)",
        if zeroing {
            "distances to zeroing"
        } else {
            "values"
        }
    );
    let mut out = vec![standing::ILLEGAL; n];
    let mut first_tier = 0;
    if let Some((_, at, bytes)) = saves.resume_bytes(&[&name], (n as u64).saturating_mul(2))? {
        let done = at.done as usize;
        let fits = at.next as u64 <= tiers
            && done <= n
            && bytes.len() == 2 * done
            && (at.next == 0 || game.tier(at.next as u64 - 1).end == at.done);
        if !fits {
            return Err(unfit(bytes.len(), &at));
        }
        for (v, b) in out.iter_mut().zip(from_le(&bytes)) {
            *v = b;
        }
        first_tier = at.next as u64;
        progress.inc(at.done);
    }
    let mut at = solved_up_to(game, first_tier);
    for t in first_tier..tiers {
        let tier = checked_tier(game, t, at, n)?;
        at = tier.end;
        let (done, rest) = out.split_at_mut(tier.start as usize);
        solve_tier(
            game,
            t,
            tier.start,
            Lower {
                values: done,
                from: 0,
                zeroing,
            },
            &mut rest[..(tier.end - tier.start) as usize],
        )?;
        progress.inc(tier.end - tier.start);
        if t + 1 < tiers {
            let done = Wave {
                next: t as usize + 1,
                waves: tiers as usize,
                done: tier.end,
            };
            saves.finished_bytes(&name, done, &le_bytes(&out[..tier.end as usize]))?;
        }
    }
    if at != n as u64 {
        return Err(Error::internal(format!(
            "the tiers end at {at}, not at {n}"
        )));
    }
    if let Some(start) = game.start_index() {
        mark_reachable(game, start, &mut out)?;
    }
    if game.symmetries() > 1 {
        fill_images(game, &mut out);
    }
    Ok(out)
}
