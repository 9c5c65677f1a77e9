//! Pooled PostgreSQL connections: request connections log in as the request role (see
//! [`super::roles`]), lookup and system connections as the database's owner.

use std::time::Duration;

use super::conn::PgConn;

pub struct PgManager {
    pub config: postgres::Config,
}

impl PgManager {
    pub fn new(config: postgres::Config, wait: Duration) -> PgManager {
        PgManager {
            config: bounded(config, wait),
        }
    }
}

/// `config`, giving up on a connection attempt (an unreachable server) after `wait`, and
/// noticing a silent network after about as long, when idle (keepalives) or while sending
/// (unacknowledged data: TCP alone would retransmit for many minutes).
pub fn bounded(mut config: postgres::Config, wait: Duration) -> postgres::Config {
    config
        .application_name("regintel")
        .connect_timeout(wait)
        .keepalives(true)
        .keepalives_idle(wait.max(Duration::from_secs(1)))
        .keepalives_interval(Duration::from_secs(1))
        .keepalives_retries(3)
        .tcp_user_timeout(UNACKNOWLEDGED);
    config
}

/// How long sent data may go unacknowledged before the connection counts as broken.
const UNACKNOWLEDGED: Duration = Duration::from_secs(30);

impl r2d2::ManageConnection for PgManager {
    type Connection = PgConn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<PgConn, postgres::Error> {
        let client =
            crate::store::postgres::conn::blocking(|| self.config.connect(postgres::NoTls))?;
        Ok(PgConn::new(client))
    }

    fn is_valid(&self, conn: &mut PgConn) -> Result<(), postgres::Error> {
        conn.check()
    }

    /// A connection closed by the server or the network, or given back inside a transaction
    /// (which every guard of the store ends, so that is a defect), is not handed out again.
    fn has_broken(&self, conn: &mut PgConn) -> bool {
        conn.is_closed() || conn.in_transaction()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connection regintel opens, pooled or for a migration or a check, gives up on an
    /// unreachable server and notices a silent network.
    #[test]
    fn connections_are_bounded_in_time() {
        let wait = Duration::from_secs(5);
        let config = bounded(
            crate::store::postgres::config("postgres://u@h/d").unwrap(),
            wait,
        );
        assert_eq!(config.get_connect_timeout(), Some(&wait));
        assert!(config.get_keepalives());
        assert_eq!(config.get_keepalives_idle(), wait);
        assert_eq!(config.get_keepalives_retries(), Some(3));
        assert_eq!(config.get_tcp_user_timeout(), Some(&UNACKNOWLEDGED));
    }
}
