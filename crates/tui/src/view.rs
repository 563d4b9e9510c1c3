//! Drawing the game: the board with coordinates on every side, the move
//! list beside it, and the status, input and message lines below. The
//! squares grow with the terminal; a terminal too small for the board gets
//! a message saying how large it must be.

use epaminondas_rules::diagram::{piece_letter, side_label};
use epaminondas_rules::{Color as Side, GameRecord, Position, Square};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, COMMANDS, Confirm, KEYS, Message, MoveSquares, ending_text};
use crate::thinker::Purpose;

/// The colours of the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Bright pieces and marks, for a dark terminal background (default).
    #[default]
    Dark,
    /// Deep colours, for a light background.
    Light,
    /// No colour at all, only bold, underlined and reversed text (chosen
    /// when the `NO_COLOR` environment variable is set, as no-color.org asks).
    Plain,
}

impl Theme {
    /// The theme named `name` (`dark` or `light`), or [`Theme::Plain`] when
    /// `no_color` (the `NO_COLOR` variable is set and not empty).
    pub fn choose(name: Option<&str>, no_color: bool) -> Result<Theme, String> {
        if no_color {
            return Ok(Theme::Plain);
        }
        match name.map(str::to_ascii_lowercase).as_deref() {
            None | Some("dark") => Ok(Theme::Dark),
            Some("light") => Ok(Theme::Light),
            Some("plain" | "none") => Ok(Theme::Plain),
            Some(other) => Err(format!(
                "'{other}' is not a theme: expected dark, light or plain"
            )),
        }
    }
}

/// The styles of a theme.
struct Palette {
    white: Style,
    black: Style,
    empty: Style,
    cursor: Style,
    chosen: Style,
    group: Style,
    target: Style,
    hint: Style,
    last_to: Style,
    last_from: Style,
    captured: Style,
    label: Style,
    engine: Style,
    error: Style,
    warning: Style,
    keys: Style,
}

impl Palette {
    fn of(theme: Theme) -> Palette {
        let plain = Style::new();
        let bold = Modifier::BOLD;
        match theme {
            Theme::Dark => Palette {
                white: plain.fg(Color::LightYellow).add_modifier(bold),
                black: plain.fg(Color::LightRed).add_modifier(bold),
                empty: plain.fg(Color::DarkGray),
                cursor: plain.bg(Color::Blue).fg(Color::White),
                chosen: plain.bg(Color::Green).fg(Color::Black),
                group: plain.bg(Color::Cyan).fg(Color::Black),
                target: plain.fg(Color::Green).add_modifier(bold),
                hint: plain.bg(Color::Magenta).fg(Color::White),
                last_to: plain.bg(Color::Yellow).fg(Color::Black),
                last_from: plain.bg(Color::DarkGray),
                captured: plain.fg(Color::Red).add_modifier(bold),
                label: plain.fg(Color::Gray),
                engine: plain.fg(Color::Cyan),
                error: plain.fg(Color::LightRed).add_modifier(bold),
                warning: plain
                    .fg(Color::Black)
                    .bg(Color::LightRed)
                    .add_modifier(bold),
                keys: plain.fg(Color::DarkGray),
            },
            Theme::Light => Palette {
                white: plain.fg(Color::Blue).add_modifier(bold),
                black: plain.fg(Color::Red).add_modifier(bold),
                empty: plain.fg(Color::Gray),
                cursor: plain.bg(Color::Blue).fg(Color::White),
                chosen: plain.bg(Color::Green).fg(Color::White),
                group: plain.bg(Color::LightCyan).fg(Color::Black),
                target: plain.fg(Color::Green).add_modifier(bold),
                hint: plain.bg(Color::Magenta).fg(Color::White),
                last_to: plain.bg(Color::LightYellow).fg(Color::Black),
                last_from: plain.bg(Color::Gray),
                captured: plain.fg(Color::Red).add_modifier(bold),
                label: plain.fg(Color::DarkGray),
                engine: plain.fg(Color::Blue),
                error: plain.fg(Color::Red).add_modifier(bold),
                warning: plain.fg(Color::White).bg(Color::Red).add_modifier(bold),
                keys: plain.fg(Color::DarkGray),
            },
            Theme::Plain => Palette {
                white: plain.add_modifier(bold),
                black: plain.add_modifier(bold),
                empty: plain,
                cursor: plain.add_modifier(Modifier::REVERSED),
                chosen: plain.add_modifier(Modifier::REVERSED | bold),
                group: plain.add_modifier(Modifier::UNDERLINED | bold),
                target: plain.add_modifier(bold),
                hint: plain.add_modifier(Modifier::UNDERLINED),
                last_to: plain.add_modifier(Modifier::UNDERLINED),
                last_from: plain,
                captured: plain.add_modifier(bold),
                label: plain,
                engine: plain,
                error: plain.add_modifier(bold),
                warning: plain.add_modifier(Modifier::REVERSED | bold),
                keys: plain,
            },
        }
    }
}

