-- regintel: the canonical database schema.
--
-- This file is applied by `src/store/migrate.rs` as numbered migrations: each `-- migration N: title`
-- line starts migration N, which runs in one transaction when `PRAGMA user_version` < N and then sets
-- `user_version = N`. Never edit a migration that has shipped; add the next one at the end.
--
-- Isolation: rows with an owner account are private to it. Request connections read only the `v_*`
-- views, which filter on `current_account()`, an application-defined SQL function bound to the
-- connection while a request holds it (NULL = anonymous: public rows only).

-- migration 1: regions, datasets, snapshots, observations

CREATE TABLE accounts (
    id           INTEGER PRIMARY KEY,
    email        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name TEXT NOT NULL,
    tier         TEXT NOT NULL CHECK (tier IN ('professional', 'institutional')),
    disabled     INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created_at   INTEGER NOT NULL                       -- unix ms
);

-- NUTS regions as classified (nuts_regions.csv) plus codes that appear only in data: codes of older
-- NUTS editions (classification 'historical') and non-NUTS aggregates such as EU27_2020 ('aggregate').
CREATE TABLE regions (
    code             TEXT PRIMARY KEY,
    name_latin       TEXT,
    name_national    TEXT,
    level            INTEGER CHECK (level BETWEEN 0 AND 3),
    parent_code      TEXT,
    country_code     TEXT,
    classification   TEXT NOT NULL
                     CHECK (classification IN ('NUTS', 'SR', 'NUTS2016_UK', 'historical', 'aggregate')),
    in_nuts2021      INTEGER NOT NULL DEFAULT 0,
    in_nuts2024      INTEGER NOT NULL DEFAULT 0,
    change_2021_2024 TEXT,
    recoded_from     TEXT,
    recoded_to       TEXT
) WITHOUT ROWID;
CREATE INDEX regions_parent ON regions (parent_code);
CREATE INDEX regions_country_level ON regions (country_code, level);

-- Where a dataset's rows come from: publisher, title, landing page, licence and the origin of the
-- original file (repository, commit, path, sha256), as recorded in data/sources.json.
CREATE TABLE sources (
    id             INTEGER PRIMARY KEY,
    publisher      TEXT NOT NULL,
    title          TEXT NOT NULL,
    landing_url    TEXT,
    license        TEXT NOT NULL,
    origin_json    TEXT NOT NULL DEFAULT '{}',         -- JSON object: repo/commit/path/sha256/format
    transformation TEXT
);

CREATE TABLE datasets (
    id               INTEGER PRIMARY KEY,
    owner_account_id INTEGER REFERENCES accounts (id),  -- NULL = public
    code             TEXT NOT NULL,
    title            TEXT NOT NULL,
    topic            TEXT NOT NULL,
    description      TEXT,
    nuts_edition     TEXT,                              -- NUTS edition the codes follow, if known
    headline_json    TEXT NOT NULL DEFAULT '{}',        -- {"unit": .., "<dim>": ..}: the series a profile shows
    dim_names_json   TEXT NOT NULL DEFAULT '[]',        -- dimension names in source order (without unit/geo/time)
    labels_json      TEXT NOT NULL DEFAULT '{}',        -- {"unit": {"NR": "number"}, "<dim>": {code: label}}
    source_id        INTEGER REFERENCES sources (id),
    headline_series_id INTEGER                          -- series (below) matching headline_json, if any
);
CREATE UNIQUE INDEX datasets_owner_code ON datasets (ifnull(owner_account_id, 0), code);

-- One series = one dataset, unit and combination of dimension values.
CREATE TABLE series (
    id         INTEGER PRIMARY KEY,
    dataset_id INTEGER NOT NULL REFERENCES datasets (id),
    unit       TEXT NOT NULL,
    dims       TEXT NOT NULL,                           -- canonical 'name=value;...' sorted by name
    -- Statistics of the current rows, refreshed by every import that touches the series.
    obs_count    INTEGER NOT NULL DEFAULT 0,
    region_count INTEGER NOT NULL DEFAULT 0,
    period_min   TEXT,
    period_max   TEXT,
    UNIQUE (dataset_id, unit, dims)
);

