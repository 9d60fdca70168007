//! Chess endings: the longest mates of KQK and KRK as published, mates and stalemates where
//! the rules put them, FEN read back (the lookups' one-pass reader as shakmaty reads), tables
//! equal at one and two threads, and bad FENs refused with one line and exit status 2 while a
//! stream goes on; en passant positions (pawns of both sides) ranked, read and written back,
//! reached by double pushes and left by the capture. The recurrence of every value of the sample tables (KQk, KPk) is checked
//! by tests/conformance.rs.

mod common;

use common::*;
use gamedb::format::entries::standing;
use gamedb::games::chess::{ChessSpec, Endgame};
use gamedb::model::Standing;
use gamedb::{Spec, Table, ValueKind};

fn spec(men: &str) -> Spec {
    Spec::new(ChessSpec::new(men).unwrap())
}

/// The longest win for each side to move among the positions with `men` on the board.
fn longest_wins(t: &Table, men: usize) -> [u32; 2] {
    let rules = t.rules();
    let mut most = [0; 2];
    for i in 0..t.len() {
        if let Some((Standing::Win, r)) = standing::unpack(t.raw(i)) {
            let pos = rules.unrank(i);
            if pos[..64].iter().filter(|&&c| c != 0).count() == men {
                let side = pos[64] as usize;
                most[side] = most[side].max(r);
            }
        }
    }
    most
}

/// The longest mates: KQK 10 moves and KRK 16 moves with white to move (Ströhlein 1970;
/// Thompson 1986, ICCA Journal 9(3), "Retrograde analysis of certain endgames"), so 19 and
/// 31 plies; black never wins with a bare king.
#[test]
fn the_longest_mates_are_the_published_ones() {
    for (men, plies) in [("KQk", 19), ("KRk", 31)] {
        let t = table(&spec(men), ValueKind::Remoteness);
        assert_eq!(longest_wins(&t, 3), [plies, 0], "{men}");
    }
}

#[test]
fn mates_and_stalemates_end_the_game() {
    let t = table(&spec("KQk"), ValueKind::Remoteness);
    let value = |fen: &str| {
        t.query(fen)
            .unwrap()
            .standing()
            .map(|s| (s.value, s.remoteness))
    };
    // Mate on the back rank: lose in 0 for black.
    assert_eq!(
        value("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"),
        Some((Standing::Lose, Some(0)))
    );
    // Stalemate: the game ends drawn (a tie).
    assert_eq!(
        value("k7/8/1Q6/8/8/8/8/K7 b - - 0 1"),
        Some((Standing::Tie, Some(0)))
    );
    // Mate in one: Qb7# or Qd8#.
    assert_eq!(
        value("k7/3Q4/1K6/8/8/8/8/8 w - - 0 1"),
        Some((Standing::Win, Some(1)))
    );
    // Black takes the undefended queen: a dead position, a tie in one ply.
    assert_eq!(
        value("kQ6/8/8/8/8/8/8/7K b - - 0 1"),
        Some((Standing::Tie, Some(1)))
    );
    // The same positions under another of the board's symmetries read the same values.
    assert_eq!(
        value("8/8/8/8/8/1K6/3Q4/k7 w - - 0 1"),
        Some((Standing::Win, Some(1)))
    );
}

#[test]
fn positions_read_back_as_fen() {
    let t = table(&spec("KPk"), ValueKind::Remoteness);
    let rules = t.rules();
    for fen in [
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
        "4Q3/8/8/4k3/8/8/8/4K3 b - - 0 1",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    ] {
        let pos = rules.parse(fen).unwrap();
        assert_eq!(rules.format(&pos), fen);
        let i = rules.rank(&pos);
        assert_eq!(rules.rank(&rules.unrank(i)), i, "{fen}");
    }
    // A pawn that promotes: every promotion is a move of its own.
    let pos = rules.parse("8/4P3/8/8/8/2k5/8/K7 w - - 0 1").unwrap();
    let labels: Vec<String> = rules.moves(&pos).into_iter().map(|m| m.label).collect();
    for m in ["e8=Q", "e8=R", "e8=B", "e8=N"] {
        assert!(labels.iter().any(|l| l == m), "{labels:?}");
    }
}

