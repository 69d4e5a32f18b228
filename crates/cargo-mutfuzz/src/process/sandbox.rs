//! The sandbox of the processes that run mutants (test processes, the fuzz harness and
//! its workers): with Linux Landlock they may write only under the directories they are
//! given — `target/mutfuzz/` (the scratch directory), a temp directory of their own, and
//! what `sandbox_writable` in `mutfuzz.toml` grants, but never in the corpus directory a
//! harness reads ([`Policy::read_only`]; the supervisor stores its inputs) — and may
//! neither bind nor connect a TCP socket. Reads stay allowed everywhere. What Landlock cannot express — opening a
//! UDP (or any non-stream IP) socket, or any UNIX socket (so no pathname one is ever
//! connected; `socketpair` stays allowed), and `io_uring`, whose requests open and
//! connect sockets without these system calls — a seccomp filter refuses with `EACCES`.
//!
//! The ruleset and the filter are built once, in this process; each child applies them
//! between fork and exec (`pre_exec`) with four system calls (`prctl(PR_SET_NO_NEW_PRIVS)`,
//! `landlock_restrict_self`, `prctl` again and `seccomp`), which allocate nothing and are
//! async-signal-safe, so this is sound in a multithreaded parent. A trampoline (this binary re-executed to restrict
//! itself, then exec the program) would cost one more exec per test process and need this
//! binary's path, which benchmarks and tests that drive the library do not have.
//! Landlock domains are inherited, so whatever a sandboxed process starts (worker
//! processes, rustdoc's doctests, a test's own children) is sandboxed too.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Result;
use mutfuzz_mutate::Config;

use crate::workspace::layout::Layout;

/// The Landlock ABI the ruleset is written for: filesystem writes (1–3), TCP bind and
/// connect (4), abstract UNIX sockets and signals (6). A newer kernel enforces the same.
#[cfg(target_os = "linux")]
const ABI: landlock::ABI = landlock::ABI::V7;

/// Device files any program may write: discarding output is not an escape.
#[cfg(target_os = "linux")]
const DEVICES: [&str; 6] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom"];

/// What a sandbox allows besides reading.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Directories (or files) the processes may write under; each must exist.
    pub writable: Vec<PathBuf>,
    /// The temp directory of their own: `TMPDIR` (and `TMP`, `TEMP`) point here.
    pub tmp: PathBuf,
    /// Allow TCP bind and connect (`sandbox_network = true` in `mutfuzz.toml`).
    pub network: bool,
}

impl Policy {
    /// The policy for a workspace: `target/mutfuzz/` writable, `target/mutfuzz/tmp/` the
    /// temp directory, and what `mutfuzz.toml` grants (`sandbox_writable`,
    /// `sandbox_network`); `None` with `--no-sandbox`.
    pub fn of(layout: &Layout, config: &Config, no_sandbox: bool) -> Option<Policy> {
        if no_sandbox {
            return None;
        }
        let mut writable = vec![layout.root().to_owned()];
        writable.extend(config.sandbox_writable());
        Some(Policy { writable, tmp: layout.tmp(), network: config.file.sandbox_network })
    }

    /// This policy with `dir` (a corpus directory) read-only. Landlock only adds rights,
    /// so a writable directory that holds `dir` gives way to its entries, all but the one
    /// on the way down to `dir`, whose entries give way the same, level by level:
    /// everything else stays writable, and only a new entry in a directory that holds
    /// `dir` cannot be made. A writable path inside `dir` is dropped; a symlink leading
    /// into `dir` (or to a directory holding it) is left out. A `dir` that does not exist
    /// leaves the policy as it is: there is nothing to protect.
    pub fn read_only(&self, dir: &Path) -> Policy {
        let Ok(dir) = dir.canonicalize() else { return self.clone() };
        let mut writable = Vec::new();
        for path in &self.writable {
            match path.canonicalize() {
                Ok(p) if p.starts_with(&dir) => {}
                Ok(p) if dir.starts_with(&p) => entries_beside(&p, &dir, &mut writable),
                _ => writable.push(path.clone()),
            }
        }
        Policy { writable, ..self.clone() }
    }
}

