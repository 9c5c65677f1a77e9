//! Webhooks as Standard Webhooks 1.0 defines them: signed requests (`signing`) sent only where
//! the operator's egress policy allows (`egress`), one attempt at a time (`send`), retried on the
//! specification's schedule (`schedule`), with a circuit breaker per endpoint (`breaker`) and a
//! pace per destination host and account (`host_rate`); the events and their envelope
//! (`events`).

pub mod breaker;
pub mod egress;
pub mod events;
pub mod host_rate;
pub mod resolve;
pub mod schedule;
pub mod send;
pub mod signing;
#[cfg(test)]
pub mod test_receiver;
pub mod url_checks;
