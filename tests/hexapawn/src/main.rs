//! gamedb's whole command line, knowing one more game: Hexapawn.
fn main() -> std::process::ExitCode {
    gamedb::cli::main_with(gamedb::Registry::builtin().with::<hexapawn::Hexapawn>())
}
