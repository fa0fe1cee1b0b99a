use fanorona_env::{Position, perft};
fn main() {
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let start = Position::standard();
    let t = std::time::Instant::now();
    let n = perft(&start, d);
    let s = t.elapsed().as_secs_f64();
    println!("depth {d}: {n} leaves in {s:.3}s = {:.1} M/s", n as f64 / s / 1e6);
}
