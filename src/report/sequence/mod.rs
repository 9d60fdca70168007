//! The pictures of a heap game's sequence of values (`gamedb plot --picture sequence` and
//! `rows`), for every table whose rules read as one value per heap
//! ([`Rules::heap_sequence`](crate::game::Rules::heap_sequence)): octal and subtraction games,
//! Nim of one heap, the candy game.
//!
//! One pass over the whole table ([`Survey::of`], parallel, each entry read once) gives for
//! each of about 800 buckets of heaps the smallest and largest value and the values present,
//! and the number of heaps of each value, from which the rare values are chosen as `info`
//! chooses them. The periodicity is then found as `info` finds it, on the first heaps first:
//! a period the octal periodicity theorem proves from the first `m` heaps holds for every
//! heap, so a 2^32-heap table of Kayles is proved periodic from its first 65,536 heaps.
//!
//! * `sequence`: the values against the heap. A table of more heaps than the detail shows gets
//!   an overview of the whole table (per bucket the band from the smallest to the largest
//!   value, and the rare values present as points; for P/N tables the share of P-positions)
//!   above a detail of a range of heaps (each heap's value a point, rare values picked out,
//!   the preperiod shaded and the periods marked when they are proved).
//! * `rows`: the values set in rows of the period, as Winning Ways prints them, so that a
//!   period shows as columns: the preperiod shaded, its exceptions (heaps whose value differs
//!   from the value one period on) marked.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
mod survey;

use crate::{Error, Result};
use survey::Bucket;
pub(crate) use survey::{Sequence, Survey};

/// Heaps the detail shows when no range is asked for (a table of at most [`DETAIL_MOST`]
/// heaps is shown whole).
const DETAIL_HEAPS: u64 = 300;
/// Most heaps the detail shows.
pub(crate) const DETAIL_MOST: u64 = 1000;
/// Most rare-value points of the overview; past it each bucket shows its least and largest
/// rare value only.
const RARE_POINTS: usize = 4000;
/// The longest period set as the columns of `rows`; a longer one (or none) gives rows of
/// [`DEFAULT_WIDTH`].
pub(crate) const MOST_COLUMNS: u64 = 64;
/// Columns of `rows` when no period of at most [`MOST_COLUMNS`] is known.
pub(crate) const DEFAULT_WIDTH: u64 = 12;
/// Most cells of `rows`.
const MOST_CELLS: u64 = 2400;
/// Rows `rows` shows after the preperiod when no range is asked for.
const ROWS_AFTER: u64 = 6;

const WIDTH: u32 = 900;
const FONT: &str = "sans-serif";
const COMMON: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const RARE: RGBColor = RGBColor(0xc0, 0x1c, 0x1c);
const BAND: RGBColor = RGBColor(0xa8, 0xc4, 0xe0);
const SHADE: RGBColor = RGBColor(0xec, 0xec, 0xec);
const EXCEPTION: RGBColor = RGBColor(0xfd, 0xd0, 0x9a);
const MARK: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// A range of heaps asked for, both ends included; an end left out takes its default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HeapRange {
    /// The first heap (default 0).
    pub from: Option<u64>,
    /// The last heap (default: as many heaps as the picture shows by default).
    pub to: Option<u64>,
}

impl HeapRange {
    /// Whether an end is given.
    pub(crate) fn is_given(&self) -> bool {
        self.from.is_some() || self.to.is_some()
    }
}

fn failed<E: std::fmt::Display>(e: E) -> Error {
    Error::unsupported(format!("drawing the picture failed: {e}"))
}

/// The heaps `range` names, checked: `from ≤ to ≤` the largest heap, at most `most` heaps;
/// `to` left out: `default` heaps from `from`.
fn checked(range: HeapRange, max_heap: u64, default: u64, most: u64) -> Result<(u64, u64)> {
    let from = range.from.unwrap_or(0);
    let to = range
        .to
        .unwrap_or_else(|| from.saturating_add(default.max(1) - 1).min(max_heap));
    let expected = format!(
        "expected from <= to <= {max_heap} (this table's largest heap), at most {most} heaps"
    );
    let why = if from > to {
        "the first heap is past the last".to_string()
    } else if to > max_heap {
        format!("heap {to} is beyond this table's largest heap")
    } else if to - from >= most {
        format!("{} heaps are more than this picture shows", to - from + 1)
    } else {
        return Ok((from, to));
    };
    Err(Error::bad(format!(
        "heaps {from} to {to}: {why}; {expected}"
    )))
}

