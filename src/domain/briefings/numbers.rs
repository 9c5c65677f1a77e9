//! Numbers as a briefing writes them, and finding them again in its text.

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

/// Every number written in `text`, as written, with its byte offset: digits with optional
/// thousands separators, a decimal part and a leading minus. Digits inside a word (`DE21`,
/// `tgs00010`, `nama_10r_2gdp`) are part of that word, not numbers.
pub fn find(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !word(bytes[i - 1]);
        if !(bytes[i].is_ascii_digit() && starts_word) {
            // Skip the rest of a word that does not start with a digit.
            if word(bytes[i]) {
                while i < bytes.len() && word(bytes[i]) {
                    i += 1;
                }
            } else {
                i += 1;
            }
            continue;
        }
        // A minus sign, unless the hyphen joins this to a word before it (`Y15-74`).
        let minus = i > 0 && bytes[i - 1] == b'-' && (i == 1 || !word(bytes[i - 2]));
        let start = if minus { i - 1 } else { i };
        let mut end = i;
        loop {
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            // A separator or decimal point continues the number only when a digit follows.
            let continues = end + 1 < bytes.len()
                && matches!(bytes[end], b',' | b'.')
                && bytes[end + 1].is_ascii_digit();
            if !continues {
                break;
            }
            end += 1;
        }
        // Digits running into letters (`3rd`, `10x`) are kept whole: they match no claim, so an
        // ordinal or a multiplier cannot slip a number past the check.
        while end < bytes.len() && word(bytes[end]) {
            end += 1;
        }
        out.push((start, &text[start..end]));
        i = end;
    }
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
    fn numbers_are_found_as_written_and_codes_are_words() {
        let text =
            "DE21 had 4,729,243 people in 2022, up 1.5 % (tgs00010, nama_10r_2gdp); -3 and 3rd.";
        let found = |text| find(text).into_iter().map(|(_, n)| n).collect::<Vec<_>>();
        assert_eq!(found(text), vec!["4,729,243", "2022", "1.5", "-3", "3rd"]);
        assert_eq!(found("1,2 and 7."), vec!["1,2", "7"]);
        assert_eq!(found("Y15-74 aged"), vec!["74"]);
        assert_eq!(find("up 1.5 %"), vec![(3, "1.5")]);
    }
}
