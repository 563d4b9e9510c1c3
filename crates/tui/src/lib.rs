//! Terminal play of Epaminondas: `epaminondas play`.
//!
//! [`app`] holds the game as the player sees it and takes key presses,
//! [`view`] draws it with ratatui, and [`thinker`] runs the engine on its own
//! thread so that the screen stays live while it thinks. The rules and the
//! engine are asked everything about the game; nothing here knows a rule.
#![deny(missing_docs)]

pub mod app;
pub mod thinker;
pub mod view;

use std::io::IsTerminal;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};

pub use app::{App, Options};

/// How often the screen is redrawn while nothing is typed (the engine's
/// thinking indicator moves).
const FRAME: Duration = Duration::from_millis(50);

/// Plays a game in the terminal until the player quits.
pub fn run(options: Options) -> Result<(), String> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err("epaminondas play needs an interactive terminal".to_owned());
    }
    let mut terminal =
        ratatui::try_init().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let result = event_loop(&mut terminal, App::new(options));
    ratatui::restore();
    result.map_err(|e| format!("terminal error: {e}"))
}

/// Draws, reads keys and lets the engine move until the player quits.
fn event_loop<B: Backend>(terminal: &mut Terminal<B>, mut app: App) -> std::io::Result<()> {
    while !app.should_quit() {
        app.tick();
        terminal.draw(|frame| view::draw(frame, &app))?;
        if event::poll(FRAME)? {
            if let Event::Key(key) = event::read()? {
                app.handle_key(key);
            }
        }
    }
    Ok(())
}
