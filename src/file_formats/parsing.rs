//! What every parser hands on (each row to a [`Sink`], then the [`FileEnd`]) and fails with: a
//! [`FormatError`] naming the file and at most [`MAX_PROBLEMS`] of its lines, or the sink's own
//! error ([`ReadError`]).

use std::fmt;

use crate::dataset_file::{FileHeader, RawObservation};

/// Why a file was refused: which file, which line (1-based, 0 = the file as a whole), and why.
/// A tidy CSV reports every problem of its rows, not only the first: `further` holds those after
/// the first, up to [`MAX_PROBLEMS`] in all, and `not_listed` counts the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    pub file: String,
    pub line: u64,
    pub reason: String,
    pub further: Vec<(u64, String)>,
    pub not_listed: usize,
}

/// The most problems of one file reported one by one; beyond, they are counted.
pub const MAX_PROBLEMS: usize = 100;

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = |f: &mut fmt::Formatter<'_>, line: u64, reason: &str| {
            if line == 0 {
                write!(f, "{}: {reason}", self.file)
            } else {
                write!(f, "{}:{line}: {reason}", self.file)
            }
        };
        one(f, self.line, &self.reason)?;
        for (line, reason) in &self.further {
            writeln!(f)?;
            one(f, *line, reason)?;
        }
        if self.not_listed > 0 {
            write!(f, "\n{}: {} more problems", self.file, self.not_listed)?;
        }
        Ok(())
    }
}

impl std::error::Error for FormatError {}

impl FormatError {
    pub(crate) fn new(file: &str, line: u64, reason: impl Into<String>) -> Self {
        FormatError {
            file: file.to_owned(),
            line,
            reason: reason.into(),
            further: Vec::new(),
            not_listed: 0,
        }
    }

    /// Every problem listed, the first included, as (line, reason).
    pub fn problems(&self) -> impl Iterator<Item = (u64, &str)> {
        std::iter::once((self.line, self.reason.as_str()))
            .chain(self.further.iter().map(|(l, r)| (*l, r.as_str())))
    }

    /// The problems of both, in line order, within [`MAX_PROBLEMS`].
    pub(super) fn merged(a: FormatError, b: FormatError) -> FormatError {
        let mut all: Vec<(u64, &str)> = a.problems().chain(b.problems()).collect();
        all.sort_by_key(|&(line, _)| line);
        let mut problems = Problems::new(&a.file);
        for (line, reason) in all {
            problems.add(line, reason);
        }
        let mut merged = problems
            .into_result()
            .expect_err("two errors have problems");
        merged.not_listed += a.not_listed + b.not_listed;
        merged
    }
}

/// Collects the problems of a file's rows so that one answer lists them all.
pub(crate) struct Problems<'a> {
    file: &'a str,
    found: Option<FormatError>,
}

impl<'a> Problems<'a> {
    pub(crate) fn new(file: &'a str) -> Self {
        Problems { file, found: None }
    }

    pub(crate) fn add(&mut self, line: u64, reason: impl Into<String>) {
        match &mut self.found {
            None => self.found = Some(FormatError::new(self.file, line, reason)),
            Some(e) if e.further.len() + 1 < MAX_PROBLEMS => e.further.push((line, reason.into())),
            Some(e) => e.not_listed += 1,
        }
    }

    /// Adds every problem `error` lists.
    pub(crate) fn add_all(&mut self, error: FormatError) {
        for (line, reason) in error.problems() {
            self.add(line, reason);
        }
        if let Some(e) = &mut self.found {
            e.not_listed += error.not_listed;
        }
    }

    /// `Err` with every problem added, if any.
    pub(crate) fn into_result(self) -> Result<(), FormatError> {
        self.found.map_or(Ok(()), Err)
    }
}

/// Where each row goes as it is read, with the file's header and the line it was read on. An
/// error stops the reading.
pub type Sink<'s> = dyn FnMut(&FileHeader, u64, RawObservation) -> anyhow::Result<()> + 's;

/// Why reading a file stopped: the file is refused, or the sink failed.
#[derive(Debug)]
pub enum ReadError {
    Format(FormatError),
    Sink(anyhow::Error),
}

impl From<FormatError> for ReadError {
    fn from(e: FormatError) -> Self {
        ReadError::Format(e)
    }
}

impl From<ReadError> for anyhow::Error {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Format(e) => e.into(),
            ReadError::Sink(e) => e,
        }
    }
}

/// What a file said once it is read to the end.
#[derive(Debug, Clone)]
pub struct FileEnd {
    pub header: FileHeader,
    /// Dataset title when the file carries one (SDMX-CSV 2.0 `STRUCTURE_NAME`).
    pub title: Option<String>,
}