#[test]
fn tables_are_the_same_bytes_at_one_and_two_threads() {
    let s = spec("KPk");
    let one = with_threads(1, || payload_bytes(&s, ValueKind::Remoteness));
    let two = with_threads(2, || payload_bytes(&s, ValueKind::Remoteness));
    assert!(one == two);
}

#[test]
fn the_command_line_answers_and_refuses_bad_input() {
    let dir = TempDir::new("chess-cli");
    let out = gamedb_ok(&["build", "chess", "--men", "KRk", "--out", dir.arg()]);
    assert!(out.contains("chess-KRk.gtab"), "{out}");
    let t = dir.join("chess-KRk.gtab");

    let text = gamedb_ok(&["query", &t, "8/8/8/8/8/2k5/8/K2R4 w - - 0 1"]);
    assert!(
        text.starts_with("8/8/8/8/8/2k5/8/K2R4 w - - 0 1: win in 25  moves: Rb1: win in 31;"),
        "{text}"
    );
    assert!(text.contains("Rd3+: tie in 2"), "{text}");
    let a = json(&gamedb_ok(&[
        "query",
        "--json",
        &t,
        "8/8/8/8/8/2k5/8/K2R4 b - - 0 1",
    ]));
    assert_eq!(a["value"], "lose");
    assert_eq!(a["remoteness"], 26);
    assert_eq!(a["moves"][0]["move"], "Kc2");

    for (fen, says) in [
        ("xx", "not a FEN"),
        ("8/8/8/8/8/2k5/8/K2R4 w KQ - 0 1", "castling rights"),
        ("8/8/8/8/8/2k5/8/3R4 w - - 0 1", "a king is missing"),
        (
            "8/8/8/8/8/2k5/8/K1R5 w - - 0 1",
            "the side not to move is in check",
        ),
        (
            "8/8/8/8/8/2k5/8/K2Q4 w - - 0 1",
            "the men KQk are not in this table",
        ),
        ("P7/8/8/8/8/2k5/8/K2R4 w - - 0 1", "first or last rank"),
        ("8/8/8/8/8/2k5/8/KK1R4 w - - 0 1", "more than one king"),
    ] {
        let e = refused(fen, &["query", &t, fen], &[says, "expected"]);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!e.contains("'s "), "{e}");
    }
    // The black king in check with black to move is a position.
    gamedb_ok(&["query", &t, "8/8/8/8/8/2k5/8/K1R5 b - - 0 1"]);
    refused(
        "bad men",
        &["build", "chess", "--men", "KXk", "--out", dir.arg()],
        &["--men", "expected"],
    );

    // A stream answers every line and goes on after a bad one.
    let o = gamedb_stdin(
        &["query", &t, "-", "--json"],
        b"8/8/8/8/8/2k5/8/K2R4 w - - 0 1\nnonsense\n8/8/8/8/8/1k6/8/K1R5 w - - 0 1\n",
    );
    let lines = json_lines(&stdout(&o));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["value"], "win");
    assert!(lines[1]["error"].as_str().unwrap().contains("not a FEN"));
    assert_eq!(lines[2]["remoteness"], 21);
    assert_eq!(o.status.code(), Some(2));
}

