//! Numbers as a briefing writes them, and finding them again in its text: on characters, so that
//! a digit after a non-breaking space, a currency sign or a dash is a number like any other.

/// `value` with `decimals` places and a thousands separator: `4,729,243`, `82.1`, `-3.5`.
pub fn display(value: f64, decimals: usize) -> String {
    let fixed = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = fixed.split_once('.').unwrap_or((&fixed, ""));
    let mut grouped = String::with_capacity(fixed.len() + whole.len() / 3 + 1);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if value < 0.0 && fixed.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "-"
    } else {
        ""
    };
    match fraction {
        "" => format!("{sign}{grouped}"),
        f => format!("{sign}{grouped}.{f}"),
    }
}

/// Ordinal words, from second: a rank of up to ten is written as a word, beyond as digits.
const ORDINALS: [&str; 9] = [
    "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
];

/// Ordinal words a text may use to state a rank; a model's text may use none outside a rank
/// claim's phrase.
pub const ORDINAL_WORDS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// A rank as the text states it: `highest`, `second-highest`, `11th-highest` (`direction` being
/// `highest` or `lowest`).
pub fn rank_phrase(rank: u64, direction: &str) -> String {
    match rank {
        0 | 1 => direction.to_owned(),
        2..=10 => format!("{}-{direction}", ORDINALS[rank as usize - 2]),
        _ => {
            let suffix = match (rank % 10, rank % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{rank}{suffix}-{direction}")
        }
    }
}

/// A character that belongs to a word around a number: ASCII letters, digits and `_` (`DE21`,
/// `nama_10r_2gdp`). Anything else, a non-ASCII letter or space among it, ends a word.
fn in_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every number written in `text`, as written, with its byte offset: digits (of any script:
/// ones other than ASCII match no claim) with optional thousands separators, a decimal part and
/// a leading minus. Digits inside a word (`DE21`, `tgs00010`, `nama_10r_2gdp`) are part of that
/// word, not numbers.
pub fn find(text: &str) -> Vec<(usize, &str)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|(_, c)| *c);
    let offset = |i: usize| chars.get(i).map_or(text.len(), |(o, _)| *o);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let starts_word = i == 0 || !in_word(chars[i - 1].1);
        if !(c.is_numeric() && starts_word) {
            // Skip the rest of a word that does not start with a digit.
            if in_word(c) {
                while at(i).is_some_and(in_word) {
                    i += 1;
                }
            } else {
                i += 1;
            }
            continue;
        }
        // A minus sign, unless the hyphen joins this to a word before it (`Y15-74`).
        let minus = i > 0 && chars[i - 1].1 == '-' && (i == 1 || !in_word(chars[i - 2].1));
        let start = if minus { i - 1 } else { i };
        let mut end = i;
        loop {
            while at(end).is_some_and(char::is_numeric) {
                end += 1;
            }
            // A separator or decimal point continues the number only when a digit follows.
            let continues =
                matches!(at(end), Some(',' | '.')) && at(end + 1).is_some_and(char::is_numeric);
            if !continues {
                break;
            }
            end += 1;
        }
        // Digits running into letters (`3rd`, `10x`) are kept whole: they match no claim, so an
        // ordinal or a multiplier cannot slip a number past the check.
        while at(end).is_some_and(in_word) {
            end += 1;
        }
        out.push((offset(start), &text[offset(start)..offset(end)]));
        i = end;
    }
    out
}

