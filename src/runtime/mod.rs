//! The process and its resources, below everything that knows about regions or HTTP: time
//! (`clock`), tasks that end with their owner (`task`), bounded work slots (`slots`), lower CPU
//! priority for background threads (`priority`), owner-only files (`private_files`), the systemd
//! notification protocol (`systemd`), an import's progress on a terminal (`progress`), and for
//! tests, log lines captured (`test_logs`) and a listening socket's accept queue
//! (`accept_queue`). None uses another module of the crate.

#[cfg(any(test, feature = "testing"))]
pub mod accept_queue;
pub mod clock;
pub mod priority;
pub mod private_files;
pub mod progress;
pub mod slots;
pub mod systemd;
pub mod task;
#[cfg(test)]
pub mod test_logs;
