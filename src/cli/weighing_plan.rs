//! `gamedb weighing-plan --balls N [--tell] [--adaptive] [--json]`: the ball-weighing
//! puzzle's plans. A fixed plan (every weighing chosen in advance) is built by the
//! construction of `games::weighing::plan` and checked by simulating all `2n` cases before it
//! is printed; `--adaptive` prints the decision tree read from the solved puzzle, checked the
//! same way.

use std::path::Path;

use clap::Args;

use crate::games::weighing::plan::{fewest_weighings, Plan};
use crate::games::weighing::{tree, WeighingSpec};
use crate::games::Spec;
use crate::model::ValueKind;
use crate::resources::{self, Available};
use crate::Error;

use super::{set_threads, Common, Failure};

#[derive(Args)]
pub(crate) struct WeighingPlanArgs {
    /// Balls, one of them heavier or lighter (at least 3).
    #[arg(long)]
    pub balls: u32,
    /// Also say whether the odd ball is heavier or lighter.
    #[arg(long)]
    pub tell: bool,
    /// Weighings of a fixed plan (default: the fewest that can work).
    #[arg(long)]
    pub weighings: Option<u32>,
    /// The decision tree of the best adaptive strategy (from the solved puzzle) instead.
    #[arg(long)]
    pub adaptive: bool,
    /// Good balls given beside them (adaptive plans only).
    #[arg(long, default_value_t = 0)]
    pub genuine: u32,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

pub(crate) fn run(a: WeighingPlanArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    if a.adaptive {
        if a.weighings.is_some() {
            return Err(Error::bad(
                "--weighings with --adaptive: expected one of them (an adaptive plan takes the fewest weighings)",
            )
            .into());
        }
        return adaptive(&a);
    }
    if a.genuine > 0 {
        return Err(Error::bad(format!(
            "--genuine {} without --adaptive: expected --genuine only with --adaptive (fixed plans use the balls alone)",
            a.genuine
        ))
        .into());
    }
    let d = a
        .weighings
        .unwrap_or_else(|| fewest_weighings(a.balls as u64, a.tell));
    let plan = Plan::construct(a.balls, a.tell, d)?;
    let checked = plan
        .check()
        .map_err(|e| Error::internal(format!("the constructed plan fails its check: {e}")))?;
    if a.json {
        println!("{}", plan.to_json(checked));
    } else {
        print!("{}", plan.to_text(checked));
    }
    Ok(())
}

fn adaptive(a: &WeighingPlanArgs) -> Result<(), Failure> {
    let spec = WeighingSpec::new(a.balls, a.tell, a.genuine)?;
    let any = Spec::new(spec.clone());
    let needs = resources::Needs {
        file: 0,
        ..crate::build::needs(&any, ValueKind::Distance)
    };
    let here = Available {
        memory: resources::memory_limit(None),
        disk: None,
    };
    resources::check(&needs, &here, Path::new("."))?;
    let values = match any.solve(ValueKind::Distance, &())? {
        crate::format::Solved::Distances(v) => v,
        _ => return Err(Error::internal("the weighing puzzle solves to distances").into()),
    };
    let puzzle = spec.puzzle();
    let root = tree::tree(&puzzle, &values)?;
    let most = values[puzzle.index([a.balls, 0, 0]) as usize] as u32;
    let mut checked = 0u64;
    for ball in 1..=a.balls {
        for heavier in [true, false] {
            let (found, used) = root.follow(ball, heavier);
            let right = match found {
                Some((b, h)) => {
                    b == ball && h.is_none_or(|h| h == heavier) && (!a.tell || h.is_some())
                }
                None => false,
            };
            if !right || used > most {
                return Err(Error::internal(format!(
                    "the adaptive plan fails ball {ball} {}: {found:?} after {used} weighings",
                    if heavier { "heavier" } else { "lighter" }
                ))
                .into());
            }
            checked += 1;
        }
    }
    if a.json {
        let out = serde_json::json!({
            "balls": a.balls,
            "tell": a.tell,
            "genuine": a.genuine,
            "weighings": most,
            "tree": root.to_json(),
            "checked": checked,
        });
        println!("{out}");
    } else {
        let good = match a.genuine {
            0 => String::new(),
            g => format!(
                " (balls {}..={} are the good ones given)",
                a.balls + 1,
                a.balls + g
            ),
        };
        print!(
            "An adaptive plan: {} balls{good}, at most {most} weighings, finding the odd ball{}.\n\n{}\nchecked: all {checked} cases reach the right verdict within {most} weighings\n",
            a.balls,
            if a.tell { " and whether it is heavier or lighter" } else { "" },
            root.to_text()
        );
    }
    Ok(())
}
