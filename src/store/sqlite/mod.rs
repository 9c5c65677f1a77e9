//! The store on SQLite, one file in the data directory that one process serves: the file
//! ([`file`]), the connections of each role with their authorizer ([`pool`]), and the schema's
//! migrations ([`migrate`]). Queries reach it through the facade `store::sql`.

pub mod file;
pub mod migrate;
pub mod pool;
