//! Waits with deadlines: subprocesses run to their end or are killed (with every process they
//! started) and fail the test naming what they were doing, and polls for observable state that
//! fail naming what they waited for. Nothing here depends on nextest to end a hang, and no
//! deadline is a measure of speed: each is many times what the wait takes on a slow machine.

use std::future::Future;
use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// What a subprocess of a test (a Python script, pip, mypy, a browser, the binary itself) may
/// take before it counts as hung: below nextest's five minutes, so that a test whose subprocess
/// hangs fails with its own message (a later one may meet nextest's first, which ends the test
/// and, in its process group, the subprocess too).
pub const SUBPROCESS: Duration = Duration::from_secs(240);

/// How often a wait looks at the state it waits for.
const POLL: Duration = Duration::from_millis(50);

/// Runs `cmd` with nothing on its stdin to its end, for at most [`SUBPROCESS`]; its output.
pub fn output(cmd: &mut Command, what: &str) -> Output {
    output_within(cmd, None, what, SUBPROCESS)
}

/// [`output`] with `input` written to its stdin (then closed).
pub fn output_with_input(cmd: &mut Command, input: &[u8], what: &str) -> Output {
    output_within(cmd, Some(input), what, SUBPROCESS)
}

/// Runs `cmd` to its end, for at most `limit`: its output. Past the limit it is killed with
/// every process it started (a Python script's browser too) and the test fails naming `what`
/// and showing what it had written. Called on a test's async runtime, the
/// wait moves the runtime's other tasks (a test server) to another thread first
/// (`block_in_place`); a runtime with one thread has none to move them to, and is refused.
pub fn output_within(
    cmd: &mut Command,
    input: Option<&[u8]>,
    what: &str,
    limit: Duration,
) -> Output {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => {
            tokio::task::block_in_place(|| run_to_end(cmd, input, what, limit))
        }
        Ok(_) => panic!(
            "{what}: a subprocess would block the test's only runtime thread (make the test \
             `flavor = \"multi_thread\"`, or run it with `output_aside`)"
        ),
        Err(_) => run_to_end(cmd, input, what, limit),
    }
}

fn run_to_end(cmd: &mut Command, input: Option<&[u8]>, what: &str, limit: Duration) -> Output {
    // In the test's process group, so that nextest, ending a test, ends what it started too.
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: could not start {cmd:?}: {e}"));
    let stdin = child.stdin.take();
    let input = input.map(<[u8]>::to_vec);
    // Written on a thread of its own: a child that does not read would otherwise block the wait.
    std::thread::spawn(move || {
        if let (Some(mut stdin), Some(input)) = (stdin, input) {
            let _ = stdin.write_all(&input);
        }
    });
    let (read, reads) = std::sync::mpsc::channel();
    for (stream, pipe) in [
        (
            0,
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
        (
            1,
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
    ] {
        let read = read.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            let _ = read.send((stream, bytes));
        });
    }
    // What it wrote, once both pipes have ended, waiting at most until `by`: a process it left
    // behind may hold them open.
    let written = |by: Instant| {
        let mut out = [Vec::new(), Vec::new()];
        let mut ended = 0;
        while ended < 2 {
            match reads.recv_timeout(by.saturating_duration_since(Instant::now())) {
                Ok((stream, bytes)) => {
                    out[stream] = bytes;
                    ended += 1;
                }
                Err(_) => break,
            }
        }
        (out, ended == 2)
    };
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for a subprocess") {
            break status;
        }
        if Instant::now() >= deadline {
            kill_tree(child.id());
            let _ = child.wait();
            let ([stdout, stderr], _) = written(Instant::now() + Duration::from_secs(10));
            panic!(
                "{what}: still running after {limit:?}, killed\n--- stdout\n{}\n--- stderr\n{}",
                String::from_utf8_lossy(&stdout),
                String::from_utf8_lossy(&stderr)
            );
        }
        std::thread::sleep(POLL);
    };
    let ([stdout, stderr], whole) = written(Instant::now() + Duration::from_secs(60));
    assert!(
        whole,
        "{what}: ended ({status}), but a process it left behind still holds its output\n\
         --- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    Output {
        status,
        stdout,
        stderr,
    }
}

