//! `gamedb plot`: pictures of a table as SVG, drawn with `plotters`.
//!
//! * [`Picture::Values`]: the value distribution (distances of a puzzle table, Grundy values,
//!   or P against N) as a histogram;
//! * [`Picture::Census`]: a Chomp box's P-position census (P-positions in every sub-box of a
//!   rows and b columns) as a heat map;
//! * [`Picture::Pairs`]: for Nim or Wythoff, the P-positions of two heaps `(a, b)` as points;
//! * [`Picture::Chomp3`]: the P-positions `(p, q, r)` of three-rowed Chomp for one `r`, as
//!   points in the `(q, p − q)` plane. It reads them through [`ThreeRowed`], which a Chomp
//!   box of at least three rows implements, and so does a three-rowed Chomp table (`gamedb
//!   build chomp3`: every `q ≤ N`, long first rows), straight from its `f(q, r)`.
//! * [`Picture::Sequence`] and [`Picture::Rows`]: a heap game's values against the heap, and
//!   set in rows of the period ([`super::sequence`]).
//!
//! Text is written as SVG `<text>` elements in the generic `sans-serif` family, which every
//! SVG viewer resolves: plotters is built without its font features, so it lays text out with
//! its own size estimate and never reads a font file (no system fonts needed to make the
//! picture).

use std::sync::Arc;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::games::{chomp::ChompSpec, chomp3::Chomp3Spec, nim::NimSpec, wythoff::WythoffSpec};
use crate::lookup::Table;
use crate::model::{Outcome, ValueKind};
use crate::report::distribution::Distribution;
use crate::report::sequence::{self, HeapRange, Sequence, Survey};
use crate::{Error, Result};

/// Which picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Picture {
    /// The value distribution as a histogram (every table).
    Values,
    /// A Chomp box's P-census heat map (Chomp outcome or Grundy tables).
    Census,
    /// The P-positions of two heaps (Nim with at least two heaps, Wythoff).
    Pairs,
    /// Three-rowed Chomp: P-positions (p,q,r) for one r as points (q, p−q) (three-rowed
    /// Chomp tables, Chomp tables of at least three rows).
    Chomp3,
    /// The values against the heap: an overview of the whole table beside a detail of a
    /// range (--from/--to), the proved period marked (octal and subtraction games, one-heap
    /// Nim, the candy game).
    Sequence,
    /// The values in rows of the period, so that it shows as columns (the proved or tentative
    /// period up to 64, else rows of 12; the same tables as sequence).
    Rows,
}

/// What a picture is drawn with beyond the table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    /// [`Picture::Chomp3`]: the third row (default 1).
    pub third_row: Option<u32>,
    /// [`Picture::Sequence`] and [`Picture::Rows`]: the heaps shown.
    pub range: HeapRange,
}

/// The picture drawn when none is named: the census of a Chomp outcome table, the pairs of a
/// Nim or Wythoff outcome table, the P-positions of r = 1 of a three-rowed Chomp table, the
/// sequence of a heap game, the value histogram otherwise.
pub(crate) fn default_picture(table: &Table) -> Picture {
    let outcomes = table.value_kind() == ValueKind::Outcome;
    if Sequence::of(table).is_some() {
        Picture::Sequence
    } else if outcomes && table.spec_of::<ChompSpec>().is_some() {
        Picture::Census
    } else if outcomes && (pairs_of(table).is_some()) {
        Picture::Pairs
    } else if table.spec_of::<Chomp3Spec>().is_some() {
        Picture::Chomp3
    } else {
        Picture::Values
    }
}

/// The largest heap of a table of pairs of heaps: Nim of two heaps or more, Wythoff.
fn pairs_of(table: &Table) -> Option<u32> {
    if let Some(n) = table.spec_of::<NimSpec>() {
        return (n.heaps() >= 2).then_some(n.max_heap());
    }
    table.spec_of::<WythoffSpec>().map(WythoffSpec::max_heap)
}

/// Pixel size of every picture.
const SIZE: (u32, u32) = (900, 600);
const FONT: &str = "sans-serif";
const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const POINT: RGBColor = RGBColor(0xb2, 0x22, 0x22);

fn failed<E: std::fmt::Display>(e: E) -> Error {
    Error::unsupported(format!("drawing the picture failed: {e}"))
}

/// Draws `picture` of `table` as an SVG document. An option the picture does not use is
/// refused (the front ends refuse it first, in their words).
pub(crate) fn plot(table: &Table, picture: Picture, options: &Options) -> Result<String> {
    plot_surveyed(table, picture, options, &|seq| Arc::new(Survey::of(seq)))
}

