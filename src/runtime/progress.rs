//! Progress of a long import, on standard error: on a terminal a bar redrawn in place with rows
//! and rate; otherwise (a log, a pipe) plain lines, one every [`LINE_EVERY`] while a dataset is
//! written and one when it is done, since carriage returns make a log unreadable; with JSON logs,
//! log events as often, whose fields are the figures.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Rows between looks at the clock: the per-row cost stays a counter increment.
const CHECK_EVERY: u64 = 4096;
const REDRAW_EVERY: Duration = Duration::from_millis(200);
/// A log or a journal learns that a long import goes on without a line per fraction of a second.
const LINE_EVERY: Duration = Duration::from_secs(10);
const BAR_WIDTH: u64 = 30;

#[derive(Clone, Copy)]
enum Output {
    Hidden,
    /// Plain lines at most this often while rows are written.
    Lines(Duration),
    /// A bar redrawn in place at most this often.
    Bar(Duration),
    /// Log events (`import progress`) at most this often.
    Events(Duration),
}

pub struct Progress {
    output: Output,
    sink: Box<dyn Write>,
    label: String,
    /// The dataset's place in a run of several (its number, from 1, and how many).
    place: Option<(usize, usize)>,
    total: u64,
    done: u64,
    started: Instant,
    drawn: Instant,
}

impl Progress {
    /// Shows nothing (imports inside the server, tests).
    pub fn hidden() -> Progress {
        Progress::with(Output::Hidden, Box::new(std::io::sink()))
    }

    /// A bar when standard error is a terminal, plain lines when it is not.
    pub fn on_stderr() -> Progress {
        let output = if std::io::stderr().is_terminal() {
            Output::Bar(REDRAW_EVERY)
        } else {
            Output::Lines(LINE_EVERY)
        };
        Progress::with(output, Box::new(std::io::stderr()))
    }

    /// Log events, which the log's format writes (one JSON object per line with `--log-format
    /// json`).
    pub fn as_log_events() -> Progress {
        Progress::with(Output::Events(LINE_EVERY), Box::new(std::io::sink()))
    }

    fn with(output: Output, sink: Box<dyn Write>) -> Progress {
        Progress {
            output,
            sink,
            label: String::new(),
            place: None,
            total: 0,
            done: 0,
            started: Instant::now(),
            drawn: Instant::now(),
        }
    }

    /// The next datasets are number `number` (from 1) of `of`: their lines say so.
    pub fn place(&mut self, number: usize, of: usize) {
        self.place = Some((number, of));
    }

    /// A step of the dataset in hand that rows do not measure (a download): a line, or a log
    /// event.
    pub fn note(&mut self, label: &str, what: &str) {
        label.clone_into(&mut self.label);
        match self.output {
            Output::Hidden => {}
            Output::Events(_) => {
                tracing::info!(dataset = %self.label, number = ?self.place.map(|p| p.0), datasets = ?self.place.map(|p| p.1), "{what}");
            }
            Output::Lines(_) | Output::Bar(_) => {
                let line = format!("{}{}: {what}\n", self.place_text(), self.label);
                let _ = self.sink.write_all(line.as_bytes());
                let _ = self.sink.flush();
            }
        }
    }

    fn place_text(&self) -> String {
        self.place
            .map(|(n, of)| format!("[{n}/{of}] "))
            .unwrap_or_default()
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
        if !self.done.is_multiple_of(CHECK_EVERY) {
            return;
        }
        let (every, prefix, suffix) = match self.output {
            Output::Hidden => return,
            Output::Lines(every) => (every, "", "\n"),
            Output::Bar(every) => (every, "\r", ""),
            Output::Events(every) => (every, "", ""),
        };
        if self.drawn.elapsed() >= every {
            self.drawn = Instant::now();
            match self.output {
                Output::Events(_) => self.event("import progress"),
                _ => self.draw(prefix, suffix),
            }
        }
    }

