//! [`Policy`]: the small public API that runs the whole pipeline.

use crate::bundle::{self, BundleError};
use crate::check::{self, Checked};
use crate::compile::DecisionTable;
use crate::diagnostic::{self, Diagnostic};
use crate::eval::{self, EvalError, Evaluation, RuleTracer, Scope};
use crate::ir::Rule;
use crate::model::event::Event;
use crate::model::result::HookResult;
use crate::paths::Guarded;
use crate::source::{self, ReadError, SourceFile, SourceMap};
use crate::syntax;
use crate::vocab::agents::Agent;
use crate::vocab::EventKind;
use std::path::{Path, PathBuf};

/// What checks a bundle's detached signature against a trusted key: the engine defines the
/// seam, the application brings the signing library (hookc-cli's minisign `TrustKey`).
pub trait SignatureCheck {
    /// Why a signature was refused.
    type Error: std::fmt::Display;
    /// Whether `signature` (the signature file's text) is this key's signature of `message`.
    fn verify(&self, message: &[u8], signature: &str) -> Result<(), Self::Error>;
}

/// No key: [`Policy::load_bundle`] checks no signature.
enum Unsigned {}

impl SignatureCheck for Unsigned {
    type Error = std::convert::Infallible;
    fn verify(&self, _: &[u8], _: &str) -> Result<(), Self::Error> {
        match *self {}
    }
}

/// A loaded, compiled rule set, ready to evaluate events.
#[derive(Debug, Clone)]
pub struct Policy {
    table: DecisionTable,
    source_hash: String,
    /// The files it was loaded from (rule files and directories, or the bundle and its
    /// signature): guarded against the agent's writes wherever the policy decides, in the hook
    /// command and in every binding alike.
    own_files: Vec<Guarded>,
    /// The files the caller's path settings guard ([`Policy::with_path_settings`]): guarded
    /// beside the own files, and kept when those are dropped.
    guarded_by_caller: Vec<Guarded>,
}

/// Why a policy could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A rule file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The rules have errors; the rendered diagnostics are in the message.
    #[error("{rendered}")]
    Invalid {
        /// The diagnostics.
        diagnostics: Vec<Diagnostic>,
        /// rustc-style rendering of them.
        rendered: String,
    },
    /// The bundle file could not be read.
    #[error("cannot read bundle `{path}`: {source}")]
    BundleIo {
        /// The bundle's path.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The bundle is not valid.
    #[error("bundle `{path}`: {source}")]
    Bundle {
        /// The bundle's path.
        path: PathBuf,
        /// What is wrong.
        source: BundleError,
    },
    /// A trusted key is configured and the bundle is not signed by it.
    #[error(
        "bundle `{path}` is refused: {reason} (a trusted key is configured, so only a bundle it signed is loaded)"
    )]
    Signature {
        /// The bundle's path.
        path: PathBuf,
        /// What is wrong with its signature.
        reason: String,
    },
}

impl LoadError {
    /// For rules that do not check: the first error diagnostic's code (`E0102`), and every
    /// diagnostic as `{code, severity, message}`; for any other load error, neither. (A binding
    /// names its failure by these: `hookc_runtime::FailureCode`.)
    pub fn code_and_diagnostics(&self) -> (Option<diagnostic::Code>, Option<serde_json::Value>) {
        match self {
            LoadError::Invalid { diagnostics, .. } => {
                let list = diagnostics
                    .iter()
                    .map(|diagnostic| {
                        serde_json::json!({
                            "code": diagnostic.code.as_str(),
                            "severity": if diagnostic.is_error() { "error" } else { "warning" },
                            "message": diagnostic.message,
                        })
                    })
                    .collect();
                let first = diagnostics.iter().find(|diagnostic| diagnostic.is_error());
                (first.map(|first| first.code), Some(serde_json::Value::Array(list)))
            }
            _ => (None, None),
        }
    }
}

/// Parses and checks every file of a source map, with the static analysis (as `hookc check`
/// does): syntax errors of all files, or the checker's findings.
pub fn check_sources(sources: &SourceMap) -> Result<Checked, Vec<Diagnostic>> {
    check_to(sources, check::Depth::Lint, &[])
}

