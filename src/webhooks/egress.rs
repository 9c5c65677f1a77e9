//! Where webhooks may be sent (OWASP API7:2023, server-side request forgery): public addresses
//! only, unless the operator allows internal ranges or hosts; loopback only with its own flag.
//! A URL is checked when it is registered and again at every send, against every address its
//! host resolves to, and the sender connects to an address it checked (no second lookup that a
//! rebinding DNS server could answer differently).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::client_addr::Cidr;

/// Longest webhook URL accepted.
pub const MAX_URL_LEN: usize = 2048;

const fn v4(a: u8, b: u8, c: u8, d: u8, prefix: u8) -> Cidr {
    Cidr::new(IpAddr::V4(Ipv4Addr::new(a, b, c, d)), prefix)
}

const fn v6(segments: [u16; 8], prefix: u8) -> Cidr {
    let [a, b, c, d, e, f, g, h] = segments;
    Cidr::new(IpAddr::V6(Ipv6Addr::new(a, b, c, d, e, f, g, h)), prefix)
}

/// Loopback, which only `--webhook-allow-loopback` opens.
const LOOPBACK: &[Cidr] = &[v4(127, 0, 0, 0, 8), v6([0, 0, 0, 0, 0, 0, 0, 1], 128)];

/// IANA special-purpose ranges that are not the public internet: refused unless the operator
/// allows a range that covers the address.
const SPECIAL: &[Cidr] = &[
    v4(0, 0, 0, 0, 8),
    v4(10, 0, 0, 0, 8),
    v4(100, 64, 0, 0, 10),
    v4(169, 254, 0, 0, 16),
    v4(172, 16, 0, 0, 12),
    v4(192, 0, 0, 0, 24),
    v4(192, 0, 2, 0, 24),
    v4(192, 168, 0, 0, 16),
    v4(198, 18, 0, 0, 15),
    v4(198, 51, 100, 0, 24),
    v4(203, 0, 113, 0, 24),
    v4(224, 0, 0, 0, 4),
    v4(240, 0, 0, 0, 4),
    v6([0, 0, 0, 0, 0, 0, 0, 0], 128),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),
];

/// Never reached, whatever the operator allows: "this host" (0.0.0.0 and :: connect to the
/// local machine on Linux), link-local (cloud metadata at 169.254.169.254) and multicast.
const NEVER: &[Cidr] = &[
    v4(0, 0, 0, 0, 8),
    v4(169, 254, 0, 0, 16),
    v4(224, 0, 0, 0, 4),
    v6([0, 0, 0, 0, 0, 0, 0, 0], 128),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),
];

/// Global unicast IPv6 (RFC 4291): everything outside it is special-purpose.
const GLOBAL_V6: Cidr = v6([0x2000, 0, 0, 0, 0, 0, 0, 0], 3);

/// Special-purpose ranges inside global unicast IPv6: IETF protocol assignments (Teredo among
/// them), 6to4 (which embeds an IPv4 address) and the documentation prefixes.
const SPECIAL_GLOBAL_V6: &[Cidr] = &[
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20),
];

/// Whether `ip` (canonical) is outside the public internet.
fn special(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(_) => SPECIAL.iter().any(|c| c.contains(ip)),
        IpAddr::V6(_) => {
            !GLOBAL_V6.contains(ip)
                || SPECIAL
                    .iter()
                    .chain(SPECIAL_GLOBAL_V6)
                    .any(|c| c.contains(ip))
        }
    }
}

/// NAT64's well-known prefix (RFC 6052): the address inside is the one reached.
const NAT64: Cidr = v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96);

/// An IPv6 form of an IPv4 address (mapped, or NAT64) as that IPv4 address, so each range is
/// checked once whatever the form.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                IpAddr::V4(v4)
            } else if NAT64.contains(ip) {
                let [.., a, b, c, d] = v6.octets();
                IpAddr::V4(Ipv4Addr::new(a, b, c, d))
            } else {
                ip
            }
        }
        v4 => v4,
    }
}