/// A FEN of random men (kings most of the time) with the fields written in one of the ways
/// people and programs write them, or changed by a character or two.
fn random_fen(rng: &mut Rng) -> String {
    const MEN: &[u8] = b"QRBNPqrbnpKk";
    let mut board = [b'.'; 64];
    let mut men: Vec<u8> = Vec::new();
    for king in [b'K', b'k'] {
        if rng.below(10) != 0 {
            men.push(king);
        }
    }
    for _ in 0..rng.below(4) {
        men.push(MEN[rng.below(MEN.len() as u64) as usize]);
    }
    for m in men {
        board[rng.below(64) as usize] = m;
    }
    let mut text = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let c = board[rank * 8 + file];
            // Runs of empty squares sometimes split ("44" for "8"), as some writers do.
            if c == b'.' && !(empty > 0 && rng.below(8) == 0) {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = usize::from(c == b'.');
            }
            if c != b'.' {
                text.push(c as char);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    const TAILS: &[&str] = &[
        " w - - 0 1",
        " b - - 0 1",
        " w - - 13 57",
        " b - - 0 0",
        " w - -",
        " b -",
        " w",
        "",
        " w - - 7",
        " b  - - 0 1",
        "_w_-_-_0_1",
        " w KQ - 0 1",
        " b - e3 0 1",
        " w - e6 0 1",
        " w - - 1234567890123 1",
        " w - - +1 2",
        " w - - 0 1 x",
        " W - - 0 1",
        " w - - 0 1 ",
        " w - - a 1",
        " b - - 0 1 3+3",
        "[Qq] w - - 0 1",
    ];
    text.push_str(TAILS[rng.below(TAILS.len() as u64) as usize]);
    for _ in 0..rng.below(4).saturating_sub(1) {
        const INTO: &[u8] = b"/12345678980KkQqPpw- _~[]+x";
        let mut bytes = text.into_bytes();
        let at = rng.below(bytes.len() as u64 + 1) as usize;
        let ch = INTO[rng.below(INTO.len() as u64) as usize];
        match rng.below(3) {
            0 if at < bytes.len() => bytes[at] = ch,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, ch),
        }
        text = String::from_utf8(bytes).unwrap();
    }
    text
}

/// The FEN reader of lookups (`fen::quick`, one pass over the common form) reads what
/// shakmaty's parser reads, and leaves every other text to it: on 200,000 random FENs
/// (written in many ways, some with characters changed), whatever it reads shakmaty reads
/// to the same board and side with no castling rights, en passant square, pockets or checks;
/// it reads every FEN of the common form; and the chess rules' lookup from text gives an index
/// exactly where parsing the text and checking the position does (the same refusals).
#[test]
fn the_quick_fen_reader_reads_as_shakmaty_does() {
    use gamedb::games::chess::fen;
    use shakmaty::fen::Fen;
    let rules = spec("KRPk").view().shared_rules();
    let mut rng = Rng(0x5eed_f3e2);
    let (mut quick, mut indexed) = (0, 0);
    for _ in 0..200_000 {
        let text = random_fen(&mut rng);
        if let Some((board, turn)) = fen::quick(&text) {
            quick += 1;
            let setup = match Fen::from_ascii(text.as_bytes()) {
                Ok(f) => f.into_setup(),
                Err(e) => panic!("'{text}': read by the quick reader, refused by shakmaty: {e}"),
            };
            assert_eq!(setup.board, board, "{text}");
            assert_eq!(setup.turn, turn, "{text}");
            assert!(!setup.castling_rights.any(), "{text}");
            assert!(setup.ep_square.is_none(), "{text}");
            assert!(setup.pockets.is_none(), "{text}");
            assert!(setup.remaining_checks.is_none(), "{text}");
            assert!(!setup.promoted.any(), "{text}");
        }
        if let Some(board) = text.strip_suffix(" w - - 0 1") {
            let common = !board.contains([' ', '_', '[', '~']) && board.matches('/').count() == 7;
            if common && Fen::from_ascii(text.as_bytes()).is_ok() {
                assert!(fen::quick(&text).is_some(), "'{text}' left to shakmaty");
            }
        }
        indexed += usize::from(rules.text_entry_index(&text).is_some());
        let agrees = gamedb::game::conformance::text_entry_index(rules.as_ref(), &text);
        assert!(agrees.is_ok(), "{}", agrees.unwrap_err());
    }
    // Both paths were taken often.
    assert!(
        quick > 40_000 && indexed > 10_000,
        "{quick} read, {indexed} indexed"
    );
}

