//! The network edge: accept loop and per-address connection shares (`server`), one connection's
//! deadlines (`conn`), TLS (`tls`), graceful shutdown.

pub mod conn;
pub mod server;
pub mod tls;
