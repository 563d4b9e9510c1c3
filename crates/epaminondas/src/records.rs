//! Reading game records from files for the subcommands: one file may hold
//! several games (as `match --records` writes them), and `--game N` picks
//! one of them.

use std::path::Path;

use epaminondas_rules::GameRecord;

/// Reads a file, or standard input for `-`.
pub fn read_text(path: &Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}

/// The name a file goes by in messages.
fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

/// Reads the game records of `path` and picks game `game` (counted from
/// 1). Without `game`, a file of one game gives it; a file of several gives
/// the first, and a note on standard error says how many there are and how
/// to pick another. Also returns how many games the file holds.
pub fn read_one(path: &Path, game: Option<usize>) -> Result<(GameRecord, usize), String> {
    let name = shown(path);
    let mut records = GameRecord::read_all(&read_text(path)?)
        .map_err(|(n, e)| format!("{name}: game {n}: {e}"))?;
    let count = records.len();
    match game {
        _ if count == 0 => Err(format!("{name} holds no game record")),
        Some(n) if n == 0 || n > count => Err(format!(
            "--game {n}: {name} holds {count} game{} (1 to {count})",
            if count == 1 { "" } else { "s" }
        )),
        Some(n) => Ok((records.swap_remove(n - 1), count)),
        None => {
            if count > 1 {
                eprintln!("{name} holds {count} games: taking game 1 (pick another with --game N)");
            }
            Ok((records.swap_remove(0), count))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_several_games_gives_the_one_asked_for() {
        let dir = std::env::temp_dir().join(format!("epaminondas-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        std::fs::write(
            &path,
            "[Board \"8x8\"]\n\n1. c2-c3 *\n\n[Board \"6x6\"]\n\n1. a2-a3 b5-b4 *\n",
        )
        .unwrap();
        let (first, count) = read_one(&path, None).unwrap();
        assert_eq!((first.moves().len(), count), (1, 2));
        let (second, _) = read_one(&path, Some(2)).unwrap();
        assert_eq!(second.position().size().to_string(), "6x6");
        assert_eq!(
            read_one(&path, Some(3)).unwrap_err(),
            format!("--game 3: {} holds 2 games (1 to 2)", path.display())
        );
        assert!(read_one(&path, Some(0)).is_err());
        std::fs::write(&path, "\n").unwrap();
        assert!(
            read_one(&path, None)
                .unwrap_err()
                .ends_with("holds no game record")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
