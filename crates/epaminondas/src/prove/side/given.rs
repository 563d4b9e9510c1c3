//! `solve --moves --side --use-proof FILE`: proofs written by other runs
//! (a position searched whole on its own, hours long, with `solve --full
//! --position ... --proof`) taken as the values of their start positions,
//! with their strategies, so that the run does not search them again and
//! the proof it writes joins them in. Every file is checked with the rules
//! alone before it is used, so a file spoilt or made up can neither
//! decide a position nor spoil the proof written.

use std::collections::HashMap;
use std::path::Path;

use epaminondas_engine::dfpn::known::SideValue;
use epaminondas_rules::proof::{self, Claim, ProofText};
use epaminondas_rules::{Color, Position, Setup};

use super::Strategy;
use crate::output::Failure;

/// The proofs given: by the text of the position each starts from, that
/// position, its value for the run's side and its strategy (the side's
/// win, or the other side's hold or win).
#[derive(Default)]
pub(super) struct GivenProofs {
    by_start: HashMap<String, (Position, SideValue, Strategy)>,
}

impl GivenProofs {
    /// Reads and checks the proof files at `paths` for a run looking for
    /// `side`'s win from `pos` (whose variant, symmetry option and board
    /// they must be of). A proof serves when it says something of `side`'s
    /// win: that it wins, or that the other side holds or wins; one that
    /// `side` holds is passed over (a file proving that neither side can
    /// win holds both), and a file with none that serves is refused. Of
    /// two proofs from the same position, the first is kept.
    pub fn read(paths: &[impl AsRef<Path>], pos: &Position, side: Color) -> Result<Self, Failure> {
        let mut given = GivenProofs::default();
        for path in paths {
            let path = path.as_ref();
            let shown = path.display();
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Input(format!("cannot read the proof {shown}: {e}")))?;
            let started = std::time::Instant::now();
            proof::check(&text)
                .map_err(|e| Failure::Input(format!("{shown} is not a proof that checks: {e}")))?;
            let proofs = proof::read(&text)
                .map_err(|e| Failure::Input(format!("{shown} is not a proof file: {e}")))?;
            let mut total = 0;
            for found in proofs {
                let Some(value) = value_for(&found, pos, side)
                    .map_err(|why| Failure::Input(format!("{shown}: {why}")))?
                else {
                    continue;
                };
                total += 1;
                let strategy =
                    strategy(&found).map_err(|why| Failure::Input(format!("{shown}: {why}")))?;
                let start = found.header.start;
                given
                    .by_start
                    .entry(start.to_string())
                    .or_insert((start, value, strategy));
            }
            if total == 0 {
                return Err(Failure::Input(format!(
                    "{shown}: its proofs are that {side} holds, which says nothing of {side}'s win"
                )));
            }
            eprintln!(
                "{shown}: {total} proof{} checked and taken ({:.1} s)",
                if total == 1 { "" } else { "s" },
                started.elapsed().as_secs_f64()
            );
        }
        Ok(given)
    }

    /// The value and strategy given for `pos`, if a proof starts there.
    pub fn get(&self, pos: &Position) -> Option<(SideValue, &Strategy)> {
        if self.by_start.is_empty() {
            return None;
        }
        let (_, value, strategy) = self.by_start.get(&pos.to_string())?;
        Some((*value, strategy))
    }

    /// The positions the proofs start from, with their values.
    pub fn values(&self) -> impl Iterator<Item = (&Position, SideValue)> + '_ {
        self.by_start
            .values()
            .map(|(start, value, _)| (start, *value))
    }
}

/// What `found` says of `side`'s win, for a run from `pos` (nothing, when
/// it is that `side` holds); why it cannot serve the run, when it is of
/// another game or board.
fn value_for(
    found: &ProofText<'_>,
    pos: &Position,
    side: Color,
) -> Result<Option<SideValue>, String> {
    let start = &found.header.start;
    let game = |p: &Position| format!("{} {} symmetry {}", p.variant(), p.size(), p.symmetry());
    if game(start) != game(pos) {
        return Err(format!(
            "a proof of {}, not of this run's {}",
            game(start),
            game(pos)
        ));
    }
    match found.header.claim {
        Claim::Wins(winner) if winner == side => Ok(Some(SideValue::Wins)),
        Claim::Wins(_) => Ok(Some(SideValue::CannotWin)),
        Claim::Holds(holder) if holder != side => Ok(Some(SideValue::CannotWin)),
        Claim::Holds(_) => Ok(None),
    }
}

/// The strategy of a proof that checked: each step's position text and
/// move.
fn strategy(found: &ProofText<'_>) -> Result<Strategy, String> {
    let start = &found.header.start;
    let mut strategy = Strategy::new();
    for step in &found.steps {
        let bad = |why: String| format!("line {}: {why}", step.line);
        let setup: Setup = step
            .position
            .parse()
            .map_err(|e| bad(format!("not a position ({e})")))?;
        let at = Position::from_setup_in(start.variant(), &setup, start.symmetry())
            .map_err(|e| bad(format!("not a valid position ({e})")))?;
        let mv = at.parse_move(step.mv).map_err(|e| bad(e.to_string()))?;
        strategy.insert(step.position.to_owned(), mv);
    }
    Ok(strategy)
}