/// A value axis' label: whole numbers only (values and heaps are whole; a share of
/// P-positions is not, and is written with two decimals).
fn whole(v: f64) -> String {
    if v.fract() == 0.0 {
        compact(v)
    } else {
        String::new()
    }
}

/// Numbers of an axis that may reach 2^32: 1500, 25k, 4.3G; below 10, up to two decimals.
fn compact(v: f64) -> String {
    let a = v.abs();
    let (x, unit) = if a < 10.0 && v.fract() != 0.0 {
        (v, "")
    } else if a < 1e4 {
        return format!("{v:.0}");
    } else if a < 1e6 {
        (v / 1e3, "k")
    } else if a < 1e9 {
        (v / 1e6, "M")
    } else {
        (v / 1e9, "G")
    };
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}{unit}")
}

fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>,
) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        draw(&root)?;
        root.present().map_err(failed)?;
    }
    Ok(out)
}

fn text_style(size: u32, color: &'static RGBColor) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).color(color)
}

/// The `sequence` picture of `seq`: the detail of the heaps of `range` (default the first
/// [`DETAIL_HEAPS`], or the whole table when it has at most [`DETAIL_MOST`]), below an
/// overview of the whole table when the detail does not show it all.
pub(crate) fn sequence(
    name: &str,
    seq: &Sequence,
    survey: &Survey,
    range: HeapRange,
) -> Result<String> {
    let n = seq.max_heap();
    let default = if n < DETAIL_MOST { n + 1 } else { DETAIL_HEAPS };
    let (from, to) = checked(range, n, default, DETAIL_MOST)?;
    let whole = from == 0 && to == n;
    let height = if whole { 560 } else { 760 };
    let what = if seq.grundy() {
        "Grundy values"
    } else {
        "outcomes (1 = N)"
    };
    let of = match seq.seq.note.as_str() {
        "" => seq.seq.heap.clone(),
        note => format!("{}, {note}", seq.seq.heap),
    };
    svg((WIDTH, height), |root| {
        let title = format!("{name}: {what} by {of}");
        let root = root.titled(&title, (FONT, 20)).map_err(failed)?;
        root.draw(&Text::new(
            survey.period_text(),
            (16, 0),
            text_style(14, &BLACK),
        ))
        .map_err(failed)?;
        root.draw(&Text::new(
            survey.marked.legend(),
            (16, 18),
            text_style(13, &RARE),
        ))
        .map_err(failed)?;
        let (_, body) = root.split_vertically(36);
        if whole {
            return detail(&body, seq, survey, from, to);
        }
        let (top, bottom) = body.split_vertically(300);
        overview(&top, seq, survey)?;
        detail(&bottom, seq, survey, from, to)
    })
}

