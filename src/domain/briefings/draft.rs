//! What the writer hands the verifier: a briefing's draft, its sections, the names it quotes and
//! the breaks in series it names.

use serde::{Deserialize, Serialize};

use super::claims::Claim;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Section {
    pub heading: String,
    pub text: String,
}

/// A break in series a briefing names: a value flagged b, which starts a series its
/// predecessors do not compare with.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Break {
    pub dataset: String,
    pub period: String,
    pub citation: String,
}

/// A name or title the text quotes (it may hold digits that are no numbers).
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub text: String,
    /// Of a dataset an account uploaded: the model gets it only as quoted data, and in a
    /// model's text its digits count like any other.
    pub private: bool,
}

/// What the writer hands the verifier.
pub struct Draft {
    pub title: String,
    pub sections: Vec<Section>,
    pub claims: Vec<Claim>,
    /// Names and titles the text quotes.
    pub labels: Vec<Label>,
    pub breaks: Vec<Break>,
    pub not_covered: Vec<String>,
}