/// [`check_sources`], warning also where the rules will not do what they say on these agents
/// (an event hookc does not answer an agent at, an answer it does not honour: W0311).
pub fn check_sources_for(sources: &SourceMap, agents: &[&Agent]) -> Result<Checked, Vec<Diagnostic>> {
    check_to(sources, check::Depth::Lint, agents)
}

fn check_to(sources: &SourceMap, depth: check::Depth, agents: &[&Agent]) -> Result<Checked, Vec<Diagnostic>> {
    let mut asts = Vec::new();
    let mut errors = Vec::new();
    for (id, file) in sources.iter() {
        let (ast, found) = syntax::parse_recovering(id, file);
        asts.push((id, ast));
        errors.extend(found);
    }
    if errors.is_empty() {
        return check::check(sources, &asts, depth, agents);
    }
    // The items that parsed are checked and linted too, so one syntax error hides nothing else.
    // Findings that depend on the items lost (a list defined or used there, an earlier rule that
    // would block) are left out: they may be the syntax error's echo.
    let rest = check::check(sources, &asts, depth, agents).map_or_else(|found| found, |checked| checked.warnings);
    errors.extend(rest.into_iter().filter(|diagnostic| !diagnostic.code.depends_on_every_item()));
    errors.sort_by_key(|diagnostic| (diagnostic.span.file, diagnostic.span.start));
    Err(errors)
}

impl Policy {
    /// Loads rule files: each path is a `.rules` file or a directory searched for them.
    /// The rule files and directories are the policy's own files: no call it decides may write
    /// them ([`Policy::own_files`]).
    pub fn from_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Policy, LoadError> {
        let paths: Vec<PathBuf> = paths.iter().map(|path| path.as_ref().to_path_buf()).collect();
        let policy = Self::from_sources(&source::read_rule_files(&paths)?)?;
        let rules = paths.iter().filter(|path| !path.to_string_lossy().starts_with(crate::builtin::PREFIX));
        Ok(policy.owning(rules.filter_map(|path| Guarded::of(path, "the policy's rules")).collect()))
    }

    /// Compiles rules given as text (`name` is used in diagnostics and unnamed rules' names).
    pub fn from_source(name: &str, text: &str) -> Result<Policy, LoadError> {
        let mut sources = SourceMap::default();
        sources.add(SourceFile::new(name, text));
        Self::from_sources(&sources)
    }

    /// Compiles a source map.
    pub fn from_sources(sources: &SourceMap) -> Result<Policy, LoadError> {
        // Loading a policy to use it skips the static analysis: that is `hookc check`'s job.
        match check_to(sources, check::Depth::Errors, &[]) {
            Ok(checked) => Ok(Policy {
                table: DecisionTable::new(checked.rules)
                    .with_waivers(checked.waivers)
                    .with_redaction(checked.redaction),
                source_hash: bundle::source_hash(sources),
                own_files: Vec::new(),
                guarded_by_caller: Vec::new(),
            }),
            Err(diagnostics) => {
                let rendered = diagnostic::render(&diagnostics, sources, false);
                Err(LoadError::Invalid { diagnostics, rendered })
            }
        }
    }

    /// The same policy, reading the paths of events as `settings` say (case rule, links, home).
    /// The files `settings` guard are guarded as well as the policy's own, never instead.
    pub fn with_path_settings(self, mut settings: crate::paths::PathSettings) -> Policy {
        let guarded_by_caller = settings.guarded.clone();
        for own in &self.own_files {
            if !settings.guarded.contains(own) {
                settings.guarded.push(own.clone());
            }
        }
        Policy { table: self.table.with_path_settings(settings), guarded_by_caller, ..self }
    }

    /// The files this policy was loaded from, which no call it decides may write: its rule files
    /// and directories, or its bundle and the bundle's signature. Empty for rules given as text
    /// or bytes (the caller knows where those came from: it guards them with
    /// [`PathSettings::guarded`](crate::PathSettings)), and for built-in rule sets.
    pub fn own_files(&self) -> &[Guarded] {
        &self.own_files
    }

    /// The same rules, guarding no files of their own: what the rules alone decide. A rule
    /// test's outcome must not depend on where the rules are checked out (`rm -rf /*` reaches
    /// every rule file on the machine), so `hookc test`, `eval` and `explain` judge this; the
    /// hook command guards the files it loaded itself.
    /// What the caller's path settings guard stays guarded.
    pub fn without_own_files(mut self) -> Policy {
        self.own_files.clear();
        self.rebuilt_guard()
    }

