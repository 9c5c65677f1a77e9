//! The schema both backends hold, in one place: the numbered migrations of `schema.sql`
//! (SQLite) and `schema.postgres.sql` (PostgreSQL, whose first migration is the schema as
//! SQLite's first 19 left it), each split at its `-- migration N: title` lines; the tables every
//! copy of a database carries; and the tables requests may read directly. Adding a table touches
//! both schema files and [`TABLES`] (docs/architecture.md, "Adding a table or a query").

pub const SQLITE: &str = include_str!("../../schema.sql");
pub const POSTGRES: &str = include_str!("../../schema.postgres.sql");

/// The first migration of a PostgreSQL database: the schema as SQLite's first ones left it.
pub const POSTGRES_FIRST: i64 = 19;

/// Every table of the schema that a copy into PostgreSQL carries, parents before the tables
/// whose foreign keys name them.
pub const TABLES: &[&str] = &[
    "store_meta",
    "accounts",
    "regions",
    "sources",
    "datasets",
    "series",
    "snapshots",
    "observations",
    "observation_spans",
    "observation_blocks",
    "api_keys",
    "sessions",
    "usage_daily",
    "private_regions",
    "account_generations",
    "briefings",
    "webhook_endpoints",
    "webhook_events",
    "webhook_deliveries",
    "webhook_attempts",
    "webhook_destinations",
    "secret_fingerprints",
    "eurostat_fetches",
];

/// Tables only PostgreSQL has: the request role a database made (`request_login`) is made by
/// the target's own migration, never copied.
pub const POSTGRES_ONLY: &[&str] = &["request_login"];

/// Tables a request connection may read directly: they hold nothing private (the NUTS
/// classification, the sources of public data). Every other table, including any added later,
/// is readable only through a `v_*` view.
pub const PUBLIC_TABLES: &[&str] = &["regions", "sources"];

pub struct Migration {
    pub version: i64,
    pub title: &'static str,
    pub sql: &'static str,
}

/// The migrations of `schema.sql`, in order. Panics if the file's markers are not numbered
/// 1, 2, 3, ...: that is a build defect, caught by the unit tests.
pub fn sqlite_migrations() -> Vec<Migration> {
    parse(SQLITE, 1)
}

/// The migrations of `schema.postgres.sql`, numbered as `schema.sql`'s from [`POSTGRES_FIRST`].
pub fn postgres_migrations() -> Vec<Migration> {
    parse(POSTGRES, POSTGRES_FIRST)
}

/// The schema version this binary brings a database to, on either backend.
pub fn latest_version() -> i64 {
    sqlite_migrations().len() as i64
}

/// The migrations of a schema file split at its `-- migration N: title` lines, numbered from
/// `first` on without a gap (panics otherwise: a build defect, which each file's tests catch).
pub fn parse(schema: &'static str, first: i64) -> Vec<Migration> {
    let mut out: Vec<Migration> = Vec::new();
    let mut rest = schema;
    const MARK: &str = "\n-- migration ";
    while let Some(start) = rest.find(MARK) {
        let after = &rest[start + MARK.len()..];
        let header_end = after.find('\n').unwrap_or(after.len());
        let (number, title) = after[..header_end]
            .split_once(':')
            .expect("migration header is `-- migration N: title`");
        let version: i64 = number.trim().parse().expect("migration number");
        assert_eq!(
            version,
            first + out.len() as i64,
            "migrations are numbered one after another"
        );
        let body = &after[header_end..];
        let end = body.find(MARK).unwrap_or(body.len());
        out.push(Migration {
            version,
            title: title.trim(),
            sql: &body[..end],
        });
        rest = body;
    }
    out
}

/// The refusal of a database at schema version `current`, which a later release made.
pub fn too_new(current: i64, latest: i64) -> anyhow::Error {
    anyhow::anyhow!(
        "the database is at schema version {current}, newer than this regintel binary \
         supports ({latest}); run the regintel release that created it, or restore a backup"
    )
}
