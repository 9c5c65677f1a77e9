//! Progress of a long import, on standard error: on a terminal a bar redrawn in place with rows
//! and rate; otherwise (a log, a pipe) one plain line per dataset when it is written, since
//! carriage returns make a log unreadable.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Rows between looks at the clock: the per-row cost stays a counter increment.
const CHECK_EVERY: u64 = 4096;
const REDRAW_EVERY: Duration = Duration::from_millis(200);
const BAR_WIDTH: u64 = 30;

enum Output {
    Hidden,
    Lines,
    Bar,
}

pub struct Progress {
    output: Output,
    label: String,
    total: u64,
    done: u64,
    started: Instant,
    drawn: Instant,
}

impl Progress {
    /// Shows nothing (imports inside the server, tests).
    pub fn hidden() -> Progress {
        Progress::with(Output::Hidden)
    }

    /// A bar when standard error is a terminal, plain lines when it is not.
    pub fn on_stderr() -> Progress {
        Progress::with(if std::io::stderr().is_terminal() {
            Output::Bar
        } else {
            Output::Lines
        })
    }

    fn with(output: Output) -> Progress {
        Progress {
            output,
            label: String::new(),
            total: 0,
            done: 0,
            started: Instant::now(),
            drawn: Instant::now(),
        }
    }

    /// A dataset of `total` rows begins.
    pub fn start(&mut self, label: &str, total: u64) {
        label.clone_into(&mut self.label);
        self.total = total;
        self.done = 0;
        self.started = Instant::now();
        self.drawn = self.started;
    }

    /// One more row written.
    pub fn row(&mut self) {
        self.done += 1;
        if self.done.is_multiple_of(CHECK_EVERY)
            && matches!(self.output, Output::Bar)
            && self.drawn.elapsed() >= REDRAW_EVERY
        {
            self.drawn = Instant::now();
            self.draw("\r");
        }
    }

    /// The dataset is written.
    pub fn finish(&mut self) {
        match self.output {
            Output::Hidden => {}
            Output::Bar => self.draw("\r"),
            Output::Lines => self.draw(""),
        }
        if !matches!(self.output, Output::Hidden) {
            let _ = writeln!(std::io::stderr());
        }
    }

    fn draw(&self, prefix: &str) {
        let _ = write!(std::io::stderr(), "{prefix}{}", self.line());
    }

    fn line(&self) -> String {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            self.done as f64 / seconds
        } else {
            0.0
        };
        let filled = (self.done * BAR_WIDTH)
            .checked_div(self.total)
            .unwrap_or(BAR_WIDTH);
        format!(
            "{:<16} [{}{}] {}/{} rows, {:.0} rows/s, {:.1} s",
            self.label,
            "#".repeat(filled as usize),
            " ".repeat((BAR_WIDTH - filled.min(BAR_WIDTH)) as usize),
            self.done,
            self.total,
            rate,
            seconds
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_the_bar_rows_and_rate() {
        let mut progress = Progress::hidden();
        progress.start("nama_10r_3gdp", 10);
        for _ in 0..5 {
            progress.row();
        }
        let line = progress.line();
        assert!(
            line.starts_with("nama_10r_3gdp    [###############               ] 5/10 rows, "),
            "{line}"
        );
        assert!(line.contains(" rows/s, "), "{line}");
        progress.start("empty", 0);
        assert!(
            progress
                .line()
                .contains(&format!("[{}] 0/0 rows", "#".repeat(30)))
        );
    }
}
