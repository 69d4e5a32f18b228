//! End to end: `cargo mutfuzz tmin` on the scaler fixture shrinks an input the original
//! panics on while it keeps the panic, and any other input while it keeps every viable
//! mutant it kills (those that abort the process among them), writing `<input>.min`.

use std::path::Path;

mod common;
use common::copy_dir;

#[test]
fn tmin_keeps_the_panic_or_else_every_kill() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scaler"), tmp.path());
    let dir = tmp.path();
    // One byte is the whole input: the rest is never read.
    std::fs::write(dir.join("crash"), [0xAB, 1, 2, 3]).unwrap();
    let out = common::mutfuzz_command(dir, &["tmin", "scale", "crash"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Shrunk 4 → 1 bytes in 9 runs; the original still panics: 0xAB is not a scale"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(dir.join("crash.min")).unwrap(), [0xAB]);

    // 200 kills 12 of the 19 mutants; 1 is the smallest byte that still kills them all
    // (0 does not: `*` → `/` gives 0 too). Mutant 14 (`>` → `<`) aborts the process.
    std::fs::write(dir.join("big"), [200, 7, 7]).unwrap();
    let out = common::mutfuzz_command(dir, &["tmin", "scale", "big", "--out", "small"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("error"), "the harness's refusal of `tmin` stays quiet: {stderr}");
    assert!(stderr.contains("Shrunk 3 → 1 bytes in 8 runs; still kills 12 mutant(s):\n  1: "), "{stderr}");
    assert!(stderr.contains("\n  14: replace > with < in scale\n"), "{stderr}");
    assert_eq!(std::fs::read(dir.join("small")).unwrap(), [1]);
    assert!(!dir.join("big.min").exists());
}