-- One import of one file for one dataset.
CREATE TABLE snapshots (
    id               INTEGER PRIMARY KEY,
    public_id        TEXT NOT NULL UNIQUE,              -- snp_...
    dataset_id       INTEGER NOT NULL REFERENCES datasets (id),
    owner_account_id INTEGER REFERENCES accounts (id),
    imported_at      INTEGER NOT NULL,                  -- unix ms
    file_name        TEXT NOT NULL,
    file_sha256      TEXT NOT NULL,                     -- of the file's bytes as given to import
    format           TEXT NOT NULL,
    rows_in_file     INTEGER NOT NULL,
    rows_added       INTEGER NOT NULL,
    rows_revised     INTEGER NOT NULL,
    rows_unchanged   INTEGER NOT NULL
);
CREATE INDEX snapshots_dataset ON snapshots (dataset_id, id);

-- Every value ever imported. A revision adds a row and points the old one at it (superseded_by),
-- so a citation, once given, resolves forever.
CREATE TABLE observations (
    id               INTEGER PRIMARY KEY,
    citation_id      TEXT NOT NULL,                     -- cit_ + 20 base32 chars, see src/citation.rs
    series_id        INTEGER NOT NULL REFERENCES series (id),
    region_code      TEXT NOT NULL,
    period           TEXT NOT NULL,
    value            REAL,                              -- NULL when the source has only a flag
    value_text       TEXT NOT NULL,                     -- exactly as published
    flags            TEXT NOT NULL DEFAULT '',
    conf_status      TEXT NOT NULL DEFAULT '',
    src_line         INTEGER NOT NULL,
    snapshot_id      INTEGER NOT NULL REFERENCES snapshots (id),
    owner_account_id INTEGER REFERENCES accounts (id),
    superseded_by    TEXT                               -- citation id of the revision; NULL = current
);
CREATE UNIQUE INDEX observations_citation ON observations (citation_id);
CREATE UNIQUE INDEX observations_current ON observations (region_code, series_id, period)
    WHERE superseded_by IS NULL;
CREATE INDEX observations_series ON observations (series_id, period);

-- Bumped by every transaction that changes served data; caches and ETags are keyed on it.
CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO store_meta (key, value) VALUES ('data_generation', 0);

-- What request code may read. Public rows have no owner; private rows only their owner sees.
CREATE VIEW v_datasets AS
    SELECT * FROM datasets WHERE owner_account_id IS NULL OR owner_account_id = current_account();
CREATE VIEW v_series AS
    SELECT s.* FROM series s JOIN v_datasets d ON d.id = s.dataset_id;
CREATE VIEW v_snapshots AS
    SELECT * FROM snapshots WHERE owner_account_id IS NULL OR owner_account_id = current_account();
CREATE VIEW v_observations AS
    SELECT * FROM observations WHERE owner_account_id IS NULL OR owner_account_id = current_account();
CREATE VIEW v_regions AS SELECT * FROM regions;
CREATE VIEW v_sources AS SELECT * FROM sources;

-- migration 2: passwords, API keys, sessions, account views

ALTER TABLE accounts ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';

-- API keys are stored only as HMAC-SHA256 under a pepper kept outside the database, so a stolen
-- database or backup alone cannot confirm a guessed key; the plaintext is shown once, at creation.
CREATE TABLE api_keys (
    id             INTEGER PRIMARY KEY,
    key_id         TEXT NOT NULL UNIQUE,                -- the 8 characters after sk_service_
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    name           TEXT NOT NULL,
    mac            BLOB NOT NULL,
    pepper_version INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,                    -- unix ms
    last_used_at   INTEGER,                             -- written at most once a minute per key
    revoked_at     INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Browser sessions: the `sid` claim of a JWT; logout revokes the row and so the token.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
) WITHOUT ROWID;
CREATE INDEX sessions_account ON sessions (account_id);

-- Bumped by every change to accounts, keys or sessions made outside the server (the operator
-- commands), so a running server drops its cached credentials within about a second.
INSERT INTO store_meta (key, value) VALUES ('auth_generation', 0);

CREATE VIEW v_accounts AS
    SELECT id, email, display_name, tier, disabled, created_at FROM accounts
    WHERE id = current_account();
CREATE VIEW v_api_keys AS
    SELECT id, key_id, account_id, name, created_at, last_used_at, revoked_at FROM api_keys
    WHERE account_id = current_account();

-- migration 3: daily usage

