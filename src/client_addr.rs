//! Who a request comes from: the address rate limits and connection shares count by (IPv6
//! grouped by /64), taken from a trusted proxy's forwarding header only when the peer is one.

use std::net::IpAddr;

/// The address as a number and its width in bits (32 for IPv4, IPv4-mapped IPv6 included).
fn bits(ip: IpAddr) -> (u128, u32) {
    match ip {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => (u128::from(u32::from(v4)), 32),
            None => (u128::from(v6), 128),
        },
    }
}

/// IPv4 addresses as they are; IPv6 grouped by /64, since one host usually owns a whole /64.
pub fn client_key(ip: IpAddr) -> u128 {
    match bits(ip) {
        (v4, 32) => v4,
        (v6, _) => v6 & !((1u128 << 64) - 1),
    }
}

/// An address range (`10.0.0.0/8`, `::1/128`, or a bare address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let (addr, prefix) = s.trim().split_once('/').unwrap_or((s.trim(), ""));
        let net: IpAddr = addr
            .parse()
            .map_err(|_| format!("{s:?} is not an IP address or CIDR range"))?;
        let max: u8 = if net.is_ipv4() { 32 } else { 128 };
        let prefix = if prefix.is_empty() {
            max
        } else {
            prefix
                .parse()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{s:?}: the prefix length must be 0 to {max}"))?
        };
        // An IPv4-mapped range is the IPv4 range it maps, as addresses are compared (`bits`).
        match net {
            IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => {
                let v4 = v6.to_ipv4_mapped().expect("checked");
                let prefix = prefix.checked_sub(96).ok_or_else(|| {
                    format!("{s:?}: an IPv4-mapped range needs a prefix of at least 96")
                })?;
                Ok(Cidr {
                    net: IpAddr::V4(v4),
                    prefix,
                })
            }
            _ => Ok(Cidr { net, prefix }),
        }
    }
}

impl Cidr {
    /// The range of `prefix` leading bits of `net` (at most 32 for IPv4, 128 for IPv6).
    pub const fn new(net: IpAddr, prefix: u8) -> Cidr {
        Cidr { net, prefix }
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let (net, width) = bits(self.net);
        let (addr, addr_width) = bits(ip);
        if width != addr_width {
            return false;
        }
        let Some(shift) = width.checked_sub(u32::from(self.prefix)) else {
            return false;
        };
        shift == width || (net >> shift) == (addr >> shift)
    }
}

/// The forwarding header trusted proxies set. Only that one is read: a proxy passes on whatever
/// other forwarding header its client sent, so reading "whichever is present" would let a client
/// choose its own address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyHeader {
    /// RFC 7239 `Forwarded: for=...`.
    Forwarded,
    /// `X-Forwarded-For: client, proxy1, ...`.
    XForwardedFor,
}

impl std::str::FromStr for ProxyHeader {
    type Err = String;

    fn from_str(s: &str) -> Result<ProxyHeader, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "forwarded" => Ok(ProxyHeader::Forwarded),
            "x-forwarded-for" => Ok(ProxyHeader::XForwardedFor),
            _ => Err(format!("{s:?}: choose forwarded or x-forwarded-for")),
        }
    }
}

/// Whether `ip` is one of the trusted proxies.
pub fn is_trusted(ip: IpAddr, trusted: &[Cidr]) -> bool {
    trusted.iter().any(|c| c.contains(ip))
}

/// The client's address: the socket peer, unless the peer is a trusted proxy; then the
/// right-most address of the configured forwarding header that is not a trusted proxy itself. A
/// right-most untrusted entry that names no address (`for=unknown`, an obfuscated identifier)
/// gives the peer: everything left of it was written by the client, who must not choose its own
/// address.
pub fn client_ip(
    peer: IpAddr,
    headers: &http::HeaderMap,
    trusted: &[Cidr],
    header: Option<ProxyHeader>,
) -> IpAddr {
    let Some(header) = header.filter(|_| is_trusted(peer, trusted)) else {
        return peer;
    };
    let values = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
    };
    // One entry per hop, None where it names no address.
    let hops: Vec<Option<IpAddr>> = match header {
        ProxyHeader::Forwarded => values(http::header::FORWARDED)
            .map(|element| {
                element.split(';').find_map(|pair| {
                    let (k, v) = pair.trim().split_once('=')?;
                    k.trim()
                        .eq_ignore_ascii_case("for")
                        .then(|| parse_node(v))?
                })
            })
            .collect(),
        ProxyHeader::XForwardedFor => {
            values(http::header::HeaderName::from_static("x-forwarded-for"))
                .map(parse_node)
                .collect()
        }
    };
    match hops
        .iter()
        .rev()
        .find(|hop| !hop.is_some_and(|ip| is_trusted(ip, trusted)))
    {
        Some(hop) => hop.unwrap_or(peer),
        // Every hop is a trusted proxy: the first is the closest to the client.
        None => hops.first().copied().flatten().unwrap_or(peer),
    }
}

