//! `hookc stats`: per rule, from audit logs, how often it fired, what it decided (or, in audit
//! mode, would have decided), and on what. A team rolls a rule out in audit mode, reads this,
//! and turns it on when what it would have stopped is what it should stop.

use super::report::{exit, Format};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;

/// Count, per rule, from audit logs: how often it fired, what it decided or would have
/// decided in audit mode, and on what.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  hookc stats /var/log/hookc/audit.jsonl\n  hookc stats --audited audit.jsonl          only the rules in audit mode\n  hookc stats --since 2026-12-01 --rule 'egress-*' audit.jsonl\n  hookc stats --format json audit.jsonl"
)]
pub(super) struct Args {
    /// Audit logs (`--audit-log FILE`'s JSON lines); `-` reads standard input.
    #[arg(required = true, value_name = "LOG")]
    logs: Vec<PathBuf>,
    /// Only records made at or after this time (`YYYY-MM-DD`, or RFC 3339 in UTC).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// Only rules whose name matches (`*` is any run of characters).
    #[arg(long, value_name = "PATTERN")]
    rule: Option<String>,
    /// Only rules in audit mode.
    #[arg(long)]
    audited: bool,
    /// How many of each rule's most frequent targets to show.
    #[arg(long, default_value_t = 3, value_name = "N")]
    top: usize,
    /// `human` (a table), or `json`.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// What the logs say.
#[derive(Debug, Default, Serialize)]
struct Stats {
    /// The records read (after `--since`).
    records: u64,
    /// Lines that were not an audit record.
    unreadable: u64,
    /// The first and last record's time.
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last: Option<String>,
    /// Per rule, most often fired first.
    rules: Vec<RuleStats>,
}

/// One rule's counts.
#[derive(Debug, Default, Serialize)]
struct RuleStats {
    rule: String,
    /// How often it fired (applied, waived and audited alike).
    fired: u64,
    /// The decisions of the calls it fired and applied on, by word.
    decided: BTreeMap<String, u64>,
    /// In audit mode: what it would have decided, by word.
    would: BTreeMap<String, u64>,
    /// How often a waiver lifted it.
    waived: u64,
    /// What it fired on (the record's target, else its tool), most frequent first.
    targets: Vec<Target>,
    #[serde(skip)]
    seen: BTreeMap<String, u64>,
}

/// A target and how often the rule fired on it.
#[derive(Debug, Serialize)]
struct Target {
    target: String,
    count: u64,
}

/// Runs `hookc stats`.
pub(super) fn run(args: &Args) -> u8 {
    let since = match args.since.as_deref().map(instant) {
        None => None,
        Some(Some(since)) => Some(since),
        Some(None) => {
            super::report::error("--since takes a day (`2026-12-01`) or a time in RFC 3339 (`2026-12-01T08:00:00Z`)");
            return exit::USAGE;
        }
    };
    let mut stats = Stats::default();
    let mut span: Option<(std::time::SystemTime, std::time::SystemTime)> = None;
    let mut rules: BTreeMap<String, RuleStats> = BTreeMap::new();
    for log in &args.logs {
        let reader: Box<dyn BufRead> = match log.as_os_str() == "-" {
            true => Box::new(std::io::stdin().lock()),
            false => match std::fs::File::open(log) {
                Ok(file) => Box::new(std::io::BufReader::new(file)),
                Err(io) => {
                    super::report::error(format_args!("cannot read `{}`: {io}", log.display()));
                    return exit::USAGE;
                }
            },
        };
        for line in reader.split(b'\n') {
            let line = match line {
                Ok(line) => line,
                Err(io) => {
                    super::report::error(format_args!("cannot read `{}`: {io}", log.display()));
                    return exit::USAGE;
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let Ok(record) = serde_json::from_slice::<Value>(&line) else {
                stats.unreadable += 1;
                continue;
            };
            let Some((time, at)) =
                record.get("time").and_then(Value::as_str).and_then(|time| Some((time, instant(time)?)))
            else {
                stats.unreadable += 1;
                continue;
            };
            if since.is_some_and(|since| at < since) {
                continue;
            }
            stats.records += 1;
            if span.is_none_or(|(first, _)| at < first) {
                stats.first = Some(time.to_string());
            }
            if span.is_none_or(|(_, last)| at > last) {
                stats.last = Some(time.to_string());
            }
            span = Some(span.map_or((at, at), |(first, last)| (first.min(at), last.max(at))));
            tally(&record, args, &mut rules);
        }
    }
    let mut rules: Vec<RuleStats> = rules.into_values().collect();
    for rule in &mut rules {
        let mut seen: Vec<(String, u64)> = std::mem::take(&mut rule.seen).into_iter().collect();
        seen.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rule.targets = seen.into_iter().take(args.top).map(|(target, count)| Target { target, count }).collect();
    }
    rules.sort_by(|a, b| b.fired.cmp(&a.fired).then_with(|| a.rule.cmp(&b.rule)));
    stats.rules = rules;
    let out = match args.format {
        Format::Json => serde_json::to_string_pretty(&stats).map(|json| json + "\n").unwrap_or_default(),
        Format::Human => text(&stats),
    };
    super::report::print_bytes(out.as_bytes())
}

/// A day (`2026-12-01`, its start in UTC) or an RFC 3339 time, as an instant.
fn instant(text: &str) -> Option<std::time::SystemTime> {
    let text = text.trim();
    match text.len() {
        10 => humantime::parse_rfc3339(&format!("{text}T00:00:00Z")).ok(),
        _ => humantime::parse_rfc3339_weak(text).ok().filter(|_| text.ends_with('Z')).or_else(|| offset_time(text)),
    }
}

/// An RFC 3339 time with a numeric offset (`2026-12-01T10:00:00+02:00`), in UTC.
fn offset_time(text: &str) -> Option<std::time::SystemTime> {
    let (local, sign, offset) = match text.get(text.len().checked_sub(6)?..)? {
        tail if tail.starts_with('+') => (text.get(..text.len() - 6)?, 1i64, tail.get(1..)?),
        tail if tail.starts_with('-') => (text.get(..text.len() - 6)?, -1i64, tail.get(1..)?),
        _ => return None,
    };
    let (hours, minutes) = offset.split_once(':')?;
    let seconds = sign * (hours.parse::<i64>().ok()? * 3600 + minutes.parse::<i64>().ok()? * 60);
    let local = humantime::parse_rfc3339_weak(local).ok()?;
    let shift = std::time::Duration::from_secs(seconds.unsigned_abs());
    match seconds >= 0 {
        true => local.checked_sub(shift),
        false => local.checked_add(shift),
    }
}

/// Counts one record into its rules.
fn tally(record: &Value, args: &Args, rules: &mut BTreeMap<String, RuleStats>) {
    let decision = record.get("decision").and_then(Value::as_str).unwrap_or("none");
    let on = record
        .get("target")
        .or_else(|| record.get("tool"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| record.get("event").and_then(Value::as_str).unwrap_or("?"))
        .to_string();
    let wanted = |rule: &str| args.rule.as_deref().is_none_or(|pattern| hookc_core::rule_name_matches(pattern, rule));
    // A call judged once per file names a rule once per file: it fired once.
    let mut counted = std::collections::BTreeSet::new();
    if !args.audited {
        for rule in record.get("rules").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if wanted(rule) && counted.insert(rule) {
                *entry(rules, rule, &on).decided.entry(decision.to_string()).or_default() += 1;
            }
        }
    }
    for waived in record.get("waived").and_then(Value::as_array).into_iter().flatten() {
        let Some(rule) = waived.get("rule").and_then(Value::as_str).filter(|rule| wanted(rule)) else { continue };
        if !counted.insert(rule) {
            continue;
        }
        match waived.get("would") {
            Some(would) => {
                let word = would.get("decision").and_then(Value::as_str).unwrap_or("none");
                *entry(rules, rule, &on).would.entry(word.to_string()).or_default() += 1;
            }
            None if !args.audited => entry(rules, rule, &on).waived += 1,
            None => {}
        }
    }
}

/// A rule's counts, with one more firing on `on` counted.
fn entry<'r>(rules: &'r mut BTreeMap<String, RuleStats>, rule: &str, on: &str) -> &'r mut RuleStats {
    let stats =
        rules.entry(rule.to_string()).or_insert_with(|| RuleStats { rule: rule.to_string(), ..RuleStats::default() });
    stats.fired += 1;
    *stats.seen.entry(on.to_string()).or_default() += 1;
    stats
}

/// The table.
fn text(stats: &Stats) -> String {
    let mut out = String::new();
    let span = match (&stats.first, &stats.last) {
        (Some(first), Some(last)) => format!(", {first} to {last}"),
        _ => String::new(),
    };
    let unreadable = match stats.unreadable {
        0 => String::new(),
        count => format!(" ({count} line{} not a record, skipped)", if count == 1 { "" } else { "s" }),
    };
    out.push_str(&format!("{} record{}{span}{unreadable}\n", stats.records, if stats.records == 1 { "" } else { "s" }));
    if stats.rules.is_empty() {
        out.push_str("no rule fired\n");
        return out;
    }
    let counts = |map: &BTreeMap<String, u64>| {
        map.iter().map(|(word, count)| format!("{word} {count}")).collect::<Vec<_>>().join(", ")
    };
    let rows: Vec<[String; 5]> = stats
        .rules
        .iter()
        .map(|rule| {
            let mut decided = counts(&rule.decided);
            if rule.waived > 0 {
                decided = [decided, format!("waived {}", rule.waived)]
                    .into_iter()
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            let on = rule
                .targets
                .iter()
                .map(|target| format!("{} ×{}", one_line(&target.target), target.count))
                .collect::<Vec<_>>()
                .join("; ");
            [
                printable(&rule.rule),
                rule.fired.to_string(),
                or_dash(printable(&decided)),
                or_dash(printable(&counts(&rule.would))),
                on,
            ]
        })
        .collect();
    let header = ["rule", "fired", "decided", "audit mode: would", "most often on"].map(String::from);
    let mut widths = [0usize; 5];
    for row in std::iter::once(&header).chain(&rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (column, (cell, width)) in row.iter().zip(widths).enumerate() {
            let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
            match column {
                1 => line.push_str(&format!("{pad}{cell}  ")),
                4 => line.push_str(cell),
                _ => line.push_str(&format!("{cell}{pad}  ")),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn or_dash(text: String) -> String {
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// Text as a terminal shows it harmlessly: a control character (an escape sequence an agent
/// wrote into the log) is `?`.
fn printable(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// A target on one line, at most 60 characters.
fn one_line(target: &str) -> String {
    let flat: String = target.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    match flat.char_indices().nth(59) {
        Some((cut, _)) if flat.chars().count() > 60 => format!("`{}…`", flat.get(..cut).unwrap_or_default()),
        _ => format!("`{flat}`"),
    }
}
