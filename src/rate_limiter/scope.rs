//! What a rate-limit bucket counts for, and the names of the scopes whose day counters are
//! persisted in `usage_daily`: the one place that writes and reads those names.

/// What a bucket counts for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// An anonymous client: IPv4 address, or IPv6 /64 network.
    Ip(u128),
    /// An API key (by key id); shared, since one request names it in several policies.
    Key(std::sync::Arc<str>),
    /// Every browser session of an account: a new login must not bring fresh buckets.
    Sessions(i64),
    Account(i64),
    /// Failed authentication from a client address.
    AuthFail(u128),
    /// Successful logins of an account.
    Logins(i64),
    /// API keys created by an account.
    KeyCreations(i64),
}

impl Scope {
    /// The `usage_daily.scope` of a persisted day counter (`key:<key id>`, `acct:<account id>`);
    /// None for in-memory-only scopes. The `v_usage_daily` view in `schema.sql` selects an
    /// account's rows by this name.
    pub fn persisted_name(&self) -> Option<String> {
        match self {
            Scope::Key(k) => Some(format!("{KEY}{k}")),
            Scope::Account(id) => Some(format!("{ACCOUNT}{id}")),
            _ => None,
        }
    }

    /// Whether the day counter of this scope is kept in `usage_daily`.
    pub fn is_persisted(&self) -> bool {
        matches!(self, Scope::Key(_) | Scope::Account(_))
    }

    /// The scope of a `usage_daily.scope` name; None for a name this version does not write.
    pub fn from_persisted_name(name: &str) -> Option<Scope> {
        if let Some(key_id) = name.strip_prefix(KEY) {
            return Some(Scope::Key(key_id.into()));
        }
        name.strip_prefix(ACCOUNT)?.parse().ok().map(Scope::Account)
    }
}

const KEY: &str = "key:";
const ACCOUNT: &str = "acct:";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persisted_names_read_back_as_their_scopes() {
        for scope in [Scope::Key("Ab3dE5gH".into()), Scope::Account(42)] {
            let name = scope.persisted_name().unwrap();
            assert_eq!(Scope::from_persisted_name(&name), Some(scope));
        }
        assert_eq!(Scope::Account(42).persisted_name().unwrap(), "acct:42");
        assert_eq!(Scope::Sessions(42).persisted_name(), None);
        for scope in [
            Scope::Key("k".into()),
            Scope::Account(1),
            Scope::Sessions(1),
            Scope::Ip(1),
        ] {
            assert_eq!(scope.is_persisted(), scope.persisted_name().is_some());
        }
        for unknown in ["acct:x", "ip:1", "acct", ""] {
            assert_eq!(Scope::from_persisted_name(unknown), None, "{unknown}");
        }
    }
}
