//! A child process run to its end, with its peak resident memory: `wait4` reports it for that
//! child alone once it has exited (a sample of `/proc` while it runs could miss the peak).
//! Shared by the tests and the load bench.

use std::fs::File;
use std::io::{Read, Seek};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub peak_rss_bytes: u64,
}

/// Runs `cmd` within `timeout` (killed past it, and an error).
pub fn run_measured(cmd: &mut Command, timeout: Duration) -> std::io::Result<Finished> {
    use std::os::unix::process::ExitStatusExt;
    let (mut stdout, mut stderr) = (tempfile::tempfile()?, tempfile::tempfile()?);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(stdout.try_clone()?)
        .stderr(stderr.try_clone()?)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let deadline = Instant::now() + timeout;
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    loop {
        // SAFETY: `pid` is this process's child, not yet reaped; both pointers are valid.
        match unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) } {
            0 if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            0 => {
                child.kill()?;
                child.wait()?;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("{cmd:?} took longer than {timeout:?}"),
                ));
            }
            n if n == pid => break,
            _ => return Err(std::io::Error::last_os_error()),
        }
    }
    let read = |file: &mut File| -> std::io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        file.rewind()?;
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    Ok(Finished {
        status: ExitStatus::from_raw(status),
        stdout: read(&mut stdout)?,
        stderr: read(&mut stderr)?,
        // In KiB on Linux.
        peak_rss_bytes: usage.ru_maxrss as u64 * 1024,
    })
}