/// The entries of `holder` (a canonical directory holding the canonical `dir`) but the
/// one on the way down to `dir`, whose own entries are taken the same way.
fn entries_beside(holder: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Some(step) = dir.strip_prefix(holder).ok().and_then(|rest| rest.components().next()) else {
        return;
    };
    let next = holder.join(step);
    let Ok(entries) = std::fs::read_dir(holder) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path == next {
            entries_beside(&next, dir, out);
            continue;
        }
        // A rule follows a symlink: one into `dir`, or above it, would open it again.
        match path.canonicalize() {
            Ok(target) if !target.starts_with(dir) && !dir.starts_with(&target) => out.push(path),
            _ => {}
        }
    }
}

/// A sandbox ready to apply to commands, or none (`--no-sandbox`, or no Landlock).
#[derive(Clone, Debug, Default)]
pub struct Sandbox {
    #[cfg(target_os = "linux")]
    ruleset: Option<std::sync::Arc<std::os::fd::OwnedFd>>,
    /// The seccomp filter refusing the sockets Landlock cannot (none with
    /// `sandbox_network = true`, or on an architecture seccompiler does not know).
    #[cfg(target_os = "linux")]
    sockets: Option<std::sync::Arc<seccompiler::BpfProgram>>,
    tmp: Option<PathBuf>,
}

impl Sandbox {
    /// No sandbox: commands run as they are.
    pub fn off() -> Sandbox {
        Sandbox::default()
    }

    /// The sandbox of `policy`, or none.
    pub fn of(policy: Option<&Policy>) -> Result<Sandbox> {
        policy.map_or_else(|| Ok(Sandbox::off()), Sandbox::new)
    }

    /// A sandbox enforcing `policy`. Where the kernel has no Landlock, says so once (one
    /// line on stderr) and returns [`Sandbox::off`]; a kernel whose Landlock cannot
    /// restrict the network gets the filesystem rules and one line saying so.
    pub fn new(policy: &Policy) -> Result<Sandbox> {
        std::fs::create_dir_all(&policy.tmp).map_err(|e| {
            anyhow::anyhow!("cannot create the sandbox's temp directory {}: {e}", policy.tmp.display())
        })?;
        if let Some(missing) = policy.writable.iter().find(|p| !p.exists()) {
            return Err(crate::console::exit_code::usage(anyhow::anyhow!(
                "{} does not exist, so the sandbox cannot let the tests write there: create it, or \
                 take it out of `sandbox_writable` in mutfuzz.toml",
                missing.display()
            )));
        }
        Sandbox::build(policy)
    }

