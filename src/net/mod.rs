//! The network edge: accept loop, TLS, connection limits and graceful shutdown.

pub mod server;
pub mod tls;
