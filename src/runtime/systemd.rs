//! The systemd service protocol, without libsystemd: readiness, stopping and watchdog pings
//! sent to `$NOTIFY_SOCKET` (<https://www.freedesktop.org/software/systemd/man/latest/sd_notify.html>),
//! and a listening socket passed by socket activation
//! (<https://www.freedesktop.org/software/systemd/man/latest/sd_listen_fds.html>). Outside
//! systemd none of the variables is set and all of this does nothing.

use std::os::fd::FromRawFd;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixDatagram};
use std::time::Duration;

use anyhow::{Context, bail};

/// The first file descriptor systemd passes (`SD_LISTEN_FDS_START`).
const LISTEN_FDS_START: i32 = 3;

/// Where the service manager listens for notifications, if it does.
pub struct Notifier {
    target: Option<(UnixDatagram, SocketAddr)>,
    /// Pings are due at least this often (half of `WatchdogSec`), when the unit has a watchdog.
    watchdog: Option<Duration>,
}

impl Notifier {
    /// From `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`, as systemd sets them.
    pub fn from_env() -> Notifier {
        let watchdog_for_us = std::env::var("WATCHDOG_PID")
            .map_or(true, |pid| pid.trim() == std::process::id().to_string());
        Notifier::new(
            std::env::var_os("NOTIFY_SOCKET"),
            std::env::var("WATCHDOG_USEC")
                .ok()
                .filter(|_| watchdog_for_us),
        )
    }

    pub fn new(socket: Option<std::ffi::OsString>, watchdog_usec: Option<String>) -> Notifier {
        let target = socket.and_then(|path| match connect(&path) {
            Ok(target) => Some(target),
            Err(e) => {
                tracing::warn!(error = %e, "NOTIFY_SOCKET set but not usable; systemd is not told of readiness");
                None
            }
        });
        let watchdog = watchdog_usec
            .and_then(|usec| usec.trim().parse::<u64>().ok())
            .filter(|usec| *usec > 0)
            .map(|usec| Duration::from_micros(usec / 2));
        Notifier { target, watchdog }
    }

    /// Tells systemd the server accepts connections.
    pub fn ready(&self) {
        self.send(&format!("READY=1\nMAINPID={}", std::process::id()));
    }

    /// Tells systemd a shutdown has begun.
    pub fn stopping(&self) {
        self.send("STOPPING=1");
    }

    /// How often the watchdog wants a ping; None without one.
    pub fn watchdog_interval(&self) -> Option<Duration> {
        self.watchdog.filter(|_| self.target.is_some())
    }

    /// Tells systemd the server is alive (the caller has just seen it work).
    pub fn watchdog_ping(&self) {
        if self.watchdog.is_some() {
            self.send("WATCHDOG=1");
        }
    }

    fn send(&self, state: &str) {
        if let Some((socket, addr)) = &self.target
            && let Err(e) = socket.send_to_addr(state.as_bytes(), addr)
        {
            tracing::warn!(error = %e, state, "notifying systemd");
        }
    }
}

/// `NOTIFY_SOCKET` is a path, or with a leading `@` a name in the abstract namespace.
fn connect(path: &std::ffi::OsStr) -> anyhow::Result<(UnixDatagram, SocketAddr)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_bytes();
    let addr = match bytes.strip_prefix(b"@") {
        Some(name) => SocketAddr::from_abstract_name(name)?,
        None => SocketAddr::from_pathname(std::path::Path::new(path))?,
    };
    Ok((UnixDatagram::unbound()?, addr))
}

/// The listening socket systemd passed (`LISTEN_PID` is this process, `LISTEN_FDS` is 1), or
/// None when the service was not socket-activated.
pub fn activated_listener() -> anyhow::Result<Option<std::net::TcpListener>> {
    let for_us =
        std::env::var("LISTEN_PID").is_ok_and(|pid| pid.trim() == std::process::id().to_string());
    if !for_us {
        return Ok(None);
    }
    let count: i32 = std::env::var("LISTEN_FDS")
        .context("LISTEN_PID without LISTEN_FDS")?
        .trim()
        .parse()
        .context("LISTEN_FDS is not a number")?;
    if count != 1 {
        bail!(
            "socket activation passed {count} sockets; regintel-listener.socket must listen on exactly one"
        );
    }
    // SAFETY: systemd passed this descriptor to this process (LISTEN_PID) for it to own, and
    // nothing else in the process uses it.
    let listener = unsafe { std::net::TcpListener::from_raw_fd(LISTEN_FDS_START) };
    listener
        .local_addr()
        .context("the socket systemd passed is not a TCP listening socket")?;
    listener.set_nonblocking(true)?;
    Ok(Some(listener))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readiness_stopping_and_pings_reach_the_socket() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notify");
        let systemd = UnixDatagram::bind(&path).unwrap();
        let notifier = Notifier::new(Some(path.into_os_string()), Some("30000000".into()));
        assert_eq!(notifier.watchdog_interval(), Some(Duration::from_secs(15)));
        notifier.ready();
        notifier.watchdog_ping();
        notifier.stopping();
        let mut buf = [0u8; 256];
        let mut received = Vec::new();
        for _ in 0..3 {
            let n = systemd.recv(&mut buf).unwrap();
            received.push(String::from_utf8_lossy(&buf[..n]).into_owned());
        }
        assert_eq!(
            received,
            [
                format!("READY=1\nMAINPID={}", std::process::id()),
                "WATCHDOG=1".to_owned(),
                "STOPPING=1".to_owned()
            ]
        );
    }

    #[test]
    fn without_systemd_nothing_is_sent_and_no_watchdog_is_kept() {
        let notifier = Notifier::new(None, Some("30000000".into()));
        assert_eq!(notifier.watchdog_interval(), None);
        notifier.ready();
        let no_watchdog = Notifier::new(None, None);
        assert_eq!(no_watchdog.watchdog_interval(), None);
    }
}