/// Lines under the board: status, engine, input, message, keys.
const FOOTER: u16 = 5;
/// The narrowest useful move list.
const MOVES_WIDTH: u16 = 24;
/// Width of the rank labels on each side, with their spacing.
const LABEL: u16 = 3;

/// The board's outer size (with its border) for squares `cell` columns wide.
fn board_size(pos: &Position, cell: u16) -> (u16, u16) {
    let size = pos.size();
    let width = 2 * LABEL + u16::from(size.files()) * cell + 2;
    let height = u16::from(size.ranks()) + 2 + 2;
    (width, height)
}

/// The smallest terminal that shows the whole game.
pub fn minimum_size(pos: &Position) -> (u16, u16) {
    let (width, height) = board_size(pos, 2);
    (width, height + FOOTER)
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let shown = app.shown_position();
    let pos = &shown;
    let (min_width, min_height) = minimum_size(pos);
    if area.width < min_width || area.height < min_height {
        let size = pos.size();
        let text = format!(
            "The terminal is {}x{}; a {}x{} board needs at least {min_width}x{min_height}. \
             Enlarge it, or press Ctrl-C to quit.",
            area.width,
            area.height,
            size.files(),
            size.ranks()
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    // The widest squares that leave room for the move list.
    let cell = [4u16, 3, 2]
        .into_iter()
        .find(|&c| board_size(pos, c).0 + MOVES_WIDTH <= area.width)
        .unwrap_or(2);
    let (board_width, board_height) = board_size(pos, cell);
    let [top, footer] =
        Layout::vertical([Constraint::Length(board_height), Constraint::Min(FOOTER)]).areas(area);
    let [board_area, moves_area] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(0)]).areas(top);
    draw_board(frame, app, pos, board_area, cell);
    if moves_area.width >= 12 {
        draw_moves(frame, app, moves_area);
    }
    draw_footer(frame, app, footer);
    if let Some(page) = app.help_page() {
        draw_help(frame, area, page, app.help_scroll(), app.theme());
    }
}

/// How a square is marked, most important first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Cursor,
    Chosen,
    ChosenGroup,
    Target,
    Hint,
    LastTo,
    LastFrom,
    Captured,
    Plain,
}

/// Every marked square of the screen, worked out once per frame.
#[derive(Default)]
struct Marks {
    cursor: Option<Square>,
    chosen: Option<Square>,
    chosen_group: Vec<Square>,
    targets: Vec<Square>,
    hint: Vec<Square>,
    last: MoveSquares,
}

impl Marks {
    fn of(app: &App) -> Marks {
        let mut marks = Marks {
            cursor: Some(app.cursor()),
            ..Marks::default()
        };
        if let Some(selection) = app.selection() {
            let current = selection.current();
            marks.chosen = Some(current.destination());
            marks.chosen_group = MoveSquares::group(current);
            marks.targets = selection.moves.iter().map(|mv| mv.destination()).collect();
        }
        if let Some(hint) = app.hint() {
            marks.hint = MoveSquares::group(hint);
            marks.hint.push(hint.destination());
        }
        if let Some(last) = app.shown_last_move() {
            marks.last = MoveSquares::of(last);
        }
        marks
    }

    fn at(&self, square: Square) -> Mark {
        // The shown move's destination stays marked under the cursor.
        if self.chosen == Some(square) {
            Mark::Chosen
        } else if self.cursor == Some(square) {
            Mark::Cursor
        } else if self.chosen_group.contains(&square) {
            Mark::ChosenGroup
        } else if self.targets.contains(&square) {
            Mark::Target
        } else if self.hint.contains(&square) {
            Mark::Hint
        } else if self.last.to.contains(&square) {
            Mark::LastTo
        } else if self.last.captured.contains(&square) {
            Mark::Captured
        } else if self.last.from.contains(&square) {
            Mark::LastFrom
        } else {
            Mark::Plain
        }
    }
}

