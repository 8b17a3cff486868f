//! The registry differential's Rust driver (`tests/differential/run.sh`): each case of
//! `cases.jsonl` (stdin) through `HookRegistry::run_checked`, its outcome and observation as one
//! JSON line (stdout), for comparison with the Node and Python registries on the same cases.
//! A callback that "throws" returns the error text a binding's thrown error becomes
//! (`the callback failed: …`, `JsonSteps::threw`).

// `Value["key"]` is serde_json's: a missing key reads as null, it never panics.
#![allow(clippy::indexing_slicing)]

use hookc::runtime::{HookError, HookRegistry};
use hookc::{EventKind, HookResult, Policy};
use serde_json::{json, Map, Value};
use std::io::BufRead;
use std::sync::{Arc, Mutex};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let check = |args: &Map<String, Value>| match args.get("path") {
        None | Some(Value::String(_)) => Ok(()),
        Some(_) => Err("`path` must be a string".to_string()),
    };
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let case: Value = serde_json::from_str(&line)?;
        let mut registry = HookRegistry::new();
        for (index, hook) in case["hooks"].as_array().into_iter().flatten().enumerate() {
            if let Some(rules) = hook["rules"].as_str() {
                registry.add_rules(Arc::new(Policy::from_source(&format!("case{index}.rules"), rules)?));
                continue;
            }
            let name = hook["on"].as_str().unwrap_or_default();
            let event = EventKind::ALL
                .into_iter()
                .find(|event| event.name() == name || event.seed_name() == name)
                .ok_or("an unknown event")?;
            match hook["throws"].as_str() {
                Some(message) => {
                    let message = format!("the callback failed: {message}");
                    registry.register(event, move |_| Err(message.clone()));
                }
                None => {
                    let returns: HookResult = serde_json::from_value(hook["returns"].clone())?;
                    registry.register(event, move |_| Ok(returns.clone()));
                }
            }
        }
        let seen = Arc::new(Mutex::new(Value::Null));
        let sink = Arc::clone(&seen);
        registry.observe(None, move |observation| {
            if let Ok(mut seen) = sink.lock() {
                *seen =
                    json!({"outcome": observation.outcome, "matched": observation.matched, "error": observation.error});
            }
        });
        let event = hookc::Event::from_json(case["event"].to_string().as_bytes())?;
        let checking = case["check"].as_bool().unwrap_or(false);
        let run = registry.run_checked(&event, if checking { Some(&check) } else { None });
        let outcome = match run.outcome {
            Ok(result) => json!({ "result": result }),
            Err(error) => {
                let detail = match &error {
                    HookError::Contract { .. } => Some(error.in_full()),
                    _ => None,
                };
                json!({ "error": { "code": hookc::runtime::failure_json(&error)["code"], "message": error.to_string(), "detail": detail } })
            }
        };
        let observation = seen.lock().map(|seen| seen.clone()).unwrap_or_default();
        let mut line = outcome.as_object().cloned().unwrap_or_default();
        line.insert("observation".into(), observation);
        println!("{}", Value::Object(line));
    }
    Ok(())
}
