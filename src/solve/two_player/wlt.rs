//! Two-bit tables of a [`Tiered`] game ([`ValueKind::Wlt`](crate::model::ValueKind::Wlt)),
//! solved by the engine of [`crate::solve::two_player`] tier by tier with only the values a later tier
//! may still read kept at two bytes, and the rest packed to two bits as soon as no move can
//! reach it ([`Tiered::lowest_reached`]): Connect Four 6×5 in 7.5 GiB, where its remoteness
//! table needs 38.4 GiB.

use crate::format::entries::standing;
use crate::format::entries::wlt::pack_into;
use crate::model::Tiered;
use crate::progress::Progress;
use crate::solve::saves::{Saves, Wave};
use crate::solve::two_player::reachable::fill_images;
use crate::solve::two_player::saving::{from_le, le_bytes, solved_up_to, unfit};
use crate::solve::two_player::scan::Lower;
use crate::solve::two_player::tier::{checked_tier, solve_tier};
use crate::{Error, Result};

/// Bytes a two-bit solve hands to its saves at the most: the two bits of every position and
/// two bytes of the widest reach.
pub(super) fn wlt_saved_bytes<G: Tiered>(game: &G) -> u64 {
    let n = game.positions();
    n.div_ceil(4).saturating_add(
        game.widest_reach()
            .min(n)
            .saturating_add(4)
            .saturating_mul(2),
    )
}

/// Where the values kept at two bytes start while tier `t` is solved: the lowest index its
/// moves reach ([`Tiered::lowest_reached`]), never past the tier's start, down to a multiple
/// of four so that what lies below packs into whole bytes. A game that folds keeps them all:
/// its last pass copies entries across the whole table.
fn window_start<G: Tiered>(game: &G, t: u64) -> u64 {
    if game.symmetries() > 1 {
        return 0;
    }
    game.lowest_reached(t).min(game.tier(t).start) / 4 * 4
}

/// The two-bit codes ([`crate::format::entries::wlt::pack`]) of every position, solved tier by tier as
/// [`crate::solve::two_player::solve_standings_saving`] solves them, but with only the values a later tier may still
/// read kept at two bytes (from [`window_start`] on) and those below packed as soon as no move
/// can reach them. No reachability is kept: a two-bit table has no room for it. The tiers
/// solved so far are handed to `saves` as the packed bytes then the kept values, and resumed
/// from them.
pub(super) fn solve_wlt_saving<G: Tiered>(
    game: &G,
    progress: &dyn Progress,
    saves: &dyn Saves,
) -> Result<Vec<u8>> {
    let n = usize::try_from(game.positions())
        .map_err(|_| Error::unsupported("too many positions for a table of values"))?;
    let tiers = game.tier_count();
    let name = format!(
        "two-bit values of {n} positions in {tiers} tiers (two bits a position below where \
         the next tier's moves reach, two bytes from there)"
    );
    let mut packed = vec![0u8; n.div_ceil(4)];
    // The values of `base..at`.
    let mut kept: Vec<u16> = Vec::new();
    let mut base = 0u64;
    let mut first_tier = 0;
    if let Some((_, at, bytes)) = saves.resume_bytes(&[&name], wlt_saved_bytes(game))? {
        let next = at.next as u64;
        let tier_fits = next >= 1 && next < tiers && game.tier(next - 1).end == at.done;
        base = if tier_fits {
            window_start(game, next)
        } else {
            0
        };
        let low = (base / 4) as usize;
        let fits = tier_fits
            && at.done as usize <= n
            && base <= at.done
            && bytes.len() as u64 == low as u64 + 2 * (at.done - base);
        if !fits {
            return Err(unfit(bytes.len(), &at));
        }
        packed[..low].copy_from_slice(&bytes[..low]);
        kept = from_le(&bytes[low..]).collect();
        first_tier = next;
        progress.inc(at.done);
    }
    let mut at = solved_up_to(game, first_tier);
    for t in first_tier..tiers {
        let tier = checked_tier(game, t, at, n)?;
        at = tier.end;
        let len = (tier.end - tier.start) as usize;
        // Exactly: a doubling would hold twice the widest reach.
        kept.reserve_exact(len);
        let from = kept.len();
        kept.resize(from + len, standing::ILLEGAL);
        let (done, values) = kept.split_at_mut(from);
        solve_tier(
            game,
            t,
            tier.start,
            Lower {
                values: done,
                from: base,
                zeroing: false,
            },
            values,
        )?;
        progress.inc(len as u64);
        if t + 1 < tiers {
            let next = window_start(game, t + 1);
            if next < base {
                return Err(Error::internal(format!(
                    "the lowest index reached falls from {base} to {next} at tier {}",
                    t + 1
                )));
            }
            let gone = (next - base) as usize;
            pack_into(
                &kept[..gone],
                &mut packed[(base / 4) as usize..(next / 4) as usize],
            );
            kept.drain(..gone);
            base = next;
            let done = Wave {
                next: t as usize + 1,
                waves: tiers as usize,
                done: tier.end,
            };
            saves.finished_byte_parts(
                &name,
                done,
                &[&packed[..(base / 4) as usize], &le_bytes(&kept)],
            )?;
        }
    }
    if at != n as u64 {
        return Err(Error::internal(format!(
            "the tiers end at {at}, not at {n}"
        )));
    }
    if game.symmetries() > 1 {
        fill_images(game, &mut kept);
    }
    pack_into(&kept, &mut packed[(base / 4) as usize..]);
    Ok(packed)
}
