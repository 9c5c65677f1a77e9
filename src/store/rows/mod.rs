//! The shapes of the store's rows and how each is read from a result: below the connections and
//! the queries that return them, and above the SQL facade, so that what is held in memory (the
//! public catalogue, rows and region index) and the queries share them.

pub mod datasets;
pub mod observations;
pub mod regions;
