//! The store's SQL, written once in SQLite's dialect, as PostgreSQL takes it. Each statement is
//! translated once per connection, when it is first prepared (see `conn.rs`).

/// The store's SQL (SQLite's placeholders and idioms) as PostgreSQL takes it: `?N` becomes `$N`
/// (outside quoted text), SQLite's index hints go, and a random hex id and a JSON array's
/// membership test are written PostgreSQL's way.
pub fn translate(sql: &str) -> String {
    let sql = sql.replace(
        "lower(hex(randomblob(12)))",
        "substr(md5(gen_random_uuid()::text), 1, 24)",
    );
    let sql = json_membership(&sql);
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted && chars.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('$'),
            _ => out.push(c),
        }
    }
    drop_index_hints(&out)
}

/// `EXISTS (SELECT 1 FROM json_each(ARRAY) WHERE value = VALUE)`, SQLite's test that the JSON
/// array of text ARRAY holds VALUE (a column or a parameter), as `(ARRAY::jsonb ? VALUE)`.
fn json_membership(sql: &str) -> String {
    const START: &str = "EXISTS (SELECT 1 FROM json_each(";
    const MIDDLE: &str = ") WHERE value = ";
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(START) {
        let after = &rest[at + START.len()..];
        let parsed = after.split_once(MIDDLE).and_then(|(array, tail)| {
            let (value, tail) = tail.split_once(')')?;
            let plain = |s: &str| {
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._?".contains(c))
            };
            (plain(array) && plain(value)).then_some((array, value, tail))
        });
        let Some((array, value, tail)) = parsed else {
            out.push_str(&rest[..at + START.len()]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..at]);
        out.push_str(&format!("({array}::jsonb ? {value})"));
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Removes `INDEXED BY name` (SQLite's hint; PostgreSQL's planner takes none).
fn drop_index_hints(sql: &str) -> String {
    const HINT: &str = "INDEXED BY ";
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(HINT) {
        out.push_str(&rest[..at]);
        let after = &rest[at + HINT.len()..];
        let name_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = &after[name_end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_sqlite_idioms_are_written_for_postgresql() {
        assert_eq!(
            translate("SELECT id FROM t INDEXED BY t_pending WHERE a = ?1 AND b = '?2' OR c = ?12"),
            "SELECT id FROM t  WHERE a = $1 AND b = '?2' OR c = $12"
        );
        assert_eq!(
            translate(
                "WHERE EXISTS (SELECT 1 FROM json_each(p.event_types) WHERE value = ?4) AND
                 EXISTS (SELECT 1 FROM json_each(p.event_types) WHERE value = e.type)"
            ),
            "WHERE (p.event_types::jsonb ? $4) AND
                 (p.event_types::jsonb ? e.type)"
        );
        assert_eq!(
            translate("SELECT 'dlv_' || lower(hex(randomblob(12)))"),
            "SELECT 'dlv_' || substr(md5(gen_random_uuid()::text), 1, 24)"
        );
    }
}
