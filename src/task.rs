//! A spawned task that ends with its owner: a connection's I/O task, say, that must not outlive
//! the request it serves however that request ends (an answer, an error, a timeout dropping it).

pub struct AbortOnDrop<T>(pub tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
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
