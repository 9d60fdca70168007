//! The un-moves a tiered game lists inside its tiers ([`Tiered::tier_parents`]) against its
//! moves read backward: what [`super::tiered`] checks of a game that lists them. A parent
//! missing from the list leaves a position waiting for ever (a draw where there is a win), one
//! too many counts a move down twice: both are wrong values, so the check is exact.

use super::{Broken, Contract};
use std::collections::HashMap;

use crate::game::Rules;
use crate::model::{Tiered, Visit};

/// The children of `p`, once each, when the engine solves it with its moves (a represented
/// position where the game goes on).
fn moving<G: Tiered>(g: &G, p: u64) -> Option<Vec<u64>> {
    let mut kids = Vec::new();
    match g.visit(p, |c| kids.push(c)) {
        Visit::Moves => {
            kids.sort_unstable();
            kids.dedup();
            Some(kids)
        }
        _ => None,
    }
}

/// For every tier that lists its un-moves and every position the engine solves there, the
/// parents listed (once each, less those that are no position or where the game is over) are
/// exactly the positions of the tier with a move to it, and each of them is a representative.
pub(super) fn tier_parents<G: Tiered + Rules>(g: &G) -> Result<(), Broken> {
    check_listed(g, |c, f| g.tier_parents(c, f))?;
    check_counted(g, |p, tier, f| g.visit_counting(p, tier, f))
}

