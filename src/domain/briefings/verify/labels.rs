//! Where the names and titles a text quotes stand in it.

use std::ops::Range;

/// Where `labels` stand whole in `text`, each with the label's index: not inside a longer word or
/// number (a dataset titled "1" is not in "10" or "1.5"). Every such occurrence, overlapping ones
/// too ("5 Jobs" and "Jobs in Oberbayern" in "5 Jobs in Oberbayern"), in text order.
pub(crate) fn label_spans(text: &str, labels: &[&str]) -> Vec<(Range<usize>, usize)> {
    let mut spans: Vec<(Range<usize>, usize)> = Vec::new();
    for (index, label) in labels.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        let mut from = 0;
        while let Some(found) = text[from..].find(label) {
            let (at, end) = (from + found, from + found + label.len());
            let before = text[..at].chars().rev().take(2).collect::<Vec<_>>();
            let after = text[end..].chars().take(2).collect::<Vec<_>>();
            let joins = |near: &[char]| match near {
                [c, ..] if c.is_alphanumeric() => true,
                ['.' | ',', d, ..] => d.is_ascii_digit(),
                _ => false,
            };
            if !joins(&before) && !joins(&after) {
                spans.push((at..end, index));
            }
            from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    spans.sort_by_key(|(span, index)| (span.start, *index));
    spans
}