/// The text and style of one square.
fn square_span(
    pos: &Position,
    square: Square,
    mark: Mark,
    cell: u16,
    colours: &Palette,
) -> Span<'static> {
    let piece = pos.piece_at(square);
    let symbol = match piece {
        Some(color) => piece_letter(color),
        None if pos.stone_at(square) => epaminondas_rules::diagram::STONE_LETTER,
        None => '.',
    };
    let style = match piece {
        Some(Side::White) => colours.white,
        Some(Side::Black) => colours.black,
        None => colours.empty,
    };
    let symbol = match (mark, piece) {
        (Mark::Target | Mark::Chosen, None) => '+',
        (Mark::Captured, None) => '*',
        _ => symbol,
    };
    let style = match mark {
        Mark::Cursor => style.patch(colours.cursor),
        Mark::Chosen => style.patch(colours.chosen),
        Mark::ChosenGroup => style.patch(colours.group),
        Mark::Target => style.patch(colours.target),
        Mark::Hint => style.patch(colours.hint),
        Mark::LastTo => style.patch(colours.last_to),
        Mark::LastFrom => style.patch(colours.last_from),
        Mark::Captured => style.patch(colours.captured),
        Mark::Plain => style,
    };
    Span::styled(centred(symbol, cell), style)
}

/// `symbol` in a cell `cell` columns wide, just right of its middle.
fn centred(symbol: char, cell: u16) -> String {
    let left = usize::from(cell / 2);
    let right = usize::from(cell) - left - 1;
    format!("{}{symbol}{}", " ".repeat(left), " ".repeat(right))
}

/// The files in screen order.
fn files_on_screen(pos: &Position, flipped: bool) -> Vec<u8> {
    let mut files: Vec<u8> = (0..pos.size().files()).collect();
    if flipped {
        files.reverse();
    }
    files
}

fn file_labels(pos: &Position, flipped: bool, cell: u16, style: Style) -> Line<'static> {
    let mut text = " ".repeat(usize::from(LABEL));
    for file in files_on_screen(pos, flipped) {
        text += &centred(char::from(b'a' + file), cell);
    }
    Line::styled(text, style)
}

