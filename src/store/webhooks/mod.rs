//! Webhook endpoints and the durable outbox. Writes run on a [`System`] connection for the
//! account the caller names; an account reads its own endpoints, deliveries and attempts through
//! the `v_webhook_*` views. Events are enqueued with [`enqueue`] inside the transaction of the
//! change that caused them, so an event exists exactly when its change does.

mod endpoint_state;
mod endpoints;
mod events;
#[cfg(test)]
pub(crate) mod fixtures;
mod outbox;
mod reads;
mod resends;

pub use endpoint_state::{EndpointRow, GONE_REASON, MAX_ENDPOINTS_PER_ACCOUNT};
pub use endpoints::{EndpointPatch, NewEndpoint};
pub use events::{Audience, NewEvent, emit, enqueue};
pub use outbox::{AttemptRecord, Claimed, EndpointChange, NextStep};
pub use reads::{AttemptRow, DeliveryRow, MAX_LOGGED_ATTEMPTS};
pub use resends::{MAX_REPLAY, REPLAY_EVERY_MS, Replay, ReplayOutcome, Resent};
