//! What the model is asked, and how its answer becomes sections. The model gets the writer's
//! text as its fact sheet, with the claims it may state; whatever it returns goes through the
//! same verifier as the writer's own text.

use serde::Deserialize;
use serde_json::json;

use super::{Draft, ProseModel, Section};

const SYSTEM: &str = "You rewrite short briefings about European regions for policy analysts, in clear, plain English. \
Use only the facts in the fact sheet. Every number you write must be one of the claims, written character for character as its `reads` text \
(or its `display` when it has no `reads`), keeping thousands separators, decimals and the words that follow; \
do not round, convert, add up, compare or invent any other number, and write no number words (twelve, twice, doubled) and no ordinals (1st, 2nd). \
Write a period only as the fact sheet does, after \"in\", \"since\", \"from\", \"to\", \"until\", \"between\", \"and\" or \"a\". Names and titles may be quoted as given. You may leave claims out. \
Answer with JSON only: {\"sections\": [{\"heading\": \"...\", \"text\": \"...\"}]}.";

/// Most sections a model's answer may have, and most characters in all of them.
const MAX_SECTIONS: usize = 40;
const MAX_CHARS: usize = 40_000;

#[derive(Deserialize)]
struct Answer {
    sections: Vec<Section>,
}

/// The model's sections for `draft`, or why there are none.
pub fn rewrite(model: &dyn ProseModel, draft: &Draft) -> Result<Vec<Section>, String> {
    let claims: Vec<_> = draft
        .claims
        .iter()
        .map(|c| json!({"id": c.id, "display": c.display, "reads": c.reads}))
        .collect();
    let user = json!({
        "title": draft.title,
        "fact_sheet": draft.sections,
        "claims": claims,
    })
    .to_string();
    let text = model.write(SYSTEM, &user)?;
    parse(&text)
}

/// The sections of a model's answer: the JSON asked for, possibly inside a Markdown code fence.
fn parse(text: &str) -> Result<Vec<Section>, String> {
    let trimmed = text.trim();
    let json = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .unwrap_or(trimmed);
    let answer: Answer = serde_json::from_str(json)
        .map_err(|_| "the model's answer is not the JSON asked for".to_owned())?;
    let chars: usize = answer
        .sections
        .iter()
        .map(|s| s.heading.chars().count() + s.text.chars().count())
        .sum();
    if answer.sections.is_empty() || answer.sections.len() > MAX_SECTIONS || chars > MAX_CHARS {
        return Err(format!(
            "the model's answer has {} sections and {chars} characters (1 to {MAX_SECTIONS} sections, at most {MAX_CHARS} characters)",
            answer.sections.len()
        ));
    }
    Ok(answer.sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_bare_or_fenced_and_bounded() {
        let bare = r#"{"sections": [{"heading": "H", "text": "T"}]}"#;
        assert_eq!(parse(bare).unwrap()[0].text, "T");
        assert_eq!(parse(&format!("```json\n{bare}\n```")).unwrap().len(), 1);
        assert!(parse("Oberbayern is doing well.").is_err());
        assert!(parse(r#"{"sections": []}"#).is_err());
        let huge = format!(
            r#"{{"sections": [{{"heading": "H", "text": "{}"}}]}}"#,
            "x".repeat(MAX_CHARS + 1)
        );
        assert!(parse(&huge).is_err());
    }
}
