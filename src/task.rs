//! Spawned tasks tied to what started them: one that ends with its owner (a connection's I/O
//! task, say, that must not outlive the request it serves however that request ends: an answer,
//! an error, a timeout dropping it), and blocking work that logs under its request's span.

pub struct AbortOnDrop<T>(pub tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// [`tokio::task::spawn_blocking`] inside the caller's span: every line the work logs carries
/// the request id of the request that started it, on whatever thread it runs.
pub fn spawn_blocking_in_span<F, R>(f: F) -> tokio::task::JoinHandle<R>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn dropping_the_guard_ends_the_task() {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let guard = AbortOnDrop(tokio::spawn(async move {
            std::future::pending::<()>().await;
            drop(tx);
        }));
        drop(guard);
        // The task was aborted: its sender is dropped without sending. (A task left running
        // would keep it, and the wait would time out.)
        let ended = tokio::time::timeout(std::time::Duration::from_secs(60), rx).await;
        assert!(matches!(ended, Ok(Err(_))), "the task still runs");
    }
}
