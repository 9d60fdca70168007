//! `tiered_game_view!`, the game view of a tiered game, in a file of its own: it names the
//! checks of [`crate::game::conformance`], which name the traits of `game/mod.rs`, so that
//! file names no item of theirs (no circle between the files).

/// The [`GameView`](crate::game::GameView) of a [`Tiered`](crate::model::Tiered) game that is
/// its own [`Rules`](crate::game::Rules): win/lose/tie/draw values (with remoteness, or in two
/// bits) from [`crate::solve::solve_tiered`], the memory of [`crate::solve::tiered_memory`],
/// the checks of [`crate::game::conformance::tiered`] (`tiered_game_view!(MyGame);` in the
/// game's file; a blanket impl would overlap the one every [`Game`](crate::model::Game) has).
macro_rules! tiered_game_view {
    ($game:ty) => {
        impl $crate::game::GameView for $game {
            fn positions(&self) -> u64 {
                $crate::model::Tiered::positions(self)
            }

            fn solve(
                &self,
                kind: $crate::model::ValueKind,
                progress: &dyn $crate::Progress,
            ) -> $crate::Result<$crate::format::Solved> {
                $crate::solve::solve_tiered(self, kind, progress, &())
            }

            fn solve_memory(&self, kind: $crate::model::ValueKind) -> u64 {
                $crate::solve::tiered_memory(self, kind)
            }

            fn conformance(&self) -> std::result::Result<u64, String> {
                $crate::game::conformance::tiered(self)
            }

            fn solve_saving(
                &self,
                kind: $crate::model::ValueKind,
                progress: &dyn $crate::Progress,
                saves: &dyn $crate::solve::Saves,
            ) -> $crate::Result<$crate::format::Solved> {
                $crate::solve::solve_tiered(self, kind, progress, saves)
            }

            fn saved_bytes(&self, kind: $crate::model::ValueKind) -> u64 {
                $crate::solve::tiered_saved_bytes(self, kind)
            }
        }
    };
}
pub(crate) use tiered_game_view;
