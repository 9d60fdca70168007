//! `gamedb export TABLE [--only P|N] [--format csv|jsonl] [--out FILE]`: every position with
//! its values, in index order (see `crate::report::export`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::report::export::{export, Format};
use crate::{Error, Outcome, Table};

use super::{progress_bar, set_threads, Common, Failure};

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum Only {
    /// P-positions only.
    P,
    /// N-positions only.
    N,
}

#[derive(Args)]
pub(crate) struct ExportArgs {
    /// The table file.
    pub table: PathBuf,
    /// Only the positions of this outcome (outcome and Grundy tables).
    #[arg(long, value_enum, ignore_case = true)]
    pub only: Option<Only>,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
    /// Write to this file (through a temporary file renamed when complete) instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Skip the payload checksum when opening.
    #[arg(long)]
    pub no_verify: bool,
    #[command(flatten)]
    pub common: Common,
}

pub(crate) fn run(a: ExportArgs) -> Result<(), Failure> {
    set_threads(a.common.threads)?;
    let table = Table::open(&a.table)?;
    if !a.no_verify {
        table.verify()?;
    }
    let only = a.only.map(|o| match o {
        Only::P => Outcome::P,
        Only::N => Outcome::N,
    });
    let pb = progress_bar(a.common.quiet, table.len(), "positions scanned".into());
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |e| Error::Io { path, source: e }
    };
    let rows = match &a.out {
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            let rows = export(&table, only, a.format, &mut out, &pb);
            // A reader that went away (`| head`) ends the export quietly.
            match rows {
                Err(Error::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::BrokenPipe =>
                {
                    return Ok(())
                }
                r => r?,
            }
        }
        Some(path) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "export".into());
            let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
            let file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            let rows = export(&table, only, a.format, &mut out, &pb).and_then(|rows| {
                let file = out
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .map_err(io(&tmp))?;
                file.sync_all().map_err(io(&tmp))?;
                std::fs::rename(&tmp, path).map_err(io(path))?;
                Ok(rows)
            });
            if rows.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            rows?
        }
    };
    pb.finish_and_clear();
    if let Some(path) = &a.out {
        let _ = std::io::stdout().flush();
        eprintln!("wrote {rows} rows to {}", path.display());
    }
    Ok(())
}