-- Requests counted per UTC day: scope 'key:<key_id>' or 'acct:<account id>'. Counters live in
-- memory and are flushed here about every second and at shutdown, and reloaded at start, so a
-- restart does not reset a daily cap. Kept for the usage charts.
CREATE TABLE usage_daily (
    scope TEXT NOT NULL,
    day   TEXT NOT NULL,                                -- YYYY-MM-DD (UTC)
    used  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, day)
) WITHOUT ROWID;

-- migration 4: private region codes; v_accounts readable through the authorizer

-- Codes that appear only in an account's private data are that account's: they must not show up
-- in anyone else's region lists (the public `regions` table is shared by everybody).
CREATE TABLE private_regions (
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    code           TEXT NOT NULL,
    level          INTEGER,
    parent_code    TEXT,
    country_code   TEXT,
    classification TEXT NOT NULL,
    PRIMARY KEY (account_id, code)
) WITHOUT ROWID;

DROP VIEW v_regions;
CREATE VIEW v_regions AS
    SELECT code, name_latin, name_national, level, parent_code, country_code, classification,
           in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to
    FROM regions
    UNION ALL
    SELECT code, NULL, NULL, level, parent_code, country_code, classification, 0, 0, NULL, NULL, NULL
    FROM private_regions
    WHERE account_id = current_account() AND code NOT IN (SELECT code FROM regions);

-- `id = current_account()` on the rowid became a lookup the authorizer attributes to the
-- statement rather than the view; comparing `+id` keeps it a filter inside the view.
DROP VIEW v_accounts;
CREATE VIEW v_accounts AS
    SELECT id, email, display_name, tier, disabled, created_at FROM accounts
    WHERE +id = current_account();

-- migration 5: per-account data generations; daily usage through a view

-- An account's private data has its own generation: its import renews that account's cached
-- answers and ETags only, and nobody else can tell that it happened. (`store_meta`'s
-- data_generation counts changes of public data.)
CREATE TABLE account_generations (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    generation INTEGER NOT NULL
);

-- The caller's own calls per day, for GET /account/usage on a request connection.
CREATE VIEW v_usage_daily AS
    SELECT day, used FROM usage_daily WHERE scope = 'acct:' || current_account();

-- migration 6: region codes found in any case

-- A region code may be asked for in any case (`de21`); without this, each such lookup scans
-- every region. (An account's own codes are found through its key prefix: at most 10,000.)
CREATE INDEX regions_code_nocase ON regions (code COLLATE NOCASE);

-- migration 7: briefings

-- AI briefings as generated and verified, kept per account: the answer exactly as it was first
-- given (sections, claims with their citations, verification, generator), so it can be shown
-- again and checked against later revisions of the rows it cites.
CREATE TABLE briefings (
    id            INTEGER PRIMARY KEY,
    public_id     TEXT NOT NULL UNIQUE,                 -- brf_...
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    region_code   TEXT NOT NULL,
    briefing_type TEXT NOT NULL,
    title         TEXT NOT NULL,
    created_at    INTEGER NOT NULL,                     -- unix ms
    body_json     TEXT NOT NULL
);
CREATE INDEX briefings_account ON briefings (account_id, id);

CREATE VIEW v_briefings AS
    SELECT * FROM briefings WHERE account_id = current_account();

-- migration 8: current rows by series first

-- A bulk export reads a dataset series by series, each by region and period: with the series
-- first, that is one pass over this index and no sort of the whole dataset. Lookups of one
-- region's value of a series name both columns and find it either way.
DROP INDEX observations_current;
CREATE UNIQUE INDEX observations_current ON observations (series_id, region_code, period)
    WHERE superseded_by IS NULL;

-- migration 9: webhooks

-- An account's webhook endpoints. The signing secret is kept sealed (AES-256-GCM under
-- secrets/webhook_secrets_key, bound to public_id): regintel must sign with it, and a copy of
-- this file alone must not give it away. During a rotation the previous secret keeps signing
-- beside the new one until previous_secret_until. The breaker columns mirror the delivery
-- worker's circuit breaker, so its state survives a restart and shows in the API.
-- AUTOINCREMENT: an id is never reused, so the worker's breaker of a deleted endpoint cannot
-- pass to a new one.
CREATE TABLE webhook_endpoints (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id             TEXT NOT NULL UNIQUE,                 -- whk_...
    account_id            INTEGER NOT NULL REFERENCES accounts (id),
    url                   TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    event_types           TEXT NOT NULL                         -- JSON array of type names
                          CHECK (json_valid(event_types) AND json_type(event_types) = 'array'),
    enabled               INTEGER NOT NULL DEFAULT 1,
    disabled_reason       TEXT,
    secret_sealed         TEXT NOT NULL,
    previous_secret_sealed TEXT,
    previous_secret_until INTEGER,                              -- unix ms
    breaker_state         TEXT NOT NULL DEFAULT 'closed'
                          CHECK (breaker_state IN ('closed', 'open', 'half_open')),
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    breaker_open_until    INTEGER,
    breaker_trips         INTEGER NOT NULL DEFAULT 0,
    failing_since         INTEGER,
    created_at            INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, id);

