//! What the subcommands print, and how they fail.
//!
//! Reports go to standard output through [`outln!`] and [`out!`]: when the
//! reader goes away (`epaminondas show | head -1`), the program ends at
//! once and quietly, as other Unix tools do, instead of panicking on the
//! broken pipe. A failure is a [`Failure`], whose kind decides the exit
//! status (documented in the README):
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 | done |
//! | 1 | the work failed while it ran: an engine that died, a server that refused, the terminal |
//! | 2 | the input was wrong: arguments, a position, a record, a file that cannot be read |
//! | 75 | `mail-in` could not hand the message over for now (the mail server keeps it and tries again) |

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

/// Why a subcommand failed; the message is one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The input was wrong (exit status 2, like clap's usage errors).
    Input(String),
    /// The work failed while it ran (exit status 1).
    Run(String),
    /// The work could not be done now and should be tried again later
    /// (exit status 75, EX_TEMPFAIL: a mail server keeps the message).
    TryLater(String),
}

impl Failure {
    /// The exit status for this failure.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Input(_) => ExitCode::from(INPUT_ERROR),
            Failure::Run(_) => ExitCode::FAILURE,
            Failure::TryLater(_) => ExitCode::from(75),
        }
    }
}

/// The exit status of wrong input (arguments, positions, records, files).
pub const INPUT_ERROR: u8 = 2;

/// Most failures are wrong input: a `String` error is one.
impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Input(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Input(message.to_owned())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(message) | Failure::Run(message) | Failure::TryLater(message) => {
                f.write_str(message)
            }
        }
    }
}

/// The result of a subcommand.
pub type Outcome = Result<(), Failure>;

/// Opens the file a run adds to (records, values found), made if missing and
/// readable too, so that what an earlier run wrote can be checked or taken;
/// a file that cannot be opened is an input failure that names it.
pub fn open_to_add_to(path: &std::path::Path) -> Result<std::fs::File, Failure> {
    std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| Failure::Input(format!("cannot open {}: {e}", path.display())))
}

/// Writes to standard output; see the module's notes on a closed pipe.
pub fn write(args: fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_fmt(args).and_then(|()| out.flush()) {
        closed(&error);
    }
}

/// Ends the program after standard output failed: quietly (status 0) when
/// its reader has gone, which is no failure of ours; otherwise with an error.
fn closed(error: &std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write the output: {error}");
    std::process::exit(1);
}

/// Sets the returned flag on the first Ctrl-C, saying `doing` (the
/// subcommand then stops and reports where it stood); a second Ctrl-C ends
/// the program at once. Installed once; later calls get the same flag.
pub fn interrupt_on_ctrl_c(doing: &'static str) -> &'static std::sync::atomic::AtomicBool {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    static INTERRUPT: AtomicBool = AtomicBool::new(false);
    static PRESSES: AtomicUsize = AtomicUsize::new(0);
    let installed = ctrlc::set_handler(move || {
        if PRESSES.fetch_add(1, Ordering::SeqCst) == 0 {
            eprintln!("\ninterrupted: {doing} (Ctrl-C again to quit at once)");
            INTERRUPT.store(true, Ordering::SeqCst);
        } else {
            std::process::exit(130);
        }
    });
    if let Err(e) = installed {
        eprintln!("warning: Ctrl-C will end the program without a report: {e}");
    }
    &INTERRUPT
}

/// `println!` for the subcommands' reports (see [`write()`]).
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for the subcommands' reports (see [`write()`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

pub(crate) use {out, outln};