/// The whole table, bucket by bucket.
fn overview(area: &DrawingArea<SVGBackend, Shift>, seq: &Sequence, s: &Survey) -> Result<()> {
    let heaps = seq.max_heap() + 1;
    let k = s.per_bucket;
    let caption = format!(
        "all heaps 0..={}: {} buckets of {k} heaps, {}",
        heaps - 1,
        s.buckets.len(),
        if seq.grundy() {
            "the smallest to the largest value of each (band), the rare values present (points)"
        } else {
            "the share of P-positions in each"
        }
    );
    let top = if seq.grundy() {
        s.max_value() as f64 * 1.05 + 1.0
    } else {
        1.05
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 14))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..heaps as f64, 0f64..top)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(seq.seq.heap.as_str())
        .y_desc(if seq.grundy() { "value" } else { "P share" })
        .x_label_formatter(&|v| compact(*v))
        .y_label_formatter(&|v| if seq.grundy() { whole(*v) } else { compact(*v) })
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()
        .map_err(failed)?;
    let mid = |b: usize| (b as u64 * k) as f64 + k as f64 / 2.0;
    if !seq.grundy() {
        let share = s.buckets.iter().enumerate().map(|(b, bucket)| {
            let size = k.min(heaps - b as u64 * k);
            (mid(b), bucket.zeros as f64 / size as f64)
        });
        chart
            .draw_series(LineSeries::new(share, RARE.stroke_width(1)))
            .map_err(failed)?;
    } else {
        // The band: the largest values left to right, the smallest back.
        let mut band: Vec<(f64, f64)> = s
            .buckets
            .iter()
            .enumerate()
            .map(|(b, x)| (mid(b), x.high as f64))
            .collect();
        band.extend(
            s.buckets
                .iter()
                .enumerate()
                .rev()
                .map(|(b, x)| (mid(b), x.low as f64)),
        );
        chart
            .draw_series(std::iter::once(Polygon::new(band, BAND.filled())))
            .map_err(failed)?;
        let highs = s
            .buckets
            .iter()
            .enumerate()
            .map(|(b, x)| (mid(b), x.high as f64));
        chart
            .draw_series(LineSeries::new(highs, COMMON.stroke_width(1)))
            .map_err(failed)?;
        let marked = |b: &Bucket| -> Vec<u32> {
            (0..b.present.len() * 64)
                .filter(|&v| b.present[v / 64] >> (v % 64) & 1 == 1)
                .map(|v| v as u32)
                .filter(|&v| s.marked.is(v))
                .collect()
        };
        let mut points: Vec<(f64, f64)> = Vec::new();
        let per: Vec<Vec<u32>> = s.buckets.iter().map(marked).collect();
        let all: usize = per.iter().map(Vec::len).sum();
        for (b, vs) in per.iter().enumerate() {
            let keep: Vec<u32> = if all > RARE_POINTS && vs.len() > 2 {
                vec![vs[0], vs[vs.len() - 1]]
            } else {
                vs.clone()
            };
            points.extend(keep.into_iter().map(|v| (mid(b), v as f64)));
        }
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 2, RARE.filled())))
            .map_err(failed)?;
        if all > RARE_POINTS {
            chart
                .draw_series(std::iter::once(Text::new(
                    "rare values: the least and largest in each bucket (too many to show)",
                    (heaps as f64 * 0.02, top * 0.97),
                    text_style(12, &RARE),
                )))
                .map_err(failed)?;
        }
    }
    if let Some((_, e)) = s.proved() {
        // The end of the preperiod, where the scale lets it be seen apart from heap 0.
        if e as f64 >= heaps as f64 / 400.0 {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(e as f64, 0.0), (e as f64, top)],
                    MARK.stroke_width(1),
                )))
                .map_err(failed)?;
        }
    }
    Ok(())
}

/// Each heap of `from..=to` as a point.
fn detail(
    area: &DrawingArea<SVGBackend, Shift>,
    seq: &Sequence,
    s: &Survey,
    from: u64,
    to: u64,
) -> Result<()> {
    let values: Vec<u32> = (from..=to).map(|h| seq.value(h)).collect();
    let top = if seq.grundy() {
        values.iter().copied().max().unwrap_or(0) as f64 * 1.08 + 1.0
    } else {
        1.25
    };
    let (x0, x1) = (from as f64 - 0.5, to as f64 + 0.5);
    let mut chart = ChartBuilder::on(area)
        .caption(format!("heaps {from} to {to}"), (FONT, 14))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(x0..x1, 0f64..top)
        .map_err(failed)?;
    let heaps = to - from + 1;
    if let Some((p, e)) = s.proved() {
        if e > from {
            let end = (e as f64 - 0.5).min(x1);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (end, top)],
                    SHADE.filled(),
                )))
                .map_err(failed)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("preperiod (heaps below {e})"),
                    (x0 + heaps as f64 * 0.01, top * 0.97),
                    text_style(12, &MARK),
                )))
                .map_err(failed)?;
        }
        // A line at the start of each period, where they stand at least 6 pixels apart.
        if heaps / p <= 130 {
            let mut h = if from <= e {
                e
            } else {
                e + (from - e).div_ceil(p) * p
            };
            let mut lines = Vec::new();
            while h <= to {
                lines.push(PathElement::new(
                    vec![(h as f64 - 0.5, 0.0), (h as f64 - 0.5, top)],
                    MARK.mix(0.35).stroke_width(1),
                ));
                h += p;
            }
            chart.draw_series(lines).map_err(failed)?;
        }
    }
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(seq.seq.heap.as_str())
        .y_desc(if seq.grundy() {
            "value"
        } else {
            "outcome (1 = N)"
        })
        // Heaps in full: the detail's ticks may be 4294966000 and 4294966100.
        .x_label_formatter(&|v| {
            if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| whole(*v))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()
        .map_err(failed)?;
    let radius = if heaps <= 200 {
        3
    } else if heaps <= 500 {
        2
    } else {
        1
    };
    chart
        .draw_series(values.iter().enumerate().map(|(i, &v)| {
            let color = if s.marked.is(v) { RARE } else { COMMON };
            Circle::new(((from + i as u64) as f64, v as f64), radius, color.filled())
        }))
        .map_err(failed)?;
    Ok(())
}