-- The outbox: one row per event, written in the transaction of the change that caused it, with
-- the exact bytes every attempt sends; one delivery per subscribed endpoint beside it.
CREATE TABLE webhook_events (
    id          INTEGER PRIMARY KEY,
    public_id   TEXT NOT NULL UNIQUE,                           -- msg_...: the webhook-id header
    type        TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,                               -- unix ms
    payload     BLOB NOT NULL
);

CREATE TABLE webhook_deliveries (
    id              INTEGER PRIMARY KEY,
    public_id       TEXT NOT NULL UNIQUE,                       -- dlv_...
    event_id        INTEGER NOT NULL REFERENCES webhook_events (id),
    endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id),
    status          TEXT NOT NULL
                    CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,                           -- unix ms
    lease_until     INTEGER,                                    -- a worker holds it until then
    last_status     INTEGER,
    last_error      TEXT,
    delivered_at    INTEGER,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

-- Every attempt of a delivery: when, the answer's status (NULL: none), how long, what failed.
CREATE TABLE webhook_attempts (
    id           INTEGER PRIMARY KEY,
    delivery_id  INTEGER NOT NULL REFERENCES webhook_deliveries (id),
    attempted_at INTEGER NOT NULL,
    status_code  INTEGER,
    latency_ms   INTEGER NOT NULL,
    error        TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

-- The caller's endpoints (never their secrets), deliveries and attempts.
CREATE VIEW v_webhook_endpoints AS
    SELECT id, public_id, url, description, event_types, enabled, disabled_reason,
           previous_secret_until, breaker_state, consecutive_failures, breaker_open_until,
           breaker_trips, failing_since, created_at
    FROM webhook_endpoints WHERE account_id = current_account();

CREATE VIEW v_webhook_deliveries AS
    SELECT d.id, d.public_id, d.endpoint_id, p.public_id AS endpoint_public_id,
           e.public_id AS event_public_id, e.type, e.occurred_at, d.status, d.attempts,
           d.next_attempt_at, d.last_status, d.last_error, d.delivered_at
    FROM webhook_deliveries d
    JOIN webhook_endpoints p ON p.id = d.endpoint_id
    JOIN webhook_events e ON e.id = d.event_id
    WHERE p.account_id = current_account();

CREATE VIEW v_webhook_attempts AS
    SELECT a.id, a.delivery_id, a.attempted_at, a.status_code, a.latency_ms, a.error
    FROM webhook_attempts a
    JOIN webhook_deliveries d ON d.id = a.delivery_id
    JOIN webhook_endpoints p ON p.id = d.endpoint_id
    WHERE p.account_id = current_account();

-- migration 10: webhook audiences and schedules

-- Who an event was for: one account, or every account (NULL: a change of public data). Replays
-- send an account the events it was an audience of.
ALTER TABLE webhook_events ADD COLUMN account_id INTEGER REFERENCES accounts (id);
CREATE INDEX webhook_events_time ON webhook_events (occurred_at);
-- When the delivery's retry schedule began: its event's time, or when it was resent or
-- replayed. The retry schedule's age limit counts from here (NULL: the event's time).
ALTER TABLE webhook_deliveries ADD COLUMN scheduled_at INTEGER;

-- migration 11: webhook breaker versions

-- The version of the saved breaker state: attempts end in any order, and an older state saved
-- late must not overwrite a newer one.
ALTER TABLE webhook_endpoints ADD COLUMN breaker_version INTEGER NOT NULL DEFAULT 0;

-- migration 12: webhook claims by endpoint

-- The worker claims each endpoint's first due deliveries from this index, so a claim reads a
-- few rows per endpoint however long the backlog is (ordering every due delivery cost more with
-- each one waiting).
DROP INDEX webhook_deliveries_due;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, next_attempt_at)
    WHERE status = 'pending';