/// SIGKILL to `root` and every process below it (a Python script's browser too), found by
/// their parents in /proc; twice, for what was started while the first round was killing.
fn kill_tree(root: u32) {
    for _ in 0..2 {
        let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                // `pid (name) state ppid ...`: the name may hold spaces and parentheses.
                let ppid = stat
                    .rsplit_once(')')?
                    .1
                    .split_whitespace()
                    .nth(1)?
                    .parse()
                    .ok()?;
                Some((pid, ppid))
            })
            .collect();
        let mut tree = vec![root];
        let mut at = 0;
        while at < tree.len() {
            let parent = tree[at];
            tree.extend(
                parents
                    .iter()
                    .filter(|(_, p)| *p == parent)
                    .map(|(pid, _)| *pid),
            );
            at += 1;
        }
        for pid in tree {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: kill(2) takes plain integers; a process that is gone answers ESRCH.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// `Command::output` bounded: [`output`], the failure naming the command.
pub trait Bounded {
    fn bounded_output(&mut self) -> Output;
}

impl Bounded for Command {
    fn bounded_output(&mut self) -> Output {
        let what = format!("{self:?}");
        output(self, &what)
    }
}

/// Waits for `child` (started by the test) to end, for at most [`SUBPROCESS`]; past it the test
/// fails naming `what` (the child is killed when the test's guard drops it).
pub fn wait(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    until_blocking(what, SUBPROCESS, || {
        child
            .try_wait()
            .expect("waiting for a subprocess")
            .ok_or_else(|| "still running".to_owned())
    })
}

/// [`output`] on a blocking thread, for a test on an async runtime (the subprocess may talk to a
/// server that runs on it).
pub async fn output_aside(mut cmd: Command, what: &str) -> Output {
    let what = what.to_owned();
    tokio::task::spawn_blocking(move || run_to_end(&mut cmd, None, &what, SUBPROCESS))
        .await
        .unwrap()
}

/// Polls `check` until it yields a value, for at most `limit`; that value. Past the limit the
/// test fails naming `what`, with the last state `check` described (its `Err`).
pub async fn until<T, F, Fut>(what: &str, limit: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, String>>,
{
    let deadline = Instant::now() + limit;
    loop {
        match check().await {
            Ok(value) => return value,
            Err(last) if Instant::now() >= deadline => {
                panic!("waited {limit:?} for {what}; last seen: {last}")
            }
            Err(_) => tokio::time::sleep(POLL).await,
        }
    }
}

/// [`until`] on a blocking thread: polls `check` until it yields a value, for at most `limit`.
pub fn until_blocking<T>(
    what: &str,
    limit: Duration,
    mut check: impl FnMut() -> Result<T, String>,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        match check() {
            Ok(value) => return value,
            Err(last) if Instant::now() >= deadline => {
                panic!("waited {limit:?} for {what}; last seen: {last}")
            }
            Err(_) => std::thread::sleep(POLL),
        }
    }
}

/// Awaits `future` for at most `limit`, failing the test naming `what` past it: a notification, a
/// channel, a task that should end.
pub async fn within<T>(what: &str, limit: Duration, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(limit, future)
        .await
        .unwrap_or_else(|_| panic!("waited {limit:?} for {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subprocess that does not end is killed with what it started, and the failure names it.
    #[test]
    fn a_hung_subprocess_is_killed_with_its_children_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("grandchild");
        let script = format!(
            "sleep 600 & echo $! > {}; echo started; wait",
            pid_file.display()
        );
        let failed = std::panic::catch_unwind(|| {
            output_within(
                Command::new("sh").args(["-c", &script]),
                None,
                "a script that never ends",
                Duration::from_secs(10),
            )
        })
        .expect_err("the wait fails");
        let message = failed.downcast_ref::<String>().unwrap();
        assert!(message.starts_with("a script that never ends: still running after 10s"));
        assert!(message.contains("started"), "{message}");
        let grandchild: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // The grandchild was killed with it.
        until_blocking("the grandchild's end", Duration::from_secs(60), || {
            match std::fs::read_to_string(format!("/proc/{grandchild}/stat")) {
                // A zombie has ended (whoever inherited it may not reap it soon).
                Ok(stat) if !stat.contains(") Z ") => Err(format!("{grandchild}: {stat}")),
                _ => Ok(()),
            }
        });
    }

    #[test]
    fn input_reaches_the_subprocess_and_its_output_comes_back() {
        let out = output_with_input(Command::new("cat").arg("-"), b"rows\n", "cat");
        assert!(out.status.success());
        assert_eq!(out.stdout, b"rows\n");
    }
}