/// The columns of `rows`: the period (proved or tentative) when it is at most
/// [`MOST_COLUMNS`], else [`DEFAULT_WIDTH`]; and whether they are the period.
fn columns(s: &Survey) -> (u64, bool) {
    match s.period() {
        Some((p, _)) if p <= MOST_COLUMNS => (p, true),
        _ => (DEFAULT_WIDTH, false),
    }
}

/// The `rows` picture of `seq`: the heaps of `range` in rows of the period (default: from
/// heap 0, the preperiod and [`ROWS_AFTER`] rows more).
pub(crate) fn rows(name: &str, seq: &Sequence, s: &Survey, range: HeapRange) -> Result<String> {
    let n = seq.max_heap();
    let (w, is_period) = columns(s);
    let most_rows = (MOST_CELLS / w).max(1);
    let e = s.period().map_or(0, |(_, e)| e);
    let default_rows = (e.div_ceil(w) + ROWS_AFTER).min(most_rows);
    let from = range.from.unwrap_or(0);
    let start = from - from % w;
    let default = (start + default_rows * w).saturating_sub(from);
    // Rows begin at multiples of the width: the range may hold most_rows of them.
    let most = (start + most_rows * w).saturating_sub(from);
    let (from, to) = checked(range, n, default, most)?;
    let first_row = from / w;
    let row_count = to / w - first_row + 1;
    let digits = s.max_value().max(1).ilog10() as u64 + 1;
    let cell_w = (8 * digits + 12).max(24) as i32;
    let cell_h = 20i32;
    let label_w = 8 * (to.max(1).ilog10() as i32 + 1) + 16;
    let (left, head) = (16 + label_w, 112i32);
    let width = (left + cell_w * w as i32 + 16).max(640);
    let height = head + cell_h * row_count as i32 + 24;
    let period = s.period();
    let how = match (s.proved(), period) {
        (Some(_), _) if is_period => "rows of the proved period".to_string(),
        (None, Some(_)) if is_period => "rows of the tentative period".to_string(),
        (_, Some((p, _))) => format!("rows of {w} (the period {p} is longer than {MOST_COLUMNS})"),
        (_, None) => format!("rows of {w} (no period known)"),
    };
    svg((width as u32, height as u32), |root| {
        let title = format!("{name}: heaps {from} to {to} in {how}");
        root.draw(&Text::new(title, (16, 10), text_style(17, &BLACK)))
            .map_err(failed)?;
        root.draw(&Text::new(
            s.period_text(),
            (16, 34),
            text_style(13, &BLACK),
        ))
        .map_err(failed)?;
        root.draw(&Text::new(
            s.marked.legend(),
            (16, 52),
            text_style(12, &RARE),
        ))
        .map_err(failed)?;
        let shades = "grey: the preperiod; orange: its exceptions (a value unlike the one a \
                      period on)";
        root.draw(&Text::new(shades, (16, 68), text_style(12, &MARK)))
            .map_err(failed)?;
        let centre = Pos::new(HPos::Center, VPos::Center);
        let right = Pos::new(HPos::Right, VPos::Center);
        for j in 0..w as i32 {
            let x = left + j * cell_w + cell_w / 2;
            root.draw(&Text::new(
                format!("+{j}"),
                (x, head - 12),
                text_style(12, &MARK).pos(centre),
            ))
            .map_err(failed)?;
        }
        for r in 0..row_count {
            let row = first_row + r;
            let y = head + r as i32 * cell_h;
            root.draw(&Text::new(
                (row * w).to_string(),
                (left - 8, y + cell_h / 2),
                text_style(12, &MARK).pos(right),
            ))
            .map_err(failed)?;
            for j in 0..w {
                let h = row * w + j;
                if h < from || h > to {
                    continue;
                }
                let v = seq.value(h);
                let x = left + j as i32 * cell_w;
                let fill = match period {
                    Some((p, e)) if h < e => {
                        let exception = is_period && h + p <= n && seq.value(h + p) != v;
                        Some(if exception { EXCEPTION } else { SHADE })
                    }
                    _ => None,
                };
                if let Some(fill) = fill {
                    root.draw(&Rectangle::new(
                        [(x, y), (x + cell_w, y + cell_h)],
                        fill.filled(),
                    ))
                    .map_err(failed)?;
                }
                let ink = if s.marked.is(v) { &RARE } else { &BLACK };
                root.draw(&Text::new(
                    v.to_string(),
                    (x + cell_w / 2, y + cell_h / 2),
                    text_style(12, ink).pos(centre),
                ))
                .map_err(failed)?;
            }
        }
        // The grid: a line under the column heads and left of the first column.
        let grid = MARK.mix(0.5).stroke_width(1);
        let bottom = head + cell_h * row_count as i32;
        root.draw(&PathElement::new(
            vec![(left, head - 2), (left + cell_w * w as i32, head - 2)],
            grid,
        ))
        .map_err(failed)?;
        root.draw(&PathElement::new(
            vec![(left - 2, head), (left - 2, bottom)],
            grid,
        ))
        .map_err(failed)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::survey::Marked;
    use super::*;
    use crate::games::candy::{CandySpec, WinRule};
    use crate::games::nim::NimSpec;
    use crate::games::octal::OctalSpec;
    use crate::games::subtraction::SubtractionSpec;
    use crate::lookup::Table;
    use crate::model::ValueKind;
    use crate::Spec;

    fn table(spec: Spec, kind: ValueKind) -> Table {
        Table::from_solved(&spec, spec.solve(kind, &()).unwrap()).unwrap()
    }

    fn kayles(n: u64) -> Table {
        table(
            Spec::new(OctalSpec::new("0.77", n).unwrap()),
            ValueKind::Grundy,
        )
    }

    #[test]
    fn kayles_is_drawn_with_its_proved_period() {
        let t = kayles(300);
        let seq = Sequence::of(&t).unwrap();
        let s = Survey::of(&seq);
        assert_eq!(s.proved(), Some((12, 71)));
        let svg = sequence("k", &seq, &s, HeapRange::default()).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("period 12 from heap 71"), "{svg}");
        // One panel: every heap of 0..=300 a point.
        assert_eq!(svg.matches("<circle").count(), 301);
        // Kayles to 300: the values 0 to 8 occur; the overview counts them all.
        assert_eq!(s.counts.iter().sum::<u64>(), 301);
        assert_eq!(s.max_value(), 8);
        let rows = rows("k", &seq, &s, HeapRange::default()).unwrap();
        // plotters writes a text's content on a line of its own.
        assert!(
            rows.contains("\n+11\n</text>") && !rows.contains("\n+12\n</text>"),
            "12 columns"
        );
        assert!(rows.contains("rows of the proved period"));
    }

    /// The overview reads every heap once: its buckets hold what the values hold.
    #[test]
    fn the_overview_counts_every_heap() {
        let t = kayles(5000);
        let seq = Sequence::of(&t).unwrap();
        let s = Survey::of(&seq);
        let mut counts = vec![0u64; 16];
        for h in 0..=5000 {
            counts[seq.value(h) as usize] += 1;
        }
        counts.truncate(s.counts.len());
        assert_eq!(s.counts, counts);
        assert_eq!(s.buckets.len() as u64, 5001u64.div_ceil(s.per_bucket));
        let b = &s.buckets[3];
        let values: Vec<u32> = (3 * s.per_bucket..4 * s.per_bucket)
            .map(|h| seq.value(h))
            .collect();
        assert_eq!(b.high, *values.iter().max().unwrap());
        assert_eq!(b.low, *values.iter().min().unwrap());
        let svg = sequence(
            "k",
            &seq,
            &s,
            HeapRange {
                from: Some(1000),
                to: Some(1099),
            },
        )
        .unwrap();
        assert!(svg.contains("heaps 1000 to 1099"));
        assert!(svg.contains("buckets of"));
    }

    #[test]
    fn axis_numbers_are_short() {
        let shown: Vec<String> = [0.0, 0.25, 0.5, 7.0, 1500.0, 25_000.0, 4.0e6, 4.25e9]
            .map(compact)
            .to_vec();
        assert_eq!(
            shown,
            ["0", "0.25", "0.5", "7", "1500", "25k", "4M", "4.25G"]
        );
        assert_eq!((whole(2.5), whole(3.0)), (String::new(), "3".to_string()));
    }

    #[test]
    fn bad_ranges_are_refused() {
        let t = kayles(300);
        let seq = Sequence::of(&t).unwrap();
        let s = Survey::of(&seq);
        let range = |from, to| HeapRange { from, to };
        for (r, says) in [
            (range(Some(20), Some(10)), "the first heap is past the last"),
            (range(None, Some(301)), "beyond this table's largest heap"),
            (range(Some(301), None), "the first heap is past the last"),
        ] {
            let e = sequence("k", &seq, &s, r).unwrap_err().to_string();
            assert!(
                e.contains(says) && e.contains("expected from <= to <= 300"),
                "{e}"
            );
            assert!(rows("k", &seq, &s, r).is_err());
        }
        let big = kayles(5000);
        let seq = Sequence::of(&big).unwrap();
        let s = Survey::of(&seq);
        let e = sequence("k", &seq, &s, range(Some(0), Some(1000)))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("1001 heaps are more than this picture shows"),
            "{e}"
        );
        assert!(sequence("k", &seq, &s, range(Some(0), Some(999))).is_ok());
        // Rows of 12: at most 200 rows.
        assert!(rows("k", &seq, &s, range(Some(5), Some(2399))).is_ok());
        assert!(rows("k", &seq, &s, range(Some(5), Some(2400))).is_err());
    }

    /// Each game's sequence is the entries of the positions of one heap.
    #[test]
    fn heaps_are_read_where_the_rules_rank_them() {
        // Each table with the position of one heap.
        type Position = fn(u32) -> Vec<u32>;
        let cases: Vec<(Table, Position)> = vec![
            (kayles(40), |h| vec![h]),
            (
                table(
                    Spec::new(SubtractionSpec::new(&[1, 3, 4], 60).unwrap()),
                    ValueKind::Grundy,
                ),
                |h| vec![h],
            ),
            (
                table(
                    Spec::new(NimSpec::new(1, 40, Some(3), false).unwrap()),
                    ValueKind::Grundy,
                ),
                |h| vec![h],
            ),
            (
                table(
                    Spec::new(CandySpec::new(41, 3, WinRule::Even).unwrap()),
                    ValueKind::Outcome,
                ),
                |m| vec![m, 0, (1 + m) % 2],
            ),
        ];
        for (t, position) in &cases {
            let seq = Sequence::of(t).unwrap();
            for h in 0..=seq.max_heap() {
                let i = t.index_of(&position(h as u32)).unwrap();
                assert_eq!(seq.seq.first + seq.seq.step * h, i, "{}", t.describe());
            }
        }
        // Nim of several heaps is no sequence, nor is Chomp.
        let nim = table(
            Spec::new(NimSpec::new(2, 5, None, false).unwrap()),
            ValueKind::Grundy,
        );
        assert!(Sequence::of(&nim).is_none());
    }

    /// S = {1,3,4}: period 7 from heap 0, proved (Winning Ways, ch. 4); the candy game has no
    /// theorem, so only a tentative period.
    #[test]
    fn subtraction_periods_are_proved_and_candy_ones_are_not() {
        let t = table(
            Spec::new(SubtractionSpec::new(&[1, 3, 4], 100).unwrap()),
            ValueKind::Grundy,
        );
        let s = Survey::of(&Sequence::of(&t).unwrap());
        assert_eq!(s.proved(), Some((7, 0)));
        let t = table(
            Spec::new(CandySpec::new(99, 3, WinRule::Even).unwrap()),
            ValueKind::Outcome,
        );
        let seq = Sequence::of(&t).unwrap();
        let s = Survey::of(&seq);
        assert_eq!(s.proved(), None);
        assert!(
            s.period_text().contains("does not cover this game"),
            "{}",
            s.period_text()
        );
        assert_eq!(s.marked, Marked::P);
        assert!(sequence("c", &seq, &s, HeapRange::default()).is_ok());
        assert!(rows("c", &seq, &s, HeapRange::default()).is_ok());
    }
}