-- migration 13: the public data generation, readable by requests

-- A read transaction reads it first: the public datasets, series, sources and snapshots it then
-- takes from memory are those of exactly this generation (see src/store/public_catalog.rs).
CREATE VIEW v_data_generation AS
    SELECT value FROM store_meta WHERE key = 'data_generation';

-- migration 14: each region's current rows of a series in one block

-- A profile cites about 300 current rows and a comparison 75: read row by row they were most of
-- an uncached answer's time. Every import that touches a series writes its blocks again in the
-- same transaction: one row per series and region holding its current observations in period
-- order, in the format src/store/blocks.rs describes. (Databases made before this migration get
-- their blocks from the migration's step in src/store/migrate.rs.)
-- A rowid table: its leaves hold a block of up to 4 KB in place, where an index's (as a table
-- WITHOUT ROWID is) spill anything over 1 KB to an overflow page of its own.
CREATE TABLE observation_blocks (
    id               INTEGER PRIMARY KEY,
    series_id        INTEGER NOT NULL REFERENCES series (id),
    region_code      TEXT NOT NULL,
    owner_account_id INTEGER REFERENCES accounts (id),
    rows             BLOB NOT NULL
);
CREATE UNIQUE INDEX observation_blocks_key ON observation_blocks (series_id, region_code);
CREATE VIEW v_observation_blocks AS
    SELECT * FROM observation_blocks
    WHERE owner_account_id IS NULL OR owner_account_id = current_account();

-- migration 15: periods in one form

-- Eurostat's bulk TSV writes quarters, semesters and months as 2023Q1, 2023S1 and 2023M01, SDMX-CSV
-- as 2023-Q1, 2023-S1 and 2023-01. Imports now store the latter (ISO 8601 for months, see
-- src/period.rs), so that one quarter from two files sorts together; the migration's step in
-- src/store/migrate.rs rewrites the periods stored before, with the series' bounds and blocks.

-- migration 16: citations of regions and snapshots

-- A region's names, level and parent come from a row of the bundled classification file
-- (nuts_regions.csv; an aggregate's name from catalogue.json): the row's file, SHA-256 and line
-- and the sources it names for its names, and the citation id answers give it (see
-- src/store/classification.rs). Codes seen only in data have none: every field of theirs is
-- derived from the code. Databases made before get them from the migration's step in
-- src/store/migrate.rs, for the rows that are as the bundled file has them.
ALTER TABLE regions ADD COLUMN citation_id TEXT;
ALTER TABLE regions ADD COLUMN source_file TEXT;
ALTER TABLE regions ADD COLUMN source_sha256 TEXT;
ALTER TABLE regions ADD COLUMN source_line INTEGER;
ALTER TABLE regions ADD COLUMN name_source TEXT;
ALTER TABLE regions ADD COLUMN name_latin_source TEXT;
CREATE UNIQUE INDEX regions_citation ON regions (citation_id) WHERE citation_id IS NOT NULL;

DROP VIEW v_regions;
CREATE VIEW v_regions AS
    SELECT code, name_latin, name_national, level, parent_code, country_code, classification,
           in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to, citation_id
    FROM regions
    UNION ALL
    SELECT code, NULL, NULL, level, parent_code, country_code, classification, 0, 0, NULL, NULL, NULL,
           NULL
    FROM private_regions
    WHERE account_id = current_account() AND code NOT IN (SELECT code FROM regions);

-- What a region's citation resolves to.
CREATE VIEW v_region_sources AS
    SELECT code, citation_id, source_file, source_sha256, source_line, name_source,
           name_latin_source
    FROM regions WHERE citation_id IS NOT NULL;

-- A dataset answer cites the snapshot (the imported file and its SHA-256) its figures come
-- from; the id is computed from the snapshot's public id and its file's SHA-256.
ALTER TABLE snapshots ADD COLUMN citation_id TEXT;
CREATE UNIQUE INDEX snapshots_citation ON snapshots (citation_id);

-- migration 17: secret fingerprints
-- A fingerprint of each secret file the database was used with (a SHA-256 of the file with a
-- label, which tells nothing of the secret): a restore without `secrets/`, or with other ones,
-- is refused at start instead of every API key answering 401.
CREATE TABLE secret_fingerprints (
    file        TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    recorded_at INTEGER NOT NULL
) WITHOUT ROWID;

-- migration 18: bounded replays, and what a receiver's URL has said
-- The deliveries a replay schedules are marked `replayed`, so the worker sends an account's new
-- events before them, each from its own range of the index of pending deliveries.
ALTER TABLE webhook_deliveries ADD COLUMN replayed INTEGER NOT NULL DEFAULT 0;
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending
    ON webhook_deliveries (endpoint_id, replayed, next_attempt_at) WHERE status = 'pending';
-- Per account and destination (the URL in a normal form, see WebhookUrl::key): when it was last
-- replayed to (once an hour, whichever endpoint names it, one deleted and made again included)
-- and when its receiver answered 410 Gone (no endpoint of the account may name it for 30 days).
CREATE TABLE webhook_destinations (
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    url_key        TEXT NOT NULL,
    last_replay_at INTEGER,
    gone_at        INTEGER,
    PRIMARY KEY (account_id, url_key)
) WITHOUT ROWID;

-- migration 19: a dataset's changes, snapshot by snapshot
-- `GET /datasets/{code}/changes` lists the rows of the snapshots after a given one in import
-- order: a snapshot's rows by row id, from this index alone; and each revision with the row it
-- replaced, found among the superseded rows only (current rows, most of them, are not indexed).
CREATE INDEX observations_snapshot ON observations (snapshot_id);
CREATE INDEX observations_superseded ON observations (superseded_by)
    WHERE superseded_by IS NOT NULL;

-- migration 20: observations without an index by series and period
-- Every read of a series' rows asks for its current rows, which `observations_current` (series,
-- region, period; current rows only) finds in its order. The index of every row by series and
-- period served no query, and cost 17 bytes a row (8 % of the database) and a write per row
-- imported.
DROP INDEX observations_series;