    #[cfg(target_os = "linux")]
    fn build(policy: &Policy) -> Result<Sandbox> {
        let abi = kernel_abi();
        if abi < 1 {
            note_once(
                "note: this kernel has no Landlock: mutants run without a sandbox (they can write \
                 anywhere and open network connections)",
            );
            return Ok(Sandbox::off());
        }
        if abi < 4 && !policy.network {
            note_once(&format!(
                "note: this kernel's Landlock (ABI {abi}) cannot restrict network connections: \
                 mutants are kept from writing outside target/mutfuzz/, not from the network"
            ));
        }
        let ruleset = ruleset(policy).map_err(|e| anyhow::anyhow!("cannot set up the sandbox: {e:#}"))?;
        let sockets = if policy.network { None } else { socket_filter() };
        Ok(Sandbox {
            ruleset: ruleset.map(std::sync::Arc::new),
            sockets: sockets.map(std::sync::Arc::new),
            tmp: Some(policy.tmp.clone()),
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn build(_policy: &Policy) -> Result<Sandbox> {
        note_once("note: the sandbox needs Linux (Landlock): mutants run without one");
        Ok(Sandbox::off())
    }

    /// Whether commands are sandboxed.
    pub fn is_on(&self) -> bool {
        self.tmp.is_some()
    }

    /// Make `cmd`'s process (and every process it starts) run in the sandbox.
    pub fn apply(&self, cmd: &mut Command) {
        let Some(tmp) = &self.tmp else { return };
        for var in ["TMPDIR", "TMP", "TEMP"] {
            cmd.env(var, tmp);
        }
        #[cfg(target_os = "linux")]
        if self.ruleset.is_some() || self.sockets.is_some() {
            use std::os::fd::AsRawFd;
            use std::os::unix::process::CommandExt;
            let fd = self.ruleset.clone();
            let sockets = self.sockets.clone();
            // SAFETY: the closure makes four system calls and touches no lock or allocator
            // (the filter was compiled here, the child only hands the kernel its slice):
            // it is async-signal-safe, as a child of a multithreaded parent requires.
            unsafe {
                cmd.pre_exec(move || {
                    if let Some(fd) = &fd {
                        restrict(fd.as_raw_fd())?;
                    }
                    if let Some(filter) = &sockets {
                        seccompiler::apply_filter(filter).map_err(|_| std::io::Error::last_os_error())?;
                    }
                    Ok(())
                });
            }
        }
    }
}

/// The kernel's Landlock ABI version; 0 without Landlock.
#[cfg(target_os = "linux")]
pub fn kernel_abi() -> i64 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: a query: a null attribute and size 0 with the version flag read nothing.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    v.max(0)
}

/// The kernel's Landlock ABI version; 0 without Landlock.
#[cfg(not(target_os = "linux"))]
pub fn kernel_abi() -> i64 {
    0
}

/// The ruleset's file descriptor (none where Landlock is missing).
#[cfg(target_os = "linux")]
fn ruleset(policy: &Policy) -> Result<Option<std::os::fd::OwnedFd>> {
    use landlock::{
        AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
    };
    // Writes are what the sandbox takes away; reads, execution and device ioctls stay.
    let write = AccessFs::from_write(ABI) & !AccessFs::IoctlDev;
    let file_write = write & AccessFs::from_file(ABI);
    let mut rules = Ruleset::default().handle_access(write)?;
    if !policy.network {
        rules = rules.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?;
    }
    // A mutant may not signal this process (or anyone outside the sandbox), nor reach a
    // service listening on an abstract UNIX socket.
    let mut created = rules.scope(Scope::Signal | Scope::AbstractUnixSocket)?.create()?;
    for dir in policy.writable.iter().chain(std::iter::once(&policy.tmp)) {
        // Checked to exist by `Sandbox::new`; a file gets the file rights only.
        let access = if dir.is_dir() { write } else { file_write };
        let fd = PathFd::new(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
        created = created.add_rule(PathBeneath::new(fd, access))?;
    }
    for device in DEVICES {
        if let Ok(fd) = PathFd::new(device) {
            created = created.add_rule(PathBeneath::new(fd, file_write))?;
        }
    }
    Ok(created.into())
}

/// The seccomp filter refusing, with `EACCES` as Landlock does, `socket` for any UNIX
/// socket and for an IPv4/IPv6 socket of any type but a stream (UDP, raw, SCTP's
/// seqpacket; TCP is Landlock's), and `io_uring_setup`. `None`, said in one line, on an
/// architecture the filter compiler does not know.
#[cfg(target_os = "linux")]
fn socket_filter() -> Option<seccompiler::BpfProgram> {
    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    };
    let Ok(arch) = seccompiler::TargetArch::try_from(std::env::consts::ARCH) else {
        note_once(&format!(
            "note: no socket filter on {}: mutants are kept from TCP only, not from UDP or UNIX sockets",
            std::env::consts::ARCH
        ));
        return None;
    };
    let arg = |index, op, value: libc::c_int| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value as u64)
    };
    let built = (|| -> Result<seccompiler::BpfProgram, seccompiler::BackendError> {
        // The type argument carries SOCK_NONBLOCK and SOCK_CLOEXEC above its low bits.
        const SOCK_TYPE_MASK: u64 = 0xf;
        let mut socket = vec![SeccompRule::new(vec![arg(0, SeccompCmpOp::Eq, libc::AF_UNIX)?])?];
        for family in [libc::AF_INET, libc::AF_INET6] {
            for kind in [libc::SOCK_DGRAM, libc::SOCK_RAW, libc::SOCK_SEQPACKET, libc::SOCK_RDM] {
                socket.push(SeccompRule::new(vec![
                    arg(0, SeccompCmpOp::Eq, family)?,
                    arg(1, SeccompCmpOp::MaskedEq(SOCK_TYPE_MASK), kind)?,
                ])?);
            }
        }
        let rules =
            [(libc::SYS_socket, socket), (libc::SYS_io_uring_setup, Vec::new())].into_iter().collect();
        let refuse = SeccompAction::Errno(libc::EACCES as u32);
        SeccompFilter::new(rules, SeccompAction::Allow, refuse, arch)?.try_into()
    })();
    // The rules are constants: an error here is a bug, and the sandbox must not be
    // silently weaker for it.
    Some(built.expect("the socket filter's rules are valid"))
}