fn draw_board(frame: &mut Frame, app: &App, pos: &Position, area: Rect, cell: u16) {
    let flipped = app.flipped();
    let marks = Marks::of(app);
    let colours = Palette::of(app.theme());
    let mut ranks: Vec<u8> = (0..pos.size().ranks()).collect();
    if !flipped {
        ranks.reverse();
    }
    let label = colours.label;
    let mut lines = vec![file_labels(pos, flipped, cell, label)];
    for rank in ranks {
        let mut spans = vec![Span::styled(format!("{:>2} ", rank + 1), label)];
        for file in files_on_screen(pos, flipped) {
            let Some(square) = Square::new(file, rank) else {
                continue;
            };
            spans.push(square_span(pos, square, marks.at(square), cell, &colours));
        }
        spans.push(Span::styled(format!(" {:<2}", rank + 1), label));
        lines.push(Line::from(spans));
    }
    lines.push(file_labels(pos, flipped, cell, label));
    let size = pos.size();
    let title = match app.viewing() {
        Some(plies) => format!(
            " Move {plies} of {} (End: now) ",
            app.record().moves().len()
        ),
        None => format!(" Epaminondas {}x{} ", size.files(), size.ranks()),
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_moves(frame: &mut Frame, app: &App, area: Rect) {
    let inner_width = usize::from(area.width.saturating_sub(2));
    let rows = move_rows(app.record(), inner_width);
    let inner = area.height.saturating_sub(2) as usize;
    let skip = rows.len().saturating_sub(inner);
    let lines: Vec<Line> = rows.into_iter().skip(skip).map(Line::from).collect();
    let block = Block::default().borders(Borders::ALL).title(" Moves ");
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The move list in rows of at most `width` characters: both sides' moves
/// of a turn on one row where they fit (`  3. e1,e3-e5:2  f11-f10`), else
/// one ply a row (`  3... f11-f10`). A move is shown whole or not at all:
/// where even its own row is too narrow, the row has only its number.
pub fn move_rows(record: &GameRecord, width: usize) -> Vec<String> {
    let black_first = record.start().turn() == Side::Black;
    let texts: Vec<String> = record
        .moves()
        .iter()
        .map(|mv| mv.with_capture_mark().to_string())
        .collect();
    // The white column is as wide as its longest move, for alignment.
    let column = texts
        .iter()
        .enumerate()
        .filter(|(i, _)| (i + usize::from(black_first)) % 2 == 0)
        .map(|(_, t)| t.len())
        .max()
        .unwrap_or(0);
    let numbered = |number: usize, dots: &str, text: &str| {
        let row = format!("{number:>3}{dots} {text}");
        if row.len() <= width {
            row
        } else {
            format!("{number:>3}{dots}").chars().take(width).collect()
        }
    };
    let mut rows = Vec::new();
    let mut ply = usize::from(black_first);
    let mut i = 0;
    while i < texts.len() {
        let number = ply / 2 + 1;
        if ply % 2 == 1 {
            // A turn that starts with Black's move (a record from a position).
            rows.push(numbered(number, "...", &texts[i]));
            i += 1;
            ply += 1;
            continue;
        }
        let white = &texts[i];
        match texts.get(i + 1) {
            Some(black) => {
                let both = format!("{number:>3}. {white:<column$}  {black}");
                if both.len() <= width {
                    rows.push(both);
                } else {
                    rows.push(numbered(number, ".", white));
                    rows.push(numbered(number, "...", black));
                }
                i += 2;
                ply += 2;
            }
            None => {
                rows.push(numbered(number, ".", white));
                i += 1;
                ply += 1;
            }
        }
    }
    rows
}

/// A spinner frame for `elapsed`: `|/-\`, a quarter turn every 100 ms.
fn spinner(elapsed: std::time::Duration) -> char {
    ['|', '/', '-', '\\'][(elapsed.as_millis() / 100 % 4) as usize]
}

fn draw_footer(frame: &mut Frame, app: &App, area: Rect) {
    let pos = app.position();
    let colours = Palette::of(app.theme());
    let counts = format!(
        "goal rank: o {} x {}",
        pos.goal_count(Side::White),
        pos.goal_count(Side::Black)
    );
    let status = match app.ending() {
        Some(ending) => Line::styled(
            format!("GAME OVER: {}", ending_text(pos, ending)),
            Style::new()
                .add_modifier(Modifier::BOLD)
                .add_modifier(Modifier::REVERSED),
        ),
        None => {
            let who = match app.ai() {
                Some(level) if pos.turn() == app.human() => {
                    format!("you vs engine level {}", level.get())
                }
                Some(level) => format!("engine level {} to play", level.get()),
                None => "two players".to_owned(),
            };
            Line::from(vec![
                Span::styled(
                    format!("{} to move", side_label(pos.turn())),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(" | {counts} | {who}")),
            ])
        }
    };
    let engine = match app.thinking() {
        Some((purpose, elapsed)) => {
            let what = match purpose {
                Purpose::Reply => "The engine is thinking",
                Purpose::Hint => "The engine is looking for a hint",
            };
            Line::styled(
                format!("{what} {} {:.1} s", spinner(elapsed), elapsed.as_secs_f32()),
                colours.engine,
            )
        }
        None if app.warning().is_some() && app.selection().is_none() => {
            Line::styled(app.warning().unwrap_or_default(), colours.warning)
        }
        None => match app.selection() {
            Some(selection) => Line::raw(format!(
                "Picked {}: move {} of {} is {}",
                selection.piece,
                selection.index + 1,
                selection.moves.len(),
                selection.current().with_capture_mark()
            )),
            None => Line::raw(match app.ending() {
                Some(_) => format!("{counts} | undo takes moves back, save keeps the game"),
                None => String::new(),
            }),
        },
    };
    let input = Line::from(vec![
        Span::styled("> ", colours.label),
        Span::raw(app.input().to_owned()),
        Span::styled("_", Style::new().add_modifier(Modifier::SLOW_BLINK)),
    ]);
    let message = match app.message() {
        Message::None => Line::raw(""),
        Message::Info(text) => Line::raw(text.clone()),
        Message::Error(text) => Line::styled(text.clone(), colours.error),
    };
    let keys = match app.confirming() {
        Some(Confirm::Quit) => "y or Ctrl-C quits, any other key goes on",
        Some(_) => "y for yes, any other key for no",
        None => "arrows+Enter play, PgUp/PgDn look back | undo hint level new save resign | ? help",
    };
    let keys = Line::styled(keys, colours.keys);
    let lines = vec![status, engine, input, message, keys];
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_help(frame: &mut Frame, area: Rect, page: usize, scroll: u16, theme: Theme) {
    let heading = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = Vec::new();
    if page == 0 {
        lines.push(Line::styled(
            "Type a command or a move, then Enter:",
            heading,
        ));
        for (command, what) in COMMANDS {
            lines.push(Line::raw(format!("  {command:<12} {what}")));
        }
        lines.push(Line::styled("Keys:", heading));
        for (key, what) in KEYS {
            lines.push(Line::raw(format!("  {key:<14} {what}")));
        }
    } else {
        lines.push(Line::styled(
            "The rules of Epaminondas (as on the site's Learn page):",
            heading,
        ));
        let text = epaminondas_learn::guide::plain_text(76);
        lines.extend(text.lines().map(|l| {
            if l.chars().any(char::is_lowercase) {
                Line::raw(l.to_owned())
            } else {
                Line::styled(l.to_owned(), heading)
            }
        }));
    }
    lines.push(Line::styled(
        "Tab: the other page | Up/Down, PgUp/PgDn: scroll | Esc: close",
        Palette::of(theme).keys,
    ));
    let height = (lines.len() as u16 + 2).min(area.height);
    let width = 80.min(area.width);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, popup);
    let title = if page == 0 {
        " Help: keys and commands (Tab: rules) "
    } else {
        " Help: rules (Tab: keys and commands) "
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    // Scrolled no further than the last line at the bottom of the box.
    let last = (lines.len() as u16).saturating_sub(height.saturating_sub(2));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(last), 0)),
        popup,
    );
}

/// The text of a screen buffer, one line per row with trailing spaces
/// removed (for tests and the README's captures).
pub fn buffer_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut text = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buffer[(x, y)].symbol());
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str) -> GameRecord {
        moves.parse().unwrap()
    }

    #[test]
    fn the_move_list_shows_each_move_whole_or_not_at_all() {
        // Long group moves and captures, on the 6x5 board of seeds/004.
        let game = record(
            "[Board \"6x5\"]\n[Position \"bbb3/2b3/4w1/1wb1w1/w3w1 w\"]\n\n\
             1. e1,e3-e5 c2-d1 2. e4-d5 a5,c5-d5:2 *\n",
        );
        let texts: Vec<String> = game
            .moves()
            .iter()
            .map(|mv| mv.with_capture_mark().to_string())
            .collect();
        for width in 5..40 {
            let rows = move_rows(&game, width);
            for row in &rows {
                assert!(row.len() <= width, "{width}: {row:?}");
            }
            let words: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
            for text in &texts {
                // Whole, or absent: never a prefix of a move.
                let pieces: Vec<&&str> = words
                    .iter()
                    .filter(|w| text.starts_with(**w) && **w != text && !w.ends_with('.'))
                    .collect();
                assert!(pieces.is_empty(), "{width}: {rows:?}");
                if width >= 7 + text.len() {
                    assert!(
                        words.contains(&text.as_str()),
                        "{width}: {text} in {rows:?}"
                    );
                }
            }
        }
        // Wide enough: a turn a row.
        assert_eq!(
            move_rows(&game, 30),
            ["  1. e1,e3-e5  c2-d1", "  2. e4-d5     a5,c5-d5:2"]
        );
        // Narrower: a ply a row.
        assert_eq!(
            move_rows(&game, 17),
            [
                "  1. e1,e3-e5",
                "  1... c2-d1",
                "  2. e4-d5",
                "  2... a5,c5-d5:2"
            ]
        );
    }

    #[test]
    fn a_record_from_a_position_with_black_to_move_starts_with_dots() {
        let game = record("[Board \"4x4\"]\n[Position \"b3/4/4/3w b\"]\n\n1... a4-a3 d1-d2 *\n");
        assert_eq!(move_rows(&game, 30), ["  1... a4-a3", "  2. d1-d2"]);
    }
}