/// `1.2.3.4`, `"[2001:db8::1]:4711"`, `1.2.3.4:80` → the address.
fn parse_node(text: &str) -> Option<IpAddr> {
    let t = text.trim().trim_matches('"');
    if let Ok(ip) = t.parse() {
        return Some(ip);
    }
    if let Some(rest) = t.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    t.rsplit_once(':')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn cidrs_parse_and_match() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains("10.2.3.4".parse().unwrap()));
        assert!(!c.contains("11.0.0.1".parse().unwrap()));
        assert!(c.contains("::ffff:10.9.9.9".parse().unwrap()));
        let one: Cidr = "::1".parse().unwrap();
        assert!(one.contains("::1".parse().unwrap()));
        assert!(
            "0.0.0.0/0"
                .parse::<Cidr>()
                .unwrap()
                .contains("8.8.8.8".parse().unwrap())
        );
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("nonsense".parse::<Cidr>().is_err());
        // An IPv4-mapped range is its IPv4 range, not every IPv4 address.
        let mapped: Cidr = "::ffff:10.20.0.0/112".parse().unwrap();
        assert_eq!(mapped, "10.20.0.0/16".parse().unwrap());
        assert!(mapped.contains("10.20.1.1".parse().unwrap()));
        assert!(!mapped.contains("10.21.0.1".parse().unwrap()));
        assert!(!mapped.contains("8.8.8.8".parse().unwrap()));
        assert!("::ffff:10.0.0.0/95".parse::<Cidr>().is_err());
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let trusted: Vec<Cidr> = vec!["127.0.0.1".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        let (xff_only, fwd_only) = (
            Some(ProxyHeader::XForwardedFor),
            Some(ProxyHeader::Forwarded),
        );
        let xff = headers(&[("x-forwarded-for", "198.51.100.7, 10.1.1.1")]);
        assert_eq!(
            client_ip(proxy, &xff, &trusted, xff_only),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client_ip(stranger, &xff, &trusted, xff_only),
            stranger,
            "spoofed header ignored"
        );
        let fwd = headers(&[(
            "forwarded",
            "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.2",
        )]);
        assert_eq!(
            client_ip(proxy, &fwd, &trusted, fwd_only),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_ip(proxy, &headers(&[]), &trusted, fwd_only), proxy);
    }

    /// A proxy that sets X-Forwarded-For passes a client's own `Forwarded` through: reading it
    /// (as "whichever is present" did) let the client pick its address, and so fresh buckets.
    #[test]
    fn only_the_configured_header_is_read() {
        let trusted: Vec<Cidr> = vec!["127.0.0.1".parse().unwrap()];
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let both = headers(&[
            ("forwarded", "for=192.0.2.66"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(
            client_ip(proxy, &both, &trusted, Some(ProxyHeader::XForwardedFor)),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client_ip(proxy, &both, &trusted, Some(ProxyHeader::Forwarded)),
            "192.0.2.66".parse::<IpAddr>().unwrap()
        );
        let xff_only = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(
            client_ip(proxy, &xff_only, &trusted, Some(ProxyHeader::Forwarded)),
            proxy,
            "the other header is not read"
        );
        assert_eq!("X-Forwarded-For".parse(), Ok(ProxyHeader::XForwardedFor));
        // The proxy could not name its client: the client's own entry is not taken instead.
        let unknown = headers(&[("forwarded", "for=192.0.2.66, for=unknown")]);
        assert_eq!(
            client_ip(proxy, &unknown, &trusted, Some(ProxyHeader::Forwarded)),
            proxy
        );
        assert!("whichever".parse::<ProxyHeader>().is_err());
    }

    #[test]
    fn ipv6_clients_are_grouped_by_64() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(client_key(mapped), client_key("10.0.0.1".parse().unwrap()));
    }
}