-- migration 21: where each secret was made
-- A process that finds a recorded secret missing or different names the directory and machine
-- that made the one the database records, so an operator knows where to copy it from.
ALTER TABLE secret_fingerprints ADD COLUMN made_on TEXT;
-- An account's dataset may refuse region codes of no known region in its uploads, naming the
-- line, instead of making them regions of the account's own.
ALTER TABLE datasets ADD COLUMN strict_regions INTEGER NOT NULL DEFAULT 0;

-- migration 22: what fetch downloaded from Eurostat
-- One row per dataset fetched from Eurostat's API: what was downloaded last (its URL, when, the
-- SHA-256 of the bytes received and of the file they decompress to), the table of contents'
-- dates it was fetched at (what a sync compares), and the last attempt's outcome.
CREATE TABLE eurostat_fetches (
    dataset_code          TEXT PRIMARY KEY,   -- as Eurostat's table of contents writes it
    title                 TEXT NOT NULL,
    url                   TEXT NOT NULL,      -- the data request
    last_update_of_data   TEXT,               -- the table of contents' date (YYYY-MM-DD)
    last_structure_change TEXT,
    downloaded_at         INTEGER,            -- unix ms of the last download imported
    sha256_received       TEXT,
    sha256                TEXT,               -- of the decompressed file: what citations hash
    bytes_received        INTEGER,
    snapshot              TEXT,               -- the snapshot it made or found (its public id)
    succeeded_at          INTEGER,
    failed_at             INTEGER,
    error                 TEXT                -- the last attempt's, NULL once one succeeds
) WITHOUT ROWID;

-- migration 23: withdrawn rows
-- A whole-dataset fetch withdraws the current rows its file no longer holds: each gets a
-- withdrawal, a row of the new snapshot with no value (withdrawn = 1) that supersedes it, so its
-- citation still resolves and says so. The withdrawal itself is no current row: its
-- superseded_by is 'withdrawn' until the value is published again, then the citation of the row
-- that restores it.
ALTER TABLE observations ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN rows_withdrawn INTEGER NOT NULL DEFAULT 0;
-- The source each snapshot was imported from: a citation names the download its row came in,
-- not the dataset's latest (NULL for snapshots made before, and for uploads).
ALTER TABLE snapshots ADD COLUMN source_id INTEGER REFERENCES sources (id);
-- At most one withdrawal stands for a cell (series, region, period) while it has no value.
CREATE UNIQUE INDEX observations_withdrawn ON observations (series_id, region_code, period)
    WHERE superseded_by = 'withdrawn';