/// The en passant blocks of KPkp (each at the end of the tier of its pawns' placement, the
/// last material's tiers last): every legal index unranks to a position with an en passant
/// square that check() accepts, ranks back, reads back from its FEN, is not the same men
/// without the right, and lists the capture.
#[test]
fn en_passant_positions_rank_read_back_and_list_the_capture() {
    use gamedb::game::Rules;
    use gamedb::model::{Indexed, Tiered};
    let g = Endgame::new(ChessSpec::new("KPkp").unwrap());
    // The tiers of KPkp: those at the end whose positions have four men.
    let men = |i: u64| g.unrank(i)[..64].iter().filter(|&&c| c != 0).count();
    let mut t = g.tier_count();
    while t > 0 && men(g.tier(t - 1).start) == 4 {
        t -= 1;
    }
    let first = g.tier(t).start;
    let mut seen = [0u64; 2];
    for i in first..g.positions() {
        if g.unrank(i).len() != 66 || !g.legal(i) {
            continue;
        }
        let pos = g.unrank(i);
        g.check(&pos).unwrap();
        assert_eq!(g.rank(&pos), i);
        let fen = g.format(&pos);
        assert_eq!(g.parse(&fen).unwrap(), pos, "{fen}");
        assert_ne!(g.rank(&pos[..65]), i, "{fen}");
        let target = shakmaty::Square::new(pos[65]).to_string();
        let moves = g.moves(&pos);
        assert!(
            moves
                .iter()
                .any(|m| m.label.contains(&format!("x{target}"))),
            "{fen}"
        );
        seen[pos[64] as usize] += 1;
    }
    // Both sides to move, in their thousands (each of 8 files, kings placed freely).
    assert!(seen[0] > 10_000 && seen[1] > 10_000, "{seen:?}");
}

/// A double push next to an enemy pawn leads to the en passant position (its own index); a
/// double push with no pawn to take it, or a single push, does not; FEN queries with an en
/// passant field are read, a square no capture can use is dropped, a square no pawn crossed
/// is refused.
#[test]
fn double_pushes_and_en_passant_fields() {
    use gamedb::game::Rules;
    let g = Endgame::new(ChessSpec::new("KPkp").unwrap());
    let pos = g.parse("8/8/8/8/5p2/8/4P3/K6k w - - 0 1").unwrap();
    let moves = g.moves(&pos);
    let leaves = |label: &str| {
        moves
            .iter()
            .find(|m| m.label == label)
            .map(|m| m.leaves.clone())
            .unwrap()
    };
    let e4 = leaves("e4");
    assert_eq!(g.format(&e4), "8/8/8/8/4Pp2/8/8/K6k b - e3 0 1");
    assert_eq!(leaves("e3").len(), 65);
    let with = g.parse("8/8/8/8/4Pp2/8/8/K6k b - e3 0 1").unwrap();
    let without = g.parse("8/8/8/8/4Pp2/8/8/K6k b - - 0 1").unwrap();
    assert_eq!(with, e4);
    assert_ne!(g.rank(&with), g.rank(&without));
    let labels = |p: &[u32]| -> Vec<String> { g.moves(p).into_iter().map(|m| m.label).collect() };
    assert!(labels(&with).contains(&"fxe3".to_string()));
    assert!(!labels(&without).contains(&"fxe3".to_string()));
    // The same men mirrored: the same index.
    let mirrored = g.parse("8/8/8/8/2pP4/8/8/k6K b - d3 0 1").unwrap();
    assert_eq!(g.rank(&mirrored), g.rank(&with));
    // No black pawn beside it: the square is dropped (the same position as without it).
    let k = Endgame::new(ChessSpec::new("KPk").unwrap());
    let lone = k.parse("8/8/8/8/4P3/8/8/K6k b - e3 0 1").unwrap();
    assert_eq!(lone, k.parse("8/8/8/8/4P3/8/8/K6k b - - 0 1").unwrap());
    // Cells that claim an en passant square no capture can use are refused.
    let mut claim = lone.clone();
    claim.push(20);
    assert!(k.check(&claim).is_err());
    for fen in [
        "8/8/8/8/4Pp2/8/8/K6k b - e6 0 1",
        "8/8/8/8/4Pp2/8/8/K6k b - d3 0 1",
        "8/8/8/8/4Pp2/8/4P3/K6k b - e3 0 1",
    ] {
        let e = g.parse(fen).unwrap_err().to_string();
        assert!(e.contains("en passant") && e.contains("expected"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
