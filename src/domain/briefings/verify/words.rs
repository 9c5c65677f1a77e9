//! The words the verifier reads around numbers: words that state a number, rank and comparing
//! words, words of change, and the words before and after a period or a unit.

/// Words that state a number without digits; a model's text may not use them (nor the
/// ordinals of [`ORDINAL_WORDS`](crate::domain::briefings::numbers::ORDINAL_WORDS), nor any of these or those before "fold").
pub(super) const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "hundreds",
    "hundredth",
    "thousand",
    "thousands",
    "thousandth",
    "million",
    "millions",
    "millionth",
    "billion",
    "billions",
    "trillion",
    "trillions",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "sixtieth",
    "seventieth",
    "eightieth",
    "ninetieth",
    "twice",
    "thrice",
    "double",
    "doubled",
    "triple",
    "tripled",
    "quadruple",
    "quadrupled",
    "halved",
    "dozen",
    "dozens",
    "percent",
    "half",
    "quarter",
];

/// Words that rank without a rank claim's phrase; a model's text may not use them, nor a
/// superlative (a word ending in "est" but those of [`NOT_SUPERLATIVES`]).
pub(super) const RANK_WORDS: &[&str] = &[
    "top",
    "bottom",
    "last",
    "best",
    "worst",
    "most",
    "least",
    "penultimate",
    "runner",
    "foremost",
];

/// Words ending in "est" that rank nothing.
pub(super) const NOT_SUPERLATIVES: &[&str] = &[
    "latest",
    "interest",
    "interests",
    "west",
    "rest",
    "forest",
    "honest",
    "modest",
    "request",
    "suggest",
    "suggests",
    "invest",
    "invests",
    "harvest",
    "test",
    "tests",
    "digest",
    "manifest",
];

/// Words after a number that compare it: a model may write one there only as a claim's `reads`.
pub(super) const COMPARING: &[&str] = &[
    "more",
    "less",
    "fewer",
    "above",
    "below",
    "higher",
    "lower",
    "greater",
    "larger",
    "smaller",
    "times",
    "up",
    "down",
    "over",
    "under",
    "ahead",
    "behind",
    "increase",
    "increased",
    "decrease",
    "decreased",
    "rise",
    "rose",
    "fall",
    "fell",
    "grew",
    "growth",
    "gain",
    "drop",
    "dropped",
];

/// Words that make a number a percentage: a model may write one after a number only as its
/// claim's `reads`.
pub(super) const PERCENT_WORDS: &[&str] = &["cent", "pct", "pc", "pp", "percentage", "points"];

/// Verbs of change: before a number, they say it is a change, which only a claim reading a
/// direction states.
pub(super) const CHANGING: &[&str] = &[
    "by",
    "rose",
    "risen",
    "fell",
    "fallen",
    "declined",
    "climbed",
    "jumped",
    "slipped",
    "lost",
    "gained",
    "shrank",
    "expanded",
    "grown",
    "dropped",
    "increased",
    "decreased",
];

/// Words a model may write after a period standing as a date; before any other, the period is a
/// number like any other (a model writing "in 2015 regions" states a number of regions).
pub(super) const AFTER_PERIOD: &[&str] = &[
    "and", "or", "to", "on", "the", "it", "its", "when", "where", "which", "with", "while", "but",
    "in", "of", "for", "from", "until", "since", "than", "was", "were", "is", "are", "has", "had",
    "have", "as", "by", "at", "so", "because", "after", "before", "compared", "against", "there",
    "this", "that", "then", "a", "an",
];

/// Words before a period that make a four-digit number a year ("in 2022", "since 2015").
pub(super) const BEFORE_PERIOD: &[&str] = &[
    "in", "since", "from", "to", "until", "between", "and", "for",
];

