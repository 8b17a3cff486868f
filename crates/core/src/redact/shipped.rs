//! The shipped baseline's secret value shapes, generated from `rules/secrets.rules`: do not
//! edit. `HOOKC_BLESS=1 cargo test -p hookc-core shipped_shapes` writes it anew.

/// The `let secret_values` regex.
pub(super) const PATTERN: &str = "(gh[pousr]_[A-Za-z0-9]{20}|github_pat_[A-Za-z0-9_]{22}|glpat-[A-Za-z0-9_-]{20}|xox[baprs]-[A-Za-z0-9-]{10}|xapp-[0-9]-[A-Za-z0-9-]{10}|(sk|rk)_(test|live|prod)_[A-Za-z0-9]{10}|sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20}|sk-(proj|svcacct|admin)-[A-Za-z0-9_-]{20}|sk-[A-Za-z0-9]{20}T3BlbkFJ|(?-u:\\b)(A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?-u:\\b)|-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY|(?-u:\\b)eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,})";

/// Its flags.
pub(super) const FLAGS: &str = "";

/// Texts every match contains one of each set of, lower case.
pub(super) const NEEDLES: &[&[&str]] = &[
    &["gh", "github_pat_", "glpat-", "xox", "xapp-", "test", "live", "prod", "sk-ant-", "proj", "svcacct", "admin", "t3blbkfj", "a3t", "akia", "asia", "abia", "acca", "private key", ".eyj"],
];
