//! For tests: whether a server has taken the connections waiting for it, as the kernel says.

/// Connections on the listening socket at 127.0.0.1:`port` that the kernel has accepted and the
/// server has not taken yet: the accept queue (`rx_queue` of a listening socket in
/// /proc/net/tcp, see proc(5)).
pub fn accept_queue(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let listening = format!("0100007F:{port:04X}");
    table
        .lines()
        .skip(1)
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() > 4 && f[1] == listening && f[3] == "0A")
        .and_then(|f| usize::from_str_radix(f[4].split(':').nth(1)?, 16).ok())
        .unwrap_or_else(|| panic!("no listening socket at port {port}"))
}