/// [`plot`], with the survey of a heap sequence (one pass over the whole table) from
/// `survey`: the service keeps it, so that the pictures of other ranges are drawn at once.
pub(crate) fn plot_surveyed(
    table: &Table,
    picture: Picture,
    options: &Options,
    survey: &dyn Fn(&Sequence) -> Arc<Survey>,
) -> Result<String> {
    let r = options.third_row;
    if r.is_some() && picture != Picture::Chomp3 {
        return Err(Error::bad("the third row goes with the picture chomp3"));
    }
    let heap_picture = matches!(picture, Picture::Sequence | Picture::Rows);
    if options.range.is_given() && !heap_picture {
        return Err(Error::bad(
            "a range of heaps (from, to) goes with the pictures sequence and rows",
        ));
    }
    let name = table
        .file()
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match picture {
        Picture::Values => values(&name, &Distribution::of(table)),
        Picture::Census => census(&name, table),
        Picture::Pairs => pairs(&name, table),
        Picture::Chomp3 => {
            let r = r.unwrap_or(1);
            if let Some(source) = ThreeRowTable::of(table) {
                return chomp3(&name, &source, r);
            }
            let source = ChompBox::of(table).ok_or_else(|| {
                refuse(
                    table,
                    "chomp3",
                    "a three-rowed Chomp table or a Chomp box of at least three rows",
                )
            })?;
            chomp3(&name, &source, r)
        }
        Picture::Sequence | Picture::Rows => {
            let seq = Sequence::of(table).ok_or_else(|| {
                refuse(
                    table,
                    if picture == Picture::Rows {
                        "rows"
                    } else {
                        "sequence"
                    },
                    "a table of the values of one heap of each size (an octal or subtraction \
                     game, Nim of one heap, the candy game)",
                )
            })?;
            let survey = survey(&seq);
            if picture == Picture::Rows {
                sequence::rows(&name, &seq, &survey, options.range)
            } else {
                sequence::sequence(&name, &seq, &survey, options.range)
            }
        }
    }
}

fn refuse(table: &Table, picture: &str, needs: &str) -> Error {
    Error::bad(format!(
        "picture '{picture}' needs {needs}; {} holds {}. Pictures of this table: {}",
        table.file().path().display(),
        table.describe(),
        possible(table).join(", ")
    ))
}

/// The pictures a table can give.
pub(crate) fn possible(table: &Table) -> Vec<&'static str> {
    let mut out = vec!["values"];
    if let Some(c) = table.spec_of::<ChompSpec>() {
        out.push("census");
        if c.rows() >= 3 {
            out.push("chomp3");
        }
    }
    if pairs_of(table).is_some() {
        out.push("pairs");
    }
    if table.spec_of::<Chomp3Spec>().is_some() {
        out.push("chomp3");
    }
    if Sequence::of(table).is_some() {
        out.extend(["sequence", "rows"]);
    }
    out
}

fn values(name: &str, d: &Distribution) -> Result<String> {
    let what = match d.values {
        "distance" => "distance",
        "grundy" => "Grundy value",
        _ => "outcome",
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let n = d.counts.len().max(1) as u32;
        let top = d.counts.iter().copied().max().unwrap_or(1).max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{name}: positions at each {what}"), (FONT, 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(96)
            .build_cartesian_2d((0..n).into_segmented(), 0..top + top / 20 + 1)
            .map_err(failed)?;
        let labels = d.labels.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(what)
            .y_desc("positions")
            .x_labels(d.counts.len().min(40))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                    labels.get(*i as usize).cloned().unwrap_or_default()
                }
                SegmentValue::Last => String::new(),
            })
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(failed)?;
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(BAR.filled())
                    .margin(2)
                    .data(d.counts.iter().enumerate().map(|(i, &c)| (i as u32, c))),
            )
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn census(name: &str, table: &Table) -> Result<String> {
    let Some(spec) = table.spec_of::<ChompSpec>() else {
        return Err(refuse(table, "census", "a Chomp table"));
    };
    let (rows, cols) = (spec.rows() as usize, spec.cols() as usize);
    let chomp = crate::games::chomp::Chomp::new(spec.clone());
    let counts = chomp.census(table);
    let top = counts[rows][cols].max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{name}: P-positions in each sub-box (a rows, b columns)"),
                (FONT, 22),
            )
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(0.5f64..cols as f64 + 0.5, rows as f64 + 0.5..0.5f64)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("b (columns)")
            .y_desc("a (rows)")
            .x_labels(cols.min(20))
            .y_labels(rows.min(20))
            .x_label_formatter(&|v| format!("{}", v.round()))
            .y_label_formatter(&|v| format!("{}", v.round()))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(failed)?;
        let cell_px = (SIZE.0 as usize - 120) / cols.max(1);
        let show_numbers = cell_px >= 7 * (top.log10() as usize + 1);
        for (a, row) in counts.iter().enumerate().skip(1) {
            for (b, &n) in row.iter().enumerate().skip(1) {
                // Log scale: the counts span several orders of magnitude.
                let t = if n == 0 {
                    0.0
                } else {
                    (1.0 + n as f64).ln() / (1.0 + top).ln()
                };
                let color = heat(t);
                let (x, y) = (b as f64, a as f64);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                        color.filled(),
                    )))
                    .map_err(failed)?;
                if show_numbers {
                    let ink = if t > 0.6 { WHITE } else { BLACK };
                    let style = TextStyle::from((FONT, 11).into_font())
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    chart
                        .draw_series(std::iter::once(Text::new(n.to_string(), (x, y), style)))
                        .map_err(failed)?;
                }
            }
        }
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// Light yellow (0) to dark red (1).
fn heat(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(lerp(255.0, 128.0), lerp(247.0, 0.0), lerp(188.0, 38.0))
}

