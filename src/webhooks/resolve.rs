//! Host names to addresses, for webhooks: the system's resolver, or one a test stands in (one
//! that never answers, to show what a hanging resolver holds).

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

/// A lookup in progress: the host's addresses, or why there are none.
pub type Lookup = Pin<Box<dyn Future<Output = Result<Vec<SocketAddr>, String>> + Send>>;

type Resolve = dyn Fn(&str, u16) -> Lookup + Send + Sync;

/// The system's resolver (`getaddrinfo`, on tokio's blocking threads), unless one is given.
#[derive(Clone, Default)]
pub struct Resolver(Option<Arc<Resolve>>);

impl Resolver {
    /// A resolver that answers with `resolve` instead of the system's.
    pub fn given(resolve: impl Fn(&str, u16) -> Lookup + Send + Sync + 'static) -> Resolver {
        Resolver(Some(Arc::new(resolve)))
    }

    /// The addresses of `host` for `port`; none is an error.
    pub fn lookup(&self, host: &str, port: u16) -> Lookup {
        if let Some(resolve) = &self.0 {
            return resolve(host, port);
        }
        let host = host.to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
                .await
                .map_err(|e| format!("cannot resolve {host}: {e}"))?
                .collect();
            if addrs.is_empty() {
                return Err(format!("{host} has no address"));
            }
            Ok(addrs)
        })
    }
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            None => "Resolver(system)",
            Some(_) => "Resolver(given)",
        })
    }
}
