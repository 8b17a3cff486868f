//! A list of hosts as a team writes it for a host field (`egress`, `host`): names, `*.` for a
//! name's every subdomain, IP addresses, and networks in CIDR notation.
//!
//! ```text
//! let known_hosts = ["github.com", "*.githubusercontent.com", "10.0.0.0/8", "fd00::/8", "192.0.2.7"]
//! rule unknown pre_tool_use when egress not in known_hosts => ask "…"
//! ```
//!
//! The field's hosts are normalised before any rule sees them (lower case, punycode, IPv4 in
//! dotted decimal, IPv6 without brackets), and so are the list's names (`Bücher.example.` is
//! `xn--bcher-kva.example`), so a name compares as the HTTP client reads it and an address as
//! an address: `::ffff:10.0.0.1` is not in `10.0.0.0/8`, as no HTTP client reads it as that
//! network's host either. A host the call leaves to run time (`$H.github.com`) is in no list.

use serde::{Deserialize, Serialize};
use std::net::IpAddr;

/// A checked host list: what `in` and `not in` test a host field against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct HostSet {
    /// The entries as written, for display and for the bundle.
    entries: Vec<String>,
    /// Names that match exactly (lower case).
    names: Vec<String>,
    /// `*.NAME`: any host that ends with `.NAME` (lower case, the dot kept).
    subdomains: Vec<String>,
    /// Addresses and networks.
    networks: Vec<(IpAddr, u8)>,
}

/// Why an entry is not a host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{entry}` is not a host: {why}")]
pub struct HostError {
    entry: String,
    why: &'static str,
}

impl HostSet {
    /// Parses every entry; the first that is not a host is the error.
    pub fn new(entries: Vec<String>) -> Result<HostSet, HostError> {
        let mut set = HostSet { entries: Vec::new(), names: Vec::new(), subdomains: Vec::new(), networks: Vec::new() };
        for entry in entries {
            set.add(&entry)?;
            set.entries.push(entry);
        }
        Ok(set)
    }

    fn add(&mut self, entry: &str) -> Result<(), HostError> {
        let error = |why| HostError { entry: entry.to_string(), why };
        if let Some((address, bits)) = entry.split_once('/') {
            let address: IpAddr =
                address.parse().map_err(|_| error("a network is an IP address, `/`, and a prefix length"))?;
            let most = if address.is_ipv4() { 32 } else { 128 };
            let bits: u8 =
                bits.parse().ok().filter(|bits| *bits <= most).ok_or(error("the prefix length is out of range"))?;
            self.networks.push((address, bits));
            return Ok(());
        }
        let unbracketed = entry.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).unwrap_or(entry);
        if let Ok(address) = unbracketed.parse::<IpAddr>() {
            let bits = if address.is_ipv4() { 32 } else { 128 };
            self.networks.push((address, bits));
            return Ok(());
        }
        let (name, subdomains) = match entry.strip_prefix("*.") {
            Some(name) => (name, true),
            None => (entry, false),
        };
        let named = |name: &str| {
            !name.is_empty()
                && !name.starts_with('.')
                && name.chars().all(|c| !c.is_ascii() || c.is_ascii_alphanumeric() || "-._".contains(c))
        };
        // As the field's hosts are: `Bücher.example.` is `xn--bcher-kva.example`, `010.0.0.1` is
        // `8.0.0.1` (an HTTP client reads a leading zero as octal).
        let name = match named(name) {
            true => crate::shell::normalise_host(name),
            false => None,
        };
        let Some(name) = name else {
            return Err(error("a host is a name, `*.` and a name, an IP address, or a network (`10.0.0.0/8`)"));
        };
        if let (false, Ok(address)) = (subdomains, name.parse::<IpAddr>()) {
            let bits = if address.is_ipv4() { 32 } else { 128 };
            self.networks.push((address, bits));
            return Ok(());
        }
        if subdomains {
            self.subdomains.push(format!(".{name}"));
        } else {
            self.names.push(name);
        }
        Ok(())
    }

    /// Whether a normalised host is in the set. One with a character no host has (`$H.github.com`,
    /// a destination the call leaves to run time) is in none.
    pub(crate) fn contains(&self, host: &str) -> bool {
        let host = host.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).unwrap_or(host);
        if !host.chars().all(|c| c.is_ascii_alphanumeric() || "-._:%".contains(c)) {
            return false;
        }
        if let Ok(address) = host.parse::<IpAddr>() {
            return self.networks.iter().any(|(network, bits)| within(address, *network, *bits));
        }
        let host = host.to_ascii_lowercase();
        let host = host.strip_suffix('.').unwrap_or(&host);
        self.names.iter().any(|name| name == host)
            || self.subdomains.iter().any(|suffix| host.ends_with(suffix.as_str()))
    }

    /// The entries as written.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }
}