fn scatter(
    title: String,
    x_desc: &str,
    y_desc: &str,
    x_max: u32,
    y_max: u32,
    points: &[(u32, u32)],
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(0..x_max + 1, 0..y_max + 1)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(failed)?;
        let radius = if x_max.max(y_max) > 120 { 2 } else { 3 };
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), radius, POINT.filled())),
            )
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn pairs(name: &str, table: &Table) -> Result<String> {
    let most = match pairs_of(table) {
        Some(most) => most,
        None => {
            return Err(refuse(
                table,
                "pairs",
                "a Nim table of at least two heaps, or Wythoff",
            ))
        }
    };
    let mut points = Vec::new();
    for a in 0..=most {
        for b in 0..=most {
            if table.outcome_of(&[a, b])? == Outcome::P {
                points.push((a, b));
            }
        }
    }
    scatter(
        format!("{name}: P-positions (a, b) of two heaps"),
        "a (first heap)",
        "b (second heap)",
        most,
        most,
        &points,
    )
}

/// Where [`Picture::Chomp3`] reads three-rowed Chomp positions `(p, q, r)`, `p ≥ q ≥ r ≥ 0`.
pub(crate) trait ThreeRowed {
    /// The longest second row the picture shows (and the largest third row it accepts): the
    /// box's width, or a three-rowed table's N.
    fn max_first_row(&self) -> u32;
    /// Whether `(p, q, r)` is a P-position.
    fn is_p(&self, p: u32, q: u32, r: u32) -> Result<bool>;
    /// The P-positions `(p, q, r)` of this `r` as points `(q, p − q)`. By default every
    /// position with `p ≤` [`max_first_row`](ThreeRowed::max_first_row) is asked.
    fn p_points(&self, r: u32) -> Result<Vec<(u32, u32)>> {
        let most = self.max_first_row();
        let mut points = Vec::new();
        for p in r.max(1)..=most {
            for q in r..=p {
                if self.is_p(p, q, r)? {
                    points.push((q, p - q));
                }
            }
        }
        Ok(points)
    }
}

/// A Chomp box of at least three rows, read as three-rowed Chomp.
pub(crate) struct ChompBox<'a> {
    table: &'a Table,
    cols: u32,
}

impl<'a> ChompBox<'a> {
    /// The box of `table`, when it is a Chomp table of at least three rows.
    pub(crate) fn of(table: &'a Table) -> Option<ChompBox<'a>> {
        let c = table.spec_of::<ChompSpec>().filter(|c| c.rows() >= 3)?;
        Some(ChompBox {
            table,
            cols: c.cols(),
        })
    }
}

impl ThreeRowed for ChompBox<'_> {
    fn max_first_row(&self) -> u32 {
        self.cols
    }
    fn is_p(&self, p: u32, q: u32, r: u32) -> Result<bool> {
        Ok(self.table.outcome_of(&[p, q, r])? == Outcome::P)
    }
}

/// A three-rowed Chomp table (`gamedb build chomp3`): every `q ≤ N`, the first row as long as
/// one likes; its P-positions are read straight from `f(q, r)`.
pub(crate) struct ThreeRowTable<'a> {
    table: &'a Table,
    max: u32,
}

impl<'a> ThreeRowTable<'a> {
    /// The table, when it is a three-rowed Chomp table.
    pub(crate) fn of(table: &'a Table) -> Option<ThreeRowTable<'a>> {
        let c = table.spec_of::<Chomp3Spec>()?;
        Some(ThreeRowTable {
            table,
            max: c.max(),
        })
    }
}

impl ThreeRowed for ThreeRowTable<'_> {
    fn max_first_row(&self) -> u32 {
        self.max
    }
    fn is_p(&self, p: u32, q: u32, r: u32) -> Result<bool> {
        Ok(self.table.outcome_of(&[p, q, r])? == Outcome::P)
    }
    fn p_points(&self, r: u32) -> Result<Vec<(u32, u32)>> {
        let entry = |i: u64| self.table.raw(i);
        let view = crate::games::chomp3::View::new(self.max, &entry);
        Ok((r as u64..=self.max as u64)
            .filter_map(|q| view.f(q, r as u64).map(|f| (q as u32, (f - q) as u32)))
            .collect())
    }
}

