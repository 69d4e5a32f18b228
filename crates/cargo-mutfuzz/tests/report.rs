//! End-to-end tests of `cargo mutfuzz report` and `cargo mutfuzz export`: each runs the
//! `cargo-mutfuzz` binary on a copy of an example crate, then reads what it wrote — the
//! HTML as written and, in headless Chromium, as a browser renders it; `mutation.json`
//! as written, validated against npm's mutation-testing-report-schema and rendered by
//! mutation-testing-elements (`scripts/mutation-report-check`); the exported test under
//! plain `cargo test` and under `cargo mutfuzz test`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command as Plain, Output};

use serde_json::Value;

mod common;
use common::{assert_rendered_counts, copy_dir, mutation_report_check, schema_status, shared_mutants};

/// A copy of `dir` (relative to this crate) in a fresh temp dir.
fn copy_of(dir: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), tmp.path());
    tmp
}

/// `cargo mutfuzz <args>` in `cwd`, with a clean environment; fails the test on an
/// unexpected exit code.
fn mutfuzz(cwd: &Path, args: &[&str], code: i32) -> Output {
    let mut cmd = common::mutfuzz_command(cwd, args);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each mutant the HTML shows: id → the text of its `<div class="mutant …">`.
fn mutant_divs(html: &str) -> BTreeMap<u64, String> {
    let mut found = BTreeMap::new();
    for part in html.split("<div class=\"mutant s-").skip(1) {
        let id = part.split("data-id=\"").nth(1).and_then(|r| r.split('"').next()).unwrap();
        // The div ends where the next mutant or the line's cell ends.
        let end = part.find("</td>").unwrap_or(part.len());
        found.insert(id.parse().unwrap(), part[..end].to_owned());
    }
    found
}

/// The status a mutant's div carries.
fn status(div: &str) -> &str {
    div.split("data-status=\"").nth(1).and_then(|r| r.split('"').next()).unwrap()
}

/// The headless Chromium on this machine, if any (`.ci/run` installs Debian's).
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| Plain::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// The DOM of `html` after Chromium loaded it and ran its script; `None` (with the
/// reason printed) when no Chromium is installed.
fn rendered(html: &Path) -> Option<String> {
    let Some(browser) = chromium() else {
        println!("skipped the browser check: no chromium installed (apt-get install chromium)");
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let out = Plain::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap())
}

/// What Chromium renders: a row per mutant with the status of the file, and the count
/// the report's script wrote (so the script ran).
fn check_in_browser(path: &Path, expected: &BTreeMap<u64, String>) {
    let Some(dom) = rendered(path) else { return };
    let shown = mutant_divs(&dom);
    assert_eq!(shown.len(), expected.len());
    for (id, div) in &shown {
        assert_eq!(status(div), expected[id], "mutant {id}");
    }
    let n = expected.len();
    assert!(dom.contains(&format!("<span id=\"shown\">{n} of {n} mutants shown</span>")), "{dom}");
}

#[test]
fn the_report_of_a_score_marks_every_mutant_as_scored_and_shows_both_outputs_of_an_output_kill() {
    let tmp = common::shared_copy("../../examples/insertion-sort");
    mutfuzz(tmp.path(), &["fuzz", "sort", "--trials", "2000", "--seed", "1"], 0);
    mutfuzz(tmp.path(), &["score", "sort"], 0);
    let out = mutfuzz(tmp.path(), &["report", "sort"], 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let path = tmp.path().join("target/mutfuzz/sort/report.html");
    assert!(stderr.contains(&format!("report in {}", path.display())), "{stderr}");
    let html = std::fs::read_to_string(&path).unwrap();

    let score = json(&tmp.path().join("target/mutfuzz/sort/score.json"));
    let mutants = score["mutants"].as_array().unwrap();
    let expected: BTreeMap<u64, String> = mutants
        .iter()
        .map(|m| (m["id"].as_u64().unwrap(), m["outcome"].as_str().unwrap().to_owned()))
        .collect();
    let shown = mutant_divs(&html);
    assert_eq!(shown.len(), mutants.len());
    let mut output_kills = 0;
    for m in mutants {
        let id = m["id"].as_u64().unwrap();
        let div = &shown[&id];
        assert_eq!(status(div), expected[&id], "mutant {id}: {div}");
        if let Some(kind) = m["kind"].as_str() {
            let input = m["input"].as_str().unwrap();
            assert!(div.contains(&format!("killed by {kind} on input {input}")), "{div}");
        }
        if m["kind"] == "output-differs" {
            output_kills += 1;
            let pre = |class: &str| {
                let start = div.find(&format!("<pre class=\"{class}\">")).unwrap_or_else(|| panic!("{div}"));
                div[start..].split("</pre>").next().unwrap().to_owned()
            };
            // Both outputs, side by side, and they differ (the mutant's from where it differs).
            assert!(pre("mutant-output").contains("<mark>"), "{div}");
            assert_ne!(pre("original"), pre("mutant-output").replace("<mark>", "").replace("</mark>", ""));
        }
    }
    assert!(output_kills > 0, "{score}");
    let killed =
        score["summary"]["output_differs"].as_u64().unwrap() + score["summary"]["panic"].as_u64().unwrap();
    assert!(killed > 0);
    // The summary's score is the scoring run's.
    let percent = score["score_percent"].as_f64().unwrap();
    assert!(html.contains(&format!("<div class=\"n\">{percent:.1}%</div>")), "{percent}");
    // Survived mutants are the to-do list; the plots come from stats.csv.
    for (id, s) in &expected {
        assert_eq!(
            html.contains(&format!("<li class=\"todo-item\" data-id=\"{id}\">")),
            s == "survived",
            "{id}"
        );
    }
    for title in ["Mutants killed", "Corpus size", "Edge coverage"] {
        assert!(html.contains(title), "{title}");
    }
    assert_eq!(html.matches("<svg").count(), 3);
    for outside in ["src=", "href=\"http", "<link", "@import", "url("] {
        assert!(!html.contains(outside), "{outside}");
    }
    check_in_browser(&path, &expected);

    // mutation.json beside it: each verdict in the schema's words, each kill naming its
    // input as a test of the target, with the kill kind and both outputs.
    let shared_path = path.with_file_name("mutation.json");
    let shared = json(&shared_path);
    let by_id = shared_mutants(&shared);
    assert_eq!(by_id.len(), mutants.len());
    let mut statuses = Vec::new();
    let inputs: Vec<&str> = shared["testFiles"]["sort"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    for m in mutants {
        let id = m["id"].as_u64().unwrap();
        let s = &by_id[&id];
        let status = schema_status(m["outcome"].as_str().unwrap(), m["kind"].as_str());
        assert_eq!(s["status"], status, "{s}");
        statuses.push(status);
        let reason = s["statusReason"].as_str().unwrap();
        if let (Some(kind), Some(input)) = (m["kind"].as_str(), m["input"].as_str()) {
            let test = format!("sort/{input}");
            assert_eq!(s["killedBy"], serde_json::json!([test]), "{s}");
            assert!(inputs.contains(&test.as_str()), "{test}");
            assert!(reason.starts_with(&format!("killed by {kind} on input {input}")), "{reason}");
            if kind == "output-differs" {
                let original = m["original_output"].as_str().unwrap();
                assert!(reason.contains(&format!("\noriginal: {original}\nmutant: ")), "{reason}");
            }
        } else {
            assert!(s.get("killedBy").is_none(), "{s}");
        }
    }
    if let Some(rows) = mutation_report_check(&shared_path) {
        assert_rendered_counts(&rows, &statuses, percent);
    }
}

#[test]
fn the_report_of_test_results_marks_caught_missed_and_not_covered_mutants() {
    let tmp = copy_of("../../examples/insertion-sort");
    mutfuzz(tmp.path(), &["test"], 2);
    let report = tmp.path().join("report.html");
    mutfuzz(tmp.path(), &["report", "--output", report.to_str().unwrap()], 0);
    let html = std::fs::read_to_string(&report).unwrap();
    let outcomes = json(&tmp.path().join("mutfuzz.out/outcomes.json"));
    let outcomes = outcomes["outcomes"].as_array().unwrap();
    // The test vocabulary's names for the report's statuses.
    fn status_of(outcome: &str) -> &str {
        match outcome {
            "caught" => "killed",
            "missed" => "survived",
            other => other,
        }
    }
    let expected: BTreeMap<u64, String> = outcomes
        .iter()
        .map(|o| (o["mutant"]["id"].as_u64().unwrap(), status_of(o["outcome"].as_str().unwrap()).to_owned()))
        .collect();
    let shown = mutant_divs(&html);
    assert_eq!(shown.len(), outcomes.len());
    for o in outcomes {
        let id = o["mutant"]["id"].as_u64().unwrap();
        let div = &shown[&id];
        assert_eq!(status(div), expected[&id], "{div}");
        if let Some(test) = o["failing_tests"].as_array().and_then(|t| t.first()) {
            assert!(div.contains("caught by test") && div.contains(test.as_str().unwrap()), "{div}");
        }
    }
    let missed = expected.values().filter(|s| *s == "survived").count();
    assert!(missed > 0 && html.contains(&format!("To do: {missed} missed mutants")), "{missed}");
    assert!(!html.contains("<svg"), "no campaign, no plots");
    check_in_browser(&report, &expected);
    check_shared_report_of_tests(tmp.path(), &report.with_file_name("mutation.json"));
}

/// The `mutation.json` of `cargo mutfuzz test`'s results in `root`: every mutant with the
/// status its outcome maps to, its operator, replacement and place; killed-by and
/// covered-by naming tests of `testFiles`; the source as on disk; the same JSON on stdout
/// with `--format mutation-testing -o -`; valid and rendered with these counts.
fn check_shared_report_of_tests(root: &Path, path: &Path) {
    let shared = json(path);
    let outcomes = json(&root.join("mutfuzz.out/outcomes.json"));
    assert_eq!(shared["schemaVersion"], "2");
    assert_eq!(shared["framework"]["name"], "mutfuzz");
    assert_eq!(shared["framework"]["version"], outcomes["mutfuzz_version"]);
    let tests: Vec<&str> = shared["testFiles"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|f| f["tests"].as_array().unwrap())
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(tests.len() as u64, outcomes["baseline"]["tests"].as_u64().unwrap());
    let by_id = shared_mutants(&shared);
    let list = outcomes["outcomes"].as_array().unwrap();
    assert_eq!(by_id.len(), list.len());
    let mut statuses = Vec::new();
    for o in list {
        let m = &o["mutant"];
        let s = &by_id[&m["id"].as_u64().unwrap()];
        let status = schema_status(o["outcome"].as_str().unwrap(), None);
        assert_eq!(s["status"], status, "{s}");
        statuses.push(status);
        assert_eq!(s["file"], m["file"]);
        assert_eq!(s["mutatorName"], m["operator"]);
        assert_eq!(s["replacement"], m["replacement"]);
        // The example is ASCII: the schema's UTF-16 columns are our char columns.
        assert_eq!(s["location"]["start"], m["span"]["start"], "{s}");
        assert_eq!(s["location"]["end"], m["span"]["end"], "{s}");
        for id in s["killedBy"].as_array().into_iter().chain(s["coveredBy"].as_array()).flatten() {
            assert!(tests.contains(&id.as_str().unwrap()), "{id} is not in testFiles");
        }
        match status {
            "Killed" => {
                let killers = s["killedBy"].as_array().unwrap_or_else(|| panic!("{s}"));
                let failing = o["failing_tests"].as_array().unwrap();
                assert!(!killers.is_empty(), "{s}");
                for k in killers {
                    let k = k.as_str().unwrap();
                    assert!(failing.iter().any(|f| k.ends_with(&format!("/{}", f.as_str().unwrap()))), "{k}");
                }
                let covered = s["coveredBy"].as_array().unwrap();
                assert!(killers.iter().all(|k| covered.contains(k)), "{s}");
            }
            "Survived" | "Timeout" => assert!(!s["coveredBy"].as_array().unwrap().is_empty(), "{s}"),
            "NoCoverage" => assert_eq!(s["coveredBy"], serde_json::json!([]), "{s}"),
            _ => {}
        }
    }
    for (file, f) in shared["files"].as_object().unwrap() {
        assert_eq!(
            f["source"].as_str().unwrap(),
            std::fs::read_to_string(root.join(file)).unwrap(),
            "{file}"
        );
    }
    let stdout = mutfuzz(root, &["report", "--format", "mutation-testing", "--output", "-"], 0).stdout;
    assert_eq!(serde_json::from_slice::<Value>(&stdout).unwrap(), shared);
    if let Some(rows) = mutation_report_check(path) {
        let score = outcomes["summary"]["caught"].as_f64().unwrap()
            + outcomes["summary"]["timeout"].as_f64().unwrap();
        let viable = outcomes["summary"]["total"].as_f64().unwrap()
            - outcomes["summary"]["unviable"].as_f64().unwrap();
        assert_rendered_counts(&rows, &statuses, score * 100.0 / viable);
    }
}

#[test]
#[ignore = "slow: builds the engine's dependencies for plain `cargo test`, then mutation-tests the exported test"]
fn exported_tests_pass_with_plain_cargo_test_and_catch_what_score_killed_by_output_or_panic() {
    let tmp = copy_of("../../examples/insertion-sort");
    mutfuzz(tmp.path(), &["fuzz", "sort", "--trials", "2000", "--seed", "1"], 0);
    mutfuzz(tmp.path(), &["score", "sort"], 0);
    let out = mutfuzz(tmp.path(), &["export", "sort", "--replay"], 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let inputs = std::fs::read_dir(tmp.path().join("mutfuzz/corpus/sort")).unwrap().count();
    assert!(stderr.contains(&format!("Exported {inputs} inputs of sort")), "{stderr}");
    let data = std::fs::read_to_string(tmp.path().join("tests/mutfuzz_sort.jsonl")).unwrap();
    assert_eq!(data.lines().count(), inputs);

    // An ordinary dev-dependency on the engine, nothing vendored into the tree.
    let manifest = std::fs::read_to_string(tmp.path().join("Cargo.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(manifest.contains(&format!("[dev-dependencies]\nmutfuzz = \"{version}\"")), "{manifest}");
    assert!(!tmp.path().join("mutfuzz/engine").exists());
    assert!(stderr.contains(&format!("depends on mutfuzz {version} from the registry")), "{stderr}");

    // Plain `cargo test`, no mutfuzz involved. A user's resolves `mutfuzz` from the
    // registry; this test stays hermetic by patching it, as a user could, to the engine
    // `cargo mutfuzz` wrote out (the same sources, by the build script's embedding).
    let engine = tmp.path().join("target/mutfuzz/engine/mutfuzz");
    assert!(engine.join("Cargo.toml").is_file());
    let mut cargo = Plain::new(env!("CARGO"));
    cargo
        .args(["test", "--test", "mutfuzz_sort", "--config"])
        .arg(format!("patch.crates-io.mutfuzz.path={:?}", engine.display().to_string()))
        .current_dir(tmp.path())
        .env_remove("CARGO_TARGET_DIR");
    let out = cargo.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("test sort_ends_as_recorded_on_every_input_of_its_corpus ... ok"), "{stdout}");

    // A recorded output that no longer holds fails it, naming the input.
    let first = data.lines().next().unwrap();
    let mut record: Value = serde_json::from_str(first).unwrap();
    record["output"] = "[]".into();
    let edited = data.replacen(first, &record.to_string(), 1);
    std::fs::write(tmp.path().join("tests/mutfuzz_sort.jsonl"), edited).unwrap();
    let out = cargo.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("input {}:\n  recorded: []", record["input"].as_str().unwrap())),
        "{stdout}"
    );
    std::fs::write(tmp.path().join("tests/mutfuzz_sort.jsonl"), &data).unwrap();

    // Only the exported test: it catches every mutant the score killed by output or panic.
    mutfuzz(tmp.path(), &["test", "--", "ends_as_recorded"], 2);
    let outcomes = json(&tmp.path().join("mutfuzz.out/outcomes.json"));
    let outcome: BTreeMap<u64, &str> = outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["mutant"]["id"].as_u64().unwrap(), o["outcome"].as_str().unwrap()))
        .collect();
    let score = json(&tmp.path().join("target/mutfuzz/sort/score.json"));
    let mut checked = 0;
    for m in score["mutants"].as_array().unwrap() {
        if matches!(m["kind"].as_str(), Some("output-differs" | "panic")) {
            let id = m["id"].as_u64().unwrap();
            assert_eq!(outcome[&id], "caught", "mutant {id}: {m}");
            checked += 1;
        }
    }
    assert!(checked > 0, "{score}");
}