/// In the child, between fork and exec: enter the sandbox.
#[cfg(target_os = "linux")]
fn restrict(fd: std::os::fd::RawFd) -> std::io::Result<()> {
    // SAFETY: plain system calls on integers; `fd` is the parent's ruleset, kept open.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

fn note_once(text: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| eprintln!("{text}"));
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn policy(root: &Path, network: bool) -> Policy {
        std::fs::create_dir_all(root.join("scratch")).unwrap();
        Policy { writable: vec![root.join("scratch")], tmp: root.join("tmp"), network }
    }

    #[test]
    fn a_writable_path_that_does_not_exist_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = policy(dir.path(), false);
        p.writable.push(dir.path().join("nowhere"));
        let err = Sandbox::new(&p).unwrap_err().to_string();
        assert!(err.contains("nowhere does not exist") && err.contains("sandbox_writable"), "{err}");
    }

    fn sh(sandbox: &Sandbox, script: &str) -> std::process::Output {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        sandbox.apply(&mut cmd);
        cmd.output().unwrap()
    }

    #[test]
    fn this_kernel_has_landlock_with_network_rules() {
        // The machines this project runs on (CI included) have ABI 7; a kernel without it
        // would make every sandbox test below vacuous, so say so loudly.
        assert!(kernel_abi() >= 4, "Landlock ABI {} on this kernel", kernel_abi());
    }

    #[test]
    fn a_sandboxed_process_writes_only_in_its_directories_and_its_temp_dir() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let sandbox = Sandbox::new(&policy(dir.path(), false)).unwrap();
        assert!(sandbox.is_on());
        let out = sh(
            &sandbox,
            &format!(
                "echo x > {s}/a && echo y > \"$TMPDIR/b\" && echo z > /dev/null && cat {v} && \
                 rm -f {v}; echo w > {o}; echo rc=$?",
                s = dir.path().join("scratch").display(),
                v = victim.display(),
                o = dir.path().join("other.txt").display(),
            ),
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("keep") && !stdout.contains("rc=0"), "{stdout} {out:?}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!dir.path().join("other.txt").exists());
        assert!(dir.path().join("scratch/a").exists());
        assert!(dir.path().join("tmp/b").exists());
    }

    #[test]
    fn a_read_only_directory_inside_a_writable_one_is_kept_whole_and_the_rest_stays_writable() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("scratch");
        let corpus = root.join("eval/seed-1/corpus");
        for d in [&corpus, &root.join("eval/seed-1/state"), &root.join("work")] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(corpus.join("input"), "kept").unwrap();
        std::fs::write(root.join("score.json"), "{}").unwrap();
        std::os::unix::fs::symlink(&corpus, root.join("work/link")).unwrap();
        let mut p = policy(dir.path(), false);
        // A grant inside the corpus goes too.
        p.writable.push(corpus.clone());
        let p = p.read_only(&corpus);
        let sandbox = Sandbox::new(&p).unwrap();
        let c = corpus.display();
        let r = root.display();
        // Each attempt on the corpus prints its name when it succeeds.
        let out = sh(
            &sandbox,
            &format!(
                "rm -f {c}/input && echo removed; echo x > {c}/input && echo overwritten; \
                 echo y >> {c}/input && echo appended; echo z > {c}/new && echo created; \
                 mv {c}/input {r}/work/moved && echo moved; echo w > {r}/work/link/via-link && echo linked; \
                 mkdir {r}/made && echo made; \
                 echo s > {r}/eval/seed-1/state/kills.jsonl && echo > {r}/work/file && \
                 echo '{{\"a\":1}}' > {r}/score.json && echo > \"$TMPDIR/t\" && echo rest-writable"
            ),
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout, "rest-writable\n", "{out:?}");
        assert_eq!(std::fs::read_to_string(corpus.join("input")).unwrap(), "kept");
        let mut names: Vec<_> = std::fs::read_dir(&corpus).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["input"]);
        assert!(root.join("eval/seed-1/state/kills.jsonl").is_file());
        // Only a new entry on the way down to the corpus cannot be made.
        assert!(!root.join("made").exists());
        // A directory that does not exist, or holds no writable path, changes nothing.
        let plain = policy(dir.path(), false);
        assert_eq!(plain.read_only(&dir.path().join("nowhere")), plain);
        assert_eq!(plain.read_only(&dir.path().join("tmp")), plain);
    }

    #[test]
    fn a_sandboxed_process_cannot_connect_to_a_local_port_unless_allowed() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let dir = tempfile::tempdir().unwrap();
        // bash's /dev/tcp opens a TCP connection.
        let connect = |sandbox: &Sandbox| {
            let mut cmd = Command::new("bash");
            cmd.args(["-c", &format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected")]);
            sandbox.apply(&mut cmd);
            String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
        };
        assert_eq!(connect(&Sandbox::off()), "connected\n");
        assert_eq!(connect(&Sandbox::new(&policy(dir.path(), false)).unwrap()), "");
        assert_eq!(connect(&Sandbox::new(&policy(dir.path(), true)).unwrap()), "connected\n");
    }

    #[test]
    fn a_sandboxed_process_cannot_send_a_udp_datagram_unless_allowed() {
        let collector = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        collector.set_read_timeout(Some(std::time::Duration::from_millis(500))).unwrap();
        let port = collector.local_addr().unwrap().port();
        let dir = tempfile::tempdir().unwrap();
        // bash's /dev/udp opens a UDP socket and connects it; the datagram says who sent it.
        let send = |sandbox: &Sandbox, who: &str| {
            let mut cmd = Command::new("bash");
            cmd.args(["-c", &format!("exec 3<>/dev/udp/127.0.0.1/{port} && echo {who} >&3 && echo sent")]);
            sandbox.apply(&mut cmd);
            String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
        };
        let received = || {
            let mut buf = [0u8; 64];
            collector.recv(&mut buf).ok().map(|n| String::from_utf8_lossy(&buf[..n]).into_owned())
        };
        assert_eq!(send(&Sandbox::off(), "free"), "sent\n");
        assert_eq!(received().as_deref(), Some("free\n"));
        assert_eq!(send(&Sandbox::new(&policy(dir.path(), false)).unwrap(), "jailed"), "");
        assert_eq!(received(), None);
        assert_eq!(send(&Sandbox::new(&policy(dir.path(), true)).unwrap(), "allowed"), "sent\n");
        assert_eq!(received().as_deref(), Some("allowed\n"));
    }

    #[test]
    fn the_socket_filter_refuses_unix_and_datagram_sockets_and_io_uring_but_not_tcp_or_pairs() {
        // Run in a child of this test so the filter binds nothing else: the child checks
        // each call and exits with a bit per surprise.
        let filter = socket_filter().expect("a filter on this architecture");
        let refused =
            |r: libc::c_long| r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EACCES);
        // SAFETY: fork in a test; the child makes system calls only and exits with `_exit`.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let mut surprises = 0;
            if seccompiler::apply_filter(&filter).is_err() {
                unsafe { libc::_exit(100) };
            }
            let socket = |domain, kind| unsafe { libc::socket(domain, kind, 0) as libc::c_long };
            let checks = [
                refused(socket(libc::AF_UNIX, libc::SOCK_STREAM)),
                refused(socket(libc::AF_UNIX, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC)),
                refused(socket(libc::AF_INET, libc::SOCK_DGRAM)),
                refused(socket(libc::AF_INET6, libc::SOCK_DGRAM | libc::SOCK_NONBLOCK)),
                !refused(socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC)),
                {
                    let mut fds = [0; 2];
                    unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) == 0 }
                },
                refused(unsafe { libc::syscall(libc::SYS_io_uring_setup, 1, std::ptr::null_mut::<u8>()) }),
            ];
            for (bit, ok) in checks.iter().enumerate() {
                if !ok {
                    surprises |= 1 << bit;
                }
            }
            unsafe { libc::_exit(surprises) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFEXITED(status), "{status}");
        assert_eq!(libc::WEXITSTATUS(status), 0, "bits of the checks that failed");
    }

    #[test]
    fn no_sandbox_leaves_the_command_alone() {
        let mut cmd = Command::new("true");
        Sandbox::off().apply(&mut cmd);
        assert_eq!(cmd.get_envs().count(), 0);
    }
}