/// The P-positions `(p, q, r)` of one `r` as points `(q, p − q)`.
pub(crate) fn chomp3(name: &str, source: &dyn ThreeRowed, r: u32) -> Result<String> {
    let most = source.max_first_row();
    if r > most || r == 0 && most == 0 {
        return Err(Error::bad(format!(
            "--third-row {r}: expected 0..={most} (the third row is at most the first)"
        )));
    }
    let points = source.p_points(r)?;
    let top = points.iter().map(|&(_, d)| d).max().unwrap_or(0);
    scatter(
        format!("{name}: P-positions (p, q, {r}) of three-rowed Chomp"),
        "q (second row)",
        "p − q (first row beyond the second)",
        most,
        top.max(1),
        &points,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Spec;

    fn table(spec: Spec, kind: ValueKind) -> Table {
        Table::from_solved(&spec, spec.solve(kind, &()).unwrap()).unwrap()
    }

    fn r(third_row: u32) -> Options {
        Options {
            third_row: Some(third_row),
            ..Options::default()
        }
    }

    #[test]
    fn pictures_are_svg_with_text_and_no_font_files() {
        let chomp = table(Spec::new(ChompSpec::new(4, 6).unwrap()), ValueKind::Outcome);
        let wythoff = table(Spec::new(WythoffSpec::new(20).unwrap()), ValueKind::Grundy);
        for (t, p) in [
            (&chomp, Picture::Census),
            (&chomp, Picture::Values),
            (&chomp, Picture::Chomp3),
            (&wythoff, Picture::Values),
            (&wythoff, Picture::Pairs),
        ] {
            let svg = plot(t, p, &Options::default()).unwrap();
            assert!(svg.starts_with("<svg"), "{p:?}: {}", &svg[..60]);
            assert!(svg.contains("<text"), "{p:?}");
            assert!(svg.contains("sans-serif"), "{p:?}");
            assert!(!svg.contains("url("), "{p:?}: no external resources");
        }
        // Wythoff's P-positions of two heaps up to 20: (0,0), (1,2), (3,5), (4,7), (6,10),
        // (8,13), (9,15), (11,18), (12,20) and their mirror images: 17 points.
        let svg = plot(&wythoff, Picture::Pairs, &Options::default()).unwrap();
        assert_eq!(svg.matches("<circle").count(), 17);
        let err = plot(&wythoff, Picture::Census, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("values, pairs"), "{err}");
        // A Chomp table is no sequence of heaps: refused with the pictures it has.
        let err = plot(&chomp, Picture::Sequence, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("picture 'sequence' needs a table of the values of one heap")
                && err.contains("Pictures of this table: values, census, chomp3"),
            "{err}"
        );
        let range = Options {
            range: HeapRange {
                from: Some(1),
                to: None,
            },
            ..Options::default()
        };
        assert!(plot(&chomp, Picture::Census, &range).is_err());
    }

    /// A three-rowed Chomp table draws the same P-positions as a box that holds them.
    #[test]
    fn three_rowed_tables_draw_their_p_positions() {
        use crate::games::chomp3::Chomp3Spec;
        let rows = table(
            Spec::new(Chomp3Spec::new(30).unwrap()),
            ValueKind::Extension,
        );
        let boxed = table(
            Spec::new(ChompSpec::new(3, 60).unwrap()),
            ValueKind::Outcome,
        );
        assert_eq!(default_picture(&rows), Picture::Chomp3);
        let from_table = ThreeRowTable::of(&rows).unwrap();
        let from_box = ChompBox::of(&boxed).unwrap();
        for r in 0..=30 {
            // Every f(q, r) with q ≤ 30 is at most 60, so the box holds them all.
            let mut want: Vec<(u32, u32)> = from_box
                .p_points(r)
                .unwrap()
                .into_iter()
                .filter(|&(q, _)| q <= 30)
                .collect();
            want.sort_unstable();
            assert_eq!(from_table.p_points(r).unwrap(), want, "r = {r}");
        }
        // r = 3: (6,3,3), (7,4,3), (5,5,3).
        let svg = plot(&rows, Picture::Chomp3, &r(3)).unwrap();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(plot(&rows, Picture::Chomp3, &r(31)).is_err());
    }
}