/// Every rank phrase in `text` (`highest`, `second-highest`, `11th-lowest`, in any case), as the
/// byte range it spans.
pub fn find_ranks(text: &str) -> Vec<std::ops::Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for direction in ["highest", "lowest"] {
        let mut from = 0;
        while let Some(found) = lower[from..].find(direction) {
            let (mut start, end) = (from + found, from + found + direction.len());
            from = end;
            let whole = !lower[..start].ends_with(in_word) && !lower[end..].starts_with(in_word);
            if !whole {
                continue;
            }
            // An ordinal joined to it by a hyphen belongs to the phrase.
            if let Some(before) = lower[..start].strip_suffix('-') {
                let word_start = before.rfind(|c: char| !in_word(c)).map_or(0, |p| {
                    p + before[p..].chars().next().map_or(1, char::len_utf8)
                });
                let word = &before[word_start..];
                let numeric = word.len() > 2
                    && word[..word.len() - 2].bytes().all(|b| b.is_ascii_digit())
                    && ["st", "nd", "rd", "th"].contains(&&word[word.len() - 2..]);
                if ORDINAL_WORDS.contains(&word) || numeric {
                    start = word_start;
                }
            }
            out.push(start..end);
        }
    }
    out.sort_by_key(|r| r.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_group_thousands_and_keep_decimals() {
        assert_eq!(display(4_729_243.0, 0), "4,729,243");
        assert_eq!(display(82.1, 1), "82.1");
        assert_eq!(display(-1234.5, 1), "-1,234.5");
        assert_eq!(display(999.96, 1), "1,000.0");
        assert_eq!(display(-0.01, 1), "0.0");
    }

    #[test]
    fn ranks_read_as_words_up_to_ten_then_as_ordinals() {
        assert_eq!(rank_phrase(1, "highest"), "highest");
        assert_eq!(rank_phrase(2, "lowest"), "second-lowest");
        assert_eq!(rank_phrase(10, "highest"), "tenth-highest");
        assert_eq!(rank_phrase(11, "highest"), "11th-highest");
        assert_eq!(rank_phrase(21, "highest"), "21st-highest");
        assert_eq!(rank_phrase(112, "lowest"), "112th-lowest");
        assert_eq!(rank_phrase(223, "lowest"), "223rd-lowest");
    }

    #[test]
    fn numbers_are_found_as_written_and_codes_are_words() {
        let text =
            "DE21 had 4,729,243 people in 2022, up 1.5 % (tgs00010, nama_10r_2gdp); -3 and 3rd.";
        let found = |text| find(text).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(found(text), vec!["4,729,243", "2022", "1.5", "-3", "3rd"]);
        assert_eq!(found("1,2 and 7."), vec!["1,2", "7"]);
        assert_eq!(found("Y15-74 aged"), vec!["74"]);
        assert_eq!(find("up 1.5 %"), vec![(3, "1.5")]);
    }

    /// A digit after anything but an ASCII letter, digit or `_` starts a number: a non-breaking
    /// or narrow space, a currency sign, a dash, a letter of another script.
    #[test]
    fn numbers_are_found_on_characters_not_bytes() {
        let found = |text| find(text).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(found("Oberbayern:\u{a0}45 (Percentage)"), vec!["45"]);
        assert_eq!(found("It has\u{202f}12 towns"), vec!["12"]);
        assert_eq!(found("€4521 and £3"), vec!["4521", "3"]);
        assert_eq!(found("–99 or —7"), vec!["99", "7"]);
        assert_eq!(
            found("Zürich2 and é5"),
            vec!["5"],
            "2 is inside the word rich2"
        );
        // Digits of other scripts are numbers too (they match no claim).
        assert_eq!(found("٣ or １２"), vec!["٣", "１２"]);
        assert_eq!(find("€4521"), vec![(3, "4521")]);
    }

    #[test]
    fn rank_phrases_are_found_whole() {
        let ranks = |text: &str| -> Vec<String> {
            find_ranks(text)
                .into_iter()
                .map(|r| text[r].to_owned())
                .collect()
        };
        assert_eq!(
            ranks("the second-highest rate and the Lowest age; the 21st-highest"),
            ["second-highest", "Lowest", "21st-highest"]
        );
        assert_eq!(ranks("highestness and tallest"), Vec::<String>::new());
        assert_eq!(ranks("a well-highest"), ["highest"], "not an ordinal");
    }
}
