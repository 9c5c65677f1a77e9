//! Webhooks as Standard Webhooks 1.0 defines them: signed requests (`signing`) sent only where
//! the operator's egress policy allows (`egress`).

pub mod egress;
pub mod signing;