    /// This policy, guarding `files` as its own.
    fn owning(mut self, files: Vec<Guarded>) -> Policy {
        self.own_files = files;
        self.rebuilt_guard()
    }

    /// The table's guarded files made again from the caller's and the policy's own.
    fn rebuilt_guard(self) -> Policy {
        let mut settings = self.table.path_settings().clone();
        settings.guarded = self.guarded_by_caller.clone();
        self.with_path_settings(settings)
    }

    /// Loads a bundle written by `hookc compile` (or [`Policy::to_bundle`]).
    pub fn load_bundle(path: impl AsRef<Path>) -> Result<Policy, LoadError> {
        Self::load_bundle_trusted(path, None::<&Unsigned>)
    }

    /// Loads a bundle; with a trusted key, only if `BUNDLE.minisig` beside it
    /// ([`bundle::signature_path`]) is that key's signature of it: of a binary bundle's header,
    /// which holds the digest of every block (what `hookc compile --sign` signs), or of the
    /// whole file. The key is whatever checks signatures ([`SignatureCheck`]: the command line's
    /// minisign key), so the engine itself links no signing library.
    pub fn load_bundle_trusted<K: SignatureCheck + ?Sized>(
        path: impl AsRef<Path>,
        key: Option<&K>,
    ) -> Result<Policy, LoadError> {
        let path = path.as_ref();
        let opened = bundle::Opened::open(path).map_err(|source| match source {
            BundleError::Io(source) => LoadError::BundleIo { path: path.to_path_buf(), source },
            source => LoadError::Bundle { path: path.to_path_buf(), source },
        })?;
        if let Some(key) = key {
            let refused = |reason: String| LoadError::Signature { path: path.to_path_buf(), reason };
            let signature_path = bundle::signature_path(path);
            let signature = std::fs::read_to_string(&signature_path).map_err(|error| {
                refused(format!("its signature `{}` cannot be read ({error})", signature_path.display()))
            })?;
            if let Err(error) = key.verify(opened.signed_part(), &signature) {
                // A signature of the whole file (`minisign -Sm`) is as good, if slower to check.
                let whole = opened.whole().map_err(|error| refused(error.to_string()))?;
                // The header in use must be the one the signature covers: the file is read again
                // here, and may have changed since its header was read.
                if whole.as_slice() == opened.signed_part()
                    || !whole.starts_with(opened.signed_part())
                    || key.verify(&whole, &signature).is_err()
                {
                    return Err(refused(error.to_string()));
                }
            }
        }
        let loaded = opened.load().map_err(|source| LoadError::Bundle { path: path.to_path_buf(), source })?;
        let own = [
            (path.to_path_buf(), "the policy bundle"),
            (bundle::signature_path(path), "the policy bundle's signature"),
        ];
        Ok(Self::from_loaded(loaded).owning(own.iter().filter_map(|(path, what)| Guarded::of(path, what)).collect()))
    }

    /// The policy of a loaded bundle.
    pub fn from_loaded(loaded: bundle::Loaded) -> Policy {
        Policy {
            table: loaded.table,
            source_hash: loaded.source_hash,
            own_files: Vec::new(),
            guarded_by_caller: Vec::new(),
        }
    }

    /// Loads a bundle held in memory, binary or JSON.
    pub fn from_bundle_bytes(bytes: &[u8]) -> Result<Policy, BundleError> {
        let loaded = bundle::read(bytes)?;
        Ok(Self::from_loaded(loaded))
    }

    /// Loads bundle JSON text.
    pub fn from_bundle_str(text: &str) -> Result<Policy, BundleError> {
        Self::from_bundle_bytes(text.as_bytes())
    }

    /// The binary bundle for this policy (what `hookc compile` writes).
    pub fn to_bundle(&self) -> Vec<u8> {
        // Encoding plain data cannot fail short of 4 GiB; an empty file would be refused on load.
        bundle::write(&self.table, &self.source_hash).unwrap_or_default()
    }

    /// The JSON bundle for this policy (`hookc compile --format json`).
    pub fn to_bundle_json(&self) -> String {
        bundle::write_json(&self.table, &self.source_hash).unwrap_or_default()
    }

