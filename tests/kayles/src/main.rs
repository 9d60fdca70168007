//! The whole command line of gamedb, knowing one more game: `kayles build kayles/kayles
//! --pins 12`, `kayles query TABLE 1,1,0,1,...`, `kayles serve`, ...

fn main() -> std::process::ExitCode {
    gamedb::cli::main_with(gamedb::Registry::builtin().with::<kayles::Kayles>())
}
