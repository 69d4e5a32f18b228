//! Runs the workload and prints `checksum elapsed_ns`.

fn main() {
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let start = std::time::Instant::now();
    let sum = workload::run(rounds);
    println!("{sum} {}", start.elapsed().as_nanos());
}
