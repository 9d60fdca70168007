//! `gamedb completions SHELL` and `gamedb man [--out DIR]`: shell completions and manual
//! pages generated from the command-line definitions (so they never drift from `--help`).

use std::path::PathBuf;

use clap::{Args, CommandFactory};

use crate::Error;

use super::{Cli, Failure};

#[derive(Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

#[derive(Args)]
pub(crate) struct ManArgs {
    /// Write gamedb.1 and one page per subcommand (gamedb-query.1, ...) into this folder
    /// instead of printing gamedb.1 on stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub(crate) fn completions(a: CompletionsArgs) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    clap_complete::generate(a.shell, &mut cmd, "gamedb", &mut std::io::stdout());
    Ok(())
}

pub(crate) fn man(a: ManArgs) -> Result<(), Failure> {
    let cmd = Cli::command();
    let io = |path: PathBuf| move |e| Error::Io { path, source: e };
    match a.out {
        None => clap_mangen::Man::new(cmd)
            .render(&mut std::io::stdout())
            .map_err(io("<stdout>".into()))?,
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(io(dir.clone()))?;
            clap_mangen::generate_to(cmd, &dir).map_err(io(dir.clone()))?;
            println!("wrote the manual pages to {}", dir.display());
        }
    }
    Ok(())
}