/// For every position of a tier that lists its un-moves, what
/// [`visit_counting`](Tiered::visit_counting) (here `counting`) finds is what
/// [`visit`](Tiered::visit) finds: the same visit, the same children outside the tier, and as
/// many children inside it, once each, named and counted together. A count one off leaves a
/// position waiting for ever or valued too soon, so the check is exact.
fn check_counted<G: Tiered + Rules>(
    g: &G,
    counting: impl Fn(u64, std::ops::Range<u64>, &mut dyn FnMut(u64)) -> (Visit, u32),
) -> Result<(), Broken> {
    let name = |i: u64| format!("{} (index {i})", g.format(&g.unrank(i)));
    let split = |mut kids: Vec<u64>, tier: &std::ops::Range<u64>| {
        kids.sort_unstable();
        kids.dedup();
        kids.into_iter()
            .partition::<Vec<u64>, _>(|c| tier.contains(c))
    };
    for t in 0..g.tier_count() {
        if !g.lists_tier_parents(t) {
            continue;
        }
        let tier = g.tier(t);
        for p in tier.clone() {
            let mut all = Vec::new();
            let visit = g.visit(p, |c| all.push(c));
            let mut named = Vec::new();
            let (counted_visit, counted) = counting(p, tier.clone(), &mut |c| named.push(c));
            if visit != counted_visit {
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                    "index {p}: visited {visit:?}, and {counted_visit:?} where children are counted"
                ),
                ));
            }
            if visit != Visit::Moves {
                continue;
            }
            let ((inside, outside), (named_inside, named_outside)) =
                (split(all, &tier), split(named, &tier));
            if outside != named_outside {
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                    "{}: where children are counted, those outside the tier are not its moves' \
                     ({} named, {} moves)",
                    name(p),
                    named_outside.len(),
                    outside.len()
                ),
                ));
            }
            let found = named_inside.len() as u64 + u64::from(counted);
            if found != inside.len() as u64 || named_inside.iter().any(|c| !inside.contains(c)) {
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                        "{}: {} children inside the tier, {} named and {counted} counted",
                        name(p),
                        inside.len(),
                        named_inside.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// [`tier_parents`] with the un-moves listed by `un_moves` (a test alters them), which says
/// whether each came once, as [`Tiered::tier_parents`] does.
fn check_listed<G: Tiered + Rules>(
    g: &G,
    un_moves: impl Fn(u64, &mut dyn FnMut(u64)) -> bool,
) -> Result<(), Broken> {
    let name = |i: u64| format!("{} (index {i})", g.format(&g.unrank(i)));
    let folds = g.symmetries() > 1;
    for t in 0..g.tier_count() {
        if !g.lists_tier_parents(t) {
            continue;
        }
        let tier = g.tier(t);
        let mut want: HashMap<u64, Vec<u64>> = HashMap::new();
        for p in tier.clone() {
            for c in moving(g, p).unwrap_or_default() {
                if tier.contains(&c) {
                    want.entry(c).or_default().push(p);
                }
            }
        }
        for c in tier.clone() {
            if (folds && !g.represents(c)) || !g.legal(c) {
                continue;
            }
            let mut listed = Vec::new();
            let once = un_moves(c, &mut |p| listed.push(p));
            let n = listed.len();
            listed.sort_unstable();
            listed.dedup();
            if once && listed.len() != n {
                // Taken as they come, a parent listed twice counts its move down twice.
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                        "{}: its un-moves are said to come once each, and {} came twice",
                        name(c),
                        n - listed.len()
                    ),
                ));
            }
            if let Some(&p) = listed.iter().find(|p| !tier.contains(p)) {
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                        "{}: an un-move leads to index {p}, outside its tier {t} ({}..{})",
                        name(c),
                        tier.start,
                        tier.end
                    ),
                ));
            }
            if let Some(&p) = listed.iter().find(|&&p| folds && !g.represents(p)) {
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                        "{}: an un-move leads to {}, which is not the representative of its class",
                        name(c),
                        name(p)
                    ),
                ));
            }
            listed.retain(|&p| moving(g, p).is_some());
            let want = want.remove(&c).unwrap_or_default();
            if listed != want {
                let missing: Vec<String> = (want.iter().filter(|p| !listed.contains(p)))
                    .take(4)
                    .map(|&p| name(p))
                    .collect();
                let extra: Vec<String> = (listed.iter().filter(|p| !want.contains(p)))
                    .take(4)
                    .map(|&p| name(p))
                    .collect();
                return Err(Broken::new(
                    Contract::Parents,
                    format!(
                        "{}: its listed un-moves are not the tier's moves to it read backward \
                     (expected {} parents, listed {}; missing: {}; not moving to it: {})",
                        name(c),
                        want.len(),
                        listed.len(),
                        if missing.is_empty() {
                            "none".into()
                        } else {
                            missing.join(", ")
                        },
                        if extra.is_empty() {
                            "none".into()
                        } else {
                            extra.join(", ")
                        },
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A game with its un-moves hidden: the engine keeps every move inside a tier as an edge, the
/// other way to solve it, which a game that lists its un-moves is tested against.
#[cfg(test)]
pub(crate) struct KeptMoves<'a, G>(pub &'a G);

#[cfg(test)]
impl<G: Tiered> crate::model::Indexed for KeptMoves<'_, G> {
    fn positions(&self) -> u64 {
        self.0.positions()
    }
}

#[cfg(test)]
impl<G: Tiered> Tiered for KeptMoves<'_, G> {
    fn tier_count(&self) -> u64 {
        self.0.tier_count()
    }
    fn tier(&self, t: u64) -> std::ops::Range<u64> {
        self.0.tier(t)
    }
    fn legal(&self, pos: u64) -> bool {
        self.0.legal(pos)
    }
    fn terminal(&self, pos: u64) -> Option<crate::model::Standing> {
        self.0.terminal(pos)
    }
    fn children<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.0.children(pos, f)
    }
    fn visit<F: FnMut(u64)>(&self, pos: u64, f: F) -> Visit {
        self.0.visit(pos, f)
    }
    fn moves_bound(&self) -> u64 {
        self.0.moves_bound()
    }
    fn in_tier_moves(&self) -> bool {
        self.0.in_tier_moves()
    }
    fn start_index(&self) -> Option<u64> {
        self.0.start_index()
    }
    fn symmetries(&self) -> u64 {
        self.0.symmetries()
    }
    fn represents(&self, pos: u64) -> bool {
        self.0.represents(pos)
    }
    fn images<F: FnMut(u64)>(&self, pos: u64, f: F) {
        self.0.images(pos, f)
    }
    fn lists_parents(&self) -> bool {
        self.0.lists_parents()
    }
    fn parents<F: FnMut(u64) -> std::ops::ControlFlow<()>>(
        &self,
        pos: u64,
        f: F,
    ) -> std::ops::ControlFlow<()> {
        self.0.parents(pos, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Endgame;
    use crate::games::mill::{Mill, MillSpec};
    use crate::model::Indexed;

    /// The un-moves of Three Men's Morris pass, and fail with one parent left out or one added.
    #[test]
    fn a_missing_or_a_false_parent_is_caught() {
        let g = Mill::new(MillSpec::new(3, Some(9), false).unwrap());
        check_listed(&g, |c, f| g.tier_parents(c, f)).unwrap();
        // The first position with a parent loses its first one.
        let victim = (0..g.positions())
            .find(|&c| {
                let mut n = 0;
                g.legal(c) && g.represents(c) && {
                    g.tier_parents(c, |p| n += u32::from(moving(&g, p).is_some()));
                    n > 0
                }
            })
            .unwrap();
        let err = check_listed(&g, |c, f| {
            let mut first = c == victim;
            g.tier_parents(c, |p| {
                if first && moving(&g, p).is_some() {
                    first = false;
                } else {
                    f(p)
                }
            })
        })
        .unwrap_err();
        assert!(
            err.what.contains("missing: ") && !err.what.contains("missing: none"),
            "{err}"
        );
        // A position of the tier that does not move to it, listed as a parent.
        let t = (0..g.tier_count())
            .find(|&t| g.tier(t).contains(&victim))
            .unwrap();
        let stranger = g
            .tier(t)
            .find(|&p| moving(&g, p).is_some_and(|kids| !kids.contains(&victim)))
            .unwrap();
        let err = check_listed(&g, |c, f| {
            let once = g.tier_parents(c, &mut *f);
            if c == victim {
                f(stranger)
            }
            once
        })
        .unwrap_err();
        assert!(
            err.what.contains("not moving to it: ") && !err.what.contains("to it: none"),
            "{err}"
        );
        // A parent listed twice where the un-moves are said to come once each.
        let err = check_listed(&g, |c, f| {
            let mut first = c == victim;
            g.tier_parents(c, |p| {
                f(p);
                if first && moving(&g, p).is_some() {
                    first = false;
                    f(p);
                }
            });
            true
        })
        .unwrap_err();
        assert!(err.what.contains("came twice"), "{err}");
    }

    /// Chess counts its quiet moves where it can (KRk without pawns, where a king on a long
    /// diagonal has the other side's quiet moves named; KPk with its promotions' tiers): the
    /// check passes, and fails with one counted too many or one named child left out.
    #[test]
    fn a_miscounted_child_is_caught() {
        use crate::games::chess::ChessSpec;
        for men in ["KRk", "KPk"] {
            let g = Endgame::new(ChessSpec::new(men).unwrap());
            check_counted(&g, |p, t, f| g.visit_counting(p, t, f)).unwrap();
            let err = check_counted(&g, |p, t, f| {
                let (visit, counted) = g.visit_counting(p, t, f);
                (visit, counted + u32::from(counted > 0))
            })
            .unwrap_err();
            assert!(err.what.contains("counted"), "{men}: {err}");
            let err = check_counted(&g, |p, t, f| {
                let mut first = true;
                g.visit_counting(p, t.clone(), |c| {
                    if first && t.contains(&c) {
                        first = false;
                    } else {
                        f(c)
                    }
                })
            })
            .unwrap_err();
            assert!(err.what.contains("named"), "{men}: {err}");
        }
    }
}