    /// Evaluates one event: the merged [`HookResult`], or why the rules could not decide (fail
    /// closed: treat an error as a block).
    pub fn evaluate(&self, event: &Event) -> Result<HookResult, EvalError> {
        self.evaluate_full(event).map(|evaluation| evaluation.result)
    }

    /// Evaluates one event as it would be on `date` (`YYYY-MM-DD`, UTC): the day waivers are
    /// judged by. The hook path always judges by the system clock's day; this is for tests and
    /// for embedders that show what a waiver's expiry will change. `None` when `date` is not a
    /// calendar day.
    pub fn evaluate_on(&self, event: &Event, date: &str) -> Option<Result<Evaluation, EvalError>> {
        let day = crate::ir::day_of(date)?;
        Some(eval::evaluate_on(&self.table, event, &mut (), Scope::Indexed, day))
    }

    /// The waivers, in source order.
    pub fn waivers(&self) -> &[crate::ir::Waiver] {
        self.table.waivers()
    }

    /// The secret value shapes hookc redacts from everything it writes (reasons, messages,
    /// `log` lines, audit records, `explain`): the policy's `let secret_values = /…/`, else the
    /// shipped baseline's.
    pub fn redaction(&self) -> Option<&crate::redact::Redaction> {
        match self.table.redaction() {
            Some(own) => Some(own),
            None => crate::redact::shipped(),
        }
    }

    /// Evaluates one event, returning the `log` records too.
    pub fn evaluate_full(&self, event: &Event) -> Result<Evaluation, EvalError> {
        eval::evaluate(&self.table, event, &mut (), Scope::Indexed)
    }

    /// [`Policy::evaluate`] within the limit a hook call has (`hookc hook`, `hookc eval`): a call
    /// that would spend more than 0.7 s, or grow the process by more than 64 MB, compiling the
    /// patterns it reaches fails (closed) instead, saying so; patterns compiled before are used
    /// whatever the limit. What the Node and Python bindings call.
    pub fn evaluate_bounded(&self, event: &Event) -> Result<HookResult, EvalError> {
        self.evaluate_full_bounded(event).map(|evaluation| evaluation.result)
    }

    /// [`Policy::evaluate_full`] within the limit of [`Policy::evaluate_bounded`].
    pub fn evaluate_full_bounded(&self, event: &Event) -> Result<Evaluation, EvalError> {
        crate::pattern::with_compile_budget(crate::pattern::COMPILE_BUDGET, || self.evaluate_full(event))
    }

    /// Evaluates every rule of the event, not just the index's candidates: the same result as
    /// [`Policy::evaluate_full`] (a check of the index, as the tests use it).
    pub fn evaluate_exhaustive(&self, event: &Event) -> Result<Evaluation, EvalError> {
        self.trace(event, &mut ())
    }

    /// Evaluates every rule of the event, reporting each condition to `tracer` (`explain`).
    pub(crate) fn trace(&self, event: &Event, tracer: &mut impl RuleTracer) -> Result<Evaluation, EvalError> {
        eval::evaluate(&self.table, event, tracer, Scope::Exhaustive)
    }

    /// Decodes every rule (a bundle's rules are decoded when first tried): `Err` names the
    /// first that cannot be.
    pub fn validate(&self) -> Result<(), EvalError> {
        self.rules().map(|_| ()).map_err(|reason| EvalError::InvalidRule { id: 0, reason })
    }

    /// Reads the whole policy: every rule decoded, every block of a binary bundle verified
    /// (a call verifies only the blocks it reads). `Err` says what cannot be read.
    pub fn verify(&self) -> Result<(), BundleError> {
        self.table.verify().map_err(BundleError::Unreadable)
    }

    /// How many rules the policy has.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the policy has no rules.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Whether any rule is for this event (a Stop's transcript is read only then).
    pub fn has_rules_for(&self, event: EventKind) -> bool {
        self.table.count_of(event) > 0
    }

    /// The rules, in evaluation order (decoding a bundle's rules that were not needed yet; `Err`
    /// says why one cannot be decoded).
    pub(crate) fn rules(&self) -> Result<Vec<&Rule>, String> {
        self.table.rules()
    }

    /// The decision table.
    pub(crate) fn table(&self) -> &DecisionTable {
        &self.table
    }

    /// The hash of the rule files this policy was compiled from.
    pub fn source_hash(&self) -> &str {
        &self.source_hash
    }
}
