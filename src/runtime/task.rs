//! Spawned tasks tied to what started them: one that ends with its owner (a connection's I/O
//! task, say, that must not outlive the request it serves however that request ends: an answer,
//! an error, a timeout dropping it), and blocking work that logs under its request's span, on
//! tokio's blocking pool or on a fixed set of threads of its own ([`Threads`]).

use std::sync::{Arc, Mutex, mpsc};

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

/// A fixed number of threads for blocking work of one kind. Work that the same number of permits
/// bounds runs here rather than on tokio's blocking pool, whose threads are many (one is added
/// whenever none is idle at the moment work arrives) and taken in no order: the allocator keeps
/// freed memory for the thread that freed it, so megabytes of answers (a correlation matrix)
/// spread over every thread of that pool stayed held by each. Here they stay with these few.
pub struct Threads {
    jobs: mpsc::Sender<Job>,
}

type Job = Box<dyn FnOnce() + Send>;

/// Work on [`Threads`] that panicked; the panic's payload.
pub type Panicked = Box<dyn std::any::Any + Send>;

impl Threads {
    /// `count` threads named `name-0`, `name-1`, ...; they end when the `Threads` is dropped and
    /// the work already sent to them is done. Made inside a tokio runtime, they run inside it
    /// too (as its blocking pool's threads do), so work may spawn tasks and blocking work.
    pub fn new(name: &str, count: usize) -> std::io::Result<Threads> {
        let (jobs, waiting) = mpsc::channel::<Job>();
        let waiting = Arc::new(Mutex::new(waiting));
        let runtime = tokio::runtime::Handle::try_current().ok();
        for i in 0..count.max(1) {
            let waiting = Arc::clone(&waiting);
            let runtime = runtime.clone();
            std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || {
                    let _inside = runtime.as_ref().map(tokio::runtime::Handle::enter);
                    loop {
                        // The lock is held while waiting: the other threads queue behind it.
                        let next = waiting.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match next {
                            Ok(job) => job(),
                            Err(mpsc::RecvError) => return,
                        }
                    }
                })?;
        }
        Ok(Threads { jobs })
    }

    /// Runs `f` on one of the threads, inside the caller's span; its result, or the payload of
    /// its panic (the thread goes on). Dropping the future does not stop the work.
    pub async fn run<F, R>(&self, f: F) -> Result<R, Panicked>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        let span = tracing::Span::current();
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| span.in_scope(f)));
            let _ = done.send(ran);
        });
        self.jobs
            .send(job)
            .expect("the threads end only when this is dropped");
        result
            .await
            .expect("a job always sends its result, even after a panic")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work runs on the pool's own threads, as many at once as it has, a panic comes back as
    /// the caller's error, and the thread that panicked goes on working.
    #[tokio::test]
    async fn threads_run_work_and_survive_its_panics() {
        let threads = Threads::new("test", 2).unwrap();
        let name = threads
            .run(|| std::thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert!(name.is_some_and(|n| n.starts_with("test-")));
        // Inside the runtime it was made in: work can hand more work to it.
        let spawned = threads
            .run(|| tokio::runtime::Handle::current().spawn_blocking(|| 6))
            .await
            .unwrap();
        assert_eq!(spawned.await.unwrap(), 6);
        // Both threads busy at once: each waits for the other to arrive.
        let barrier = Arc::new(std::sync::Barrier::new(2));
        let meet = || {
            let barrier = Arc::clone(&barrier);
            move || barrier.wait().is_leader()
        };
        let both = async { tokio::join!(threads.run(meet()), threads.run(meet())) };
        let (a, b) = tokio::time::timeout(std::time::Duration::from_secs(60), both)
            .await
            .expect("two threads worked at once");
        assert!(a.unwrap() != b.unwrap(), "one of the two leads");
        for _ in 0..3 {
            let panicked = threads.run(|| -> u8 { panic!("on purpose") }).await;
            assert_eq!(
                panicked.unwrap_err().downcast_ref::<&str>(),
                Some(&"on purpose")
            );
        }
        assert_eq!(threads.run(|| 7).await.unwrap(), 7);
    }

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