-- migration 24: every past state of the data
-- An observation row is current from the snapshot that wrote it (snapshot_id) until the
-- snapshot that superseded or withdrew it (until_snapshot_id; NULL while it stands). A row that
-- an identical file brings back (a revival) is current again from then: each later stretch is
-- a row of observation_spans. A read "as of" a snapshot of the dataset takes the rows current
-- then: current rows (observations_current), superseded rows (observations_past) and spans.
ALTER TABLE observations ADD COLUMN until_snapshot_id INTEGER;
-- When Eurostat published the data of the snapshot's file ("last update of data" in its table
-- of contents, recorded by fetch and sync), unix ms of the end of that day UTC (or of the
-- download, if earlier); NULL where
-- unknown (the bundled extract's files and uploads carry none).
ALTER TABLE snapshots ADD COLUMN published_at INTEGER;
CREATE TABLE observation_spans (
    observation_id    INTEGER NOT NULL REFERENCES observations (id),
    series_id         INTEGER NOT NULL,
    region_code       TEXT NOT NULL,
    owner_account_id  INTEGER REFERENCES accounts (id),
    since_snapshot_id INTEGER NOT NULL,
    until_snapshot_id INTEGER,
    PRIMARY KEY (observation_id, since_snapshot_id)
) WITHOUT ROWID;
CREATE INDEX observation_spans_cell ON observation_spans (series_id, region_code);
CREATE INDEX observations_past ON observations (series_id, region_code, period)
    WHERE superseded_by IS NOT NULL;
CREATE VIEW v_observation_spans AS
    SELECT * FROM observation_spans
    WHERE owner_account_id IS NULL OR owner_account_id = current_account();
-- The rows imported before: each superseded row ends where the row that superseded it began.
UPDATE observations SET until_snapshot_id =
    (SELECT n.snapshot_id FROM observations n WHERE n.citation_id = observations.superseded_by)
WHERE superseded_by IS NOT NULL AND superseded_by <> 'withdrawn';
-- A revival recorded only that the earlier row stands again: the row it superseded ends at the
-- first later snapshot of the dataset from the revived row's file (none known: no stretch).
UPDATE observations SET until_snapshot_id = coalesce(
    (SELECT min(s.id) FROM snapshots s, snapshots own, snapshots back
     WHERE own.id = observations.snapshot_id AND back.id = observations.until_snapshot_id
       AND s.dataset_id = own.dataset_id AND s.id > own.id AND s.file_sha256 = back.file_sha256),
    snapshot_id)
WHERE until_snapshot_id <= snapshot_id;
-- The revived row: current again from its revival (its latest stretch), its first stretch
-- ending where the next row of its cell began (found through the indexes of current and of
-- superseded rows: the cell's rows have no index of their own). A row revived more than once
-- keeps its first and its latest stretch: the ones between were not recorded.
INSERT INTO observation_spans (observation_id, series_id, region_code, owner_account_id,
                               since_snapshot_id, until_snapshot_id)
SELECT r.id, r.series_id, r.region_code, r.owner_account_id, max(x.until_snapshot_id),
       r.until_snapshot_id
FROM observations r JOIN observations x ON x.superseded_by = r.citation_id
WHERE x.snapshot_id > r.snapshot_id
GROUP BY r.id, r.series_id, r.region_code, r.owner_account_id, r.until_snapshot_id;
UPDATE observations SET until_snapshot_id =
    (SELECT min(later.snapshot_id) FROM
        (SELECT n.snapshot_id FROM observations n
         WHERE n.series_id = observations.series_id AND n.region_code = observations.region_code
           AND n.period = observations.period AND n.superseded_by IS NULL
           AND n.snapshot_id > observations.snapshot_id
         UNION ALL
         SELECT n.snapshot_id FROM observations n
         WHERE n.series_id = observations.series_id AND n.region_code = observations.region_code
           AND n.period = observations.period AND n.superseded_by IS NOT NULL
           AND n.snapshot_id > observations.snapshot_id) AS later)
WHERE id IN (SELECT observation_id FROM observation_spans);

-- migration 25: what each snapshot's dataset said of itself
-- The dataset as the import that made the snapshot left it (title, topic, description, NUTS
-- edition, headline, labels, headline series; JSON): what a read as of a moment shows of it.
-- NULL for snapshots imported before: they are described as their dataset is now.
ALTER TABLE snapshots ADD COLUMN described_json TEXT;