/// The operator's egress policy for webhooks.
#[derive(Debug, Clone, Default)]
pub struct EgressPolicy {
    /// Internal ranges allowed in addition to public addresses.
    pub allow_cidrs: Vec<Cidr>,
    /// Host names (exact, any case) that may be reached over plain HTTP; their addresses are
    /// still checked.
    pub allow_hosts: Vec<String>,
    /// Ranges always refused, even when an allowed range covers them.
    pub deny_cidrs: Vec<Cidr>,
    /// Loopback allowed (for tests and the local demo).
    pub allow_loopback: bool,
    /// How host names are resolved: the system's resolver, or a test's.
    pub resolver: super::resolve::Resolver,
}

/// A webhook URL, checked for form (not yet for where it leads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl {
    pub https: bool,
    /// Lowercase; an IPv6 literal without its brackets.
    pub host: String,
    pub port: u16,
    /// Path and query, at least `/`.
    pub path: String,
}

impl WebhookUrl {
    /// The receiver a URL names, in one form whatever way it was written: scheme, host without a
    /// trailing dot, port, and path without its query or a trailing `/` (a query is data for
    /// the receiver, not another receiver). What the service remembers of a destination.
    pub fn key(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        let host = self.host.trim_end_matches('.');
        let path = self.path.split('?').next().unwrap_or("/");
        let path = match path.trim_end_matches('/') {
            "" => "/",
            trimmed => trimmed,
        };
        if host.contains(':') {
            format!("{scheme}://[{host}]:{}{path}", self.port)
        } else {
            format!("{scheme}://{host}:{}{path}", self.port)
        }
    }

    /// Parses an absolute `https://` (or `http://`) URL. Refused: other schemes, user names or
    /// passwords, fragments, and numeric hosts in any form but dotted-quad IPv4 or bracketed
    /// IPv6 (`0x7f.1`, `2130706433` and `127.1` reach loopback on many resolvers).
    pub fn parse(url: &str) -> Result<WebhookUrl, String> {
        if url.len() > MAX_URL_LEN {
            return Err(format!(
                "a webhook URL has at most {MAX_URL_LEN} characters"
            ));
        }
        let uri: http::Uri = url
            .parse()
            .map_err(|_| "the webhook URL is not an absolute http(s) URL".to_owned())?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err("a webhook URL starts with https://".into()),
        };
        let authority = uri
            .authority()
            .ok_or_else(|| "the webhook URL has no host".to_owned())?;
        if authority.as_str().contains('@') {
            return Err("a webhook URL may not carry a user name or password".into());
        }
        if url.contains('#') {
            return Err("a webhook URL may not have a fragment".into());
        }
        let host = authority.host().to_ascii_lowercase();
        let host = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(v6) => {
                v6.parse::<Ipv6Addr>()
                    .map_err(|_| "the webhook URL's IPv6 address is not valid".to_owned())?;
                v6.to_owned()
            }
            None => {
                let last = host.trim_end_matches('.').rsplit('.').next().unwrap_or("");
                let numeric = last.bytes().all(|b| b.is_ascii_digit()) || last.starts_with("0x");
                if host.is_empty() || (numeric && host.parse::<Ipv4Addr>().is_err()) {
                    return Err("the webhook URL's host is not a name or a plain address".into());
                }
                host
            }
        };
        // The text after the host's last `:` (past an IPv6 literal's `]`): `Authority::port`
        // reads an unparsable port as none, which would send to the default port.
        let after_host = authority
            .as_str()
            .rsplit_once(']')
            .map_or(authority.as_str(), |(_, rest)| rest);
        let port = match after_host.rsplit_once(':') {
            None if https => 443,
            None => 80,
            Some((_, port)) => match port.parse::<u16>() {
                Ok(port) if port > 0 => port,
                _ => return Err("the webhook URL's port is not valid".into()),
            },
        };
        // `https://h.example?x=1` has an empty path: the request's target is `/?x=1`.
        let path = match (uri.path(), uri.query()) {
            ("", None) => "/".to_owned(),
            ("", Some(query)) => format!("/?{query}"),
            (path, None) => path.to_owned(),
            (path, Some(query)) => format!("{path}?{query}"),
        };
        Ok(WebhookUrl {
            https,
            port,
            host,
            path,
        })
    }

    /// The host as an address, when the URL names one.
    pub fn literal(&self) -> Option<IpAddr> {
        self.host.parse().ok()
    }
}