/// Words after a number that make it an amount, never a year: a period before one of them (or
/// before `%`) is a number like any other.
pub(super) const UNIT_WORDS: &[&str] = &[
    "percent",
    "percentage",
    "pp",
    "points",
    "per",
    "years",
    "year",
    "euro",
    "euros",
    "eur",
    "pps",
    "persons",
    "people",
    "inhabitants",
    "km",
    "times",
    "million",
    "thousand",
    "billion",
    "index",
];

/// Words right before a number that give it a sign its claim does not have ("minus 274.9").
pub(super) const SIGN_WORDS: &[&str] = &["minus", "negative", "plus", "positive", "neg"];

/// Words and signs that make arithmetic of a number ("274.9 x 274.9", "274.9 squared"): a
/// model's text states claims, never sums, products or powers of them.
pub(super) const ARITHMETIC_WORDS: &[&str] = &[
    "x",
    "plus",
    "minus",
    "divided",
    "multiplied",
    "squared",
    "cubed",
    "into",
];
pub(super) const ARITHMETIC_SIGNS: &[char] = &['+', '*', '/', '^', '=', '<', '>', '~'];

/// Unit words and magnitudes, in families, each with the unit codes it may stand beside a
/// number of: a word of a family beside a number whose claim's unit is not of that family says
/// another quantity than the claim ("274.9 euro" of a density, "274.9 bn" of anything but
/// billions, "EUR 274.9").
pub(super) struct UnitFamily {
    pub words: &'static [&'static str],
    /// Whether a value in the Eurostat unit `code` may be written with these words.
    pub fits: fn(&str) -> bool,
}

pub(super) const UNIT_FAMILIES: &[UnitFamily] = &[
    UnitFamily {
        words: &["million", "millions", "mio", "mn", "mln", "m", "mm", "mill"],
        fits: |unit| unit.contains("MIO"),
    },
    UnitFamily {
        words: &["thousand", "thousands", "ths", "thsd", "tsd", "k"],
        // Per hundred thousand inhabitants (P_HTHAB) too.
        fits: |unit| unit.contains("THS") || unit.contains("HTHAB"),
    },
    UnitFamily {
        words: &[
            "billion", "billions", "bn", "bln", "bil", "b", "md", "mrd", "milliard", "trillion",
            "tn", "trn",
        ],
        fits: |unit| unit.contains("BN") || unit.contains("MRD"),
    },
    UnitFamily {
        words: &["euro", "euros", "eur"],
        fits: |unit| unit.contains("EUR"),
    },
    UnitFamily {
        words: &["pps"],
        fits: |unit| unit.contains("PPS"),
    },
    UnitFamily {
        words: &[
            "dollar", "dollars", "usd", "pound", "pounds", "gbp", "franc", "francs", "chf",
            "krona", "kronor", "krone", "kroner", "zloty", "forint", "leu", "lei", "lev", "koruna",
            "lira", "lire", "dinar", "denar",
        ],
        fits: |unit| unit.contains("NAC"),
    },
    UnitFamily {
        words: &[
            "persons",
            "person",
            "people",
            "inhabitants",
            "inhabitant",
            "residents",
            "habitants",
        ],
        fits: |unit| {
            unit == "NR"
                || ["THS", "KM2", "HAB", "PER"]
                    .iter()
                    .any(|u| unit.contains(u))
        },
    },
    UnitFamily {
        words: &["km", "km2", "sq", "square", "hectares", "ha"],
        // Hectares are the code HA, not the HA of HAB (per inhabitant).
        fits: |unit| unit.contains("KM2") || unit.split('_').any(|part| part == "HA"),
    },
    UnitFamily {
        words: &["years", "year", "yrs"],
        fits: |unit| unit == "YR",
    },
    UnitFamily {
        words: &["index"],
        fits: |unit| crate::domain::series::index_base(unit).is_some(),
    },
];

/// Codes of European countries that are also Roman numerals (Liechtenstein, Latvia, Monaco,
/// Moldova): a model may write them as codes.
pub(super) const ROMAN_COUNTRY_CODES: &[&str] = &["LI", "LV", "MC", "MD"];
