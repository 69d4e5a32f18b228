//! End-to-end tests of the sandbox: a mutant that deletes a file in the user's tree,
//! connects to a local TCP port or UNIX socket or sends a UDP datagram is stopped, and
//! its failing attempt gets it caught.

#![cfg(target_os = "linux")]

use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;

fn fixture() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/escape"), tmp.path());
    tmp
}

/// `cargo mutfuzz test` on `dir`, with the fixture's victim file and TCP port.
fn mutfuzz_test(dir: &Path, victim: &Path, port: u16, extra: &[&str]) -> Output {
    mutfuzz_test_env(dir, victim, port, extra, &[])
}

/// The same, with more of the fixture's variables (`ESCAPE_UDP_PORT`, `ESCAPE_SOCKET`).
fn mutfuzz_test_env(dir: &Path, victim: &Path, port: u16, extra: &[&str], env: &[(&str, String)]) -> Output {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
    cmd.args(["mutfuzz", "test", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(["-j", "2"])
        .args(extra);
    for (k, _) in std::env::vars() {
        if k.starts_with("MUTFUZZ_") || k == "CARGO_TARGET_DIR" {
            cmd.env_remove(k);
        }
    }
    cmd.env("ESCAPE_VICTIM", victim).env("ESCAPE_PORT", port.to_string());
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    cmd.output().unwrap()
}

/// The outcome of every mutant that reaches the escape on the tests' input (`n = 5`).
fn escaping(outcomes: &Value) -> Vec<(String, String)> {
    let reaching = ["with true in", "with <= in", "with < in", "1000 with 0 in"];
    outcomes["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| reaching.iter().any(|r| o["mutant"]["description"].as_str().unwrap().contains(r)))
        .map(|o| {
            (
                o["mutant"]["description"].as_str().unwrap().to_owned(),
                o["outcome"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn read_outcomes(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("mutfuzz.out/outcomes.json")).unwrap()).unwrap()
}

/// Connections the listener has waiting.
fn connections(listener: &TcpListener) -> usize {
    listener.set_nonblocking(true).unwrap();
    std::iter::from_fn(|| listener.accept().ok()).count()
}

/// Datagrams the socket has waiting.
fn datagrams(socket: &UdpSocket) -> usize {
    socket.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 64];
    std::iter::from_fn(|| socket.recv(&mut buf).ok()).count()
}

/// Connections the UNIX listener has waiting.
fn unix_connections(listener: &UnixListener) -> usize {
    listener.set_nonblocking(true).unwrap();
    std::iter::from_fn(|| listener.accept().ok()).count()
}

#[test]
fn a_mutant_that_deletes_a_users_file_or_connects_to_a_local_port_is_stopped_and_caught() {
    let tmp = fixture();
    let victim: PathBuf = tmp.path().join("precious.txt");
    std::fs::write(&victim, "the user's work").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // What Landlock cannot stop, the socket filter does: UDP and pathname UNIX sockets.
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    let socket = tmp.path().join("collector.sock");
    let unix = UnixListener::bind(&socket).unwrap();
    let env = [
        ("ESCAPE_UDP_PORT", udp.local_addr().unwrap().port().to_string()),
        ("ESCAPE_SOCKET", socket.display().to_string()),
    ];

    let out = mutfuzz_test_env(tmp.path(), &victim, port, &[], &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{stderr}");
    let escaping_outcomes = escaping(&read_outcomes(tmp.path()));
    assert_eq!(escaping_outcomes.len(), 8, "{escaping_outcomes:?}");
    for (mutant, outcome) in &escaping_outcomes {
        assert_eq!(outcome, "caught", "{mutant}");
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's work");
    assert_eq!(connections(&listener), 0);
    assert_eq!(datagrams(&udp), 0);
    assert_eq!(unix_connections(&unix), 0);
    // The test processes' own temp directory is the sandbox's, inside target/mutfuzz/.
    assert!(tmp.path().join("target/mutfuzz/tmp").is_dir());

    // Without the sandbox the same mutants get out: the file is gone, each collector
    // reached, and a mutant whose escape succeeded is missed.
    let out = mutfuzz_test_env(tmp.path(), &victim, port, &["--no-sandbox"], &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!victim.exists());
    assert!(connections(&listener) > 0);
    assert!(datagrams(&udp) > 0);
    assert!(unix_connections(&unix) > 0);
    let escaping_outcomes = escaping(&read_outcomes(tmp.path()));
    assert!(escaping_outcomes.iter().any(|(_, o)| o == "missed"), "{escaping_outcomes:?}");
}

#[test]
fn a_test_that_needs_the_network_is_named_with_the_way_to_allow_it() {
    let tmp = fixture();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // The unmutated suite itself connects: the baseline fails in the sandbox only.
    let tests = tmp.path().join("tests/small.rs");
    let mut text = std::fs::read_to_string(&tests).unwrap();
    text.push_str(
        "\n#[test]\nfn reports_past_a_thousand() {\n    assert_eq!(escape::report(2000), 2002);\n}\n",
    );
    std::fs::write(&tests, text).unwrap();
    let victim = tmp.path().join("absent.txt");
    let out = mutfuzz_test(tmp.path(), &victim, port, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "error: test reports_past_a_thousand (in test small) fails in the sandbox but passes without it"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("`sandbox_network = true`") && stderr.contains("--no-sandbox"), "{stderr}");

    // Granted in mutfuzz.toml, the suite passes and the mutants run.
    std::fs::write(tmp.path().join("mutfuzz.toml"), "sandbox_network = true\n").unwrap();
    let out = mutfuzz_test(tmp.path(), &victim, port, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{stderr}");
    assert!(stderr.contains("Baseline: 3 tests passed"), "{stderr}");
}

#[test]
#[ignore = "slow: builds a fuzz harness (about a minute)"]
fn a_fuzzed_mutant_that_deletes_a_users_file_or_connects_to_a_local_port_is_stopped_and_killed() {
    let tmp = fixture();
    let victim = tmp.path().join("precious.txt");
    std::fs::write(&victim, "the user's work").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let fuzz = |target: &str| {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cargo-mutfuzz"));
        cmd.args(["mutfuzz", "fuzz", target, "--trials", "200", "--mutant-sample", "0"])
            .current_dir(tmp.path())
            .env_remove("CARGO_TARGET_DIR")
            .env("ESCAPE_VICTIM", &victim)
            .env("ESCAPE_PORT", port.to_string());
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let kills = std::fs::read_to_string(tmp.path().join(format!("target/mutfuzz/{target}/kills.jsonl")))
            .unwrap_or_default();
        let catalog: Value = serde_json::from_str(
            &std::fs::read_to_string(tmp.path().join(format!("target/mutfuzz/{target}/mutants.json")))
                .unwrap(),
        )
        .unwrap();
        // Each mutant that always reaches the escape (the condition forced true) is
        // killed by the panic of its failed attempt.
        let forced: Vec<u64> = catalog
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| {
                let d = m["description"].as_str().unwrap();
                d.contains("with true in") && d.ends_with(&format!(" in {target}"))
            })
            .map(|m| m["id"].as_u64().unwrap())
            .collect();
        assert_eq!(forced.len(), 1, "{catalog}");
        let killed: Vec<Value> = kills.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert!(
            killed.iter().any(|k| k["mutant"].as_u64() == Some(forced[0]) && k["kind"] == "panic"),
            "{kills}"
        );
    };
    fuzz("tidy");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's work");
    fuzz("report");
    assert_eq!(connections(&listener), 0);
}

/// Each file of a directory and its bytes.
fn files_of(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&path).unwrap())
        })
        .collect()
}

#[test]
fn a_fuzzed_mutant_that_spoils_the_corpus_is_refused_and_killed_and_the_corpus_stays_whole() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spoiler"), tmp.path());
    let seeds: Vec<(String, Vec<u8>)> = [vec![1u8, 2, 3, 4], vec![9, 9, 9, 9]]
        .into_iter()
        .map(|b| (mutfuzz_contract::content_name(&b), b))
        .chain([("by-hand".to_owned(), vec![5, 5, 5, 5])])
        .collect();
    let sow = |dir: &Path| {
        std::fs::create_dir_all(dir).unwrap();
        for (name, bytes) in &seeds {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    };
    let fuzz = |corpus: &Path, extra: &[&str]| {
        let mut cmd = common::mutfuzz_command(tmp.path(), &["fuzz", "count", "--trials", "300"]);
        // Every mutant the input reaches runs, in the harness process itself.
        cmd.args(["--mutant-sample", "0", "--isolate", "none", "--corpus"]).arg(corpus).args(extra);
        let out = cmd.env("SPOIL_CORPUS", corpus).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        stderr
    };
    // The mutant that always reaches the spoiling: the condition forced true.
    let forced = || {
        let state = std::fs::read_dir(tmp.path().join("target/mutfuzz/count"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("corpus-"))
            .unwrap();
        let catalog: Value = serde_json::from_str(
            &std::fs::read_to_string(tmp.path().join("target/mutfuzz/count/mutants.json")).unwrap(),
        )
        .unwrap();
        let forced: Vec<u64> = catalog
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["description"].as_str().unwrap().contains("with true in"))
            .map(|m| m["id"].as_u64().unwrap())
            .collect();
        assert_eq!(forced.len(), 1, "{catalog}");
        (forced[0], state)
    };

    // The corpus in the crate's tree, and one under target/mutfuzz/, which the harness
    // may write everywhere else.
    for corpus in [tmp.path().join("mutfuzz/corpus/count"), tmp.path().join("target/mutfuzz/corpus-here")] {
        if corpus.starts_with(tmp.path().join("target")) {
            let _ = std::fs::remove_dir_all(tmp.path().join("target/mutfuzz/count"));
        }
        sow(&corpus);
        let stderr = fuzz(&corpus, &[]);
        // Its lines handed over under names not their bytes' were refused.
        assert!(stderr.contains("handed over with a name that is not their content's"), "{stderr}");
        let (mutant, state) = forced();
        let kills: Vec<Value> = std::fs::read_to_string(state.join("kills.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // The spoiling failed, and its panic killed the mutant.
        assert!(
            kills.iter().any(|k| k["mutant"].as_u64() == Some(mutant) && k["kind"] == "panic"),
            "{kills:?}\n{stderr}"
        );
        let after = files_of(&corpus);
        for (name, bytes) in &seeds {
            assert_eq!(after.get(name), Some(bytes), "{name} in {}", corpus.display());
        }
        // Every other file is an input the supervisor stored: whole, named by its content.
        assert!(after.len() > seeds.len(), "nothing was stored: {stderr}");
        for (name, bytes) in &after {
            assert!(
                name == "by-hand" || mutfuzz_contract::content_name(bytes) == *name,
                "{name} in {}",
                corpus.display()
            );
        }
        for k in &kills {
            assert!(after.contains_key(k["input"].as_str().unwrap()), "{k} names no stored input");
        }
        assert!(!tmp.path().join("mutfuzz/corpus/planted").exists());
        assert!(!tmp.path().join("target/mutfuzz/planted").exists());
    }

    // Without the sandbox the same mutant spoils the corpus and survives.
    let corpus = tmp.path().join("free");
    sow(&corpus);
    let _ = std::fs::remove_dir_all(tmp.path().join("target/mutfuzz/count"));
    fuzz(&corpus, &["--no-sandbox"]);
    let after = files_of(&corpus);
    assert_eq!(after.get("planted").map(Vec::as_slice), Some(&b"planted"[..]));
    assert!(seeds.iter().all(|(name, _)| !after.contains_key(name)), "{:?}", after.keys());
}