impl EgressPolicy {
    /// Whether `url`, whose host resolved to `addrs`, may be sent to: every address must pass
    /// (an attacker's name may resolve to one public and one internal address), and plain HTTP
    /// only reaches an allowed host, an allowed internal range or loopback.
    pub fn check(&self, url: &WebhookUrl, addrs: &[IpAddr]) -> Result<(), String> {
        if addrs.is_empty() {
            return Err(format!("{} has no address", url.host));
        }
        let host_allowed = self
            .allow_hosts
            .iter()
            .any(|h| h.eq_ignore_ascii_case(&url.host));
        let mut all_internal_allowed = true;
        for &resolved in addrs {
            let ip = canonical(resolved);
            if NEVER.iter().any(|c| c.contains(ip)) {
                return Err(format!("{ip} is never a webhook receiver"));
            }
            // In either form: an IPv6 deny (say of the NAT64 prefix) holds too.
            if self
                .deny_cidrs
                .iter()
                .any(|c| c.contains(ip) || c.contains(resolved))
            {
                return Err(format!("{ip} is in a range the operator refuses"));
            }
            if LOOPBACK.iter().any(|c| c.contains(ip)) {
                if !self.allow_loopback {
                    return Err(format!("{ip} is a loopback address"));
                }
                continue;
            }
            let allowed = self.allow_cidrs.iter().any(|c| c.contains(ip));
            if special(ip) && !allowed {
                return Err(format!("{ip} is not a public address"));
            }
            all_internal_allowed &= allowed;
        }
        if !url.https && !host_allowed && !all_internal_allowed {
            return Err("a webhook URL to a public address uses https://".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> WebhookUrl {
        WebhookUrl::parse(s).unwrap()
    }

    fn ips(list: &[&str]) -> Vec<IpAddr> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    /// A destination is remembered in one form, however its URL was written.
    #[test]
    fn a_url_has_one_key_however_written() {
        let key = |url: &str| WebhookUrl::parse(url).unwrap().key();
        assert_eq!(
            key("https://Hooks.Example.org./in?"),
            "https://hooks.example.org:443/in"
        );
        assert_eq!(
            key("https://hooks.example.org:443/in"),
            "https://hooks.example.org:443/in"
        );
        assert_ne!(
            key("http://hooks.example.org/in"),
            key("https://hooks.example.org/in")
        );
        assert_eq!(
            key("https://hooks.example.org/in/?a=1"),
            key("https://hooks.example.org/in")
        );
        assert_eq!(
            key("https://hooks.example.org"),
            "https://hooks.example.org:443/"
        );
        assert_ne!(
            key("https://hooks.example.org/in"),
            key("https://hooks.example.org/out")
        );
        assert_eq!(
            key("https://[2001:db8::1]/h"),
            "https://[2001:db8::1]:443/h"
        );
    }

    #[test]
    fn urls_are_parsed_strictly() {
        assert_eq!(
            url("https://Hooks.Example.org/in?x=1"),
            WebhookUrl {
                https: true,
                host: "hooks.example.org".into(),
                port: 443,
                path: "/in?x=1".into()
            }
        );
        assert_eq!(url("http://[::1]:8080").host, "::1");
        assert_eq!(url("http://[::1]:8080").path, "/");
        assert_eq!(url("https://h.example?x=1").path, "/?x=1");
        assert_eq!(url("https://h.example:8443").port, 8443);
        assert_eq!(
            url("https://192.0.2.1:8443/x").literal(),
            Some("192.0.2.1".parse().unwrap())
        );
        for bad in [
            "ftp://example.org/",
            "example.org/hook",
            "/hook",
            "https://user:pw@example.org/",
            "https://example.org/#frag",
            "https://2130706433/",
            "https://0x7f.1/",
            "https://127.1/",
            "https://017700000001/",
            "https://[::1/",
            "javascript:alert(1)",
            "https://example.org:0/",
            "https://example.org:abc/",
            "https://example.org:99999/",
        ] {
            assert!(WebhookUrl::parse(bad).is_err(), "{bad} accepted");
        }
        let long = format!("https://example.org/{}", "a".repeat(MAX_URL_LEN));
        assert!(WebhookUrl::parse(&long).is_err());
    }

    #[test]
    fn only_public_addresses_by_default() {
        let policy = EgressPolicy::default();
        let hook = url("https://hooks.example.org/");
        policy
            .check(
                &hook,
                &ips(&["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]),
            )
            .unwrap();
        for internal in [
            "127.0.0.1",
            "::1",
            "10.1.2.3",
            "172.20.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::",
            "fd00::1",
            "fe80::1",
            "224.0.0.1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::a00:1",
            "::a00:1",
            "2002:a00:1::1",
            "2001:0:4136:e378::1",
            "fec0::1",
            "3fff::1",
        ] {
            assert!(
                policy.check(&hook, &ips(&[internal])).is_err(),
                "{internal} allowed"
            );
            // One internal address among public ones is enough to refuse (DNS rebinding).
            assert!(
                policy
                    .check(&hook, &ips(&["93.184.215.14", internal]))
                    .is_err()
            );
        }
        assert!(policy.check(&hook, &[]).is_err());
        // Plain HTTP to the public internet is refused.
        assert!(
            policy
                .check(&url("http://hooks.example.org/"), &ips(&["93.184.215.14"]))
                .is_err()
        );
    }

    #[test]
    fn the_operator_opens_ranges_hosts_and_loopback_and_deny_wins() {
        let policy = EgressPolicy {
            allow_cidrs: vec!["10.20.0.0/16".parse().unwrap()],
            allow_hosts: vec!["hooks.intra.example".into()],
            deny_cidrs: vec!["10.20.5.0/24".parse().unwrap()],
            allow_loopback: true,
            ..EgressPolicy::default()
        };
        let internal = url("http://receiver.intra/");
        policy.check(&internal, &ips(&["10.20.1.1"])).unwrap();
        assert!(
            policy.check(&internal, &ips(&["10.20.5.1"])).is_err(),
            "deny wins"
        );
        assert!(policy.check(&internal, &ips(&["10.21.0.1"])).is_err());
        policy
            .check(&url("http://127.0.0.1:9000/"), &ips(&["127.0.0.1"]))
            .unwrap();
        policy
            .check(&url("http://[::1]:9000/"), &ips(&["::1"]))
            .unwrap();
        // An allowed host may use plain HTTP; its addresses are still checked.
        let named = url("http://hooks.intra.example/");
        policy.check(&named, &ips(&["93.184.215.14"])).unwrap();
        assert!(policy.check(&named, &ips(&["192.168.0.1"])).is_err());

        // Some addresses stay closed whatever is allowed.
        let everything = EgressPolicy {
            allow_cidrs: vec!["0.0.0.0/0".parse().unwrap(), "::/0".parse().unwrap()],
            deny_cidrs: vec!["64:ff9b::/96".parse().unwrap()],
            ..EgressPolicy::default()
        };
        for never in [
            "0.0.0.0",
            "::",
            "169.254.169.254",
            "fe80::1",
            "224.0.0.1",
            "ff02::1",
        ] {
            assert!(
                everything.check(&internal, &ips(&[never])).is_err(),
                "{never}"
            );
        }
        everything.check(&internal, &ips(&["10.1.1.1"])).unwrap();
        // A deny written in the IPv6 form holds for the address inside it.
        assert!(
            everything
                .check(&internal, &ips(&["64:ff9b::a01:101"]))
                .is_err()
        );

        let strict = EgressPolicy::default();
        assert!(
            strict
                .check(&url("http://127.0.0.1:9000/"), &ips(&["127.0.0.1"]))
                .is_err()
        );
    }

    #[test]
    fn the_tables_match_what_they_name() {
        assert!(NAT64.contains("64:ff9b::a9fe:a9fe".parse().unwrap()));
        assert!(!NAT64.contains("64:ff9c::1".parse().unwrap()));
        let metadata: IpAddr = "169.254.169.254".parse().unwrap();
        assert!(SPECIAL.iter().any(|c| c.contains(metadata)));
        let public: IpAddr = "93.184.215.14".parse().unwrap();
        assert!(!SPECIAL.iter().chain(LOOPBACK).any(|c| c.contains(public)));
    }
}