    /// The dataset is written.
    pub fn finish(&mut self) {
        match self.output {
            Output::Hidden => {}
            Output::Bar(_) => self.draw("\r", "\n"),
            Output::Lines(_) => self.draw("", "\n"),
            Output::Events(_) => self.event("dataset written"),
        }
    }

    fn event(&self, what: &str) {
        let (seconds, rate) = self.pace();
        tracing::info!(
            dataset = %self.label,
            number = ?self.place.map(|p| p.0),
            datasets = ?self.place.map(|p| p.1),
            rows = self.done,
            of = self.total,
            rows_per_second = rate.round() as u64,
            seconds,
            "{what}"
        );
    }

    /// Seconds since the dataset began, and rows a second.
    fn pace(&self) -> (f64, f64) {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            self.done as f64 / seconds
        } else {
            0.0
        };
        (seconds, rate)
    }

    fn draw(&mut self, prefix: &str, suffix: &str) {
        let line = self.line();
        let _ = write!(self.sink, "{prefix}{line}{suffix}");
        let _ = self.sink.flush();
    }

    fn line(&self) -> String {
        let (seconds, rate) = self.pace();
        let filled = (self.done * BAR_WIDTH)
            .checked_div(self.total)
            .unwrap_or(BAR_WIDTH);
        format!(
            "{}{:<16} [{}{}] {}/{} rows, {:.0} rows/s, {:.1} s",
            self.place_text(),
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

    /// What a progress writes, shared with the test.
    #[derive(Clone, Default)]
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Writes `rows` rows of one dataset with `output` (intervals of zero: every look at the
    /// clock draws) and returns what was written.
    fn written(output: Output, rows: u64) -> String {
        let shared = Shared::default();
        let mut progress = Progress::with(output, Box::new(shared.clone()));
        progress.start("big", rows);
        for _ in 0..rows {
            progress.row();
        }
        progress.finish();
        String::from_utf8(shared.0.borrow().clone()).unwrap()
    }

    #[test]
    fn a_log_gets_plain_lines_while_a_dataset_is_written_and_when_it_is_done() {
        let out = written(Output::Lines(Duration::ZERO), 3 * CHECK_EVERY);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out:?}");
        assert!(lines[0].contains(&format!(" {CHECK_EVERY}/{} rows, ", 3 * CHECK_EVERY)));
        assert!(lines[3].contains(&format!(" {0}/{0} rows, ", 3 * CHECK_EVERY)));
        assert!(!out.contains('\r'), "{out:?}");
        // Within the interval, only the line at the end.
        let quiet = written(Output::Lines(Duration::from_secs(3600)), 3 * CHECK_EVERY);
        assert_eq!(quiet.lines().count(), 1, "{quiet:?}");
    }

    #[test]
    fn a_terminal_gets_one_bar_redrawn_in_place() {
        let out = written(Output::Bar(Duration::ZERO), 2 * CHECK_EVERY);
        assert_eq!(
            out.matches('\r').count(),
            3,
            "two redraws and the last: {out:?}"
        );
        assert_eq!(out.matches('\n').count(), 1, "{out:?}");
        let last = out.rsplit('\r').next().unwrap();
        assert!(last.starts_with("big              [###"), "{last:?}");
        assert!(
            last.contains(&format!(" {0}/{0} rows, ", 2 * CHECK_EVERY)),
            "{last:?}"
        );
    }

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

    #[test]
    fn datasets_of_a_run_say_their_place_and_their_downloads() {
        let shared = Shared::default();
        let mut progress = Progress::with(Output::Lines(Duration::ZERO), Box::new(shared.clone()));
        progress.place(2, 250);
        progress.note("nama_10r_3gdp", "downloading");
        progress.start("nama_10r_3gdp", 1);
        progress.row();
        progress.finish();
        let out = String::from_utf8(shared.0.borrow().clone()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "[2/250] nama_10r_3gdp: downloading", "{out:?}");
        assert!(
            lines[1].starts_with("[2/250] nama_10r_3gdp    ["),
            "{out:?}"
        );
    }
}