/// Whether `address` lies in `network/bits` (an IPv4 address is never in an IPv6 network).
fn within(address: IpAddr, network: IpAddr, bits: u8) -> bool {
    let (address, network, width) = match (address, network) {
        (IpAddr::V4(address), IpAddr::V4(network)) => {
            (u128::from(address.to_bits()), u128::from(network.to_bits()), 32)
        }
        (IpAddr::V6(address), IpAddr::V6(network)) => (address.to_bits(), network.to_bits(), 128),
        _ => return false,
    };
    let shift = width - u32::from(bits);
    shift >= width || address >> shift == network >> shift
}

impl TryFrom<Vec<String>> for HostSet {
    type Error = HostError;

    fn try_from(entries: Vec<String>) -> Result<HostSet, HostError> {
        HostSet::new(entries)
    }
}

impl From<HostSet> for Vec<String> {
    fn from(set: HostSet) -> Vec<String> {
        set.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(entries: &[&str]) -> HostSet {
        HostSet::new(entries.iter().map(ToString::to_string).collect()).expect("hosts")
    }

    #[test]
    fn names_subdomains_and_networks() {
        let known = set(&["github.com", "*.githubusercontent.com", "10.0.0.0/8", "fd00::/8", "192.0.2.7", "0.0.0.0/0"]);
        assert!(known.contains("github.com"));
        assert!(known.contains("GitHub.com."));
        assert!(!known.contains("api.github.com"));
        assert!(known.contains("raw.githubusercontent.com"));
        assert!(known.contains("a.b.githubusercontent.com"));
        assert!(!known.contains("githubusercontent.com"));
        assert!(!known.contains("evilgithubusercontent.com"));
        assert!(known.contains("10.255.0.1"));
        assert!(known.contains("fd12::1"));
        assert!(known.contains("[fd12::1]"));
        assert!(!known.contains("fe80::1"));
        let narrow = set(&["10.0.0.0/8", "192.0.2.7"]);
        assert!(narrow.contains("192.0.2.7"));
        assert!(!narrow.contains("192.0.2.8"));
        assert!(!narrow.contains("11.0.0.1"));
        assert!(!narrow.contains("::ffff:10.0.0.1"));
        // `/0` is every address of its family, and only of it.
        assert!(known.contains("203.0.113.9"));
        assert!(!set(&["0.0.0.0/0"]).contains("2001:db8::1"));
        // A host left to run time is in no list, however it ends.
        assert!(!known.contains("$h.githubusercontent.com"));
        assert!(!known.contains("$(cat h).githubusercontent.com"));
        assert!(!set(&["*.example.com"]).contains("`x`.example.com"));
    }

    #[test]
    fn names_are_spelled_as_the_field_spells_hosts() {
        let known = set(&["GitHub.com.", "Bücher.example", "010.0.0.1", "*.Bücher.example"]);
        assert!(known.contains("github.com"));
        assert!(known.contains("xn--bcher-kva.example"));
        assert!(known.contains("a.xn--bcher-kva.example"));
        assert!(known.contains("8.0.0.1"));
    }

    #[test]
    fn odd_prefixes() {
        let known = set(&["172.16.0.0/12", "2001:db8::/33"]);
        assert!(known.contains("172.31.255.255"));
        assert!(!known.contains("172.32.0.0"));
        assert!(known.contains("2001:db8:7fff::1"));
        assert!(!known.contains("2001:db8:8000::1"));
    }

    #[test]
    fn what_is_not_a_host() {
        for entry in [
            "10.0.0.0/33",
            "10.0.0/8",
            "fd00::/129",
            "*.",
            "a/b",
            "*.*.x",
            "user@host",
            "h:22",
            ".x",
            "$URL",
            "`h`",
            "a b",
        ] {
            assert!(HostSet::new(vec![entry.to_string()]).is_err(), "{entry}");
        }
    }

    #[test]
    fn a_bundle_keeps_the_entries() {
        let known = set(&["*.example.com", "10.0.0.0/8"]);
        let json = serde_json::to_string(&known).expect("json");
        assert_eq!(json, r#"["*.example.com","10.0.0.0/8"]"#);
        let back: HostSet = serde_json::from_str(&json).expect("back");
        assert_eq!(back, known);
        assert!(serde_json::from_str::<HostSet>(r#"["10.0.0.0/99"]"#).is_err());
    }
}
